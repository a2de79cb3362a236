//===- GoldenTest.cpp - Observers against PyTorch 1.13 golden vectors -----===//
//
// Every golden case replays its dataset through an Observer and compares the
// state (min/max, histogram), the searched range and the qparams bit for bit
// with what scripts/gen_observer_goldens.py recorded from PyTorch 1.13 (or,
// for percentile/entropy/mse, from its numpy reference implementation).
// Floats compare by value (so +0 == -0; the sign of a zero min/max never
// reaches a scale or zero point); scales compare by bit pattern.
//
//===----------------------------------------------------------------------===//

#include "GoldenData.h"

#include <gtest/gtest.h>

using namespace quantc::obs;
using namespace quantc::obs::test;

namespace {
class GoldenTest : public ::testing::TestWithParam<GoldenCase> {};

void expectSameFloats(const std::vector<float> &got,
                      const std::vector<float> &want, const char *what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i], want[i])
        << what << "[" << i << "]: bits " << std::hex << floatBits(got[i])
        << " vs " << floatBits(want[i]);
}

std::vector<GoldenCase> allCases() { return goldenData().cases; }
} // namespace

TEST(GoldenDataTest, Loads) {
  const GoldenData &d = goldenData();
  ASSERT_TRUE(d.error.empty()) << d.error;
  EXPECT_GT(d.cases.size(), 1000u);
  EXPECT_GT(d.datasets.size(), 20u);
}

TEST_P(GoldenTest, MatchesReference) {
  const GoldenCase &c = GetParam();
  const GoldenData &d = goldenData();
  auto obs = Observer::create(c.config);
  ASSERT_TRUE(obs.ok()) << obs.message();
  for (const Batch &b : d.datasets.at(c.dataset)) {
    auto err = obs->observe(b.values.data(), b.shape);
    ASSERT_TRUE(err.ok()) << err.message();
  }
  const ObserverState &st = obs->state();
  EXPECT_EQ(st.batches, c.batches);
  expectSameFloats(st.min, c.min, "min");
  expectSameFloats(st.max, c.max, "max");
  if (c.hasHist) {
    expectSameFloats(st.histogram, c.hist, "histogram");
    EXPECT_EQ(st.histMin, c.histMin);
    EXPECT_EQ(st.histMax, c.histMax);
  } else {
    EXPECT_TRUE(st.histogram.empty());
  }
  auto range = obs->computeRange();
  ASSERT_TRUE(range.ok()) << range.message();
  expectSameFloats(range->first, c.rangeLo, "range min");
  expectSameFloats(range->second, c.rangeHi, "range max");

  auto qp = obs->computeQParams();
  ASSERT_TRUE(qp.ok()) << qp.message();
  ASSERT_EQ(qp->scale.size(), c.scale.size());
  for (size_t i = 0; i < c.scale.size(); ++i) {
    EXPECT_EQ(floatBits(qp->scale[i]), floatBits(c.scale[i]))
        << "scale[" << i << "] " << qp->scale[i] << " vs " << c.scale[i];
    EXPECT_EQ(qp->zeroPoint[i], c.zeroPoint[i]) << "zero_point[" << i << "]";
  }
}

INSTANTIATE_TEST_SUITE_P(Observers, GoldenTest, ::testing::ValuesIn(allCases()),
                         [](const ::testing::TestParamInfo<GoldenCase> &info) {
                           return info.param.name;
                         });
