//===- Npy.h - NumPy .npy and .npz files ------------------------*- C++ -*-===//
//
// Calibration and run data come as float32 .npy files (numpy.save), or, for
// models with several inputs, .npz archives of them keyed by input name
// (numpy.savez / numpy.savez_compressed). Only what the tools need is
// supported: little-endian float32, C order, any rank.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATE_NPY_H
#define QUANTC_CALIBRATE_NPY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace quantc {

/// A float32 array read from a .npy file.
struct NpyArray {
  std::vector<int64_t> shape;
  std::vector<float> data;
  /// The dtype writeNpy / writeNpz write the array as: "float32", or an
  /// integer dtype of ModelTensor (a model's integer output): its
  /// little-endian elements in `bytes`, else `data` converted on writing.
  std::string dtype = "float32";
  std::vector<char> bytes;
};

/// The dictionary of a .npy header.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

/// numpy.load's default max_header_size: a longer header is refused.
constexpr size_t kMaxNpyHeaderBytes = 10000;

/// Parses the header dictionary of a .npy file (the text after the length
/// field): a Python dict literal with exactly the keys 'descr' (a string),
/// 'fortran_order' (True / False) and 'shape' (a tuple of non-negative
/// integers), each once, in any order, with Python's whitespace and trailing
/// commas. A duplicated or unknown key, a missing one, a value of another
/// type, text after the dictionary or a header over kMaxNpyHeaderBytes is
/// an error saying so (without a file name).
llvm::Expected<NpyHeader> parseNpyHeader(llvm::StringRef header);

/// Reads `path`. Errors name the file and the problem: unreadable, not a
/// .npy file, truncated, a dtype other than float32 ('<f4'), Fortran order.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);
/// As readNpy, from the file's bytes; `source` names it in messages.
llvm::Expected<NpyArray> parseNpy(llvm::StringRef bytes,
                                  llvm::StringRef source);

/// One array of a .npz archive: its member name without ".npy".
struct NamedArray {
  std::string name;
  NpyArray array;
};

/// Reads the .npz archive `path` (a zip of .npy files, stored or deflated,
/// zip64 included, as numpy.savez and numpy.savez_compressed write it), in
/// archive order. Errors name the file, the member and the problem.
llvm::Expected<std::vector<NamedArray>> readNpz(llvm::StringRef path);
/// As readNpz, from the archive's bytes; `source` names it in messages.
llvm::Expected<std::vector<NamedArray>> parseNpz(llvm::StringRef bytes,
                                                 llvm::StringRef source);

/// Checks that `samples` holds model inputs of shape `input`: N inputs
/// stacked along the first dimension ([N * input[0], input[1:]...]) or, for
/// a batch of 1, one input without it. The error names `source`.
llvm::Error checkModelInputs(const NpyArray &samples,
                             llvm::ArrayRef<int64_t> input,
                             llvm::StringRef source);

/// Writes `array` as a version 1.0 .npy file (used by tests and tools). The
/// file appears whole or not at all.
llvm::Error writeNpy(llvm::StringRef path, const NpyArray &array);

/// Writes `arrays` as an uncompressed .npz archive (numpy.load reads it),
/// each as member "<name>.npy". The file appears whole or not at all.
llvm::Error writeNpz(llvm::StringRef path, llvm::ArrayRef<NamedArray> arrays);

} // namespace quantc

#endif // QUANTC_CALIBRATE_NPY_H
