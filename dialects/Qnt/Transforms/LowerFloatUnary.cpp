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

/// An element-wise linalg.generic of result type `type` (static shape) over
/// `inputs`: the first read with the identity map, the others with `maps`
/// (one each), `body` yielding the element.
Value elementwise(PatternRewriter &rewriter, Location loc,
                  RankedTensorType type, ArrayRef<Value> inputs,
                  ArrayRef<AffineMap> maps,
                  function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = type.getRank();
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  AffineMap id = rewriter.getMultiDimIdentityMap(rank);
  SmallVector<AffineMap> allMaps{id};
  llvm::append_range(allMaps, maps);
  allMaps.push_back(id);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(rewriter, loc, type, inputs,
                                   ValueRange{init}, allMaps, iterators, body)
      .getResult(0);
}

struct LowerFloatUnaryPattern : public OpRewritePattern<UnaryOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(UnaryOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getInput().getType();
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    UnaryFn fn = op.getFn();
    double alpha = op.getAlphaOrDefault(), beta = op.getBetaOrDefault();
    SmallVector<Value> inputs{op.getInput()};
    SmallVector<AffineMap> maps;
    if (std::optional<ArrayRef<float>> alphas = op.getAlphas()) {
      // One alpha per channel: a second input read along the last dimension.
      auto alphaType = RankedTensorType::get(
          {static_cast<int64_t>(alphas->size())}, type.getElementType());
      inputs.push_back(arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(alphaType, *alphas)));
      int64_t rank = type.getRank();
      maps.push_back(AffineMap::get(
          rank, 0, rewriter.getAffineDimExpr(rank - 1), getContext()));
    }
    rewriter.replaceOp(
        op, elementwise(rewriter, loc, type, inputs, maps,
                        [&](OpBuilder &b, Location l, ValueRange args) {
                          ArithUnaryOps ops{b, l, b.getF32Type()};
                          Value y =
                              args.size() == 3
                                  ? applyUnary(ops, fn, args[0], args[1],
                                               ops.constant(beta))
                                  : applyUnary(ops, fn, args[0], alpha, beta);
                          linalg::YieldOp::create(b, l, y);
                        }));
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
    rewriter.replaceOp(
        op, elementwise(rewriter, op.getLoc(), type, {op.getInput1()}, {},
                        [](OpBuilder &b, Location l, ValueRange args) {
                          linalg::YieldOp::create(
                              b, l, Value(math::SqrtOp::create(b, l, args[0])));
                        }));
    return success();
  }
};

} // namespace

void mlir::qnt::populateLowerFloatUnaryPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerFloatUnaryPattern, LowerSqrtPattern>(patterns.getContext());
}
