//===- PostTraining.cpp - Post-training quantization in one call ----------===//
//
// quantizePostTraining as three named steps over the named stages: prepare
// (quantc-prepare), calibrate (Calibrator), quantize (quantc-quantize).
//
//===----------------------------------------------------------------------===//

#include "quantc/Calibrate/PostTraining.h"
#include "quantc/Support/Fail.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Calibrate/BiasCorrection.h"
#include "quantc/Calibrate/Calibrator.h"
#include "quantc/Calibrate/ObserverChoice.h"
#include "quantc/Calibrate/Smoothing.h"
#include "quantc/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using llvm::Error;
using llvm::Expected;

using quantc::fail;

Expected<quantc::Profile>
quantc::readMergedProfiles(ArrayRef<std::string> paths) {
  std::vector<Profile> loaded;
  for (const std::string &path : paths) {
    Expected<Profile> p = readProfile(path);
    if (!p)
      return p.takeError();
    loaded.push_back(std::move(*p));
  }
  return mergeProfiles(loaded);
}

quantc::obs::RangeReduction
quantc::PostTrainingOptions::rangeReduction() const {
  if (reduceRange)
    return *reduceRange;
  bool saturating = !int8Isas.empty() && llvm::all_of(int8Isas, [](Int8Isa i) {
    return getInfo(i).saturatingPairs;
  });
  return saturating ? obs::RangeReduction::Weights : obs::RangeReduction::None;
}

quantc::QuantizeOptions quantc::PostTrainingOptions::quantizeOptions() const {
  QuantizeOptions options;
  options.fold.reduceRange = rangeReduction();
  options.quantize.exclude.assign(exclude.begin(), exclude.end());
  options.correctBias = biasCorrection;
  options.floatOutputs = !int8Outputs;
  return options;
}

/// A timer nested in `parent`, or none.
static TimingScope nest(TimingScope *parent, StringRef name) {
  return parent ? parent->nest(name) : TimingScope();
}

/// Runs the stage that `build` adds on `module`, timed as `name` under
/// `timing`; `failure` is the error if a pass fails (its diagnostics have
/// been emitted).
static Error runStage(ModuleOp module, TimingScope *timing, StringRef name,
                      llvm::function_ref<void(OpPassManager &)> build,
                      StringRef failure) {
  TimingScope timer = nest(timing, name);
  PassManager pm(module.getContext());
  if (timer)
    pm.enableTiming(timer);
  build(pm);
  if (failed(pm.run(module)))
    return fail(failure);
  return Error::success();
}

/// SmoothQuant's statistics: the fused float model's per-channel max
/// |output| of every layer norm, on the calibration data, attached for
/// qnt-smooth.
static Error
measureLayerNormRanges(ModuleOp module, StringRef function,
                       const quantc::PostTrainingOptions &options) {
  if (!(options.smoothAlpha > 0 && options.smoothAlpha < 1))
    return fail(llvm::formatv("the smoothing alpha must lie in (0, 1), got {0}",
                              options.smoothAlpha)
                    .str());
  if (options.data.empty())
    return fail("smoothing needs calibration data (the layer norms' output "
                "ranges), not only a profile");
  TimingScope timer = nest(options.timing, "smoothing: layer norm ranges");
  Expected<int64_t> norms = quantc::attachActivationAbsMax(
      module, function, options.data, options.maxSamples);
  return norms ? Error::success() : norms.takeError();
}

