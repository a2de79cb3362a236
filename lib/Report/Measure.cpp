//===- Measure.cpp - Measure a calibrated model for the report ------------===//
//
// Two probes are built from the calibrated model, each returning every
// reported activation as an extra result:
//  - the float probe: observers removed, the observers' inputs returned;
//    JIT-compiled with the float pipeline;
//  - the int8 probe: the observers' outputs returned, then the quantize
//    stage (quantc-quantize: qnt-fold-observers, qnt-quantize) with the
//    options post-training quantization runs it with
//    (PostTrainingOptions::quantizeOptions); the extra results are the
//    dequantized int8 activations. It runs
//    on the int8 reference (quantc::ref) or, when the model keeps float ops
//    the reference does not implement, compiled with the generic kernels.
// The float probe runs twice over the calibration data: once for the exact
// extremes (the histogram range), once with the int8 probe for the sums.
//
//===----------------------------------------------------------------------===//

#include "quantc/Calibrate/ObserverChoice.h"
#include "quantc/Calibrate/Probe.h"
#include "quantc/Report/Report.h"
// The one error helper of lib/Calibrate, whose library this one extends.
#include "quantc/Support/Fail.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Pipelines/Pipelines.h"
#include "quantc/Reference/Requantize.h"
#include "quantc/Runtime/CompiledModel.h"
#include "quantc/Runtime/Npy.h"
#include "quantc/Runtime/ReferenceModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <cmath>
#include <functional>

using namespace mlir;
using namespace quantc;
using llvm::Error;
using llvm::Expected;
using quantc::fail;

