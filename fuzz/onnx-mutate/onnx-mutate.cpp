//===- onnx-mutate.cpp - Write structurally mutated ONNX models -----------===//
//
//   onnx-mutate --seed S --count N --out DIR model.onnx...
//
// Writes N mutants of the m-th model (OnnxMutator.h) to
// DIR/<m>-<stem>.<k>.onnx,
// reproducibly for a seed. scripts/onnx-mutants.sh runs them through
// quant-translate and quant-compile.
//
//===----------------------------------------------------------------------===//

#include "fuzz/OnnxMutator/OnnxMutator.h"
#include "quantc/Support/OutputFile.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::list<std::string> inputs(cl::Positional, cl::desc("<model.onnx>"),
                                    cl::OneOrMore);
static cl::opt<std::string> outDir("out", cl::desc("Output directory"),
                                   cl::Required);
static cl::opt<uint64_t> seed("seed", cl::desc("Random seed"), cl::init(1));
static cl::opt<unsigned> mutantCount("count", cl::desc("Mutants per model"),
                                     cl::init(100));
static cl::opt<unsigned> maxMutations("max-mutations",
                                      cl::desc("Mutations per mutant (1 to N)"),
                                      cl::init(3));

static int error(const Twine &message) {
  errs() << "onnx-mutate: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "onnx-mutate: structure-level ONNX mutants\n");
  if (maxMutations < 1)
    return error("--max-mutations must be at least 1");
  if (std::error_code ec = sys::fs::create_directories(outDir))
    return error("cannot create '" + outDir + "': " + ec.message());
  std::mt19937_64 rng(seed);
  for (auto [m, path] : llvm::enumerate(inputs)) {
    auto buffer = MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!buffer)
      return error("cannot read '" + path +
                   "': " + buffer.getError().message());
    onnx::ModelProto original;
    if (!original.ParseFromArray((*buffer)->getBufferStart(),
                                 static_cast<int>((*buffer)->getBufferSize())))
      return error("'" + path + "' is not an ONNX model");
    for (unsigned k = 0; k < mutantCount; ++k) {
      onnx::ModelProto model = original;
      quantc::fuzz::mutateOnnxModel(model, rng, maxMutations);
      SmallString<128> out(outDir);
      sys::path::append(out, Twine(m) + "-" + sys::path::stem(path) + "." +
                                 Twine(k) + ".onnx");
      std::string bytes;
      if (!model.SerializeToString(&bytes))
        return error("cannot serialize a mutant of '" + path + "'");
      if (Error e = quantc::writeOutputFile(
              out, [&](raw_ostream &os) { os << bytes; }))
        return error(toString(std::move(e)));
    }
  }
  return 0;
}
