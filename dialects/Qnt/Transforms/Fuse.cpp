//===- Fuse.cpp - conv-bn-relu and conv-add-relu fusion -------------------===//
//
// Float graph rewrites that build fused qnt.conv2d layers before observers
// are inserted (PyTorch's fuse_modules). Batch norm folding is computed in
// double and rounded to f32 once per value.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantizeUtils.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include <cfloat>
#include <cmath>
#include <limits>

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTFUSE
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {

Value makeConstant(PatternRewriter &rewriter, Location loc,
                   RankedTensorType type, ArrayRef<float> values) {
  return arith::ConstantOp::create(rewriter, loc,
                                   DenseElementsAttr::get(type, values));
}

/// Copies everything but the operands from `conv` into a new float conv.
Conv2DOp rebuildConv(PatternRewriter &rewriter, Conv2DOp conv, Location loc,
                     Type resultType, Value input, Value filter, Value bias,
                     Value residual) {
  auto fused = Conv2DOp::create(
      rewriter, loc, resultType, input, filter, bias, residual,
      conv.getStridesAttr(), conv.getPadAttr(), conv.getDilationsAttr(),
      conv.getGroupsAttr(), conv.getActivationAttr(), conv.getClampMinAttr(),
      conv.getClampMaxAttr(), conv.getMultiplierAttr());
  return fused;
}

/// A single-use float conv without activation or residual.
bool isPlainFloatConv(Value value) {
  auto conv = value.getDefiningOp<Conv2DOp>();
  return conv && !conv.isQuantized() && value.hasOneUse() &&
         !conv.getResidual() && conv.getActivation() == Activation::none;
}

struct ConvertTosaConv : public OpRewritePattern<tosa::Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().getElementType().isF32())
      return failure();
    Builder b(op.getContext());
    rewriter.replaceOpWithNewOp<Conv2DOp>(
        op, op.getType(), op.getInput(), op.getWeight(), op.getBias(),
        /*residual=*/Value(), b.getDenseI64ArrayAttr(op.getStride()),
        b.getDenseI64ArrayAttr(op.getPad()),
        b.getDenseI64ArrayAttr(op.getDilation()), b.getI64IntegerAttr(1),
        ActivationAttr::get(op.getContext(), Activation::none), FloatAttr(),
        FloatAttr(), DenseF32ArrayAttr());
    return success();
  }
};

