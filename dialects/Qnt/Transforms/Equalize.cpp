//===- Equalize.cpp - Cross-layer equalization ----------------------------===//
//
// qnt-equalize: Nagel et al. 2019, "Data-Free Quantization Through Weight
// Equalization and Bias Correction", section 4.1. For two consecutive float
// layers with constant weights, where only positive-homogeneous functions
// lie between them (f(x / s) = f(x) / s for s > 0), the producer's output
// channel c is divided by s_c and the consumer's input channel c multiplied
// by it: the model computes the same function, and s_c = sqrt(r1_c / r2_c)
// gives both sides of the channel the same weight range sqrt(r1_c * r2_c).
// Chains (conv -> depthwise -> conv) are swept until the scales converge.
//
// Scales accumulate in double per channel; each weight and bias is rounded
// to f32 once, from its original value.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantizeUtils.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include <cfloat>
#include <cmath>
#include <cstdio>

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTEQUALIZE
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {

/// Which channel each element of a value belongs to: element e of the
/// flattened (row-major) tensor is in channel (e / stride) % channels.
/// Reshapes keep the flat order, so they keep the layout.
struct ChannelLayout {
  int64_t stride = 1;
  int64_t channels = 0;

  /// Whether the channel of an element depends on its index along the last
  /// dimension (of size `last`) only: (r / stride) % channels.
  bool onLastDim(int64_t last) const {
    return !ShapedType::isDynamic(last) && last % stride == 0 &&
           (last / stride) % channels == 0;
  }
  int64_t channelOf(int64_t r) const { return (r / stride) % channels; }
};

/// A float conv (any groups) or linear layer (tosa.matmul with a [1, K, N]
/// weight, optional bias add) with constant weights, seen as weights
/// w[out][in] with a factor per output channel and per raw input (the
/// input's last-dimension index), applied when the layer is rewritten.
struct Layer {
  Operation *op = nullptr; ///< qnt.conv2d or tosa.matmul.
  OpOperand *weight = nullptr;
  OpOperand *bias = nullptr; ///< Null without a bias.
  Value output;              ///< The result, after a linear's bias add.
  SmallVector<float> w, b;
  int64_t numOut = 0, numIn = 0;
  // Conv: weight index = o * perOut + pos * inPerGroup + i.
  // Linear: weight index = k * numOut + n.
  bool linear = false;
  int64_t perOut = 0, inPerGroup = 0, outPerGroup = 0;
  SmallVector<double> outFactor, inFactor;

  /// Calls fn(index, out, rawIn) for every weight.
  template <typename Fn> void forEachWeight(Fn fn) const {
    if (linear) {
      for (int64_t k = 0; k < numIn; ++k)
        for (int64_t n = 0; n < numOut; ++n)
          fn(k * numOut + n, n, k);
      return;
    }
    for (int64_t o = 0; o < numOut; ++o) {
      int64_t base = (o / outPerGroup) * inPerGroup;
      for (int64_t j = 0; j < perOut; ++j)
        fn(o * perOut + j, o, base + j % inPerGroup);
    }
  }
  double effective(int64_t idx, int64_t out, int64_t in) const {
    return std::abs(double(w[idx]) * outFactor[out] * inFactor[in]);
  }
  /// max |w| of each output channel, as currently scaled.
  SmallVector<double> outRanges() const {
    SmallVector<double> r(numOut, 0.0);
    forEachWeight([&](int64_t idx, int64_t o, int64_t i) {
      r[o] = std::max(r[o], effective(idx, o, i));
    });
    return r;
  }
  /// max |w| of the weights reading each of `layout`'s channels.
  SmallVector<double> inRanges(const ChannelLayout &layout) const {
    SmallVector<double> r(layout.channels, 0.0);
    forEachWeight([&](int64_t idx, int64_t o, int64_t i) {
      double &m = r[layout.channelOf(i)];
      m = std::max(m, effective(idx, o, i));
    });
    return r;
  }
};

/// `x` with 3 significant digits, for remarks.
std::string shortNumber(double x) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g", x);
  return text;
}

std::string layerName(Operation *op) {
  SmallVector<std::string> names = getLayerNames(op->getLoc());
  return names.empty() ? op->getName().getStringRef().str() : names.front();
}

