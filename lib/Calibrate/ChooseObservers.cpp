//===- ChooseObservers.cpp - A calibrator per tensor, by downstream error -===//
//
// quant-compile --activation-observer=auto: each calibrated `auto` observer
// becomes min_max, percentile, entropy or mse, whichever causes the least
// error in the outputs of the layers that consume its tensor.
//
// The score of a candidate for tensor x (quantization error e = dq(q(x)) - x
// with the candidate's qparams, the int8 reference's arithmetic) sums, over
// the consumers of x, the mean squared error e causes in their outputs:
//  - a convolution (filter OHWI, `groups`) or a matmul with a weight
//    (B[b, k, n]): with the errors of different input channels uncorrelated
//    and of mean 0, E||W e||^2 = sum_c ||W[:, c]||^2 E[e_c^2]; per output
//    element that is sum_c w_c m_c, with m_c the mean of e^2 over channel c
//    (the last axis of x, NHWC / row-major) and w_c the squared weights that
//    meet channel c, divided by the number of output channels;
//  - any other consumer (add, pool, concat, reshape, the model result) as
//    the identity: the mean of e^2.
// Bias, activation and requantization of the consumer are left out, and so
// is how clipping errors correlate across channels: the score ranks the
// candidates of one tensor, it is not the model's output error.
// The float activations come from a float copy of the model (ValueProbe) run
// over the calibration data; sums in double.
//
//===----------------------------------------------------------------------===//

#include "quantc/Calibrate/ObserverChoice.h"
#include "quantc/Calibrate/Probe.h"
#include "quantc/Reference/Requantize.h"
#include "quantc/Support/Fail.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/DenseMap.h"
#include <cmath>

using namespace mlir;
using namespace quantc;
using llvm::Error;
using llvm::Expected;

namespace {
/// One candidate's quantization of a tensor.
struct Candidate {
  obs::ObserverKind kind;
  float scale;
  int32_t zeroPoint, qmin, qmax;
};

/// A consumer of an observed tensor and how its output error is estimated.
struct Consumer {
  std::string name;
  /// The weight operand's float value (an observer's input) of a conv /
  /// matmul; null for a consumer scored as the identity.
  Value weight;
  /// The weight's observer, for a weight that is not a constant: its input
  /// is computed by the probe (probeIndex) on the first run.
  qnt::ObserveOp weightObserver;
  int64_t probeIndex = -1;
  std::vector<float> weightValues;
  std::vector<int64_t> weightShape;
  int64_t groups = 1;
  bool conv = false;
  /// w_c: squared weights meeting input channel c per output channel.
  std::vector<double> channelWeights;
};

/// An auto observer being scored.
struct Tensor {
  qnt::ObserveOp op;
  std::vector<Candidate> candidates;
  std::vector<Consumer> consumers;
  int64_t probeIndex = -1;
  int64_t channels = 1;
  /// Per candidate and channel: the sum of squared errors.
  std::vector<std::vector<double>> error;
  int64_t count = 0;
};
} // namespace

/// A name for a consumer: the observer of its result, else its location's
/// name, else the op's name.
static std::string consumerName(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>())
    return "the model result";
  for (Value result : op->getResults())
    for (Operation *user : result.getUsers())
      if (auto observe = dyn_cast<qnt::ObserveOp>(user))
        if (observe.getName())
          return observe.getName()->str();
  if (auto name = dyn_cast<NameLoc>(op->getLoc()))
    return name.getName().str();
  return op->getName().getStringRef().str();
}

/// Sets the consumer's weight from a conv filter / matmul operand.
static void setWeight(Consumer &c, Value operand) {
  auto observe = operand.getDefiningOp<qnt::ObserveOp>();
  c.weight = observe ? observe.getInput() : operand;
  auto shape = cast<ShapedType>(c.weight.getType()).getShape();
  c.weightShape.assign(shape.begin(), shape.end());
  DenseElementsAttr values;
  if (matchPattern(c.weight, m_Constant(&values)))
    c.weightValues.assign(values.getValues<float>().begin(),
                          values.getValues<float>().end());
  else if (observe)
    c.weightObserver = observe;
  else
    c.weight = nullptr;
}

/// The consumers of `op`'s tensor (its result's users; the model result
/// counts as the identity).
static std::vector<Consumer> findConsumers(qnt::ObserveOp op) {
  std::vector<Consumer> consumers;
  Value x = op.getOutput();
  for (Operation *user : x.getUsers()) {
    Consumer c;
    c.name = consumerName(user);
    if (auto conv = dyn_cast<qnt::Conv2DOp>(user);
        conv && conv.getInput() == x && conv.getFilter() != x) {
      c.groups = conv.getGroups();
      c.conv = true;
      setWeight(c, conv.getFilter());
    } else if (auto matmul = dyn_cast<tosa::MatMulOp>(user);
               matmul && matmul.getA() == x && matmul.getB() != x) {
      setWeight(c, matmul.getB());
    }
    consumers.push_back(std::move(c));
  }
  if (consumers.empty())
    consumers.push_back(Consumer{"the model result"});
  return consumers;
}

