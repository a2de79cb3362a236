//===- QuantizeMatmul.cpp - tosa.matmul's QuantizableOpInterface::quantize ===//
//
// A tosa.matmul with a constant [1, K, N] weight, its bias add, fused
// activation and reshape back to 2-D become one qnt.linear; a matmul of two
// quantized activations becomes qnt.matmul. Weights, biases and multipliers
// follow the int8 reference (quantc::ref).
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QuantParams.h"
#include "dialects/Qnt/IR/QuantizeUtils.h"
#include "quantc/Reference/Requantize.h"

using namespace mlir;
using namespace mlir::qnt;
using quant::UniformQuantizedPerAxisType;
using quant::UniformQuantizedType;

/// A matmul of two quantized activations (attention's Q x K^T, scores x V)
/// with per-tensor parameters: qnt.matmul. Without parameters for its
/// output, or when the int32 accumulator could overflow, it stays float.
static LogicalResult quantizeActivationMatmul(tosa::MatMulOp op, Value qa,
                                              Value qb,
                                              RewriterBase &rewriter) {
  quant::QuantizeCastOp sink = quantizedSink(op.getResult());
  auto perTensor = [](Value v) {
    auto t = dyn_cast<quant::UniformQuantizedType>(elementOf(v));
    return t && t.getStorageTypeIntegralWidth() == 8 ? t
                                                     : UniformQuantizedType();
  };
  UniformQuantizedType a = perTensor(qa), b = perTensor(qb);
  if (!sink || !a || !b || !perTensor(sink.getResult()))
    return success();
  auto centered = [](UniformQuantizedType t) {
    return std::max(t.getZeroPoint() - t.getStorageTypeMin(),
                    t.getStorageTypeMax() - t.getZeroPoint());
  };
  int64_t k = cast<ShapedType>(op.getA().getType()).getDimSize(2);
  if (static_cast<double>(k) * centered(a) * centered(b) > INT32_MAX)
    return success();
  rewriter.setInsertionPoint(sink);
  auto mm = MatMulOp::create(rewriter, op.getLoc(), sink.getType(), qa, qb);
  rewriter.replaceOp(sink, mm.getOutput());
  rewriter.eraseOp(op);
  return success();
}

tosa::AddOp mlir::qnt::linearBiasAdd(tosa::MatMulOp op) {
  Value result = op.getResult();
  if (!result.hasOneUse())
    return nullptr;
  auto add = dyn_cast<tosa::AddOp>(*result.getUsers().begin());
  if (!add)
    return nullptr;
  Value other = add.getInput1() == result ? add.getInput2() : add.getInput1();
  std::optional<SmallVector<float>> fb = floatConstant(other);
  int64_t n = cast<ShapedType>(op.getB().getType()).getDimSize(2);
  return fb && static_cast<int64_t>(fb->size()) == n ? add : nullptr;
}

Value mlir::qnt::linearBias(tosa::MatMulOp op) {
  tosa::AddOp add = linearBiasAdd(op);
  if (!add)
    return nullptr;
  return add.getInput1() == op.getResult() ? add.getInput2() : add.getInput1();
}

