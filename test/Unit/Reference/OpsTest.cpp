//===- OpsTest.cpp - Reference ops on hand-computed cases and bad input ---===//
//
// Small cases whose results are worked out in the comments (residual add,
// activation after the residual, group indexing, pool padding, concat
// requantization), and the argument checks: every error returns a message
// and leaves the output untouched.
//
//===----------------------------------------------------------------------===//

#include "quantc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace quantc::ref;
using quantc::Status;

namespace {

/// A tensor owning its storage, viewed as a QTensor.
struct Owned {
  std::vector<uint8_t> bytes;
  QTensor t;

  Owned(std::vector<int64_t> shape, bool isSigned, float scale, int32_t zp,
        std::vector<int32_t> values = {}) {
    t.isSigned = isSigned;
    t.shape = std::move(shape);
    t.scale = scale;
    t.zeroPoint = zp;
    t.qmin = isSigned ? -128 : 0;
    t.qmax = isSigned ? 127 : 255;
    bytes.assign(t.numElements(), 0xAB);
    t.data = bytes.data();
    for (size_t i = 0; i < values.size(); ++i)
      t.set(static_cast<int64_t>(i), values[i]);
  }
  int32_t at(int64_t i) const { return t.get(i); }
  std::vector<int32_t> values() const {
    std::vector<int32_t> v;
    for (int64_t i = 0; i < t.numElements(); ++i)
      v.push_back(t.get(i));
    return v;
  }
};

QWeights weights(const std::vector<int8_t> &data, std::vector<int64_t> shape,
                 std::vector<float> scales) {
  QWeights w;
  w.data = data.data();
  w.shape = std::move(shape);
  w.scales = std::move(scales);
  return w;
}

} // namespace

TEST(Conv2d, HandComputed) {
  // input 1x2x2x1, zp 2: x - zp = [1, 2, 3, 4]; weights 1x2x2x1 = [1, 1, 1, 2];
  // acc = 1 + 2 + 3 + 8 + bias 4 = 18; m = 0.5 * 1 / 2 = 0.25 -> 4.5 -> 4
  // (tie to even), + zp 10 = 14.
  Owned in({1, 2, 2, 1}, false, 0.5f, 2, {3, 4, 5, 6});
  std::vector<int8_t> w = {1, 1, 1, 2};
  const int32_t bias = 4;
  Owned out({1, 1, 1, 1}, false, 2.0f, 10);
  ASSERT_TRUE(
      conv2d(in.t, weights(w, {1, 2, 2, 1}, {1.0f}), &bias, {}, nullptr, out.t)
          .ok());
  EXPECT_EQ(out.at(0), 14);
}

TEST(Conv2d, PaddingContributesRealZero) {
  // 1x1x1x1 input with pad 1 and a 3x3 kernel of ones: only the centre
  // counts, whatever the zero point: acc = x - zp = 5.
  Owned in({1, 1, 1, 1}, true, 1.0f, -3, {2});
  std::vector<int8_t> w(9, 1);
  Conv2DParams p;
  p.window.padTop = p.window.padBottom = p.window.padLeft = p.window.padRight =
      1;
  Owned out({1, 1, 1, 1}, true, 1.0f, 0);
  ASSERT_TRUE(
      conv2d(in.t, weights(w, {1, 3, 3, 1}, {1.0f}), nullptr, p, nullptr, out.t)
          .ok());
  EXPECT_EQ(out.at(0), 5);
}

TEST(Conv2d, ResidualIsAddedBeforeTheActivation) {
  // acc = (x - zp) * w = -4 * 1; m = 1 * 1 / 1 = 1 -> -4.
  // residual r - zr = 10 - 4 = 6, mr = 0.5 / 1 = 0.5 -> 3.
  // v = -4 + 3 = -1; relu after the add: max(zp_out, -1 + 0) = 0 with
  // zp_out = 0; without relu -1. A relu before the add would give 3.
  Owned in({1, 1, 1, 1}, true, 1.0f, 0, {-4});
  std::vector<int8_t> w = {1};
  Owned res({1, 1, 1, 1}, true, 0.5f, 4, {10});
  Conv2DParams p;
  Owned out({1, 1, 1, 1}, true, 1.0f, 0);
  ASSERT_TRUE(
      conv2d(in.t, weights(w, {1, 1, 1, 1}, {1.0f}), nullptr, p, &res.t, out.t)
          .ok());
  EXPECT_EQ(out.at(0), -1);
  p.activation.kind = Activation::Relu;
  ASSERT_TRUE(
      conv2d(in.t, weights(w, {1, 1, 1, 1}, {1.0f}), nullptr, p, &res.t, out.t)
          .ok());
  EXPECT_EQ(out.at(0), 0);
  // v = 2.5 + 1.5 = 4 exactly (one rounding of the sum, not 2 + 2).
  Owned in2({1, 1, 1, 1}, true, 0.5f, 0, {5});
  Owned res2({1, 1, 1, 1}, true, 0.5f, 0, {3});
  p.activation.kind = Activation::None;
  ASSERT_TRUE(conv2d(in2.t, weights(w, {1, 1, 1, 1}, {1.0f}), nullptr, p,
                     &res2.t, out.t)
                  .ok());
  EXPECT_EQ(out.at(0), 4);
}

