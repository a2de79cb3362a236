//===- Fail.h - llvm::Error construction for the libraries ------*- C++ -*-===//
//
// The error vocabulary of the LLVM / MLIR libraries outside passes and the
// importer (which emit diagnostics): llvm::Error and llvm::Expected, built
// with the one fail() below, and the bridge from the MLIR-free libraries'
// Status / StatusOr (Status.h) where the two meet (ReferenceModel,
// Calibrator, Report).
//
// fail() takes a Twine on purpose: llvm::createStringError("literal") would
// pick the printf-style overload and interpret any '%' in the message.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_SUPPORT_FAIL_H
#define QUANTC_SUPPORT_FAIL_H

#include "quantc/Support/Status.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <utility>

namespace quantc {

/// An llvm::Error that says `message`.
inline llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// `status` as an llvm::Error: success, or fail() with its message prefixed
/// by `context` (e.g. "observer 'x': ").
inline llvm::Error toError(const Status &status,
                           const llvm::Twine &context = "") {
  if (status.ok())
    return llvm::Error::success();
  return fail(context + status.message());
}

/// `result` as an llvm::Expected, a failure prefixed as in toError.
template <typename T>
llvm::Expected<T> toExpected(StatusOr<T> result,
                             const llvm::Twine &context = "") {
  if (result.failed())
    return toError(result.status(), context);
  return std::move(*result);
}

} // namespace quantc

#endif // QUANTC_SUPPORT_FAIL_H
