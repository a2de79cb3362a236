//===- Histogram.cpp - PyTorch 1.13 HistogramObserver
//----------------------===//
//
// HistogramObserver.forward (`_adjust_min_max`, `_combine_histograms`),
// `_non_linear_param_search` and `_compute_quantization_error`, reproduced
// op by op with PyTorch's dtypes: float32 tensors, Python doubles for
// `.item()` values, a double cumulative sum when combining histograms.
//
// Quirks of 1.13 kept on purpose (they decide the bits):
//  - torch.histc gets int(min)/int(max), i.e. the bounds truncated to
//    integers, while the buffer records the float range. Values outside the
//    truncated bounds are dropped from that batch's counts; if the truncated
//    bounds coincide, histc falls back to the batch's own min/max.
//  - A state whose min equals its max is discarded by the next batch.
//  - Bounds that do not fit int64 make PyTorch raise; observe() reports an
//    error instead.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace quantc::obs;
using quantc::Status;
using quantc::StatusOr;
using namespace quantc::obs::detail;

namespace {
/// `_combine_histograms`: upsample `prev` by `up`, place it at `startIdx` in
/// a zero array of bins * down elements, take the double cumulative sum at
/// every `down`-th element, difference and divide by `up`. The zero array is
/// never built: adding 0.0 leaves the running sum unchanged, so walking only
/// the upsampled elements in order gives the same doubles.
void combineInto(std::vector<float> &hist, const std::vector<float> &prev,
                 int64_t up, int64_t down, int64_t startIdx) {
  const int64_t bins = static_cast<int64_t>(hist.size());
  const int64_t total = bins * down;
  // PyTorch raises a shape mismatch if the upsampled block overruns the
  // array; we keep the part that fits.
  const int64_t end = std::min(startIdx + bins * up, total);
  std::vector<double> integral(bins);
  double acc = 0;
  int64_t k = 0;
  for (int64_t p = std::max<int64_t>(startIdx, 0); p < end; ++p) {
    while (k < bins && (k + 1) * down - 1 < p)
      integral[k++] = acc;
    acc += prev[(p - startIdx) / up];
  }
  while (k < bins)
    integral[k++] = acc;
  for (int64_t i = 0; i < bins; ++i) {
    // The shifted copy lives in a float32 tensor.
    double shifted = i == 0 ? 0.0 : static_cast<float>(integral[i - 1]);
    float interp = static_cast<float>((integral[i] - shifted) / up);
    hist[i] = hist[i] + interp;
  }
}

Status boundsError(float lo, float hi) {
  if (pythonIntOfFloat(lo) && pythonIntOfFloat(hi))
    return Status::success();
  return Status::failure(
      "histogram observer: range [" + std::to_string(lo) + ", " +
      std::to_string(hi) +
      "] does not fit int64 (PyTorch 1.13 passes int(min), int(max) to "
      "torch.histc and fails)");
}
} // namespace

