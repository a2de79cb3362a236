//===- LowerLayerNorm.cpp - Float qnt.layer_norm to TOSA ops --------------===//
//
// Mean and biased variance over the trailing dimensions in TOSA ops (one
// reduce_sum per dimension, which keeps it as a dimension of size 1 and
// broadcasts back), lowered by tosa-to-linalg with the rest of the float
// model:
//
//   d = x - sum(x) / n;  y = d * rsqrt(sum(d * d) / n + epsilon) * gamma + beta
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTLOWERLAYERNORM
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {

struct LowerLayerNormPattern : public OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getInput().getType();
    int64_t rank = type.getRank(), axis = op.getAxis();
    Type f32 = type.getElementType();
    SmallVector<int64_t> reduced(type.getShape());
    int64_t count = 1;
    for (int64_t d = axis; d < rank; ++d) {
      count *= reduced[d];
      reduced[d] = 1;
    }
    auto reducedType = RankedTensorType::get(reduced, f32);
    auto splat = [&](float v) -> Value {
      auto t = RankedTensorType::get(SmallVector<int64_t>(rank, 1), f32);
      return tosa::ConstOp::create(rewriter, loc, t,
                                   DenseElementsAttr::get(t, v));
    };
    auto shiftType = RankedTensorType::get({1}, rewriter.getI8Type());
    Value shift = tosa::ConstOp::create(
        rewriter, loc, shiftType, DenseElementsAttr::get(shiftType, int8_t(0)));
    auto mul = [&](Value a, Value b, Type t) -> Value {
      return tosa::MulOp::create(rewriter, loc, t, a, b, shift);
    };
    // sum(v) / n over [axis, rank).
    auto mean = [&](Value v) {
      SmallVector<int64_t> shape(type.getShape());
      for (int64_t d = axis; d < rank; ++d) {
        shape[d] = 1;
        v = tosa::ReduceSumOp::create(
            rewriter, loc, RankedTensorType::get(shape, f32), v,
            rewriter.getI32IntegerAttr(static_cast<int32_t>(d)));
      }
      return mul(v, splat(1.0f / static_cast<float>(count)), reducedType);
    };
    Value x = op.getInput();
    Value m = mean(x);
    Value d = tosa::SubOp::create(rewriter, loc, type, x, m);
    Value var = mean(mul(d, d, type));
    // Operands built into locals first: C++ leaves the evaluation order of
    // call arguments unspecified, and the output order must not depend on it.
    Value eps = splat(op.getEpsilon().convertToFloat());
    Value inv = tosa::RsqrtOp::create(
        rewriter, loc, reducedType,
        tosa::AddOp::create(rewriter, loc, reducedType, var, eps));
    // gamma and beta as [1, ..., 1, normalized dims].
    SmallVector<int64_t> paramShape(axis, 1);
    llvm::append_range(paramShape, type.getShape().drop_front(axis));
    auto param = [&](Value p) {
      return tosa::ReshapeOp::create(
          rewriter, loc, RankedTensorType::get(paramShape, f32), p,
          tosa::getTosaConstShape(rewriter, loc, paramShape));
    };
    Value gamma = param(op.getGamma());
    Value y = mul(mul(d, inv, type), gamma, type);
    Value beta = param(op.getBeta());
    y = tosa::AddOp::create(rewriter, loc, type, y, beta);
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct QntLowerLayerNormPass
    : public mlir::qnt::impl::QntLowerLayerNormBase<QntLowerLayerNormPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerLayerNormPattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
