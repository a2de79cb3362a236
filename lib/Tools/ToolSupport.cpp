//===- ToolSupport.cpp - What the command-line tools share ----------------===//
//
// The error printer and the crash-safe parser of
// quantc/Tools/ToolSupport.h (ToolContext is in ToolContext.cpp).
//
//===----------------------------------------------------------------------===//

#include "quantc/Tools/ToolSupport.h"

#include "quantc/Support/Fail.h"
#include "quantc/Support/Text.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace quantc;

int ToolError::operator()(const llvm::Twine &message) const {
  // Messages quote names from models and data files: terminalSafe keeps
  // their escape sequences off the user's terminal.
  llvm::errs() << tool << ": error: " << terminalSafe(message.str()) << "\n";
  return 1;
}

int ToolError::operator()(llvm::Error error) const {
  return (*this)(llvm::toString(std::move(error)));
}

bool quantc::runParserSafely(llvm::function_ref<void()> parse) {
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  bool completed = recovery.RunSafely(parse);
  llvm::CrashRecoveryContext::Disable();
  return completed;
}
