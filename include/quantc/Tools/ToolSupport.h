//===- ToolSupport.h - What the command-line tools share -------*- C++ -*-===//
//
// The pieces every quantc tool (quant-opt, quant-compile, quant-run,
// quant-calibrate, quant-translate) needs around its own logic: one way to
// print an error, a context that reads models with diagnostics quoting the
// source, and a parser that survives MLIR 22's parser crashes. Output files
// are quantc/Support/OutputFile.h's (OutputSet).
// Registration of dialects and passes is quantc/InitAll.h's.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_TOOLS_TOOLSUPPORT_H
#define QUANTC_TOOLS_TOOLSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <memory>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class SourceMgrDiagnosticHandler;
} // namespace mlir

namespace quantc {

/// How a tool reports a failure: "<tool>: error: <message>" on stderr (the
/// message made terminalSafe, quantc/Support/Text.h), and 1 as the exit
/// code, e.g.
///   static const quantc::ToolError error("quant-run");
///   ...
///   if (!model)
///     return error(model.takeError());
class ToolError {
public:
  constexpr explicit ToolError(llvm::StringLiteral tool) : tool(tool) {}
  /// Prints `message`; returns 1.
  int operator()(const llvm::Twine &message) const;
  /// Prints (and consumes) `error`; returns 1.
  int operator()(llvm::Error error) const;

private:
  llvm::StringLiteral tool;
};

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
/// dialect loaded and diagnostics that quote the source file, printed to
/// stderr through a TerminalSafeStream (quantc/Support/Text.h).
class ToolContext {
public:
  ToolContext();
  ~ToolContext();
  mlir::MLIRContext &context() { return ctx; }
  /// Parses and verifies `path`. On failure the diagnostics have been
  /// printed and the error says what failed.
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> load(llvm::StringRef path);
  /// `path` as a model: an ONNX file (`.onnx`) imported with `batch` and
  /// `inputShapes` (--batch, --input-shape: 0 and none for the exported
  /// shapes), else parsed MLIR, for which neither may be given.
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
  loadModel(llvm::StringRef path, int64_t batch,
            llvm::ArrayRef<std::string> inputShapes);

private:
  mlir::MLIRContext ctx;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<llvm::raw_ostream> diagnostics;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> handler;
};

} // namespace quantc

#endif // QUANTC_TOOLS_TOOLSUPPORT_H
