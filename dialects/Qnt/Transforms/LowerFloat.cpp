//===- LowerFloat.cpp - The float qnt ops to TOSA and linalg --------------===//
//
// qnt-lower-float: the float forms of the qnt ops (fake_quant, conv2d,
// batch_norm, unary, softmax, layer_norm, group_norm) expanded into TOSA or
// linalg ops, which the standard TOSA -> linalg pipeline compiles with the
// rest of the float model. Each op's lowering is its own pattern set in
// Lower<Op>.cpp; this pass applies them all.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTLOWERFLOAT
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

void mlir::qnt::populateLowerFloatPatterns(RewritePatternSet &patterns) {
  populateLowerFakeQuantPatterns(patterns);
  populateLowerFloatConvPatterns(patterns);
  populateLowerBatchNormPatterns(patterns);
  populateLowerFloatUnaryPatterns(patterns);
  populateLowerSoftmaxPatterns(patterns);
  populateLowerLayerNormPatterns(patterns);
}

namespace {

struct QntLowerFloatPass
    : public mlir::qnt::impl::QntLowerFloatBase<QntLowerFloatPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLowerFloatPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // exp / tanh / erf / log1p of the new bodies (qnt.unary's) as
    // polynomials: vectorizable arith instead of a libm call per element.
    RewritePatternSet approximations(&getContext());
    populateMathPolynomialApproximationPatterns(approximations);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(approximations))))
      signalPassFailure();
  }
};

} // namespace
