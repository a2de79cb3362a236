//===- quant-compile.cpp - Compile a model to an object file and header ---===//
//
//   quant-compile model.mlir -o model.o [--header=model.h] [--name=prefix]
//       [--target=aarch64-linux-gnu] [--cpu=neoverse-n1] [--mattr=+dotprod]
//       [--int8-isas=avx512-vnni,avx2] [--list-isas]
//       [--emit=obj|asm|llvm|mlir] [--parallel=none|omp]
//   quant-compile model.onnx --calibration-data calib.npy -o model.o
//       [--report report-dir]
//   quant-compile qdq.onnx -o model.o [--keep-qdq-float]
//
// Compiles a quantized model (qnt-quantize output) or a float model ahead of
// time; with --emit=obj the C header goes beside the object (model.h for
// model.o). Without --cpu / --mattr the object carries one variant per int8
// instruction set of the architecture and picks one at its first call. A model
// with qnt.fake_quant (a QDQ ONNX model) is quantized with its own parameters
// (or compiled in float with --keep-qdq-float). The logic lives in lib/Target
// (quantc/Target/Compile.h).
//
//===----------------------------------------------------------------------===//

#include "quantc/Calibrate/PostTraining.h"
#include "quantc/Import/OnnxImporter.h"
#include "quantc/InitAll.h"
#include "quantc/ModelAttributes.h"
#include "quantc/Report/Report.h"
#include "quantc/Support/Fail.h"
#include "quantc/Support/OutputFile.h"
#include "quantc/Support/Text.h"
#include "quantc/Target/Compile.h"
#include "quantc/Tools/OptionParsers.h"
#include "quantc/Tools/ToolSupport.h"
#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Threading.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

static cl::OptionCategory compileCategory("quant-compile options");
static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<model.mlir | model.onnx>"),
                                      cl::init("-"), cl::cat(compileCategory));
static cl::opt<std::string> outputFile("o", cl::desc("Output file"),
                                       cl::value_desc("path"), cl::init("-"),
                                       cl::cat(compileCategory));
static cl::opt<std::string>
    headerFile("header",
               cl::desc("C header to write (default with --emit=obj: the "
                        "output path with extension .h)"),
               cl::value_desc("path"), cl::init(""), cl::cat(compileCategory));
static cl::opt<std::string>
    symbolName("name",
               cl::desc("Symbol prefix: <name>_run (default: the model "
                        "function's name, or where that is not a C "
                        "identifier, one made from the output file's name)"),
               cl::init(""), cl::cat(compileCategory));
static cl::opt<std::string>
    functionName("function",
                 cl::desc("Model function (default: the public one)"),
                 cl::init(""), cl::cat(compileCategory));
static cl::opt<std::string>
    targetTriple("target",
                 cl::desc("Target triple (default: the host's), e.g. "
                          "x86_64-linux-gnu, aarch64-linux-gnu"),
                 cl::init(""), cl::cat(compileCategory));
static cl::opt<std::string>
    targetCpu("cpu",
              cl::desc("Target CPU: pins the object to it (default: none: "
                       "a variant per int8 instruction set, chosen at run "
                       "time; native: this machine's CPU and features)"),
              cl::init(""), cl::cat(compileCategory));
static cl::opt<std::string>
    targetFeatures("mattr", cl::desc("Target features, e.g. +dotprod,+i8mm"),
                   cl::init(""), cl::cat(compileCategory));
static cl::list<std::string> int8Isas(
    "int8-isas", cl::CommaSeparated,
    cl::desc("Without --cpu / --mattr: the int8 instruction sets the object "
             "carries kernels for, chosen at run time (default: the "
             "architecture's default set, see --list-isas)"),
    cl::cat(compileCategory));
static cl::opt<bool>
    listIsas("list-isas",
             cl::desc("List the int8 instruction sets (those this machine "
                      "has marked '*') and exit"),
             cl::init(false), cl::cat(compileCategory));
static cl::opt<bool> listHostCpuFeatures(
    "list-host-cpu-features",
    cl::desc("List the CPU features this machine passes in the objects' "
             "run-time CPU check (CPUID and the OS's register state, not "
             "/proc/cpuinfo) and exit"),
    cl::init(false), cl::cat(compileCategory));
