//===- QuantizeConv.cpp - qnt.conv2d's QuantizableOpInterface::quantize --===//
//
// A float qnt.conv2d between quantized tensors becomes the quantized
// qnt.conv2d: int8 filter, int32 bias at input_scale * filter_scale, one
// requantization multiplier per output channel (the int8 reference's
// arithmetic, quantc::ref).
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QuantParams.h"
#include "dialects/Qnt/IR/QuantizeUtils.h"
#include "quantc/Reference/Requantize.h"

using namespace mlir;
using namespace mlir::qnt;
using quant::UniformQuantizedPerAxisType;

/// Quantized with the parameters of its input, filter and output; its
/// fused activation and residual carry over. A layer marked
/// kFloatOutputAttr without a quantized output gets the dequantized-output
/// form (f32 result, multipliers input_scale * filter_scale[o]). Fails when
/// a parameter or the constant filter or bias is missing, or a bias does not
/// fit int32.
LogicalResult Conv2DOp::quantize(RewriterBase &b) {
  if (isQuantized())
    return success();
  Conv2DOp op = *this;
  Value qi = quantizedSource(op.getInput());
  quant::QuantizeCastOp sink = quantizedSink(op.getOutput());
  bool floatOut = !sink && op->hasAttr(kFloatOutputAttr) && !op.getResidual();
  if (!qi || (!sink && !floatOut))
    return layerError(op)
           << "no quantization parameters for its "
           << (!qi ? "input" : "output")
           << "; calibrate the model and run qnt-fold-observers first, or "
              "exclude the layer";
  Value qw = quantizedSource(op.getFilter());
  std::optional<SmallVector<int32_t>> w =
      qw ? constantStorage(qw) : std::nullopt;
  if (!w)
    return layerError(op) << "the filter is not a quantized constant (its "
                             "weight observer is missing)";
  Value qr;
  if (op.getResidual() && !(qr = quantizedSource(op.getResidual())))
    return layerError(op) << "no quantization parameters for the residual";

  QuantParams in = *quantParams(elementOf(qi)),
              wp = *quantParams(elementOf(qw));
  // The dequantized output is the requantization to scale 1.
  float outScale =
      floatOut ? 1.0f : quantParams(elementOf(sink.getResult()))->scale();
  int64_t channels = op.getFilter().getType().getDimSize(0);
  auto wScale = [&](int64_t o) { return wp.scale(o); };
  b.setInsertionPoint(floatOut ? op.getOperation() : sink.getOperation());
  Value bias;
  if (op.getBias()) {
    std::optional<SmallVector<float>> fb = floatConstant(op.getBias());
    if (!fb)
      return layerError(op) << "the bias is not a constant";
    SmallVector<int32_t> qb;
    SmallVector<double> biasScales;
    for (int64_t o = 0; o < channels; ++o) {
      std::optional<int32_t> v =
          quantc::ref::quantizeBias((*fb)[o], in.scale(), wScale(o));
      if (!v)
        return layerError(op)
               << "bias " << (*fb)[o] << " of output channel " << o
               << " does not fit int32 at scale input_scale * filter_scale = "
               << double(in.scale()) * double(wScale(o));
      qb.push_back(*v);
      biasScales.push_back(double(in.scale()) * double(wScale(o)));
    }
    SmallVector<int64_t> zeros(channels, 0);
    auto biasElt = UniformQuantizedPerAxisType::get(
        quant::QuantizationFlags::Signed, b.getI32Type(), b.getF32Type(),
        biasScales, zeros, 0, INT32_MIN, INT32_MAX);
    bias = makeQuantizedConstant(
        b, op.getLoc(), RankedTensorType::get({channels}, biasElt), qb);
  }
  SmallVector<float> multipliers;
  for (int64_t o = 0; o < channels; ++o)
    multipliers.push_back(
        quantc::ref::requantMultiplier(in.scale(), wScale(o), outScale));
  Type outType = floatOut ? op.getOutput().getType() : sink.getType();
  auto conv = Conv2DOp::create(
      b, op.getLoc(), outType, qi, qw, bias, qr, op.getStridesAttr(),
      op.getPadAttr(), op.getDilationsAttr(), op.getGroupsAttr(),
      op.getActivationAttr(), op.getClampMinAttr(), op.getClampMaxAttr(),
      b.getDenseF32ArrayAttr(multipliers));
  if (floatOut) {
    b.replaceOp(op, conv.getOutput());
    return success();
  }
  b.replaceOp(sink, conv.getOutput());
  b.eraseOp(op);
  return success();
}
