//===- LowerFloatConv.cpp - Float qnt.conv2d to TOSA ----------------------===//
//
// The float form of qnt.conv2d is a fused layer; to run the float model
// (calibration, reference outputs) it is expanded back into TOSA ops, which
// the standard TOSA -> linalg pipeline compiles.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include <cfloat>

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTLOWERFLOATCONV
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {

Value f32Constant(PatternRewriter &rewriter, Location loc,
                  ArrayRef<int64_t> shape, float value) {
  auto type = RankedTensorType::get(shape, rewriter.getF32Type());
  return tosa::ConstOp::create(rewriter, loc, type,
                               DenseElementsAttr::get(type, value));
}

/// Static slice [offsets, offsets + sizes) of a tensor.
Value slice(PatternRewriter &rewriter, Location loc, Value input,
            ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
  SmallVector<OpFoldResult> o = getAsIndexOpFoldResult(rewriter.getContext(),
                                                       offsets),
                            s = getAsIndexOpFoldResult(rewriter.getContext(),
                                                       sizes),
                            st(offsets.size(), rewriter.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(rewriter, loc, input, o, s, st);
}

struct LowerFloatConv : public OpRewritePattern<Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (op.isQuantized())
      return failure();
    Location loc = op.getLoc();
    auto inType = op.getInput().getType();
    auto filterType = op.getFilter().getType();
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    if (!inType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic input shape");
    int64_t n = inType.getDimSize(0), c = inType.getDimSize(3);
    int64_t o = filterType.getDimSize(0), kh = filterType.getDimSize(1),
            kw = filterType.getDimSize(2), ci = filterType.getDimSize(3);
    int64_t groups = static_cast<int64_t>(op.getGroups());
    SmallVector<int64_t> pad(op.getPad());
    ArrayRef<int64_t> strides = op.getStrides(), dil = op.getDilations();

    // TOSA requires (H - 1 + pads - (K - 1) * d) to divide by the stride:
    // drop bottom/right padding rows a floor-mode conv never reads, and
    // input rows when the padding is not enough.
    Value input = op.getInput();
    int64_t h = inType.getDimSize(1), w = inType.getDimSize(2);
    int64_t trimH = 0, trimW = 0;
    for (int i = 0; i < 2; ++i) {
      int64_t size = i == 0 ? h : w;
      int64_t k = i == 0 ? kh : kw;
      int64_t rem =
          (size - 1 + pad[2 * i] + pad[2 * i + 1] - (k - 1) * dil[i]) %
          strides[i];
      int64_t fromPad = std::min(rem, pad[2 * i + 1]);
      pad[2 * i + 1] -= fromPad;
      (i == 0 ? trimH : trimW) = rem - fromPad;
    }
    if (trimH || trimW) {
      h -= trimH;
      w -= trimW;
      input = slice(rewriter, loc, input, {0, 0, 0, 0}, {n, h, w, c});
    }

    Value bias =
        op.getBias() ? op.getBias() : f32Constant(rewriter, loc, {o}, 0.0f);
    Value zp = f32Constant(rewriter, loc, {1}, 0.0f);
    auto padAttr = rewriter.getDenseI64ArrayAttr(pad);
    auto strideAttr = rewriter.getDenseI64ArrayAttr(strides);
    auto dilAttr = rewriter.getDenseI64ArrayAttr(dil);
    auto acc = TypeAttr::get(rewriter.getF32Type());
    RankedTensorType convType =
        RankedTensorType::get(outType.getShape(), rewriter.getF32Type());

    Value result;
    if (groups == 1) {
      result = tosa::Conv2DOp::create(rewriter, loc, convType, input,
                                      op.getFilter(), bias, zp, zp, padAttr,
                                      strideAttr, dilAttr, acc);
    } else if (groups == c && ci == 1) {
      // OHWI [C * M, KH, KW, 1] -> [C, M, KH, KW] -> HWCM [KH, KW, C, M].
      int64_t m = o / c;
      Value reshaped = tosa::ReshapeOp::create(
          rewriter, loc,
          RankedTensorType::get({c, m, kh, kw}, rewriter.getF32Type()),
          op.getFilter(),
          tosa::getTosaConstShape(rewriter, loc, {c, m, kh, kw}));
      Value hwcm = tosa::TransposeOp::create(
          rewriter, loc,
          RankedTensorType::get({kh, kw, c, m}, rewriter.getF32Type()),
          reshaped, rewriter.getDenseI32ArrayAttr({2, 3, 0, 1}));
      result = tosa::DepthwiseConv2DOp::create(rewriter, loc, convType, input,
                                               hwcm, bias, zp, zp, padAttr,
                                               strideAttr, dilAttr, acc);
    } else {
      // One convolution per group, concatenated along channels.
      int64_t og = o / groups;
      SmallVector<Value> parts;
      Value fullBias = bias;
      for (int64_t g = 0; g < groups; ++g) {
        Value x = slice(rewriter, loc, input, {0, 0, 0, g * ci}, {n, h, w, ci});
        Value f = slice(rewriter, loc, op.getFilter(), {g * og, 0, 0, 0},
                        {og, kh, kw, ci});
        Value b = slice(rewriter, loc, fullBias, {g * og}, {og});
        auto partType =
            RankedTensorType::get({outType.getDimSize(0), outType.getDimSize(1),
                                   outType.getDimSize(2), og},
                                  rewriter.getF32Type());
        parts.push_back(tosa::Conv2DOp::create(rewriter, loc, partType, x, f, b,
                                               zp, zp, padAttr, strideAttr,
                                               dilAttr, acc));
      }
      result = tosa::ConcatOp::create(rewriter, loc, convType, parts,
                                      rewriter.getI32IntegerAttr(3));
    }

    if (Value residual = op.getResidual())
      result = tosa::AddOp::create(rewriter, loc, convType, result, residual);
    float lo = -FLT_MAX, hi = FLT_MAX;
    switch (op.getActivation()) {
    case Activation::none:
      break;
    case Activation::relu:
      lo = 0.0f;
      break;
    case Activation::relu6:
      lo = 0.0f;
      hi = 6.0f;
      break;
    case Activation::clamp:
      lo = op.getClampMin()->convertToFloat();
      hi = op.getClampMax()->convertToFloat();
      break;
    }
    if (op.getActivation() != Activation::none)
      result = tosa::ClampOp::create(rewriter, loc, convType, result,
                                     rewriter.getF32FloatAttr(lo),
                                     rewriter.getF32FloatAttr(hi));
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct QntLowerFloatConvPass
    : public mlir::qnt::impl::QntLowerFloatConvBase<QntLowerFloatConvPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerFloatConv>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