static cl::opt<bool> amxPortableTwin(
    "amx-portable-twin",
    cl::desc("Test-only: the amx-int8 variant runs its tile kernels as "
             "ordinary vector code, bit for bit the same "
             "(quantc-amx-to-vector), and needs no AMX at run time"),
    cl::init(false), cl::Hidden, cl::cat(compileCategory));
enum class Emit { MLIR, LLVM, Asm, Obj, Shared };
static cl::opt<Emit>
    emit("emit", cl::desc("What to write"),
         cl::values(clEnumValN(Emit::MLIR, "mlir", "the LLVM dialect module"),
                    clEnumValN(Emit::LLVM, "llvm", "optimized LLVM IR"),
                    clEnumValN(Emit::Asm, "asm", "assembly"),
                    clEnumValN(Emit::Obj, "obj", "an object file (default)"),
                    clEnumValN(Emit::Shared, "shared",
                               "a shared library: the object linked by the "
                               "system C compiler ($CC, else cc), e.g. for "
                               "the Python package (python/quantc)")),
         cl::init(Emit::Obj), cl::cat(compileCategory));
static cl::opt<quantc::Parallelism> parallel(
    "parallel",
    cl::desc("Threading of the generated code (default: none: the object "
             "needs libc and libm only; omp: OpenMP parallel loops, the "
             "object needs LLVM's libomp and exports "
             "<name>_set_num_threads)"),
    cl::values(clEnumValN(quantc::Parallelism::None, "none", "single-threaded"),
               clEnumValN(quantc::Parallelism::OpenMP, "omp",
                          "OpenMP (LLVM's libomp)")),
    cl::init(quantc::Parallelism::None), cl::cat(compileCategory));
static cl::opt<bool> batchAsImages(
    "batch-as-images",
    cl::desc("Run a batch whose images the model provably keeps apart as "
             "one call of the one-image computation per image, in parallel "
             "over the images with at least as many images as threads "
             "(default: true; --remarks says which op keeps a batch whole)"),
    cl::init(true), cl::cat(compileCategory));
static cl::opt<bool>
    showRemarks("remarks",
                cl::desc("Print the lowering's remarks (kernel choices)"),
                cl::init(false), cl::cat(compileCategory));
static cl::opt<bool> verbose("v", cl::desc("Print the target and int8 kernels"),
                             cl::init(false), cl::cat(compileCategory));
static cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Verify the IR after every pass of the calibration build and "
             "the lowering, not only after each pipeline (a quarter slower: "
             "for debugging quantc's passes)"),
    cl::init(false), cl::cat(compileCategory));

// Post-training quantization of a float model (import -> fuse -> observe ->
// calibrate -> fold -> quantize) before compiling it.
static cl::OptionCategory
    ptqCategory("post-training quantization (float models, e.g. ONNX)");
static cl::list<std::string> calibrationData(
    "calibration-data",
    cl::desc("Quantize the float model first, calibrating on these .npy "
             "files (samples stacked along the first dimension, in the "
             "model's input layout), .npz archives of one such array per "
             "input name, or directories of them"),
    cl::cat(ptqCategory));
static cl::list<std::string>
    ptqProfiles("profile",
                cl::desc("Calibration profiles to start from (merged); "
                         "alone, they replace calibration data"),
                cl::cat(ptqCategory));
static cl::opt<std::string>
    saveProfile("save-profile", cl::desc("Write the calibration profile"),
                cl::init(""), cl::cat(ptqCategory));
static cl::opt<std::string> activationObserver(
    "activation-observer",
    cl::desc("Observer kind for activations (default percentile: the "
             "99.99th percentile of |x|, chosen on trained models, "
             "docs/accuracy.md; auto: min_max, percentile, entropy or mse "
             "per tensor, whichever causes the least error in its "
             "consumers' outputs)"),
    cl::init("percentile"), cl::cat(ptqCategory));
static cl::opt<std::string>
    weightObserver("weight-observer",
                   cl::desc("Observer kind for weights (default "
                            "per_channel_min_max)"),
                   cl::init("per_channel_min_max"), cl::cat(ptqCategory));
static cl::list<std::string>
    excludeLayers("exclude", cl::CommaSeparated,
                  cl::desc("Layer or op names to keep in float"),
                  cl::cat(ptqCategory));
static cl::opt<bool> int8Outputs(
    "int8-outputs",
    cl::desc("Quantize model outputs like any activation, through 8 bits "
             "(default: the layer that computes an output through data "
             "movement or a final softmax / sigmoid / argmax produces it in "
             "float from its int32 accumulator; docs/accuracy.md)"),
    cl::init(false), cl::cat(ptqCategory));
