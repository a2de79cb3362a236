//===- WeightScaleForBias.cpp - Weight scales raised for int32 biases -----===//
//
// A layer's bias is quantized to int32 at input_scale * weight_scale. A dead
// channel (weights about 1e-20 after batch-norm folding, or exactly 0: its
// weight scale is the observer's eps, 2^-23) or an input of zero range
// (input scale 2^-23) makes that product tiny, and a bias of a few units
// needs more than 2^31 steps. As recent ONNX Runtime quantizers do, such a
// channel's weight scale (per-tensor weights: the tensor's) is raised until
// its int32 accumulator holds the bias plus the weighted sum of any input;
// qnt-quantize then quantizes the weights with the raised scale, so the
// lowering and the int8 reference compute from the same numbers.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QuantParams.h"
#include "dialects/Qnt/IR/QuantizeUtils.h"
#include "quantc/Reference/Requantize.h"

#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::qnt;
using quant::UniformQuantizedPerAxisType;
using quant::UniformQuantizedType;

namespace {

/// A layer's float weight and bias with the parameters qnt-quantize will
/// quantize them with.
struct LayerWeights {
  FakeQuantOp weight;
  SmallVector<float> w, bias;
  SmallVector<int64_t> shape;
  /// The output-channel axis of the weight.
  int64_t axis = 0;
  QuantParams wp;
  float inScale = 1;
  /// The largest |x - zero point| of the quantized input.
  int64_t maxX = 0;

  /// The weight values of output channel `o`.
  SmallVector<float> channel(int64_t o) const {
    int64_t inner = 1, outer = 1;
    for (int64_t d = axis + 1; d < static_cast<int64_t>(shape.size()); ++d)
      inner *= shape[d];
    for (int64_t d = 0; d < axis; ++d)
      outer *= shape[d];
    SmallVector<float> out;
    for (int64_t a = 0; a < outer; ++a)
      for (int64_t i = 0; i < inner; ++i)
        out.push_back(w[(a * shape[axis] + o) * inner + i]);
    return out;
  }
};

} // namespace

/// The fake_quant whose parameters the value `v` has once quantized: its
/// own, or that of the input of the ops of role same_as_input that lead to
/// it (a linear layer reads its input through a reshape).
static FakeQuantOp paramsSource(Value v) {
  while (v) {
    if (auto fq = v.getDefiningOp<FakeQuantOp>())
      return fq;
    auto op = v.getDefiningOp<QuantizableOpInterface>();
    if (!op || op.getQuantRole() != QuantRole::same_as_input ||
        op->getNumOperands() == 0)
      return nullptr;
    v = op->getOperand(0);
  }
  return nullptr;
}

/// The weight and bias of `op` when it has both, its weight's parameters
/// were chosen by an observer (a QDQ model's are kept as given) with zero
/// points 0, and its input is quantized per tensor.
static std::optional<LayerWeights> layerWeights(QuantizableOpInterface op) {
  Value bias = op.getFloatBias();
  SmallVector<std::pair<unsigned, int64_t>> weights = op.getObservedWeights();
  if (!bias || weights.size() != 1 || op->getNumOperands() == 0)
    return std::nullopt;
  LayerWeights l;
  l.weight = op->getOperand(weights[0].first).getDefiningOp<FakeQuantOp>();
  FakeQuantOp input = paramsSource(op->getOperand(0));
  if (!l.weight || !input || !l.weight.getRangeMinAttr())
    return std::nullopt;
  std::optional<SmallVector<float>> w = floatConstant(l.weight.getInput());
  std::optional<SmallVector<float>> b = floatConstant(bias);
  std::optional<QuantParams> wp = quantParams(l.weight.getQtype());
  std::optional<QuantParams> xp = quantParams(input.getQtype());
  if (!w || !b || !wp || !xp || xp->scales.size() != 1 ||
      llvm::any_of(wp->zeroPoints, [](int64_t z) { return z != 0; }))
    return std::nullopt;
  l.w = std::move(*w);
  l.bias = std::move(*b);
  auto shape = l.weight.getInput().getType().getShape();
  l.shape.assign(shape.begin(), shape.end());
  l.axis = weights[0].second;
  l.wp = std::move(*wp);
  if (l.axis < 0 || l.axis >= static_cast<int64_t>(l.shape.size()) ||
      static_cast<int64_t>(l.bias.size()) != l.shape[l.axis] ||
      (l.wp.axis && *l.wp.axis != l.axis))
    return std::nullopt;
  l.inScale = xp->scale();
  l.maxX = std::max(std::abs(int64_t(xp->qmin) - xp->zeroPoint()),
                    std::abs(int64_t(xp->qmax) - xp->zeroPoint()));
  return l;
}

