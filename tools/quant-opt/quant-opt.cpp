//===- quant-opt.cpp - mlir-opt for the quantization compiler -------------===//
//
// Runs any registered pass or pipeline on .mlir files: the qnt dialect and
// its passes, plus every upstream dialect and pass.
//
// This is mlir::MlirOptMain's driver with one step in front: every split of
// the input is parsed once under crash recovery, because MLIR 22's parser
// crashes on some malformed linalg ops (quantc::runParserSafely). Such input
// ends with the parser's error and exit code 1, before any output is opened.
//
//===----------------------------------------------------------------------===//

#include "quantc/InitAll.h"
#include "quantc/Support/InputFile.h"
#include "quantc/Support/OutputFile.h"
#include "quantc/Tools/ToolSupport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"

static const quantc::ToolError error("quant-opt");

/// Parses each split of `input` as quant-opt will, with diagnostics kept
/// aside, and fails if the parser crashes on one; the diagnostics of that
/// split are printed then.
static mlir::LogicalResult
checkParserSurvives(const llvm::MemoryBuffer &input,
                    mlir::DialectRegistry &registry,
                    const mlir::MlirOptMainConfig &config) {
  mlir::MLIRContext ctx(registry, mlir::MLIRContext::Threading::DISABLED);
  ctx.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
  auto parseSplit = [&](std::unique_ptr<llvm::MemoryBuffer> split,
                        const llvm::MemoryBufferRef &,
                        llvm::raw_ostream &) -> mlir::LogicalResult {
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(std::move(split), llvm::SMLoc());
    std::string diagnostics;
    llvm::raw_string_ostream diagnosticStream(diagnostics);
    mlir::SourceMgrDiagnosticHandler handler(*sourceMgr, &ctx,
                                             diagnosticStream);
    if (quantc::runParserSafely([&] {
          (void)mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr,
                                                      mlir::ParserConfig(&ctx));
        }))
      return mlir::success();
    llvm::errs() << diagnostics;
    error(quantc::kParserCrashed);
    return mlir::failure();
  };
  return mlir::splitAndProcessBuffer(
      llvm::MemoryBuffer::getMemBuffer(input.getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      parseSplit, llvm::nulls(), config.inputSplitMarker(),
      config.outputSplitMarker());
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  quantc::reportStdoutErrorsAtExit("quant-opt");
  mlir::DialectRegistry registry;
  quantc::registerAllDialects(registry);
  quantc::registerAllPasses();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "quant-opt: int8 quantization compiler driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> read =
      quantc::readInputFile(inputFilename);
  if (!read)
    return error(read.takeError());
  std::unique_ptr<llvm::MemoryBuffer> input = std::move(*read);
  if (!config.shouldShowDialects() && !config.shouldListPasses() &&
      mlir::failed(checkParserSurvives(*input, registry, config)))
    return 1;
  // IR text: standard output, a file, or through a character device
  // (-o /dev/null); written whole or not at all.
  quantc::OutputOptions textOutput;
  textOutput.option = "-o";
  textOutput.allowCharDevice = true;
  quantc::OutputSet outputs;
  llvm::Expected<llvm::raw_pwrite_stream &> output =
      outputs.open(outputFilename, textOutput);
  if (!output)
    return error(output.takeError());
  if (mlir::failed(
          mlir::MlirOptMain(*output, std::move(input), registry, config)))
    return 1;
  if (llvm::Error e = outputs.commit())
    return error(std::move(e));
  return 0;
}