LogicalResult mlir::qnt::quantizeMatMul(tosa::MatMulOp op, RewriterBase &b) {
  Value qa = quantizedSource(op.getA()), qw = quantizedSource(op.getB());
  std::optional<SmallVector<int32_t>> w =
      qw ? constantStorage(qw) : std::nullopt;
  auto wType = cast<RankedTensorType>(op.getB().getType());
  if (qa && qw && !w)
    return quantizeActivationMatmul(op, qa, qw, b);
  if (!qa || !w || wType.getDimSize(0) != 1)
    return success(); // A batched constant operand stays float.
  // Optional bias: matmul -> add(constant) -> qcast.
  Value result = op.getResult();
  std::optional<SmallVector<float>> fb;
  Operation *biasAdd = linearBiasAdd(op);
  if (biasAdd) {
    fb = floatConstant(linearBias(op));
    result = biasAdd->getResult(0);
  }
  // A fused activation (qnt-fuse moves a Gemm's relu before the reshape).
  auto [clamp, act] = clampAfter(result);
  quant::QuantizeCastOp sink = quantizedSink(result);
  // A model output (qnt-float-outputs): the dequantized-output form.
  bool floatOut = !sink && op->hasAttr(kFloatOutputAttr);
  // A QDQ model (ONNX Gemm) quantizes the output after the reshape back to
  // 2-D: the layer computes in that quantized type and is reshaped.
  tosa::ReshapeOp reshape;
  if (!sink && !floatOut && result.hasOneUse())
    if ((reshape = dyn_cast<tosa::ReshapeOp>(*result.getUsers().begin())))
      sink = quantizedSink(reshape.getResult());
  if (!sink && !floatOut)
    return layerError(op) << "no quantization parameters for its output; "
                             "calibrate the model and run qnt-fold-observers "
                             "first, or exclude the layer";
  // [1, K, N] quantized along N -> [N, K] quantized along dimension 0.
  int64_t k = wType.getDimSize(1), n = wType.getDimSize(2);
  QuantParams wp = *quantParams(elementOf(qw)),
              in = *quantParams(elementOf(qa));
  // The dequantized output is the requantization to scale 1.
  float outScale =
      floatOut ? 1.0f : quantParams(elementOf(sink.getResult()))->scale();
  SmallVector<int32_t> transposed(n * k);
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j)
      transposed[j * k + i] = (*w)[i * n + j];
  Operation *replaced = floatOut ? result.getDefiningOp() : sink;
  b.setInsertionPoint(replaced);
  Type wElt = elementOf(qw);
  if (auto perAxis = dyn_cast<UniformQuantizedPerAxisType>(wElt))
    wElt = UniformQuantizedPerAxisType::get(
        perAxis.getFlags(), perAxis.getStorageType(),
        perAxis.getExpressedType(), perAxis.getScales(),
        perAxis.getZeroPoints(), 0, perAxis.getStorageTypeMin(),
        perAxis.getStorageTypeMax());
  Value weight = makeQuantizedConstant(
      b, op.getLoc(), RankedTensorType::get({n, k}, wElt), transposed);
  for (NamedAttribute attr : qw.getDefiningOp()->getDiscardableAttrs())
    weight.getDefiningOp()->setAttr(attr.getName(), attr.getValue());
  auto wScale = [&](int64_t o) { return wp.scale(o); };
  Value bias;
  if (fb) {
    SmallVector<int32_t> qb;
    SmallVector<double> scales;
    for (int64_t o = 0; o < n; ++o) {
      std::optional<int32_t> v =
          quantc::ref::quantizeBias((*fb)[o], in.scale(), wScale(o));
      if (!v)
        return layerError(op) << "bias " << (*fb)[o] << " of output " << o
                              << " does not fit int32";
      qb.push_back(*v);
      scales.push_back(double(in.scale()) * double(wScale(o)));
    }
    auto biasElt = UniformQuantizedPerAxisType::get(
        quant::QuantizationFlags::Signed, b.getI32Type(), b.getF32Type(),
        scales, SmallVector<int64_t>(n, 0), 0, INT32_MIN, INT32_MAX);
    bias = makeQuantizedConstant(b, op.getLoc(),
                                 RankedTensorType::get({n}, biasElt), qb);
  }
  SmallVector<float> multipliers;
  for (int64_t o = 0; o < n; ++o)
    multipliers.push_back(
        quantc::ref::requantMultiplier(in.scale(), wScale(o), outScale));
  SmallVector<Location> locs{op.getLoc()};
  if (biasAdd)
    locs.insert(locs.begin(), biasAdd->getLoc());
  if (clamp)
    locs.insert(locs.begin(), clamp->getLoc());
  Location loc = FusedLoc::get(b.getContext(), locs);
  Type outType =
      floatOut ? result.getType()
      : reshape
          ? RankedTensorType::get(cast<ShapedType>(result.getType()).getShape(),
                                  elementOf(sink.getResult()))
          : sink.getType();
  auto linear = LinearOp::create(
      b, loc, outType, qa, weight, bias,
      ActivationAttr::get(b.getContext(),
                          act ? act->activation : Activation::none),
      act ? act->min : FloatAttr(), act ? act->max : FloatAttr(),
      b.getDenseF32ArrayAttr(multipliers));
  Value output = linear.getOutput();
  if (reshape)
    output = tosa::ReshapeOp::create(b, reshape.getLoc(), sink.getType(),
                                     output, reshape.getShape());
  if (floatOut)
    b.replaceAllUsesWith(result, output);
  else
    b.replaceOp(sink, output);
  if (reshape)
    b.eraseOp(reshape);
  if (clamp)
    b.eraseOp(clamp);
  if (biasAdd)
    b.eraseOp(biasAdd);
  b.eraseOp(op);
  return success();
}
