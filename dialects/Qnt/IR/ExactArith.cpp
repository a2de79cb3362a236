//===- ExactArith.cpp - TOSA arithmetic that folds IEEE-exactly -----------===//

#include "dialects/Qnt/IR/ExactArith.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

bool qnt::isSplatFloatZero(Value v, bool *negative) {
  DenseFPElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return false;
  APFloat value = attr.getSplatValue<APFloat>();
  if (!value.isZero())
    return false;
  if (negative)
    *negative = value.isNegative();
  return true;
}

/// tosa.mul(lhs, rhs) with shift 0.
static Value plainMul(OpBuilder &b, Location loc, Type type, Value lhs,
                      Value rhs) {
  auto shiftType = RankedTensorType::get({1}, b.getI8Type());
  Value shift = tosa::ConstOp::create(
      b, loc, shiftType, DenseElementsAttr::get(shiftType, int8_t(0)));
  return tosa::MulOp::create(b, loc, type, lhs, rhs, shift);
}

Value qnt::createExactMul(OpBuilder &b, Location loc, Type type, Value lhs,
                          Value rhs) {
  bool negative = false;
  Value x;
  if (rhs.getType() == type && isSplatFloatZero(lhs, &negative))
    x = rhs;
  else if (lhs.getType() == type && isSplatFloatZero(rhs, &negative))
    x = lhs;
  if (!x || isSplatFloatZero(x))
    return plainMul(b, loc, type, lhs, rhs);
  // x * +0 = x * (x - x): neither op folds (TOSA folds x - 0, not x - x).
  Value zeroOrNaN = tosa::SubOp::create(b, loc, type, x, x);
  Value product = plainMul(b, loc, type, x, zeroOrNaN);
  if (!negative)
    return product;
  // x * -0 = -(x * +0), as -0 - p (exact for p = +-0 and NaN).
  auto rankedType = cast<RankedTensorType>(type);
  auto unitType =
      RankedTensorType::get(SmallVector<int64_t>(rankedType.getRank(), 1),
                            rankedType.getElementType());
  Value minusZero = tosa::ConstOp::create(
      b, loc, unitType,
      DenseElementsAttr::get(
          unitType, b.getFloatAttr(rankedType.getElementType(), -0.0)));
  return tosa::SubOp::create(b, loc, type, minusZero, product);
}
