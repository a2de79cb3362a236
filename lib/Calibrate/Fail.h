//===- Fail.h - Error construction for lib/Calibrate ------------*- C++ -*-===//
//
// One helper for the library's error messages. It takes a Twine on purpose:
// llvm::createStringError("literal") would pick the printf-style overload
// and interpret any '%' in the message.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_LIB_CALIBRATE_FAIL_H
#define QUANTC_LIB_CALIBRATE_FAIL_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace quantc::detail {
inline llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}
} // namespace quantc::detail

#endif // QUANTC_LIB_CALIBRATE_FAIL_H