TEST(Conv2d, GroupsMatchSeparateConvolutions) {
  // groups = 2, C = 4, O = 6: output channels 0-2 see input channels 0-1,
  // 3-5 see 2-3. Compare with two convolutions on the channel halves.
  const int64_t h = 4, w = 5;
  std::vector<int32_t> xs;
  for (int i = 0; i < h * w * 4; ++i)
    xs.push_back((i * 37) % 256);
  Owned in({1, h, w, 4}, false, 0.05f, 100, xs);
  std::vector<int8_t> wt;
  for (int i = 0; i < 6 * 3 * 3 * 2; ++i)
    wt.push_back(static_cast<int8_t>((i * 29) % 255 - 127));
  std::vector<float> scales = {0.01f, 0.02f, 0.03f, 0.015f, 0.025f, 0.005f};
  std::vector<int32_t> bias = {10, -20, 30, -40, 50, -60};
  Conv2DParams p;
  p.groups = 2;
  Owned out({1, h - 2, w - 2, 6}, false, 0.1f, 128);
  ASSERT_TRUE(conv2d(in.t, weights(wt, {6, 3, 3, 2}, scales), bias.data(), p,
                     nullptr, out.t)
                  .ok());
  for (int g = 0; g < 2; ++g) {
    std::vector<int32_t> half;
    for (int64_t i = 0; i < h * w; ++i)
      for (int c = 0; c < 2; ++c)
        half.push_back(xs[i * 4 + g * 2 + c]);
    Owned inG({1, h, w, 2}, false, 0.05f, 100, half);
    std::vector<int8_t> wG(wt.begin() + g * 54, wt.begin() + (g + 1) * 54);
    std::vector<float> sG(scales.begin() + g * 3, scales.begin() + g * 3 + 3);
    Owned outG({1, h - 2, w - 2, 3}, false, 0.1f, 128);
    ASSERT_TRUE(conv2d(inG.t, weights(wG, {3, 3, 3, 2}, sG),
                       bias.data() + g * 3, {}, nullptr, outG.t)
                    .ok());
    for (int64_t i = 0; i < (h - 2) * (w - 2); ++i)
      for (int c = 0; c < 3; ++c)
        EXPECT_EQ(out.at(i * 6 + g * 3 + c), outG.at(i * 3 + c));
  }
}

TEST(Conv2d, DepthwiseMultiplierTwo) {
  // groups = C = 2, O = 4: output channels 0, 1 read input channel 0 and
  // 2, 3 read input channel 1.
  Owned in({1, 1, 1, 2}, false, 1.0f, 0, {3, 5});
  std::vector<int8_t> w = {1, 2, 3, 4};
  Conv2DParams p;
  p.groups = 2;
  Owned out({1, 1, 1, 4}, false, 1.0f, 0);
  ASSERT_TRUE(
      conv2d(in.t, weights(w, {4, 1, 1, 1}, {1.0f}), nullptr, p, nullptr, out.t)
          .ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{3, 6, 15, 20}));
}

TEST(Matmul, HandComputed) {
  // x - zp = [[1, 2], [-1, 0]]; w = [[1, 1], [2, -1]], scales [1, 0.5];
  // bias [1, 0]; acc = [[4, 0], [0, -2]]; m = [0.5, 0.25];
  // out = round([[2, 0], [0, -0.5]]) + 3 = [[5, 3], [3, 3]] (-0.5 -> 0).
  Owned in({2, 2}, false, 1.0f, 1, {2, 3, 0, 1});
  std::vector<int8_t> w = {1, 1, 2, -1};
  std::vector<int32_t> bias = {1, 0};
  Owned out({2, 2}, false, 2.0f, 3);
  ASSERT_TRUE(
      matmul(in.t, weights(w, {2, 2}, {1.0f, 0.5f}), bias.data(), {}, out.t)
          .ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{5, 3, 3, 3}));
}

