//===- quant-calibrate.cpp - Calibrate a model by running it compiled -----===//
//
//   quant-calibrate model.mlir --data calib.npy -o calibrated.mlir
//   quant-calibrate model.onnx --data calib.npy -o calibrated.mlir
//       [--input-shape x=1x3x64x64] [--batch N]
//       [--save-profile profile.json]
//   quant-calibrate model.mlir --profile a.json --profile b.json -o out.mlir
//   quant-calibrate --merge a.json b.json -o merged.json
//   quant-calibrate model.mlir --data calib.npy -o out.mlir --report dir
//
// A thin driver over the prepare stage (observers, without fusion),
// quantc::Calibrator and the profile functions.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Calibrate/BiasCorrection.h"
#include "quantc/Calibrate/Calibrator.h"
#include "quantc/Calibrate/ObserverChoice.h"
#include "quantc/Calibrate/PostTraining.h"
#include "quantc/Import/OnnxImporter.h"
#include "quantc/InitAll.h"
#include "quantc/Pipelines/Pipelines.h"
#include "quantc/Report/Report.h"
#include "quantc/Support/Fail.h"
#include "quantc/Support/OutputFile.h"
#include "quantc/Support/Text.h"
#include "quantc/Tools/OptionParsers.h"
#include "quantc/Tools/ToolSupport.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir;

static cl::OptionCategory category("quant-calibrate options");
static cl::list<std::string>
    positional(cl::Positional,
               cl::desc("<model.mlir> | --merge <profile.json>..."),
               cl::cat(category));
static cl::list<std::string>
    dataPaths("data",
              cl::desc("Calibration samples: a float32 .npy file (samples "
                       "stacked along the first dimension), a .npz archive "
                       "of one such array per model input (keyed by input "
                       "name), or a directory of them; may be repeated"),
              cl::cat(category));
