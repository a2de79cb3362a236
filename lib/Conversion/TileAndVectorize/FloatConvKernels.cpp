//===- FloatConvKernels.cpp - The quantc-float-conv-kernels pass ----------===//
//
// Float convolutions (qnt.conv2d without quantized types) to the packed
// register-blocked kernels of ConvKernel.cpp; the convolutions they do not
// take stay for qnt-lower-float.
//
//===----------------------------------------------------------------------===//

#include "FloatKernels.h"

#include "quantc/Conversion/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace quantc {
#define GEN_PASS_DEF_FLOATCONVKERNELS
#include "quantc/Conversion/Passes.h.inc"
} // namespace quantc

using namespace mlir;

namespace {

struct FloatConvKernelsPass
    : public quantc::impl::FloatConvKernelsBase<FloatConvKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<qnt::Conv2DOp> convs;
    getOperation().walk([&](qnt::Conv2DOp op) {
      if (!op.isQuantized())
        convs.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (qnt::Conv2DOp op : convs)
      (void)quantc::float_codegen::lowerFloatConv(rewriter, op, vectorBits);
  }
};

} // namespace
