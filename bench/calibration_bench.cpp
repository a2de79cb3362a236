//===- calibration_bench.cpp - Calibration throughput and overhead --------===//
//
// Runs, in one process and interleaved, (a) the plain compiled float model
// and (b) the calibration build of the same model with observers, on the
// same samples, one thread. Reports images/s of both and the observers'
// overhead. JIT compilation is excluded from both timings.
//
//   quantc-bench-calibration model.mlir data.npy [observer-kind] [reps]
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"
#include "quantc/Calibrate/Calibrator.h"
#include "quantc/InitAll.h"
#include "quantc/Pipelines/Pipelines.h"
#include "quantc/Runtime/CompiledModel.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace mlir;

static int die(const llvm::Twine &message) {
  llvm::errs() << "quantc-bench-calibration: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return die("usage: quantc-bench-calibration model.mlir data.npy "
               "[observer-kind] [reps]");
  std::string kind = argc > 3 ? argv[3] : "histogram";
  int reps = argc > 4 ? std::atoi(argv[4]) : 5;
  quantc::registerAllPasses();
  DialectRegistry registry;
  quantc::registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &ctx);
  if (!module)
    return die("cannot parse the model");
  // (a) The plain float model.
  OwningOpRef<ModuleOp> plain = module->clone();
  plain->walk([](qnt::ObserveOp op) {
    op.replaceAllUsesWith(op.getInput());
    op.erase();
  });
  auto model =
      quantc::CompiledModel::create(*plain, "", [](mlir::OpPassManager &pm) {
        quantc::buildFloatToLLVMPipeline(pm, {}, quantc::hostVectorBits());
      });
  if (!model)
    return die(llvm::toString(model.takeError()));

  // (b) The calibration build, observers as qnt-insert-observers places them.
  PassManager pm(&ctx);
  qnt::QntInsertObserversOptions options;
  options.activationKind = kind;
  pm.addNestedPass<func::FuncOp>(qnt::createQntInsertObservers(options));
  if (failed(pm.run(*module)))
    return die("cannot insert observers");
  int observers = 0;
  module->walk([&](qnt::ObserveOp) { ++observers; });
  quantc::CalibrationOptions calibOptions;
  calibOptions.progress = false;
  auto calibrator = quantc::Calibrator::create(*module, "", calibOptions);
  if (!calibrator)
    return die(llvm::toString(calibrator.takeError()));

  auto data = quantc::readModelSamples(argv[2], (*model)->inputs());
  if (!data)
    return die(llvm::toString(data.takeError()));
  int64_t samples = data->runs;
  std::vector<std::vector<float>> outputs;
  std::vector<float *> outputPtrs;
  for (const quantc::ModelTensor &t : (*model)->outputs())
    outputs.emplace_back(t.numElements());
  for (auto &o : outputs)
    outputPtrs.push_back(o.data());

  using Clock = std::chrono::steady_clock;
  std::vector<double> plainTimes, calibTimes;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    for (int64_t s = 0; s < samples; ++s)
      if (auto e = (*model)->run(data->run(s), outputPtrs))
        return die(llvm::toString(std::move(e)));
    auto t1 = Clock::now();
    if (auto e = (*calibrator)->run(*data))
      return die(llvm::toString(std::move(e)));
    if (auto e = (*calibrator)->finish())
      return die(llvm::toString(std::move(e)));
    auto t2 = Clock::now();
    plainTimes.push_back(std::chrono::duration<double>(t1 - t0).count());
    calibTimes.push_back(std::chrono::duration<double>(t2 - t1).count());
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  double plainMin = *std::min_element(plainTimes.begin(), plainTimes.end());
  double calibMin = *std::min_element(calibTimes.begin(), calibTimes.end());
  llvm::outs() << "model: " << argv[1] << "\n"
               << "samples per run: " << samples << ", runs: " << reps
               << ", observers: " << observers << " (activations: " << kind
               << ", batch 32)\n";
  llvm::outs() << llvm::format(
      "plain float model:     %8.1f images/s (min %.4f s, median %.4f s)\n",
      samples / plainMin, plainMin, median(plainTimes));
  llvm::outs() << llvm::format(
      "calibration build:     %8.1f images/s (min %.4f s, median %.4f s)\n",
      samples / calibMin, calibMin, median(calibTimes));
  llvm::outs() << llvm::format("observer overhead:     %8.1f %% (min / min)\n",
                               100.0 * (calibMin / plainMin - 1.0));
  return 0;
}