TEST(BatchMatmul, HandComputed) {
  // Two batches of [1, 2] x [2, 2]. a - za (za = 10) = [[1, 2]], [[-1, 3]];
  // b - zb (zb = 100) = [[1, 0], [2, -1]] and [[0, 1], [1, 1]]:
  // acc = [5, -2] and [3, 2]; m = 0.5 * 0.25 / 0.125 = 1:
  // out = acc + 7, clamped to [0, 255].
  Owned a({2, 1, 2}, false, 0.5f, 10, {11, 12, 9, 13});
  Owned b({2, 2, 2}, false, 0.25f, 100,
          {101, 100, 102, 99, 100, 101, 101, 101});
  Owned out({2, 1, 2}, false, 0.125f, 7);
  ASSERT_TRUE(batchMatmul(a.t, b.t, out.t).ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{12, 5, 10, 9}));
  // Half to even: m = 0.5, acc 5 -> 2.5 -> 2, -2 -> -1, 3 -> 1.5 -> 2.
  Owned half({2, 1, 2}, false, 0.25f, 7);
  ASSERT_TRUE(batchMatmul(a.t, b.t, half.t).ok());
  EXPECT_EQ(half.values(), (std::vector<int32_t>{9, 6, 9, 8}));
}

TEST(BatchMatmul, RejectsShapesAndOverflow) {
  Owned a({1, 2, 3}, false, 1.0f, 0);
  Owned b({1, 2, 3}, false, 1.0f, 0);
  Owned out({1, 2, 3}, false, 1.0f, 0);
  EXPECT_TRUE(batchMatmul(a.t, b.t, out.t).failed()); // K = 3 vs 2 rows of b
  // 40000 products of 255 x 255 could leave int32.
  Owned wa({1, 1, 40000}, false, 1.0f, 0);
  Owned wb({1, 40000, 1}, false, 1.0f, 0);
  Owned wo({1, 1, 1}, false, 1.0f, 0);
  Status e = batchMatmul(wa.t, wb.t, wo.t);
  ASSERT_TRUE(e.failed());
  EXPECT_NE(e.message().find("overflow"), std::string::npos);
}

TEST(Add, HandComputedWithRelu) {
  // (a - za) * 0.5 / 1 + (b - zb) * 0.25 / 1: [2 + 1, -4 + 0.5] = [3, -3.5].
  Owned a({2}, true, 0.5f, 0, {4, -8});
  Owned b({2}, true, 0.25f, 2, {6, 4});
  Owned out({2}, true, 1.0f, 1);
  ASSERT_TRUE(add(a.t, b.t, {}, out.t).ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{4, -3})); // -3.5 -> -4, +1
  FusedActivation relu;
  relu.kind = Activation::Relu;
  ASSERT_TRUE(add(a.t, b.t, relu, out.t).ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{4, 1}));
}

TEST(Add, BroadcastsAndSubtracts) {
  // a [2, 2] = [[1, 2], [3, 4]] (scale 1, zp 0), b [1, 2] = [10, 20] * 0.5:
  // a + b = [[6, 12], [8, 14]]; a - b = [[-4, -8], [-2, -6]].
  Owned a({2, 2}, true, 1.0f, 0, {1, 2, 3, 4});
  Owned b({1, 2}, true, 0.5f, 0, {10, 20});
  Owned out({2, 2}, true, 1.0f, 0);
  ASSERT_TRUE(add(a.t, b.t, {}, out.t).ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{6, 12, 8, 14}));
  ASSERT_TRUE(add(a.t, b.t, {}, out.t, /*subtract=*/true).ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{-4, -8, -2, -6}));
  // Broadcasting on the left operand too: b [2, 1] against a [1, 2].
  Owned col({2, 1}, true, 1.0f, 0, {100, -100});
  Owned row({1, 2}, true, 1.0f, 0, {1, 2});
  ASSERT_TRUE(add(col.t, row.t, {}, out.t).ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{101, 102, -99, -98}));
}

