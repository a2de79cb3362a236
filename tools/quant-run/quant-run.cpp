//===- quant-run.cpp - Run a float model compiled to native code ----------===//
//
//   quant-run model.mlir --input x.npy -o y.npy
//   quant-run model.mlir --input inputs.npz -o outputs.npz
//   quant-run model.onnx --input x.npy -o y.npy [--input-shape x=1x3x64x64]
//
// JIT-compiles the model with quantc-float-to-llvm (observers, if any, are
// ignored) and runs it on every sample of x.npy (samples stacked along the
// first dimension); y.npy stacks the outputs the same way. A model with
// several inputs takes a .npz archive with one such array per input name
// (as calibration does); with several outputs, -o names a .npz archive with
// one array per output, keyed by output name (output<i> when unnamed). For
// reference outputs, fusion checks and accuracy measurements of the float
// model. With --reference, a quantized model runs op by op on the int8
// reference (the semantics generated int8 code must match), not compiled. With
// --num-threads=N (N > 1) the parallel loops run on N threads (OpenMP).
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Import/OnnxImporter.h"
#include "quantc/InitAll.h"
#include "quantc/Isa/Int8Isa.h"
#include "quantc/Pipelines/Pipelines.h"
#include "quantc/Runtime/CompiledModel.h"
#include "quantc/Runtime/Npy.h"
#include "quantc/Runtime/ReferenceModel.h"
#include "quantc/Runtime/Samples.h"
#include "quantc/Support/InputFile.h"
#include "quantc/Support/OutputFile.h"
#include "quantc/Tools/OptionParsers.h"
#include "quantc/Tools/ToolSupport.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace mlir;

static cl::opt<std::string> modelFile(cl::Positional,
                                      cl::desc("<model.mlir | model.onnx>"),
                                      cl::Required);
static cl::opt<std::string>
    inputFile("input",
              cl::desc("Input samples: .npy (one input) or .npz (one array "
                       "per input name)"),
              cl::Required);
static cl::opt<std::string>
    outputFile("o",
               cl::desc("Outputs: .npy (one output) or .npz (one array per "
                        "output name)"),
               cl::Required);
static cl::opt<std::string>
    functionName("function", cl::desc("Function to run"), cl::init(""));
static const std::string int8IsaHelp =
    "Compile a quantized model with int8 kernels for this instruction set (" +
    quantc::int8IsaNames() + "; the host must support it) and run it (JIT)";
static cl::opt<std::string> int8Isa("int8-isa", cl::desc(int8IsaHelp),
                                    cl::init(""));
static cl::opt<bool> amxPortableTwin(
    "amx-portable-twin",
    cl::desc("Test-only: with --int8-isa=amx-int8, run the tile kernels as "
             "ordinary vector code, bit for bit the same "
             "(quantc-amx-to-vector), on a CPU without AMX"),
    cl::init(false), cl::Hidden);
static cl::opt<unsigned, false, quantc::UnsignedParser>
    numThreads("num-threads",
               cl::desc("Threads of the compiled model: 1 (default) runs "
                        "sequential code; N > 1 compiles its parallel loops "
                        "with OpenMP (parallel=omp) and runs them on N "
                        "threads"),
               cl::init(1));
static cl::opt<int64_t, false, quantc::Int64Parser>
    batch("batch",
          cl::desc("ONNX models: the batch size to compile for (replaces a "
                   "symbolic batch dimension, or the batch of 1 a model was "
                   "exported with)"),
          cl::init(0));
static cl::list<std::string> inputShapes("input-shape",
                                         cl::desc(quantc::kInputShapeHelp),
                                         cl::value_desc("[NAME=]DxDx..."));
static cl::opt<bool> reference(
    "reference",
    cl::desc("Run a quantized model (qnt-quantize output) with the int8 "
             "reference implementation of each op instead of compiling it"),
    cl::init(false));

