//===- GoldenData.h - Reader for the int8 reference goldens -----*- C++ -*-===//
//
// Loads test/Unit/Reference/data/{goldens.txt,tensors.bin} written by
// scripts/gen_reference_goldens.py (format described there) and builds the
// QTensor / QWeights views the reference ops take.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_TEST_UNIT_REFERENCE_GOLDENDATA_H
#define QUANTC_TEST_UNIT_REFERENCE_GOLDENDATA_H

#include "quantc/Reference/Reference.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace quantc::ref::test {

/// One stored tensor: element type ("u8", "i8", "i32", "f32"), shape, bytes
/// and (for activations) quantization.
struct RawTensor {
  std::string type;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
  bool hasQParams = false;
  float scale = 1.0f;
  int32_t zeroPoint = 0, qmin = 0, qmax = 255;
};

/// One golden case.
struct GoldenCase {
  std::string op, name, source;
  std::map<std::string, RawTensor> tensors;
  std::map<std::string, std::vector<int64_t>> params;
  std::map<std::string, std::vector<float>> floatParams;
  std::vector<float> weightScales;

  /// A view of tensor `role` (which must exist and be u8/i8). The view
  /// points into this case's bytes.
  QTensor view(const std::string &role) const;
  /// A zero-filled tensor with the shape and quantization of `role`, viewed
  /// by `out` (which then points into `storage`).
  void makeOutput(const std::string &role, std::vector<uint8_t> &storage,
                  QTensor &out) const;
  /// Integer parameter `key` (all values), or `fallback` when absent.
  std::vector<int64_t> param(const std::string &key,
                             std::vector<int64_t> fallback) const;
};

/// gtest prints the case by name (not as a byte dump).
inline void PrintTo(const GoldenCase &c, std::ostream *os) {
  *os << c.op << "/" << c.name;
}

/// All golden data.
struct GoldenData {
  std::vector<GoldenCase> cases;
  std::string error; ///< Non-empty if loading failed.
};

/// Loads (once) and returns the golden data.
const GoldenData &goldenData();

} // namespace quantc::ref::test

#endif // QUANTC_TEST_UNIT_REFERENCE_GOLDENDATA_H