TEST(Mul, SqueezeExcitationBroadcast) {
  // x [1, 2, 2, 2] (u8, scale 0.5, zp 10) times a per-channel scale
  // s [1, 1, 1, 2] (u8, scale 1/256, zp 0) = [128, 64] i.e. [0.5, 0.25];
  // output scale 0.25, zp 5: (x - 10) * 0.5 * s / 0.25 = (x - 10) * s / 128.
  Owned x({1, 2, 2, 2}, false, 0.5f, 10, {10, 14, 18, 22, 30, 2, 11, 12});
  Owned s({1, 1, 1, 2}, false, 1.0f / 256, 0, {128, 64});
  Owned out({1, 2, 2, 2}, false, 0.25f, 5);
  ASSERT_TRUE(mul(x.t, s.t, {}, out.t).ok());
  // x - 10 = [0, 4, 8, 12, 20, -8, 1, 2]; channel 0 (even) times 128 / 128,
  // channel 1 (odd) times 64 / 128: [0, 2, 8, 6, 20, -4, 1, 1], plus zp 5.
  EXPECT_EQ(out.values(), (std::vector<int32_t>{5, 7, 13, 11, 25, 1, 6, 6}));
  FusedActivation relu;
  relu.kind = Activation::Relu;
  ASSERT_TRUE(mul(x.t, s.t, relu, out.t).ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{5, 7, 13, 11, 25, 5, 6, 6}));
}

TEST(Mul, RoundsHalfToEven) {
  // (3 - 0) * (1 - 0) * (1 * 1 / 2) = 1.5 -> 2; 5 * 1 / 2 = 2.5 -> 2.
  Owned a({2}, true, 1.0f, 0, {3, 5});
  Owned b({1}, true, 1.0f, 0, {1});
  Owned out({2}, true, 2.0f, 0);
  ASSERT_TRUE(mul(a.t, b.t, {}, out.t).ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{2, 2}));
}

TEST(LookupTable, RoundsOnceInDouble) {
  // Input u8 scale 1, zp 128: entry k is for x = k - 128; f(x) = x / 2 at
  // output scale 1, zp 0 in i8: round half to even, clamped to [-128, 127].
  Owned in({1}, false, 1.0f, 128);
  Owned out({1}, true, 1.0f, 0);
  std::vector<int32_t> t =
      lookupTable([](double x) { return x / 2; }, in.t, out.t);
  ASSERT_EQ(t.size(), size_t(kTableSize));
  EXPECT_EQ(t[0], -64);  // -128 / 2
  EXPECT_EQ(t[127], 0);  // -0.5 -> -0
  EXPECT_EQ(t[129], 0);  // 0.5 -> 0
  EXPECT_EQ(t[131], 2);  // 1.5 -> 2
  EXPECT_EQ(t[133], 2);  // 2.5 -> 2
  EXPECT_EQ(t[255], 64); // 127 / 2 = 63.5 -> 64
  // i8 input: entry 0 is q = -128.
  Owned sin({1}, true, 0.1f, 0);
  Owned sout({1}, false, 1.0f / 256, 0);
  t = lookupTable([](double x) { return 1 / (1 + std::exp(-x)); }, sin.t,
                  sout.t);
  EXPECT_EQ(t[128], 128); // sigmoid(0) * 256
  EXPECT_EQ(t[255], 255); // 256 * sigmoid(12.7) clamps
  EXPECT_EQ(t[0], 0);     // 256 * sigmoid(-12.8) = 0.0007
}

TEST(MaxPool, PaddingDoesNotContribute) {
  // All values below the zero point (negative reals): a padded 0 would win.
  Owned in({1, 2, 2, 1}, true, 1.0f, 0, {-5, -3, -7, -9});
  Pool2DParams p;
  p.kernelH = p.kernelW = 3;
  p.window.padTop = p.window.padBottom = p.window.padLeft = p.window.padRight =
      1;
  Owned out({1, 2, 2, 1}, true, 1.0f, 0);
  ASSERT_TRUE(maxPool2d(in.t, p, out.t).ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{-3, -3, -3, -3}));
}

TEST(MaxPool, RequantizesWhenParamsDiffer) {
  // max = 9, (9 - 1) * 0.5 / 2 = 2 -> 2 + 100.
  Owned in({1, 1, 2, 1}, false, 0.5f, 1, {9, 4});
  Pool2DParams p;
  p.kernelW = 2;
  Owned out({1, 1, 1, 1}, false, 2.0f, 100);
  ASSERT_TRUE(maxPool2d(in.t, p, out.t).ok());
  EXPECT_EQ(out.at(0), 102);
}

