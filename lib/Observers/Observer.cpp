//===- Observer.cpp - Observer front end and min/max kinds
//-----------------===//
//
// Configuration checks, input checks, state bookkeeping, merging and the
// min/max observers (PyTorch MinMaxObserver, MovingAverageMinMaxObserver,
// PerChannelMinMaxObserver, MovingAveragePerChannelMinMaxObserver). The
// histogram kinds are in Histogram.cpp and Calibrators.cpp.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <algorithm>
#include <cmath>

using namespace quantc::obs;
using quantc::Status;
using quantc::StatusOr;

namespace {
struct KindName {
  ObserverKind kind;
  const char *name;
};
constexpr KindName kKindNames[] = {
    {ObserverKind::MinMax, "min_max"},
    {ObserverKind::MovingAverageMinMax, "moving_average_min_max"},
    {ObserverKind::Histogram, "histogram"},
    {ObserverKind::PerChannelMinMax, "per_channel_min_max"},
    {ObserverKind::PerChannelMovingAverageMinMax,
     "per_channel_moving_average_min_max"},
    {ObserverKind::Percentile, "percentile"},
    {ObserverKind::Entropy, "entropy"},
    {ObserverKind::MSE, "mse"},
    {ObserverKind::Auto, "auto"},
};

bool isMovingAverage(ObserverKind kind) {
  return kind == ObserverKind::MovingAverageMinMax ||
         kind == ObserverKind::PerChannelMovingAverageMinMax;
}

/// reduce_range is not compared: it changes the parameters computed from
/// the statistics, never the statistics, so observers that differ only in
/// it merge (a profile serves every target).
bool sameConfig(const ObserverConfig &a, const ObserverConfig &b) {
  return a.kind == b.kind && a.dtype == b.dtype && a.qscheme == b.qscheme &&
         a.quantMin == b.quantMin && a.quantMax == b.quantMax &&
         a.chAxis == b.chAxis && a.averagingConstant == b.averagingConstant &&
         a.bins == b.bins && a.upsampleRate == b.upsampleRate &&
         a.percentile == b.percentile && a.eps == b.eps;
}
} // namespace

const char *quantc::obs::toString(ObserverKind kind) {
  for (const KindName &kn : kKindNames)
    if (kn.kind == kind)
      return kn.name;
  return "unknown";
}

std::optional<ObserverKind>
quantc::obs::parseObserverKind(const std::string &name) {
  for (const KindName &kn : kKindNames)
    if (name == kn.name)
      return kn.kind;
  return std::nullopt;
}

bool quantc::obs::isPerChannel(ObserverKind kind) {
  return kind == ObserverKind::PerChannelMinMax ||
         kind == ObserverKind::PerChannelMovingAverageMinMax;
}

bool quantc::obs::usesHistogram(ObserverKind kind) {
  return kind == ObserverKind::Histogram || kind == ObserverKind::Percentile ||
         kind == ObserverKind::Entropy || kind == ObserverKind::MSE ||
         kind == ObserverKind::Auto;
}

Status ObserverConfig::validate() const {
  QUANTC_TRY(validateQuantRange(dtype, quantMin, quantMax));
  // PyTorch's min/max observers raise here; its HistogramObserver accepts the
  // combination and returns zero point 128 outside [0, 127]. Rejected for all.
  if (qscheme == QScheme::Symmetric && reduceRange && dtype == Dtype::QUInt8)
    return Status::failure("cannot reduce range for symmetric quantization for "
                           "quint8");
  if (!(averagingConstant >= 0 && averagingConstant <= 1))
    return Status::failure("averaging_constant must be in [0, 1], got " +
                           std::to_string(averagingConstant));
  if (usesHistogram(kind) && (bins < 2 || bins > (int64_t(1) << 20)))
    return Status::failure("bins must be in [2, 2^20], got " +
                           std::to_string(bins));
  if (upsampleRate < 1 || upsampleRate > (int64_t(1) << 20))
    return Status::failure("upsample_rate must be in [1, 2^20], got " +
                           std::to_string(upsampleRate));
  if (!(percentile > 0 && percentile <= 100))
    return Status::failure("percentile must be in (0, 100], got " +
                           std::to_string(percentile));
  if (!(eps > 0 && std::isfinite(eps)))
    return Status::failure("eps must be positive and finite, got " +
                           std::to_string(eps));
  return Status::success();
}

Observer::Observer(const ObserverConfig &config)
    : cfg(config),
      range(effectiveQuantRange(config.dtype, config.reduceRange,
                                config.quantMin, config.quantMax)) {}

StatusOr<Observer> Observer::create(const ObserverConfig &config) {
  QUANTC_TRY(config.validate());
  return Observer(config);
}

