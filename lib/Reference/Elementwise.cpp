//===- Elementwise.cpp - Reference add, concat, quantize, dequantize ------===//

#include "Common.h"

#include <algorithm>
#include <cmath>

using namespace quantc::ref;
using namespace quantc::ref::detail;

namespace {

/// The checks of a binary op: ranks, broadcasting, output bounds.
Error checkBinary(const QTensor &a, const QTensor &b,
                  const FusedActivation &activation, const QTensor &output,
                  Bounds &bounds) {
  const size_t rank = output.shape.size();
  if (Error e = a.validate("lhs", rank))
    return e;
  if (Error e = b.validate("rhs", rank))
    return e;
  if (Error e = output.validate("output", rank))
    return e;
  if (Error e = checkBroadcast("lhs", a.shape, output.shape))
    return e;
  if (Error e = checkBroadcast("rhs", b.shape, output.shape))
    return e;
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

Error quantc::ref::add(const QTensor &a, const QTensor &b,
                       const FusedActivation &activation, const QTensor &output,
                       bool subtract) {
  Bounds bounds;
  if (Error e = checkBinary(a, b, activation, output, bounds))
    return e;
  const float ma = requantMultiplier(a.scale, 1.0f, output.scale);
  const float mb = requantMultiplier(b.scale, 1.0f, output.scale);
  if (Error e = checkMultiplier("lhs", ma))
    return e;
  if (Error e = checkMultiplier("rhs", mb))
    return e;
  const float signedMb = subtract ? -mb : mb;
  forEachBroadcast(a, b, output, [&](int64_t i, int32_t x, int32_t y) {
    output.set(i, requantize2(x - a.zeroPoint, ma, y - b.zeroPoint, signedMb,
                              output.zeroPoint, bounds.lo, bounds.hi));
  });
  return std::nullopt;
}

Error quantc::ref::mul(const QTensor &a, const QTensor &b,
                       const FusedActivation &activation,
                       const QTensor &output) {
  Bounds bounds;
  if (Error e = checkBinary(a, b, activation, output, bounds))
    return e;
  const float m = requantMultiplier(a.scale, b.scale, output.scale);
  if (Error e = checkMultiplier("output", m))
    return e;
  forEachBroadcast(a, b, output, [&](int64_t i, int32_t x, int32_t y) {
    output.set(i, requantize((x - a.zeroPoint) * (y - b.zeroPoint), m,
                             output.zeroPoint, bounds.lo, bounds.hi));
  });
  return std::nullopt;
}

Error quantc::ref::channelAffine(const QTensor &input,
                                 const std::vector<float> &multipliers,
                                 const std::vector<float> &offsets,
                                 const FusedActivation &activation,
                                 const QTensor &output) {
  const size_t rank = output.shape.size();
  if (rank < 1)
    return std::string("output: channel_affine needs rank >= 1");
  if (Error e = input.validate("input", rank))
    return e;
  if (Error e = output.validate("output", rank))
    return e;
  if (Error e = checkShape("input", input.shape, output.shape))
    return e;
  const int64_t channels = output.shape.back();
  if (static_cast<int64_t>(multipliers.size()) != channels ||
      static_cast<int64_t>(offsets.size()) != channels)
    return "expected " + std::to_string(channels) +
           " multipliers and offsets, got " +
           std::to_string(multipliers.size()) + " and " +
           std::to_string(offsets.size());
  for (size_t c = 0; c < multipliers.size(); ++c) {
    if (Error e = checkMultiplier("multiplier", multipliers[c]))
      return e;
    if (Error e = checkMultiplier("offset", offsets[c]))
      return e;
  }
  Bounds bounds;
  if (Error e = outputBounds(activation, output, bounds))
    return e;
  const int64_t count = output.numElements();
  for (int64_t i = 0; i < count; ++i) {
    const int64_t c = i % channels;
    output.set(i,
               requantize2(input.get(i) - input.zeroPoint, multipliers[c], 1,
                           offsets[c], output.zeroPoint, bounds.lo, bounds.hi));
  }
  return std::nullopt;
}

Error quantc::ref::batchNormAffine(
    const std::vector<float> &gamma, const std::vector<float> &beta,
    const std::vector<float> &mean, const std::vector<float> &var,
    double epsilon, float inScale, float outScale,
    std::vector<float> &multipliers, std::vector<float> &offsets) {
  const size_t channels = gamma.size();
  if (beta.size() != channels || mean.size() != channels ||
      var.size() != channels)
    return std::string("batch norm: gamma, beta, mean and var sizes differ");
  multipliers.clear();
  offsets.clear();
  for (size_t c = 0; c < channels; ++c) {
    const double a = double(gamma[c]) / std::sqrt(double(var[c]) + epsilon);
    const double b = double(beta[c]) - double(mean[c]) * a;
    multipliers.push_back(
        static_cast<float>(double(inScale) * a / double(outScale)));
    offsets.push_back(static_cast<float>(b / double(outScale)));
    if (!std::isfinite(multipliers.back()) || !std::isfinite(offsets.back()))
      return "batch norm: channel " + std::to_string(c) +
             " has a non-finite scale or shift";
  }
  return std::nullopt;
}

int32_t quantc::ref::lookupEntry(double y, const QTensor &output) {
  double v = std::nearbyint(y / double(output.scale));
  if (std::isnan(v))
    v = 0.0;
  v = std::clamp(v + double(output.zeroPoint), double(output.qmin),
                 double(output.qmax));
  return static_cast<int32_t>(v);
}

Error quantc::ref::lookup(const QTensor &input,
                          const std::vector<int32_t> &table,
                          const QTensor &output) {
  const size_t rank = output.shape.size();
  if (Error e = input.validate("input", rank))
    return e;
  if (Error e = output.validate("output", rank))
    return e;
  if (Error e = checkShape("input", input.shape, output.shape))
    return e;
  const int64_t channels = rank ? output.shape.back() : 1;
  const int64_t tables = static_cast<int64_t>(table.size()) / kTableSize;
  if (static_cast<int64_t>(table.size()) % kTableSize != 0 ||
      (tables != 1 && tables != channels))
    return "table: expected " + std::to_string(kTableSize) + " or " +
           std::to_string(channels * kTableSize) + " entries, got " +
           std::to_string(table.size());
  for (int32_t v : table)
    if (v < output.qmin || v > output.qmax)
      return "table: entry " + std::to_string(v) + " outside the output's [" +
             std::to_string(output.qmin) + ", " + std::to_string(output.qmax) +
             "]";
  const int32_t storageMin = input.isSigned ? -128 : 0;
  const int64_t count = output.numElements();
  for (int64_t i = 0; i < count; ++i) {
    const int64_t t = tables == 1 ? 0 : i % channels;
    output.set(i, table[t * kTableSize + (input.get(i) - storageMin)]);
  }
  return std::nullopt;
}

Error quantc::ref::concat(const std::vector<QTensor> &inputs, int64_t axis,
                          const QTensor &output) {
  if (inputs.empty())
    return std::string("concat needs at least one input");
  const size_t rank = output.shape.size();
  if (rank < 1)
    return std::string("output: concat needs rank >= 1");
  if (axis < 0 || axis >= static_cast<int64_t>(rank))
    return "axis " + std::to_string(axis) + " outside [0, " +
           std::to_string(rank) + ")";
  if (Error e = output.validate("output", rank))
    return e;
  int64_t total = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string what = "input " + std::to_string(i);
    if (Error e = inputs[i].validate(what.c_str(), rank))
      return e;
    std::vector<int64_t> expected = output.shape;
    expected[axis] = inputs[i].shape[axis];
    if (Error e = checkShape(what.c_str(), inputs[i].shape, expected))
      return e;
    if (Error e = checkMultiplier(
            what.c_str(),
            requantMultiplier(inputs[i].scale, 1.0f, output.scale)))
      return e;
    total += inputs[i].shape[axis];
  }
  if (total != output.shape[axis])
    return "output: expected " + std::to_string(total) + " along axis " +
           std::to_string(axis) + " (the inputs' sum), got " +
           std::to_string(output.shape[axis]);
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
  return std::nullopt;
}

Error quantc::ref::quantizeTensor(const float *input, const QTensor &output) {
  if (!input)
    return std::string("input: no data");
  if (Error e = output.validate("output", output.shape.size()))
    return e;
  const int64_t count = output.numElements();
  for (int64_t i = 0; i < count; ++i)
    output.set(i, quantize(input[i], output.scale, output.zeroPoint,
                           output.qmin, output.qmax));
  return std::nullopt;
}

Error quantc::ref::dequantizeTensor(const QTensor &input, float *output) {
  if (!output)
    return std::string("output: no data");
  if (Error e = input.validate("input", input.shape.size()))
    return e;
  const int64_t count = input.numElements();
  for (int64_t i = 0; i < count; ++i)
    output[i] = dequantize(input.get(i), input.scale, input.zeroPoint);
  return std::nullopt;
}
