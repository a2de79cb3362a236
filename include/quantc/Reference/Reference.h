//===- Reference.h - The exact int8 reference ops -------------*- C++ -*-===//
//
// Plain loop-nest implementations of the quantized ops. They DEFINE what the
// compiler's generated int8 code computes, bit for bit; scalar arithmetic
// comes from Requantize.h. Checked against PyTorch 1.13 (onednn engine) by
// test/Unit/Reference (goldens from scripts/gen_reference_goldens.py).
//
// Conventions:
//  * Activations are NHWC (matmul: [M, K] / [M, N]), 8-bit, per-tensor
//    quantized, u8 or i8 storage (QTensor); values are clamped to the
//    tensor's [qmin, qmax], which may be narrower than the storage type
//    (e.g. [0, 127] under reduce_range).
//  * Filters are OHWI with I = C / groups; output channel o belongs to group
//    o / (O / groups); depthwise is groups == C (O = C * multiplier).
//    Weights are i8, symmetric (zero point 0), with one scale per tensor or
//    one per output channel (QWeights). Matmul weights are [N, K].
//  * Bias is int32 with scale inScale * wScale[o] and zero point 0.
//  * Accumulation is exact: sum((x - xZeroPoint) * w) + bias. Ops check
//    statically that it fits int32 for any input (as generated code
//    accumulates in int32) and return an error otherwise.
//
// Every op validates its arguments and returns a failed Status (with the
// message) instead of crashing; on error the output is not written. Output
// tensors are given by the caller (shape, quantization and a buffer of the
// right size).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_REFERENCE_REFERENCE_H
#define QUANTC_REFERENCE_REFERENCE_H

#include "quantc/Reference/Requantize.h"
#include "quantc/Support/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace quantc::ref {

/// A view of a per-tensor quantized 8-bit tensor (row-major, no ownership).
/// `data` points to uint8_t (isSigned = false) or int8_t (isSigned = true)
/// elements; ops only read their inputs.
struct QTensor {
  void *data = nullptr;
  bool isSigned = false;
  std::vector<int64_t> shape;
  float scale = 1.0f;
  int32_t zeroPoint = 0;
  int32_t qmin = 0;   ///< Clamping range, within the storage type.
  int32_t qmax = 255; ///< Clamping range, within the storage type.

  /// Product of the dimensions.
  int64_t numElements() const;
  /// Element i (flat index) as an integer.
  int32_t get(int64_t i) const;
  /// Stores v (must fit the storage type) at flat index i.
  void set(int64_t i, int32_t v) const;
  /// Checks data, shape (`rank` dims, each >= 1), scale (finite, > 0),
  /// qmin <= qmax within the storage type and zeroPoint within the storage
  /// type. `what` names the tensor in the message.
  Status validate(const char *what, size_t rank) const;
};

/// Symmetric i8 weights: OHWI for conv2d, [N, K] for matmul.
struct QWeights {
  const int8_t *data = nullptr;
  std::vector<int64_t> shape;
  /// One scale (per tensor) or one per output channel (dimension 0).
  std::vector<float> scales;

  /// The scale of output channel o.
  float scale(int64_t o) const {
    return scales.size() == 1 ? scales[0] : scales[o];
  }
};

/// The activation fused into an op's epilogue (see activationBounds).
struct FusedActivation {
  Activation kind = Activation::None;
  float clampMin = 0.0f; ///< Only for Activation::Clamp.
  float clampMax = 0.0f; ///< Only for Activation::Clamp.
};

/// Window geometry of conv2d and the pools.
struct Window2D {
  int64_t strideH = 1, strideW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  int64_t dilationH = 1, dilationW = 1;
};

/// Output size of a windowed op along one dimension:
/// (in + padBefore + padAfter - dilation * (kernel - 1) - 1) / stride + 1
/// (floor), or -1 when the padded input is smaller than the dilated kernel.
int64_t windowOutputSize(int64_t in, int64_t kernel, int64_t stride,
                         int64_t padBefore, int64_t padAfter, int64_t dilation);

/// Convolution parameters.
struct Conv2DParams {
  Window2D window;
  int64_t groups = 1;
  FusedActivation activation;
};

