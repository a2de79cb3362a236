//===- InputFile.h - Every input file read within one size limit -*- C++
//-*-===//
//
// Every file a quantc tool reads (the model, .onnx or .mlir, calibration,
// validation and run data, profiles) comes from a user who may have
// downloaded it, and may be anything: a 2 GiB zip bomb, /dev/zero, a named
// pipe nobody writes to. One limit bounds what any one input may cost:
// QUANTC_MAX_INPUT_BYTES (2 GiB by default) bytes
//
// * read from one file: checked against the size stat() reports before a
//   regular file is read, and while reading anything else (pipes, devices,
//   stdin), which stops at the limit;
// * decoded out of one file: a data file's arrays (a .npz member's declared
//   size, checked before it is inflated) and a model's constants (the
//   ONNX importer's budget, lib/Import).
//
// Every error names the file, the limit and the variable that raises it.
// readInputFile is the one way the tools and libraries read an input file.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_SUPPORT_INPUTFILE_H
#define QUANTC_SUPPORT_INPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace quantc {

/// The environment variable that sets the input limit, in bytes ("4G",
/// "512M", "65536": a K, M, G or T suffix counts in powers of 1024).
inline constexpr llvm::StringLiteral kMaxInputBytesVariable =
    "QUANTC_MAX_INPUT_BYTES";
/// The input limit when the variable is not set: 2 GiB.
inline constexpr uint64_t kDefaultMaxInputBytes = uint64_t(1) << 31;
/// How long a named pipe or device may send nothing before reading it
/// fails (a pipe nobody writes to would otherwise block forever).
inline constexpr int kInputIdleSeconds = 10;

/// The input limit: QUANTC_MAX_INPUT_BYTES, or kDefaultMaxInputBytes when it
/// is unset; an error names the variable when its value is not a positive
/// byte count.
llvm::Expected<uint64_t> maxInputBytes();

/// "the input limit of <limit> bytes (<human size>); set
/// QUANTC_MAX_INPUT_BYTES to raise it": the end of every message about the
/// limit.
std::string inputLimitText(uint64_t limit);

/// The contents of the file `path` ("-": stdin), null-terminated, at most
/// maxInputBytes() bytes. A regular file larger than the limit fails before
/// anything is read; anything else (a pipe, a character device such as
/// /dev/zero) is read until its end and fails as soon as it passes the
/// limit, or when a named one sends nothing for kInputIdleSeconds. Errors
/// start with "'<path>': ".
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path);

} // namespace quantc

#endif // QUANTC_SUPPORT_INPUTFILE_H