/// w_c for `channels` input channels from the consumer's weight values;
/// false if the shapes do not fit (the consumer is then the identity).
static bool computeChannelWeights(Consumer &c, int64_t channels) {
  const std::vector<int64_t> &s = c.weightShape;
  std::vector<double> w(channels, 0.0);
  if (c.conv && s.size() == 4 && c.groups > 0 && channels % c.groups == 0 &&
      s[0] % c.groups == 0 && s[3] == channels / c.groups) {
    // OHWI: input channel c of group g meets the group's output channels.
    const int64_t perGroupIn = s[3], perGroupOut = s[0] / c.groups;
    const int64_t window = s[1] * s[2];
    for (int64_t o = 0; o < s[0]; ++o)
      for (int64_t k = 0; k < window; ++k)
        for (int64_t i = 0; i < perGroupIn; ++i) {
          double v = c.weightValues[(o * window + k) * perGroupIn + i];
          w[(o / perGroupOut) * perGroupIn + i] += v * v;
        }
    for (double &v : w)
      v /= static_cast<double>(s[0]);
  } else if (!c.conv && s.size() == 3 && s[1] == channels) {
    // B[b, k, n]: row k meets every output column (averaged over b).
    for (int64_t b = 0; b < s[0]; ++b)
      for (int64_t k = 0; k < s[1]; ++k)
        for (int64_t n = 0; n < s[2]; ++n) {
          double v = c.weightValues[(b * s[1] + k) * s[2] + n];
          w[k] += v * v;
        }
    for (double &v : w)
      v /= static_cast<double>(s[0] * s[2]);
  } else {
    return false;
  }
  c.channelWeights = std::move(w);
  return true;
}

/// The candidates' qparams of the calibrated auto observer `op`, as folding
/// computes them once it is resolved; a candidate without qparams (e.g. a
/// calibrator on a constant tensor) is left out.
static Expected<std::vector<Candidate>>
candidatesOf(qnt::ObserveOp op, obs::RangeReduction reduction) {
  std::vector<Candidate> candidates;
  for (obs::ObserverKind kind : obs::kAutoCandidates) {
    Expected<obs::Observer> observer = loadObserverAs(op, kind, reduction);
    if (!observer)
      return observer.takeError();
    quantc::StatusOr<obs::QParams> qparams = observer->computeQParams();
    if (qparams.failed())
      continue;
    candidates.push_back({kind, qparams->scale[0], qparams->zeroPoint[0],
                          static_cast<int32_t>(observer->quantRange().qmin),
                          static_cast<int32_t>(observer->quantRange().qmax)});
  }
  if (candidates.empty())
    return fail("observer '" + op.getName().value_or("").str() +
                "': no candidate kind gives quantization parameters");
  return candidates;
}

/// Adds one run's squared errors of every candidate to `t`.
static void accumulate(Tensor &t, llvm::ArrayRef<float> x) {
  const int64_t n = static_cast<int64_t>(x.size());
  for (size_t k = 0; k < t.candidates.size(); ++k) {
    const Candidate &q = t.candidates[k];
    std::vector<double> &error = t.error[k];
    for (int64_t i = 0; i < n; ++i) {
      float dq = ref::dequantize(
          ref::quantize(x[i], q.scale, q.zeroPoint, q.qmin, q.qmax), q.scale,
          q.zeroPoint);
      double d = static_cast<double>(dq) - static_cast<double>(x[i]);
      error[i % t.channels] += d * d;
    }
  }
  t.count += n;
}

/// The choice for a scored tensor: each candidate's estimated output MSE.
static ObserverChoice choose(const Tensor &t) {
  ObserverChoice choice;
  const double perChannel =
      static_cast<double>(t.count) / static_cast<double>(t.channels);
  std::string consumers;
  for (const Consumer &c : t.consumers)
    consumers += (consumers.empty() ? "" : ", ") + c.name +
                 (c.channelWeights.empty() ? "" : " (weighted)");
  choice.consumers = consumers;
  double best = INFINITY;
  for (size_t k = 0; k < t.candidates.size(); ++k) {
    double score = 0;
    for (const Consumer &c : t.consumers)
      for (int64_t ch = 0; ch < t.channels; ++ch)
        score += c.channelWeights.empty()
                     ? t.error[k][ch] / static_cast<double>(t.count)
                     : t.error[k][ch] / perChannel * c.channelWeights[ch];
    choice.scores.emplace_back(t.candidates[k].kind, score);
    if (score < best) {
      best = score;
      choice.kind = t.candidates[k].kind;
    }
  }
  return choice;
}

