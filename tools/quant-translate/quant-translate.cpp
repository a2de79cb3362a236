//===- quant-translate.cpp - Translate models into quantc's float IR ------===//
//
//   quant-translate --import-onnx model.onnx -o model.mlir [--batch N]
//       [--input-shape NAME=1x3x640x640]...
//   quant-translate --list-onnx-ops
//
// A thin driver over lib/Import: reads the file, imports it, verifies the
// module and prints it. Errors go to stderr with a non-zero exit status and
// no output file is written (quantc/Support/OutputFile.h; -o may also be an
// existing character device such as /dev/null, written through).
//
//===----------------------------------------------------------------------===//

#include "quantc/Import/OnnxImporter.h"
#include "quantc/Support/OutputFile.h"
#include "quantc/Tools/OptionParsers.h"
#include "quantc/Tools/ToolSupport.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace mlir;

static cl::opt<bool> importOnnx("import-onnx",
                                cl::desc("Import an ONNX model (.onnx)"),
                                cl::init(false));
static cl::opt<bool>
    listOnnxOps("list-onnx-ops",
                cl::desc("List the ONNX op types the importer handles, each "
                         "with the opsets it is imported at, and exit"),
                cl::init(false));
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input>"),
                                      cl::Optional);
static cl::opt<std::string> outputFile("o", cl::desc("Output file"),
                                       cl::value_desc("filename"),
                                       cl::init("-"));
static cl::opt<int64_t, false, quantc::Int64Parser>
    batch("batch",
          cl::desc("Batch size: replaces a symbolic batch dimension of the "
                   "inputs, or the batch of 1 a model was exported with"),
          cl::init(0));
static cl::list<std::string> inputShapes("input-shape",
                                         cl::desc(quantc::kInputShapeHelp),
                                         cl::value_desc("[NAME=]DxDx..."));
static cl::opt<bool> debugInfo("mlir-print-debuginfo",
                               cl::desc("Print locations (layer names)"),
                               cl::init(false));

static const quantc::ToolError error("quant-translate");

/// The importer's op registry: one line per op type, with its opsets.
static void printOnnxOps(raw_ostream &os) {
  auto [lo, hi] = quantc::onnxOpsetRange();
  std::vector<quantc::OnnxImportedOp> ops = quantc::onnxImportedOps();
  size_t width = 0;
  for (const quantc::OnnxImportedOp &op : ops)
    width = std::max(width, op.opType.size());
  os << "# ONNX op types the importer handles (" << ops.size()
     << "), and the opsets " << lo << "-" << hi
     << " of the default domain\n# each is imported at (ops of other "
        "domains: <domain>.<op type>)\n";
  for (const quantc::OnnxImportedOp &op : ops)
    os << left_justify(op.opType, width) << "  "
       << quantc::onnxOpsetsText(op.since) << "\n";
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  quantc::reportStdoutErrorsAtExit("quant-translate");
  cl::ParseCommandLineOptions(argc, argv,
                              "quant-translate: import models into quantc's "
                              "float IR\n");
  if (listOnnxOps) {
    printOnnxOps(outs());
    return 0;
  }
  if (!importOnnx)
    return error("choose a translation (--import-onnx)");
  if (inputFile.empty())
    return error("no input file");
  if (batch < 0)
    return error("--batch must be positive");
  // IR text: standard output, a file, or through a character device.
  quantc::OutputOptions textOutput;
  textOutput.option = "-o";
  textOutput.allowCharDevice = true;
  quantc::OutputSet outputs;
  if (Error e = outputs.check(outputFile, textOutput))
    return error(std::move(e));
  quantc::OnnxImportOptions options;
  options.batch = batch;
  if (Error e = quantc::parseInputShapes(inputShapes, options))
    return error(std::move(e));
  MLIRContext context;
  Expected<OwningOpRef<ModuleOp>> imported =
      quantc::importOnnxFile(inputFile, context, options);
  if (!imported)
    return error(imported.takeError());
  OwningOpRef<ModuleOp> module = std::move(*imported);
  if (failed(verify(*module)))
    return error("'" + inputFile + "': the imported module does not verify");
  Expected<raw_pwrite_stream &> output = outputs.open(outputFile, textOutput);
  if (!output)
    return error(output.takeError());
  OpPrintingFlags flags;
  if (debugInfo)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false)
        .useLocalScope();
  module->print(*output, flags);
  if (Error e = outputs.commit())
    return error(std::move(e));
  return 0;
}
