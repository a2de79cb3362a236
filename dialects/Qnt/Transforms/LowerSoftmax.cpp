//===- LowerSoftmax.cpp - Float qnt.softmax to TOSA ops -------------------===//
//
// The max-subtracted softmax along one axis in TOSA ops (reductions keep
// the axis as a dimension of size 1 and broadcast back), lowered by
// tosa-to-linalg with the rest of the float model.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qnt;

namespace {

struct LowerSoftmaxPattern : public OpRewritePattern<SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getInput().getType();
    SmallVector<int64_t> reduced(type.getShape());
    reduced[op.getAxis()] = 1;
    auto reducedType = RankedTensorType::get(reduced, type.getElementType());
    IntegerAttr axis =
        rewriter.getI32IntegerAttr(static_cast<int32_t>(op.getAxis()));
    Value max = tosa::ReduceMaxOp::create(rewriter, loc, reducedType,
                                          op.getInput(), axis);
    Value shifted =
        tosa::SubOp::create(rewriter, loc, type, op.getInput(), max);
    Value e = tosa::ExpOp::create(rewriter, loc, type, shifted);
    Value sum = tosa::ReduceSumOp::create(rewriter, loc, reducedType, e, axis);
    Value result;
    if (op.getLog()) {
      Value logSum = tosa::LogOp::create(rewriter, loc, reducedType, sum);
      result = tosa::SubOp::create(rewriter, loc, type, shifted, logSum);
    } else {
      Value recip = tosa::ReciprocalOp::create(rewriter, loc, reducedType, sum);
      auto shiftType = RankedTensorType::get({1}, rewriter.getI8Type());
      Value shift =
          tosa::ConstOp::create(rewriter, loc, shiftType,
                                DenseElementsAttr::get(shiftType, int8_t(0)));
      result = tosa::MulOp::create(rewriter, loc, type, e, recip, shift);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::qnt::populateLowerSoftmaxPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerSoftmaxPattern>(patterns.getContext());
}
