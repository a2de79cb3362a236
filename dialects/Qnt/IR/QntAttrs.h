//===- QntAttrs.h - Attributes of the qnt dialect ---------------*- C++ -*-===//
//
// Observer configuration / state attributes and the enums they use.
//
//===----------------------------------------------------------------------===//

#ifndef QNT_IR_QNTATTRS_H
#define QNT_IR_QNTATTRS_H

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include <optional>

#include "dialects/Qnt/IR/QntEnums.h.inc"

namespace mlir::qnt {
/// Parses a float literal into a FloatAttr of `width` bits (32 or 64).
FailureOr<FloatAttr> parseFloatParameter(AsmParser &parser, unsigned width);
/// Prints the shortest decimal that parses back to exactly `value`.
void printFloatParameter(AsmPrinter &printer, FloatAttr value);
/// Prints `[v0, v1, ...]` with every value exact (parses back bit-exactly).
void printF32Array(AsmPrinter &printer, DenseF32ArrayAttr values);
} // namespace mlir::qnt

#define GET_ATTRDEF_CLASSES
#include "dialects/Qnt/IR/QntAttrs.h.inc"

#include "quantc/Observers/Observer.h"

namespace mlir::qnt {
/// The observer-library configuration an attribute describes (defaults
/// applied).
quantc::obs::ObserverConfig toObserverConfig(ObserverConfigAttr attr);
/// The attribute for `config`; options equal to their defaults, and options
/// that do not apply to the kind, are left out.
ObserverConfigAttr
getObserverConfigAttr(MLIRContext *ctx,
                      const quantc::obs::ObserverConfig &config);
/// The observer-library state an attribute holds.
quantc::obs::ObserverState toObserverState(ObserverStateAttr attr);
/// The attribute for a state that has seen at least one batch.
ObserverStateAttr getObserverStateAttr(MLIRContext *ctx,
                                       const quantc::obs::ObserverState &state);
/// The !quant.uniform element type for quantization parameters computed by
/// an observer with `config`: u8/i8 storage limited to `range`, f32
/// expressed type, per axis along `axis` when given.
quant::QuantizedType getQuantizedType(ObserverConfigAttr config,
                                      const quantc::obs::QParams &qparams,
                                      const quantc::obs::QuantRange &range,
                                      std::optional<int64_t> axis);
} // namespace mlir::qnt

#endif // QNT_IR_QNTATTRS_H