namespace {

bool isConstant(Value v) { return matchPattern(v, m_Constant()); }

/// The quantized activations of `fn`, in walk order: its activation
/// observers, and the fake_quants of activations with fixed parameters
/// (sigmoid-like functions and softmax: no observer).
SmallVector<Operation *> activationObservers(func::FuncOp fn) {
  SmallVector<Operation *> ops;
  fn.walk([&](Operation *op) {
    if (isa<qnt::ObserveOp, qnt::FakeQuantOp>(op) &&
        !isConstant(op->getOperand(0)))
      ops.push_back(op);
  });
  return ops;
}

/// The real values of qmin and qmax (`l`'s quantization grid).
void setGrid(LayerReport &l) {
  l.gridMin =
      ref::dequantize(static_cast<int32_t>(l.qmin), l.scale, l.zeroPoint);
  l.gridMax =
      ref::dequantize(static_cast<int32_t>(l.qmax), l.scale, l.zeroPoint);
}

/// The report of an activation with fixed parameters (a fake_quant after
/// a sigmoid-like function): its type's scale and zero point, the
/// function's range as the clipping range.
LayerReport describeFixed(qnt::FakeQuantOp op, const std::string &name) {
  LayerReport l;
  l.name = name;
  auto q = cast<quant::UniformQuantizedType>(op.getQtype());
  l.config.dtype = q.isSigned() ? obs::Dtype::QInt8 : obs::Dtype::QUInt8;
  l.qmin = q.getStorageTypeMin();
  l.qmax = q.getStorageTypeMax();
  l.scale = static_cast<float>(q.getScale());
  l.zeroPoint = static_cast<int32_t>(q.getZeroPoint());
  setGrid(l);
  std::optional<ArrayRef<float>> lo = op.getRangeMin(), hi = op.getRangeMax();
  l.clipMin = lo && !lo->empty() ? lo->front() : l.gridMin;
  l.clipMax = hi && !hi->empty() ? hi->front() : l.gridMax;
  l.observerMin = l.clipMin;
  l.observerMax = l.clipMax;
  l.fixedRange = std::pair<double, double>{l.clipMin, l.clipMax};
  return l;
}

/// The observer library's view of `op`, as qnt-fold-observers folds it.
Expected<obs::Observer> loadObserver(qnt::ObserveOp op, const std::string &name,
                                     obs::RangeReduction reduction) {
  return toExpected(op.loadObserver(reduction), "observer '" + name + "': ");
}

/// The weight observed by `op` and what quantization does to it.
Expected<WeightReport> describeWeight(qnt::ObserveOp op,
                                      obs::RangeReduction reduction) {
  WeightReport w;
  w.name = op.getName() ? op.getName()->str() : "weight";
  Expected<obs::Observer> observer = loadObserver(op, w.name, reduction);
  if (!observer)
    return observer.takeError();
  Expected<obs::QParams> qp =
      toExpected(observer->computeQParams(), "observer '" + w.name + "': ");
  if (!qp)
    return qp.takeError();
  w.config = observer->config();
  w.scales = qp->scale;
  DenseElementsAttr constant;
  matchPattern(op.getInput(), m_Constant(&constant));
  SmallVector<float> values(constant.getValues<float>());
  ArrayRef<int64_t> shape = op.getInput().getType().getShape();
  std::optional<int64_t> axis = op.getNormalizedChannelAxis();
  int64_t inner = 1;
  if (axis)
    for (int64_t d = *axis + 1; d < static_cast<int64_t>(shape.size()); ++d)
      inner *= shape[d];
  const obs::QuantRange &range = observer->quantRange();
  w.min = values.empty() ? 0 : *llvm::min_element(values);
  w.max = values.empty() ? 0 : *llvm::max_element(values);
  for (size_t i = 0; i < values.size(); ++i) {
    size_t c = axis ? (i / inner) % qp->scale.size() : 0;
    int32_t q = ref::quantize(values[i], qp->scale[c], qp->zeroPoint[c],
                              static_cast<int32_t>(range.qmin),
                              static_cast<int32_t>(range.qmax));
    double f = values[i];
    double e = f - ref::dequantize(q, qp->scale[c], qp->zeroPoint[c]);
    w.signal += f * f;
    w.error += e * e;
  }
  return w;
}

/// The weight observers of the layer ending in `op`: observed constants
/// among the operands of `op` and of the ops before it (a linear layer is
/// add(reshape(matmul(x, w)), b)), up to `depth` ops back, never past
/// another activation's observer.
void collectWeights(Operation *op, int depth,
                    llvm::DenseSet<Operation *> &visited,
                    SmallVectorImpl<qnt::ObserveOp> &weights) {
  if (!visited.insert(op).second)
    return;
  for (Value operand : op->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (!def || isConstant(operand))
      continue;
    if (auto observe = dyn_cast<qnt::ObserveOp>(def)) {
      if (isConstant(observe.getInput()) && visited.insert(def).second)
        weights.push_back(observe);
      continue;
    }
    if (depth > 0)
      collectWeights(def, depth - 1, visited, weights);
  }
}

/// The observer's part of a layer's report: configuration and qparams;
/// nullopt for a per-channel activation.
Expected<std::optional<LayerReport>>
describeObserved(qnt::ObserveOp op, const std::string &name,
                 obs::RangeReduction reduction) {
  LayerReport l;
  l.name = name;
  Expected<obs::Observer> observer = loadObserver(op, l.name, reduction);
  if (!observer)
    return observer.takeError();
  Expected<std::pair<std::vector<float>, std::vector<float>>> range =
      toExpected(observer->computeRange(), "observer '" + l.name + "': ");
  if (!range)
    return range.takeError();
  Expected<obs::QParams> qp =
      toExpected(observer->computeQParams(), "observer '" + l.name + "': ");
  if (!qp)
    return qp.takeError();
  // Per-channel activations have no single clipping range to draw.
  if (qp->scale.size() != 1)
    return std::optional<LayerReport>();
  l.config = observer->config();
  l.choice = getObserverChoice(op);
  l.qmin = observer->quantRange().qmin;
  l.qmax = observer->quantRange().qmax;
  const obs::ObserverState &state = observer->state();
  l.observerMin = state.min.front();
  l.observerMax = state.max.front();
  l.clipMin = range->first.front();
  l.clipMax = range->second.front();
  l.scale = qp->scale.front();
  l.zeroPoint = qp->zeroPoint.front();
  setGrid(l);
  return std::optional<LayerReport>(std::move(l));
}

/// The static part of a layer's report (an observer or a fixed-parameter
/// fake_quant): names, configuration, qparams.
Expected<std::optional<LayerReport>>
describeLayer(Operation *op, size_t index, obs::RangeReduction reduction) {
  auto nameAttr = op->getAttrOfType<StringAttr>("name");
  std::string name =
      nameAttr ? nameAttr.str() : "activation" + std::to_string(index);
  std::optional<LayerReport> described;
  if (auto fixed = dyn_cast<qnt::FakeQuantOp>(op)) {
    if (!isa<quant::UniformQuantizedType>(fixed.getQtype()))
      return std::optional<LayerReport>();
    described = describeFixed(fixed, name);
  } else {
    Expected<std::optional<LayerReport>> observed =
        describeObserved(cast<qnt::ObserveOp>(op), name, reduction);
    if (!observed)
      return observed.takeError();
    if (!*observed)
      return std::optional<LayerReport>();
    described = std::move(**observed);
  }
  LayerReport &l = *described;
  Value input = op->getOperand(0);
  ArrayRef<int64_t> shape = cast<ShapedType>(input.getType()).getShape();
  l.shape.assign(shape.begin(), shape.end());

  Operation *def = input.getDefiningOp();
  l.op = def ? def->getName().getStringRef().str() : "input";
  if (def)
    if (auto act = def->getAttrOfType<qnt::ActivationAttr>("activation"))
      if (act.getValue() != qnt::Activation::none)
        l.op += " " + qnt::stringifyActivation(act.getValue()).str();
  Location loc = def ? def->getLoc() : op->getLoc();
  for (const std::string &n : qnt::getLayerNames(loc))
    l.fusedLayers.push_back(n);
  op->getLoc()->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      l.location =
          (file.getFilename().getValue() + ":" + llvm::Twine(file.getLine()) +
           ":" + llvm::Twine(file.getColumn()))
              .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  SmallVector<qnt::ObserveOp> weights;
  llvm::DenseSet<Operation *> visited;
  if (def)
    collectWeights(def, /*depth=*/3, visited, weights);
  for (qnt::ObserveOp w : weights) {
    Expected<WeightReport> weight = describeWeight(w, reduction);
    if (!weight)
      return weight.takeError();
    l.weights.push_back(std::move(*weight));
  }
  return described;
}

/// Quantize-dequantize with the int8 reference's arithmetic.
float fakeQuant(float x, const LayerReport &l) {
  return ref::dequantize(ref::quantize(x, l.scale, l.zeroPoint,
                                       static_cast<int32_t>(l.qmin),
                                       static_cast<int32_t>(l.qmax)),
                         l.scale, l.zeroPoint);
}

/// The reported activation observers of the clone `probe` of the model.
Expected<std::pair<func::FuncOp, SmallVector<Operation *>>>
probeObservers(ModuleOp probe, StringRef function, ArrayRef<size_t> reported) {
  Expected<Operation *> fn = findModelFunction(probe, function);
  if (!fn)
    return fn.takeError();
  auto func = cast<func::FuncOp>(*fn);
  SmallVector<Operation *> all = activationObservers(func), picked;
  for (size_t i : reported)
    picked.push_back(all[i]);
  return std::make_pair(func, picked);
}

/// Output buffers for a model's results, one per output shape.
struct OutputBuffers {
  std::vector<std::vector<float>> data;
  std::vector<float *> pointers;

