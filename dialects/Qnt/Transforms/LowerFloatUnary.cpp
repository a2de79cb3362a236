//===- LowerFloatUnary.cpp - Float qnt.unary to linalg --------------------===//
//
// The formula of each function (UnaryFunctions.h) instantiated with an Ops
// type that emits arith / math ops inside an element-wise linalg.generic
// (qnt-lower-float then makes transcendental functions polynomials).
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/UnaryFunctions.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qnt;

namespace {

/// The arithmetic of f32 SSA values: each operation emits its op.
struct F32ValueOps {
  OpBuilder &b;
  Location loc;

  Value constant(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value max(Value x, Value y) {
    return arith::MaximumFOp::create(b, loc, x, y);
  }
  Value min(Value x, Value y) {
    return arith::MinimumFOp::create(b, loc, x, y);
  }
  Value abs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value exp(Value x) { return math::ExpOp::create(b, loc, x); }
  Value log1p(Value x) { return math::Log1pOp::create(b, loc, x); }
  Value tanh(Value x) { return math::TanhOp::create(b, loc, x); }
  Value erf(Value x) { return math::ErfOp::create(b, loc, x); }
  Value step(Value x) {
    Value positive = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                           constant(0.0));
    return arith::SelectOp::create(b, loc, positive, constant(1.0),
                                   constant(0.0));
  }
  Value roundEven(Value x) { return math::RoundEvenOp::create(b, loc, x); }
};

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
          F32ValueOps ops{b, l};
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

} // namespace

void mlir::qnt::populateLowerFloatUnaryPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerFloatUnaryPattern>(patterns.getContext());
}
