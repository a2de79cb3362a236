//===- Elementwise.cpp - qnt.add, qnt.requantize, quant.qcast / dcast -----===//
//
// Ops whose result element i depends only on the operands' element i: one
// loop over the flattened buffers, 16 lanes at a time (scf.parallel), then
// a scalar tail.
// The formulas are quantc::ref's add, concatChannels (one input),
// quantizeTensor and dequantizeTensor.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Patterns.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Reference/Requantize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace quantc::lowering;
namespace ref = quantc::ref;

/// The lowering of an element-wise op: operands (converted tensors) read
/// through flat buffers, `fn` maps loaded lanes to the result's lanes.
static Value
buildElementwise(OpBuilder &b, Location loc, ValueRange operands,
                 RankedTensorType resultType,
                 function_ref<Value(Lanes &, ArrayRef<Value>)> fn) {
  SmallVector<Value> inputs;
  for (Value v : operands)
    inputs.push_back(flatten(b, loc, toBuffer(b, loc, v)));
  Value result = allocBuffer(b, loc, resultType);
  Value flat = flatten(b, loc, result);
  forEachChunk(
      b, loc, index(b, loc, 0), resultType.getNumElements(),
      [&](OpBuilder &nb, Location nl, Value iv, int64_t lanes) {
        Lanes l(nb, nl, lanes);
        SmallVector<Value> loaded;
        for (Value in : inputs)
          loaded.push_back(l.load(in, iv));
        l.store(fn(l, loaded), flat, iv);
      },
      /*parallel=*/true);
  return toTensor(b, loc, result);
}

/// `x - zeroPoint` on extended storage values.
static Value centered(Lanes &l, Value v, const QInfo &q) {
  Value x = l.extend(v, q.isSigned);
  if (q.zeroPoint == 0)
    return x;
  return arith::SubIOp::create(l.builder(), l.location(), x,
                               l.i32(q.zeroPoint));
}

namespace {

struct AddLowering : OpConversionPattern<mlir::qnt::AddOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(mlir::qnt::AddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<QInfo> a = getQInfo(op.getLhs().getType());
    std::optional<QInfo> c = getQInfo(op.getRhs().getType());
    std::optional<QInfo> out = getQInfo(op.getOutput().getType());
    if (!a || !c || !out)
      return rewriter.notifyMatchFailure(op, "needs per-tensor 8-bit types");
    const auto act =
        static_cast<ref::Activation>(static_cast<int>(op.getActivation()));
    ref::Bounds bounds = ref::activationBounds(
        act, 0.0f, 0.0f, out->scale, out->zeroPoint, out->qmin, out->qmax);
    const float ma = ref::requantMultiplier(a->scale, 1.0f, out->scale);
    const float mc = ref::requantMultiplier(c->scale, 1.0f, out->scale);
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getOutput().getType()));
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getLhs(), adaptor.getRhs()}, type,
        [&](Lanes &l, ArrayRef<Value> v) {
          // One statement per op: the IR order does not depend on the C++
          // compiler's argument evaluation order.
          Value x = centered(l, v[0], *a);
          Value mx = l.f32(ma);
          Value y = centered(l, v[1], *c);
          Value my = l.f32(mc);
          return l.narrow(l.requantize2(x, mx, y, my, out->zeroPoint, bounds.lo,
                                        bounds.hi));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct RequantizeLowering : OpConversionPattern<mlir::qnt::RequantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(mlir::qnt::RequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<QInfo> in = getQInfo(op.getInput().getType());
    std::optional<QInfo> out = getQInfo(op.getOutput().getType());
    if (!in || !out)
      return rewriter.notifyMatchFailure(op, "needs per-tensor 8-bit types");
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getOutput().getType()));
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getInput()}, type,
        [&](Lanes &l, ArrayRef<Value> v) {
          return l.narrow(l.rescale(l.extend(v[0], in->isSigned), *in, *out));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct QuantizeCastLowering : OpConversionPattern<quant::QuantizeCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(quant::QuantizeCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<QInfo> out = getQInfo(op.getResult().getType());
    auto inType = dyn_cast<RankedTensorType>(op.getInput().getType());
    if (!out || !inType || !inType.getElementType().isF32())
      return rewriter.notifyMatchFailure(
          op, "needs an f32 tensor and a per-tensor 8-bit type");
    // quantizeUnclamped multiplies by the float32 reciprocal.
    const float invScale = 1.0f / out->scale;
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getInput()}, type,
        [&](Lanes &l, ArrayRef<Value> v) {
          Value x = arith::MulFOp::create(l.builder(), l.location(), v[0],
                                          l.f32(invScale));
          return l.narrow(l.roundClampShift(x, out->zeroPoint, out->qmin,
                                            out->qmax, /*nanToZero=*/true));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DequantizeCastLowering : OpConversionPattern<quant::DequantizeCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(quant::DequantizeCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<QInfo> in = getQInfo(op.getInput().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getResult().getType());
    if (!in || !outType || !outType.getElementType().isF32())
      return rewriter.notifyMatchFailure(
          op, "needs a per-tensor 8-bit type and an f32 tensor");
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getInput()}, outType,
        [&](Lanes &l, ArrayRef<Value> v) {
          Value x = l.toFloat(centered(l, v[0], *in));
          Value scale = l.f32(in->scale);
          return arith::MulFOp::create(l.builder(), l.location(), x, scale)
              .getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void quantc::lowering::populateElementwisePatterns(
    TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<AddLowering, RequantizeLowering, QuantizeCastLowering,
               DequantizeCastLowering>(typeConverter, patterns.getContext());
}
