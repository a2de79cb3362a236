//===- Requantize.h - The scalar int8 arithmetic, defined once ---*- C++
//-*-===//
//
// The scalar numbers of quantized inference: requantization multipliers,
// the float32 requantization epilogue, fused-activation bounds, and
// quantize / dequantize of one value. The reference ops (Reference.h), the
// compiler passes (which store multipliers and bounds on each op) and the
// generated code all follow these definitions bit for bit.
//
// Every computation is float32 with round-to-nearest-even, evaluated exactly
// in the order written here (the library is built with -ffp-contract=off, so
// `a * b + c` is never fused). Float-to-integer rounding is round half to
// even (std::nearbyint in the default rounding mode, i.e. x86 cvtps2dq /
// AArch64 fcvtns), saturating at the int64 range.
//
// No MLIR/LLVM dependency, no exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_REFERENCE_REQUANTIZE_H
#define QUANTC_REFERENCE_REQUANTIZE_H

#include <cstdint>
#include <optional>

namespace quantc::ref {

/// Activation fused into a requantization epilogue.
enum class Activation { None, Relu, Relu6, Clamp };

/// Inclusive integer output range [lo, hi] of a requantization. lo > hi only
/// for a clamp whose float interval misses [qmin, qmax] (ops reject that).
struct Bounds {
  int32_t lo = 0;
  int32_t hi = 0;
};

/// Rounds half to even to an integer (std::nearbyint in the default rounding
/// mode); NaN gives 0, values outside the int64 range saturate.
int64_t roundHalfEven(float v);

/// The multiplier mapping an int32 accumulator with scale inScale * wScale to
/// the output scale: the float32 nearest to the exact
/// (double(inScale) * double(wScale)) / double(outScale), i.e. computed in
/// double (the product of two floats is exact in double) and rounded to float
/// once. Conversion stores exactly this float on each op; generated code and
/// the reference multiply by it. For a pure rescale (concat, add, residual,
/// max pool) pass wScale = 1.
float requantMultiplier(float inScale, float wScale, float outScale);

/// The multiplier of an average pool over `count` elements:
/// float32(double(inScale) / (double(outScale) * double(count))), rounded
/// once (for the counts of real pools the denominator is exact in double).
float avgPoolMultiplier(float inScale, float outScale, int64_t count);

/// The requantization epilogue:
///   v = float(acc) * multiplier        (acc -> float32 RNE, one float32 mul)
///   q = roundHalfEven(v) + zeroPoint   (int64, no overflow)
///   return clamp(q, lo, hi)
int32_t requantize(int32_t acc, float multiplier, int32_t zeroPoint, int32_t lo,
                   int32_t hi);

/// The two-term epilogue shared by quantized add and the residual add fused
/// into a convolution:
///   t1 = float(a) * ma;  t2 = float(b) * mb;  v = t1 + t2   (float32, in
///   this order: two roundings for the products, one for the sum)
///   return clamp(roundHalfEven(v) + zeroPoint, lo, hi)
/// With b = 0 (or mb = 0) it equals requantize(a, ma, ...).
int32_t requantize2(int32_t a, float ma, int32_t b, float mb, int32_t zeroPoint,
                    int32_t lo, int32_t hi);

/// PyTorch 1.13's quantize_per_tensor of one value, without the clamp:
///   roundHalfEven(x * (1.0f / scale)) + zeroPoint
/// (float32 reciprocal, then float32 multiply; ATen's CPU kernel
/// `quantize_val` without FBGEMM). Saturates at the int64 range.
int64_t quantizeUnclamped(float x, float scale, int32_t zeroPoint);

/// quantizeUnclamped clamped to [qmin, qmax].
int32_t quantize(float x, float scale, int32_t zeroPoint, int32_t qmin,
                 int32_t qmax);

/// A float bias as int32 with scale inScale * wScale (zero point 0):
/// round_half_even(double(bias) / (double(inScale) * double(wScale))),
/// computed in double (the scale product of two floats is exact there).
/// Returns std::nullopt when the result does not fit int32.
std::optional<int32_t> quantizeBias(float bias, float inScale, float wScale);

/// (q - zeroPoint) * scale in float32 (the difference is exact).
float dequantize(int32_t q, float scale, int32_t zeroPoint);

/// The output range of a requantization with a fused activation, for output
/// quantization (scale, zeroPoint) and storage range [qmin, qmax]. A float
/// bound b becomes the integer quantizeUnclamped(b, scale, zeroPoint), i.e.
/// exactly what quantizing the float bound gives (and what PyTorch's quantized
/// relu6 / clamp / hardtanh do):
///   None:  [qmin, qmax]
///   Relu:  [max(qmin, zeroPoint), qmax]                  (quantize(0) = zp)
///   Relu6: [max(qmin, zeroPoint), min(qmax, quantize(6.0f))]
///   Clamp: [max(qmin, quantize(clampMin)), min(qmax, quantize(clampMax))]
/// clampMin / clampMax are ignored unless act == Clamp.
Bounds activationBounds(Activation act, float clampMin, float clampMax,
                        float scale, int32_t zeroPoint, int32_t qmin,
                        int32_t qmax);

} // namespace quantc::ref

#endif // QUANTC_REFERENCE_REQUANTIZE_H