TEST(AvgPool, DividesByTheNonPaddedCount) {
  // 2x2 input, kernel 2, stride 1, pad 1 (3x3 output); zp 1, so x - zp =
  // [0, 1, 2, 5]. Corner (0,0) holds only x[0,0]: 0; window (0,1) holds
  // 0 + 1 = 1 over 2 -> 0.5 -> 0; centre: 8 / 4 = 2; (2,2): 5.
  Owned in({1, 2, 2, 1}, false, 1.0f, 1, {1, 2, 3, 6});
  Pool2DParams p;
  p.kernelH = p.kernelW = 2;
  p.window.padTop = p.window.padBottom = p.window.padLeft = p.window.padRight =
      1;
  Owned out({1, 3, 3, 1}, false, 1.0f, 1);
  ASSERT_TRUE(avgPool2d(in.t, p, out.t).ok());
  // Rows: [0, 0.5, 1], [1, 2, 3], [2, 3.5, 5] (+ zp 1, ties to even).
  EXPECT_EQ(out.values(), (std::vector<int32_t>{1, 1, 2, 2, 3, 4, 3, 5, 6}));
}

TEST(AvgPool, GlobalWithOtherOutputParams) {
  // sum(x - zp) = 1 + 2 + 3 + 4 = 10 over 4, * 0.5 / 0.25 = 5 -> 5 + 7.
  Owned in({1, 2, 2, 1}, false, 0.5f, 0, {1, 2, 3, 4});
  Owned out({1, 1, 1, 1}, false, 0.25f, 7);
  ASSERT_TRUE(globalAvgPool2d(in.t, out.t).ok());
  EXPECT_EQ(out.at(0), 12);
}

TEST(Concat, CopiesOrRequantizes) {
  Owned a({1, 2}, false, 0.5f, 10, {11, 200});
  Owned b({1, 1}, false, 1.0f, 0, {3}); // 3 * 1 / 0.5 = 6 -> 16
  Owned out({1, 3}, false, 0.5f, 10);
  ASSERT_TRUE(concat({a.t, b.t}, 1, out.t).ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{11, 200, 16}));
}

TEST(Concat, AlongAnyAxis) {
  // [2, 1, 2] and [2, 2, 2] along axis 1: each of the 2 rows is a's run of
  // 2 values, then b's run of 4.
  Owned a({2, 1, 2}, false, 0.5f, 10, {1, 2, 3, 4});
  Owned b({2, 2, 2}, false, 0.5f, 10, {5, 6, 7, 8, 9, 10, 11, 12});
  Owned out({2, 3, 2}, false, 0.5f, 10);
  ASSERT_TRUE(concat({a.t, b.t}, 1, out.t).ok());
  EXPECT_EQ(out.values(),
            (std::vector<int32_t>{1, 2, 5, 6, 7, 8, 3, 4, 9, 10, 11, 12}));
}

TEST(QuantizeTensor, RoundTrip) {
  std::vector<float> x = {0.0f, 0.25f, -1.0f, 100.0f};
  Owned q({4}, true, 0.5f, -2);
  ASSERT_TRUE(quantizeTensor(x.data(), q.t).ok());
  EXPECT_EQ(q.values(), (std::vector<int32_t>{-2, -2, -4, 127}));
  std::vector<float> back(4);
  ASSERT_TRUE(dequantizeTensor(q.t, back.data()).ok());
  EXPECT_EQ(back, (std::vector<float>{0.0f, 0.0f, -1.0f, 64.5f}));
}

//===----------------------------------------------------------------------===//
// Argument errors: a message, and the output is not written.
//===----------------------------------------------------------------------===//

namespace {

/// Expects an error containing `needle` and an untouched output.
void expectError(const Status &e, const Owned &out, const std::string &needle) {
  ASSERT_TRUE(e.failed()) << "expected an error containing " << needle;
  EXPECT_NE(e.message().find(needle), std::string::npos) << e.message();
  for (uint8_t b : out.bytes)
    EXPECT_EQ(b, 0xAB) << "output written despite: " << e.message();
}

} // namespace

