//===- Calibrators.cpp - Percentile, entropy and MSE calibrators ----------===//
//
// Histogram calibrators in the style of NVIDIA pytorch-quantization
// (pytorch_quantization/calib/histogram.py, which follows TensorRT's entropy
// calibrator). They choose a clipping threshold `amax` for |x|:
//  - percentile (`_compute_amax_percentile`): cdf = cumsum(hist / total);
//    amax = left edge of the first bin where cdf >= percentile / 100.
//  - entropy (`_compute_amax_entropy`, TensorRT KL calibration): hist[0] is
//    replaced by hist[1]; for every candidate i in [128, used] the reference
//    P = hist[:i] with the outlier mass added to P[i-1], the candidate Q =
//    hist[:i] merged into `levels` quantization bins (bin of j: floor(levels
//    * j / i), the exact value of np.digitize on linspace(0, i, levels + 1))
//    and spread evenly over the non-empty source bins; KL(P || Q) as
//    scipy.stats.entropy computes it (both normalized, p * log(p / q), inf
//    where q = 0 < p, and inf when Q is all zero, where scipy gives NaN).
//    amax = edge i of the last minimum.
//  - mse (`_compute_amax_mse`): for every bin centre c_i, i in [128, used),
//    fake-quantize all centres with amax = c_i to `levels` - 1 steps (round
//    half to even, clamp) and sum count * error^2; amax = c_i of the first
//    minimum.
// `levels` is 256 for affine quantization of non-negative data (pytorch-
// quantization's `unsigned`) and 128 otherwise, scaled to the quant range:
// (qmax - qmin + 1) or half of it. Sums run sequentially in double.
//
// Deviations from pytorch-quantization, chosen for exact merging: the grid.
// pytorch-quantization fixes the bin width from the first batch and appends
// bins; here the bins are [i * 2^k, (i + 1) * 2^k), i in [0, bins), with k
// the smallest integer such that max|x| < bins * 2^k (k clamped to
// [-126, 127 - ceil(log2 bins)]; values beyond the top land in the last bin).
// Counts on a 2^k grid give the counts on the 2^(k+1) grid by adding pairs,
// so a state only depends on the multiset of observed values: observing in
// any order, in any split, merged in any order, gives the same histogram
// (exactly, while counts stay below 2^24). The searches only look at the
// `used` bins up to the last non-empty one, like pytorch-quantization whose
// last edge is the observed maximum. A histogram that uses fewer than 128
// bins (only possible at the bottom of the k range) yields amax = the top
// edge of the last used bin.
//
// qparams: symmetric uses [-amax, amax]; affine clips the observed range to
// it: [max(min, -amax), min(max, amax)].
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <algorithm>
#include <cmath>

using namespace quantc::obs;
using quantc::Status;
using quantc::StatusOr;
using namespace quantc::obs::detail;

namespace {
constexpr int kMinExp = -126;
constexpr int64_t kStartBin = 128;

int maxExp(int64_t bins) {
  int bitsNeeded = 0;
  while ((int64_t(1) << bitsNeeded) < bins)
    ++bitsNeeded;
  return 127 - bitsNeeded;
}

/// Smallest k with amax < bins * 2^k, clamped to the representable range.
int selectExp(double amax, int64_t bins) {
  int k = kMinExp;
  while (k < maxExp(bins) && !(amax < std::ldexp(static_cast<double>(bins), k)))
    ++k;
  return k;
}

/// The grid exponent of a state: histMax = bins * 2^k.
std::optional<int> gridExp(const ObserverState &st, int64_t bins) {
  double w = static_cast<double>(st.histMax) / static_cast<double>(bins);
  int e;
  double m = std::frexp(w, &e);
  if (m != 0.5)
    return std::nullopt;
  return e - 1;
}

double stateAmax(const ObserverState &st) {
  return std::max(-static_cast<double>(st.min[0]),
                  static_cast<double>(st.max[0]));
}

/// Re-bins counts from grid 2^k to grid 2^(k + shift) by adding groups.
std::vector<float> coarsen(const std::vector<float> &hist, int shift) {
  if (shift == 0)
    return hist;
  std::vector<float> out(hist.size(), 0.0f);
  for (size_t i = 0; i < hist.size(); ++i)
    out[shift >= 63 ? 0 : (i >> shift)] += hist[i];
  return out;
}

int64_t usedBins(const std::vector<float> &hist) {
  int64_t used = static_cast<int64_t>(hist.size());
  while (used > 0 && hist[used - 1] == 0)
    --used;
  return used;
}

double percentileAmax(const std::vector<float> &hist, double w, double pct) {
  double total = 0;
  for (float h : hist)
    total += h;
  const double target = pct / 100;
  double cdf = 0;
  for (size_t i = 0; i < hist.size(); ++i) {
    cdf += hist[i] / total;
    if (cdf >= target)
      return static_cast<double>(i) * w;
  }
  return static_cast<double>(hist.size()) * w;
}

double entropyAmax(const std::vector<float> &hist, int64_t used, double w,
                   int64_t levels) {
  std::vector<double> bins(hist.begin(), hist.begin() + used);
  bins[0] = bins[1];
  std::vector<double> qCounts(levels), p(used), q(used);
  std::vector<int64_t> qNum(levels);
  double best = INFINITY;
  int64_t bestI = kStartBin;
  for (int64_t i = kStartBin; i <= used; ++i) {
    std::fill(qCounts.begin(), qCounts.end(), 0.0);
    std::fill(qNum.begin(), qNum.end(), 0);
    for (int64_t j = 0; j < i; ++j) {
      if (bins[j] == 0)
        continue;
      int64_t b = levels * j / i;
      qCounts[b] += bins[j];
      ++qNum[b];
    }
    double outliers = 0;
    for (int64_t j = i; j < used; ++j)
      outliers += bins[j];
    double sumP = 0, sumQ = 0;
    for (int64_t j = 0; j < i; ++j) {
      p[j] = bins[j] + (j == i - 1 ? outliers : 0.0);
      int64_t b = levels * j / i;
      q[j] = bins[j] == 0 ? 0.0 : qCounts[b] / static_cast<double>(qNum[b]);
      sumP += p[j];
      sumQ += q[j];
    }
    // No candidate mass at all (the first i bins are empty): infinitely bad.
    double kl = sumQ > 0 ? 0.0 : INFINITY;
    for (int64_t j = 0; sumQ > 0 && j < i; ++j) {
      if (p[j] == 0)
        continue;
      double pn = p[j] / sumP, qn = q[j] / sumQ;
      kl += qn == 0 ? INFINITY : pn * std::log(pn / qn);
    }
    if (kl <= best) {
      best = kl;
      bestI = i;
    }
  }
  return static_cast<double>(bestI) * w;
}

double mseAmax(const std::vector<float> &hist, int64_t used, double w,
               int64_t levels) {
  const double maxBound = static_cast<double>(levels - 1);
  double best = INFINITY, bestAmax = 0;
  for (int64_t i = kStartBin; i < used; ++i) {
    const double amax = (static_cast<double>(i) + 0.5) * w;
    const double scale = maxBound / amax;
    double err = 0;
    for (int64_t j = 0; j < used; ++j) {
      const double c = (static_cast<double>(j) + 0.5) * w;
      double qv = std::min(std::max(std::nearbyint(c * scale), 0.0), maxBound);
      double d = qv / scale - c;
      err += d * d * hist[j];
    }
    if (err < best) {
      best = err;
      bestAmax = amax;
    }
  }
  return bestAmax;
}
} // namespace