Status Observer::observe(const float *data, const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return Status::failure("negative dimension " + std::to_string(d) +
                             " in shape");
    n *= d;
  }
  if (n == 0)
    return Status::failure("empty tensor: nothing to observe");
  for (int64_t i = 0; i < n; ++i)
    if (!std::isfinite(data[i]))
      return Status::failure(
          "non-finite value " + std::to_string(data[i]) + " at index " +
          std::to_string(i) +
          ": observers reject NaN/Inf (the batch was ignored)");

  ObserverState next = st;
  if (isPerChannel(cfg.kind)) {
    const auto rank = static_cast<int64_t>(shape.size());
    const int64_t axis = cfg.chAxis < 0 ? cfg.chAxis + rank : cfg.chAxis;
    if (axis < 0 || axis >= rank)
      return Status::failure("ch_axis " + std::to_string(cfg.chAxis) +
                             " out of range for a tensor of rank " +
                             std::to_string(rank));
    const int64_t channels = shape[axis];
    int64_t inner = 1;
    for (int64_t d = axis + 1; d < rank; ++d)
      inner *= shape[d];
    if (st.batches > 0 && static_cast<int64_t>(st.min.size()) != channels)
      return Status::failure("channel count " + std::to_string(channels) +
                             " differs from earlier batches (" +
                             std::to_string(st.min.size()) + ")");
    std::vector<float> cmin(channels, INFINITY), cmax(channels, -INFINITY);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t c = (i / inner) % channels;
      cmin[c] = std::min(cmin[c], data[i]);
      cmax[c] = std::max(cmax[c], data[i]);
    }
    if (st.batches == 0) {
      next.min = cmin;
      next.max = cmax;
    } else {
      const float a = static_cast<float>(cfg.averagingConstant);
      for (int64_t c = 0; c < channels; ++c) {
        if (isMovingAverage(cfg.kind)) {
          next.min[c] = st.min[c] + a * (cmin[c] - st.min[c]);
          next.max[c] = st.max[c] + a * (cmax[c] - st.max[c]);
        } else {
          next.min[c] = std::min(cmin[c], st.min[c]);
          next.max[c] = std::max(cmax[c], st.max[c]);
        }
      }
    }
  } else {
    auto [mn, mx] = std::minmax_element(data, data + n);
    const float bmin = *mn, bmax = *mx;
    if (cfg.kind == ObserverKind::Histogram) {
      QUANTC_TRY(detail::histogramObserve(next, cfg, data, n, bmin, bmax));
    } else if (st.batches == 0) {
      next.min = {bmin};
      next.max = {bmax};
    } else if (cfg.kind == ObserverKind::MovingAverageMinMax) {
      const float a = static_cast<float>(cfg.averagingConstant);
      next.min[0] = st.min[0] + a * (bmin - st.min[0]);
      next.max[0] = st.max[0] + a * (bmax - st.max[0]);
    } else {
      next.min[0] = std::min(bmin, st.min[0]);
      next.max[0] = std::max(bmax, st.max[0]);
    }
    if (usesHistogram(cfg.kind) && cfg.kind != ObserverKind::Histogram)
      detail::calibratorObserve(next, cfg, data, n, st.batches == 0);
  }
  ++next.batches;
  st = std::move(next);
  return Status::success();
}

Status Observer::merge(const Observer &other) {
  if (!sameConfig(cfg, other.cfg))
    return Status::failure(
        "cannot merge observers with different configurations");
  if (other.st.batches == 0)
    return Status::success();
  if (st.batches == 0) {
    st = other.st;
    return Status::success();
  }
  if (st.min.size() != other.st.min.size())
    return Status::failure(
        "cannot merge observers with different channel counts");
  const ObserverState &o = other.st;
  switch (cfg.kind) {
  case ObserverKind::MinMax:
  case ObserverKind::PerChannelMinMax:
    for (size_t c = 0; c < st.min.size(); ++c) {
      st.min[c] = std::min(st.min[c], o.min[c]);
      st.max[c] = std::max(st.max[c], o.max[c]);
    }
    break;
  case ObserverKind::MovingAverageMinMax:
  case ObserverKind::PerChannelMovingAverageMinMax: {
    const double na = static_cast<double>(st.batches);
    const double nb = static_cast<double>(o.batches);
    for (size_t c = 0; c < st.min.size(); ++c) {
      st.min[c] =
          static_cast<float>((st.min[c] * na + o.min[c] * nb) / (na + nb));
      st.max[c] =
          static_cast<float>((st.max[c] * na + o.max[c] * nb) / (na + nb));
    }
    break;
  }
  case ObserverKind::Histogram:
    detail::histogramMerge(st, o, cfg);
    break;
  case ObserverKind::Percentile:
  case ObserverKind::Entropy:
  case ObserverKind::MSE:
  case ObserverKind::Auto:
    detail::calibratorMerge(st, o, cfg);
    break;
  }
  st.batches += o.batches;
  return Status::success();
}

