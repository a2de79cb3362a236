//===- Elementwise.cpp - Reference add, concat, quantize, dequantize ------===//

#include "Common.h"

#include <algorithm>

using namespace quantc::ref;
using namespace quantc::ref::detail;

Error quantc::ref::add(const QTensor &a, const QTensor &b,
                       const FusedActivation &activation,
                       const QTensor &output) {
  const size_t rank = output.shape.size();
  if (Error e = a.validate("lhs", rank))
    return e;
  if (Error e = b.validate("rhs", rank))
    return e;
  if (Error e = output.validate("output", rank))
    return e;
  if (Error e = checkShape("lhs", a.shape, output.shape))
    return e;
  if (Error e = checkShape("rhs", b.shape, output.shape))
    return e;
  Bounds bounds;
  if (Error e = outputBounds(activation, output, bounds))
    return e;
  const float ma = requantMultiplier(a.scale, 1.0f, output.scale);
  const float mb = requantMultiplier(b.scale, 1.0f, output.scale);
  if (Error e = checkMultiplier("lhs", ma))
    return e;
  if (Error e = checkMultiplier("rhs", mb))
    return e;
  const int64_t count = output.numElements();
  for (int64_t i = 0; i < count; ++i)
    output.set(i,
               requantize2(a.get(i) - a.zeroPoint, ma, b.get(i) - b.zeroPoint,
                           mb, output.zeroPoint, bounds.lo, bounds.hi));
  return std::nullopt;
}

Error quantc::ref::concatChannels(const std::vector<QTensor> &inputs,
                                  const QTensor &output) {
  if (inputs.empty())
    return std::string("concat needs at least one input");
  const size_t rank = output.shape.size();
  if (rank < 1)
    return std::string("output: concat needs rank >= 1");
  if (Error e = output.validate("output", rank))
    return e;
  int64_t channels = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string what = "input " + std::to_string(i);
    if (Error e = inputs[i].validate(what.c_str(), rank))
      return e;
    std::vector<int64_t> expected = output.shape;
    expected.back() = inputs[i].shape.back();
    if (Error e = checkShape(what.c_str(), inputs[i].shape, expected))
      return e;
    if (Error e = checkMultiplier(
            what.c_str(),
            requantMultiplier(inputs[i].scale, 1.0f, output.scale)))
      return e;
    channels += inputs[i].shape.back();
  }
  if (channels != output.shape.back())
    return "output: expected " + std::to_string(channels) +
           " channels (the inputs' sum), got " +
           std::to_string(output.shape.back());
  const int64_t rows = output.numElements() / channels;
  int64_t offset = 0;
  for (const QTensor &in : inputs) {
    const int64_t c = in.shape.back();
    const bool same =
        in.scale == output.scale && in.zeroPoint == output.zeroPoint;
    const float m = requantMultiplier(in.scale, 1.0f, output.scale);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < c; ++j) {
        const int32_t v = in.get(r * c + j);
        output.set(r * channels + offset + j,
                   same ? std::max(output.qmin, std::min(output.qmax, v))
                        : requantize(v - in.zeroPoint, m, output.zeroPoint,
                                     output.qmin, output.qmax));
      }
    offset += c;
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