static const quantc::ToolError error("quant-run");

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  quantc::reportStdoutErrorsAtExit("quant-run");
  quantc::registerAllPasses();
  cl::ParseCommandLineOptions(argc, argv,
                              "quant-run: run a float model compiled to "
                              "native code\n");
  if (numThreads == 0)
    return error("--num-threads must be at least 1");
  if (reference && numThreads != 1)
    return error(
        "--num-threads applies to compiled models, not to --reference");
  // -o before the run (writeNpy / writeNpz take what this accepts).
  quantc::OutputOptions dataOutput;
  dataOutput.option = "-o";
  dataOutput.allowCharDevice = true;
  if (Error e = quantc::checkOutputPath(outputFile, dataOutput))
    return error(std::move(e));
  quantc::ToolContext tool;
  Expected<OwningOpRef<ModuleOp>> loaded =
      tool.loadModel(modelFile, batch, inputShapes);
  if (!loaded)
    return error(loaded.takeError());
  OwningOpRef<ModuleOp> module = std::move(*loaded);
  module->walk([](qnt::ObserveOp op) {
    op.replaceAllUsesWith(op.getInput());
    op.erase();
  });
  // Either model runs once: input floats in, output floats out.
  std::function<Error(ArrayRef<const float *>, ArrayRef<float *>)> runOnce;
  quantc::ModelSignature signature;
  std::unique_ptr<quantc::CompiledModel> compiled;
  std::unique_ptr<quantc::ReferenceModel> oracle;
  if (reference) {
    auto model = quantc::ReferenceModel::create(*module, functionName);
    if (!model)
      return error(model.takeError());
    oracle = std::move(*model);
    signature = oracle->signature();
    runOnce = [&](ArrayRef<const float *> in, ArrayRef<float *> out) {
      return oracle->run(in, out);
    };
  } else {
    std::string isa = int8Isa;
    quantc::ParallelOptions parallel;
    if (numThreads > 1)
      parallel = {quantc::Parallelism::OpenMP, numThreads};
    auto model = quantc::CompiledModel::create(
        *module, functionName, [&](mlir::OpPassManager &pm) {
          if (isa.empty())
            quantc::buildFloatToLLVMPipeline(pm, parallel,
                                             quantc::hostVectorBits());
          else
            quantc::buildInt8ToLLVMPipeline(pm, isa, parallel, amxPortableTwin);
        });
    if (!model)
      return error(model.takeError());
    compiled = std::move(*model);
    signature = compiled->signature();
    runOnce = [&](ArrayRef<const float *> in, ArrayRef<float *> out) {
      return compiled->run(in, out);
    };
  }
  bool npz = StringRef(outputFile).ends_with(".npz");
  if (signature.outputs.size() != 1 && !npz)
    return error("the model has " + Twine(signature.outputs.size()) +
                 " outputs: write them to a .npz archive (-o outputs.npz)");
  auto input = quantc::readModelSamples(inputFile, signature.inputs);
  if (!input)
    return error(input.takeError());
  // The outputs of every run are held until they are written: a few
  // samples of a small input may ask for much more (a model that expands
  // its input), checked before anything is allocated.
  Expected<uint64_t> limit = quantc::maxInputBytes();
  if (!limit)
    return error(limit.takeError());
  uint64_t outputBytes = 0;
  for (const quantc::ModelTensor &t : signature.outputs)
    outputBytes += static_cast<uint64_t>(t.numElements()) * t.elementBytes();
  if (outputBytes > *limit / static_cast<uint64_t>(input->runs))
    return error("the model's outputs take " + Twine(outputBytes) +
                 " bytes a run, and the " + Twine(input->runs) + " runs of '" +
                 inputFile + "' are held until they are written: more than " +
                 quantc::inputLimitText(*limit) +
                 ", or give fewer samples at a time");
  std::vector<quantc::NamedArray> outputs;
  std::vector<float *> pointers(signature.outputs.size());
  std::vector<void *> typed(signature.outputs.size());
  for (auto [i, t] : llvm::enumerate(signature.outputs)) {
    quantc::NamedArray out;
    out.name = t.name.empty() ? "output" + std::to_string(i) : t.name;
    // Stacked along the first dimension; a scalar (rank 0) output is one
    // value per run.
    out.array.shape = t.shape;
    if (out.array.shape.empty())
      out.array.shape.push_back(input->runs);
    else
      out.array.shape[0] *= input->runs;
    // Integer outputs (ArgMax indices) are written in their dtype, as the
    // compiled model writes them.
    out.array.dtype = t.dtype;
    if (t.isFloat())
      out.array.data.resize(input->runs * t.numElements());
    else
      out.array.bytes.resize(input->runs * t.numElements() * t.elementBytes());
    outputs.push_back(std::move(out));
  }
  // The int8 reference has float outputs only.
  bool anyInteger = llvm::any_of(signature.outputs,
                                 [](const auto &t) { return !t.isFloat(); });
  for (int64_t r = 0; r < input->runs; ++r) {
    for (auto [i, t] : llvm::enumerate(signature.outputs)) {
      quantc::NpyArray &a = outputs[i].array;
      pointers[i] = t.isFloat() ? a.data.data() + r * t.numElements() : nullptr;
      typed[i] = t.isFloat()
                     ? static_cast<void *>(pointers[i])
                     : a.bytes.data() + r * t.numElements() * t.elementBytes();
    }
    Error e = compiled && anyInteger ? compiled->runTyped(input->run(r), typed)
                                     : runOnce(input->run(r), pointers);
    if (e)
      return error(std::move(e));
  }
  if (Error e = npz ? quantc::writeNpz(outputFile, outputs)
                    : quantc::writeNpy(outputFile, outputs.front().array))
    return error(std::move(e));
  return 0;
}
