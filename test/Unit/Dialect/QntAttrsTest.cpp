//===- QntAttrsTest.cpp - Observer attributes through the C++ API ---------===//
//
// Exact textual round trip of float options and state (a calibrated scale
// must not change when IR is printed and parsed again), option defaults, and
// diagnostics of invalid configurations built programmatically.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntAttrs.h"
#include "dialects/Qnt/IR/QntDialect.h"
#include "quantc/InitAll.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"
#include <cfloat>
#include <cstring>
#include <string>

using namespace mlir;
using namespace mlir::qnt;
namespace obs = quantc::obs;

namespace {

class QntAttrsTest : public ::testing::Test {
protected:
  QntAttrsTest() {
    DialectRegistry registry;
    quantc::registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadDialect<QntDialect>();
  }

  /// Prints `attr` and parses the text back.
  Attribute roundTrip(Attribute attr) {
    std::string text;
    llvm::raw_string_ostream os(text);
    attr.print(os);
    return parseAttribute(text, &ctx);
  }

  MLIRContext ctx;
};

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

TEST_F(QntAttrsTest, FloatOptionsRoundTripExactly) {
  // Values with no short decimal form: the printer must keep every bit.
  obs::ObserverConfig ma;
  ma.kind = obs::ObserverKind::MovingAverageMinMax;
  ma.dtype = obs::Dtype::QInt8;
  ma.qscheme = obs::QScheme::Symmetric;
  ma.reduceRange = true;
  ma.averagingConstant = 0.1 + 3e-17;
  ma.eps = 1.0f / 3.0f;
  ObserverConfigAttr config = getObserverConfigAttr(&ctx, ma);
  auto parsed = dyn_cast_or_null<ObserverConfigAttr>(roundTrip(config));
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed, config);
  obs::ObserverConfig back = toObserverConfig(parsed);
  EXPECT_EQ(back.averagingConstant, ma.averagingConstant);
  EXPECT_EQ(bits(back.eps), bits(ma.eps));
  EXPECT_EQ(back.kind, ma.kind);
  EXPECT_EQ(back.dtype, ma.dtype);
  EXPECT_EQ(back.qscheme, ma.qscheme);
  EXPECT_TRUE(back.reduceRange);

  obs::ObserverConfig pct;
  pct.kind = obs::ObserverKind::Percentile;
  pct.bins = 512;
  pct.percentile = 99.98765432101234;
  pct.quantMin = 0;
  pct.quantMax = 127;
  auto parsedPct = dyn_cast_or_null<ObserverConfigAttr>(
      roundTrip(getObserverConfigAttr(&ctx, pct)));
  ASSERT_TRUE(parsedPct);
  obs::ObserverConfig pctBack = toObserverConfig(parsedPct);
  EXPECT_EQ(pctBack.percentile, pct.percentile);
  EXPECT_EQ(pctBack.bins, 512);
  EXPECT_EQ(pctBack.quantMin, std::optional<int64_t>(0));
  EXPECT_EQ(pctBack.quantMax, std::optional<int64_t>(127));
}

TEST_F(QntAttrsTest, StateRoundTripsExactly) {
  obs::ObserverState state;
  state.batches = 7;
  state.min = {-1.0f / 3.0f, FLT_MIN, -FLT_MAX};
  state.max = {2.0f / 7.0f, FLT_EPSILON, FLT_MAX};
  state.histogram = {0.0f, 1.0f / 7.0f, 3.0f};
  state.histMin = -1.0f / 3.0f;
  state.histMax = 0.1f;
  auto parsed = dyn_cast_or_null<ObserverStateAttr>(
      roundTrip(getObserverStateAttr(&ctx, state)));
  ASSERT_TRUE(parsed);
  obs::ObserverState back = toObserverState(parsed);
  EXPECT_EQ(back.batches, 7);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(bits(back.min[i]), bits(state.min[i]));
    EXPECT_EQ(bits(back.max[i]), bits(state.max[i]));
    EXPECT_EQ(bits(back.histogram[i]), bits(state.histogram[i]));
  }
  EXPECT_EQ(bits(back.histMin), bits(state.histMin));
  EXPECT_EQ(bits(back.histMax), bits(state.histMax));
}

TEST_F(QntAttrsTest, DefaultsArePyTorchs) {
  obs::ObserverConfig hist;
  hist.kind = obs::ObserverKind::Histogram;
  ObserverConfigAttr config = getObserverConfigAttr(&ctx, hist);
  EXPECT_EQ(config.getBinsOrDefault(), 2048);
  EXPECT_EQ(config.getUpsampleRateOrDefault(), 128);
  EXPECT_EQ(config.getAveragingConstantOrDefault(), 0.01);
  EXPECT_EQ(config.getPercentileOrDefault(), 99.99);
  EXPECT_EQ(config.getEpsOrDefault(), FLT_EPSILON);
  EXPECT_TRUE(config.hasHistogram());
  EXPECT_FALSE(config.isPerChannel());
  // Defaults are elided when printed.
  std::string text;
  llvm::raw_string_ostream os(text);
  Attribute(config).print(os);
  EXPECT_EQ(text, "#qnt.observer<kind = histogram>");
}

TEST_F(QntAttrsTest, GetCheckedReportsInvalidConfig) {
  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  std::optional<int64_t> unset, bins = 256;
  auto bad = ObserverConfigAttr::getChecked(
      [&] { return emitError(UnknownLoc::get(&ctx)); }, &ctx,
      ObserverKind::min_max, QuantDtype::quint8, QScheme::affine, unset, unset,
      false, unset, FloatAttr(), bins, unset, FloatAttr(), FloatAttr());
  EXPECT_FALSE(bad);
  EXPECT_EQ(message, "bins does not apply to observer kind 'min_max'");
}

} // namespace
