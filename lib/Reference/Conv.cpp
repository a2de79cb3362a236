//===- Conv.cpp - Reference conv2d and matmul
//------------------------------===//
//
// Direct loop nests; the accumulator is int64 here but provably fits int32
// (checkAccumulatorRange), so it equals the int32 accumulation of generated
// code.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace quantc::ref;
using namespace quantc::ref::detail;
using quantc::Status;

namespace {

/// The checks conv2d and conv2dDequantized share; the output shape.
Status checkConv(const QTensor &input, const QWeights &weights,
                 const Conv2DParams &params, std::vector<int64_t> &outShape) {
  QUANTC_TRY(input.validate("input", 4));
  QUANTC_TRY(checkWeights(weights, 4));
  const int64_t n = input.shape[0], h = input.shape[1], w = input.shape[2],
                c = input.shape[3];
  const int64_t o = weights.shape[0], kh = weights.shape[1],
                kw = weights.shape[2], wi = weights.shape[3];
  const int64_t groups = params.groups;
  const Window2D &win = params.window;
  if (groups < 1 || c % groups != 0 || o % groups != 0)
    return Status::failure("groups (" + std::to_string(groups) +
                           ") must divide the input channels (" +
                           std::to_string(c) + ") and the output channels (" +
                           std::to_string(o) + ")");
  if (wi != c / groups)
    return Status::failure("weights: expected " + std::to_string(c / groups) +
                           " input channels per group (OHWI), got " +
                           std::to_string(wi));
  if (win.strideH < 1 || win.strideW < 1 || win.dilationH < 1 ||
      win.dilationW < 1 || win.padTop < 0 || win.padBottom < 0 ||
      win.padLeft < 0 || win.padRight < 0)
    return Status::failure("strides and dilations must be >= 1, pads >= 0");
  const int64_t oh = windowOutputSize(h, kh, win.strideH, win.padTop,
                                      win.padBottom, win.dilationH);
  const int64_t ow = windowOutputSize(w, kw, win.strideW, win.padLeft,
                                      win.padRight, win.dilationW);
  if (oh < 1 || ow < 1)
    return Status::failure("padded input is smaller than the dilated kernel");
  outShape = {n, oh, ow, o};
  return Status::success();
}

/// Calls `fn(outIndex, oc, acc)` with the exact accumulator of every output
/// element of the convolution (checked by checkConv).
template <typename Fn>
void forEachConvAccumulator(const QTensor &input, const QWeights &weights,
                            const int32_t *bias, const Conv2DParams &params,
                            const std::vector<int64_t> &outShape, Fn fn) {
  const int64_t h = input.shape[1], w = input.shape[2], c = input.shape[3];
  const int64_t o = weights.shape[0], kh = weights.shape[1],
                kw = weights.shape[2], wi = weights.shape[3];
  const int64_t oh = outShape[1], ow = outShape[2];
  const Window2D &win = params.window;
  const int64_t outPerGroup = o / params.groups;
  for (int64_t b = 0; b < outShape[0]; ++b)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t oc = 0; oc < o; ++oc) {
          const int64_t g = oc / outPerGroup;
          int64_t acc = bias ? bias[oc] : 0;
          for (int64_t ky = 0; ky < kh; ++ky) {
            const int64_t iy =
                y * win.strideH - win.padTop + ky * win.dilationH;
            if (iy < 0 || iy >= h)
              continue;
            for (int64_t kx = 0; kx < kw; ++kx) {
              const int64_t ix =
                  x * win.strideW - win.padLeft + kx * win.dilationW;
              if (ix < 0 || ix >= w)
                continue;
              for (int64_t i = 0; i < wi; ++i) {
                const int64_t xv =
                    input.get(((b * h + iy) * w + ix) * c + g * wi + i) -
                    int64_t(input.zeroPoint);
                const int64_t wv =
                    weights.data[((oc * kh + ky) * kw + kx) * wi + i];
                acc += xv * wv;
              }
            }
          }
          fn(((b * oh + y) * ow + x) * o + oc, oc, static_cast<int32_t>(acc));
        }
}

/// The dequantization multipliers input_scale * weight_scale[o] of a
/// dequantized output (requantMultiplier to scale 1), checked.
Status dequantMultipliers(const QTensor &input, const QWeights &weights,
                          int64_t channels, const char *what,
                          std::vector<float> &multipliers) {
  multipliers.resize(channels);
  for (int64_t oc = 0; oc < channels; ++oc) {
    multipliers[oc] = requantMultiplier(input.scale, weights.scale(oc), 1.0f);
    QUANTC_TRY(checkMultiplier(what, multipliers[oc]));
  }
  return Status::success();
}

} // namespace

