//===- RequantizeTest.cpp - The scalar int8 arithmetic --------------------===//
//
// Rounding (ties to even, before the zero point), saturation, overflow-free
// clamping, the multiplier's single rounding, quantize's float32 reciprocal
// and the fused-activation bounds.
//
//===----------------------------------------------------------------------===//

#include "quantc/Reference/Requantize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace quantc::ref;

namespace {

constexpr int32_t kI32Min = std::numeric_limits<int32_t>::min();
constexpr int32_t kI32Max = std::numeric_limits<int32_t>::max();

float fromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

} // namespace

TEST(RoundHalfEven, TiesGoToEven) {
  EXPECT_EQ(roundHalfEven(0.5f), 0);
  EXPECT_EQ(roundHalfEven(1.5f), 2);
  EXPECT_EQ(roundHalfEven(2.5f), 2);
  EXPECT_EQ(roundHalfEven(-0.5f), 0);
  EXPECT_EQ(roundHalfEven(-1.5f), -2);
  EXPECT_EQ(roundHalfEven(-2.5f), -2);
  EXPECT_EQ(roundHalfEven(2.4999998f), 2);
  EXPECT_EQ(roundHalfEven(2.5000002f), 3);
}

TEST(RoundHalfEven, Saturates) {
  EXPECT_EQ(roundHalfEven(1e30f), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(roundHalfEven(-1e30f), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(roundHalfEven(INFINITY), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(roundHalfEven(-INFINITY), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(roundHalfEven(NAN), 0);
  EXPECT_EQ(roundHalfEven(4611686018427387904.0f), int64_t(1) << 62);
}

TEST(Requantize, RoundsTiesToEvenBeforeAddingZeroPoint) {
  EXPECT_EQ(requantize(1, 0.5f, 0, -128, 127), 0);
  EXPECT_EQ(requantize(3, 0.5f, 0, -128, 127), 2);
  EXPECT_EQ(requantize(5, 0.5f, 0, -128, 127), 2);
  EXPECT_EQ(requantize(-3, 0.5f, 0, -128, 127), -2);
  // round(0.5) + 1 = 1, not round(0.5 + 1) = 2.
  EXPECT_EQ(requantize(1, 0.5f, 1, 0, 255), 1);
  EXPECT_EQ(requantize(3, 0.5f, 1, 0, 255), 3);
}

TEST(Requantize, ConvertsTheAccumulatorToFloatFirst) {
  // 2^24 + 1 is not a float: it becomes 2^24 (tie to even), 2^24 + 3
  // becomes 2^24 + 4.
  EXPECT_EQ(requantize(16777217, 1.0f, 0, kI32Min, kI32Max), 16777216);
  EXPECT_EQ(requantize(16777219, 1.0f, 0, kI32Min, kI32Max), 16777220);
}

TEST(Requantize, ClampsToBounds) {
  EXPECT_EQ(requantize(1000, 0.5f, 10, 0, 255), 255);
  EXPECT_EQ(requantize(-1000, 0.5f, 10, 0, 255), 0);
  EXPECT_EQ(requantize(-10, 0.5f, 10, 10, 255), 10); // relu
  EXPECT_EQ(requantize(100, 0.5f, 10, 0, 127), 60);
}

TEST(Requantize, SaturatesWithoutOverflow) {
  // float(acc) * m is +-inf: saturates, then clamps.
  EXPECT_EQ(requantize(kI32Max, 3e38f, 0, -128, 127), 127);
  EXPECT_EQ(requantize(kI32Min, 3e38f, 0, -128, 127), -128);
  EXPECT_EQ(requantize(kI32Max, 3e38f, kI32Max, kI32Min, kI32Max), kI32Max);
  EXPECT_EQ(requantize(kI32Min, 3e38f, kI32Min, kI32Min, kI32Max), kI32Min);
  // The zero point added to a large rounded value stays in int64.
  EXPECT_EQ(requantize(kI32Max, 1.0f, kI32Max, kI32Min, kI32Max), kI32Max);
  EXPECT_EQ(requantize(kI32Min, 1.0f, kI32Min, kI32Min, kI32Max), kI32Min);
  EXPECT_EQ(requantize(kI32Min, 1.0f, kI32Max, kI32Min, kI32Max), -1);
  // NaN multiplier: the rounded value is 0, the result the zero point.
  EXPECT_EQ(requantize(5, NAN, 7, 0, 255), 7);
}

TEST(Requantize2, SumsTwoRoundedProductsThenRounds) {
  // 0.25 + 0.25 = 0.5 -> 0 (tie to even), + zero point.
  EXPECT_EQ(requantize2(1, 0.25f, 1, 0.25f, 3, 0, 255), 3);
  EXPECT_EQ(requantize2(10, 0.25f, 3, 0.5f, 0, -128, 127), 4);
  EXPECT_EQ(requantize2(-7, 1.0f, 3, 1.0f, 0, 0, 255), 0);
  // b = 0 is requantize.
  for (int32_t acc = -3000; acc <= 3000; acc += 7)
    EXPECT_EQ(requantize2(acc, 0.0123f, 0, 0.77f, 5, 0, 255),
              requantize(acc, 0.0123f, 5, 0, 255));
  EXPECT_EQ(requantize2(kI32Max, 3e38f, kI32Max, 3e38f, 1, 0, 255), 255);
}

TEST(RequantMultiplier, RoundsOnce) {
  // The float32 product, then quotient, would be 0x42b21644; the exact
  // quotient rounded once is 0x42b21643.
  const float a = fromBits(0x3f2d66e3), b = fromBits(0x3ea999bd),
              c = fromBits(0x3b252384);
  EXPECT_EQ(bitsOf(requantMultiplier(a, b, c)), 0x42b21643u);
  EXPECT_EQ(requantMultiplier(0.1f, 1.0f, 0.1f), 1.0f);
  EXPECT_EQ(requantMultiplier(0.5f, 0.25f, 2.0f), 0.0625f);
}

TEST(AvgPoolMultiplier, FoldsTheCount) {
  EXPECT_EQ(avgPoolMultiplier(1.0f, 1.0f, 4), 0.25f);
  EXPECT_EQ(avgPoolMultiplier(0.3f, 0.3f, 9), static_cast<float>(1.0 / 9.0));
  EXPECT_EQ(avgPoolMultiplier(0.5f, 0.25f, 3),
            static_cast<float>(0.5 / (0.25 * 3.0)));
}

TEST(Quantize, MultipliesByTheFloatReciprocal) {
  // x / 0.1f rounds to -145, x * (1 / 0.1f) to -146: PyTorch 1.13 gives
  // -146 (ATen's quantize_val without FBGEMM).
  const float x = fromBits(0xc168ccccu);
  EXPECT_EQ(quantizeUnclamped(x, 0.1f, 0), -146);
  EXPECT_EQ(quantize(x, 0.1f, 0, -128, 127), -128);
  EXPECT_EQ(quantize(x, 0.1f, 200, 0, 255), 54);
  EXPECT_EQ(quantize(0.25f, 0.5f, 0, 0, 255), 0); // tie to even
  EXPECT_EQ(quantize(0.75f, 0.5f, 0, 0, 255), 2);
  EXPECT_EQ(quantize(-0.25f, 0.5f, 10, 0, 255), 10);
}

TEST(Quantize, Saturates) {
  EXPECT_EQ(quantize(1e30f, 0.1f, 3, 0, 255), 255);
  EXPECT_EQ(quantize(-1e30f, 0.1f, 3, 0, 255), 0);
  EXPECT_EQ(quantize(INFINITY, 1.0f, 0, -128, 127), 127);
  EXPECT_EQ(quantizeUnclamped(1e30f, 1e-30f, 5),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(quantizeUnclamped(-1e30f, 1e-30f, -5),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(quantize(NAN, 1.0f, 9, 0, 255), 9);
}

TEST(Dequantize, SubtractsThenScales) {
  EXPECT_EQ(dequantize(130, 0.5f, 128), 1.0f);
  EXPECT_EQ(dequantize(-128, 0.1f, 0), -128 * 0.1f);
  EXPECT_EQ(dequantize(0, 0.25f, 255), -63.75f);
}

TEST(ActivationBounds, NoneAndRelu) {
  Bounds b = activationBounds(Activation::None, 0, 0, 0.1f, 20, 0, 255);
  EXPECT_EQ(b.lo, 0);
  EXPECT_EQ(b.hi, 255);
  b = activationBounds(Activation::Relu, 0, 0, 0.1f, 20, 0, 255);
  EXPECT_EQ(b.lo, 20);
  EXPECT_EQ(b.hi, 255);
  b = activationBounds(Activation::Relu, 0, 0, 0.1f, -128, -128, 127);
  EXPECT_EQ(b.lo, -128);
  // Zero point below a reduced range.
  b = activationBounds(Activation::Relu, 0, 0, 0.1f, 0, 3, 127);
  EXPECT_EQ(b.lo, 3);
}

TEST(ActivationBounds, Relu6) {
  Bounds b = activationBounds(Activation::Relu6, 0, 0, 0.06f, 10, 0, 255);
  EXPECT_EQ(b.lo, 10);
  EXPECT_EQ(b.hi, 110);
  // 6 / 4 = 1.5: ties to even.
  b = activationBounds(Activation::Relu6, 0, 0, 4.0f, 0, -128, 127);
  EXPECT_EQ(b.hi, 2);
  b = activationBounds(Activation::Relu6, 0, 0, 12.0f, 0, -128, 127);
  EXPECT_EQ(b.hi, 0); // 0.5 -> 0
  b = activationBounds(Activation::Relu6, 0, 0, 0.001f, 0, 0, 255);
  EXPECT_EQ(b.hi, 255);
}

TEST(ActivationBounds, Clamp) {
  Bounds b =
      activationBounds(Activation::Clamp, -1.0f, 2.0f, 0.1f, 128, 0, 255);
  EXPECT_EQ(b.lo, 118);
  EXPECT_EQ(b.hi, 148);
  b = activationBounds(Activation::Clamp, -100.0f, 100.0f, 0.1f, 0, -128, 127);
  EXPECT_EQ(b.lo, -128);
  EXPECT_EQ(b.hi, 127);
  // Disjoint from [qmin, qmax]: empty.
  b = activationBounds(Activation::Clamp, 50.0f, 60.0f, 0.1f, 0, -128, 127);
  EXPECT_GT(b.lo, b.hi);
  b = activationBounds(Activation::Clamp, -1e30f, 1e30f, 1e-30f, 0, 0, 255);
  EXPECT_EQ(b.lo, 0);
  EXPECT_EQ(b.hi, 255);
}