static cl::opt<std::string> outputFile("o", cl::desc("Output file"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(category));
static cl::opt<std::string>
    saveProfile("save-profile",
                cl::desc("Also write the calibration profile (JSON) here"),
                cl::value_desc("file"), cl::cat(category));
static cl::list<std::string>
    profiles("profile",
             cl::desc("Start from these profiles (merged); with --data, "
                      "calibration continues from them"),
             cl::value_desc("file"), cl::cat(category));
static cl::opt<bool> mergeMode(
    "merge",
    cl::desc("Merge the profiles given as positional arguments into -o"),
    cl::cat(category));
static cl::opt<std::string>
    functionName("function",
                 cl::desc("Function to calibrate (default: the public one)"),
                 cl::init(""), cl::cat(category));
static cl::opt<int64_t, false, quantc::Int64Parser>
    batchSize("batch-size",
              cl::desc("Samples per observer batch (as a DataLoader batch)"),
              cl::init(32), cl::cat(category));
static cl::opt<int64_t, false, quantc::Int64Parser>
    maxSamples("max-samples", cl::desc("Use at most this many samples"),
               cl::init(0), cl::cat(category));
static cl::opt<bool> insertObservers(
    "insert-observers",
    cl::desc("Insert observers first (qnt-insert-observers with the options "
             "below) when the model has none"),
    cl::init(true), cl::cat(category));
static cl::opt<std::string>
    activationKind("activation-observer",
                   cl::desc("Observer kind for activations (default "
                            "percentile, as quant-compile's)"),
                   cl::init("percentile"), cl::cat(category));
static cl::opt<std::string> weightKind("weight-observer",
                                       cl::desc("Observer kind for weights"),
                                       cl::init("per_channel_min_max"),
                                       cl::cat(category));
static cl::opt<bool> reduceRange("reduce-range",
                                 cl::desc("7-bit activations (x86 w/o VNNI)"),
                                 cl::init(false), cl::cat(category));
static cl::opt<std::string>
    target("target",
           cl::desc("Deployment target when inserting observers: an int8 "
                    "instruction set (quant-compile --list-isas) or alias: "
                    "x86 (avx2: 7-bit activations), x86-vnni, aarch64, "
                    "generic"),
           cl::init("generic"), cl::cat(category));
static cl::opt<std::string>
    reportDir("report",
              cl::desc("Write a per-layer quantization report (report.json, "
                       "report.html) into this directory; needs --data"),
              cl::value_desc("dir"), cl::init(""), cl::cat(category));
static cl::opt<int64_t, false, quantc::Int64Parser>
    batch("batch",
          cl::desc("ONNX models: the batch size to compile for (replaces a "
                   "symbolic batch dimension, or the batch of 1 a model was "
                   "exported with)"),
          cl::init(0), cl::cat(category));
static cl::list<std::string> inputShapes("input-shape",
                                         cl::desc(quantc::kInputShapeHelp),
                                         cl::value_desc("[NAME=]DxDx..."),
                                         cl::cat(category));
static cl::opt<bool> inputMeans(
    "input-means",
    cl::desc("Also attach each conv / linear layer's input means "
             "(qnt.input_mean) for bias correction (quantc-quantize's "
             "correct-bias, qnt-correct-bias); needs --data"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> quiet("quiet", cl::desc("No progress or summary"),
                           cl::init(false), cl::cat(category));

static const quantc::ToolError error("quant-calibrate");

static void printSummary(raw_ostream &os, const quantc::Profile &profile) {
  os << formatv("calibrated '{0}' on {1} samples ({2} per batch); model "
                "{3}\n",
                quantc::printable(profile.function), profile.samples,
                profile.batchSize, profile.modelHash.substr(0, 12));
  os << formatv("{0,-24} {1,-20} {2,-27} {3}\n", "observer", "kind",
                "range [min, max]", "scale / zero point");
  for (const quantc::ProfileObserver &o : profile.observers) {
    auto observer = quantc::obs::Observer::create(o.config);
    if (observer.failed() || observer->setState(o.state).failed())
      continue;
    if (o.choice)
      observer = observer->asKind(o.choice->kind);
    if (observer.failed())
      continue;
    auto range = observer->computeRange();
    auto qp = observer->computeQParams();
    if (range.failed() || qp.failed())
      continue;
    std::string r, q;
    raw_string_ostream rs(r), qs(q);
    if (range->first.size() == 1) {
      rs << "[" << format("%.6g", range->first[0]) << ", "
         << format("%.6g", range->second[0]) << "]";
      qs << format("%.6g", qp->scale[0]) << " / " << qp->zeroPoint[0];
    } else {
      auto [lo, hi] = std::minmax_element(qp->scale.begin(), qp->scale.end());
      rs << range->first.size() << " channels";
      qs << format("%.6g", *lo) << " .. " << format("%.6g", *hi) << " / "
         << qp->zeroPoint[0];
    }
    std::string kind = quantc::obs::toString(observer->config().kind);
    if (o.choice)
      kind += " (auto)";
    os << formatv("{0,-24} {1,-20} {2,-27} {3}\n", quantc::printable(o.name),
                  kind, r, q);
  }
}

/// Parses the command line (quant-calibrate's options only in --help).
static void parseCommandLine(int argc, char **argv) {
  quantc::registerAllPasses();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "quant-calibrate: run a model compiled to native code on calibration "
      "data, record observer statistics in the IR and in a profile\n");
}

/// What -o and --save-profile may name (the profile and the IR
/// may go to standard output or through a character device).
static quantc::OutputOptions outputOptions(StringRef option) {
  quantc::OutputOptions options;
  options.option = option;
  options.allowCharDevice = true;
  return options;
}

/// Checks the output paths before the work (nothing is created yet).
static Error checkOutputs(quantc::OutputSet &outputs) {
  if (Error e = outputs.check(outputFile, outputOptions("-o")))
    return e;
  if (!saveProfile.empty())
    if (Error e = outputs.check(saveProfile, outputOptions("--save-profile")))
      return e;
  if (!reportDir.empty())
    return quantc::checkReportOutputs(reportDir, outputs);
  return Error::success();
}

/// --merge: the positional profiles merged into -o.
static Error mergeProfiles() {
  std::vector<std::string> inputs(positional.begin(), positional.end());
  if (inputs.size() < 2)
    return quantc::fail("--merge needs at least two profiles");
  if (outputFile == "-")
    return quantc::fail("--merge needs -o <merged.json>");
  if (Error e = quantc::checkOutputPath(outputFile, outputOptions("-o")))
    return e;
  Expected<quantc::Profile> merged = quantc::readMergedProfiles(inputs);
  if (!merged)
    return merged.takeError();
  if (Error e = quantc::writeProfile(outputFile, *merged))
    return e;
  if (!quiet)
    printSummary(outs(), *merged);
  return Error::success();
}

/// Checks that one model and something to calibrate with were given.
static Error checkArguments() {
  if (positional.size() != 1)
    return quantc::fail(
        positional.empty()
            ? "no model given (quant-calibrate model.mlir --data ...)"
            : "give one model (or use --merge for profiles)");
  if (dataPaths.empty() && profiles.empty())
    return quantc::fail(
        "nothing to calibrate with: give --data and/or --profile");
  if (inputMeans && dataPaths.empty())
    return quantc::fail("--input-means needs --data (the float model runs "
                        "on it)");
  if (!reportDir.empty() && dataPaths.empty())
    return quantc::fail("--report needs --data (the report runs the float "
                        "and int8 models on it)");
  return Error::success();
}

/// The prepare stage without fusion, for a model without observers (and
/// --insert-observers): the model is calibrated as it is given.
static Error prepare(ModuleOp module) {
  bool hasObservers = false;
  module->walk([&](qnt::ObserveOp) { hasObservers = true; });
  if (hasObservers || !insertObservers)
    return Error::success();
  quantc::PrepareOptions options;
  options.fuse = false;
  options.observers.activationKind = activationKind;
  options.observers.weightKind = weightKind;
  options.observers.reduceRange = reduceRange;
  options.observers.target = target;
  PassManager pm(module.getContext());
  quantc::buildPreparePipeline(pm, options);
  if (failed(pm.run(module)))
    return quantc::fail("cannot insert observers");
  return Error::success();
}

/// Runs the model on the data (after the profiles it starts from) and
/// writes the observers' states into the IR; returns the profile.
static Expected<quantc::Profile> calibrate(ModuleOp module) {
  quantc::CalibrationOptions options;
  options.batchSize = batchSize;
  options.maxSamples = maxSamples;
  options.progress = !quiet;
  auto calibrator = quantc::Calibrator::create(module, functionName, options);
  if (!calibrator)
    return calibrator.takeError();
  std::optional<quantc::Profile> loaded;
  if (!profiles.empty()) {
    Expected<quantc::Profile> merged = quantc::readMergedProfiles(profiles);
    if (!merged)
      return merged.takeError();
    if (Error e = (*calibrator)->loadProfile(*merged))
      return std::move(e);
    loaded = std::move(*merged);
  }
  std::vector<std::string> data(dataPaths.begin(), dataPaths.end());
  if (Error e = (*calibrator)->runFiles(data))
    return std::move(e);
  if (Error e = (*calibrator)->finish())
    return std::move(e);
  if (Error e = (*calibrator)->writeStates())
    return std::move(e);
  // auto observers become their chosen kinds (qnt-fold-observers' default
  // 8-bit ranges).
  quantc::Profile profile = (*calibrator)->profile();
  if (Error e = quantc::resolveAutoObservers(
          module, functionName, loaded ? &*loaded : nullptr, data, maxSamples,
          quantc::obs::RangeReduction::None, profile))
    return std::move(e);
  return profile;
}

/// --input-means: the float model's input means of the layers, for bias
/// correction.
static Error attachInputMeans(ModuleOp module) {
  if (!inputMeans)
    return Error::success();
  Expected<int64_t> layers = quantc::attachInputMeans(
      module, functionName,
      std::vector<std::string>(dataPaths.begin(), dataPaths.end()), maxSamples);
  return layers ? Error::success() : layers.takeError();
}

/// --report: the per-layer report of the calibrated model, into `outputs`.
static Error writeLayerReport(ModuleOp module, quantc::OutputSet &outputs) {
  if (reportDir.empty())
    return Error::success();
  quantc::ReportOptions options;
  options.function = functionName;
  options.data.assign(dataPaths.begin(), dataPaths.end());
  options.maxSamples = maxSamples;
  Expected<quantc::ModelReport> report = quantc::buildReport(module, options);
  if (!report)
    return report.takeError();
  return quantc::writeReport(reportDir, *report, &outputs);
}

/// Writes the calibrated model (-o) and --save-profile, commits them with
/// the report, then prints the summary.
static Error writeOutputs(ModuleOp module, const quantc::Profile &profile,
                          quantc::OutputSet &outputs) {
  Expected<raw_pwrite_stream &> output =
      outputs.open(outputFile, outputOptions("-o"));
  if (!output)
    return output.takeError();
  module->print(*output);
  if (!saveProfile.empty())
    if (Error e = quantc::writeProfile(saveProfile, profile, &outputs))
      return e;
  if (Error e = outputs.commit())
    return e;
  if (!quiet)
    printSummary(outputFile == "-" ? errs() : outs(), profile);
  return Error::success();
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  quantc::reportStdoutErrorsAtExit("quant-calibrate");
  parseCommandLine(argc, argv);
  if (mergeMode) {
    if (Error e = mergeProfiles())
      return error(std::move(e));
    return 0;
  }
  if (Error e = checkArguments())
    return error(std::move(e));
  // Outputs are committed together at the end, or none appears.
  quantc::OutputSet outputs;
  if (Error e = checkOutputs(outputs))
    return error(std::move(e));

  quantc::ToolContext tool;
  Expected<OwningOpRef<ModuleOp>> loaded =
      tool.loadModel(positional.front(), batch, inputShapes);
  if (!loaded)
    return error(loaded.takeError());
  OwningOpRef<ModuleOp> module = std::move(*loaded);
  if (Error e = prepare(*module))
    return error(std::move(e));
  Expected<quantc::Profile> profile = calibrate(*module);
  if (!profile)
    return error(profile.takeError());
  if (Error e = attachInputMeans(*module))
    return error(std::move(e));
  if (Error e = writeLayerReport(*module, outputs))
    return error(std::move(e));
  if (Error e = writeOutputs(*module, *profile, outputs))
    return error(std::move(e));
  return 0;
}
