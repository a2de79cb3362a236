//===- Observer.h - Calibration observers -----------------------*- C++ -*-===//
//
// Observers collect statistics over calibration batches and turn them into
// quantization parameters. The PyTorch kinds (min_max, moving_average_min_max,
// per_channel_*, histogram) reproduce PyTorch 1.13's observers bit for bit;
// percentile, entropy and mse are histogram calibrators in the style of
// TensorRT / NVIDIA pytorch-quantization (see Calibrators.cpp). `auto`
// collects the calibrators' state and is resolved to min_max or one of them
// afterwards (asKind(); quant-compile --activation-observer=auto chooses).
//
// Input policy: every value passed to observe() must be finite. PyTorch lets
// NaN/Inf through and silently produces NaN/Inf ranges (or crashes inside
// torch.histc); a compiler should rather stop and say which batch was bad, so
// observe() rejects the whole batch and leaves the state unchanged. Empty
// batches are rejected too (PyTorch ignores them).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATION_OBSERVER_H
#define QUANTC_CALIBRATION_OBSERVER_H

#include "quantc/Observers/QParams.h"

#include <cfloat>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace quantc::obs {

/// The observer algorithms.
enum class ObserverKind {
  MinMax,
  MovingAverageMinMax,
  Histogram,
  PerChannelMinMax,
  PerChannelMovingAverageMinMax,
  Percentile,
  Entropy,
  MSE,
  /// The calibrators' statistics (|x| histogram, exact min/max), to be
  /// resolved to one of kAutoCandidates by Observer::asKind.
  Auto
};

/// The kinds an `auto` observer can become, in the order ties are broken.
inline constexpr ObserverKind kAutoCandidates[] = {
    ObserverKind::MinMax, ObserverKind::Percentile, ObserverKind::Entropy,
    ObserverKind::MSE};

/// Returns the snake_case name, e.g. "per_channel_min_max".
const char *toString(ObserverKind kind);
/// Parses a snake_case name produced by toString(ObserverKind).
std::optional<ObserverKind> parseObserverKind(const std::string &name);
/// True for the per-channel kinds.
bool isPerChannel(ObserverKind kind);
/// True for the kinds that keep a histogram (histogram, percentile, entropy,
/// mse, auto).
bool usesHistogram(ObserverKind kind);

/// Observer parameters, named and defaulted as in PyTorch 1.13.
struct ObserverConfig {
  ObserverKind kind = ObserverKind::MinMax;
  Dtype dtype = Dtype::QUInt8;
  QScheme qscheme = QScheme::Affine;
  std::optional<int64_t> quantMin, quantMax;
  bool reduceRange = false;
  /// Channel axis for the per-channel kinds; negative counts from the back.
  int64_t chAxis = 0;
  /// Moving-average weight of the new batch (PyTorch averaging_constant).
  double averagingConstant = 0.01;
  /// Histogram bins (PyTorch HistogramObserver `bins`; calibrators too).
  int64_t bins = 2048;
  /// PyTorch HistogramObserver `upsample_rate`.
  int64_t upsampleRate = 128;
  /// Percentile calibrator: percentage of |x| mass kept.
  double percentile = 99.99;
  /// Lower bound of the scale (PyTorch eps, torch.finfo(float32).eps).
  float eps = FLT_EPSILON;

  /// Checks the configuration; a failure says what is wrong.
  Status validate() const;
};

/// Everything an observer has accumulated; enough to resume or merge.
struct ObserverState {
  /// Number of observed batches; 0 means never run (min/max empty then).
  int64_t batches = 0;
  /// Running min/max: one entry per channel, one for per-tensor kinds. For the
  /// calibrators these are the exact observed extremes.
  std::vector<float> min, max;
  /// Histogram kinds only (empty otherwise): `bins` counts over
  /// [histMin, histMax]. For `histogram` this is PyTorch's buffer and range
  /// (equal to min/max). For the calibrators it counts |x| on the grid
  /// [0, bins * 2^k) described in Calibrators.cpp.
  std::vector<float> histogram;
  float histMin = 0, histMax = 0;
};

/// A calibration observer. Build one with create(), feed batches with
/// observe(), read the result with computeQParams().
class Observer {
public:
  /// Validates `config` and returns a fresh observer.
  static StatusOr<Observer> create(const ObserverConfig &config);

  /// Observes one batch (one forward call) of `shape` (row-major, product of
  /// the dims elements at `data`). Returns an error for an empty or
  /// non-finite batch, a channel axis out of range or a channel count that
  /// differs from earlier batches; the state is unchanged on error.
  Status observe(const float *data, const std::vector<int64_t> &shape);

  /// Combines `other`'s statistics into this observer (e.g. calibration split
  /// over machines). Requires the same config. Guarantees:
  ///  - min_max / per_channel_min_max: exact; equal to observing all batches
  ///    of both in any order; commutative and associative.
  ///  - moving averages: batch-count weighted mean of the two averages (in
  ///    double, rounded to float); commutative bit for bit, not associative,
  ///    and not equal to sequential observation (an EMA depends on order).
  ///  - histogram (PyTorch): both histograms are redistributed onto the union
  ///    range [min(minA, minB), max(maxA, maxB)] by bin overlap and added:
  ///    commutative bit for bit; not associative. When both states have the
  ///    same [min, max] the counts are added unchanged, which equals what
  ///    PyTorch computes observing B's batches after A's.
  ///  - percentile / entropy / mse: exact; equal to observing all batches in
  ///    any order (power-of-two grid, see Calibrators.cpp), while every bin
  ///    count stays below 2^24 (float counts).
  /// Merging with a never-run observer is the identity.
  Status merge(const Observer &other);

  /// The accumulated statistics.
  const ObserverState &state() const { return st; }
  /// Replaces the statistics after checking they are consistent with the
  /// config (sizes, ordering, grid); returns an error otherwise.
  Status setState(ObserverState state);
  /// The configuration this observer was built from.
  const ObserverConfig &config() const { return cfg; }
  /// The effective quantization range (after reduce_range / custom bounds).
  const QuantRange &quantRange() const { return range; }

  /// For an `auto` observer: an observer of `kind` (one of kAutoCandidates)
  /// with these statistics, whose qparams equal those of a `kind` observer
  /// that observed the same batches (min_max keeps the exact min/max and
  /// drops the histogram). An error for another kind or a non-auto observer.
  StatusOr<Observer> asKind(ObserverKind kind) const;

  /// Scale and zero point(s) from the statistics; an error if no batch was
  /// observed, or for an `auto` observer (resolve it with asKind first).
  StatusOr<QParams> computeQParams() const;

  /// The (min, max) range the qparams are computed from: the running min/max
  /// for the min/max kinds, the searched range for the histogram kinds.
  StatusOr<std::pair<std::vector<float>, std::vector<float>>>
  computeRange() const;

private:
  explicit Observer(const ObserverConfig &config);

  ObserverConfig cfg;
  QuantRange range;
  ObserverState st;
};

} // namespace quantc::obs

#endif // QUANTC_CALIBRATION_OBSERVER_H