static cl::opt<bool> equalize(
    "equalize",
    cl::desc("Cross-layer equalization: balance the per-channel weight "
             "ranges of consecutive conv / linear layers of the float model "
             "before calibration (qnt-equalize; docs/accuracy.md)"),
    cl::init(false), cl::cat(ptqCategory));
static cl::list<quantc::PerOutputValue, bool, quantc::PerOutputDoubleParser>
    minOutputSqnr(
        "min-output-sqnr",
        cl::desc("Accuracy budget: keep the layers whose int8 form costs the "
                 "most accuracy in float, most sensitive first (measured), "
                 "until the SQNR of every model output (int8 against float) "
                 "reaches this many dB on --validation-data; NAME=DB (may be "
                 "repeated) for output NAME alone"),
        cl::value_desc("[NAME=]dB"), cl::cat(ptqCategory));
static cl::opt<bool> rankLayers(
    "rank-layers",
    cl::desc("Measure every layer's sensitivity (the accuracy budget's "
             "ranking) into the report, keeping none in float: for a search "
             "on one's own metric (quantc.compile's metric=)"),
    cl::init(false), cl::cat(ptqCategory));
static cl::list<std::string> validationData(
    "validation-data",
    cl::desc("Data the accuracy budget is measured on (.npy / .npz files or "
             "directories, as --calibration-data); without it, the "
             "calibration data, with a warning"),
    cl::cat(ptqCategory));
static cl::opt<bool> biasCorrection(
    "bias-correction",
    cl::desc("Fold the mean output shift that weight quantization causes "
             "into each conv / linear layer's bias, measured on the "
             "calibration data (docs/accuracy.md)"),
    cl::init(false), cl::cat(ptqCategory));
static cl::opt<double, false, quantc::FiniteDoubleParser> smoothAlpha(
    "smooth-alpha",
    cl::desc("SmoothQuant: move the outlier channels of each layer norm's "
             "output into the weights of the linear layers reading it, "
             "with this migration strength in (0, 1), e.g. 0.5 "
             "(docs/accuracy.md; default 0: off)"),
    cl::init(0.0), cl::cat(ptqCategory));
enum class ReduceRange { Auto, Activations, Weights, Off };
static cl::opt<ReduceRange> reduceRange(
    "reduce-range",
    cl::desc("Quantize one side of the int8 dot products to 7 bits "
             "(reduce_range), so that avx2's vpmaddubsw cannot saturate "
             "and its kernels take their fast path"),
    cl::values(clEnumValN(ReduceRange::Auto, "auto",
                          "7-bit weights when every variant of the object "
                          "is avx2 (its fast path needs them), else 8 bits "
                          "(default)"),
               clEnumValN(ReduceRange::Weights, "weights",
                          "7-bit weights, s8 [-64, 63] (ONNX Runtime's "
                          "reduce_range, oneDNN)"),
               clEnumValN(ReduceRange::Activations, "activations",
                          "7-bit activations, u8 [0, 127] (PyTorch's x86 / "
                          "fbgemm qconfig)"),
               clEnumValN(ReduceRange::Activations, "on",
                          "the same as activations"),
               clEnumValN(ReduceRange::Off, "off",
                          "8 bits on both sides: avx2 kernels widen the "
                          "inputs to 16 bits (vpmaddwd, slower) where "
                          "vpmaddubsw could saturate")),
    cl::init(ReduceRange::Auto), cl::cat(ptqCategory));
static cl::opt<int64_t, false, quantc::Int64Parser>
    maxSamples("max-samples", cl::desc("Calibrate on at most N samples"),
               cl::init(0), cl::cat(ptqCategory));
static cl::opt<std::string> reportDir(
    "report",
    cl::desc("Write a per-layer quantization report (report.json, "
             "report.html) into this directory; needs --calibration-data"),
    cl::value_desc("dir"), cl::init(""), cl::cat(ptqCategory));
static cl::opt<int64_t, false, quantc::Int64Parser>
    onnxBatch("batch",
              cl::desc("Batch size to compile an ONNX model for: replaces "
                       "a symbolic batch dimension, or the batch of 1 a "
                       "model was exported with"),
              cl::init(0), cl::cat(ptqCategory));

