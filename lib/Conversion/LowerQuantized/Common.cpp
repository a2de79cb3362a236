//===- Common.cpp - Building blocks of the quantized-op lowerings ---------===//

#include "Common.h"

#include "dialects/Qnt/IR/QuantParams.h"
#include "quantc/Reference/Requantize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace quantc::lowering;

std::optional<QInfo> quantc::lowering::getQInfo(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    if (!shaped.hasStaticShape())
      return std::nullopt;
    type = shaped.getElementType();
  }
  auto q = dyn_cast<quant::UniformQuantizedType>(type);
  if (!q || q.getStorageTypeIntegralWidth() != 8 ||
      !q.getExpressedType().isF32())
    return std::nullopt;
  // The reference's view: float32 scale, int32 zero point (qnt::QuantParams).
  mlir::qnt::QuantParams params = *mlir::qnt::quantParams(q);
  QInfo info;
  info.scale = params.scale();
  info.zeroPoint = params.zeroPoint();
  info.qmin = params.qmin;
  info.qmax = params.qmax;
  info.isSigned = params.isSigned;
  return info;
}

RankedTensorType quantc::lowering::storageTensorType(RankedTensorType type) {
  auto q = dyn_cast<quant::QuantizedType>(type.getElementType());
  if (!q)
    return type;
  return type.clone(
      IntegerType::get(type.getContext(), q.getStorageTypeIntegralWidth()));
}

Value quantc::lowering::toBuffer(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto memref = MemRefType::get(type.getShape(), type.getElementType());
  return bufferization::ToBufferOp::create(b, loc, memref, tensor,
                                           /*read_only=*/true);
}

Value quantc::lowering::allocBuffer(OpBuilder &b, Location loc,
                                    RankedTensorType type) {
  auto memref = MemRefType::get(type.getShape(), type.getElementType());
  return memref::AllocOp::create(b, loc, memref, b.getI64IntegerAttr(64));
}

Value quantc::lowering::toTensor(OpBuilder &b, Location loc, Value buffer) {
  auto memref = cast<MemRefType>(buffer.getType());
  auto tensor =
      RankedTensorType::get(memref.getShape(), memref.getElementType());
  return bufferization::ToTensorOp::create(b, loc, tensor, buffer,
                                           b.getUnitAttr(), b.getUnitAttr());
}

Value quantc::lowering::flatten(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() == 1)
    return buffer;
  if (type.getRank() == 0)
    return memref::ExpandShapeOp::create(
        b, loc, MemRefType::get({1}, type.getElementType()), buffer,
        ArrayRef<ReassociationIndices>{});
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return memref::CollapseShapeOp::create(b, loc, buffer,
                                         ArrayRef<ReassociationIndices>{all});
}

Value quantc::lowering::index(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

void quantc::lowering::forEachChunk(
    OpBuilder &b, Location loc, Value lb, int64_t n,
    function_ref<void(OpBuilder &, Location, Value, int64_t)> body,
    bool parallel, int64_t vectorLanes) {
  const int64_t vectorEnd = n / vectorLanes * vectorLanes;
  auto loop = [&](int64_t from, int64_t to, int64_t step, bool threads) {
    std::optional<int64_t> base = getConstantIntValue(lb);
    auto at = [&](int64_t offset) -> Value {
      if (base)
        return index(b, loc, *base + offset);
      return arith::AddIOp::create(b, loc, lb, index(b, loc, offset));
    };
    Value lo = at(from);
    Value hi = at(to);
    if (threads) {
      scf::ParallelOp::create(b, loc, ValueRange{lo}, ValueRange{hi},
                              ValueRange{index(b, loc, step)},
                              [&](OpBuilder &nb, Location nl, ValueRange ivs) {
                                body(nb, nl, ivs[0], step);
                              });
      return;
    }
    scf::ForOp::create(b, loc, lo, hi, index(b, loc, step), ValueRange{},
                       [&](OpBuilder &nb, Location nl, Value iv, ValueRange) {
                         body(nb, nl, iv, step);
                         scf::YieldOp::create(nb, nl);
                       });
  };
  if (vectorEnd > 0)
    loop(0, vectorEnd, vectorLanes, parallel);
  if (vectorEnd < n)
    loop(vectorEnd, n, 1, false);
}

void quantc::lowering::loopNest(
    OpBuilder &b, Location loc, ArrayRef<int64_t> ubs,
    function_ref<void(OpBuilder &, Location, ValueRange)> body, bool parallel) {
  if (parallel && !ubs.empty()) {
    SmallVector<Value> lbs, his, steps;
    for (int64_t ub : ubs) {
      lbs.push_back(index(b, loc, 0));
      his.push_back(index(b, loc, ub));
      steps.push_back(index(b, loc, 1));
    }
    scf::ParallelOp::create(b, loc, lbs, his, steps, body);
    return;
  }
  SmallVector<Value> ivs;
  std::function<void(OpBuilder &, Location, size_t)> build = [&](OpBuilder &nb,
                                                                 Location nl,
                                                                 size_t depth) {
    if (depth == ubs.size()) {
      body(nb, nl, ivs);
      return;
    }
    scf::ForOp::create(nb, nl, index(nb, nl, 0), index(nb, nl, ubs[depth]),
                       index(nb, nl, 1), ValueRange{},
                       [&](OpBuilder &ib, Location il, Value iv, ValueRange) {
                         ivs.push_back(iv);
                         build(ib, il, depth + 1);
                         ivs.pop_back();
                         scf::YieldOp::create(ib, il);
                       });
  };
  build(b, loc, 0);
}

Value quantc::lowering::globalConstant(OpBuilder &b, Location loc,
                                       StringRef prefix,
                                       DenseElementsAttr value) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  SymbolTable symbols(module);
  std::string name;
  for (int i = 0;; ++i) {
    name = (prefix + "_" + Twine(i)).str();
    if (!symbols.lookup(name))
      break;
  }
  auto type = cast<ShapedType>(value.getType());
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    memref::GlobalOp::create(b, loc, b.getStringAttr(name),
                             b.getStringAttr("private"),
                             TypeAttr::get(memrefType), value, b.getUnitAttr(),
                             b.getI64IntegerAttr(64));
  }
  return memref::GetGlobalOp::create(b, loc, memrefType, name);
}