float quantc::ref::dequantizeAccumulator(int32_t acc, float multiplier,
                                         const FusedActivation &activation) {
  float v = static_cast<float>(acc) * multiplier;
  switch (activation.kind) {
  case Activation::None:
    return v;
  case Activation::Relu:
    return v < 0.0f ? 0.0f : v;
  case Activation::Relu6:
    return v < 0.0f ? 0.0f : (v > 6.0f ? 6.0f : v);
  case Activation::Clamp:
    return v < activation.clampMin
               ? activation.clampMin
               : (v > activation.clampMax ? activation.clampMax : v);
  }
  return v;
}

Status quantc::ref::conv2d(const QTensor &input, const QWeights &weights,
                           const int32_t *bias, const Conv2DParams &params,
                           const QTensor *residual, const QTensor &output) {
  std::vector<int64_t> outShape;
  QUANTC_TRY(checkConv(input, weights, params, outShape));
  QUANTC_TRY(output.validate("output", 4));
  QUANTC_TRY(checkShape("output", output.shape, outShape));
  if (residual) {
    QUANTC_TRY(residual->validate("residual", 4));
    QUANTC_TRY(checkShape("residual", residual->shape, output.shape));
  }
  Bounds bounds;
  QUANTC_TRY(outputBounds(params.activation, output, bounds));
  const int64_t o = weights.shape[0];
  std::vector<float> multipliers(o);
  for (int64_t oc = 0; oc < o; ++oc) {
    multipliers[oc] =
        requantMultiplier(input.scale, weights.scale(oc), output.scale);
    QUANTC_TRY(checkMultiplier("conv2d", multipliers[oc]));
  }
  const float residualMultiplier =
      residual ? requantMultiplier(residual->scale, 1.0f, output.scale) : 0.0f;
  QUANTC_TRY(checkMultiplier("residual", residualMultiplier));
  QUANTC_TRY(checkAccumulatorRange(input, weights, bias, o,
                                   weights.shape[1] * weights.shape[2] *
                                       weights.shape[3]));
  forEachConvAccumulator(
      input, weights, bias, params, outShape,
      [&](int64_t outIndex, int64_t oc, int32_t acc) {
        int32_t q;
        if (residual)
          q = requantize2(acc, multipliers[oc],
                          residual->get(outIndex) - residual->zeroPoint,
                          residualMultiplier, output.zeroPoint, bounds.lo,
                          bounds.hi);
        else
          q = requantize(acc, multipliers[oc], output.zeroPoint, bounds.lo,
                         bounds.hi);
        output.set(outIndex, q);
      });
  return Status::success();
}

Status quantc::ref::conv2dDequantized(const QTensor &input,
                                      const QWeights &weights,
                                      const int32_t *bias,
                                      const Conv2DParams &params, float *output,
                                      const std::vector<int64_t> &outputShape) {
  std::vector<int64_t> outShape;
  QUANTC_TRY(checkConv(input, weights, params, outShape));
  QUANTC_TRY(checkShape("output", outputShape, outShape));
  if (!output)
    return Status::failure("output: no data");
  std::vector<float> multipliers;
  QUANTC_TRY(dequantMultipliers(input, weights, weights.shape[0], "conv2d",
                                multipliers));
  QUANTC_TRY(checkAccumulatorRange(input, weights, bias, weights.shape[0],
                                   weights.shape[1] * weights.shape[2] *
                                       weights.shape[3]));
  forEachConvAccumulator(input, weights, bias, params, outShape,
                         [&](int64_t outIndex, int64_t oc, int32_t acc) {
                           output[outIndex] = dequantizeAccumulator(
                               acc, multipliers[oc], params.activation);
                         });
  return Status::success();
}