struct ConvertTosaDepthwise : public OpRewritePattern<tosa::DepthwiseConv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::DepthwiseConv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().getElementType().isF32())
      return failure();
    // [KH, KW, C, M] -> OHWI [C * M, KH, KW, 1] with o = c * M + m.
    // A quantized filter (fake_quant of a constant, from a QDQ model) is
    // transposed under its fake_quant: per tensor, or per channel along C
    // (M = 1), which becomes O.
    Value weight = op.getWeight();
    auto weightQuant = weight.getDefiningOp<FakeQuantOp>();
    if (weightQuant)
      weight = weightQuant.getInput();
    std::optional<SmallVector<float>> w = floatConstant(weight);
    auto wType = cast<RankedTensorType>(weight.getType());
    if (!w || !wType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "non-constant depthwise filter");
    int64_t kh = wType.getDimSize(0), kw = wType.getDimSize(1),
            c = wType.getDimSize(2), m = wType.getDimSize(3);
    Type qtype = weightQuant ? weightQuant.getQtype() : Type();
    if (auto perAxis =
            dyn_cast_if_present<quant::UniformQuantizedPerAxisType>(qtype)) {
      if (perAxis.getQuantizedDimension() != 2 || m != 1)
        return rewriter.notifyMatchFailure(
            op, "per-axis filter quantization not along C with M = 1");
      qtype = quant::UniformQuantizedPerAxisType::get(
          perAxis.getFlags(), perAxis.getStorageType(),
          perAxis.getExpressedType(), perAxis.getScales(),
          perAxis.getZeroPoints(), 0, perAxis.getStorageTypeMin(),
          perAxis.getStorageTypeMax());
    }
    SmallVector<float> ohwi(w->size());
    for (int64_t y = 0; y < kh; ++y)
      for (int64_t x = 0; x < kw; ++x)
        for (int64_t ci = 0; ci < c; ++ci)
          for (int64_t mi = 0; mi < m; ++mi)
            ohwi[((ci * m + mi) * kh + y) * kw + x] =
                (*w)[((y * kw + x) * c + ci) * m + mi];
    auto filterType =
        RankedTensorType::get({c * m, kh, kw, 1}, wType.getElementType());
    Value filter = makeConstant(rewriter, op.getLoc(), filterType, ohwi);
    if (weightQuant)
      filter = FakeQuantOp::create(
          rewriter, weightQuant.getLoc(), filter, TypeAttr::get(qtype),
          weightQuant.getRangeMinAttr(), weightQuant.getRangeMaxAttr(),
          weightQuant.getNameAttr());
    Builder b(op.getContext());
    rewriter.replaceOpWithNewOp<Conv2DOp>(
        op, op.getType(), op.getInput(), filter, op.getBias(), Value(),
        b.getDenseI64ArrayAttr(op.getStride()),
        b.getDenseI64ArrayAttr(op.getPad()),
        b.getDenseI64ArrayAttr(op.getDilation()), b.getI64IntegerAttr(c),
        ActivationAttr::get(op.getContext(), Activation::none), FloatAttr(),
        FloatAttr(), DenseF32ArrayAttr());
    return success();
  }
};

struct FoldBatchNorm : public OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormOp bn,
                                PatternRewriter &rewriter) const override {
    if (!isPlainFloatConv(bn.getInput()))
      return failure();
    auto conv = bn.getInput().getDefiningOp<Conv2DOp>();
    int64_t rank = bn.getInput().getType().getRank();
    int64_t axis = static_cast<int64_t>(bn.getAxis());
    if (axis != -1 && axis != rank - 1)
      return rewriter.notifyMatchFailure(bn, "batch norm not on channels");
    std::optional<SmallVector<float>> w = floatConstant(conv.getFilter());
    std::optional<SmallVector<float>> gamma = floatConstant(bn.getGamma()),
                                      beta = floatConstant(bn.getBeta()),
                                      mean = floatConstant(bn.getMean()),
                                      var = floatConstant(bn.getVar());
    if (!w || !gamma || !beta || !mean || !var)
      return rewriter.notifyMatchFailure(bn, "non-constant parameters");
    auto filterType = cast<RankedTensorType>(conv.getFilter().getType());
    int64_t channels = filterType.getDimSize(0);
    SmallVector<float> bias(channels, 0.0f);
    if (Value b = conv.getBias()) {
      std::optional<SmallVector<float>> values = floatConstant(b);
      if (!values)
        return rewriter.notifyMatchFailure(bn, "non-constant conv bias");
      bias = *values;
    }
    double eps = bn.getEpsilon().convertToFloat();
    int64_t perChannel = static_cast<int64_t>(w->size()) / channels;
    SmallVector<float> newFilter(w->size()), newBias(channels);
    for (int64_t o = 0; o < channels; ++o) {
      double scale = double((*gamma)[o]) / std::sqrt(double((*var)[o]) + eps);
      for (int64_t i = 0; i < perChannel; ++i)
        newFilter[o * perChannel + i] =
            static_cast<float>(double((*w)[o * perChannel + i]) * scale);
      newBias[o] = static_cast<float>(
          (double(bias[o]) - double((*mean)[o])) * scale + double((*beta)[o]));
    }
    Location loc = conv.getLoc();
    Value filter = makeConstant(rewriter, loc, filterType, newFilter);
    Value biasValue = makeConstant(
        rewriter, loc,
        RankedTensorType::get({channels}, filterType.getElementType()),
        newBias);
    // The fused layer keeps the batch norm's location: its output is what
    // the observer will see.
    Conv2DOp fused =
        rebuildConv(rewriter, conv,
                    FusedLoc::get(getContext(), {bn.getLoc(), conv.getLoc()}),
                    bn.getType(), conv.getInput(), filter, biasValue, Value());
    rewriter.replaceOp(bn, fused.getOutput());
    rewriter.eraseOp(conv);
    return success();
  }
};