//===----------------------------------------------------------------------===//
// Lanes
//===----------------------------------------------------------------------===//

Type Lanes::type(Type scalar) const {
  if (lanes == 1)
    return scalar;
  return VectorType::get({lanes}, scalar);
}

Value Lanes::f32(float v) {
  Type t = type(b.getF32Type());
  if (lanes == 1)
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(cast<ShapedType>(t), v));
}

Value Lanes::i32(int32_t v) {
  Type t = type(b.getI32Type());
  if (lanes == 1)
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(cast<ShapedType>(t), v));
}

Value Lanes::splat(Value scalar) {
  if (lanes == 1)
    return scalar;
  return vector::BroadcastOp::create(b, loc, type(scalar.getType()), scalar);
}

Value Lanes::load(Value memref, ValueRange indices) {
  Type elt = cast<MemRefType>(memref.getType()).getElementType();
  if (lanes == 1)
    return memref::LoadOp::create(b, loc, memref, indices);
  return vector::LoadOp::create(b, loc, cast<VectorType>(type(elt)), memref,
                                indices);
}

void Lanes::store(Value value, Value memref, ValueRange indices) {
  if (lanes == 1)
    memref::StoreOp::create(b, loc, value, memref, indices);
  else
    vector::StoreOp::create(b, loc, value, memref, indices);
}

Value Lanes::extend(Value v, bool isSigned) {
  Type t = type(b.getI32Type());
  if (isSigned)
    return arith::ExtSIOp::create(b, loc, t, v);
  return arith::ExtUIOp::create(b, loc, t, v);
}

Value Lanes::narrow(Value v) {
  return arith::TruncIOp::create(b, loc, type(b.getI8Type()), v);
}

Value Lanes::toFloat(Value v) {
  return arith::SIToFPOp::create(b, loc, type(b.getF32Type()), v);
}

Value Lanes::clamp(Value v, int32_t lo, int32_t hi) {
  v = arith::MaxSIOp::create(b, loc, v, i32(lo));
  return arith::MinSIOp::create(b, loc, v, i32(hi));
}

Value Lanes::roundClampShift(Value v, int32_t zeroPoint, int32_t lo, int32_t hi,
                             bool nanToZero) {
  Value r = math::RoundEvenOp::create(b, loc, v);
  if (nanToZero) {
    Value isNan =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, r, r);
    r = arith::SelectOp::create(b, loc, isNan, f32(0.0f), r);
  }
  // [lo - zp, hi - zp] has at most 10 significant bits: exact in f32, and so
  // is the shifted result. maxnumf/minnumf order like the int64 clamp on
  // every non-NaN value, infinities included.
  const auto shift = [&](int32_t bound) {
    return static_cast<float>(static_cast<int64_t>(bound) - zeroPoint);
  };
  r = arith::MaxNumFOp::create(b, loc, r, f32(shift(lo)));
  r = arith::MinNumFOp::create(b, loc, r, f32(shift(hi)));
  Value q = arith::FPToSIOp::create(b, loc, type(b.getI32Type()), r);
  if (zeroPoint == 0)
    return q;
  return arith::AddIOp::create(b, loc, q, i32(zeroPoint));
}

Value Lanes::requantize(Value acc, Value multiplier, int32_t zeroPoint,
                        int32_t lo, int32_t hi) {
  Value f = toFloat(acc);
  Value v = arith::MulFOp::create(b, loc, f, multiplier);
  return roundClampShift(v, zeroPoint, lo, hi);
}

Value Lanes::requantize2(Value a, Value ma, Value c, Value mc,
                         int32_t zeroPoint, int32_t lo, int32_t hi) {
  Value fa = toFloat(a);
  Value t1 = arith::MulFOp::create(b, loc, fa, ma);
  Value fc = toFloat(c);
  Value t2 = arith::MulFOp::create(b, loc, fc, mc);
  Value v = arith::AddFOp::create(b, loc, t1, t2);
  return roundClampShift(v, zeroPoint, lo, hi);
}

Value Lanes::rescale(Value x, const QInfo &in, const QInfo &out) {
  if (in.sameParams(out)) {
    // The clamp is a no-op when out's range is its whole storage type.
    if (out.fullRange() && in.isSigned == out.isSigned)
      return x;
    return clamp(x, out.qmin, out.qmax);
  }
  if (in.zeroPoint != 0)
    x = arith::SubIOp::create(b, loc, x, i32(in.zeroPoint));
  float m = quantc::ref::requantMultiplier(in.scale, 1.0f, out.scale);
  return requantize(x, f32(m), out.zeroPoint, out.qmin, out.qmax);
}
