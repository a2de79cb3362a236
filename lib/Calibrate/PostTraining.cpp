//===- PostTraining.cpp - Post-training quantization in one call ----------===//

#include "quantc/Calibrate/PostTraining.h"
#include "quantc/Support/Fail.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"
#include "quantc/Calibrate/Calibrator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using llvm::Error;
using llvm::Expected;

using quantc::detail::fail;

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

/// A timer nested in `parent`, or none.
static TimingScope nest(TimingScope *parent, StringRef name) {
  return parent ? parent->nest(name) : TimingScope();
}

Error quantc::quantizePostTraining(ModuleOp module, StringRef function,
                                   const PostTrainingOptions &options) {
  if (options.data.empty() && options.profiles.empty())
    return fail("post-training quantization needs calibration data or a "
                "profile");
  MLIRContext *ctx = module.getContext();
  // Fuse first, so that observers see fused activations.
  {
    TimingScope timer = nest(options.timing, "fuse + insert observers");
    PassManager pm(ctx);
    if (timer)
      pm.enableTiming(timer);
    qnt::QntInsertObserversOptions observe;
    observe.activationKind = options.activationKind;
    observe.weightKind = options.weightKind;
    pm.addNestedPass<func::FuncOp>(qnt::createQntFuse());
    pm.addNestedPass<func::FuncOp>(qnt::createQntInsertObservers(observe));
    if (failed(pm.run(module)))
      return fail("fusion or observer insertion failed (see above)");
  }
  CalibrationOptions calibration;
  calibration.batchSize = options.batchSize;
  calibration.maxSamples = options.maxSamples;
  calibration.progress = options.progress;
  calibration.verifyEachPass = options.verifyEachPass;
  TimingScope buildTimer = nest(options.timing, "calibration build (JIT)");
  if (buildTimer)
    calibration.timing = &buildTimer;
  auto calibrator = Calibrator::create(module, function, calibration);
  if (!calibrator)
    return calibrator.takeError();
  buildTimer.stop();
  TimingScope runTimer = nest(options.timing, "calibration run");
  if (!options.profiles.empty()) {
    Expected<Profile> merged = readMergedProfiles(options.profiles);
    if (!merged)
      return merged.takeError();
    if (Error e = (*calibrator)->loadProfile(*merged))
      return e;
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
  if (!options.saveProfile.empty())
    if (Error e = writeProfile(options.saveProfile, (*calibrator)->profile()))
      return e;
  runTimer.stop();
  if (options.onCalibrated) {
    TimingScope reportTimer = nest(options.timing, "per-layer report");
    if (Error e = options.onCalibrated(module))
      return e;
  }
  TimingScope quantizeTimer = nest(options.timing, "fold + quantize");
  PassManager pm(ctx);
  if (quantizeTimer)
    pm.enableTiming(quantizeTimer);
  qnt::QntQuantizeOptions quantize;
  quantize.exclude.assign(options.exclude.begin(), options.exclude.end());
  qnt::QntFoldObserversOptions fold;
  fold.reduceRange = options.reduceRange;
  pm.addNestedPass<func::FuncOp>(qnt::createQntFoldObservers(fold));
  pm.addNestedPass<func::FuncOp>(qnt::createQntQuantize(quantize));
  if (failed(pm.run(module)))
    return fail("folding or quantization failed (see above)");
  return Error::success();
}

bool quantc::hasFakeQuant(ModuleOp module) {
  return module.walk([](qnt::FakeQuantOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

Error quantc::quantizeFakeQuantModel(ModuleOp module,
                                     ArrayRef<std::string> exclude) {
  PassManager pm(module.getContext());
  qnt::QntQuantizeOptions quantize;
  quantize.exclude.assign(exclude.begin(), exclude.end());
  pm.addNestedPass<func::FuncOp>(qnt::createQntFuse());
  pm.addNestedPass<func::FuncOp>(qnt::createQntQuantize(quantize));
  if (failed(pm.run(module)))
    return fail("fusion or quantization of the QDQ model failed (see above)");
  return Error::success();
}