/// conv(x) + c with a constant c of one value per output channel, or one
/// for all ([1, 1, 1, O] or [1, 1, 1, 1]): the bias add becomes the conv's
/// bias, b + c (ConvTranspose as paddle2onnx writes it: a conv without
/// bias, then an Add). The layer's output is then the conv's, which
/// observers see, and which qnt-float-outputs can produce in float.
struct FoldBiasAdd : public OpRewritePattern<tosa::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::AddOp add,
                                PatternRewriter &rewriter) const override {
    Value lhs = add.getInput1(), rhs = add.getInput2();
    Value convValue = isPlainFloatConv(lhs)   ? lhs
                      : isPlainFloatConv(rhs) ? rhs
                                              : Value();
    if (!convValue || convValue.getType() != add.getType())
      return failure();
    Value other = convValue == lhs ? rhs : lhs;
    std::optional<SmallVector<float>> c = floatConstant(other);
    auto conv = convValue.getDefiningOp<Conv2DOp>();
    auto filterType = cast<RankedTensorType>(conv.getFilter().getType());
    int64_t channels = filterType.getDimSize(0);
    auto cType = cast<RankedTensorType>(other.getType());
    if (!c || cType.getRank() != 4 || cType.getDimSize(0) != 1 ||
        cType.getDimSize(1) != 1 || cType.getDimSize(2) != 1 ||
        (cType.getDimSize(3) != 1 && cType.getDimSize(3) != channels))
      return rewriter.notifyMatchFailure(add, "not a per-channel constant");
    SmallVector<float> bias(channels, 0.0f);
    if (Value b = conv.getBias()) {
      std::optional<SmallVector<float>> values = floatConstant(b);
      if (!values)
        return rewriter.notifyMatchFailure(add, "non-constant conv bias");
      bias = *values;
    }
    for (int64_t o = 0; o < channels; ++o)
      bias[o] += (*c)[c->size() == 1 ? 0 : o];
    Location loc = conv.getLoc();
    Value biasValue = makeConstant(
        rewriter, loc,
        RankedTensorType::get({channels}, filterType.getElementType()), bias);
    Conv2DOp fused = rebuildConv(
        rewriter, conv,
        FusedLoc::get(getContext(), {add.getLoc(), conv.getLoc()}),
        add.getType(), conv.getInput(), conv.getFilter(), biasValue, Value());
    rewriter.replaceOp(add, fused.getOutput());
    rewriter.eraseOp(conv);
    return success();
  }
};

struct FuseResidualAdd : public OpRewritePattern<tosa::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::AddOp add,
                                PatternRewriter &rewriter) const override {
    Value lhs = add.getInput1(), rhs = add.getInput2();
    if (lhs.getType() != rhs.getType() || lhs.getType() != add.getType())
      return failure();
    Value convValue = isPlainFloatConv(lhs)   ? lhs
                      : isPlainFloatConv(rhs) ? rhs
                                              : Value();
    if (!convValue)
      return failure();
    Value residual = convValue == lhs ? rhs : lhs;
    auto conv = convValue.getDefiningOp<Conv2DOp>();
    Conv2DOp fused =
        rebuildConv(rewriter, conv,
                    FusedLoc::get(getContext(), {add.getLoc(), conv.getLoc()}),
                    add.getType(), conv.getInput(), conv.getFilter(),
                    conv.getBias(), residual);
    rewriter.replaceOp(add, fused.getOutput());
    rewriter.eraseOp(conv);
    return success();
  }
};

