//===- ExactArith.h - TOSA arithmetic that folds IEEE-exactly ---*- C++ -*-===//
//
// Upstream TOSA folds tosa.mul by a splat zero constant to that zero, in the
// greedy rewriter and in the dialect conversion to linalg alike. For floats
// that is not IEEE arithmetic: inf * 0 and NaN * 0 are NaN, and -3 * 0 is
// -0. Every multiplication quantc builds goes through createExactMul, which
// builds such a product in a form no folder changes.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_DIALECTS_QNT_IR_EXACTARITH_H
#define QUANTC_DIALECTS_QNT_IR_EXACTARITH_H

#include "mlir/IR/Builders.h"

namespace mlir::qnt {

/// The unit attribute that marks a tosa.pow(x, 0.5) as ONNX's Sqrt: the
/// float lowering computes it with math.sqrt (IEEE: sqrt(-inf) is NaN and
/// sqrt(-0) is -0, where pow gives +inf and +0); patterns and quantization
/// see the pow.
constexpr llvm::StringLiteral kSqrtAttr = "quantc.sqrt";

/// Whether `v` is a float constant whose elements are all +0 or all -0
/// (what TOSA's folders take for "zero"); `negative` says which.
bool isSplatFloatZero(Value v, bool *negative = nullptr);

/// `lhs * rhs` (tosa.mul with shift 0, broadcasting to `type`). Where one
/// factor is a splat float zero constant and the other has type `type`
/// (the case TOSA folds to zero), the product is built exactly instead:
/// x * +0 as x * (x - x) (x - x is +0 for a finite x and NaN otherwise; x *
/// +0 then has x's sign), x * -0 as -0 - x * (x - x).
Value createExactMul(OpBuilder &b, Location loc, Type type, Value lhs,
                     Value rhs);

} // namespace mlir::qnt

#endif // QUANTC_DIALECTS_QNT_IR_EXACTARITH_H