Status Observer::setState(ObserverState state) {
  if (state.batches < 0)
    return Status::failure("negative batch count");
  if (state.batches == 0) {
    if (!state.min.empty() || !state.max.empty() || !state.histogram.empty())
      return Status::failure("a state with 0 batches must have no statistics");
    st = std::move(state);
    return Status::success();
  }
  if (state.min.size() != state.max.size() || state.min.empty())
    return Status::failure("min and max must be non-empty and of equal size");
  if (!isPerChannel(cfg.kind) && state.min.size() != 1)
    return Status::failure("a per-tensor observer needs exactly one min/max");
  for (size_t c = 0; c < state.min.size(); ++c)
    if (!std::isfinite(state.min[c]) || !std::isfinite(state.max[c]) ||
        state.min[c] > state.max[c])
      return Status::failure("invalid min/max at channel " + std::to_string(c));
  if (!usesHistogram(cfg.kind)) {
    if (!state.histogram.empty())
      return Status::failure("this observer kind keeps no histogram");
  } else {
    if (static_cast<int64_t>(state.histogram.size()) != cfg.bins)
      return Status::failure("histogram must have " + std::to_string(cfg.bins) +
                             " bins");
    // PyTorch's histogram combining interpolates counts in float32 and can
    // leave tiny negative counts (cancellation in cumsum differences); they
    // are part of its state. The calibrators count exactly.
    bool exactCounts = cfg.kind != ObserverKind::Histogram;
    for (float h : state.histogram)
      if (!std::isfinite(h) || (exactCounts && h < 0))
        return Status::failure(exactCounts
                                   ? "histogram counts must be finite and >= 0"
                                   : "histogram counts must be finite");
    if (cfg.kind == ObserverKind::Histogram) {
      if (state.histMin != state.min[0] || state.histMax != state.max[0])
        return Status::failure("histogram range must equal min/max");
    } else {
      QUANTC_TRY(detail::calibratorValidate(state, cfg));
    }
  }
  st = std::move(state);
  return Status::success();
}

StatusOr<std::pair<std::vector<float>, std::vector<float>>>
Observer::computeRange() const {
  if (st.batches == 0)
    return Status::failure(std::string(toString(cfg.kind)) +
                           " observer has not observed any data");
  switch (cfg.kind) {
  case ObserverKind::Auto:
    return Status::failure("an auto observer has no range of its own: choose "
                           "its kind first (quant-compile "
                           "--activation-observer=auto)");
  case ObserverKind::Histogram: {
    // dst_nbins = 2 ** bits(dtype), regardless of reduce_range.
    auto [lo, hi] = detail::histogramSearch(st, cfg, 256);
    return std::make_pair(std::vector<float>{lo}, std::vector<float>{hi});
  }
  case ObserverKind::Percentile:
  case ObserverKind::Entropy:
  case ObserverKind::MSE: {
    const float amax =
        static_cast<float>(detail::calibratorAmax(st, cfg, range));
    if (cfg.qscheme == QScheme::Symmetric)
      return std::make_pair(std::vector<float>{-amax},
                            std::vector<float>{amax});
    return std::make_pair(std::vector<float>{std::max(st.min[0], -amax)},
                          std::vector<float>{std::min(st.max[0], amax)});
  }
  default:
    return std::make_pair(st.min, st.max);
  }
}

StatusOr<Observer> Observer::asKind(ObserverKind kind) const {
  if (cfg.kind != ObserverKind::Auto)
    return Status::failure(std::string("only an auto observer can change its "
                                       "kind, not a ") +
                           toString(cfg.kind) + " observer");
  if (std::find(std::begin(kAutoCandidates), std::end(kAutoCandidates), kind) ==
      std::end(kAutoCandidates))
    return Status::failure(std::string("an auto observer cannot become ") +
                           toString(kind));
  ObserverConfig config = cfg;
  config.kind = kind;
  Observer observer(config);
  observer.st = st;
  // The calibrators' min/max are the exact extremes, which is min_max's
  // whole state.
  if (kind == ObserverKind::MinMax) {
    observer.st.histogram.clear();
    observer.st.histMin = observer.st.histMax = 0;
  }
  return observer;
}

StatusOr<QParams> Observer::computeQParams() const {
  auto r = computeRange();
  if (r.failed())
    return r.status();
  return calculateQParams(r->first, r->second, cfg.dtype, cfg.qscheme, range,
                          cfg.eps, isPerChannel(cfg.kind));
}
