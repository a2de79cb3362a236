//===- LowerBatchNorm.cpp - qnt.batch_norm to linalg ----------------------===//
//
// Inference batch norm as one element-wise linalg.generic, for models whose
// batch norms were not folded into a convolution.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qnt;

namespace {

struct LowerBatchNormPattern : public OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getInput().getType();
    int64_t rank = type.getRank();
    // I64Attr getters return uint64_t: convert before comparing.
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (axis < 0)
      axis += rank;
    MLIRContext *ctx = rewriter.getContext();

    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap channel =
        AffineMap::get(rank, 0, {rewriter.getAffineDimExpr(axis)}, ctx);
    SmallVector<AffineMap> maps{identity, channel, channel,
                                channel,  channel, identity};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, op.getInput());
    Value init =
        tensor::EmptyOp::create(rewriter, loc, sizes, type.getElementType());
    Value epsilon =
        arith::ConstantOp::create(rewriter, loc, op.getEpsilonAttr());

    auto generic = linalg::GenericOp::create(
        rewriter, loc, type,
        ValueRange{op.getInput(), op.getGamma(), op.getBeta(), op.getMean(),
                   op.getVar()},
        ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          // (x - mean) * (gamma * rsqrt(var + eps)) + beta, the order PyTorch
          // and ONNX Runtime use for inference batch norm.
          Value denom = math::RsqrtOp::create(
              b, l, arith::AddFOp::create(b, l, args[4], epsilon));
          Value scale = arith::MulFOp::create(b, l, args[1], denom);
          Value centered = arith::SubFOp::create(b, l, args[0], args[3]);
          Value scaled = arith::MulFOp::create(b, l, centered, scale);
          linalg::YieldOp::create(
              b, l, ValueRange{arith::AddFOp::create(b, l, scaled, args[2])});
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void mlir::qnt::populateLowerBatchNormPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerBatchNormPattern>(patterns.getContext());
}
