//===- InitAll.h - Register everything the tools need -----------*- C++ -*-===//
//
// One place that lists the dialects, interfaces and passes our tools load, so
// that quant-opt, quant-compile and the tests agree.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_INITALL_H
#define QUANTC_INITALL_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"
#include <memory>
#include <string>

namespace llvm {
class ToolOutputFile;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class SourceMgrDiagnosticHandler;
} // namespace mlir

namespace quantc {
/// Adds the qnt dialect and every upstream dialect, with their interface
/// implementations (bufferization, LLVM translation, ...), to `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);
/// Registers the qnt passes, our pipelines and every upstream pass.
void registerAllPasses();

/// An output file of a tool (`-` for stdout), its parent directory created
/// first, as every output of the tools does (-o, --header, --report,
/// --save-profile). Deleted unless the caller keep()s it; nullptr with
/// `error` set on failure.
std::unique_ptr<llvm::ToolOutputFile> openToolOutput(llvm::StringRef path,
                                                     std::string &error);

/// Runs `parse`, a call of MLIR's parser, under llvm::CrashRecoveryContext
/// and returns false if it crashed. MLIR 22's custom parsers of
/// linalg.transpose, linalg.broadcast and linalg.reduce report a malformed
/// `permutation` / `dimensions` array and then dereference the null
/// attribute they stored (docs/hardening.md); with this, such input fails
/// like any other syntax error. What `parse` allocated before the crash
/// leaks: the caller reports the error and exits.
bool runParserSafely(llvm::function_ref<void()> parse);
/// What a tool says when runParserSafely returns false.
inline constexpr llvm::StringLiteral kParserCrashed =
    "MLIR's parser crashed after the error above (a known MLIR 22 defect, "
    "see docs/hardening.md)";

/// What a command-line tool needs to read a model: a context with every
/// dialect loaded and diagnostics that quote the source file.
class ToolContext {
public:
  ToolContext();
  ~ToolContext();
  mlir::MLIRContext &context() { return ctx; }
  /// Parses and verifies `path`. On failure the diagnostics have been
  /// printed and `error` says what failed.
  mlir::OwningOpRef<mlir::ModuleOp> load(llvm::StringRef path,
                                         std::string &error);
  /// `path` as a model: an ONNX file (`.onnx`) imported with `batch` and
  /// `inputShapes` (--batch, --input-shape: 0 and none for the exported
  /// shapes), else parsed MLIR, for which neither may be given.
  mlir::OwningOpRef<mlir::ModuleOp>
  loadModel(llvm::StringRef path, int64_t batch,
            llvm::ArrayRef<std::string> inputShapes, std::string &error);

private:
  mlir::MLIRContext ctx;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> handler;
};
} // namespace quantc

#endif // QUANTC_INITALL_H
