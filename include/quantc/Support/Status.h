//===- Status.h - The error type of the MLIR-free libraries -----*- C++ -*-===//
//
// lib/Observers and lib/Reference build without MLIR, LLVM or exceptions:
// their fallible functions return a Status (ok, or failed with a message) or
// a StatusOr<T> (a value, or a failed Status). Neither must be checked
// before destruction (unlike llvm::Error); both are [[nodiscard]]. Where
// these libraries meet the LLVM ones, Fail.h turns them into llvm::Error /
// llvm::Expected.
//
//   Status check(...) {
//     QUANTC_TRY(validate(...));            // returns the failure, if any
//     if (bad)
//       return Status::failure("what is wrong");
//     return Status::success();
//   }
//
// StatusOr is not called ErrorOr so that it cannot be mistaken for
// llvm::ErrorOr (a value or a std::error_code). This header needs only the
// C++17 standard library.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_SUPPORT_STATUS_H
#define QUANTC_SUPPORT_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace quantc {

/// The outcome of an operation that returns no value: ok, or failed with a
/// message for the user.
class [[nodiscard]] Status {
public:
  /// Success.
  static Status success() { return Status(); }
  /// A failure that says `message`.
  static Status failure(std::string message) {
    Status s;
    s.isFailure = true;
    s.text = std::move(message);
    return s;
  }

  /// True on success.
  bool ok() const { return !isFailure; }
  /// True on failure.
  bool failed() const { return isFailure; }
  /// The failure's message (empty on success).
  const std::string &message() const { return text; }

private:
  Status() = default;
  bool isFailure = false;
  std::string text;
};

/// A value of type T, or the failure that prevented it.
template <typename T> class [[nodiscard]] StatusOr {
public:
  /// Success with `value`.
  StatusOr(T value) : value(std::move(value)) {}
  /// A failure (`failure` must have failed).
  StatusOr(Status failure) : outcome(std::move(failure)) {
    assert(outcome.failed() && "an StatusOr from a successful Status");
  }

  /// True when a value is present.
  bool ok() const { return outcome.ok(); }
  /// True on failure.
  bool failed() const { return outcome.failed(); }
  /// The failure's message (empty on success).
  const std::string &message() const { return outcome.message(); }
  /// Success, or the failure (e.g. to pass it on as a Status).
  const Status &status() const { return outcome; }

  /// The value; only valid when ok().
  const T &operator*() const { return *value; }
  T &operator*() { return *value; }
  const T *operator->() const { return &*value; }
  T *operator->() { return &*value; }

private:
  std::optional<T> value;
  Status outcome = Status::success();
};

} // namespace quantc

/// Evaluates `expr` (a Status) and returns it from the enclosing function
/// (which returns Status or StatusOr<T>) when it failed.
#define QUANTC_TRY(expr)                                                       \
  do {                                                                         \
    if (::quantc::Status quantcTryStatus = (expr); quantcTryStatus.failed())   \
      return quantcTryStatus;                                                  \
  } while (false)

#endif // QUANTC_SUPPORT_STATUS_H
