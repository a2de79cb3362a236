//===- Requantize.cpp - The scalar int8 arithmetic ------------------------===//
//
// Definitions documented in quantc/Reference/Requantize.h. Built with
// -ffp-contract=off: every float32 operation rounds on its own.
//
//===----------------------------------------------------------------------===//

#include "quantc/Reference/Requantize.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace quantc::ref;

int64_t quantc::ref::roundHalfEven(float v) {
  if (std::isnan(v))
    return 0;
  // 2^63 is exactly representable; every float below it converts exactly
  // once rounded (floats >= 2^23 are integers already).
  constexpr float kTwo63 = 9223372036854775808.0f;
  if (v >= kTwo63)
    return std::numeric_limits<int64_t>::max();
  if (v < -kTwo63)
    return std::numeric_limits<int64_t>::min();
  // The default floating-point environment rounds to nearest even.
  return static_cast<int64_t>(std::nearbyint(v));
}

float quantc::ref::requantMultiplier(float inScale, float wScale,
                                     float outScale) {
  return static_cast<float>(static_cast<double>(inScale) *
                            static_cast<double>(wScale) /
                            static_cast<double>(outScale));
}

float quantc::ref::avgPoolMultiplier(float inScale, float outScale,
                                     int64_t count) {
  return static_cast<float>(
      static_cast<double>(inScale) /
      (static_cast<double>(outScale) * static_cast<double>(count)));
}

/// clamp(r + zeroPoint, lo, hi) without overflow: clamps r to the range
/// shifted by -zeroPoint (exact in int64) before adding.
static int32_t addZeroPointAndClamp(int64_t r, int32_t zeroPoint, int32_t lo,
                                    int32_t hi) {
  const int64_t l = static_cast<int64_t>(lo) - zeroPoint;
  const int64_t h = static_cast<int64_t>(hi) - zeroPoint;
  r = std::max(l, std::min(h, r));
  return static_cast<int32_t>(r + zeroPoint);
}

int32_t quantc::ref::requantize(int32_t acc, float multiplier,
                                int32_t zeroPoint, int32_t lo, int32_t hi) {
  const float v = static_cast<float>(acc) * multiplier;
  return addZeroPointAndClamp(roundHalfEven(v), zeroPoint, lo, hi);
}

int32_t quantc::ref::requantize2(int32_t a, float ma, int32_t b, float mb,
                                 int32_t zeroPoint, int32_t lo, int32_t hi) {
  const float t1 = static_cast<float>(a) * ma;
  const float t2 = static_cast<float>(b) * mb;
  const float v = t1 + t2;
  return addZeroPointAndClamp(roundHalfEven(v), zeroPoint, lo, hi);
}

int64_t quantc::ref::quantizeUnclamped(float x, float scale,
                                       int32_t zeroPoint) {
  const float invScale = 1.0f / scale;
  const int64_t r = roundHalfEven(x * invScale);
  // Saturating add (r may be the int64 limit).
  if (zeroPoint > 0 && r > std::numeric_limits<int64_t>::max() - zeroPoint)
    return std::numeric_limits<int64_t>::max();
  if (zeroPoint < 0 && r < std::numeric_limits<int64_t>::min() - zeroPoint)
    return std::numeric_limits<int64_t>::min();
  return r + zeroPoint;
}

int32_t quantc::ref::quantize(float x, float scale, int32_t zeroPoint,
                              int32_t qmin, int32_t qmax) {
  const int64_t q = quantizeUnclamped(x, scale, zeroPoint);
  return static_cast<int32_t>(
      std::max<int64_t>(qmin, std::min<int64_t>(qmax, q)));
}

std::optional<int32_t> quantc::ref::quantizeBias(float bias, float inScale,
                                                 float wScale) {
  const double scale = double(inScale) * double(wScale);
  const double q = std::nearbyint(double(bias) / scale);
  if (!(q >= double(std::numeric_limits<int32_t>::min()) &&
        q <= double(std::numeric_limits<int32_t>::max())))
    return std::nullopt;
  return static_cast<int32_t>(q);
}

float quantc::ref::dequantize(int32_t q, float scale, int32_t zeroPoint) {
  // q - zeroPoint has at most 25 significant bits for 8-bit data; computed
  // in int64 and converted once for any int32 input.
  const float d = static_cast<float>(static_cast<int64_t>(q) - zeroPoint);
  return d * scale;
}

Bounds quantc::ref::activationBounds(Activation act, float clampMin,
                                     float clampMax, float scale,
                                     int32_t zeroPoint, int32_t qmin,
                                     int32_t qmax) {
  // [lo, hi] intersected with [qmin, qmax]; empty (lo > hi) when disjoint.
  auto intersect = [&](int64_t lo, int64_t hi) {
    constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
    constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
    Bounds b;
    b.lo = static_cast<int32_t>(std::max<int64_t>(qmin, std::min(lo, kMax)));
    b.hi = static_cast<int32_t>(std::min<int64_t>(qmax, std::max(hi, kMin)));
    return b;
  };
  switch (act) {
  case Activation::None:
    return intersect(qmin, qmax);
  case Activation::Relu:
    return intersect(zeroPoint, qmax);
  case Activation::Relu6:
    return intersect(zeroPoint, quantizeUnclamped(6.0f, scale, zeroPoint));
  case Activation::Clamp:
    return intersect(quantizeUnclamped(clampMin, scale, zeroPoint),
                     quantizeUnclamped(clampMax, scale, zeroPoint));
  }
  return intersect(qmin, qmax);
}
