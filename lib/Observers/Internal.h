//===- Internal.h - Private helpers of the observer library ----*- C++ -*-===//
//
// Declarations shared by the observer implementation files: emulations of
// the ATen CPU kernels whose rounding the PyTorch observers depend on, and
// the per-kind state updates. Not installed; not part of the public API.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_LIB_CALIBRATION_INTERNAL_H
#define QUANTC_LIB_CALIBRATION_INTERNAL_H

#include "quantc/Observers/Observer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace quantc::obs::detail {

//===----------------------------------------------------------------------===//
// ATen CPU kernel emulations (TorchOps.cpp)
//===----------------------------------------------------------------------===//

/// torch.sum of a contiguous float32 vector: ATen's cascade_sum with 8-lane
/// AVX2 vectors (the summation order matters for non-integral values).
float torchSum(const float *x, int64_t n);

/// torch.div(a, b, rounding_mode='floor') for float32 (ATen
/// div_floor_floating: fmod based, not floor(a / b)).
float torchDivFloor(float a, float b);

/// torch.histc(x, bins, min=lo, max=hi) for float32 input (ATen histogramdd
/// LINEAR_INTERPOLATION path). `lo`/`hi` are the double-valued bounds.
std::vector<float> torchHistc(const float *x, int64_t n, int64_t bins,
                              double lo, double hi);

/// Python's int(float) as used on the histogram bounds (truncation); returns
/// std::nullopt when the value does not fit int64 (PyTorch raises then).
std::optional<int64_t> pythonIntOfFloat(float v);

//===----------------------------------------------------------------------===//
// PyTorch HistogramObserver (Histogram.cpp)
//===----------------------------------------------------------------------===//

/// HistogramObserver.forward on one batch with batch extremes (bmin, bmax).
Status histogramObserve(ObserverState &st, const ObserverConfig &cfg,
                        const float *x, int64_t n, float bmin, float bmax);
/// HistogramObserver._non_linear_param_search: the (min, max) to quantize.
std::pair<float, float> histogramSearch(const ObserverState &st,
                                        const ObserverConfig &cfg,
                                        int64_t dstBins);
/// Symmetric merge of two initialized histogram states into `a`.
void histogramMerge(ObserverState &a, const ObserverState &b,
                    const ObserverConfig &cfg);

//===----------------------------------------------------------------------===//
// Percentile / entropy / MSE calibrators (Calibrators.cpp)
//===----------------------------------------------------------------------===//

/// Adds one batch's |x| counts; st.min/max must already include the batch.
void calibratorObserve(ObserverState &st, const ObserverConfig &cfg,
                       const float *x, int64_t n, bool first);
/// Exact merge of two initialized calibrator states into `a`.
void calibratorMerge(ObserverState &a, const ObserverState &b,
                     const ObserverConfig &cfg);
/// The clipping threshold amax >= 0 chosen by the calibrator.
double calibratorAmax(const ObserverState &st, const ObserverConfig &cfg,
                      const QuantRange &range);
/// Checks that a calibrator histogram state is on a valid grid.
Status calibratorValidate(const ObserverState &st, const ObserverConfig &cfg);

} // namespace quantc::obs::detail

#endif // QUANTC_LIB_CALIBRATION_INTERNAL_H
