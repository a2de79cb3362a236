//===- Resize.cpp - Resize and Upsample (nearest, bilinear) ---------------===//
//
// Resize of H and W as tosa.resize. ONNX maps an output coordinate to an
// input one by a `coordinate_transformation_mode`; TOSA by the rational
// map  x_in = (x_out * d + offset) / n  with nearest rounding half up. Every
// mode used for images is such a map with integer n, d, offset:
//
//   asymmetric          x_out / s                   n = out,  d = in
//   half_pixel          (x_out + 1/2) / s - 1/2     n = 2 out, d = 2 in,
//                                                   offset = in - out
//   pytorch_half_pixel  as half_pixel (0 when out = 1)
//   align_corners       x_out (in - 1) / (out - 1)  n = out - 1, d = in - 1
//   tf_half_pixel_for_nn (x_out + 1/2) / s          n = 2 out, d = 2 in,
//                                                   offset = in
//   half_pixel_symmetric (opset 19) half_pixel centred: for a given scale
//                       s = p / q, offset + in p - out q (0 when s = out / in)
//
// (s = out / in, or the given scale when scales, not sizes, are given.) The
// ONNX nearest modes are half-up rounding of a shifted coordinate:
// round_prefer_ceil as is, floor = round(x - 1/2), ceil and
// round_prefer_floor with a shift of just under 1/2 (n, d, offset doubled,
// then offset moved by one unit).
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

#include <numeric>

using namespace mlir;
using namespace quantc::onnx_import;