TEST(Errors, Conv2d) {
  Owned in({1, 4, 4, 4}, false, 0.1f, 0);
  std::vector<int8_t> w(8 * 3 * 3 * 4, 1);
  QWeights wt = weights(w, {8, 3, 3, 4}, {0.1f});
  Owned out({1, 2, 2, 8}, false, 0.1f, 0);
  EXPECT_TRUE(conv2d(in.t, wt, nullptr, {}, nullptr, out.t).ok());
  out.bytes.assign(out.bytes.size(), 0xAB);

  Owned wrongOut({1, 3, 2, 8}, false, 0.1f, 0);
  expectError(conv2d(in.t, wt, nullptr, {}, nullptr, wrongOut.t), wrongOut,
              "output: expected shape [1, 2, 2, 8], got [1, 3, 2, 8]");
  Conv2DParams p;
  p.groups = 3;
  expectError(conv2d(in.t, wt, nullptr, p, nullptr, out.t), out,
              "groups (3) must divide");
  p.groups = 2; // I must then be 2
  expectError(conv2d(in.t, wt, nullptr, p, nullptr, out.t), out,
              "expected 2 input channels per group");
  QWeights badScales = weights(w, {8, 3, 3, 4}, {0.1f, 0.1f});
  expectError(conv2d(in.t, badScales, nullptr, {}, nullptr, out.t), out,
              "expected 1 or 8 scales, got 2");
  QWeights zeroScale = weights(w, {8, 3, 3, 4}, {0.0f});
  expectError(conv2d(in.t, zeroScale, nullptr, {}, nullptr, out.t), out,
              "scales must be finite and > 0");
  p = {};
  p.window.strideH = 0;
  expectError(conv2d(in.t, wt, nullptr, p, nullptr, out.t), out,
              "strides and dilations must be >= 1");
  p = {};
  p.window.dilationH = 3; // 3 * 2 + 1 = 7 > 4
  expectError(conv2d(in.t, wt, nullptr, p, nullptr, out.t), out,
              "smaller than the dilated kernel");
  p = {};
  p.activation.kind = Activation::Clamp;
  p.activation.clampMin = 2.0f;
  p.activation.clampMax = 1.0f;
  expectError(conv2d(in.t, wt, nullptr, p, nullptr, out.t), out,
              "clamp bounds");
  p.activation.clampMin = 100.0f; // [1000, 1000] quantized: outside [0, 255]
  p.activation.clampMax = 100.0f;
  expectError(conv2d(in.t, wt, nullptr, p, nullptr, out.t), out,
              "leaves no value");
  Owned res({1, 2, 2, 4}, false, 0.1f, 0);
  expectError(conv2d(in.t, wt, nullptr, {}, &res.t, out.t), out,
              "residual: expected shape");
}

TEST(Errors, AccumulatorOverflow) {
  // 36 weights of -128 times max |x - zp| = 255: 1,175,040, plus a bias
  // near INT32_MAX.
  Owned in({1, 3, 3, 4}, false, 0.1f, 0);
  std::vector<int8_t> w(36, -128);
  std::vector<int32_t> bias = {std::numeric_limits<int32_t>::max() - 1000000};
  Owned out({1, 1, 1, 1}, false, 0.1f, 0);
  expectError(conv2d(in.t, weights(w, {1, 3, 3, 4}, {0.1f}), bias.data(), {},
                     nullptr, out.t),
              out, "accumulator of output channel 0 can overflow int32");
  bias[0] = 1000;
  EXPECT_TRUE(conv2d(in.t, weights(w, {1, 3, 3, 4}, {0.1f}), bias.data(), {},
                     nullptr, out.t)
                  .ok());
  Owned x({1, 36}, false, 0.1f, 0);
  Owned y({1, 1}, false, 0.1f, 0);
  bias[0] = std::numeric_limits<int32_t>::min() + 10;
  expectError(matmul(x.t, weights(w, {1, 36}, {0.1f}), bias.data(), {}, y.t), y,
              "can overflow int32");
}

