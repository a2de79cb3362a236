//===- QParams.cpp - Quantization parameters from min/max ----------------===//
//
// PyTorch 1.13 `_calculate_qparams`, `_validate_qmin_qmax` and
// `calculate_qmin_qmax`, op by op in float32 so that results are bit-identical
// (every PyTorch tensor op rounds to float32; Python scalars are converted to
// float32 before they meet a float32 tensor).
//
//===----------------------------------------------------------------------===//

#include "quantc/Observers/QParams.h"

#include <cmath>

using namespace quantc::obs;
using quantc::Status;
using quantc::StatusOr;

const char *quantc::obs::toString(Dtype dtype) {
  return dtype == Dtype::QUInt8 ? "quint8" : "qint8";
}

const char *quantc::obs::toString(QScheme qscheme) {
  return qscheme == QScheme::Affine ? "affine" : "symmetric";
}

std::optional<Dtype> quantc::obs::parseDtype(const std::string &name) {
  if (name == "quint8")
    return Dtype::QUInt8;
  if (name == "qint8")
    return Dtype::QInt8;
  return std::nullopt;
}

std::optional<QScheme> quantc::obs::parseQScheme(const std::string &name) {
  if (name == "affine")
    return QScheme::Affine;
  if (name == "symmetric")
    return QScheme::Symmetric;
  return std::nullopt;
}

Status quantc::obs::validateQuantRange(Dtype dtype,
                                       std::optional<int64_t> quantMin,
                                       std::optional<int64_t> quantMax) {
  if (!quantMin && !quantMax)
    return Status::success();
  if (!quantMin || !quantMax)
    return Status::failure("quant_min and quant_max must be given together");
  int64_t qmin = *quantMin, qmax = *quantMax;
  if (!(qmin <= 0 && 0 <= qmax))
    return Status::failure(
        "user-specified quantization range must include 0, got [" +
        std::to_string(qmin) + ", " + std::to_string(qmax) + "]");
  if (!(qmin < qmax))
    return Status::failure(
        "qmin must be strictly less than qmax for user-specified "
        "quantization range, got [" +
        std::to_string(qmin) + ", " + std::to_string(qmax) + "]");
  if (qmax - qmin + 1 > 256)
    return Status::failure(
        "quantization range should be positive and not exceed the maximum "
        "bit range (=256), got [" +
        std::to_string(qmin) + ", " + std::to_string(qmax) + "]");
  int64_t lo = dtype == Dtype::QUInt8 ? 0 : -128;
  int64_t hi = dtype == Dtype::QUInt8 ? 255 : 127;
  if (qmin < lo || qmax > hi)
    return Status::failure("quantization range [" + std::to_string(qmin) +
                           ", " + std::to_string(qmax) + "] does not fit " +
                           toString(dtype) + " [" + std::to_string(lo) + ", " +
                           std::to_string(hi) + "]");
  return Status::success();
}

/// Python's floor division by 2.
static int64_t floorHalf(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

QuantRange quantc::obs::effectiveQuantRange(Dtype dtype, bool reduceRange,
                                            std::optional<int64_t> quantMin,
                                            std::optional<int64_t> quantMax) {
  QuantRange r;
  if (quantMin && quantMax) {
    r.customized = true;
    r.qmin = *quantMin;
    r.qmax = *quantMax;
    if (reduceRange) {
      r.qmin = floorHalf(r.qmin);
      r.qmax = floorHalf(r.qmax);
    }
    return r;
  }
  if (dtype == Dtype::QInt8) {
    r.qmin = reduceRange ? -64 : -128;
    r.qmax = reduceRange ? 63 : 127;
  } else {
    r.qmin = 0;
    r.qmax = reduceRange ? 127 : 255;
  }
  return r;
}

StatusOr<QParams>
quantc::obs::calculateQParams(const std::vector<float> &minVals,
                              const std::vector<float> &maxVals, Dtype dtype,
                              QScheme qscheme, const QuantRange &range,
                              float eps, bool perChannel) {
  if (minVals.size() != maxVals.size())
    return Status::failure("min and max have different sizes");
  if (minVals.empty())
    return Status::failure("no min/max values: the observer has not run");
  if (!perChannel && minVals.size() != 1)
    return Status::failure("per-tensor qparams need exactly one min/max pair");
  // PyTorch's check_min_max_valid: an unobserved per-tensor pair (+inf, -inf)
  // returns the defaults instead of failing.
  if (!perChannel && minVals[0] == INFINITY && maxVals[0] == -INFINITY)
    return QParams{{1.0f}, {0}};
  for (size_t i = 0; i < minVals.size(); ++i)
    if (!(minVals[i] <= maxVals[i]))
      return Status::failure(
          "min " + std::to_string(minVals[i]) + " should be less than max " +
          std::to_string(maxVals[i]) + " (channel " + std::to_string(i) + ")");

  const int64_t qmin = range.qmin, qmax = range.qmax;
  QParams out;
  out.scale.reserve(minVals.size());
  out.zeroPoint.reserve(minVals.size());
  for (size_t i = 0; i < minVals.size(); ++i) {
    float minNeg = std::min(minVals[i], 0.0f);
    float maxPos = std::max(maxVals[i], 0.0f);
    float scale;
    int64_t zp = 0;
    if (qscheme == QScheme::Symmetric) {
      maxPos = std::max(-minNeg, maxPos);
      // float(quant_max - quant_min) / 2 is a Python float, rounded to float32
      // when it meets the float32 tensor.
      float half = static_cast<float>(static_cast<double>(qmax - qmin) / 2);
      scale = std::max(maxPos / half, eps);
      if (dtype == Dtype::QUInt8) {
        int64_t sum = qmin + qmax;
        zp = range.customized ? (sum >= 0 ? sum / 2 : -((-sum + 1) / 2)) : 128;
      }
    } else {
      scale = (maxPos - minNeg) / static_cast<float>(qmax - qmin);
      scale = std::max(scale, eps);
      // torch.round rounds half to even (the default FE_TONEAREST mode), then
      // .to(torch.int) truncates the already integral float.
      float q = std::nearbyint(minNeg / scale);
      zp = qmin - static_cast<int64_t>(static_cast<int32_t>(q));
      zp = std::min(std::max(zp, qmin), qmax);
    }
    out.scale.push_back(scale);
    out.zeroPoint.push_back(static_cast<int32_t>(zp));
  }
  return out;
}

QParams quantc::obs::fixedQParams(double min, double max,
                                  const QuantRange &range) {
  double scale = (max - min) / static_cast<double>(range.qmax - range.qmin + 1);
  QParams p;
  p.scale = {static_cast<float>(scale)};
  p.zeroPoint = {static_cast<int32_t>(range.qmin - std::llround(min / scale))};
  return p;
}
