//===- GoldenData.h - Reader for the observer golden vectors ----*- C++ -*-===//
//
// Loads test/Unit/Observers/data/{goldens.txt,inputs.bin,hist.bin} written
// by scripts/gen_observer_goldens.py (format described there).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_TEST_UNIT_CALIBRATION_GOLDENDATA_H
#define QUANTC_TEST_UNIT_CALIBRATION_GOLDENDATA_H

#include "quantc/Observers/Observer.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace quantc::obs::test {

/// One observed batch: its shape and its values.
struct Batch {
  std::vector<int64_t> shape;
  std::vector<float> values;
};

/// One golden case: a config run over a dataset and the expected results.
struct GoldenCase {
  std::string name; ///< Unique, usable as a gtest name.
  std::string dataset;
  ObserverConfig config;
  int64_t batches = 0;
  std::vector<float> min, max;
  bool hasHist = false;
  std::vector<float> hist;
  float histMin = 0, histMax = 0;
  std::vector<float> rangeLo, rangeHi;
  std::vector<float> scale;
  std::vector<int32_t> zeroPoint;
};

/// gtest prints the case by name (not as a byte dump).
inline void PrintTo(const GoldenCase &c, std::ostream *os) { *os << c.name; }

/// torch.sum of `values`.
struct SumRecord {
  std::vector<float> values;
  float sum = 0;
};

/// torch.histc(values, bins, min=lo, max=hi).
struct HistcRecord {
  std::vector<float> values;
  int64_t bins = 0;
  double lo = 0, hi = 0;
  std::vector<float> hist;
};

/// torch.div(a, b, rounding_mode='floor') on float32.
struct DivFloorRecord {
  float a = 0, b = 0, result = 0;
};

/// All golden data.
struct GoldenData {
  std::map<std::string, std::vector<Batch>> datasets;
  std::vector<GoldenCase> cases;
  std::vector<SumRecord> sums;
  std::vector<HistcRecord> histcs;
  std::vector<DivFloorRecord> divFloors;
  std::string error; ///< Non-empty if loading failed.
};

/// Loads (once) and returns the golden data.
const GoldenData &goldenData();

/// Bit pattern of a float, for exact comparisons with readable failures.
uint32_t floatBits(float v);

} // namespace quantc::obs::test

#endif // QUANTC_TEST_UNIT_CALIBRATION_GOLDENDATA_H
