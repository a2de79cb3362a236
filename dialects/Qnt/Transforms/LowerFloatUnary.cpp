//===- LowerFloatUnary.cpp - Float qnt.unary to linalg --------------------===//
//
// The formula of each function (UnaryFunctions.h) instantiated with the
// Ops type of UnaryArith.h, arith / math ops inside an element-wise
// linalg.generic (qnt-lower-float then makes transcendental functions
// polynomials).
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/ExactArith.h"
#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/UnaryFunctions.h"
#include "dialects/Qnt/Transforms/Passes.h"
#include "dialects/Qnt/Transforms/UnaryArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qnt;

namespace {

struct LowerFloatUnaryPattern : public OpRewritePattern<UnaryOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(UnaryOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getInput().getType();
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    int64_t rank = type.getRank();
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    UnaryFn fn = op.getFn();
    double alpha = op.getAlphaOrDefault(), beta = op.getBetaOrDefault();
    SmallVector<Value> inputs{op.getInput()};
    SmallVector<AffineMap> maps{id};
    if (std::optional<ArrayRef<float>> alphas = op.getAlphas()) {
      // One alpha per channel: a second input read along the last dimension.
      auto alphaType = RankedTensorType::get(
          {static_cast<int64_t>(alphas->size())}, type.getElementType());
      inputs.push_back(arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(alphaType, *alphas)));
      maps.push_back(AffineMap::get(
          rank, 0, rewriter.getAffineDimExpr(rank - 1), getContext()));
    }
    maps.push_back(id);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, inputs, ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          ArithUnaryOps ops{b, l, b.getF32Type()};
          Value y =
              args.size() == 3
                  ? applyUnary(ops, fn, args[0], args[1], ops.constant(beta))
                  : applyUnary(ops, fn, args[0], alpha, beta);
          linalg::YieldOp::create(b, l, y);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// tosa.pow(x, 0.5) marked kSqrtAttr (ONNX Sqrt) as math.sqrt, which is
/// IEEE's square root: NaN for -inf (pow gives +inf) and -0 for -0.
struct LowerSqrtPattern : public OpRewritePattern<tosa::PowOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::PowOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!op->hasAttr(kSqrtAttr) || !type || !type.hasStaticShape() ||
        !type.getElementType().isF32() || op.getInput1().getType() != type)
      return rewriter.notifyMatchFailure(op, "not a static f32 sqrt");
    Location loc = op.getLoc();
    int64_t rank = type.getRank();
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{op.getInput1()}, ValueRange{init},
        SmallVector<AffineMap>{id, id}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l,
                                  Value(math::SqrtOp::create(b, l, args[0])));
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void mlir::qnt::populateLowerFloatUnaryPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerFloatUnaryPattern, LowerSqrtPattern>(patterns.getContext());
}
