//===- InitAll.cpp - Register everything the tools need -------------------===//

#include "quantc/InitAll.h"

#include "dialects/Qnt/IR/QntDialect.h"
#include "dialects/Qnt/Transforms/Passes.h"
#include "quantc/Conversion/Passes.h"
#include "quantc/Import/OnnxImporter.h"
#include "quantc/Pipelines/Pipelines.h"
#include "quantc/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

void quantc::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::qnt::QntDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
}

void quantc::registerAllPasses() {
  mlir::registerAllPasses();
  mlir::qnt::registerQntPasses();
  quantc::registerQuantcConversionPasses();
  quantc::registerQuantcTransformsPasses();
  quantc::registerPipelines();
}

std::unique_ptr<llvm::ToolOutputFile>
quantc::openToolOutput(llvm::StringRef path, std::string &error) {
  if (path != "-") {
    llvm::StringRef dir = llvm::sys::path::parent_path(path);
    if (!dir.empty())
      if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
        error = ("cannot create the directory '" + dir + "' of '" + path +
                 "': " + ec.message())
                    .str();
        return nullptr;
      }
  }
  return mlir::openOutputFile(path, &error);
}

bool quantc::runParserSafely(llvm::function_ref<void()> parse) {
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  bool completed = recovery.RunSafely(parse);
  llvm::CrashRecoveryContext::Disable();
  return completed;
}

quantc::ToolContext::ToolContext() {
  mlir::DialectRegistry registry;
  quantc::registerAllDialects(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();
  handler = std::make_unique<mlir::SourceMgrDiagnosticHandler>(sourceMgr, &ctx);
}

quantc::ToolContext::~ToolContext() = default;

mlir::OwningOpRef<mlir::ModuleOp>
quantc::ToolContext::load(llvm::StringRef path, std::string &error) {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (!runParserSafely([&] {
        module = mlir::parseSourceFile<mlir::ModuleOp>(path, sourceMgr, &ctx);
      })) {
    error = ("cannot parse '" + path + "': " + kParserCrashed).str();
    return nullptr;
  }
  if (!module) {
    error = ("cannot parse '" + path + "'").str();
    return nullptr;
  }
  if (failed(mlir::verify(*module))) {
    error = ("'" + path + "' does not verify").str();
    return nullptr;
  }
  return module;
}

mlir::OwningOpRef<mlir::ModuleOp>
quantc::ToolContext::loadModel(llvm::StringRef path, int64_t batch,
                               llvm::ArrayRef<std::string> inputShapes,
                               std::string &error) {
  if (!path.ends_with(".onnx")) {
    if (batch || !inputShapes.empty()) {
      error = "--input-shape and --batch apply to ONNX models (.onnx)";
      return nullptr;
    }
    return load(path, error);
  }
  if (batch < 0) {
    error = "--batch must be positive";
    return nullptr;
  }
  OnnxImportOptions options;
  options.batch = batch;
  if (llvm::Error e = parseInputShapes(inputShapes, options)) {
    error = llvm::toString(std::move(e));
    return nullptr;
  }
  return importOnnxFile(path, ctx, options, error);
}