/// Quantized 2-D convolution.
///   input  [N, H, W, C], weights [O, KH, KW, C / groups], bias [O] or null,
///   output [N, OH, OW, O], residual null or a tensor of the output's shape.
/// For each output element, with m = requantMultiplier(input.scale,
/// weights.scale(o), output.scale) and [lo, hi] = activationBounds(...) of
/// the output:
///   acc = bias[o] + sum over (kh, kw, i) inside the input of
///         (x[n, ih, iw, g * I + i] - input.zeroPoint) * w[o, kh, kw, i]
///   (padding contributes real zero, i.e. nothing)
///   without residual: out = requantize(acc, m, output.zeroPoint, lo, hi)
///   with residual r:  out = requantize2(acc, m, r - residual.zeroPoint,
///                            requantMultiplier(residual.scale, 1,
///                            output.scale), output.zeroPoint, lo, hi)
///   i.e. v = float(acc) * m + float(r - zr) * mr; the activation (bounds)
///   applies after the residual add.
Status conv2d(const QTensor &input, const QWeights &weights,
              const int32_t *bias, const Conv2DParams &params,
              const QTensor *residual, const QTensor &output);

/// The dequantized output of a layer (a model output computed by it, never
/// rounded to 8 bits): `activation(float(acc) * multiplier)` in float32,
/// with multiplier = requantMultiplier(input.scale, weights.scale(o), 1) and
/// the activation in float (relu max(v, 0), relu6 [0, 6], clamp [min, max]).
float dequantizeAccumulator(int32_t acc, float multiplier,
                            const FusedActivation &activation);

/// conv2d's dequantized-output form: the same accumulators (no residual),
/// each output element dequantizeAccumulator(acc, input.scale *
/// weights.scale(o) as requantMultiplier(..., 1), params.activation) into
/// `output` of shape `outputShape` ([N, OH, OW, O]).
Status conv2dDequantized(const QTensor &input, const QWeights &weights,
                         const int32_t *bias, const Conv2DParams &params,
                         float *output,
                         const std::vector<int64_t> &outputShape);

/// Quantized matmul / linear: input [M, K], weights [N, K], bias [N] or null,
/// output [M, N]:
///   acc = bias[n] + sum_k (x[m, k] - input.zeroPoint) * w[n, k]
///   out = requantize(acc, requantMultiplier(input.scale, weights.scale(n),
///                    output.scale), output.zeroPoint, lo, hi)
Status matmul(const QTensor &input, const QWeights &weights,
              const int32_t *bias, const FusedActivation &activation,
              const QTensor &output);

/// matmul's dequantized-output form: output [M, N] floats,
/// dequantizeAccumulator of each accumulator (see conv2dDequantized).
Status matmulDequantized(const QTensor &input, const QWeights &weights,
                         const int32_t *bias, const FusedActivation &activation,
                         float *output);

/// Quantized batched matmul of two activations: a [B, M, K], b [B, K, N],
/// output [B, M, N] (PyTorch's quantized::matmul, ONNX QLinearMatMul):
///   acc = sum_k (a[b, m, k] - a.zeroPoint) * (b[b, k, n] - b.zeroPoint)
///   out = requantize(acc, requantMultiplier(a.scale, b.scale,
///                    output.scale), output.zeroPoint, qmin, qmax)
/// An error when the accumulator could leave int32 for some inputs in the
/// operands' [qmin, qmax].
Status batchMatmul(const QTensor &a, const QTensor &b, const QTensor &output);

/// Quantized elementwise add (any rank). a and b have the output's rank and
/// each of their dimensions equals the output's or is 1 (broadcast, as NumPy
/// / ONNX after aligning ranks):
///   out = requantize2(a - a.zeroPoint, requantMultiplier(a.scale, 1,
///                     out.scale), b - b.zeroPoint, requantMultiplier(b.scale,
///                     1, out.scale), out.zeroPoint, lo, hi)
/// i.e. v = float(a - za) * ma + float(b - zb) * mb in float32; relu (or any
/// activation) through the bounds. With `subtract`, b's term is negated
/// (mb -> -mb, exact): a - b.
Status add(const QTensor &a, const QTensor &b,
           const FusedActivation &activation, const QTensor &output,
           bool subtract = false);

/// Quantized elementwise multiply, broadcasting as add:
///   out = requantize((a - a.zeroPoint) * (b - b.zeroPoint),
///                    requantMultiplier(a.scale, b.scale, out.scale),
///                    out.zeroPoint, lo, hi)
/// (the product of two centered 8-bit values is exact in int32; PyTorch's
/// quantized::mul).
Status mul(const QTensor &a, const QTensor &b,
           const FusedActivation &activation, const QTensor &output);

/// Entries of one lookup table: one per storage value of an 8-bit input.
constexpr int64_t kTableSize = 256;

/// The entry of a lookup table for the real function value y, in `output`'s
/// quantization: clamp(nearbyint(y / double(output.scale)) +
/// output.zeroPoint, output.qmin, output.qmax), in double with one rounding
/// (half to even); NaN gives the zero point.
int32_t lookupEntry(double y, const QTensor &output);