  explicit OutputBuffers(const std::vector<std::vector<int64_t>> &shapes) {
    for (const std::vector<int64_t> &shape : shapes)
      data.emplace_back(computeProduct(shape));
    for (std::vector<float> &b : data)
      pointers.push_back(b.data());
  }
};

/// The shapes of `tensors`.
std::vector<std::vector<int64_t>> shapesOf(ArrayRef<ModelTensor> tensors) {
  std::vector<std::vector<int64_t>> shapes;
  for (const ModelTensor &t : tensors)
    shapes.push_back(t.shape);
  return shapes;
}

/// The layers of the report, from the activation observers of `fn` and
/// their state; returns the index (among activationObservers) of each
/// reported one.
Expected<SmallVector<size_t>> describeLayers(func::FuncOp fn,
                                             const ReportOptions &options,
                                             ModelReport &report) {
  SmallVector<size_t> reported;
  SmallVector<Operation *> observers = activationObservers(fn);
  for (auto [i, op] : llvm::enumerate(observers)) {
    Expected<std::optional<LayerReport>> layer =
        describeLayer(op, i, options.quantize.fold.reduceRange);
    if (!layer)
      return layer.takeError();
    if (!*layer)
      continue;
    reported.push_back(i);
    report.layers.push_back(std::move(**layer));
  }
  if (report.layers.empty())
    return fail("the model has no quantized activations to report on");
  return reported;
}

/// The float probe: the model without observers (and fixed-parameter
/// fake_quants), compiled, returning every reported layer's float value.
struct FloatProbe {
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<CompiledModel> model;
  /// The result index of each layer; -1 - i: model input i itself
  /// (returning an argument would not bufferize into an output buffer).
  std::vector<int64_t> result;
  std::unique_ptr<OutputBuffers> outputs;