/// A float conv2d or matmul whose weights (and bias) are constant; `why`
/// says why not, for a float layer whose weights are not.
std::optional<Layer> matchLayer(Operation *op, std::string &why) {
  Layer layer;
  layer.op = op;
  if (auto conv = dyn_cast<Conv2DOp>(op)) {
    if (conv.isQuantized())
      return std::nullopt;
    auto type = cast<RankedTensorType>(conv.getFilter().getType());
    std::optional<SmallVector<float>> w = floatConstant(conv.getFilter());
    layer.weight = &conv.getFilterMutable();
    layer.output = conv.getOutput();
    layer.numOut = type.getDimSize(0);
    layer.inPerGroup = type.getDimSize(3);
    layer.numIn = layer.inPerGroup * conv.getGroups();
    layer.outPerGroup = layer.numOut / conv.getGroups();
    layer.perOut = type.getNumElements() / layer.numOut;
    if (Value b = conv.getBias()) {
      layer.bias = &conv.getBiasMutable()[0];
      std::optional<SmallVector<float>> bv = floatConstant(b);
      if (bv)
        layer.b = *bv;
      else
        w.reset();
    }
    if (!w) {
      why = "non-constant weights";
      return std::nullopt;
    }
    layer.w = *w;
  } else if (auto mm = dyn_cast<tosa::MatMulOp>(op)) {
    auto type = cast<RankedTensorType>(mm.getB().getType());
    if (!type.getElementType().isF32() || !type.hasStaticShape())
      return std::nullopt;
    std::optional<SmallVector<float>> w = floatConstant(mm.getB());
    if (!w || type.getDimSize(0) != 1) {
      why = "non-constant weights";
      return std::nullopt;
    }
    layer.linear = true;
    layer.weight = &mm->getOpOperand(1);
    layer.w = *w;
    layer.numIn = type.getDimSize(1);
    layer.numOut = type.getDimSize(2);
    layer.output = mm.getResult();
    // Its bias: an add of a constant with one value per output.
    if (mm->hasOneUse())
      if (auto add = dyn_cast<tosa::AddOp>(*mm->getUsers().begin())) {
        OpOperand &other = add.getInput1() == mm.getResult()
                               ? add->getOpOperand(1)
                               : add->getOpOperand(0);
        std::optional<SmallVector<float>> b = floatConstant(other.get());
        if (b && static_cast<int64_t>(b->size()) == layer.numOut &&
            add.getType().getShape().back() == layer.numOut) {
          layer.bias = &other;
          layer.b = *b;
          layer.output = add.getResult();
        }
      }
  } else {
    return std::nullopt;
  }
  layer.outFactor.assign(layer.numOut, 1.0);
  layer.inFactor.assign(layer.numIn, 1.0);
  return layer;
}

/// Why a producer's own output function is not positive-homogeneous.
std::optional<std::string> producerBlocker(Operation *op) {
  auto conv = dyn_cast<Conv2DOp>(op);
  if (!conv)
    return std::nullopt;
  if (conv.getResidual())
    return std::string("its residual operand would need rescaling too");
  switch (conv.getActivation()) {
  case Activation::none:
  case Activation::relu:
    return std::nullopt;
  case Activation::relu6:
    return std::string("its relu6 bound 6 is one per tensor and cannot be "
                       "rescaled per channel");
  case Activation::clamp:
    if (conv.getClampMinAttr() && conv.getClampMaxAttr() &&
        conv.getClampMinAttr().getValueAsDouble() == 0.0 &&
        conv.getClampMaxAttr().getValueAsDouble() >= FLT_MAX)
      return std::nullopt;
    return std::string("its clamp bounds are one per tensor and cannot be "
                       "rescaled per channel");
  }
  return std::nullopt;
}

/// Why an op between two layers keeps them from being equalized (it is not
/// positive-homogeneous per channel), or nullopt when it commutes with a
/// positive scale per channel of `layout`.
std::optional<std::string> betweenBlocker(Operation *op,
                                          const ChannelLayout &layout) {
  if (auto clamp = dyn_cast<tosa::ClampOp>(op)) {
    std::optional<FusedClamp> act = fusedClamp(op);
    if (act && act->activation == Activation::relu)
      return std::nullopt;
    return std::string("the clamp after it is not a relu: its bounds are one "
                       "per tensor and cannot be rescaled per channel");
  }
  if (auto unary = dyn_cast<UnaryOp>(op)) {
    if (unary.getFn() == UnaryFn::leaky_relu)
      return std::nullopt;
    return "'" + stringifyUnaryFn(unary.getFn()).str() +
           "' after it is not positive-homogeneous";
  }
  if (isa<tosa::MaxPool2dOp, tosa::AvgPool2dOp>(op)) {
    auto type = cast<RankedTensorType>(op->getOperand(0).getType());
    if (layout.onLastDim(type.getShape().back()))
      return std::nullopt;
    return std::string("a pooling after it mixes its channels");
  }
  return std::nullopt; // tosa.reshape: the flat order is kept.
}

