//===- Elementwise.cpp - Reference add, concat, quantize, dequantize ------===//

#include "Common.h"

#include <algorithm>
#include <cmath>

using namespace quantc::ref;
using namespace quantc::ref::detail;
using quantc::Status;

namespace {

/// The checks of a binary op: ranks, broadcasting, output bounds.
Status checkBinary(const QTensor &a, const QTensor &b,
                   const FusedActivation &activation, const QTensor &output,
                   Bounds &bounds) {
  const size_t rank = output.shape.size();
  QUANTC_TRY(a.validate("lhs", rank));
  QUANTC_TRY(b.validate("rhs", rank));
  QUANTC_TRY(output.validate("output", rank));
  QUANTC_TRY(checkBroadcast("lhs", a.shape, output.shape));
  QUANTC_TRY(checkBroadcast("rhs", b.shape, output.shape));
  return outputBounds(activation, output, bounds);
}

/// Calls fn(out index, a value, b value) for every output element.
template <typename Fn>
void forEachBroadcast(const QTensor &a, const QTensor &b, const QTensor &output,
                      Fn fn) {
  BroadcastIndex ia(a.shape, output.shape), ib(b.shape, output.shape);
  const int64_t count = output.numElements();
  for (int64_t i = 0; i < count; ++i, ia.next(), ib.next())
    fn(i, a.get(*ia), b.get(*ib));
}

} // namespace

Status quantc::ref::add(const QTensor &a, const QTensor &b,
                        const FusedActivation &activation,
                        const QTensor &output, bool subtract) {
  Bounds bounds;
  QUANTC_TRY(checkBinary(a, b, activation, output, bounds));
  const float ma = requantMultiplier(a.scale, 1.0f, output.scale);
  const float mb = requantMultiplier(b.scale, 1.0f, output.scale);
  QUANTC_TRY(checkMultiplier("lhs", ma));
  QUANTC_TRY(checkMultiplier("rhs", mb));
  const float signedMb = subtract ? -mb : mb;
  forEachBroadcast(a, b, output, [&](int64_t i, int32_t x, int32_t y) {
    output.set(i, requantize2(x - a.zeroPoint, ma, y - b.zeroPoint, signedMb,
                              output.zeroPoint, bounds.lo, bounds.hi));
  });
  return Status::success();
}

Status quantc::ref::mul(const QTensor &a, const QTensor &b,
                        const FusedActivation &activation,
                        const QTensor &output) {
  Bounds bounds;
  QUANTC_TRY(checkBinary(a, b, activation, output, bounds));
  const float m = requantMultiplier(a.scale, b.scale, output.scale);
  QUANTC_TRY(checkMultiplier("output", m));
  forEachBroadcast(a, b, output, [&](int64_t i, int32_t x, int32_t y) {
    output.set(i, requantize((x - a.zeroPoint) * (y - b.zeroPoint), m,
                             output.zeroPoint, bounds.lo, bounds.hi));
  });
  return Status::success();
}

Status quantc::ref::channelAffine(const QTensor &input,
                                  const std::vector<float> &multipliers,
                                  const std::vector<float> &offsets,
                                  const FusedActivation &activation,
                                  const QTensor &output) {
  const size_t rank = output.shape.size();
  if (rank < 1)
    return Status::failure("output: channel_affine needs rank >= 1");
  QUANTC_TRY(input.validate("input", rank));
  QUANTC_TRY(output.validate("output", rank));
  QUANTC_TRY(checkShape("input", input.shape, output.shape));
  const int64_t channels = output.shape.back();
  if (static_cast<int64_t>(multipliers.size()) != channels ||
      static_cast<int64_t>(offsets.size()) != channels)
    return Status::failure("expected " + std::to_string(channels) +
                           " multipliers and offsets, got " +
                           std::to_string(multipliers.size()) + " and " +
                           std::to_string(offsets.size()));
  for (size_t c = 0; c < multipliers.size(); ++c) {
    QUANTC_TRY(checkMultiplier("multiplier", multipliers[c]));
    QUANTC_TRY(checkMultiplier("offset", offsets[c]));
  }
  Bounds bounds;
  QUANTC_TRY(outputBounds(activation, output, bounds));
  const int64_t count = output.numElements();
  for (int64_t i = 0; i < count; ++i) {
    const int64_t c = i % channels;
    output.set(i,
               requantize2(input.get(i) - input.zeroPoint, multipliers[c], 1,
                           offsets[c], output.zeroPoint, bounds.lo, bounds.hi));
  }
  return Status::success();
}

Status quantc::ref::batchNormAffine(
    const std::vector<float> &gamma, const std::vector<float> &beta,
    const std::vector<float> &mean, const std::vector<float> &var,
    double epsilon, float inScale, float outScale,
    std::vector<float> &multipliers, std::vector<float> &offsets) {
  const size_t channels = gamma.size();
  if (beta.size() != channels || mean.size() != channels ||
      var.size() != channels)
    return Status::failure(
        "batch norm: gamma, beta, mean and var sizes differ");
  multipliers.clear();
  offsets.clear();
  for (size_t c = 0; c < channels; ++c) {
    const double a = double(gamma[c]) / std::sqrt(double(var[c]) + epsilon);
    const double b = double(beta[c]) - double(mean[c]) * a;
    multipliers.push_back(
        static_cast<float>(double(inScale) * a / double(outScale)));
    offsets.push_back(static_cast<float>(b / double(outScale)));
    if (!std::isfinite(multipliers.back()) || !std::isfinite(offsets.back()))
      return Status::failure("batch norm: channel " + std::to_string(c) +
                             " has a non-finite scale or shift");
  }
  return Status::success();
}