namespace {

/// The checks matmul and matmulDequantized share: input [M, K], weights
/// [N, K].
Status checkMatmul(const QTensor &input, const QWeights &weights) {
  QUANTC_TRY(input.validate("input", 2));
  QUANTC_TRY(checkWeights(weights, 2));
  if (weights.shape[1] != input.shape[1])
    return Status::failure("weights: expected [N, " +
                           std::to_string(input.shape[1]) + "], got " +
                           shapeString(weights.shape));
  return Status::success();
}

/// Calls `fn(outIndex, n, acc)` with the exact accumulator of every output
/// element of the matmul (checked by checkMatmul).
template <typename Fn>
void forEachMatmulAccumulator(const QTensor &input, const QWeights &weights,
                              const int32_t *bias, Fn fn) {
  const int64_t m = input.shape[0], k = input.shape[1], n = weights.shape[0];
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t acc = bias ? bias[j] : 0;
      for (int64_t kk = 0; kk < k; ++kk)
        acc += (input.get(i * k + kk) - int64_t(input.zeroPoint)) *
               int64_t(weights.data[j * k + kk]);
      fn(i * n + j, j, static_cast<int32_t>(acc));
    }
}

} // namespace

Status quantc::ref::matmul(const QTensor &input, const QWeights &weights,
                           const int32_t *bias,
                           const FusedActivation &activation,
                           const QTensor &output) {
  QUANTC_TRY(checkMatmul(input, weights));
  QUANTC_TRY(output.validate("output", 2));
  const int64_t m = input.shape[0], k = input.shape[1], n = weights.shape[0];
  QUANTC_TRY(checkShape("output", output.shape, {m, n}));
  Bounds bounds;
  QUANTC_TRY(outputBounds(activation, output, bounds));
  std::vector<float> multipliers(n);
  for (int64_t j = 0; j < n; ++j) {
    multipliers[j] =
        requantMultiplier(input.scale, weights.scale(j), output.scale);
    QUANTC_TRY(checkMultiplier("matmul", multipliers[j]));
  }
  QUANTC_TRY(checkAccumulatorRange(input, weights, bias, n, k));
  forEachMatmulAccumulator(
      input, weights, bias, [&](int64_t outIndex, int64_t j, int32_t acc) {
        output.set(outIndex, requantize(acc, multipliers[j], output.zeroPoint,
                                        bounds.lo, bounds.hi));
      });
  return Status::success();
}

Status quantc::ref::matmulDequantized(const QTensor &input,
                                      const QWeights &weights,
                                      const int32_t *bias,
                                      const FusedActivation &activation,
                                      float *output) {
  QUANTC_TRY(checkMatmul(input, weights));
  if (!output)
    return Status::failure("output: no data");
  const int64_t k = input.shape[1], n = weights.shape[0];
  std::vector<float> multipliers;
  QUANTC_TRY(dequantMultipliers(input, weights, n, "matmul", multipliers));
  QUANTC_TRY(checkAccumulatorRange(input, weights, bias, n, k));
  forEachMatmulAccumulator(
      input, weights, bias, [&](int64_t outIndex, int64_t j, int32_t acc) {
        output[outIndex] =
            dequantizeAccumulator(acc, multipliers[j], activation);
      });
  return Status::success();
}

Status quantc::ref::batchMatmul(const QTensor &a, const QTensor &b,
                                const QTensor &output) {
  QUANTC_TRY(a.validate("lhs", 3));
  QUANTC_TRY(b.validate("rhs", 3));
  QUANTC_TRY(output.validate("output", 3));
  const int64_t batch = a.shape[0], m = a.shape[1], k = a.shape[2],
                n = b.shape[2];
  QUANTC_TRY(checkShape("rhs", b.shape, {batch, k, n}));
  QUANTC_TRY(checkShape("output", output.shape, {batch, m, n}));
  const float mult = requantMultiplier(a.scale, b.scale, output.scale);
  QUANTC_TRY(checkMultiplier("matmul", mult));
  auto centered = [](const QTensor &t) {
    return std::max<int64_t>(int64_t(t.zeroPoint) - t.qmin,
                             int64_t(t.qmax) - t.zeroPoint);
  };
  if (k * centered(a) * centered(b) > INT32_MAX)
    return Status::failure(
        "matmul: the int32 accumulator could overflow (K = " +
        std::to_string(k) + ")");
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int64_t acc = 0;
        for (int64_t kk = 0; kk < k; ++kk)
          acc += (int64_t(a.get((p * m + i) * k + kk)) - a.zeroPoint) *
                 (int64_t(b.get((p * k + kk) * n + j)) - b.zeroPoint);
        output.set((p * m + i) * n + j,
                   requantize(static_cast<int32_t>(acc), mult, output.zeroPoint,
                              output.qmin, output.qmax));
      }
  return Status::success();
}