/// The prepare stage: fuse first, so that observers see fused activations.
/// Smoothing measures the fused model, then smooths it before observers.
static Error prepare(ModuleOp module, StringRef function,
                     const quantc::PostTrainingOptions &options) {
  quantc::PrepareOptions prepare;
  prepare.observers.activationKind = options.activationKind;
  prepare.observers.weightKind = options.weightKind;
  prepare.equalize = options.equalize;
  if (options.smoothAlpha != 0) {
    quantc::PrepareOptions fuse;
    fuse.insertObservers = false;
    if (Error e = runStage(
            module, options.timing, "fuse",
            [&](OpPassManager &pm) { quantc::buildPreparePipeline(pm, fuse); },
            "fusion failed (see above)"))
      return e;
    if (Error e = measureLayerNormRanges(module, function, options))
      return e;
    prepare.fuse = false;
    prepare.smoothAlpha = options.smoothAlpha;
  }
  return runStage(
      module, options.timing, "fuse + insert observers",
      [&](OpPassManager &pm) { quantc::buildPreparePipeline(pm, prepare); },
      "fusion or observer insertion failed (see above)");
}

/// Resolves the `auto` observers of the calibrated `module` to their kinds
/// (quantc::resolveAutoObservers), as folding will use them; the choices go
/// into `profile`.
static Error chooseObservers(ModuleOp module, StringRef function,
                             const quantc::PostTrainingOptions &options,
                             const std::optional<quantc::Profile> &loaded,
                             quantc::Profile &profile) {
  TimingScope timer = nest(options.timing, "auto observers: choice");
  return quantc::resolveAutoObservers(
      module, function, loaded ? &*loaded : nullptr, options.data,
      options.maxSamples, options.rangeReduction(), profile);
}

/// Calibration: the observed model compiled and run on the data (after the
/// profiles it starts from); the observers' states written into the IR and
/// the profile saved.
static Error calibrate(ModuleOp module, StringRef function,
                       const quantc::PostTrainingOptions &options) {
  quantc::CalibrationOptions calibration;
  calibration.batchSize = options.batchSize;
  calibration.maxSamples = options.maxSamples;
  calibration.progress = options.progress;
  calibration.verifyEachPass = options.verifyEachPass;
  TimingScope buildTimer = nest(options.timing, "calibration build (JIT)");
  if (buildTimer)
    calibration.timing = &buildTimer;
  auto calibrator = quantc::Calibrator::create(module, function, calibration);
  if (!calibrator)
    return calibrator.takeError();
  buildTimer.stop();
  TimingScope runTimer = nest(options.timing, "calibration run");
  std::optional<quantc::Profile> loaded;
  if (!options.profiles.empty()) {
    Expected<quantc::Profile> merged =
        quantc::readMergedProfiles(options.profiles);
    if (!merged)
      return merged.takeError();
    if (Error e = (*calibrator)->loadProfile(*merged))
      return e;
    loaded = std::move(*merged);
  }
  {
    TimingScope timer = runTimer.nest("model on the data");
    if (Error e = (*calibrator)->runFiles(options.data))
      return e;
  }
  {
    TimingScope timer = runTimer.nest("observer states into the IR");
    if (Error e = (*calibrator)->finish())
      return e;
    if (Error e = (*calibrator)->writeStates())
      return e;
  }
  // The profile (and its model hash) of the model as calibrated, before
  // auto observers become their chosen kinds.
  quantc::Profile profile = (*calibrator)->profile();
  runTimer.stop();
  if (Error e = chooseObservers(module, function, options, loaded, profile))
    return e;
  if (!options.saveProfile.empty())
    if (Error e =
            quantc::writeProfile(options.saveProfile, profile, options.outputs))
      return e;
  return Error::success();
}

/// Bias correction's statistics: the float model's input means of every
/// layer with an observed weight, on the calibration data, attached for
/// qnt-correct-bias.
static Error measureInputMeans(ModuleOp module, StringRef function,
                               const quantc::PostTrainingOptions &options) {
  if (options.data.empty())
    return fail("bias correction needs calibration data (the layers' input "
                "means), not only a profile");
  TimingScope timer = nest(options.timing, "bias correction: input means");
  Expected<int64_t> layers = quantc::attachInputMeans(
      module, function, options.data, options.maxSamples);
  return layers ? Error::success() : layers.takeError();
}