static cl::list<std::string> inputShapes("input-shape",
                                         cl::desc(quantc::kInputShapeHelp),
                                         cl::value_desc("[NAME=]DxDx..."),
                                         cl::cat(ptqCategory));
static cl::opt<bool> keepQdqFloat(
    "keep-qdq-float",
    cl::desc("Compile a model with QuantizeLinear / DequantizeLinear pairs "
             "(qnt.fake_quant) in float, simulating its quantization, "
             "instead of quantizing it with their parameters"),
    cl::init(false), cl::cat(ptqCategory));

static cl::opt<bool> dynamicAsFloat(
    "dynamic-as-float",
    cl::desc("Compile a dynamically quantized model (ONNX Runtime's "
             "DynamicQuantizeLinear + ConvInteger / MatMulInteger) in float: "
             "the float model its weights dequantize to (without this flag "
             "such a model needs --calibration-data, which quantizes it "
             "statically)"),
    cl::init(false), cl::cat(ptqCategory));

/// What -o may name for --emit: text (mlir, llvm, asm) may also go through
/// a character device such as /dev/null; an object or a shared library
/// goes to a file (an object also to standard output), never a device.
static quantc::OutputOptions outputKind() {
  quantc::OutputOptions options;
  options.option = "-o";
  options.allowStdout = emit != Emit::Shared;
  options.allowCharDevice = emit != Emit::Obj && emit != Emit::Shared;
  return options;
}

/// The header and the saved profile (text: files, standard output for the
/// header, devices); the report's files are quantc::checkReportOutputs'.
static quantc::OutputOptions sideOutputKind(StringRef option) {
  quantc::OutputOptions options;
  options.option = option;
  options.allowStdout = option == "--header";
  options.allowCharDevice = true;
  return options;
}

/// The C header's path: --header, else with --emit=obj the object's path
/// with extension .h; "" for none.
static std::string headerPath() {
  if (!headerFile.empty() || emit != Emit::Obj || outputFile == "-")
    return headerFile;
  SmallString<256> path(outputFile.getValue());
  sys::path::replace_extension(path, ".h");
  return std::string(path);
}

/// Checks every output path before the work, so that a bad one fails in
/// milliseconds (nothing is created yet; all are committed together).
static Error checkOutputs(quantc::OutputSet &outputs) {
  if (emit == Emit::Shared && outputFile == "-")
    return quantc::fail("--emit=shared needs an output file (-o model.so)");
  if (Error e = outputs.check(outputFile, outputKind()))
    return e;
  std::string header = headerPath();
  if (!header.empty())
    if (Error e = outputs.check(header, sideOutputKind("--header")))
      return e;
  if (!saveProfile.empty())
    if (Error e = outputs.check(saveProfile, sideOutputKind("--save-profile")))
      return e;
  if (!reportDir.empty())
    return quantc::checkReportOutputs(reportDir, outputs);
  return Error::success();
}

/// Writes the object for the linker into a temporary file of TMPDIR
/// (removed when the link is done, or on a signal).
static Error writeLinkerInput(ArrayRef<mlir::ModuleOp> modules,
                              const quantc::CompileTarget &target,
                              const quantc::ModelInterface &model,
                              mlir::TimingScope &timing,
                              SmallVectorImpl<char> &object) {
  using quantc::fail;
  int fd;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("quantc-model", "o", fd, object))
    return fail("cannot create a temporary object file: " + ec.message());
  sys::RemoveFileOnSignal(StringRef(object.data(), object.size()));
  raw_fd_ostream os(fd, /*shouldClose=*/true);
  Error e = quantc::emitCode(modules, target, model, quantc::EmitKind::Object,
                             os, &timing);
  os.close();
  // A stream destroyed with an error ends the process (LLVM's fatal error).
  std::error_code ec = os.error();
  os.clear_error();
  if (e)
    return e;
  if (ec)
    return fail("cannot write the temporary object file '" +
                StringRef(object.data(), object.size()) + "': " + ec.message());
  return Error::success();
}

