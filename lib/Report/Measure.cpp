//===- Measure.cpp - Measure a calibrated model for the report ------------===//
//
// Two probes are built from the calibrated model, each returning every
// reported activation as an extra result:
//  - the float probe: observers removed, the observers' inputs returned;
//    JIT-compiled with the float pipeline;
//  - the int8 probe: the observers' outputs returned, then
//    qnt-fold-observers and qnt-quantize as post-training quantization runs
//    them; the extra results are the dequantized int8 activations. It runs
//    on the int8 reference (quantc::ref) or, when the model keeps float ops
//    the reference does not implement, compiled with the generic kernels.
// The float probe runs twice over the calibration data: once for the exact
// extremes (the histogram range), once with the int8 probe for the sums.
//
//===----------------------------------------------------------------------===//

#include "quantc/Report/Report.h"
// The one error helper of lib/Calibrate, whose library this one extends.
#include "quantc/Support/Fail.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"
#include "quantc/Calibrate/PostTraining.h"
#include "quantc/Pipelines/Pipelines.h"
#include "quantc/Reference/Requantize.h"
#include "quantc/Runtime/CompiledModel.h"
#include "quantc/Runtime/Npy.h"
#include "quantc/Runtime/ReferenceModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
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
using quantc::detail::fail;

namespace {

int64_t product(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

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
  std::string error;
  std::optional<obs::Observer> observer = op.loadObserver(reduction, error);
  if (!observer)
    return fail("observer '" + name + "': " + error);
  return std::move(*observer);
}

/// The weight observed by `op` and what quantization does to it.
Expected<WeightReport> describeWeight(qnt::ObserveOp op,
                                      obs::RangeReduction reduction) {
  WeightReport w;
  w.name = op.getName() ? op.getName()->str() : "weight";
  Expected<obs::Observer> observer = loadObserver(op, w.name, reduction);
  if (!observer)
    return observer.takeError();
  obs::ErrorOr<obs::QParams> qp = observer->computeQParams();
  if (!qp)
    return fail("observer '" + w.name + "': " + qp.error());
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
  obs::ErrorOr<std::pair<std::vector<float>, std::vector<float>>> range =
      observer->computeRange();
  if (!range)
    return fail("observer '" + l.name + "': " + range.error());
  obs::ErrorOr<obs::QParams> qp = observer->computeQParams();
  if (!qp)
    return fail("observer '" + l.name + "': " + qp.error());
  // Per-channel activations have no single clipping range to draw.
  if (qp->scale.size() != 1)
    return std::optional<LayerReport>();
  l.config = observer->config();
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

/// Makes `fn` return `values` too; returns the result index of each. A
/// value is returned once (a value returned twice does not bufferize into
/// output buffers).
std::vector<int64_t> returnAlso(func::FuncOp fn, ArrayRef<Value> values) {
  Operation *ret = fn.getBody().front().getTerminator();
  SmallVector<Value> operands(ret->getOperands());
  std::vector<int64_t> indices;
  for (Value v : values) {
    auto *it = llvm::find(operands, v);
    indices.push_back(it - operands.begin());
    if (it == operands.end())
      operands.push_back(v);
  }
  ret->setOperands(operands);
  fn.setFunctionType(FunctionType::get(fn.getContext(), fn.getArgumentTypes(),
                                       ValueRange(operands).getTypes()));
  return indices;
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

/// Calls `body` with the inputs of every run of the calibration data, split
/// as the calibrator splits it, up to `maxSamples` runs.
Error forEachSample(const ReportOptions &options, ArrayRef<ModelTensor> in,
                    std::vector<std::string> *sources,
                    llvm::function_ref<Error(ArrayRef<const float *>)> body) {
  int64_t runs = 0;
  auto limited = [&] {
    return options.maxSamples > 0 && runs >= options.maxSamples;
  };
  return forEachSampleFile(
      options.data, in, [&](const ModelSamples &samples, bool &stop) -> Error {
        if (sources)
          sources->push_back(samples.source);
        for (int64_t r = 0; r < samples.runs && !limited(); ++r, ++runs)
          if (Error e = body(samples.run(r)))
            return e;
        stop = limited();
        return Error::success();
      });
}

} // namespace

std::optional<double> quantc::sqnrDb(double signal, double error) {
  if (signal <= 0)
    return std::nullopt;
  if (error <= 0)
    return INFINITY;
  return 10 * std::log10(signal / error);
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
  if (fn.getNumResults() == 0)
    return fail("the model has no results");

  // The layers, from the observers and their state.
  SmallVector<size_t> reported;
  SmallVector<Operation *> observers = activationObservers(fn);
  for (auto [i, op] : llvm::enumerate(observers)) {
    Expected<std::optional<LayerReport>> layer =
        describeLayer(op, i, options.reduceRange);
    if (!layer)
      return layer.takeError();
    if (!*layer)
      continue;
    reported.push_back(i);
    report.layers.push_back(std::move(**layer));
  }
  if (report.layers.empty())
    return fail("the model has no quantized activations to report on");

  // The float probe.
  OwningOpRef<ModuleOp> floatProbe = calibrated.clone();
  auto floatOps = probeObservers(*floatProbe, options.function, reported);
  if (!floatOps)
    return floatOps.takeError();
  // The float result of each layer; -1 - i: model input i itself (returning
  // an argument would not bufferize into an output buffer). Observers go
  // first, so that a layer that is a model result is returned once.
  SmallVector<Value> floatValues, inputs;
  // The float model: no observers, and no fixed-parameter fake_quants.
  for (Operation *op : floatOps->second)
    inputs.push_back(op->getOperand(0));
  floatProbe->walk([](Operation *op) {
    if (isa<qnt::ObserveOp>(op) ||
        (isa<qnt::FakeQuantOp>(op) && !isConstant(op->getOperand(0)))) {
      op->getResult(0).replaceAllUsesWith(op->getOperand(0));
      op->erase();
    }
  });
  for (Value v : inputs)
    if (!isa<BlockArgument>(v))
      floatValues.push_back(v);
  std::vector<int64_t> returned = returnAlso(floatOps->first, floatValues);
  std::vector<int64_t> floatResult;
  auto next = returned.begin();
  for (Value v : inputs)
    floatResult.push_back(
        isa<BlockArgument>(v)
            ? -1 - static_cast<int64_t>(cast<BlockArgument>(v).getArgNumber())
            : *next++);
  auto floatModel = CompiledModel::create(
      *floatProbe, options.function,
      [](OpPassManager &pm) { buildFloatToLLVMPipeline(pm); });
  if (!floatModel)
    return floatModel.takeError();

  // The int8 probe.
  OwningOpRef<ModuleOp> int8Probe = calibrated.clone();
  auto int8Ops = probeObservers(*int8Probe, options.function, reported);
  if (!int8Ops)
    return int8Ops.takeError();
  SmallVector<Value> int8Values;
  for (Operation *op : int8Ops->second)
    int8Values.push_back(op->getResult(0));
  std::vector<int64_t> int8Result = returnAlso(int8Ops->first, int8Values);
  {
    PassManager pm(calibrated.getContext());
    qnt::QntQuantizeOptions quantize;
    quantize.exclude.assign(options.exclude.begin(), options.exclude.end());
    qnt::QntFoldObserversOptions fold;
    fold.reduceRange = options.reduceRange;
    pm.addNestedPass<func::FuncOp>(qnt::createQntFoldObservers(fold));
    pm.addNestedPass<func::FuncOp>(qnt::createQntQuantize(quantize));
    if (failed(pm.run(*int8Probe)))
      return fail("folding or quantization of the report's int8 model failed "
                  "(see above)");
  }
  report.floatOps = findFloatOps(int8Ops->first);
  Operation *int8Return = int8Ops->first.getBody().front().getTerminator();
  for (auto [l, r] : llvm::zip(report.layers, int8Result)) {
    Value v = int8Return->getOperand(r);
    if (auto dcast = v.getDefiningOp<quant::DequantizeCastOp>())
      v = dcast.getInput();
    Operation *def = v.getDefiningOp();
    l.int8Op = def ? def->getName().getStringRef().str() : "input";
  }
  std::function<Error(ArrayRef<const float *>, ArrayRef<float *>)> runInt8;
  std::vector<std::vector<int64_t>> int8Shapes;
  std::vector<bool> quantizeOnHost(report.layers.size(), false);
  std::unique_ptr<ReferenceModel> reference;
  std::unique_ptr<CompiledModel> compiled;
  if (auto model = ReferenceModel::create(*int8Probe, options.function)) {
    reference = std::move(*model);
    report.int8Executor = "reference";
    for (const ModelTensor &t : reference->outputs())
      int8Shapes.push_back(t.shape);
    runInt8 = [&](ArrayRef<const float *> in, ArrayRef<float *> outs) {
      return reference->run(in, outs);
    };
  } else {
    llvm::consumeError(model.takeError());
    quantizeOnHost.clear();
    // Canonicalization folds dcast(qcast(x)) to x (upstream quant's folder)
    // where the extra result is the only user of a quantization: that
    // value's quantize-dequantize is then done here, as the reference does.
    for (int64_t r : int8Result) {
      auto dcast =
          int8Return->getOperand(r).getDefiningOp<quant::DequantizeCastOp>();
      quantizeOnHost.push_back(
          dcast && dcast.getInput().getDefiningOp<quant::QuantizeCastOp>());
    }
    auto generic = CompiledModel::create(
        *int8Probe, options.function,
        [](OpPassManager &pm) { buildInt8ToLLVMPipeline(pm, "generic"); });
    if (!generic)
      return generic.takeError();
    compiled = std::move(*generic);
    report.int8Executor = "compiled";
    for (const ModelTensor &t : compiled->outputs())
      int8Shapes.push_back(t.shape);
    runInt8 = [&](ArrayRef<const float *> in, ArrayRef<float *> outs) {
      return compiled->run(in, outs);
    };
  }

  std::vector<std::vector<int64_t>> shapes;
  for (const ModelTensor &t : (*floatModel)->outputs())
    shapes.push_back(t.shape);
  std::vector<std::vector<float>> floatOut, int8Out;
  std::vector<float *> floatPtrs, int8Ptrs;
  for (const std::vector<int64_t> &shape : shapes)
    floatOut.emplace_back(product(shape));
  for (const std::vector<int64_t> &shape : int8Shapes)
    int8Out.emplace_back(product(shape));
  for (std::vector<float> &b : floatOut)
    floatPtrs.push_back(b.data());
  for (std::vector<float> &b : int8Out)
    int8Ptrs.push_back(b.data());
  const std::vector<ModelTensor> &in = (*floatModel)->inputs();
  // The float activation of layer i for the inputs `x`.
  auto floatActivation = [&](size_t i,
                             ArrayRef<const float *> x) -> ArrayRef<float> {
    if (floatResult[i] < 0) {
      size_t arg = static_cast<size_t>(-1 - floatResult[i]);
      return ArrayRef<float>(x[arg], in[arg].numElements());
    }
    return floatOut[floatResult[i]];
  };

  // Pass 1: the exact extremes of every activation.
  for (LayerReport &l : report.layers) {
    l.min = INFINITY;
    l.max = -INFINITY;
  }
  Error e1 = forEachSample(
      options, in, nullptr, [&](ArrayRef<const float *> x) -> Error {
        if (Error e = (*floatModel)->run(x, floatPtrs))
          return e;
        for (auto [i, l] : llvm::enumerate(report.layers)) {
          ArrayRef<float> f = floatActivation(i, x);
          auto [lo, hi] = std::minmax_element(f.begin(), f.end());
          l.min = std::min(l.min, *lo);
          l.max = std::max(l.max, *hi);
        }
        return Error::success();
      });
  if (e1)
    return std::move(e1);
  for (LayerReport &l : report.layers) {
    l.histMin = std::min(l.min, l.gridMin);
    l.histMax = std::max(l.max, l.gridMax);
    if (!(l.histMax > l.histMin))
      l.histMax = l.histMin + 1;
    l.histogram.assign(options.bins, 0);
  }

  // Pass 2: float and int8 side by side.
  report.outputShape = shapes.front();
  // [rows, 1, ..., 1, classes]: a classifier's scores.
  const std::vector<int64_t> &out = shapes.front();
  report.outputDtype = (*floatModel)->outputs().front().dtype;
  report.classifier = report.outputDtype == "float32" && out.size() >= 2 &&
                      out.back() >= 2 &&
                      product(ArrayRef(out).drop_front().drop_back()) == 1;
  Error e2 = forEachSample(
      options, in, &report.sources, [&](ArrayRef<const float *> x) -> Error {
        if (Error e = (*floatModel)->run(x, floatPtrs))
          return e;
        if (Error e = runInt8(x, int8Ptrs))
          return e;
        ++report.samples;
        for (auto [i, l] : llvm::enumerate(report.layers)) {
          ArrayRef<float> f = floatActivation(i, x);
          const std::vector<float> &q = int8Out[int8Result[i]];
          double width = (static_cast<double>(l.histMax) - l.histMin) /
                         static_cast<double>(l.histogram.size());
          int64_t last = static_cast<int64_t>(l.histogram.size()) - 1;
          for (size_t k = 0; k < f.size(); ++k) {
            int64_t code = ref::quantizeUnclamped(f[k], l.scale, l.zeroPoint);
            l.clipped += code < l.qmin || code > l.qmax;
            double fk = f[k];
            double alone = fk - fakeQuant(f[k], l);
            double cumulative =
                fk - (quantizeOnHost[i] ? fakeQuant(q[k], l) : q[k]);
            l.signal += fk * fk;
            l.errorAlone += alone * alone;
            l.errorCumulative += cumulative * cumulative;
            auto bin =
                static_cast<int64_t>(std::floor((fk - l.histMin) / width));
            ++l.histogram[std::clamp<int64_t>(bin, 0, last)];
          }
          l.count += static_cast<int64_t>(f.size());
        }
        const std::vector<float> &f = floatOut.front(), &q = int8Out.front();
        for (size_t k = 0; k < f.size(); ++k) {
          double d = static_cast<double>(f[k]) - q[k];
          report.outputSignal += static_cast<double>(f[k]) * f[k];
          report.outputError += d * d;
          report.outputEqual += f[k] == q[k];
        }
        report.outputElements += static_cast<int64_t>(f.size());
        if (report.classifier) {
          int64_t classes = report.outputShape.back();
          for (int64_t r = 0; r < report.outputShape[0]; ++r) {
            auto fr = f.begin() + r * classes, qr = q.begin() + r * classes;
            report.top1Agree += std::max_element(fr, fr + classes) - fr ==
                                std::max_element(qr, qr + classes) - qr;
            ++report.rows;
          }
        }
        return Error::success();
      });
  if (e2)
    return std::move(e2);
  if (report.samples == 0)
    return fail("the calibration data has no samples");
  return report;
}