/// The lookup table of a real function f (double -> double) from `input`'s
/// quantization to `output`'s (data and shapes are not read). Entry k is for
/// the input storage value q = storageMin + k (storageMin: 0 for u8, -128
/// for i8): lookupEntry(f(double(q - input.zeroPoint) *
/// double(input.scale)), output), as TFLite and XNNPACK build theirs.
/// Entries for values outside the input's [qmin, qmax] are computed the
/// same way (they are never read).
template <typename F>
std::vector<int32_t> lookupTable(F f, const QTensor &input,
                                 const QTensor &output) {
  const int32_t storageMin = input.isSigned ? -128 : 0;
  std::vector<int32_t> table(kTableSize);
  for (int64_t k = 0; k < kTableSize; ++k) {
    const int32_t q = storageMin + static_cast<int32_t>(k);
    table[k] = lookupEntry(f(double(q - input.zeroPoint) * double(input.scale)),
                           output);
  }
  return table;
}

/// Element-wise table lookup: input and output of the same shape,
///   out[i] = table[t * kTableSize + (x[i] - storageMin(input))]
/// with t = 0 for one table (kTableSize entries), or t = the channel (last
/// dimension index) of element i for one table per channel (channels *
/// kTableSize entries: per-channel functions such as PReLU). Every entry
/// must lie in the output's [qmin, qmax].
Status lookup(const QTensor &input, const std::vector<int32_t> &table,
              const QTensor &output);

/// Pool parameters.
struct Pool2DParams {
  int64_t kernelH = 1, kernelW = 1;
  Window2D window;
};

/// Max pool, input [N, H, W, C] -> output [N, OH, OW, C]; padded positions do
/// not contribute (every window must hold at least one input element). With
/// equal input and output scale and zero point the result is the maximum
/// itself (clamped to the output's [qmin, qmax]); otherwise the maximum is
/// requantized: requantize(max - zin, requantMultiplier(sin, 1, sout), zout,
/// qmin, qmax) (requantization is monotonic, so this is the max of the
/// requantized values).
Status maxPool2d(const QTensor &input, const Pool2DParams &params,
                 const QTensor &output);

/// Average pool with count_include_pad = false: per window, sum (int32) of
/// (x - input.zeroPoint) over the count non-padded elements, then
///   out = requantize(sum, avgPoolMultiplier(input.scale, output.scale,
///                    count), output.zeroPoint, qmin, qmax)
/// (one rounding: the division by count is folded into the multiplier).
Status avgPool2d(const QTensor &input, const Pool2DParams &params,
                 const QTensor &output);

/// Global average pool: input [N, H, W, C] -> output [N, 1, 1, C]; avgPool2d
/// with one window of H x W (count = H * W).
Status globalAvgPool2d(const QTensor &input, const QTensor &output);

/// Concatenation along `axis` (PyTorch's quantized::cat). An input whose
/// scale and zero point equal the output's is copied (clamped to the
/// output's [qmin, qmax]); any other is requantized:
///   out = requantize(x - zin, requantMultiplier(sin, 1, sout), zout, qmin,
///                    qmax)
Status concat(const std::vector<QTensor> &inputs, int64_t axis,
              const QTensor &output);

/// A per-channel affine map (a batch norm without a convolution before it),
/// channel c = the index along the last dimension:
///   out = requantize2(x - zin, multipliers[c], 1, offsets[c], zout, lo, hi)
/// i.e. clamp(roundHalfEven(float(x - zin) * m[c] + o[c]) + zout, lo, hi)
/// with [lo, hi] the activation's bounds (activationBounds).
Status channelAffine(const QTensor &input,
                     const std::vector<float> &multipliers,
                     const std::vector<float> &offsets,
                     const FusedActivation &activation, const QTensor &output);

/// The channelAffine parameters of an inference batch norm from an input of
/// scale `inScale` to an output of scale `outScale`, in double, rounded to
/// f32 once: a = gamma / sqrt(var + eps), b = beta - mean * a,
/// multiplier = inScale * a / outScale, offset = b / outScale. Error when
/// the sizes differ or a result is not finite.
Status
batchNormAffine(const std::vector<float> &gamma, const std::vector<float> &beta,
                const std::vector<float> &mean, const std::vector<float> &var,
                double epsilon, float inScale, float outScale,
                std::vector<float> &multipliers, std::vector<float> &offsets);

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//
//
// Slice, pad, tile, transpose and nearest resize move values and never
// change them: on a quantized tensor they keep its parameters (a pad value
// is the zero point, i.e. real 0). Each is an index map: for every output
// element (row-major), the flat index of the input element it copies, or
// kPadValue. Any element type applies it (applyIndexMap); the int8
// reference model does so for the TOSA ops of these names on quantized
// tensors, whose semantics (TOSA 1.0) these follow.

