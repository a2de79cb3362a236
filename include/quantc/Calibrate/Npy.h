//===- Npy.h - Reading NumPy .npy files -------------------------*- C++ -*-===//
//
// Calibration data comes as float32 .npy files (numpy.save). Only what
// calibration needs is supported: little-endian float32, C order, any rank.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATE_NPY_H
#define QUANTC_CALIBRATE_NPY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <vector>

namespace quantc {

/// A float32 array read from a .npy file.
struct NpyArray {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

/// Reads `path`. Errors name the file and the problem: unreadable, not a
/// .npy file, truncated, a dtype other than float32 ('<f4'), Fortran order.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);
/// As readNpy, from the file's bytes; `source` names it in messages.
llvm::Expected<NpyArray> parseNpy(llvm::StringRef bytes,
                                  llvm::StringRef source);

/// Checks that `samples` holds model inputs of shape `input`: N inputs
/// stacked along the first dimension ([N * input[0], input[1:]...]) or, for
/// a batch of 1, one input without it. The error names `source`.
llvm::Error checkModelInputs(const NpyArray &samples,
                             llvm::ArrayRef<int64_t> input,
                             llvm::StringRef source);

/// Writes `array` as a version 1.0 .npy file (used by tests and tools).
llvm::Error writeNpy(llvm::StringRef path, const NpyArray &array);

} // namespace quantc

#endif // QUANTC_CALIBRATE_NPY_H
