//===- UnaryArith.h - qnt.unary's formulas as arith / math ops --*- C++ -*-===//
//
// The Ops type of UnaryFunctions.h's `applyUnary` that emits arith / math
// ops on f32 values, scalars or vectors: the float lowering of qnt.unary
// (LowerFloatUnary.cpp, scalars in a linalg.generic body) and the float
// convolution kernels that apply a following qnt.unary in their epilogue
// (lib/Conversion/TileAndVectorize/ConvKernel.cpp, vectors).
//
//===----------------------------------------------------------------------===//

#ifndef QNT_TRANSFORMS_UNARYARITH_H
#define QNT_TRANSFORMS_UNARYARITH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

namespace mlir::qnt {

/// The arithmetic of f32 SSA values of type `type` (f32 or a vector of
/// f32): each operation emits its op; constants are splats.
struct ArithUnaryOps {
  OpBuilder &b;
  Location loc;
  Type type;

  Value constant(double v) {
    if (auto vec = dyn_cast<VectorType>(type))
      return arith::ConstantOp::create(
          b, loc, vec, DenseElementsAttr::get(vec, static_cast<float>(v)));
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value max(Value x, Value y) {
    return arith::MaximumFOp::create(b, loc, x, y);
  }
  Value min(Value x, Value y) {
    return arith::MinimumFOp::create(b, loc, x, y);
  }
  Value abs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value exp(Value x) { return math::ExpOp::create(b, loc, x); }
  Value log1p(Value x) { return math::Log1pOp::create(b, loc, x); }
  Value tanh(Value x) { return math::TanhOp::create(b, loc, x); }
  Value erf(Value x) { return math::ErfOp::create(b, loc, x); }
  Value step(Value x) {
    Value positive = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                           constant(0.0));
    return arith::SelectOp::create(b, loc, positive, constant(1.0),
                                   constant(0.0));
  }
  Value roundEven(Value x) { return math::RoundEvenOp::create(b, loc, x); }
};

} // namespace mlir::qnt

#endif // QNT_TRANSFORMS_UNARYARITH_H