  /// The float activation of layer `i` after a run on the inputs `x`.
  ArrayRef<float> activation(size_t i, ArrayRef<const float *> x) const {
    if (result[i] < 0) {
      size_t arg = static_cast<size_t>(-1 - result[i]);
      return ArrayRef<float>(x[arg], model->inputs()[arg].numElements());
    }
    return outputs->data[result[i]];
  }
  Error run(ArrayRef<const float *> x) {
    return model->run(x, outputs->pointers);
  }
};

Expected<FloatProbe> buildFloatProbe(ModuleOp calibrated,
                                     const ReportOptions &options,
                                     ArrayRef<size_t> reported) {
  FloatProbe probe;
  probe.module = calibrated.clone();
  auto floatOps = probeObservers(*probe.module, options.function, reported);
  if (!floatOps)
    return floatOps.takeError();
  // Observers go first, so that a layer that is a model result is returned
  // once.
  SmallVector<Value> floatValues, inputs;
  for (Operation *op : floatOps->second)
    inputs.push_back(op->getOperand(0));
  removeActivationQuantization(*probe.module);
  for (Value v : inputs)
    if (!isa<BlockArgument>(v))
      floatValues.push_back(v);
  std::vector<int64_t> returned = returnAlso(floatOps->first, floatValues);
  auto next = returned.begin();
  for (Value v : inputs)
    probe.result.push_back(
        isa<BlockArgument>(v)
            ? -1 - static_cast<int64_t>(cast<BlockArgument>(v).getArgNumber())
            : *next++);
  auto model = CompiledModel::create(
      *probe.module, options.function, [](OpPassManager &pm) {
        buildFloatToLLVMPipeline(pm, {}, hostVectorBits());
      });
  if (!model)
    return model.takeError();
  probe.model = std::move(*model);
  probe.outputs =
      std::make_unique<OutputBuffers>(shapesOf(probe.model->outputs()));
  return std::move(probe);
}

/// The int8 probe: the model through the quantize stage as post-training
/// quantization runs it, returning every reported layer's dequantized int8
/// value; run on the int8 reference, else compiled with generic kernels.
struct Int8Probe {
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<ReferenceModel> reference;
  std::unique_ptr<CompiledModel> compiled;
  /// The result index of each layer.
  std::vector<int64_t> result;
  /// Per layer: whether its returned value is still float, to be
  /// quantized and dequantized here (empty: none is).
  std::vector<bool> quantizeOnHost;
  std::unique_ptr<OutputBuffers> outputs;
  /// How each model result is produced (the first results of the probe).
  std::vector<OutputProduction> produced;