/// --emit=shared: the object, written to a temporary file, linked by the
/// system C compiler into a temporary beside -o that `outputs` renames onto
/// it when the command's outputs are committed.
static Error linkSharedLibrary(ArrayRef<mlir::ModuleOp> modules,
                               const quantc::CompileTarget &target,
                               const quantc::ModelInterface &model,
                               mlir::TimingScope &timing,
                               quantc::OutputSet &outputs) {
  using quantc::fail;
  const char *cc = std::getenv("CC");
  bool host = Triple(target.triple).getArch() ==
              Triple(sys::getDefaultTargetTriple()).getArch();
  if (!host && !cc)
    return fail("--emit=shared links with this machine's C compiler; for '" +
                target.triple + "' set CC to the target's compiler");
  ErrorOr<std::string> program = sys::findProgramByName(cc && *cc ? cc : "cc");
  if (!program)
    return fail(Twine("cannot find the C compiler '") + (cc ? cc : "cc") +
                "' to link the shared library (set CC)");
  SmallString<128> object;
  llvm::scope_exit removeObject([&] {
    if (!object.empty()) {
      sys::fs::remove(object);
      sys::DontRemoveFileOnSignal(object);
    }
  });
  if (Error e = writeLinkerInput(modules, target, model, timing, object))
    return e;
  Expected<std::string> temporary = outputs.reserve(outputFile, outputKind());
  if (!temporary)
    return temporary.takeError();
  mlir::TimingScope linkTimer = timing.nest("link the shared library");
  SmallVector<std::string> args{*program, "-shared", "-o", *temporary,
                                std::string(object)};
  for (const std::string &flag : quantc::runtimeLibraries(model))
    args.push_back(flag);
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string message;
  int rc =
      sys::ExecuteAndWait(*program, argRefs, std::nullopt, {}, 0, 0, &message);
  if (rc != 0)
    return fail("linking the shared library failed (" + *program +
                (message.empty() ? "" : ": " + message) + ", exit code " +
                Twine(rc) + ")");
  return Error::success();
}

static const quantc::ToolError error("quant-compile");

/// Parses the command line; --help shows quant-compile's options (and the
/// timing ones), not every LLVM and MLIR option linked in (those still
/// work).
static void parseCommandLine(int argc, char **argv) {
  quantc::registerAllPasses();
  // --mlir-timing: wall time of each step and pass.
  mlir::registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions({&compileCategory, &ptqCategory});
  for (StringRef name : {"mlir-timing", "mlir-timing-display"})
    if (cl::Option *option = cl::getRegisteredOptions().lookup(name)) {
      option->setHiddenFlag(cl::NotHidden);
      option->addCategory(compileCategory);
    }
  cl::ParseCommandLineOptions(argc, argv,
                              "quant-compile: compile a model to an object "
                              "file and a C header\n");
}

/// The target of --target / --cpu / --mattr / --int8-isas (with -v, printed).
static Expected<quantc::CompileTarget> createTarget() {
  Expected<quantc::CompileTarget> target = quantc::createCompileTarget(
      targetTriple, targetCpu, targetFeatures,
      std::vector<std::string>(int8Isas.begin(), int8Isas.end()),
      amxPortableTwin);
  if (!target || !verbose)
    return target;
  errs() << "quant-compile: target " << target->triple << ", int8 kernels";
  for (const quantc::TargetVariant &v : target->variants)
    errs() << (&v == &target->variants.front() ? " " : ", ")
           << quantc::toString(v.isa) << " (cpu " << v.cpu
           << (v.features.empty() ? "" : " " + v.features) << ")";
  errs() << (target->dispatches() ? " chosen at run time" : "") << ", threads "
         << quantc::toString(parallel.getValue()) << "\n";
  return target;
}

/// Diagnostics without the op printed, and remarks only with --remarks.
static void configureDiagnostics(mlir::MLIRContext &context) {
  context.printOpOnDiagnostic(false);
  // Registered last, runs first: drop remarks unless asked for.
  context.getDiagEngine().registerHandler([](mlir::Diagnostic &d) {
    return mlir::success(d.getSeverity() == mlir::DiagnosticSeverity::Remark &&
                         !showRemarks);
  });
}

/// --min-output-sqnr's values as the accuracy budget's targets.
static Expected<quantc::OutputSqnrBudget> outputSqnrBudget() {
  quantc::OutputSqnrBudget budget;
  for (const quantc::PerOutputValue &v : minOutputSqnr)
    if (Error e = budget.add(v.output, v.value))
      return std::move(e);
  return budget;
}