int32_t quantc::ref::lookupEntry(double y, const QTensor &output) {
  double v = std::nearbyint(y / double(output.scale));
  if (std::isnan(v))
    v = 0.0;
  v = std::clamp(v + double(output.zeroPoint), double(output.qmin),
                 double(output.qmax));
  return static_cast<int32_t>(v);
}

Status quantc::ref::lookup(const QTensor &input,
                           const std::vector<int32_t> &table,
                           const QTensor &output) {
  const size_t rank = output.shape.size();
  QUANTC_TRY(input.validate("input", rank));
  QUANTC_TRY(output.validate("output", rank));
  QUANTC_TRY(checkShape("input", input.shape, output.shape));
  const int64_t channels = rank ? output.shape.back() : 1;
  const int64_t tables = static_cast<int64_t>(table.size()) / kTableSize;
  if (static_cast<int64_t>(table.size()) % kTableSize != 0 ||
      (tables != 1 && tables != channels))
    return Status::failure("table: expected " + std::to_string(kTableSize) +
                           " or " + std::to_string(channels * kTableSize) +
                           " entries, got " + std::to_string(table.size()));
  for (int32_t v : table)
    if (v < output.qmin || v > output.qmax)
      return Status::failure("table: entry " + std::to_string(v) +
                             " outside the output's [" +
                             std::to_string(output.qmin) + ", " +
                             std::to_string(output.qmax) + "]");
  const int32_t storageMin = input.isSigned ? -128 : 0;
  const int64_t count = output.numElements();
  for (int64_t i = 0; i < count; ++i) {
    const int64_t t = tables == 1 ? 0 : i % channels;
    output.set(i, table[t * kTableSize + (input.get(i) - storageMin)]);
  }
  return Status::success();
}

Status quantc::ref::concat(const std::vector<QTensor> &inputs, int64_t axis,
                           const QTensor &output) {
  if (inputs.empty())
    return Status::failure("concat needs at least one input");
  const size_t rank = output.shape.size();
  if (rank < 1)
    return Status::failure("output: concat needs rank >= 1");
  if (axis < 0 || axis >= static_cast<int64_t>(rank))
    return Status::failure("axis " + std::to_string(axis) + " outside [0, " +
                           std::to_string(rank) + ")");
  QUANTC_TRY(output.validate("output", rank));
  int64_t total = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string what = "input " + std::to_string(i);
    QUANTC_TRY(inputs[i].validate(what.c_str(), rank));
    std::vector<int64_t> expected = output.shape;
    expected[axis] = inputs[i].shape[axis];
    QUANTC_TRY(checkShape(what.c_str(), inputs[i].shape, expected));
    QUANTC_TRY(checkMultiplier(
        what.c_str(), requantMultiplier(inputs[i].scale, 1.0f, output.scale)));
    total += inputs[i].shape[axis];
  }
  if (total != output.shape[axis])
    return Status::failure("output: expected " + std::to_string(total) +
                           " along axis " + std::to_string(axis) +
                           " (the inputs' sum), got " +
                           std::to_string(output.shape[axis]));
  // rows = the dimensions before the axis; each row of an input is one
  // contiguous run that lands at its column offset in the output's row.
  int64_t inner = 1;
  for (size_t d = axis + 1; d < rank; ++d)
    inner *= output.shape[d];
  const int64_t outCols = total * inner;
  const int64_t rows = output.numElements() / outCols;
  int64_t offset = 0;
  for (const QTensor &in : inputs) {
    const int64_t cols = in.shape[axis] * inner;
    const bool same =
        in.scale == output.scale && in.zeroPoint == output.zeroPoint;
    const float m = requantMultiplier(in.scale, 1.0f, output.scale);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < cols; ++j) {
        const int32_t v = in.get(r * cols + j);
        output.set(r * outCols + offset + j,
                   same ? std::max(output.qmin, std::min(output.qmax, v))
                        : requantize(v - in.zeroPoint, m, output.zeroPoint,
                                     output.qmin, output.qmax));
      }
    offset += cols;
  }
  return Status::success();
}

Status quantc::ref::quantizeTensor(const float *input, const QTensor &output) {
  if (!input)
    return Status::failure("input: no data");
  QUANTC_TRY(output.validate("output", output.shape.size()));
  const int64_t count = output.numElements();
  for (int64_t i = 0; i < count; ++i)
    output.set(i, quantize(input[i], output.scale, output.zeroPoint,
                           output.qmin, output.qmax));
  return Status::success();
}

Status quantc::ref::dequantizeTensor(const QTensor &input, float *output) {
  if (!output)
    return Status::failure("output: no data");
  QUANTC_TRY(input.validate("input", input.shape.size()));
  const int64_t count = input.numElements();
  for (int64_t i = 0; i < count; ++i)
    output[i] = dequantize(input.get(i), input.scale, input.zeroPoint);
  return Status::success();
}