/// Says on stderr which outputs miss the accuracy budget `result` and with
/// how many layers in float.
static void warnUnmet(const quantc::BudgetResult &result) {
  std::string missed;
  for (const quantc::OutputBudget &o : result.outputs)
    if (!o.met())
      missed += llvm::formatv("{0}{1} {2:F2} dB < {3:F2} dB",
                              missed.empty() ? "" : ", ", o.name, *o.sqnrAfter,
                              *o.target)
                    .str();
  llvm::errs() << llvm::formatv(
      "warning: the accuracy budget (output SQNR >= {0}) is not met: {1:F2} "
      "dB with {2} layer(s) in float (short: {3})\n",
      result.minOutputSqnr.str(), result.sqnrAfter, result.floatLayers.size(),
      missed);
}

/// The accuracy budget: the layers to keep in float (findFloatLayers) on the
/// validation data, else the calibration data (with a warning), added to
/// `quantize`'s exclusions; says what it did on stderr.
static Expected<quantc::BudgetResult>
meetBudget(ModuleOp module, StringRef function,
           const quantc::PostTrainingOptions &options,
           quantc::QuantizeOptions &quantize) {
  TimingScope timer = nest(options.timing, "accuracy budget");
  quantc::BudgetOptions budget;
  budget.function = function.str();
  budget.minOutputSqnr = options.minOutputSqnr;
  budget.rankOnly = options.minOutputSqnr.empty();
  budget.quantize = quantize;
  budget.data = options.validationData;
  if (budget.data.empty()) {
    if (options.data.empty())
      return fail("the accuracy budget needs validation or calibration data");
    llvm::errs() << "warning: no validation data: the accuracy budget is "
                    "measured on the calibration data, which the int8 model "
                    "was calibrated on\n";
    budget.data = options.data;
    budget.maxSamples = options.maxSamples;
  }
  Expected<quantc::BudgetResult> result =
      quantc::findFloatLayers(module, budget);
  if (!result)
    return result.takeError();
  result->onCalibrationData = options.validationData.empty();
  for (const std::string &name : result->names())
    quantize.quantize.exclude.push_back(name);
  if (!result->met && !budget.rankOnly)
    warnUnmet(*result);
  return result;
}

Error quantc::quantizePostTraining(ModuleOp module, StringRef function,
                                   const PostTrainingOptions &options) {
  if (options.data.empty() && options.profiles.empty())
    return fail("post-training quantization needs calibration data or a "
                "profile");
  if (Error e = prepare(module, function, options))
    return e;
  if (Error e = calibrate(module, function, options))
    return e;
  if (options.biasCorrection)
    if (Error e = measureInputMeans(module, function, options))
      return e;
  QuantizeOptions quantize = options.quantizeOptions();
  std::optional<BudgetResult> budget;
  if (!options.minOutputSqnr.empty() || options.rankLayers) {
    Expected<BudgetResult> found =
        meetBudget(module, function, options, quantize);
    if (!found)
      return found.takeError();
    budget = std::move(*found);
  }
  if (options.onCalibrated) {
    TimingScope reportTimer = nest(options.timing, "per-layer report");
    if (Error e =
            options.onCalibrated(module, quantize, budget ? &*budget : nullptr))
      return e;
  }
  return runStage(
      module, options.timing, "fold + quantize",
      [&](OpPassManager &pm) { buildQuantizePipeline(pm, quantize); },
      "folding or quantization failed (see above)");
}

bool quantc::hasFakeQuant(ModuleOp module) {
  return module.walk([](qnt::FakeQuantOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

Error quantc::quantizeFakeQuantModel(ModuleOp module,
                                     ArrayRef<std::string> exclude) {
  PrepareOptions prepare;
  prepare.insertObservers = false;
  QuantizeOptions quantize;
  quantize.quantize.exclude.assign(exclude.begin(), exclude.end());
  return runStage(
      module, /*timing=*/nullptr, "prepare + quantize",
      [&](OpPassManager &pm) {
        buildPreparePipeline(pm, prepare);
        buildQuantizePipeline(pm, quantize);
      },
      "fusion or quantization of the QDQ model failed (see above)");
}