/// Post-training quantization as the command line asks for it: the object's
/// int8 instruction sets choose reduce_range unless --reduce-range does;
/// with --report, the per-layer report of the calibrated model.
static quantc::PostTrainingOptions
postTrainingOptions(const quantc::CompileTarget &target,
                    mlir::TimingScope &timing, quantc::OutputSet &outputs) {
  quantc::PostTrainingOptions ptq;
  ptq.outputs = &outputs;
  ptq.data.assign(calibrationData.begin(), calibrationData.end());
  ptq.profiles.assign(ptqProfiles.begin(), ptqProfiles.end());
  ptq.saveProfile = saveProfile;
  ptq.activationKind = activationObserver;
  ptq.weightKind = weightObserver;
  ptq.exclude.assign(excludeLayers.begin(), excludeLayers.end());
  ptq.int8Outputs = int8Outputs;
  ptq.equalize = equalize;
  ptq.biasCorrection = biasCorrection;
  ptq.smoothAlpha = smoothAlpha;
  ptq.maxSamples = maxSamples;
  ptq.timing = &timing;
  ptq.verifyEachPass = verifyEach;
  for (const quantc::TargetVariant &v : target.variants)
    ptq.int8Isas.push_back(v.isa);
  switch (reduceRange) {
  case ReduceRange::Auto:
    break;
  case ReduceRange::Weights:
    ptq.reduceRange = quantc::obs::RangeReduction::Weights;
    break;
  case ReduceRange::Activations:
    ptq.reduceRange = quantc::obs::RangeReduction::Activations;
    break;
  case ReduceRange::Off:
    ptq.reduceRange = quantc::obs::RangeReduction::None;
    break;
  }
  // Checked in main.
  ptq.minOutputSqnr = llvm::cantFail(outputSqnrBudget());
  ptq.rankLayers = rankLayers;
  ptq.validationData.assign(validationData.begin(), validationData.end());
  if (!reportDir.empty()) {
    // The report measures the quantize stage this quantization runs.
    quantc::ReportOptions report;
    report.function = functionName;
    report.data = ptq.data;
    report.maxSamples = ptq.maxSamples;
    ptq.onCalibrated =
        [report, set = &outputs](mlir::ModuleOp calibrated,
                                 const quantc::QuantizeOptions &quantize,
                                 const quantc::BudgetResult *budget) -> Error {
      quantc::ReportOptions options = report;
      options.quantize = quantize;
      options.budget = budget;
      Expected<quantc::ModelReport> built =
          quantc::buildReport(calibrated, options);
      if (!built)
        return built.takeError();
      return quantc::writeReport(reportDir, *built, set);
    };
  }
  return ptq;
}

/// --batch-as-images: a batch whose images the model keeps apart becomes the
/// one-image model (quantc-batch-as-images) before anything else, so that
/// its calibration, quantization and code are the batch-1 model's (the same
/// bytes per image) and the object runs it once per image.
static Error computeImagesApart(mlir::ModuleOp module) {
  if (!batchAsImages)
    return Error::success();
  mlir::PassManager pm(module.getContext());
  pm.addPass(
      quantc::createBatchAsImages(quantc::BatchAsImagesOptions{functionName}));
  if (failed(pm.run(module)))
    return quantc::fail("cannot compute the batch as images (see above)");
  return Error::success();
}

/// True when a function of `module` is quantized dynamically.
static bool isDynamicallyQuantized(mlir::ModuleOp module) {
  bool dynamic = false;
  module->walk([&](mlir::func::FuncOp f) {
    dynamic |= f->hasAttr(quantc::kDynamicQuantizationAttr);
  });
  return dynamic;
}