Status detail::histogramObserve(ObserverState &st, const ObserverConfig &cfg,
                                const float *x, int64_t n, float bmin,
                                float bmax) {
  const int64_t bins = cfg.bins;
  if (st.batches == 0 || st.min[0] == st.max[0]) {
    QUANTC_TRY(boundsError(bmin, bmax));
    st.histogram = torchHistc(x, n, bins, *pythonIntOfFloat(bmin),
                              *pythonIntOfFloat(bmax));
    st.min = {bmin};
    st.max = {bmax};
  } else {
    const float minVal = st.min[0], maxVal = st.max[0];
    float cmin = std::min(bmin, minVal), cmax = std::max(bmax, maxVal);
    // _adjust_min_max.
    const float hbw =
        (maxVal - minVal) / static_cast<float>(bins * cfg.upsampleRate);
    const float coarse = static_cast<float>(bins) * hbw;
    const double downF = std::ceil((cmax - cmin) / coarse);
    if (!(downF >= 1 &&
          downF <= static_cast<double>(std::numeric_limits<int64_t>::max() /
                                       (2 * bins))))
      return Status::failure(
          "histogram observer: new range is too wide relative "
          "to the old one to combine the histograms");
    const int64_t down = static_cast<int64_t>(downF);
    const float e = static_cast<float>(down) * coarse - (cmax - cmin);
    cmax = cmax + e;
    const auto startIdx =
        static_cast<int64_t>(std::nearbyint((minVal - cmin) / hbw));
    QUANTC_TRY(boundsError(cmin, cmax));
    std::vector<float> hist = torchHistc(x, n, bins, *pythonIntOfFloat(cmin),
                                         *pythonIntOfFloat(cmax));
    if (cmin == minVal && cmax == maxVal) {
      for (int64_t i = 0; i < bins; ++i)
        hist[i] += st.histogram[i];
    } else {
      combineInto(hist, st.histogram, cfg.upsampleRate, down, startIdx);
    }
    st.histogram = std::move(hist);
    st.min = {cmin};
    st.max = {cmax};
  }
  st.histMin = st.min[0];
  st.histMax = st.max[0];
  return Status::success();
}

namespace {
/// `_compute_quantization_error(start, end)`: the L2 error of quantizing the
/// histogram to `dstBins` levels over source bins [start, end].
double quantizationError(const ObserverState &st, int64_t dstBins,
                         int64_t start, int64_t end, std::vector<float> &norm) {
  const int64_t bins = static_cast<int64_t>(st.histogram.size());
  const double bw = (static_cast<double>(st.max[0]) - st.min[0]) / bins;
  const double dbw = bw * static_cast<double>(end - start + 1) / dstBins;
  if (dbw == 0.0)
    return 0.0;
  const float bwF = static_cast<float>(bw), dbwF = static_cast<float>(dbw);
  const float halfF = static_cast<float>(dbw / 2);
  const float negHalfF = static_cast<float>(-dbw / 2);
  const float lastDst = static_cast<float>(dstBins - 1);
  // _get_norm(-dbw/2, dbw/2, density) / density, on 0-dim float32 tensors.
  const float fullNorm =
      (halfF * halfF * halfF - negHalfF * negHalfF * negHalfF) / 3.0f;
  for (int64_t i = 0; i < bins; ++i) {
    float srcBegin = static_cast<float>(i - start) * bwF;
    float srcEnd = srcBegin + bwF;
    float dstBegin =
        std::min(std::max(torchDivFloor(srcBegin, dbwF), 0.0f), lastDst);
    float dstBeginCenter = (dstBegin + 0.5f) * dbwF;
    float dstEnd =
        std::min(std::max(torchDivFloor(srcEnd, dbwF), 0.0f), lastDst);
    float density = st.histogram[i] / bwF;
    float v = 0.0f;
    float db = srcBegin - dstBeginCenter, de = halfF;
    v = v + density * ((de * de * de - db * db * db) / 3.0f);
    v = v + (dstEnd - dstBegin - 1.0f) * (density * fullNorm);
    float dstEndCenter = dstEnd * dbwF + halfF;
    db = negHalfF;
    de = srcEnd - dstEndCenter;
    v = v + density * ((de * de * de - db * db * db) / 3.0f);
    norm[i] = v;
  }
  return torchSum(norm.data(), bins);
}
} // namespace

