//===- QParamsTest.cpp - Quant range validation and qparams edge cases ----===//
//
// Error messages of validateQuantRange/calculateQParams and PyTorch's
// effective ranges. The numeric qparams are covered by the golden vectors.
//
//===----------------------------------------------------------------------===//

#include "quantc/Observers/QParams.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace quantc::obs;

namespace {
std::string rangeError(Dtype dt, std::optional<int64_t> lo,
                       std::optional<int64_t> hi) {
  auto err = validateQuantRange(dt, lo, hi);
  return err.message();
}
} // namespace

TEST(QParamsTest, ValidRanges) {
  EXPECT_EQ(rangeError(Dtype::QUInt8, std::nullopt, std::nullopt), "");
  EXPECT_EQ(rangeError(Dtype::QUInt8, 0, 15), "");
  EXPECT_EQ(rangeError(Dtype::QInt8, -128, 127), "");
  EXPECT_EQ(rangeError(Dtype::QInt8, -8, 7), "");
}

TEST(QParamsTest, InvalidRangeMessages) {
  EXPECT_EQ(rangeError(Dtype::QInt8, -5, std::nullopt),
            "quant_min and quant_max must be given together");
  EXPECT_EQ(rangeError(Dtype::QUInt8, std::nullopt, 10),
            "quant_min and quant_max must be given together");
  EXPECT_EQ(rangeError(Dtype::QUInt8, 1, 10),
            "user-specified quantization range must include 0, got [1, 10]");
  EXPECT_EQ(rangeError(Dtype::QInt8, -10, -1),
            "user-specified quantization range must include 0, got [-10, -1]");
  EXPECT_EQ(rangeError(Dtype::QUInt8, 0, 0),
            "qmin must be strictly less than qmax for user-specified "
            "quantization range, got [0, 0]");
  EXPECT_EQ(rangeError(Dtype::QInt8, -200, 100),
            "quantization range should be positive and not exceed the maximum "
            "bit range (=256), got [-200, 100]");
  EXPECT_EQ(rangeError(Dtype::QUInt8, 0, 300),
            "quantization range should be positive and not exceed the maximum "
            "bit range (=256), got [0, 300]");
  // Accepted by PyTorch 1.13, which then yields out-of-storage zero points.
  EXPECT_EQ(rangeError(Dtype::QInt8, -200, 50),
            "quantization range [-200, 50] does not fit qint8 [-128, 127]");
  EXPECT_EQ(rangeError(Dtype::QUInt8, -1, 100),
            "quantization range [-1, 100] does not fit quint8 [0, 255]");
}

TEST(QParamsTest, EffectiveRanges) {
  auto check = [](QuantRange r, int64_t lo, int64_t hi, bool custom) {
    EXPECT_EQ(r.qmin, lo);
    EXPECT_EQ(r.qmax, hi);
    EXPECT_EQ(r.customized, custom);
  };
  check(effectiveQuantRange(Dtype::QUInt8, false, {}, {}), 0, 255, false);
  check(effectiveQuantRange(Dtype::QUInt8, true, {}, {}), 0, 127, false);
  check(effectiveQuantRange(Dtype::QInt8, false, {}, {}), -128, 127, false);
  check(effectiveQuantRange(Dtype::QInt8, true, {}, {}), -64, 63, false);
  // Custom ranges are halved with Python's floor division.
  check(effectiveQuantRange(Dtype::QInt8, true, -5, 9), -3, 4, true);
  check(effectiveQuantRange(Dtype::QUInt8, false, 0, 15), 0, 15, true);
}

TEST(QParamsTest, CalculateErrorsAndDefaults) {
  QuantRange r = effectiveQuantRange(Dtype::QUInt8, false, {}, {});
  auto bad = calculateQParams({1.0f}, {0.0f}, Dtype::QUInt8, QScheme::Affine, r,
                              1e-7f, false);
  ASSERT_TRUE(bad.failed());
  EXPECT_NE(bad.message().find("should be less than max"), std::string::npos);
  EXPECT_TRUE(
      calculateQParams({}, {}, Dtype::QUInt8, QScheme::Affine, r, 1e-7f, true)
          .failed());
  EXPECT_TRUE(calculateQParams({0.0f, 1.0f}, {1.0f, 2.0f}, Dtype::QUInt8,
                               QScheme::Affine, r, 1e-7f, false)
                  .failed());
  EXPECT_TRUE(calculateQParams({0.0f}, {1.0f, 2.0f}, Dtype::QUInt8,
                               QScheme::Affine, r, 1e-7f, true)
                  .failed());
  // PyTorch's unobserved per-tensor state gives scale 1, zero point 0.
  auto def = calculateQParams({INFINITY}, {-INFINITY}, Dtype::QUInt8,
                              QScheme::Affine, r, 1e-7f, false);
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(def->scale[0], 1.0f);
  EXPECT_EQ(def->zeroPoint[0], 0);
}

TEST(QParamsTest, SymmetricQuint8ZeroPoint) {
  // Default range: 128 (outside a reduced range's [0, 127], hence rejected
  // by the observer config). Custom range: floor((qmin + qmax) / 2).
  QuantRange def = effectiveQuantRange(Dtype::QUInt8, false, {}, {});
  QuantRange custom = effectiveQuantRange(Dtype::QUInt8, false, 0, 255);
  auto a = calculateQParams({-1.0f}, {1.0f}, Dtype::QUInt8, QScheme::Symmetric,
                            def, 1e-7f, false);
  auto b = calculateQParams({-1.0f}, {1.0f}, Dtype::QUInt8, QScheme::Symmetric,
                            custom, 1e-7f, false);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->zeroPoint[0], 128);
  EXPECT_EQ(b->zeroPoint[0], 127);
  EXPECT_EQ(a->scale[0], b->scale[0]);
}

TEST(QParamsTest, Names) {
  EXPECT_EQ(parseDtype("qint8"), Dtype::QInt8);
  EXPECT_EQ(parseDtype("quint8"), Dtype::QUInt8);
  EXPECT_FALSE(parseDtype("int8"));
  EXPECT_EQ(parseQScheme("symmetric"), QScheme::Symmetric);
  EXPECT_STREQ(toString(QScheme::Affine), "affine");
  EXPECT_STREQ(toString(Dtype::QInt8), "qint8");
}
