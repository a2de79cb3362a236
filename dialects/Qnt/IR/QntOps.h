//===- QntOps.h - Operations of the qnt dialect -----------------*- C++ -*-===//

#ifndef QNT_IR_QNTOPS_H
#define QNT_IR_QNTOPS_H

#include "dialects/Qnt/IR/QntAttrs.h"
#include "dialects/Qnt/IR/QntDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::qnt {
/// The default QuantizableOpInterface::quantize: an op of role
/// same_as_input keeps its input's parameters (keepInputParams in
/// QuantizeUtils.h), any other op stays as it is.
LogicalResult quantizeByRole(Operation *op, RewriterBase &rewriter);
} // namespace mlir::qnt

#include "dialects/Qnt/IR/QntInterfaces.h.inc"

namespace mlir::qnt {
/// Fails (with an error at `op`) unless every zero point of `type`, when it
/// is a !quant.uniform type, lies in its storage range.
LogicalResult verifyQuantizedType(Operation *op, Type type);

/// The QuantizedTypesInRange trait of every qnt op: verifyQuantizedType on
/// the element types of its operands and results.
template <typename ConcreteType>
class QuantizedTypesInRange
    : public OpTrait::TraitBase<ConcreteType, QuantizedTypesInRange> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    for (Type type : op->getOperandTypes())
      if (failed(verifyQuantizedType(op, getElementTypeOrSelf(type))))
        return failure();
    for (Type type : op->getResultTypes())
      if (failed(verifyQuantizedType(op, getElementTypeOrSelf(type))))
        return failure();
    return success();
  }
};
} // namespace mlir::qnt

#define GET_OP_CLASSES
#include "dialects/Qnt/IR/QntOps.h.inc"

namespace mlir::qnt {
/// The names (NameLoc) a location carries, in order. A fused layer's
/// location lists what was fused, outermost first (e.g. relu1, bn1, conv1).
SmallVector<std::string> getLayerNames(Location loc);

/// The fused activation of a float tosa.clamp `clamp`: relu for [0, +inf),
/// relu6 for [0, 6], clamp with its bounds otherwise; nullopt for another
/// op or non-float bounds.
struct FusedClamp {
  Activation activation;
  FloatAttr min, max; ///< Set for Activation::clamp only.
};
std::optional<FusedClamp> fusedClamp(Operation *clamp);
/// The fused activation that clamps to [min, max].
FusedClamp fusedClamp(MLIRContext *ctx, double min, double max);

/// Whether `op` keeps its input's parameters and only moves, selects or
/// repeats values (QuantizableOpInterface::movesStorage).
bool movesStorage(Operation *op);
} // namespace mlir::qnt

#endif // QNT_IR_QNTOPS_H