/// Quantizes the model as it asks: a QDQ model with its own parameters
/// (unless --keep-qdq-float), a float one post-training with
/// --calibration-data / --profile; a dynamically quantized one needs either
/// of those or --dynamic-as-float. With -v, says what stays float.
static Error quantizeModel(mlir::ModuleOp module,
                           const quantc::CompileTarget &target,
                           mlir::TimingScope &timing,
                           quantc::OutputSet &outputs) {
  bool calibrate = !calibrationData.empty() || !ptqProfiles.empty();
  bool qdq = quantc::hasFakeQuant(module);
  bool dynamic = isDynamicallyQuantized(module);
  if (dynamic && !calibrate && !dynamicAsFloat)
    return quantc::fail(
        inputFile +
        " is quantized dynamically (DynamicQuantizeLinear + "
        "ConvInteger / MatMulInteger): its activations have no "
        "scales to compile int8 code with. Pass --calibration-data "
        "to quantize it statically (its weights are imported as the "
        "float model they dequantize to), or --dynamic-as-float to "
        "compile that float model");
  if (dynamic && calibrate && dynamicAsFloat)
    return quantc::fail("--dynamic-as-float and --calibration-data / "
                        "--profile exclude each other");
  if (qdq && calibrate)
    return quantc::fail(inputFile +
                        " already carries quantization parameters "
                        "(QuantizeLinear / DequantizeLinear or "
                        "qnt.fake_quant); --calibration-data and --profile "
                        "do not apply to it");
  if (qdq && !keepQdqFloat) {
    // A QDQ model: its own scales and zero points, no calibration.
    if (Error e = quantc::quantizeFakeQuantModel(
            module, SmallVector<std::string>(excludeLayers.begin(),
                                             excludeLayers.end())))
      return e;
  } else if (calibrate) {
    if (Error e = quantc::quantizePostTraining(
            module, functionName, postTrainingOptions(target, timing, outputs)))
      return e;
  }
  if (verbose && (calibrate || (qdq && !keepQdqFloat))) {
    // What the int8 model still computes in float (float islands, a final
    // softmax).
    std::vector<quantc::FloatOp> floats = quantc::findFloatOps(module);
    errs() << "quant-compile: " << floats.size() << " op(s) computed in float";
    for (const quantc::FloatOp &f : floats)
      errs() << (&f == floats.data() ? ": " : ", ") << f.op
             << (f.layer.empty() ? ""
                                 : " (" + quantc::printable(f.layer) + ")");
    errs() << "\n";
  }
  return Error::success();
}

/// One lowered copy of `module` per variant of the target, all in parallel
/// (ToolContext loaded every dialect: loading one is not thread-safe).
static Expected<std::vector<mlir::OwningOpRef<mlir::ModuleOp>>>
lowerVariants(mlir::OwningOpRef<mlir::ModuleOp> module,
              const quantc::ModelInterface &model,
              const quantc::CompileTarget &target, mlir::TimingScope &timing) {
  const std::vector<quantc::TargetVariant> &targetVariants = target.variants;
  std::vector<mlir::OwningOpRef<mlir::ModuleOp>> variants;
  for (size_t i = 0; i + 1 < targetVariants.size(); ++i)
    variants.push_back(module->clone());
  mlir::MLIRContext *context = module->getContext();
  variants.push_back(std::move(module));
  auto lower = [&](size_t i) {
    mlir::TimingScope lowerTimer =
        timing.nest(("lower to the LLVM dialect (" +
                     quantc::toString(targetVariants[i].isa) + ")")
                        .str());
    return quantc::lowerToLLVMDialect(*variants[i], model, targetVariants[i],
                                      &lowerTimer, verifyEach);
  };
  if (failed(
          mlir::failableParallelForEachN(context, 0, variants.size(), lower)))
    return quantc::fail("cannot compile '" + inputFile +
                        "' (see the errors above)");
  return std::move(variants);
}

/// Writes -o as --emit asks: the LLVM dialect modules, LLVM IR, assembly,
/// an object, or a shared library.
static Error writeOutput(ArrayRef<mlir::OwningOpRef<mlir::ModuleOp>> variants,
                         const quantc::CompileTarget &target,
                         const quantc::ModelInterface &model,
                         mlir::TimingScope &timing,
                         quantc::OutputSet &outputs) {
  SmallVector<mlir::ModuleOp> modules;
  for (auto &v : variants)
    modules.push_back(*v);
  if (emit == Emit::Shared)
    return linkSharedLibrary(modules, target, model, timing, outputs);
  Expected<raw_pwrite_stream &> output = outputs.open(outputFile, outputKind());
  if (!output)
    return output.takeError();
  if (emit == Emit::MLIR) {
    // One module per variant, in the split-input-file format.
    for (auto [i, v] : llvm::enumerate(modules)) {
      if (i)
        *output << "\n// -----\n\n";
      if (target.dispatches())
        *output << "// int8 kernels: "
                << quantc::toString(target.variants[i].isa) << "\n";
      v.print(*output);
    }
  } else {
    quantc::EmitKind kind = emit == Emit::LLVM  ? quantc::EmitKind::LLVMIR
                            : emit == Emit::Asm ? quantc::EmitKind::Assembly
                                                : quantc::EmitKind::Object;
    if (Error e = quantc::emitCode(modules, target, model, kind, *output,
                                   &timing, /*keepUntilExit=*/true))
      return e;
  }
  return Error::success();
}