/// Whether `op` may lie between two layers of a pair (an element-wise
/// function, a pooling or a reshape: one value in, one out, channels kept).
bool isBetweenOp(Operation *op) {
  return isa<tosa::ClampOp, UnaryOp, tosa::MaxPool2dOp, tosa::AvgPool2dOp,
             tosa::ReshapeOp>(op);
}

/// The next layer after `producer`, through single-use ops between.
struct Pair {
  Operation *consumer = nullptr;
  ChannelLayout layout; ///< Of the consumer's input in producer channels.
  std::string why;      ///< Why not equalizable; empty when it is.
};

/// Follows the producer's output through single-use ops between layers to
/// the next conv or linear layer. Returns a pair with a reason when they
/// cannot be equalized, nullopt when no layer follows.
std::optional<Pair> findConsumer(const Layer &producer) {
  Pair pair;
  pair.layout = ChannelLayout{1, producer.numOut};
  if (std::optional<std::string> why = producerBlocker(producer.op))
    pair.why = *why;
  Value v = producer.output;
  while (true) {
    if (!v.hasOneUse()) {
      auto isLayer = [](Operation *user) {
        return isa<Conv2DOp, tosa::MatMulOp>(user);
      };
      auto layer = llvm::find_if(v.getUsers(), isLayer);
      if (layer == v.getUsers().end())
        return std::nullopt;
      pair.consumer = *layer;
      pair.why = "its output has " +
                 std::to_string(std::distance(v.use_begin(), v.use_end())) +
                 " uses";
      return pair;
    }
    OpOperand &use = *v.use_begin();
    Operation *user = use.getOwner();
    if (isa<Conv2DOp, tosa::MatMulOp>(user)) {
      pair.consumer = user;
      auto type = cast<RankedTensorType>(v.getType());
      if (use.getOperandNumber() != 0 && pair.why.empty())
        pair.why = "it is the next layer's residual or weights, not its input";
      else if (!pair.layout.onLastDim(type.getShape().back()) &&
               pair.why.empty())
        pair.why = "the next layer's input channels mix its channels";
      return pair;
    }
    if (!isBetweenOp(user))
      return std::nullopt;
    std::optional<std::string> why = betweenBlocker(user, pair.layout);
    if (why && pair.why.empty())
      pair.why = *why;
    v = user->getResult(0);
  }
}

/// Per-channel scales balancing the producer's output ranges `r1` and the
/// consumer's input ranges `r2`. A channel whose range on either side is
/// zero or negligible (below 1e-12 of that side's largest) keeps scale 1:
/// a dead channel has nothing to balance.
SmallVector<double> balancingScales(ArrayRef<double> r1, ArrayRef<double> r2) {
  double max1 = *llvm::max_element(r1), max2 = *llvm::max_element(r2);
  SmallVector<double> s(r1.size(), 1.0);
  for (size_t c = 0; c < r1.size(); ++c)
    if (r1[c] > 1e-12 * max1 && r2[c] > 1e-12 * max2)
      s[c] = std::sqrt(r1[c] / r2[c]);
  return s;
}

/// One equalization step of a pair; returns the largest |log s|.
double equalizePair(Layer &p, Layer &c, const ChannelLayout &layout) {
  SmallVector<double> s = balancingScales(p.outRanges(), c.inRanges(layout));
  double change = 0.0;
  for (int64_t ch = 0; ch < p.numOut; ++ch) {
    p.outFactor[ch] /= s[ch];
    change = std::max(change, std::abs(std::log(s[ch])));
  }
  for (int64_t i = 0; i < c.numIn; ++i)
    c.inFactor[i] *= s[layout.channelOf(i)];
  return change;
}

