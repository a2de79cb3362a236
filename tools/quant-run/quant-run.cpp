//===- quant-run.cpp - Run a float model compiled to native code ----------===//
//
//   quant-run model.mlir --input x.npy -o y.npy
//
// JIT-compiles the model with quantc-float-to-llvm (observers, if any, are
// ignored) and runs it on every sample of x.npy (samples stacked along the
// first dimension); y.npy stacks the outputs the same way. For reference
// outputs, fusion checks and accuracy measurements of the float model.
// With --reference, a quantized model runs op by op on the int8 reference
// (the semantics generated int8 code must match), not compiled. With
// --num-threads=N (N > 1) the parallel loops run on N threads (OpenMP).
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Calibrate/CompiledModel.h"
#include "quantc/Calibrate/Npy.h"
#include "quantc/Calibrate/ReferenceModel.h"
#include "quantc/InitAll.h"
#include "quantc/Pipelines/Pipelines.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace mlir;

static cl::opt<std::string> modelFile(cl::Positional, cl::desc("<model.mlir>"),
                                      cl::Required);
static cl::opt<std::string> inputFile("input", cl::desc("Input samples (.npy)"),
                                      cl::Required);
static cl::opt<std::string> outputFile("o", cl::desc("Output .npy"),
                                       cl::Required);
static cl::opt<std::string>
    functionName("function", cl::desc("Function to run"), cl::init(""));
static cl::opt<std::string> int8Isa(
    "int8-isa",
    cl::desc("Compile a quantized model with int8 kernels for this "
             "instruction set (generic, avx2, avx512-vnni; the host must "
             "support it) and run it (JIT)"),
    cl::init(""));
static cl::opt<unsigned>
    numThreads("num-threads",
               cl::desc("Threads of the compiled model: 1 (default) runs "
                        "sequential code; N > 1 compiles its parallel loops "
                        "with OpenMP (parallel=omp) and runs them on N "
                        "threads"),
               cl::init(1));
static cl::opt<bool> reference(
    "reference",
    cl::desc("Run a quantized model (qnt-quantize output) with the int8 "
             "reference implementation of each op instead of compiling it"),
    cl::init(false));

static int error(const Twine &message) {
  errs() << "quant-run: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  quantc::registerAllPasses();
  cl::ParseCommandLineOptions(argc, argv,
                              "quant-run: run a float model compiled to "
                              "native code\n");
  if (numThreads == 0)
    return error("--num-threads must be at least 1");
  if (reference && numThreads != 1)
    return error(
        "--num-threads applies to compiled models, not to --reference");
  quantc::ToolContext tool;
  std::string loadError;
  OwningOpRef<ModuleOp> module = tool.load(modelFile, loadError);
  if (!module)
    return error(loadError);
  module->walk([](qnt::ObserveOp op) {
    op.replaceAllUsesWith(op.getInput());
    op.erase();
  });
  // Either model runs one sample: input floats in, output floats out.
  std::function<Error(const float *, float *)> runOne;
  std::vector<int64_t> inShape, outShape;
  std::unique_ptr<quantc::CompiledModel> compiled;
  std::unique_ptr<quantc::ReferenceModel> oracle;
  if (reference) {
    auto model = quantc::ReferenceModel::create(*module, functionName);
    if (!model)
      return error(toString(model.takeError()));
    oracle = std::move(*model);
    if (oracle->outputShapes().size() != 1)
      return error("quant-run supports models with one output");
    inShape = oracle->inputShape();
    outShape = oracle->outputShape();
    runOne = [&](const float *in, float *out) { return oracle->run(in, out); };
  } else {
    std::string isa = int8Isa;
    quantc::ParallelOptions parallel;
    if (numThreads > 1)
      parallel = {quantc::Parallelism::OpenMP, numThreads};
    auto model = quantc::CompiledModel::create(
        *module, functionName, [&](mlir::OpPassManager &pm) {
          if (isa.empty())
            quantc::buildFloatToLLVMPipeline(pm, parallel);
          else
            quantc::buildInt8ToLLVMPipeline(pm, isa, parallel);
        });
    if (!model)
      return error(toString(model.takeError()));
    compiled = std::move(*model);
    if (compiled->outputShapes().size() != 1)
      return error("quant-run supports models with one output");
    inShape = compiled->inputShape();
    outShape = compiled->outputShapes()[0];
    runOne = [&](const float *in, float *out) {
      return compiled->run(in, {out});
    };
  }
  auto product = [](const std::vector<int64_t> &shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  };
  auto input = quantc::readNpy(inputFile);
  if (!input)
    return error(toString(input.takeError()));
  int64_t size = product(inShape);
  if (input->data.empty() || input->data.size() % size != 0)
    return error(inputFile + ": " + Twine(input->data.size()) +
                 " values are not a whole number of model inputs of " +
                 Twine(size));
  int64_t samples = static_cast<int64_t>(input->data.size()) / size;
  quantc::NpyArray output;
  output.shape = outShape;
  output.shape[0] *= samples;
  int64_t outSize = product(outShape);
  output.data.resize(samples * outSize);
  for (int64_t s = 0; s < samples; ++s) {
    float *out = output.data.data() + s * outSize;
    if (Error e = runOne(input->data.data() + s * size, out))
      return error(toString(std::move(e)));
  }
  if (Error e = quantc::writeNpy(outputFile, output))
    return error(toString(std::move(e)));
  return 0;
}