/// Writes the C header: --header, else with --emit=obj beside the object.
static Error writeHeader(const quantc::CompileTarget &target,
                         const quantc::ModelInterface &model,
                         quantc::OutputSet &outputs) {
  std::string path = headerPath();
  if (path.empty())
    return Error::success();
  Expected<raw_pwrite_stream &> header =
      outputs.open(path, sideOutputKind("--header"));
  if (!header)
    return header.takeError();
  quantc::emitHeader(model, target, sys::path::filename(inputFile), *header);
  return Error::success();
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  quantc::reportStdoutErrorsAtExit("quant-compile");
  parseCommandLine(argc, argv);
  if ((minOutputSqnr.getNumOccurrences() || !validationData.empty() ||
       rankLayers) &&
      calibrationData.empty() && ptqProfiles.empty())
    return error("--min-output-sqnr / --validation-data apply to "
                 "post-training quantization (--calibration-data or "
                 "--profile)");
  if (Expected<quantc::OutputSqnrBudget> budget = outputSqnrBudget(); !budget)
    return error(budget.takeError());
  if (!validationData.empty() && !minOutputSqnr.getNumOccurrences() &&
      !rankLayers)
    return error("--validation-data is the data of the accuracy budget: "
                 "give --min-output-sqnr (or --rank-layers) too");
  if (rankLayers && reportDir.empty())
    return error("--rank-layers writes the ranking into the report: give "
                 "--report too");
  if (!reportDir.empty() && calibrationData.empty())
    return error("--report needs --calibration-data (the report runs the "
                 "float and int8 models on it)");
  if (listIsas) {
    quantc::printInt8Isas(outs());
    return 0;
  }
  if (listHostCpuFeatures) {
    quantc::printHostCpuFeatures(outs());
    return 0;
  }
  // The output paths before anything else: a bad -o needs no model.
  quantc::OutputSet outputs;
  if (Error e = checkOutputs(outputs))
    return error(std::move(e));
  // The target first: a bad triple / CPU / feature needs no model.
  Expected<quantc::CompileTarget> target = createTarget();
  if (!target)
    return error(target.takeError());

  mlir::DefaultTimingManager timingManager;
  mlir::applyDefaultTimingManagerCLOptions(timingManager);
  mlir::TimingScope timing = timingManager.getRootScope();
  quantc::ToolContext tool;
  configureDiagnostics(tool.context());

  mlir::TimingScope importTimer = timing.nest("import");
  Expected<mlir::OwningOpRef<mlir::ModuleOp>> loaded =
      tool.loadModel(inputFile, onnxBatch, inputShapes);
  if (!loaded)
    return error(loaded.takeError());
  mlir::OwningOpRef<mlir::ModuleOp> module = std::move(*loaded);
  importTimer.stop();

  if (Error e = computeImagesApart(*module))
    return error(std::move(e));
  if (Error e = quantizeModel(*module, *target, timing, outputs))
    return error(std::move(e));
  Expected<quantc::ModelInterface> model =
      quantc::describeModel(*module, functionName, symbolName,
                            outputFile != "-" ? outputFile : inputFile);
  if (!model)
    return error(model.takeError());
  model->parallelism = parallel;
  model->batchAsImages = batchAsImages;
  // Variants that differ in int8 instructions only are one for float code.
  if (!model->quantized)
    target->dropInt8OnlyVariants();
  auto variants = lowerVariants(std::move(module), *model, *target, timing);
  if (!variants)
    return error(variants.takeError());
  if (Error e = writeOutput(*variants, *target, *model, timing, outputs))
    return error(std::move(e));
  if (Error e = writeHeader(*target, *model, outputs))
    return error(std::move(e));
  // -o, the header, the report and the profile appear together, or none.
  if (Error e = outputs.commit())
    return error(std::move(e));
  // Done: the outputs are closed. Tearing down the modules and the context
  // (every variant's packed weights: hundreds of MB for ViT-B/16) takes
  // seconds; the process skips it, as clang does (-disable-free).
  timing.stop();
  timingManager.print();
  outs().flush();
  errs().flush();
  std::_Exit(0);
}