  ArrayRef<float> activation(size_t i) const {
    return outputs->data[result[i]];
  }
  Error run(ArrayRef<const float *> x) {
    return reference ? reference->run(x, outputs->pointers)
                     : compiled->run(x, outputs->pointers);
  }
};

/// Quantizes the probe's module (the quantize stage) and records, in
/// `report`, what the int8 model computes in float and each layer's int8 op.
Error quantizeProbe(Int8Probe &probe, func::FuncOp fn,
                    const ReportOptions &options, ModelReport &report) {
  PassManager pm(probe.module->getContext());
  buildQuantizePipeline(pm, options.quantize);
  if (failed(pm.run(*probe.module)))
    return fail("folding or quantization of the report's int8 model failed "
                "(see above)");
  report.floatOps = findFloatOps(fn);
  Operation *ret = fn.getBody().front().getTerminator();
  // The model's own results come first, the layers' after them.
  for (unsigned r = 0, e = ret->getNumOperands() - probe.result.size(); r < e;
       ++r)
    probe.produced.push_back(describeOutputProduction(ret->getOperand(r)));
  for (auto [l, r] : llvm::zip(report.layers, probe.result)) {
    Value v = ret->getOperand(r);
    if (auto dcast = v.getDefiningOp<quant::DequantizeCastOp>())
      v = dcast.getInput();
    Operation *def = v.getDefiningOp();
    l.int8Op = def ? def->getName().getStringRef().str() : "input";
  }
  return Error::success();
}

/// Compiles the probe with the generic int8 kernels, for a model the
/// reference cannot run.
Error compileProbe(Int8Probe &probe, func::FuncOp fn,
                   const ReportOptions &options) {
  // Canonicalization folds dcast(qcast(x)) to x (upstream quant's folder)
  // where the extra result is the only user of a quantization: that
  // value's quantize-dequantize is then done here, as the reference does.
  Operation *ret = fn.getBody().front().getTerminator();
  for (int64_t r : probe.result) {
    auto dcast = ret->getOperand(r).getDefiningOp<quant::DequantizeCastOp>();
    probe.quantizeOnHost.push_back(
        dcast && dcast.getInput().getDefiningOp<quant::QuantizeCastOp>());
  }
  auto generic = CompiledModel::create(
      *probe.module, options.function,
      [](OpPassManager &pm) { buildInt8ToLLVMPipeline(pm, "generic"); });
  if (!generic)
    return generic.takeError();
  probe.compiled = std::move(*generic);
  return Error::success();
}

Expected<Int8Probe> buildInt8Probe(ModuleOp calibrated,
                                   const ReportOptions &options,
                                   ArrayRef<size_t> reported,
                                   ModelReport &report) {
  Int8Probe probe;
  probe.module = calibrated.clone();
  auto int8Ops = probeObservers(*probe.module, options.function, reported);
  if (!int8Ops)
    return int8Ops.takeError();
  SmallVector<Value> int8Values;
  for (Operation *op : int8Ops->second)
    int8Values.push_back(op->getResult(0));
  probe.result = returnAlso(int8Ops->first, int8Values);
  if (Error e = quantizeProbe(probe, int8Ops->first, options, report))
    return std::move(e);
  if (auto model = ReferenceModel::create(*probe.module, options.function)) {
    probe.reference = std::move(*model);
    probe.quantizeOnHost.assign(report.layers.size(), false);
    report.int8Executor = "reference";
  } else {
    llvm::consumeError(model.takeError());
    if (Error e = compileProbe(probe, int8Ops->first, options))
      return std::move(e);
    report.int8Executor = "compiled";
  }
  probe.outputs = std::make_unique<OutputBuffers>(
      shapesOf(probe.reference ? probe.reference->outputs()
                               : probe.compiled->outputs()));
  return std::move(probe);
}

/// Pass 1 over the data: the exact extremes of every float activation,
/// then each layer's histogram range.
Error measureExtremes(const ReportOptions &options, FloatProbe &floats,
                      ModelReport &report) {
  for (LayerReport &l : report.layers) {
    l.min = INFINITY;
    l.max = -INFINITY;
  }
  Error e =
      forEachSample(options.data, options.maxSamples, floats.model->inputs(),
                    nullptr, [&](ArrayRef<const float *> x) -> Error {
                      if (Error e = floats.run(x))
                        return e;
                      for (auto [i, l] : llvm::enumerate(report.layers)) {
                        ArrayRef<float> f = floats.activation(i, x);
                        auto [lo, hi] = std::minmax_element(f.begin(), f.end());
                        l.min = std::min(l.min, *lo);
                        l.max = std::max(l.max, *hi);
                      }
                      return Error::success();
                    });
  if (e)
    return e;
  for (LayerReport &l : report.layers) {
    l.histMin = std::min(l.min, l.gridMin);
    l.histMax = std::max(l.max, l.gridMax);
    if (!(l.histMax > l.histMin))
      l.histMax = l.histMin + 1;
    l.histogram.assign(options.bins, 0);
  }
  return Error::success();
}

/// Adds one run's float activation `f` and int8 one `q` of layer `l`:
/// clipping, the errors of the tensor alone and of the int8 model, the
/// histogram. `quantizeOnHost`: `q` is still float (see Int8Probe).
void accumulateLayer(LayerReport &l, ArrayRef<float> f, ArrayRef<float> q,
                     bool quantizeOnHost) {
  double width = (static_cast<double>(l.histMax) - l.histMin) /
                 static_cast<double>(l.histogram.size());
  int64_t last = static_cast<int64_t>(l.histogram.size()) - 1;
  for (size_t k = 0; k < f.size(); ++k) {
    int64_t code = ref::quantizeUnclamped(f[k], l.scale, l.zeroPoint);
    l.clipped += code < l.qmin || code > l.qmax;
    double fk = f[k];
    double alone = fk - fakeQuant(f[k], l);
    double cumulative = fk - (quantizeOnHost ? fakeQuant(q[k], l) : q[k]);
    l.signal += fk * fk;
    l.errorAlone += alone * alone;
    l.errorCumulative += cumulative * cumulative;
    auto bin = static_cast<int64_t>(std::floor((fk - l.histMin) / width));
    ++l.histogram[std::clamp<int64_t>(bin, 0, last)];
  }
  l.count += static_cast<int64_t>(f.size());
}

/// Adds one run of model result `o`, float `f` and int8 `q`: its error,
/// equal elements and, for a classifier, top-1 agreement.
void accumulateOutput(OutputReport &o, ArrayRef<float> f, ArrayRef<float> q) {
  for (size_t k = 0; k < f.size(); ++k) {
    double d = static_cast<double>(f[k]) - q[k];
    o.signal += static_cast<double>(f[k]) * f[k];
    o.error += d * d;
    o.maxAbsError = std::max(o.maxAbsError, std::abs(d));
    o.equal += f[k] == q[k];
  }
  o.elements += static_cast<int64_t>(f.size());
  if (o.classifier) {
    int64_t classes = o.shape.back();
    for (int64_t r = 0; r < o.shape[0]; ++r) {
      auto fr = f.begin() + r * classes, qr = q.begin() + r * classes;
      o.top1Agree += std::max_element(fr, fr + classes) - fr ==
                     std::max_element(qr, qr + classes) - qr;
      ++o.rows;
    }
  }
}

/// The model's results as the report measures them (no sums yet): names,
/// shapes, dtypes, which are a classifier's scores.
std::vector<OutputReport> describeOutputs(ArrayRef<ModelTensor> results) {
  std::vector<OutputReport> outputs;
  for (auto [i, t] : llvm::enumerate(results)) {
    OutputReport o;
    o.index = static_cast<int64_t>(i);
    o.name = t.name.empty() ? "output" + std::to_string(i) : t.name;
    o.shape = t.shape;
    o.dtype = t.dtype;
    // [rows, 1, ..., 1, classes]: a classifier's scores.
    ArrayRef<int64_t> shape(o.shape);
    o.classifier = o.isFloat() && shape.size() >= 2 && shape.back() >= 2 &&
                   computeProduct(shape.drop_front().drop_back()) == 1;
    outputs.push_back(std::move(o));
  }
  return outputs;
}

/// Pass 2 over the data: float and int8 side by side.
Error measureErrors(const ReportOptions &options, FloatProbe &floats,
                    Int8Probe &int8, size_t modelResults, ModelReport &report) {
  report.outputs = describeOutputs(
      ArrayRef(floats.model->outputs()).take_front(modelResults));
  for (OutputReport &o : report.outputs)
    if (static_cast<size_t>(o.index) < int8.produced.size())
      o.produced = int8.produced[o.index];
  Error e = forEachSample(
      options.data, options.maxSamples, floats.model->inputs(), &report.sources,
      [&](ArrayRef<const float *> x) -> Error {
        if (Error e = floats.run(x))
          return e;
        if (Error e = int8.run(x))
          return e;
        ++report.samples;
        for (auto [i, l] : llvm::enumerate(report.layers))
          accumulateLayer(l, floats.activation(i, x), int8.activation(i),
                          int8.quantizeOnHost[i]);
        for (OutputReport &o : report.outputs)
          accumulateOutput(o, floats.outputs->data[o.index],
                           int8.outputs->data[o.index]);
        return Error::success();
      });
  if (e)
    return e;
  if (report.samples == 0)
    return fail("the calibration data has no samples");
  return Error::success();
}

} // namespace