void detail::calibratorObserve(ObserverState &st, const ObserverConfig &cfg,
                               const float *x, int64_t n, bool first) {
  const int64_t bins = cfg.bins;
  const int k = selectExp(stateAmax(st), bins);
  if (first) {
    st.histogram.assign(bins, 0.0f);
  } else {
    const int oldK = *gridExp(st, bins);
    st.histogram = coarsen(st.histogram, k - oldK);
  }
  std::vector<int64_t> counts(bins, 0);
  // Multiplying by 2^-k is exact (as ldexp), and truncation is floor for
  // |x| >= 0; one multiply per element instead of a libm call.
  const double invWidth = std::ldexp(1.0, -k);
  const double last = static_cast<double>(bins - 1);
  for (int64_t i = 0; i < n; ++i) {
    double idx = std::fabs(static_cast<double>(x[i])) * invWidth;
    counts[static_cast<int64_t>(std::min(idx, last))]++;
  }
  for (int64_t i = 0; i < bins; ++i)
    st.histogram[i] += static_cast<float>(counts[i]);
  st.histMin = 0;
  st.histMax = static_cast<float>(std::ldexp(static_cast<double>(bins), k));
}

void detail::calibratorMerge(ObserverState &a, const ObserverState &b,
                             const ObserverConfig &cfg) {
  const int ka = *gridExp(a, cfg.bins), kb = *gridExp(b, cfg.bins);
  const int k = std::max(ka, kb);
  std::vector<float> ha = coarsen(a.histogram, k - ka);
  std::vector<float> hb = coarsen(b.histogram, k - kb);
  for (int64_t i = 0; i < cfg.bins; ++i)
    ha[i] += hb[i];
  a.histogram = std::move(ha);
  a.min = {std::min(a.min[0], b.min[0])};
  a.max = {std::max(a.max[0], b.max[0])};
  a.histMin = 0;
  a.histMax = static_cast<float>(std::ldexp(static_cast<double>(cfg.bins), k));
}

double detail::calibratorAmax(const ObserverState &st,
                              const ObserverConfig &cfg,
                              const QuantRange &range) {
  const double w = std::ldexp(1.0, *gridExp(st, cfg.bins));
  const int64_t used = usedBins(st.histogram);
  if (used == 0)
    return 0.0;
  if (cfg.kind == ObserverKind::Percentile)
    return percentileAmax(st.histogram, w, cfg.percentile);
  if (used <= kStartBin)
    return static_cast<double>(used) * w;
  const int64_t qlevels = range.qmax - range.qmin + 1;
  const bool unsignedData = cfg.qscheme == QScheme::Affine && st.min[0] >= 0;
  const int64_t levels = unsignedData ? qlevels : qlevels / 2;
  if (cfg.kind == ObserverKind::Entropy)
    return entropyAmax(st.histogram, used, w, levels);
  return mseAmax(st.histogram, used, w, levels);
}

Status detail::calibratorValidate(const ObserverState &st,
                                  const ObserverConfig &cfg) {
  if (st.histMin != 0)
    return Status::failure(
        "calibrator histogram must start at 0 (it counts |x|)");
  std::optional<int> k = gridExp(st, cfg.bins);
  if (!k || *k != selectExp(stateAmax(st), cfg.bins))
    return Status::failure(
        "calibrator histogram range [0, " + std::to_string(st.histMax) +
        "] is not bins * 2^k for the smallest k covering max|x|");
  return Status::success();
}