/// An index map entry that takes the pad value.
constexpr int64_t kPadValue = -1;

/// `size[d]` elements from `start[d]` along each dimension.
Status sliceIndexMap(const std::vector<int64_t> &inShape,
                     const std::vector<int64_t> &start,
                     const std::vector<int64_t> &size,
                     std::vector<int64_t> &map);

/// `pads[2 d]` pad values before and `pads[2 d + 1]` after dimension d.
Status padIndexMap(const std::vector<int64_t> &inShape,
                   const std::vector<int64_t> &pads, std::vector<int64_t> &map);

/// The input repeated `multiples[d]` times along each dimension.
Status tileIndexMap(const std::vector<int64_t> &inShape,
                    const std::vector<int64_t> &multiples,
                    std::vector<int64_t> &map);

/// Output dimension d is input dimension perms[d].
Status transposeIndexMap(const std::vector<int64_t> &inShape,
                         const std::vector<int32_t> &perms,
                         std::vector<int64_t> &map);

/// TOSA's resize of an NHWC image with nearest neighbour: output (y, x)
/// reads input row iy = floor(v / n) (+1 when the remainder is at least
/// n / 2), v = y * d + offset, clamped to [0, H - 1], with (n, d, offset)
/// = (scale[0], scale[1], offset[0]) for rows and (scale[2], scale[3],
/// offset[1]) for columns; the output size is ((H - 1) * n - offset +
/// border) / d + 1.
Status resizeNearestIndexMap(const std::vector<int64_t> &inShape,
                             const std::vector<int64_t> &scale,
                             const std::vector<int64_t> &offset,
                             const std::vector<int64_t> &border,
                             std::vector<int64_t> &map);

/// The NHWC output shape of a resize of `inShape` (both modes), or an error
/// for parameters outside TOSA's limits or a fractional output size.
Status resizeOutputShape(const std::vector<int64_t> &inShape,
                         const std::vector<int64_t> &scale,
                         const std::vector<int64_t> &offset,
                         const std::vector<int64_t> &border,
                         std::vector<int64_t> &outShape);

/// One axis of a bilinear resize: output coordinate o reads input
/// coordinates i0 and i1 with integer weights w0 + w1 = n.
struct BilinearTap {
  int64_t i0, i1, w0, w1;
};

/// The taps of one axis of TOSA's bilinear resize: v = o * d + offset,
/// i = floor(v / n), r = v - i * n; i0 = clamp(i), i1 = clamp(i + 1) to
/// [0, inSize - 1], w0 = n - r, w1 = r; for `outSize` outputs.
std::vector<BilinearTap> bilinearTaps(int64_t inSize, int64_t outSize,
                                      int64_t n, int64_t d, int64_t offset);

/// Bilinear resize of an NHWC image with the rational maps of
/// resizeNearestIndexMap, in integers and rounded once: the four
/// neighbours' storage values weighted by (row tap weight) * (column tap
/// weight), summed exactly (acc), then out = floor((acc + N / 2) / N) with
/// N = n_y * n_x, clamped to [qmin, qmax]. The output keeps the input's
/// scale and zero point (an interpolation never leaves the input's range;
/// PyTorch's quantized upsampling keeps them too).
Status resizeBilinear(const QTensor &input, const std::vector<int64_t> &scale,
                      const std::vector<int64_t> &offset,
                      const std::vector<int64_t> &border,
                      const QTensor &output);

/// out[i] = map[i] == kPadValue ? padValue : in[map[i]]./// out[i] = map[i] ==
/// kPadValue ? padValue : in[map[i]].
template <typename T>
void applyIndexMap(const T *in, const std::vector<int64_t> &map, T padValue,
                   T *out) {
  for (size_t i = 0; i < map.size(); ++i)
    out[i] = map[i] == kPadValue ? padValue : in[map[i]];
}

/// out[i] = quantize(x[i], output.scale, output.zeroPoint, output.qmin,
/// output.qmax) (PyTorch 1.13's quantize_per_tensor, see Requantize.h).
Status quantizeTensor(const float *input, const QTensor &output);

/// out[i] = dequantize(q[i], input.scale, input.zeroPoint).
Status dequantizeTensor(const QTensor &input, float *output);

} // namespace quantc::ref

#endif // QUANTC_REFERENCE_REFERENCE_H