TEST(Errors, Tensors) {
  Owned a({2, 3}, false, 0.1f, 0);
  Owned out({2, 3}, false, 0.1f, 0);
  QTensor bad = a.t;
  bad.data = nullptr;
  expectError(add(bad, a.t, {}, out.t), out, "lhs: no data");
  bad = a.t;
  bad.scale = -1.0f;
  expectError(add(a.t, bad, {}, out.t), out, "rhs: scale must be finite");
  bad = a.t;
  bad.qmin = 10;
  bad.qmax = 5;
  expectError(add(bad, a.t, {}, out.t), out, "is not a range within u8");
  bad = a.t;
  bad.isSigned = true;
  bad.qmax = 255;
  expectError(add(bad, a.t, {}, out.t), out, "is not a range within i8");
  bad = a.t;
  bad.zeroPoint = 300;
  expectError(add(bad, a.t, {}, out.t), out, "zero point 300 does not fit u8");
  Owned b({3, 2}, false, 0.1f, 0);
  expectError(add(a.t, b.t, {}, out.t), out,
              "rhs: shape [3, 2] does not broadcast to [2, 3]");
  Owned huge({2, 3}, false, 3e38f, 0);
  Owned tiny({2, 3}, false, 1e-30f, 0);
  expectError(add(huge.t, a.t, {}, tiny.t), tiny, "multiplier overflows");
  expectError(quantizeTensor(nullptr, out.t), out, "input: no data");
  EXPECT_TRUE(dequantizeTensor(a.t, nullptr).failed());
}

TEST(Errors, Pools) {
  Owned in({1, 3, 3, 2}, false, 0.1f, 0);
  Pool2DParams p;
  p.kernelH = p.kernelW = 1;
  p.window.padTop = p.window.padLeft = 1; // corner window: only padding
  Owned out({1, 4, 4, 2}, false, 0.1f, 0);
  expectError(maxPool2d(in.t, p, out.t), out, "holds only padding");
  expectError(avgPool2d(in.t, p, out.t), out, "holds only padding");
  p = {};
  p.kernelH = 0;
  expectError(avgPool2d(in.t, p, out.t), out, "kernel, strides");
  Owned g({1, 1, 1, 3}, false, 0.1f, 0);
  expectError(globalAvgPool2d(in.t, g.t), g, "output: expected shape");
  Owned rank3({3, 3, 2}, false, 0.1f, 0);
  expectError(globalAvgPool2d(rank3.t, g.t), g, "expected rank 4");
}

TEST(Errors, Concat) {
  Owned a({1, 2, 3}, false, 0.1f, 0);
  Owned b({1, 3, 3}, false, 0.1f, 0);
  Owned out({1, 2, 6}, false, 0.1f, 0);
  expectError(concat({}, 2, out.t), out, "at least one input");
  expectError(concat({a.t, b.t}, 2, out.t), out,
              "input 1: expected shape [1, 2, 3], got [1, 3, 3]");
  expectError(concat({a.t, a.t}, 3, out.t), out, "axis 3 outside [0, 3)");
  Owned out5({1, 2, 5}, false, 0.1f, 0);
  expectError(concat({a.t, a.t}, 2, out5.t), out5,
              "expected 6 along axis 2 (the inputs' sum), got 5");
}

TEST(Lookup, PerTensorAndPerChannel) {
  Owned in({2, 2}, true, 1.0f, 0, {-128, 0, 127, 1});
  Owned out({2, 2}, false, 1.0f, 0);
  std::vector<int32_t> t(kTableSize);
  for (int64_t k = 0; k < kTableSize; ++k)
    t[k] = static_cast<int32_t>(255 - k);
  ASSERT_TRUE(lookup(in.t, t, out.t).ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{255, 127, 0, 126}));
  // Two channels: channel 1's table is the identity shifted by 128.
  std::vector<int32_t> two = t;
  for (int64_t k = 0; k < kTableSize; ++k)
    two.push_back(static_cast<int32_t>(k));
  ASSERT_TRUE(lookup(in.t, two, out.t).ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{255, 128, 0, 129}));
  Owned untouched({2, 2}, false, 1.0f, 0);
  std::vector<int32_t> bad(3 * kTableSize, 0);
  expectError(lookup(in.t, bad, untouched.t), untouched,
              "table: expected 256 or 512 entries, got 768");
  t[5] = 300;
  expectError(lookup(in.t, t, untouched.t), untouched,
              "outside the output's [0, 255]");
}