std::pair<float, float> detail::histogramSearch(const ObserverState &st,
                                                const ObserverConfig &cfg,
                                                int64_t dstBins) {
  const int64_t bins = cfg.bins;
  const std::vector<float> &hist = st.histogram;
  const float minVal = st.min[0], maxVal = st.max[0];
  const float binWidth = (maxVal - minVal) / static_cast<float>(bins);
  const double total = torchSum(hist.data(), bins);
  // torch.cumsum on CPU accumulates float32 in double.
  std::vector<float> cSum(bins);
  double run = 0;
  for (int64_t i = 0; i < bins; ++i)
    cSum[i] = static_cast<float>(run += hist[i]);

  std::vector<float> norm(bins);
  const double stepsize = 1e-5;
  double alpha = 0.0, beta = 1.0, normMin = INFINITY;
  int64_t startBin = 0, endBin = bins - 1;
  while (alpha < beta) {
    const double nextAlpha = alpha + stepsize, nextBeta = beta - stepsize;
    // Tensor-vs-Python-float comparisons happen in float32.
    const float lo = static_cast<float>(nextAlpha * total);
    const float hi = static_cast<float>(nextBeta * total);
    int64_t l = startBin, r = endBin;
    while (l < endBin && cSum[l] < lo)
      ++l;
    while (r > startBin && cSum[r] > hi)
      --r;
    int64_t nextStart = startBin, nextEnd = endBin;
    if ((l - startBin) > (endBin - r)) {
      nextStart = l;
      alpha = nextAlpha;
    } else {
      nextEnd = r;
      beta = nextBeta;
    }
    if (nextStart == startBin && nextEnd == endBin)
      continue;
    const double err = quantizationError(st, dstBins, nextStart, nextEnd, norm);
    if (err > normMin)
      break;
    normMin = err;
    startBin = nextStart;
    endBin = nextEnd;
  }
  return {minVal + binWidth * static_cast<float>(startBin),
          minVal + binWidth * static_cast<float>(endBin + 1)};
}

namespace {
/// Redistributes `hist` over [lo, hi] onto `bins` bins over [tlo, thi] by
/// overlap length, in double. A degenerate source range puts all mass in the
/// target bin containing `lo`.
std::vector<double> rebin(const std::vector<float> &hist, double lo, double hi,
                          double tlo, double thi) {
  const int64_t bins = static_cast<int64_t>(hist.size());
  std::vector<double> out(bins, 0.0);
  const double tw = (thi - tlo) / bins;
  auto targetBin = [&](double v) {
    if (!(tw > 0))
      return int64_t(0);
    auto b = static_cast<int64_t>(std::floor((v - tlo) / tw));
    return std::min(std::max<int64_t>(b, 0), bins - 1);
  };
  if (!(hi > lo)) {
    double sum = 0;
    for (float h : hist)
      sum += h;
    out[targetBin(lo)] += sum;
    return out;
  }
  const double sw = (hi - lo) / bins;
  for (int64_t i = 0; i < bins; ++i) {
    if (hist[i] == 0)
      continue;
    const double b = lo + i * sw, e = lo + (i + 1) * sw;
    for (int64_t t = targetBin(b), tEnd = targetBin(e); t <= tEnd; ++t) {
      // The outer target bins extend to infinity so no mass is lost.
      const double tb = t == 0 ? -INFINITY : tlo + t * tw;
      const double te = t == bins - 1 ? INFINITY : tlo + (t + 1) * tw;
      const double overlap = std::min(e, te) - std::max(b, tb);
      if (overlap > 0)
        out[t] += hist[i] * (overlap / sw);
    }
  }
  return out;
}
} // namespace

void detail::histogramMerge(ObserverState &a, const ObserverState &b,
                            const ObserverConfig &cfg) {
  const float lo = std::min(a.min[0], b.min[0]);
  const float hi = std::max(a.max[0], b.max[0]);
  if (a.min[0] == b.min[0] && a.max[0] == b.max[0]) {
    for (int64_t i = 0; i < cfg.bins; ++i)
      a.histogram[i] = a.histogram[i] + b.histogram[i];
  } else {
    std::vector<double> ra = rebin(a.histogram, a.min[0], a.max[0], lo, hi);
    std::vector<double> rb = rebin(b.histogram, b.min[0], b.max[0], lo, hi);
    for (int64_t i = 0; i < cfg.bins; ++i)
      a.histogram[i] = static_cast<float>(ra[i]) + static_cast<float>(rb[i]);
  }
  a.min = {lo};
  a.max = {hi};
  a.histMin = lo;
  a.histMax = hi;
}