/// The float bounds of a tosa.clamp, or nullopt.
std::optional<std::pair<double, double>> clampBounds(tosa::ClampOp clamp) {
  auto lo = dyn_cast<FloatAttr>(clamp.getMinValAttr());
  auto hi = dyn_cast<FloatAttr>(clamp.getMaxValAttr());
  if (!lo || !hi)
    return std::nullopt;
  return std::make_pair(lo.getValueAsDouble(), hi.getValueAsDouble());
}

/// The bounds [a, b] ∩ [c, d] of clamp(clamp(x, a, b), c, d), or nullopt
/// when they do not overlap (the result is a constant then, not a clamp).
std::optional<std::pair<double, double>>
composeBounds(std::pair<double, double> inner,
              std::pair<double, double> outer) {
  double lo = std::max(inner.first, outer.first);
  double hi = std::min(inner.second, outer.second);
  if (lo > hi)
    return std::nullopt;
  return std::make_pair(lo, hi);
}

/// clamp(clamp(x)) -> one clamp with the intersected bounds. PyTorch exports
/// F.relu6 as Relu then Clip(0, 6): without this the conv fuses the Relu
/// and the Clip is left after a layer whose output is not observed.
struct MergeClamps : public OpRewritePattern<tosa::ClampOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ClampOp clamp,
                                PatternRewriter &rewriter) const override {
    auto inner = clamp.getInput().getDefiningOp<tosa::ClampOp>();
    if (!inner || !inner->hasOneUse() ||
        !clamp.getType().getElementType().isF32())
      return failure();
    std::optional<std::pair<double, double>> a = clampBounds(inner),
                                             b = clampBounds(clamp);
    if (!a || !b)
      return failure();
    std::optional<std::pair<double, double>> both = composeBounds(*a, *b);
    if (!both)
      return failure();
    auto merged = tosa::ClampOp::create(
        rewriter, FusedLoc::get(getContext(), {clamp.getLoc(), inner.getLoc()}),
        clamp.getType(), inner.getInput(),
        rewriter.getF32FloatAttr(static_cast<float>(both->first)),
        rewriter.getF32FloatAttr(static_cast<float>(both->second)),
        clamp.getNanModeAttr());
    rewriter.replaceOp(clamp, merged.getResult());
    rewriter.eraseOp(inner);
    return success();
  }
};

/// The bounds a float conv's fused activation clamps to (unbounded for
/// none), or nullopt for a clamp without its bounds.
std::optional<std::pair<double, double>> activationBounds(Conv2DOp conv) {
  switch (conv.getActivation()) {
  case Activation::none:
    return std::make_pair(-std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::infinity());
  case Activation::relu:
    return std::make_pair(0.0, double(FLT_MAX));
  case Activation::relu6:
    return std::make_pair(0.0, 6.0);
  case Activation::clamp:
    if (!conv.getClampMinAttr() || !conv.getClampMaxAttr())
      return std::nullopt;
    return std::make_pair(conv.getClampMinAttr().getValueAsDouble(),
                          conv.getClampMaxAttr().getValueAsDouble());
  }
  return std::nullopt;
}

/// A clamp after a single-use float conv (with or without residual) becomes
/// its activation, clamping to the intersection with the bounds of the one
/// it already fused (conv -> relu -> clip, when the relu fused first).
struct FuseClamp : public OpRewritePattern<tosa::ClampOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ClampOp clamp,
                                PatternRewriter &rewriter) const override {
    auto conv = clamp.getInput().getDefiningOp<Conv2DOp>();
    if (!conv || conv.isQuantized() || !conv->hasOneUse())
      return failure();
    std::optional<std::pair<double, double>> a = activationBounds(conv),
                                             b = clampBounds(clamp);
    if (!a || !b)
      return failure();
    std::optional<std::pair<double, double>> both = composeBounds(*a, *b);
    if (!both)
      return failure();
    FusedClamp act = fusedClamp(getContext(), both->first, both->second);
    Conv2DOp fused = rebuildConv(
        rewriter, conv,
        FusedLoc::get(getContext(), {clamp.getLoc(), conv.getLoc()}),
        clamp.getType(), conv.getInput(), conv.getFilter(), conv.getBias(),
        conv.getResidual());
    fused.setActivation(act.activation);
    fused.setClampMinAttr(act.min);
    fused.setClampMaxAttr(act.max);
    rewriter.replaceOp(clamp, fused.getOutput());
    rewriter.eraseOp(conv);
    return success();
  }
};

