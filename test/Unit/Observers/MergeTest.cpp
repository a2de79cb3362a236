//===- MergeTest.cpp - Observer::merge guarantees
//---------------------------===//
//
// For every golden case with at least two batches, splits the batches into
// two observers and checks what Observer::merge promises:
//  - commutativity bit for bit for every kind (A+B == B+A);
//  - min/max kinds and calibrators: the merged state and qparams equal the
//    sequential golden (recorded from PyTorch / the numpy reference);
//  - histogram: equal to the PyTorch golden when both halves share [min, max]
//    (the `same_range` dataset);
//  - calibrators: associativity over a three-way split.
//
//===----------------------------------------------------------------------===//

#include "GoldenData.h"

#include <gtest/gtest.h>

using namespace quantc::obs;
using namespace quantc::obs::test;

namespace {
Observer observeRange(const GoldenCase &c, size_t begin, size_t end) {
  auto obs = Observer::create(c.config);
  EXPECT_TRUE(obs.ok());
  const std::vector<Batch> &batches = goldenData().datasets.at(c.dataset);
  for (size_t i = begin; i < end && i < batches.size(); ++i)
    EXPECT_TRUE(obs->observe(batches[i].values.data(), batches[i].shape).ok());
  return *obs;
}

Observer merged(const Observer &a, const Observer &b) {
  Observer m = a;
  auto err = m.merge(b);
  EXPECT_TRUE(err.ok()) << err.message();
  return m;
}

bool sameBits(const std::vector<float> &a, const std::vector<float> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (floatBits(a[i]) != floatBits(b[i]))
      return false;
  return true;
}

bool sameState(const ObserverState &a, const ObserverState &b) {
  return a.batches == b.batches && sameBits(a.min, b.min) &&
         sameBits(a.max, b.max) && sameBits(a.histogram, b.histogram) &&
         floatBits(a.histMin) == floatBits(b.histMin) &&
         floatBits(a.histMax) == floatBits(b.histMax);
}

bool exactMergeKind(ObserverKind k) {
  return k == ObserverKind::MinMax || k == ObserverKind::PerChannelMinMax ||
         k == ObserverKind::Percentile || k == ObserverKind::Entropy ||
         k == ObserverKind::MSE;
}

void expectMatchesGolden(const Observer &obs, const GoldenCase &c) {
  EXPECT_TRUE(sameBits(obs.state().min, c.min));
  EXPECT_TRUE(sameBits(obs.state().max, c.max));
  if (c.hasHist) {
    EXPECT_TRUE(sameBits(obs.state().histogram, c.hist));
  }
  auto qp = obs.computeQParams();
  ASSERT_TRUE(qp.ok()) << qp.message();
  EXPECT_TRUE(sameBits(qp->scale, c.scale));
  EXPECT_EQ(qp->zeroPoint, c.zeroPoint);
}
} // namespace

TEST(MergeTest, SplitCalibration) {
  const GoldenData &d = goldenData();
  ASSERT_TRUE(d.error.empty()) << d.error;
  int exactChecked = 0, histChecked = 0;
  for (const GoldenCase &c : d.cases) {
    const size_t n = d.datasets.at(c.dataset).size();
    if (n < 2)
      continue;
    SCOPED_TRACE(c.name);
    Observer a = observeRange(c, 0, n / 2);
    Observer b = observeRange(c, n / 2, n);
    Observer ab = merged(a, b), ba = merged(b, a);
    EXPECT_TRUE(sameState(ab.state(), ba.state()));
    if (exactMergeKind(c.config.kind)) {
      expectMatchesGolden(ab, c);
      ++exactChecked;
    }
    if (c.config.kind == ObserverKind::Histogram && c.dataset == "same_range") {
      expectMatchesGolden(ab, c);
      ++histChecked;
    }
  }
  EXPECT_GT(exactChecked, 200);
  EXPECT_GT(histChecked, 5);
}