/// Replaces `operand`'s constant by `values` (same type), and erases the old
/// constant when nothing else uses it.
void replaceConstant(OpOperand &operand, ArrayRef<float> values) {
  Operation *owner = operand.getOwner();
  auto type = cast<RankedTensorType>(operand.get().getType());
  OpBuilder b(owner);
  Value replacement = arith::ConstantOp::create(
      b, operand.get().getLoc(), DenseElementsAttr::get(type, values));
  Operation *old = operand.get().getDefiningOp();
  operand.set(replacement);
  if (old && old->use_empty())
    old->erase();
}

/// Writes the layer's scaled weights and bias, each rounded to f32 once.
void rewriteLayer(Layer &layer) {
  SmallVector<float> w(layer.w.size());
  layer.forEachWeight([&](int64_t idx, int64_t o, int64_t i) {
    w[idx] = static_cast<float>(double(layer.w[idx]) * layer.outFactor[o] *
                                layer.inFactor[i]);
  });
  replaceConstant(*layer.weight, w);
  if (!layer.bias)
    return;
  SmallVector<float> b(layer.b.size());
  for (int64_t o = 0; o < layer.numOut; ++o)
    b[o] = static_cast<float>(double(layer.b[o]) * layer.outFactor[o]);
  replaceConstant(*layer.bias, b);
}

struct QntEqualizePass
    : public mlir::qnt::impl::QntEqualizeBase<QntEqualizePass> {
  using QntEqualizeBase::QntEqualizeBase;

  /// The layers of the function and their equalizable successors; remarks
  /// for the pairs left alone.
  void collect(func::FuncOp fn) {
    fn.walk([&](Operation *op) {
      if (!isa<Conv2DOp, tosa::MatMulOp>(op))
        return;
      std::string why;
      std::optional<Layer> layer = matchLayer(op, why);
      if (layer) {
        index[op] = layers.size();
        layers.push_back(std::move(*layer));
      }
    });
    for (size_t i = 0; i < layers.size(); ++i) {
      std::optional<Pair> pair = findConsumer(layers[i]);
      if (!pair)
        continue;
      std::string why;
      if (pair->why.empty() && !index.count(pair->consumer) &&
          !matchLayer(pair->consumer, why) && why.empty())
        continue; // A quantized layer: nothing of ours.
      if (pair->why.empty() && !index.count(pair->consumer))
        pair->why = "the next layer has " + why;
      if (!pair->why.empty()) {
        emitRemark(layers[i].op->getLoc())
            << "not equalized with '" << layerName(pair->consumer)
            << "': " << pair->why;
        continue;
      }
      next[i] = {index[pair->consumer], pair->layout};
      hasPrev.insert(index[pair->consumer]);
    }
  }

  /// Sweeps a chain of layers, pair by pair, until the scales converge.
  int equalizeChain(size_t head) {
    int sweep = 0;
    while (sweep < maxSweeps) {
      ++sweep;
      double change = 0.0;
      for (size_t i = head; next.count(i); i = next[i].first)
        change = std::max(change, equalizePair(layers[i], layers[next[i].first],
                                               next[i].second));
      if (change < 1e-8)
        break;
    }
    return sweep;
  }

  void runOnOperation() override {
    collect(getOperation());
    for (size_t head = 0; head < layers.size(); ++head) {
      if (hasPrev.count(head) || !next.count(head))
        continue;
      int sweeps = equalizeChain(head);
      for (size_t i = head; next.count(i); i = next[i].first) {
        Layer &p = layers[i];
        auto [lo, hi] =
            std::minmax_element(p.outFactor.begin(), p.outFactor.end());
        emitRemark(p.op->getLoc())
            << "equalized with '" << layerName(layers[next[i].first].op)
            << "': " << p.numOut << " channels divided by scales in ["
            << shortNumber(1.0 / *hi) << ", " << shortNumber(1.0 / *lo) << "] ("
            << sweeps << (sweeps == 1 ? " sweep)" : " sweeps)");
      }
      for (size_t i = head;; i = next[i].first) {
        rewriteLayer(layers[i]);
        if (!next.count(i))
          break;
      }
    }
  }

  std::vector<Layer> layers;
  DenseMap<Operation *, size_t> index;
  DenseMap<size_t, std::pair<size_t, ChannelLayout>> next;
  DenseSet<size_t> hasPrev;
};

} // namespace