/// clamp(reshape(x)) -> reshape(clamp(x)): an element-wise clamp commutes
/// with a reshape, and before it the clamp follows the layer it fuses with
/// (ONNX's Gemm -> Relu is matmul -> bias add -> reshape -> clamp; a 1-D
/// Conv -> Relu is conv -> reshape [N, 1, L, C] -> [N, L, C] -> clamp).
struct HoistClampAboveReshape : public OpRewritePattern<tosa::ClampOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ClampOp clamp,
                                PatternRewriter &rewriter) const override {
    auto reshape = clamp.getInput().getDefiningOp<tosa::ReshapeOp>();
    if (!reshape || !reshape->hasOneUse() ||
        !isa_and_present<tosa::AddOp, tosa::MatMulOp, Conv2DOp, tosa::Conv2DOp,
                         tosa::DepthwiseConv2DOp>(
            reshape.getInput1().getDefiningOp()))
      return failure();
    Value hoisted = tosa::ClampOp::create(
        rewriter, clamp.getLoc(), reshape.getInput1().getType(),
        reshape.getInput1(), clamp.getMinValAttr(), clamp.getMaxValAttr(),
        clamp.getNanModeAttr());
    rewriter.replaceOpWithNewOp<tosa::ReshapeOp>(clamp, clamp.getType(),
                                                 hoisted, reshape.getShape());
    rewriter.eraseOp(reshape);
    return success();
  }
};

/// batch_norm(reshape(conv)) -> reshape(batch_norm(conv)) when the reshape
/// keeps the channels last (a 1-D Conv -> BatchNormalization: the conv's
/// [N, 1, L, C] reshaped to [N, L, C]); the batch norm then folds into the
/// conv.
struct HoistBatchNormAboveReshape : public OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormOp bn,
                                PatternRewriter &rewriter) const override {
    auto reshape = bn.getInput().getDefiningOp<tosa::ReshapeOp>();
    if (!reshape || !reshape->hasOneUse() ||
        !isPlainFloatConv(reshape.getInput1()))
      return failure();
    auto from = cast<RankedTensorType>(reshape.getInput1().getType());
    auto to = cast<RankedTensorType>(reshape.getType());
    int64_t axis = static_cast<int64_t>(bn.getAxis());
    if ((axis != -1 && axis != to.getRank() - 1) ||
        from.getShape().back() != to.getShape().back())
      return rewriter.notifyMatchFailure(bn, "channels not last on both sides");
    Value hoisted = BatchNormOp::create(
        rewriter, bn.getLoc(), from, reshape.getInput1(), bn.getGamma(),
        bn.getBeta(), bn.getMean(), bn.getVar(), bn.getEpsilonAttr(),
        rewriter.getI64IntegerAttr(-1));
    rewriter.replaceOpWithNewOp<tosa::ReshapeOp>(bn, bn.getType(), hoisted,
                                                 reshape.getShape());
    rewriter.eraseOp(reshape);
    return success();
  }
};

struct QntFusePass : public mlir::qnt::impl::QntFuseBase<QntFusePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ConvertTosaConv, ConvertTosaDepthwise, FoldBatchNorm,
                 FoldBiasAdd, FuseResidualAdd, FuseClamp, MergeClamps,
                 HoistClampAboveReshape, HoistBatchNormAboveReshape>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