TEST(Movement, IndexMaps) {
  std::vector<int64_t> map;
  // [2, 3]: slice rows 1, columns 1-2.
  ASSERT_TRUE(sliceIndexMap({2, 3}, {1, 1}, {1, 2}, map).ok());
  EXPECT_EQ(map, (std::vector<int64_t>{4, 5}));
  // [1, 2]: one pad value before, two after the columns.
  ASSERT_TRUE(padIndexMap({1, 2}, {0, 0, 1, 2}, map).ok());
  EXPECT_EQ(map, (std::vector<int64_t>{kPadValue, 0, 1, kPadValue, kPadValue}));
  // [1, 2] tiled twice along columns.
  ASSERT_TRUE(tileIndexMap({1, 2}, {1, 2}, map).ok());
  EXPECT_EQ(map, (std::vector<int64_t>{0, 1, 0, 1}));
  // [2, 3] transposed.
  ASSERT_TRUE(transposeIndexMap({2, 3}, {1, 0}, map).ok());
  EXPECT_EQ(map, (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
  std::vector<int32_t> out(map.size());
  std::vector<int32_t> in{10, 11, 12, 13, 14, 15};
  applyIndexMap(in.data(), map, -1, out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{10, 13, 11, 14, 12, 15}));
}

TEST(Movement, ResizeNearest) {
  std::vector<int64_t> map;
  // Rows 2 -> 4 with n / d = 2 / 1, border 1: rounding half up reads rows
  // 0, 1, 1, 1 (clamped).
  ASSERT_TRUE(
      resizeNearestIndexMap({1, 2, 1, 1}, {2, 1, 1, 1}, {0, 0}, {1, 0}, map)
          .ok());
  EXPECT_EQ(map, (std::vector<int64_t>{0, 1, 1, 1}));
  // PyTorch's nearest (floor of x_out / 2) as the importer writes it:
  // n / d = 4 / 2, offset -1, border 1: rows 0, 0, 1, 1.
  ASSERT_TRUE(
      resizeNearestIndexMap({1, 2, 1, 1}, {4, 2, 1, 1}, {-1, 0}, {1, 0}, map)
          .ok());
  EXPECT_EQ(map, (std::vector<int64_t>{0, 0, 1, 1}));
}

TEST(Movement, ResizeBilinear) {
  // One row [10, 20] (u8) to 4 columns with n / d = 4 / 2, offset -1
  // (PyTorch's half-pixel upsampling by 2; rows 1 / 1): column taps
  // (i0, i1 | w0, w1) = (0, 0 | 1, 3), (0, 1 | 3, 1), (0, 1 | 1, 3),
  // (1, 1 | 3, 1), N = 4: 10, (30 + 20) / 4 = 12.5 -> 13, (10 + 60) / 4 =
  // 17.5 -> 18, 20.
  Owned in({1, 1, 2, 1}, false, 0.5f, 3, {10, 20});
  Owned out({1, 1, 4, 1}, false, 0.5f, 3);
  ASSERT_TRUE(resizeBilinear(in.t, {1, 1, 4, 2}, {0, -1}, {0, 1}, out.t).ok());
  EXPECT_EQ(out.values(), (std::vector<int32_t>{10, 13, 18, 20}));
  // The output keeps the input's quantization.
  Owned other({1, 1, 4, 1}, false, 0.25f, 3);
  EXPECT_EQ(
      resizeBilinear(in.t, {1, 1, 4, 2}, {0, -1}, {0, 1}, other.t).message(),
      "output: a bilinear resize keeps the input's quantization");
}

TEST(Errors, Movement) {
  std::vector<int64_t> map;
  EXPECT_EQ(sliceIndexMap({2, 3}, {1, 2}, {1, 2}, map).message(),
            "slice [2, +2) of dimension 1 outside [0, 3)");
  EXPECT_EQ(padIndexMap({2}, {-1, 0}, map).message(),
            "pads of dimension 0 must be in [0, 2^31) in total");
  EXPECT_EQ(tileIndexMap({2}, {0}, map).message(),
            "multiple 0 of dimension 0 must be in [1, 2^31 / size]");
  EXPECT_EQ(transposeIndexMap({2, 3}, {1, 1}, map).message(),
            "perms: not a permutation");
  EXPECT_EQ(
      resizeNearestIndexMap({1, 2, 2, 1}, {3, 2, 3, 2}, {0, 0}, {0, 0}, map)
          .message(),
      "resize: the output size is not a whole number");
  EXPECT_EQ(sliceIndexMap({INT64_MAX, 4}, {0, 0}, {1, 1}, map).message(),
            "input: [9223372036854775807, 4] has more elements than "
            "int64 holds");
}