TEST(MergeTest, CalibratorsAreAssociative) {
  const GoldenData &d = goldenData();
  int checked = 0;
  for (const GoldenCase &c : d.cases) {
    const size_t n = d.datasets.at(c.dataset).size();
    if (n < 3 || !usesHistogram(c.config.kind) ||
        c.config.kind == ObserverKind::Histogram)
      continue;
    SCOPED_TRACE(c.name);
    Observer a = observeRange(c, 0, 1), b = observeRange(c, 1, 2),
             rest = observeRange(c, 2, n);
    Observer left = merged(merged(a, b), rest);
    Observer right = merged(a, merged(rest, b));
    EXPECT_TRUE(sameState(left.state(), right.state()));
    expectMatchesGolden(right, c);
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

TEST(MergeTest, EmptyAndMismatched) {
  ObserverConfig cfg;
  cfg.kind = ObserverKind::Histogram;
  Observer a = *Observer::create(cfg), empty = *Observer::create(cfg);
  std::vector<float> x = {-1.0f, 0.0f, 3.0f};
  ASSERT_TRUE(a.observe(x.data(), {3}).ok());
  ObserverState before = a.state();
  ASSERT_TRUE(a.merge(empty).ok());
  EXPECT_TRUE(sameState(a.state(), before));
  ASSERT_TRUE(empty.merge(a).ok());
  EXPECT_TRUE(sameState(empty.state(), before));

  cfg.bins = 1024;
  Observer other = *Observer::create(cfg);
  auto err = a.merge(other);
  ASSERT_TRUE(err.failed());
  EXPECT_EQ(err.message(),
            "cannot merge observers with different configurations");

  ObserverConfig pc;
  pc.kind = ObserverKind::PerChannelMinMax;
  Observer p1 = *Observer::create(pc), p2 = *Observer::create(pc);
  std::vector<float> y(6, 1.0f);
  ASSERT_TRUE(p1.observe(y.data(), {2, 3}).ok());
  ASSERT_TRUE(p2.observe(y.data(), {3, 2}).ok());
  err = p1.merge(p2);
  ASSERT_TRUE(err.failed());
  EXPECT_EQ(err.message(),
            "cannot merge observers with different channel counts");
}

// reduce_range changes the qparams computed from the statistics, not the
// statistics: observers differing only in it merge (one profile serves every
// target), and each computes its own range from the merged state.
TEST(MergeTest, ReduceRangeIsNotStatistics) {
  ObserverConfig full;
  full.kind = ObserverKind::Histogram;
  ObserverConfig reduced = full;
  reduced.reduceRange = true;
  Observer a = *Observer::create(full), b = *Observer::create(reduced);
  std::vector<float> x = {-1.0f, 0.5f, 3.0f}, y = {-2.0f, 1.0f, 2.5f};
  ASSERT_TRUE(a.observe(x.data(), {3}).ok());
  ASSERT_TRUE(b.observe(y.data(), {3}).ok());
  Observer ab = merged(a, b);
  Observer ba = merged(b, a);
  EXPECT_TRUE(sameState(ab.state(), ba.state()));
  EXPECT_EQ(ab.quantRange().qmax, 255);
  EXPECT_EQ(ba.quantRange().qmax, 127);
}

TEST(MergeTest, HistogramMergeKeepsMass) {
  ObserverConfig cfg;
  cfg.kind = ObserverKind::Histogram;
  Observer a = *Observer::create(cfg), b = *Observer::create(cfg);
  std::vector<float> x = {-2.0f, -1.0f, 0.5f, 1.0f};
  std::vector<float> y = {-1.0f, 5.0f, 7.5f};
  ASSERT_TRUE(a.observe(x.data(), {4}).ok());
  ASSERT_TRUE(b.observe(y.data(), {3}).ok());
  auto mass = [](const Observer &o) {
    double total = 0;
    for (float h : o.state().histogram)
      total += h;
    return total;
  };
  // PyTorch 1.13 bins b's batch over [int(-1), int(7.5)] = [-1, 7]: 7.5 is
  // dropped, so b holds 2 counts, not 3.
  EXPECT_EQ(mass(a), 4.0);
  EXPECT_EQ(mass(b), 2.0);
  ASSERT_TRUE(a.merge(b).ok());
  EXPECT_NEAR(mass(a), 6.0, 1e-4);
  EXPECT_EQ(a.state().min[0], -2.0f);
  EXPECT_EQ(a.state().max[0], 7.5f);
  EXPECT_TRUE(a.computeQParams().ok());
}