/// Whether output channel `o` of `l`, its weights quantized at scale `s`,
/// has an int32 accumulator for any input, as the int8 reference checks it:
/// |bias| + max|x - zp| * sum |w| <= INT32_MAX.
static bool fits(const LayerWeights &l, int64_t o, float s) {
  std::optional<int32_t> qb =
      quantc::ref::quantizeBias(l.bias[o], l.inScale, s);
  if (!qb)
    return false;
  int64_t bound = std::abs(static_cast<int64_t>(*qb));
  for (float v : l.channel(o))
    bound += std::abs(static_cast<int64_t>(
                 quantc::ref::quantize(v, s, 0, l.wp.qmin, l.wp.qmax))) *
             l.maxX;
  return bound <= std::numeric_limits<int32_t>::max();
}

/// The smallest scale from `s` up at which channel `o` fits: (|bias| /
/// input_scale + max|x - zp| * sum |w|) over INT32_MAX less the rounding of
/// each value (half a step), checked and nudged up as the reference rounds;
/// nullopt when no scale fits (a huge reduction).
static std::optional<float> raisedScale(const LayerWeights &l, int64_t o,
                                        float s) {
  SmallVector<float> w = l.channel(o);
  double sum = 0;
  for (float v : w)
    sum += std::abs(double(v));
  double room = double(std::numeric_limits<int32_t>::max()) -
                double(l.maxX) * double(w.size()) / 2 - 1;
  if (room <= 0)
    return std::nullopt;
  double needed =
      (std::abs(double(l.bias[o])) / double(l.inScale) + l.maxX * sum) / room;
  float r = std::max(s, static_cast<float>(needed));
  for (int i = 0; i < 64 && !fits(l, o, r); ++i)
    r *= 1.0001f;
  if (!std::isfinite(r) || !fits(l, o, r))
    return std::nullopt;
  return r;
}

/// `type` with the scales `scales` (one per channel, or one).
static quant::QuantizedType withScales(quant::QuantizedType type,
                                       ArrayRef<double> scales) {
  if (auto t = dyn_cast<UniformQuantizedPerAxisType>(type))
    return UniformQuantizedPerAxisType::get(
        t.getFlags(), t.getStorageType(), t.getExpressedType(), scales,
        t.getZeroPoints(), t.getQuantizedDimension(), t.getStorageTypeMin(),
        t.getStorageTypeMax());
  auto t = cast<UniformQuantizedType>(type);
  return UniformQuantizedType::get(
      t.getFlags(), t.getStorageType(), t.getExpressedType(), scales.front(),
      t.getZeroPoint(), t.getStorageTypeMin(), t.getStorageTypeMax());
}

/// Raises the weight scales of `op`'s channels that do not fit, with a
/// warning naming each channel, its bias and the old and new scale.
static void fitLayer(QuantizableOpInterface op) {
  std::optional<LayerWeights> l = layerWeights(op);
  if (!l)
    return;
  SmallVector<double> scales(l->wp.scales);
  bool perChannel = scales.size() > 1;
  std::string changes;
  for (int64_t o = 0, e = l->bias.size(); o < e; ++o) {
    float old = perChannel ? float(scales[o]) : float(scales[0]);
    if (fits(*l, o, old))
      continue;
    std::optional<float> raised = raisedScale(*l, o, old);
    if (!raised)
      continue; // qnt-quantize reports the bias that does not fit
    changes += llvm::formatv(
        "{0}output channel {1} (bias {2:e6} at input_scale * weight_scale "
        "= {3:e6}): {4:e6} -> {5:e6}",
        changes.empty() ? "" : "; ", o, l->bias[o],
        double(l->inScale) * double(old), old, *raised);
    if (perChannel) {
      scales[o] = *raised;
      continue;
    }
    // Per tensor: the raised scale holds every channel checked before.
    scales[0] = *raised;
    for (int64_t p = 0; p < o; ++p)
      if (!fits(*l, p, *raised))
        scales[0] = raisedScale(*l, p, float(scales[0])).value_or(scales[0]);
  }
  if (changes.empty())
    return;
  l->weight.setQtypeAttr(TypeAttr::get(
      withScales(cast<quant::QuantizedType>(l->weight.getQtype()), scales)));
  layerWarning(op) << "the int32 accumulator cannot hold the bias: "
                   << (perChannel ? "weight scale" : "per-tensor weight scale")
                   << " raised (weights requantized) for " << changes;
}

void mlir::qnt::fitWeightScalesToBiases(Operation *root,
                                        const llvm::StringSet<> &excluded) {
  root->walk([&](QuantizableOpInterface op) {
    if (!isExcludedLayer(op, excluded))
      fitLayer(op);
  });
}
