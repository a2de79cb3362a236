//===- QTensor.cpp - Tensor views and shared argument checks --------------===//

#include "Common.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

using namespace quantc::ref;
using namespace quantc::ref::detail;
using quantc::Status;

int64_t QTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int32_t QTensor::get(int64_t i) const {
  if (isSigned)
    return static_cast<const int8_t *>(data)[i];
  return static_cast<const uint8_t *>(data)[i];
}

void QTensor::set(int64_t i, int32_t v) const {
  if (isSigned)
    static_cast<int8_t *>(data)[i] = static_cast<int8_t>(v);
  else
    static_cast<uint8_t *>(data)[i] = static_cast<uint8_t>(v);
}

Status QTensor::validate(const char *what, size_t rank) const {
  const std::string name(what);
  if (!data)
    return Status::failure(name + ": no data");
  if (shape.size() != rank)
    return Status::failure(name + ": expected rank " + std::to_string(rank) +
                           ", got shape " + shapeString(shape));
  for (int64_t d : shape)
    if (d < 1)
      return Status::failure(name + ": dimensions must be >= 1, got shape " +
                             shapeString(shape));
  if (!std::isfinite(scale) || !(scale > 0.0f))
    return Status::failure(name + ": scale must be finite and > 0");
  const int32_t storageMin = isSigned ? -128 : 0;
  const int32_t storageMax = isSigned ? 127 : 255;
  const std::string storage = isSigned ? "i8" : "u8";
  if (qmin < storageMin || qmax > storageMax || qmin > qmax)
    return Status::failure(name + ": [qmin, qmax] = [" + std::to_string(qmin) +
                           ", " + std::to_string(qmax) +
                           "] is not a range within " + storage);
  if (zeroPoint < storageMin || zeroPoint > storageMax)
    return Status::failure(name + ": zero point " + std::to_string(zeroPoint) +
                           " does not fit " + storage);
  return Status::success();
}

int64_t quantc::ref::windowOutputSize(int64_t in, int64_t kernel,
                                      int64_t stride, int64_t padBefore,
                                      int64_t padAfter, int64_t dilation) {
  const int64_t span = in + padBefore + padAfter - dilation * (kernel - 1) - 1;
  if (span < 0 || stride < 1)
    return -1;
  return span / stride + 1;
}

std::string
quantc::ref::detail::shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

Status quantc::ref::detail::checkShape(const char *what,
                                       const std::vector<int64_t> &shape,
                                       const std::vector<int64_t> &expected) {
  if (shape == expected)
    return Status::success();
  return Status::failure(std::string(what) + ": expected shape " +
                         shapeString(expected) + ", got " + shapeString(shape));
}

Status quantc::ref::detail::checkBroadcast(const char *what,
                                           const std::vector<int64_t> &shape,
                                           const std::vector<int64_t> &out) {
  bool ok = shape.size() == out.size();
  for (size_t d = 0; ok && d < shape.size(); ++d)
    ok = shape[d] == out[d] || shape[d] == 1;
  if (ok)
    return Status::success();
  return Status::failure(std::string(what) + ": shape " + shapeString(shape) +
                         " does not broadcast to " + shapeString(out));
}

quantc::ref::detail::BroadcastIndex::BroadcastIndex(
    const std::vector<int64_t> &shape, const std::vector<int64_t> &out)
    : out(out), strides(out.size(), 0), counter(out.size(), 0) {
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = shape[d] == 1 ? 0 : stride;
    stride *= shape[d];
  }
}

void quantc::ref::detail::BroadcastIndex::next() {
  for (size_t d = out.size(); d-- > 0;) {
    offset += strides[d];
    if (++counter[d] < out[d])
      return;
    offset -= strides[d] * counter[d];
    counter[d] = 0;
  }
}

Status quantc::ref::detail::checkMultiplier(const char *what, float m) {
  if (std::isfinite(m))
    return Status::success();
  return Status::failure(std::string(what) +
                         ": requantization multiplier overflows float32");
}

Status quantc::ref::detail::outputBounds(const FusedActivation &act,
                                         const QTensor &output,
                                         Bounds &bounds) {
  if (act.kind == Activation::Clamp &&
      (!std::isfinite(act.clampMin) || !std::isfinite(act.clampMax) ||
       act.clampMin > act.clampMax))
    return Status::failure("clamp bounds must be finite with min <= max");
  bounds = activationBounds(act.kind, act.clampMin, act.clampMax, output.scale,
                            output.zeroPoint, output.qmin, output.qmax);
  if (bounds.lo > bounds.hi)
    return Status::failure(
        "fused activation leaves no value in the output range");
  return Status::success();
}

Status quantc::ref::detail::checkWeights(const QWeights &weights, size_t rank) {
  if (!weights.data)
    return Status::failure("weights: no data");
  if (weights.shape.size() != rank)
    return Status::failure("weights: expected rank " + std::to_string(rank) +
                           ", got shape " + shapeString(weights.shape));
  for (int64_t d : weights.shape)
    if (d < 1)
      return Status::failure("weights: dimensions must be >= 1, got shape " +
                             shapeString(weights.shape));
  if (weights.scales.size() != 1 &&
      static_cast<int64_t>(weights.scales.size()) != weights.shape[0])
    return Status::failure("weights: expected 1 or " +
                           std::to_string(weights.shape[0]) + " scales, got " +
                           std::to_string(weights.scales.size()));
  for (float s : weights.scales)
    if (!std::isfinite(s) || !(s > 0.0f))
      return Status::failure("weights: scales must be finite and > 0");
  return Status::success();
}

Status quantc::ref::detail::checkAccumulatorRange(const QTensor &input,
                                                  const QWeights &weights,
                                                  const int32_t *bias,
                                                  int64_t channels,
                                                  int64_t perChannel) {
  const int64_t maxX =
      std::max(std::abs(static_cast<int64_t>(input.qmin) - input.zeroPoint),
               std::abs(static_cast<int64_t>(input.qmax) - input.zeroPoint));
  for (int64_t o = 0; o < channels; ++o) {
    int64_t bound = bias ? std::abs(static_cast<int64_t>(bias[o])) : 0;
    for (int64_t k = 0; k < perChannel; ++k)
      bound +=
          std::abs(static_cast<int64_t>(weights.data[o * perChannel + k])) *
          maxX;
    if (bound > std::numeric_limits<int32_t>::max())
      return Status::failure("accumulator of output channel " +
                             std::to_string(o) + " can overflow int32 (bound " +
                             std::to_string(bound) + ")");
  }
  return Status::success();
}
