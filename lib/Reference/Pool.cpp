//===- Pool.cpp - Reference max / average / global average pooling --------===//

#include "Common.h"

#include <algorithm>

using namespace quantc::ref;
using namespace quantc::ref::detail;
using quantc::Status;

namespace {
enum class PoolKind { Max, Avg };
} // namespace

/// Shared by the max and average pools: checks the arguments, then for each
/// output element visits the non-padded window elements.
static Status pool2d(PoolKind kind, const QTensor &input,
                     const Pool2DParams &params, const QTensor &output) {
  QUANTC_TRY(input.validate("input", 4));
  QUANTC_TRY(output.validate("output", 4));
  const Window2D &win = params.window;
  if (params.kernelH < 1 || params.kernelW < 1 || win.strideH < 1 ||
      win.strideW < 1 || win.dilationH < 1 || win.dilationW < 1 ||
      win.padTop < 0 || win.padBottom < 0 || win.padLeft < 0 ||
      win.padRight < 0)
    return Status::failure(
        "kernel, strides and dilations must be >= 1, pads >= 0");
  const int64_t n = input.shape[0], h = input.shape[1], w = input.shape[2],
                c = input.shape[3];
  const int64_t oh = windowOutputSize(h, params.kernelH, win.strideH,
                                      win.padTop, win.padBottom, win.dilationH);
  const int64_t ow = windowOutputSize(w, params.kernelW, win.strideW,
                                      win.padLeft, win.padRight, win.dilationW);
  if (oh < 1 || ow < 1)
    return Status::failure("padded input is smaller than the dilated kernel");
  QUANTC_TRY(checkShape("output", output.shape, {n, oh, ow, c}));
  const float rescale = requantMultiplier(input.scale, 1.0f, output.scale);
  QUANTC_TRY(checkMultiplier("pool", rescale));
  const bool sameParams =
      input.scale == output.scale && input.zeroPoint == output.zeroPoint;

  // Validate every window before writing anything.
  for (int64_t y = 0; y < oh; ++y)
    for (int64_t x = 0; x < ow; ++x) {
      int64_t count = 0;
      for (int64_t ky = 0; ky < params.kernelH; ++ky)
        for (int64_t kx = 0; kx < params.kernelW; ++kx) {
          const int64_t iy = y * win.strideH - win.padTop + ky * win.dilationH;
          const int64_t ix = x * win.strideW - win.padLeft + kx * win.dilationW;
          count += iy >= 0 && iy < h && ix >= 0 && ix < w;
        }
      if (count == 0)
        return Status::failure("pool window at output (" + std::to_string(y) +
                               ", " + std::to_string(x) +
                               ") holds only padding");
    }

  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t ch = 0; ch < c; ++ch) {
          int32_t maxValue = -256;
          int32_t sum = 0; // |sum| <= kernel size * 255
          int64_t count = 0;
          for (int64_t ky = 0; ky < params.kernelH; ++ky) {
            const int64_t iy =
                y * win.strideH - win.padTop + ky * win.dilationH;
            if (iy < 0 || iy >= h)
              continue;
            for (int64_t kx = 0; kx < params.kernelW; ++kx) {
              const int64_t ix =
                  x * win.strideW - win.padLeft + kx * win.dilationW;
              if (ix < 0 || ix >= w)
                continue;
              const int32_t v = input.get(((b * h + iy) * w + ix) * c + ch);
              maxValue = std::max(maxValue, v);
              sum += v - input.zeroPoint;
              ++count;
            }
          }
          int32_t q;
          if (kind == PoolKind::Avg)
            q = requantize(sum,
                           avgPoolMultiplier(input.scale, output.scale, count),
                           output.zeroPoint, output.qmin, output.qmax);
          else if (sameParams)
            q = std::max(output.qmin, std::min(output.qmax, maxValue));
          else
            q = requantize(maxValue - input.zeroPoint, rescale,
                           output.zeroPoint, output.qmin, output.qmax);
          output.set(((b * oh + y) * ow + x) * c + ch, q);
        }
  return Status::success();
}

Status quantc::ref::maxPool2d(const QTensor &input, const Pool2DParams &params,
                              const QTensor &output) {
  return pool2d(PoolKind::Max, input, params, output);
}

Status quantc::ref::avgPool2d(const QTensor &input, const Pool2DParams &params,
                              const QTensor &output) {
  return pool2d(PoolKind::Avg, input, params, output);
}

Status quantc::ref::globalAvgPool2d(const QTensor &input,
                                    const QTensor &output) {
  QUANTC_TRY(input.validate("input", 4));
  Pool2DParams params;
  params.kernelH = input.shape[1];
  params.kernelW = input.shape[2];
  return pool2d(PoolKind::Avg, input, params, output);
}
