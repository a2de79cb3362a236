//===- Fail.h - llvm::Error construction for the libraries ------*- C++ -*-===//
//
// One helper for the library's error messages. It takes a Twine on purpose:
// llvm::createStringError("literal") would pick the printf-style overload
// and interpret any '%' in the message.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_SUPPORT_FAIL_H
#define QUANTC_SUPPORT_FAIL_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace quantc::detail {
inline llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}
} // namespace quantc::detail

#endif // QUANTC_SUPPORT_FAIL_H