/// The float value the probe returns for an observer's input in the clone:
/// the value left once activation quantization is removed.
static Value floatValue(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<qnt::ObserveOp, qnt::FakeQuantOp>(def) ||
        matchPattern(def->getOperand(0), m_Constant()))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// The float copy of the model returning every scored tensor and every
/// non-constant weight (probe indices set in `tensors`). Observers are
/// matched to the clone's by their order in the function.
static Expected<std::unique_ptr<ValueProbe>>
createProbe(ModuleOp module, StringRef function,
            ArrayRef<qnt::ObserveOp> observers, std::vector<Tensor> &tensors) {
  llvm::DenseMap<Operation *, size_t> position;
  for (auto [i, op] : llvm::enumerate(observers))
    position[op] = i;
  auto select = [&](func::FuncOp fn) -> Expected<SmallVector<Value>> {
    SmallVector<qnt::ObserveOp> cloned;
    fn.walk([&](qnt::ObserveOp op) { cloned.push_back(op); });
    if (cloned.size() != observers.size())
      return fail("the model's copy has other observers");
    SmallVector<Value> values;
    llvm::DenseMap<Value, int64_t> index;
    auto add = [&](qnt::ObserveOp original) {
      Value v = floatValue(cloned[position.at(original)].getInput());
      auto [it, inserted] = index.try_emplace(v, values.size());
      if (inserted)
        values.push_back(v);
      return it->second;
    };
    for (Tensor &t : tensors) {
      t.probeIndex = add(t.op);
      for (Consumer &c : t.consumers)
        if (c.weightObserver)
          c.probeIndex = add(c.weightObserver);
    }
    removeActivationQuantization(fn->getParentOfType<ModuleOp>());
    return values;
  };
  return ValueProbe::create(module, function, select,
                            /*keepQuantization=*/true);
}

/// On the first run: the values of the weights the probe computes, then
/// every consumer's w_c (a consumer whose weight does not fit its tensor's
/// channels counts as the identity).
static void setChannelWeights(std::vector<Tensor> &tensors,
                              const ValueProbe &probe) {
  for (Tensor &t : tensors)
    for (Consumer &c : t.consumers) {
      if (c.probeIndex >= 0)
        c.weightValues.assign(probe.value(c.probeIndex).begin(),
                              probe.value(c.probeIndex).end());
      if (!c.weightValues.empty() && !computeChannelWeights(c, t.channels))
        c.channelWeights.clear();
    }
}

Error quantc::chooseObservers(ModuleOp module, StringRef function,
                              ArrayRef<std::string> data, int64_t maxSamples,
                              obs::RangeReduction reduction) {
  Expected<Operation *> fn = findModelFunction(module, function);
  if (!fn)
    return fn.takeError();
  SmallVector<qnt::ObserveOp> observers;
  (*fn)->walk([&](qnt::ObserveOp op) { observers.push_back(op); });
  std::vector<Tensor> tensors;
  for (qnt::ObserveOp op : observers) {
    if (!isAutoObserver(op))
      continue;
    Tensor t;
    t.op = op;
    Expected<std::vector<Candidate>> candidates = candidatesOf(op, reduction);
    if (!candidates)
      return candidates.takeError();
    t.candidates = std::move(*candidates);
    t.consumers = findConsumers(op);
    auto shape = op.getInput().getType().getShape();
    t.channels = shape.empty() ? 1 : shape.back();
    t.error.assign(t.candidates.size(), std::vector<double>(t.channels, 0.0));
    tensors.push_back(std::move(t));
  }
  if (tensors.empty())
    return Error::success();

  Expected<std::unique_ptr<ValueProbe>> probe =
      createProbe(module, function, observers, tensors);
  if (!probe)
    return probe.takeError();
  bool first = true;
  Error error = forEachSample(
      data, maxSamples, (*probe)->inputs(), /*sources=*/nullptr,
      [&](ArrayRef<const float *> inputs) -> Error {
        if (Error e = (*probe)->run(inputs))
          return e;
        if (first)
          setChannelWeights(tensors, **probe);
        first = false;
        mlir::parallelFor(
            module.getContext(), 0, tensors.size(), [&](size_t i) {
              accumulate(tensors[i], (*probe)->value(tensors[i].probeIndex));
            });
        return Error::success();
      });
  if (error)
    return error;
  if (first)
    return fail("auto observers: no calibration sample to choose on");
  for (Tensor &t : tensors)
    if (Error e = applyObserverChoice(t.op, choose(t)))
      return e;
  return Error::success();
}