std::optional<double> quantc::sqnrDb(double signal, double error) {
  if (signal <= 0)
    return std::nullopt;
  if (error <= 0)
    return INFINITY;
  return 10 * std::log10(signal / error);
}

std::optional<double> OutputReport::sqnr() const {
  return isFloat() ? sqnrDb(signal, error) : std::nullopt;
}

const OutputReport *quantc::worstOutput(const ModelReport &report) {
  const OutputReport *worst = nullptr;
  for (const OutputReport &o : report.outputs)
    if (std::optional<double> db = o.sqnr())
      if (!worst || *db < *worst->sqnr())
        worst = &o;
  return worst;
}

Expected<ModelReport> quantc::buildReport(ModuleOp calibrated,
                                          const ReportOptions &options) {
  if (options.data.empty())
    return fail("the report needs calibration data to run the float and int8 "
                "models on");
  if (options.bins < 1)
    return fail("the report needs at least one histogram bin");
  Expected<Operation *> fnOp = findModelFunction(calibrated, options.function);
  if (!fnOp)
    return fnOp.takeError();
  auto fn = cast<func::FuncOp>(*fnOp);
  ModelReport report;
  report.function = fn.getSymName().str();
  if (options.budget)
    report.budget = *options.budget;
  if (fn.getNumResults() == 0)
    return fail("the model has no results");

  Expected<SmallVector<size_t>> reported = describeLayers(fn, options, report);
  if (!reported)
    return reported.takeError();
  Expected<FloatProbe> floats = buildFloatProbe(calibrated, options, *reported);
  if (!floats)
    return floats.takeError();
  Expected<Int8Probe> int8 =
      buildInt8Probe(calibrated, options, *reported, report);
  if (!int8)
    return int8.takeError();
  if (Error e = measureExtremes(options, *floats, report))
    return std::move(e);
  if (Error e =
          measureErrors(options, *floats, *int8, fn.getNumResults(), report))
    return std::move(e);
  return report;
}
