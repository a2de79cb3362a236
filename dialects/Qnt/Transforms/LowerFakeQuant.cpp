//===- LowerFakeQuant.cpp - qnt.fake_quant to float linalg ----------------===//
//
// Quantize-dequantize in float, exactly as the int8 reference quantizes
// (quantc::ref::quantize, then dequantize): one element-wise linalg.generic.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qnt;

namespace {

/// Per channel (or the single per-tensor value): the float32 scale, its
/// float32 reciprocal and the clamping bounds qmin - zp, qmax - zp (integers,
/// rounded to float32 once).
struct ChannelParams {
  SmallVector<float> scale, invScale, lo, hi;

  void add(double s, int64_t zp, int64_t qmin, int64_t qmax) {
    float fs = static_cast<float>(s);
    scale.push_back(fs);
    invScale.push_back(1.0f / fs);
    lo.push_back(static_cast<float>(qmin - zp));
    hi.push_back(static_cast<float>(qmax - zp));
  }
};

struct LowerFakeQuantPattern : public OpRewritePattern<FakeQuantOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(FakeQuantOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getInput().getType();
    int64_t rank = type.getRank();
    auto qtype = cast<quant::QuantizedType>(op.getQtype());
    int64_t qmin = qtype.getStorageTypeMin(), qmax = qtype.getStorageTypeMax();
    ChannelParams p;
    std::optional<int64_t> axis;
    if (auto t = dyn_cast<quant::UniformQuantizedType>(qtype)) {
      p.add(t.getScale(), t.getZeroPoint(), qmin, qmax);
    } else if (auto t = dyn_cast<quant::UniformQuantizedPerAxisType>(qtype)) {
      for (auto [s, zp] : llvm::zip_equal(t.getScales(), t.getZeroPoints()))
        p.add(s, zp, qmin, qmax);
      axis = t.getQuantizedDimension();
    } else {
      return rewriter.notifyMatchFailure(op, "not a uniform quantized type");
    }
    MLIRContext *ctx = rewriter.getContext();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<AffineMap> maps{identity};
    SmallVector<Value> inputs{op.getInput()};
    if (axis) {
      // One f32 tensor per parameter, indexed by the quantized dimension.
      AffineMap channel =
          AffineMap::get(rank, 0, {rewriter.getAffineDimExpr(*axis)}, ctx);
      auto paramType = RankedTensorType::get(
          {static_cast<int64_t>(p.scale.size())}, rewriter.getF32Type());
      for (ArrayRef<float> values : {p.invScale, p.lo, p.hi, p.scale}) {
        inputs.push_back(arith::ConstantOp::create(
            rewriter, loc, DenseElementsAttr::get(paramType, values)));
        maps.push_back(channel);
      }
    }
    maps.push_back(identity);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, op.getInput());
    Value init =
        tensor::EmptyOp::create(rewriter, loc, sizes, type.getElementType());

    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, inputs, ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          auto f32 = [&](float v) -> Value {
            return arith::ConstantOp::create(b, l, b.getF32FloatAttr(v));
          };
          Value invScale = axis ? args[1] : f32(p.invScale[0]);
          Value lo = axis ? args[2] : f32(p.lo[0]);
          Value hi = axis ? args[3] : f32(p.hi[0]);
          Value scale = axis ? args[4] : f32(p.scale[0]);
          // quantc::ref::quantize: roundHalfEven(x * (1 / scale)) (NaN
          // gives 0), + zp, clamped to [qmin, qmax]; dequantize: float(q -
          // zp) * scale. Clamping the rounded value to [qmin - zp, qmax - zp]
          // in float is the same for every input, as the bounds are
          // integers (rounded to f32 once) and so is the rounded value.
          Value t = arith::MulFOp::create(b, l, args[0], invScale);
          Value r = math::RoundEvenOp::create(b, l, t);
          Value isNan =
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, r, r);
          r = arith::SelectOp::create(b, l, isNan, f32(0.0f), r);
          r = arith::MaximumFOp::create(b, l, r, lo);
          r = arith::MinimumFOp::create(b, l, r, hi);
          // -0.0 (from rounding a small negative value) becomes +0.0, as
          // float(q - zp) gives in the reference.
          r = arith::AddFOp::create(b, l, r, f32(0.0f));
          linalg::YieldOp::create(
              b, l, ValueRange{arith::MulFOp::create(b, l, r, scale)});
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void mlir::qnt::populateLowerFakeQuantPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerFakeQuantPattern>(patterns.getContext());
}
