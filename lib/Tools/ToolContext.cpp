//===- ToolContext.cpp - How the tools read a model -----------------------===//
//
// ToolContext (quantc/Tools/ToolSupport.h), apart from the rest of the tool
// support so that quant-opt, which never imports ONNX, does not link the
// importer.
//
//===----------------------------------------------------------------------===//

#include "quantc/Tools/ToolSupport.h"

#include "quantc/Import/OnnxImporter.h"
#include "quantc/InitAll.h"
#include "quantc/Support/Fail.h"
#include "quantc/Support/InputFile.h"
#include "quantc/Support/Text.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

using namespace quantc;
using ModuleRef = mlir::OwningOpRef<mlir::ModuleOp>;

ToolContext::ToolContext() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();
  // Diagnostics quote names from the model and lines of its source:
  // through a TerminalSafeStream, none of their bytes reaches stderr as a
  // control character.
  diagnostics = std::make_unique<TerminalSafeStream>(llvm::errs());
  handler = std::make_unique<mlir::SourceMgrDiagnosticHandler>(sourceMgr, &ctx,
                                                               *diagnostics);
}

ToolContext::~ToolContext() = default;

llvm::Expected<ModuleRef> ToolContext::load(llvm::StringRef path) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> text =
      readInputFile(path);
  if (!text)
    return text.takeError();
  sourceMgr.AddNewSourceBuffer(std::move(*text), llvm::SMLoc());
  ModuleRef module;
  if (!runParserSafely([&] {
        module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &ctx);
      }))
    return fail("cannot parse '" + path + "': " + kParserCrashed);
  if (!module)
    return fail("cannot parse '" + path + "'");
  if (mlir::failed(mlir::verify(*module)))
    return fail("'" + path + "' does not verify");
  return module;
}

llvm::Expected<ModuleRef>
ToolContext::loadModel(llvm::StringRef path, int64_t batch,
                       llvm::ArrayRef<std::string> inputShapes) {
  if (!path.ends_with(".onnx")) {
    if (batch || !inputShapes.empty())
      return fail("--input-shape and --batch apply to ONNX models (.onnx)");
    return load(path);
  }
  if (batch < 0)
    return fail("--batch must be positive");
  OnnxImportOptions options;
  options.batch = batch;
  if (llvm::Error e = parseInputShapes(inputShapes, options))
    return std::move(e);
  return importOnnxFile(path, ctx, options);
}