namespace {

/// The rational map of one axis: x_in = (x_out * d + offset) / n.
struct AxisMap {
  int64_t n = 1, d = 1, offset = 0;
};

/// `s` as a fraction p / q with q <= 4096, if one is exact in float.
std::optional<std::pair<int64_t, int64_t>> rational(double s) {
  for (int64_t q = 1; q <= 4096; ++q) {
    double p = std::round(s * q);
    if (p >= 1 && static_cast<float>(p / q) == static_cast<float>(s))
      return std::pair<int64_t, int64_t>{static_cast<int64_t>(p), q};
  }
  return std::nullopt;
}

FailureOr<AxisMap> axisMap(NodeImporter &n, StringRef mode, int64_t in,
                           int64_t out, std::optional<double> scale) {
  bool symmetric = mode == "half_pixel_symmetric" && n.opset() >= 19;
  // The scale as out / in unless a scale is given.
  int64_t sn = out, sd = in;
  if (scale) {
    std::optional<std::pair<int64_t, int64_t>> r = rational(*scale);
    if (!r)
      return n.emitError() << "scale " << *scale << " is not a simple fraction";
    std::tie(sn, sd) = *r;
  }
  AxisMap m;
  if (mode == "asymmetric") {
    m = {sn, sd, 0};
  } else if (mode == "half_pixel" ||
             (mode == "pytorch_half_pixel" && out > 1)) {
    m = {2 * sn, 2 * sd, sd - sn};
  } else if (mode == "tf_half_pixel_for_nn") {
    // x_in = (x_out + 1/2) / s.
    m = {2 * sn, 2 * sd, sd};
  } else if (symmetric) {
    // x_in = in/2 (1 - out / (s in)) + (x_out + 1/2) / s - 1/2, s = sn / sd.
    m = {2 * sn, 2 * sd, sd - sn + in * sn - out * sd};
  } else if (mode == "pytorch_half_pixel") {
    m = {1, 0, 0};
  } else if (mode == "align_corners") {
    m = out > 1 ? AxisMap{out - 1, in - 1, 0} : AxisMap{1, 0, 0};
  } else {
    return n.emitError() << "unsupported coordinate_transformation_mode '"
                         << mode << "'";
  }
  return m;
}

/// Adjusts `m` so that TOSA's half-up rounding gives ONNX's `nearestMode`.
FailureOr<AxisMap> nearestRounding(NodeImporter &n, AxisMap m,
                                   StringRef nearestMode) {
  if (nearestMode == "round_prefer_ceil")
    return m;
  AxisMap r{2 * m.n, 2 * m.d, 2 * m.offset};
  if (nearestMode == "floor")
    r.offset -= m.n; // round(x - 1/2)
  else if (nearestMode == "round_prefer_floor")
    r.offset -= 1; // ties go down
  else if (nearestMode == "ceil")
    r.offset += m.n - 1; // round(x + 1/2 - epsilon)
  else
    return n.emitError() << "unsupported nearest_mode '" << nearestMode << "'";
  return r;
}

/// Resizes the NHWC value of `x` to `outH` x `outW`.
LogicalResult resize(NodeImporter &n, const Act &x, int64_t outH, int64_t outW,
                     std::optional<double> scaleH, std::optional<double> scaleW,
                     StringRef mode, StringRef coordMode,
                     StringRef nearestMode) {
  if (mode != "nearest" && mode != "linear" && mode != "bilinear")
    return n.emitError() << "unsupported mode '" << mode
                         << "' (nearest and linear are supported)";
  SmallVector<int64_t> shape = x.onnxShape();
  int64_t sizes[2] = {outH, outW}, ins[2] = {shape[2], shape[3]};
  std::optional<double> scales[2] = {scaleH, scaleW};
  int64_t scale[4], offset[2], border[2];
  for (int i = 0; i < 2; ++i) {
    if (sizes[i] < 1)
      return n.emitError() << "the output would be empty";
    FailureOr<AxisMap> m = axisMap(n, coordMode, ins[i], sizes[i], scales[i]);
    if (failed(m))
      return failure();
    if (mode == "nearest") {
      m = nearestRounding(n, *m, nearestMode);
      if (failed(m))
        return failure();
    }
    if (m->d == 0) {
      // A single output pixel at input 0.
      *m = {1, 1, 0};
      if (sizes[i] != 1)
        return n.emitError() << "invalid coordinate map";
    }
    int64_t g = std::gcd(std::gcd(m->n, m->d), std::abs(m->offset));
    if (g > 1)
      *m = {m->n / g, m->d / g, m->offset / g};
    scale[2 * i] = m->n;
    scale[2 * i + 1] = m->d;
    offset[i] = m->offset;
    // TOSA's output size: ((in - 1) * n - offset + border) / d + 1 = out.
    border[i] = (sizes[i] - 1) * m->d - (ins[i] - 1) * m->n + m->offset;
  }
  ImplicitLocOpBuilder &b = n.builder();
  auto resizeMode = tosa::ResizeModeAttr::get(
      n.context(), mode == "nearest" ? tosa::ResizeMode::NEAREST_NEIGHBOR
                                     : tosa::ResizeMode::BILINEAR);
  Value v = tosa::ResizeOp::create(
      b, n.f32({shape[0], outH, outW, shape[1]}), n.nhwc(x),
      tosa::getTosaConstShape(b, scale),
      tosa::getTosaConstShape(b, {offset[0], offset[1]}),
      tosa::getTosaConstShape(b, {border[0], border[1]}), resizeMode);
  return n.setOutput({v, preferredLayout(4)});
}

/// How a resize that TOSA's resize cannot express (cubic, antialias, a crop) is
/// computed: one constant [out, in] matrix per axis (ONNX's interpolation
/// weights) applied with tosa.matmul.
struct MatrixResize {
  StringRef mode, coordMode, nearestMode;
  double cubicA = -0.75;
  bool excludeOutside = false;
  /// Opset 18: linear and cubic kernels stretched by 1 / scale when
  /// downscaling.
  bool antialias = false;
  float extrapolation = 0.0f;
  /// tf_crop_and_resize's region per axis, as fractions of the input.
  double roiStart[2] = {0, 0}, roiEnd[2] = {1, 1};
};

/// The input coordinate of output coordinate `x` (ONNX Resize).
double originalCoord(StringRef mode, double x, double scale, int64_t in,
                     int64_t out, double roiStart, double roiEnd) {
  if (mode == "asymmetric")
    return x / scale;
  if (mode == "half_pixel")
    return (x + 0.5) / scale - 0.5;
  if (mode == "pytorch_half_pixel")
    return out > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
  if (mode == "align_corners")
    return out == 1 ? 0.0 : x * (in - 1) / double(out - 1);
  if (mode == "tf_half_pixel_for_nn")
    return (x + 0.5) / scale;
  if (mode == "half_pixel_symmetric") {
    double adjustment = out / (scale * in);
    return in / 2.0 * (1 - adjustment) + (x + 0.5) / scale - 0.5;
  }
  // tf_crop_and_resize
  return out > 1 ? roiStart * (in - 1) +
                       x * (roiEnd - roiStart) * (in - 1) / double(out - 1)
                 : 0.5 * (roiStart + roiEnd) * (in - 1);
}

/// ONNX's cubic convolution weight at distance `d` (coefficient `a`).
double cubicWeight(double d, double a) {
  d = std::fabs(d);
  if (d <= 1)
    return ((a + 2) * d - (a + 3)) * d * d + 1;
  if (d < 2)
    return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
  return 0;
}

/// The [out, in] interpolation matrix of one axis; `outside[i]` when output
/// i lies outside the crop (extrapolated).
LogicalResult axisMatrix(NodeImporter &n, const MatrixResize &r, int axis,
                         int64_t in, int64_t out, double scale,
                         std::vector<double> &m, std::vector<bool> &outside) {
  m.assign(out * in, 0.0);
  outside.assign(out, false);
  bool crop = r.coordMode == "tf_crop_and_resize";
  for (int64_t x = 0; x < out; ++x) {
    double c = originalCoord(r.coordMode, x, scale, in, out, r.roiStart[axis],
                             r.roiEnd[axis]);
    if (crop && (c < 0 || c > in - 1)) {
      outside[x] = true;
      continue;
    }
    double *row = &m[x * in];
    auto tap = [&](int64_t i) { return std::clamp<int64_t>(i, 0, in - 1); };
    if (r.mode == "nearest") {
      double i = r.nearestMode == "floor"                ? std::floor(c)
                 : r.nearestMode == "ceil"               ? std::ceil(c)
                 : r.nearestMode == "round_prefer_floor" ? std::ceil(c - 0.5)
                                                         : std::floor(c + 0.5);
      row[tap(static_cast<int64_t>(i))] = 1.0;
    } else {
      // ONNX's taps: i0 the largest integer below c, t = c - i0 in (0, 1],
      // the kernel (support 1 linear, 2 cubic) stretched by 1 / scale with
      // antialias when downscaling, then normalized.
      bool cubic = r.mode == "cubic";
      double stretch = r.antialias && scale < 1 ? scale : 1.0;
      int64_t start =
          static_cast<int64_t>(std::floor(-(cubic ? 2.0 : 1.0) / stretch)) + 1;
      int64_t count = 2 - 2 * start;
      int64_t i0 = static_cast<int64_t>(std::ceil(c)) - 1;
      double t = c - i0, sum = 0;
      std::vector<double> w(count);
      for (int64_t k = 0; k < count; ++k) {
        double d = (start + k - t) * stretch;
        w[k] = cubic ? cubicWeight(d, r.cubicA)
                     : std::max(0.0, 1.0 - std::fabs(d));
        int64_t i = i0 + start + k;
        if (r.excludeOutside && (i < 0 || i >= in))
          w[k] = 0;
        sum += w[k];
      }
      bool normalize = stretch < 1 || r.excludeOutside;
      if (normalize && sum == 0)
        return n.emitError() << "exclude_outside leaves no input pixel";
      for (int64_t k = 0; k < count; ++k)
        row[tap(i0 + start + k)] += normalize ? w[k] / sum : w[k];
    }
  }
  return success();
}

/// `v` ([N, H, W, C]) times the [out, in] matrix `m` along IR dimension
/// `dim` (1 or 2).
Value applyAxisMatrix(NodeImporter &n, Value v, int dim, ArrayRef<double> m,
                      int64_t out) {
  SmallVector<int64_t> shape(cast<RankedTensorType>(v.getType()).getShape());
  int64_t in = shape[dim];
  // Move the axis last: [N, W, C, H] or [N, H, C, W].
  SmallVector<int64_t> perm = dim == 1 ? SmallVector<int64_t>{0, 2, 3, 1}
                                       : SmallVector<int64_t>{0, 1, 3, 2};
  SmallVector<int64_t> inverse = dim == 1 ? SmallVector<int64_t>{0, 3, 1, 2}
                                          : SmallVector<int64_t>{0, 1, 3, 2};
  Value t = n.transpose(v, perm);
  int64_t rows = shape[0] * shape[3] * shape[dim == 1 ? 2 : 1];
  Value lhs = n.reshape(t, {1, rows, in});
  std::vector<float> mt(in * out);
  for (int64_t o = 0; o < out; ++o)
    for (int64_t i = 0; i < in; ++i)
      mt[i * out + o] = static_cast<float>(m[o * in + i]);
  Value rhs = n.constant({1, in, out}, mt);
  Value zp = n.constant({1}, {0.0f});
  Value product = tosa::MatMulOp::create(n.builder(), n.f32({1, rows, out}),
                                         lhs, rhs, zp, zp);
  SmallVector<int64_t> moved{shape[0], shape[perm[1]], shape[perm[2]], out};
  return n.transpose(n.reshape(product, moved), inverse);
}

/// Resizes the NHWC value of `x` with one matrix per axis.
LogicalResult matrixResize(NodeImporter &n, const Act &x, int64_t outH,
                           int64_t outW, std::optional<double> scaleH,
                           std::optional<double> scaleW,
                           const MatrixResize &r) {
  SmallVector<int64_t> shape = x.onnxShape();
  int64_t ins[2] = {shape[2], shape[3]}, outs[2] = {outH, outW};
  std::optional<double> scales[2] = {scaleH, scaleW};
  Value v = n.nhwc(x);
  std::vector<bool> outside[2];
  for (int i = 0; i < 2; ++i) {
    if (int64_t(ins[i]) * outs[i] > (int64_t(1) << 24))
      return n.emitError() << "a " << r.mode << " resize of " << ins[i]
                           << " to " << outs[i]
                           << " pixels is too large (its matrix)";
    std::vector<double> m;
    double scale = scales[i] ? *scales[i] : double(outs[i]) / ins[i];
    if (failed(axisMatrix(n, r, i, ins[i], outs[i], scale, m, outside[i])))
      return failure();
    bool identity = ins[i] == outs[i];
    for (int64_t o = 0; identity && o < outs[i]; ++o)
      for (int64_t k = 0; identity && k < ins[i]; ++k)
        identity = m[o * ins[i] + k] == (o == k ? 1.0 : 0.0);
    if (!identity)
      v = applyAxisMatrix(n, v, 1 + i, m, outs[i]);
  }
  if (llvm::is_contained(outside[0], true) ||
      llvm::is_contained(outside[1], true)) {
    // Outside the crop: extrapolation_value (the matrix rows are zero).
    if (!n.hasRoomInIr({1, outH, outW, 1}))
      return failure();
    std::vector<float> bias(outH * outW, 0.0f);
    for (int64_t h = 0; h < outH; ++h)
      for (int64_t w = 0; w < outW; ++w)
        if (outside[0][h] || outside[1][w])
          bias[h * outW + w] = r.extrapolation;
    Value b = n.constant({1, outH, outW, 1}, bias);
    v = tosa::AddOp::create(n.builder(), v.getType(), v, b);
  }
  return n.setOutput({v, preferredLayout(4)});
}

/// `t`'s values for the axes `axes` (opset 18) spread over 4 dimensions,
/// the others `fill`; `t` as is without axes.
ConstTensor spreadAxes(const ConstTensor &t, ArrayRef<int64_t> axes,
                       ArrayRef<double> fill) {
  if (axes.empty())
    return t;
  ConstTensor full = t;
  full.dims = {4};
  full.data.assign(fill.begin(), fill.end());
  for (auto [i, a] : llvm::enumerate(axes))
    if (i < t.data.size())
      full.data[a] = t.data[i];
  return full;
}

/// Output sizes and scales from `scales` ([1, 1, sh, sw]) or `sizes`, given
/// for `axes` (opset 18; all when empty), kept to the input's aspect ratio
/// by `keepAspect` (opset 18: "stretch", "not_larger", "not_smaller").
LogicalResult
outputSize(NodeImporter &n, const Act &x, const ConstTensor *scales,
           const ConstTensor *sizes, int64_t &outH, int64_t &outW,
           std::optional<double> &scaleH, std::optional<double> &scaleW,
           ArrayRef<int64_t> axes = {}, StringRef keepAspect = "stretch") {
  SmallVector<int64_t> shape = x.onnxShape();
  if (!axes.empty() && ((sizes && sizes->numElements() > 0 &&
                         sizes->numElements() != (int64_t)axes.size()) ||
                        (scales && scales->numElements() > 0 &&
                         scales->numElements() != (int64_t)axes.size())))
    return n.emitError() << "scales or sizes must have one value per axis ("
                         << axes.size() << ")";
  if (sizes && sizes->numElements() > 0) {
    ConstTensor spread = spreadAxes(*sizes, axes,
                                    {double(shape[0]), double(shape[1]),
                                     double(shape[2]), double(shape[3])});
    sizes = &spread;
    if (sizes->numElements() != 4)
      return n.emitError() << "sizes must have 4 values";
    if (sizes->data[0] != shape[0] || sizes->data[1] != shape[1])
      return n.emitError() << "only H and W can be resized";
    for (int i = 2; i < 4; ++i)
      if (!(sizes->data[i] >= 1.0 && sizes->data[i] <= kMaxIntValue))
        return n.emitError()
               << "size " << sizes->data[i] << " is out of range (1 to "
               << kMaxIntValue << ")";
    outH = static_cast<int64_t>(sizes->data[2]);
    outW = static_cast<int64_t>(sizes->data[3]);
    if (keepAspect == "stretch")
      return success();
    if (keepAspect != "not_larger" && keepAspect != "not_smaller")
      return n.emitError() << "unsupported keep_aspect_ratio_policy '"
                           << keepAspect << "'";
    // One scale for the listed axes (all without `axes`: N and C too), the
    // output rounded.
    SmallVector<int64_t> listed(axes);
    if (listed.empty())
      listed = {0, 1, 2, 3};
    std::optional<double> s;
    for (int64_t a : listed) {
      double r = sizes->data[a] / shape[a];
      s = !s                           ? r
          : keepAspect == "not_larger" ? std::min(*s, r)
                                       : std::max(*s, r);
    }
    SmallVector<int64_t> out(shape);
    for (int64_t a : listed)
      out[a] = static_cast<int64_t>(std::floor(*s * shape[a] + 0.5));
    if (out[0] != shape[0] || out[1] != shape[1])
      return n.emitError() << "keep_aspect_ratio_policy scales N or C to ["
                           << out[0] << ", " << out[1]
                           << "] (only H and W can be resized: give axes)";
    outH = out[2];
    outW = out[3];
    if (outH < 1 || outW < 1)
      return n.emitError() << "the output would be empty";
    return success();
  }
  ConstTensor spreadScales;
  if (scales && scales->numElements() > 0) {
    spreadScales = spreadAxes(*scales, axes, {1.0, 1.0, 1.0, 1.0});
    scales = &spreadScales;
  }
  if (!scales || scales->numElements() != 4)
    return n.emitError() << "needs scales of 4 values or sizes";
  if (scales->data[0] != 1.0 || scales->data[1] != 1.0)
    return n.emitError() << "only H and W can be resized";
  for (int i = 2; i < 4; ++i)
    if (!(scales->data[i] > 0.0) || !std::isfinite(scales->data[i]))
      return n.emitError() << "scales must be finite and positive";
  scaleH = static_cast<float>(scales->data[2]);
  scaleW = static_cast<float>(scales->data[3]);
  double h = std::floor(shape[2] * *scaleH), w = std::floor(shape[3] * *scaleW);
  if (!(h >= 1.0 && h <= kMaxIntValue && w >= 1.0 && w <= kMaxIntValue))
    return n.emitError() << "scales give an output of " << h << " x " << w
                         << " (each side 1 to " << kMaxIntValue << ")";
  outH = static_cast<int64_t>(h);
  outW = static_cast<int64_t>(w);
  return success();
}

/// Resize, opsets 11+ (X, roi, scales, sizes) and 10 (X, scales); 18 adds
/// `axes`, `keep_aspect_ratio_policy` and `antialias`, 19 the
/// half_pixel_symmetric mode.
LogicalResult resizeOp(NodeImporter &n) {
  bool v10 = n.opset() < 11;
  if (failed(n.checkArity(v10 || n.opset() < 13 ? 2 : 1, v10 ? 2 : 4)))
    return failure();
  FailureOr<bool> antialias = n.boolAttr("antialias", false);
  FailureOr<SmallVector<int64_t>> rawAxes = n.intsAttr("axes", {});
  FailureOr<std::string> keepAspect =
      n.stringAttr("keep_aspect_ratio_policy", "stretch");
  if (failed(antialias) || failed(rawAxes) || failed(keepAspect))
    return failure();
  FailureOr<Act> x = n.act(0);
  FailureOr<std::string> mode = n.stringAttr("mode", "nearest"),
                         coord =
                             n.stringAttr("coordinate_transformation_mode",
                                          v10 ? "asymmetric" : "half_pixel"),
                         nearest =
                             n.stringAttr("nearest_mode",
                                          v10 ? "floor" : "round_prefer_floor");
  if (failed(x) || failed(mode) || failed(coord) || failed(nearest))
    return failure();
  if (x->rank() != 4)
    return n.emitError() << "only 4-D inputs (NCHW images) are supported";
  FailureOr<SmallVector<int64_t>> axes = n.normalizeAxes(*rawAxes, 4);
  if (failed(axes))
    return failure();
  FailureOr<const ConstTensor *> scales = n.optionalConstant(v10 ? 1 : 2);
  FailureOr<const ConstTensor *> sizes =
      v10 ? FailureOr<const ConstTensor *>(nullptr) : n.optionalConstant(3);
  if (failed(scales) || failed(sizes))
    return failure();
  int64_t outH, outW;
  std::optional<double> scaleH, scaleW;
  if (failed(outputSize(n, *x, *scales, *sizes, outH, outW, scaleH, scaleW,
                        *axes, *keepAspect)))
    return failure();
  if (*keepAspect != "stretch" && *sizes && (*sizes)->numElements() > 0) {
    // The coordinate map uses the one scale the sizes were kept to.
    SmallVector<int64_t> shape = x->onnxShape();
    scaleH = double(outH) / shape[2];
    scaleW = double(outW) / shape[3];
  }
  // Antialias changes linear and cubic downscaling only.
  bool antialiased =
      *antialias && *mode != "nearest" &&
      ((scaleH ? *scaleH : double(outH) / x->onnxShape()[2]) < 1 ||
       (scaleW ? *scaleW : double(outW) / x->onnxShape()[3]) < 1);
  if (*mode != "cubic" && *coord != "tf_crop_and_resize" && !antialiased)
    return resize(n, *x, outH, outW, scaleH, scaleW, *mode, *coord, *nearest);
  // Cubic, antialias or a crop: interpolation matrices.
  MatrixResize r{*mode, *coord, *nearest};
  r.antialias = antialiased;
  FailureOr<float> a = n.floatAttr("cubic_coeff_a", -0.75f),
                   extrapolation = n.floatAttr("extrapolation_value", 0.0f);
  FailureOr<bool> exclude = n.boolAttr("exclude_outside", false);
  if (failed(a) || failed(extrapolation) || failed(exclude))
    return failure();
  r.cubicA = *a;
  r.extrapolation = *extrapolation;
  r.excludeOutside = *exclude;
  if (*mode != "nearest" && *mode != "linear" && *mode != "cubic")
    return n.emitError() << "unsupported mode '" << *mode
                         << "' (nearest, linear and cubic are supported)";
  if (!llvm::is_contained({"asymmetric", "half_pixel", "pytorch_half_pixel",
                           "align_corners", "tf_half_pixel_for_nn",
                           "tf_crop_and_resize"},
                          StringRef(*coord)) &&
      !(*coord == "half_pixel_symmetric" && n.opset() >= 19))
    return n.emitError() << "unsupported coordinate_transformation_mode '"
                         << *coord << "'";
  if (*coord == "tf_crop_and_resize") {
    FailureOr<const ConstTensor *> roi = n.optionalConstant(1);
    if (failed(roi))
      return failure();
    if (!*roi || (*roi)->numElements() == 0)
      return n.emitError() << "tf_crop_and_resize needs the roi input";
    ConstTensor full = **roi;
    if (!axes->empty()) {
      // roi holds starts then ends of the listed axes.
      int64_t count = axes->size();
      if ((*roi)->numElements() != 2 * count)
        return n.emitError() << "roi must have " << 2 * count << " values";
      full.data = {0, 0, 0, 0, 1, 1, 1, 1};
      for (int64_t i = 0; i < count; ++i) {
        full.data[(*axes)[i]] = (*roi)->data[i];
        full.data[(*axes)[i] + 4] = (*roi)->data[i + count];
      }
    }
    if (full.data.size() != 8)
      return n.emitError() << "roi must have 8 values";
    for (int i = 0; i < 2; ++i) {
      r.roiStart[i] = full.data[2 + i];
      r.roiEnd[i] = full.data[6 + i];
    }
    if (full.data[0] != 0 || full.data[1] != 0 || full.data[4] != 1 ||
        full.data[5] != 1)
      return n.emitError() << "only H and W can be cropped";
    if (scaleH && scaleW) {
      // The crop's output is the scaled crop: floor(in (end - start) s).
      SmallVector<int64_t> shape = x->onnxShape();
      double h = std::floor(shape[2] * (r.roiEnd[0] - r.roiStart[0]) * *scaleH),
             w = std::floor(shape[3] * (r.roiEnd[1] - r.roiStart[1]) * *scaleW);
      if (!(h >= 1.0 && h <= kMaxIntValue && w >= 1.0 && w <= kMaxIntValue))
        return n.emitError()
               << "the crop's output would be " << h << " x " << w;
      outH = static_cast<int64_t>(h);
      outW = static_cast<int64_t>(w);
    }
  }
  return matrixResize(n, *x, outH, outW, scaleH, scaleW, r);
}

/// Upsample (opsets 7-8: the scales attribute; 9: the scales input):
/// asymmetric coordinates, nearest rounds down.
LogicalResult upsampleOp(NodeImporter &n) {
  bool scalesInput = n.opset() >= 9;
  if (failed(n.checkArity(scalesInput ? 2 : 1, scalesInput ? 2 : 1)))
    return failure();
  FailureOr<Act> x = n.act(0);
  FailureOr<std::string> mode = n.stringAttr("mode", "nearest");
  if (failed(x) || failed(mode))
    return failure();
  ConstTensor fromAttr;
  const ConstTensor *scales = &fromAttr;
  if (scalesInput) {
    scales = n.constant(1);
    if (!scales)
      return failure();
  } else {
    const onnx::AttributeProto *a = n.attr("scales");
    if (!a || a->type() != onnx::AttributeProto::FLOATS)
      return n.emitError() << "attribute 'scales' (floats) is required";
    fromAttr.dims = {a->floats_size()};
    fromAttr.data.assign(a->floats().begin(), a->floats().end());
  }
  if (x->rank() != 4)
    return n.emitError() << "only 4-D inputs (NCHW images) are supported";
  int64_t outH, outW;
  std::optional<double> scaleH, scaleW;
  if (failed(outputSize(n, *x, scales, nullptr, outH, outW, scaleH, scaleW)))
    return failure();
  return resize(n, *x, outH, outW, scaleH, scaleW, *mode, "asymmetric",
                "floor");
}

} // namespace

void quantc::onnx_import::registerResizeOps(OpRegistry &r) {
  r.add("Upsample", upsampleOp);
  r.add("Resize", resizeOp, 10);
}
