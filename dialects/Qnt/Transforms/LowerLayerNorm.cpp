//===- LowerLayerNorm.cpp - Float layer / group norms to TOSA ops ---------===//
//
// Mean and biased variance over the trailing dimensions in TOSA ops (one
// reduce_sum per dimension, which keeps it as a dimension of size 1 and
// broadcasts back), lowered by tosa-to-linalg with the rest of the float
// model:
//
//   d = x - sum(x) / n;  y = d * rsqrt(sum(d * d) / n + epsilon) * gamma + beta
//
// qnt.group_norm is the same formula on the input reshaped to [N, S, G,
// C / G], reduced over dimensions 1 and 3.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/ExactArith.h"
#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/PatternMatch.h"

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
    auto mul = [&](Value a, Value b, Type t) -> Value {
      return createExactMul(rewriter, loc, t, a, b);
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

/// qnt.group_norm: the input as [N, S, G, C / G], mean and biased variance
/// over dimensions 1 and 3, normalized, reshaped back and scaled per channel.
struct LowerGroupNormPattern : public OpRewritePattern<GroupNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getInput().getType();
    ArrayRef<int64_t> shape = type.getShape();
    int64_t rank = type.getRank(), channels = shape.back();
    auto groups = static_cast<int64_t>(op.getGroups());
    int64_t spatial = 1;
    for (int64_t d = 1; d + 1 < rank; ++d)
      spatial *= shape[d];
    Type f32 = type.getElementType();
    SmallVector<int64_t> grouped{shape[0], spatial, groups, channels / groups};
    SmallVector<int64_t> reduced{shape[0], 1, groups, 1};
    auto groupedType = RankedTensorType::get(grouped, f32);
    auto reducedType = RankedTensorType::get(reduced, f32);
    auto reshape = [&](Value v, ArrayRef<int64_t> to) -> Value {
      return tosa::ReshapeOp::create(
          rewriter, loc, RankedTensorType::get(to, f32), v,
          tosa::getTosaConstShape(rewriter, loc, to));
    };
    auto splat = [&](float v, int64_t r) -> Value {
      auto t = RankedTensorType::get(SmallVector<int64_t>(r, 1), f32);
      return tosa::ConstOp::create(rewriter, loc, t,
                                   DenseElementsAttr::get(t, v));
    };
    auto mul = [&](Value a, Value b, Type t) -> Value {
      return createExactMul(rewriter, loc, t, a, b);
    };
    float inverseCount =
        1.0f / static_cast<float>(spatial * (channels / groups));
    auto mean = [&](Value v) {
      SmallVector<int64_t> s = grouped;
      for (int64_t d : {1, 3}) {
        s[d] = 1;
        v = tosa::ReduceSumOp::create(rewriter, loc,
                                      RankedTensorType::get(s, f32), v,
                                      rewriter.getI32IntegerAttr(d));
      }
      return mul(v, splat(inverseCount, 4), reducedType);
    };
    Value x = reshape(op.getInput(), grouped);
    Value m = mean(x);
    Value d = tosa::SubOp::create(rewriter, loc, groupedType, x, m);
    Value var = mean(mul(d, d, groupedType));
    // Operands built into locals first: C++ leaves the evaluation order of
    // call arguments unspecified, and the output order must not depend on it.
    Value eps = splat(op.getEpsilon().convertToFloat(), 4);
    Value inv = tosa::RsqrtOp::create(
        rewriter, loc, reducedType,
        tosa::AddOp::create(rewriter, loc, reducedType, var, eps));
    Value normalized = reshape(mul(d, inv, groupedType), shape);
    SmallVector<int64_t> paramShape(rank - 1, 1);
    paramShape.push_back(channels);
    Value gamma = reshape(op.getGamma(), paramShape);
    Value y = mul(normalized, gamma, type);
    Value beta = reshape(op.getBeta(), paramShape);
    y = tosa::AddOp::create(rewriter, loc, type, y, beta);
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void mlir::qnt::populateLowerLayerNormPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerLayerNormPattern, LowerGroupNormPattern>(
      patterns.getContext());
}
