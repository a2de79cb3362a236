//===- ObserverTest.cpp - Observer API, input policy and state checks -----===//
//
// Kind names, config validation, the NaN/Inf/empty input policy, per-channel
// shape errors, the never-run error and setState validation.
//
//===----------------------------------------------------------------------===//

#include "quantc/Observers/Observer.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace quantc::obs;

namespace {
const ObserverKind kAllKinds[] = {ObserverKind::MinMax,
                                  ObserverKind::MovingAverageMinMax,
                                  ObserverKind::Histogram,
                                  ObserverKind::PerChannelMinMax,
                                  ObserverKind::PerChannelMovingAverageMinMax,
                                  ObserverKind::Percentile,
                                  ObserverKind::Entropy,
                                  ObserverKind::MSE};

Observer make(ObserverKind kind) {
  ObserverConfig cfg;
  cfg.kind = kind;
  auto obs = Observer::create(cfg);
  EXPECT_TRUE(obs.ok()) << obs.message();
  return *obs;
}

std::string configError(ObserverConfig cfg) {
  auto obs = Observer::create(cfg);
  return obs.message();
}
} // namespace

TEST(ObserverTest, KindNamesRoundTrip) {
  const char *names[] = {"min_max",
                         "moving_average_min_max",
                         "histogram",
                         "per_channel_min_max",
                         "per_channel_moving_average_min_max",
                         "percentile",
                         "entropy",
                         "mse"};
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_STREQ(toString(kAllKinds[i]), names[i]);
    EXPECT_EQ(parseObserverKind(names[i]), kAllKinds[i]);
  }
  EXPECT_FALSE(parseObserverKind("minmax"));
}

TEST(ObserverTest, DefaultsFollowPyTorch) {
  ObserverConfig cfg;
  EXPECT_EQ(cfg.dtype, Dtype::QUInt8);
  EXPECT_EQ(cfg.qscheme, QScheme::Affine);
  EXPECT_EQ(cfg.averagingConstant, 0.01);
  EXPECT_EQ(cfg.bins, 2048);
  EXPECT_EQ(cfg.upsampleRate, 128);
  EXPECT_EQ(cfg.chAxis, 0);
  EXPECT_EQ(cfg.eps, std::nextafter(1.0f, 2.0f) - 1.0f);
}

TEST(ObserverTest, InvalidConfigs) {
  ObserverConfig cfg;
  cfg.qscheme = QScheme::Symmetric;
  cfg.reduceRange = true;
  EXPECT_EQ(configError(cfg),
            "cannot reduce range for symmetric quantization for quint8");
  cfg = ObserverConfig();
  cfg.quantMin = 3;
  cfg.quantMax = 10;
  EXPECT_EQ(configError(cfg),
            "user-specified quantization range must include 0, got [3, 10]");
  cfg = ObserverConfig();
  cfg.kind = ObserverKind::Histogram;
  cfg.bins = 1;
  EXPECT_EQ(configError(cfg), "bins must be in [2, 2^20], got 1");
  cfg = ObserverConfig();
  cfg.percentile = 0;
  EXPECT_EQ(configError(cfg), "percentile must be in (0, 100], got 0.000000");
  cfg = ObserverConfig();
  cfg.averagingConstant = 1.5;
  EXPECT_EQ(configError(cfg),
            "averaging_constant must be in [0, 1], got 1.500000");
  cfg = ObserverConfig();
  cfg.eps = 0;
  EXPECT_EQ(configError(cfg), "eps must be positive and finite, got 0.000000");
}

TEST(ObserverTest, RejectsNonFiniteAndEmpty) {
  for (ObserverKind kind : kAllKinds) {
    Observer obs = make(kind);
    std::vector<float> nan = {1.0f, NAN, 2.0f};
    auto err = obs.observe(nan.data(), {3});
    ASSERT_TRUE(err.failed()) << toString(kind);
    EXPECT_EQ(err.message(),
              "non-finite value nan at index 1: observers reject NaN/Inf "
              "(the batch was ignored)");
    std::vector<float> inf = {-INFINITY};
    err = obs.observe(inf.data(), {1});
    ASSERT_TRUE(err.failed());
    EXPECT_EQ(err.message(),
              "non-finite value -inf at index 0: observers reject "
              "NaN/Inf (the batch was ignored)");
    err = obs.observe(nullptr, {0, 4});
    ASSERT_TRUE(err.failed());
    EXPECT_EQ(err.message(), "empty tensor: nothing to observe");
    EXPECT_EQ(obs.state().batches, 0);
    auto qp = obs.computeQParams();
    ASSERT_TRUE(qp.failed());
    EXPECT_EQ(qp.message(), std::string(toString(kind)) +
                                " observer has not observed any data");
  }
}

TEST(ObserverTest, RejectedBatchLeavesStateUnchanged) {
  Observer obs = make(ObserverKind::Histogram);
  std::vector<float> good = {-1.0f, 0.5f, 2.0f};
  ASSERT_TRUE(obs.observe(good.data(), {3}).ok());
  ObserverState before = obs.state();
  std::vector<float> bad = {-100.0f, NAN};
  ASSERT_TRUE(obs.observe(bad.data(), {2}).failed());
  EXPECT_EQ(obs.state().histogram, before.histogram);
  EXPECT_EQ(obs.state().min, before.min);
  EXPECT_EQ(obs.state().batches, 1);
}

TEST(ObserverTest, HistogramBoundsBeyondInt64) {
  // PyTorch 1.13 raises "Overflow when unpacking long" in torch.histc.
  Observer obs = make(ObserverKind::Histogram);
  std::vector<float> big = {0.0f, 1e19f};
  auto err = obs.observe(big.data(), {2});
  ASSERT_TRUE(err.failed());
  EXPECT_NE(err.message().find("does not fit int64"), std::string::npos);
}

TEST(ObserverTest, PerChannelShapeErrors) {
  ObserverConfig cfg;
  cfg.kind = ObserverKind::PerChannelMinMax;
  cfg.chAxis = 2;
  auto obs = Observer::create(cfg);
  ASSERT_TRUE(obs.ok());
  std::vector<float> x(12, 1.0f);
  auto err = obs->observe(x.data(), {3, 4});
  ASSERT_TRUE(err.failed());
  EXPECT_EQ(err.message(), "ch_axis 2 out of range for a tensor of rank 2");
  cfg.chAxis = -1;
  obs = Observer::create(cfg);
  ASSERT_TRUE(obs->observe(x.data(), {3, 4}).ok());
  EXPECT_EQ(obs->state().min.size(), 4u);
  err = obs->observe(x.data(), {4, 3});
  ASSERT_TRUE(err.failed());
  EXPECT_EQ(err.message(), "channel count 3 differs from earlier batches (4)");
}

TEST(ObserverTest, SetStateValidation) {
  Observer mm = make(ObserverKind::MinMax);
  ObserverState s;
  s.batches = 1;
  s.min = {1.0f};
  s.max = {0.0f};
  EXPECT_EQ(mm.setState(s).message(), "invalid min/max at channel 0");
  s.min = {-1.0f, 0.0f};
  s.max = {1.0f, 1.0f};
  EXPECT_EQ(mm.setState(s).message(),
            "a per-tensor observer needs exactly one min/max");
  s.min = {-1.0f};
  s.max = {2.0f};
  ASSERT_TRUE(mm.setState(s).ok());
  auto qp = mm.computeQParams();
  ASSERT_TRUE(qp.ok());
  s.histogram = {1.0f};
  EXPECT_EQ(mm.setState(s).message(), "this observer kind keeps no histogram");
  ObserverState empty;
  empty.min = {0.0f};
  EXPECT_EQ(mm.setState(empty).message(),
            "a state with 0 batches must have no statistics");

  Observer h = make(ObserverKind::Histogram);
  s = ObserverState();
  s.batches = 1;
  s.min = {-1.0f};
  s.max = {1.0f};
  s.histogram.assign(100, 1.0f);
  EXPECT_EQ(h.setState(s).message(), "histogram must have 2048 bins");
  s.histogram.assign(2048, 1.0f);
  s.histMin = -1.0f;
  s.histMax = 2.0f;
  EXPECT_EQ(h.setState(s).message(), "histogram range must equal min/max");
  s.histMax = 1.0f;
  EXPECT_TRUE(h.setState(s).ok());

  // Calibrator states must sit on the canonical power-of-two grid.
  Observer p = make(ObserverKind::Percentile);
  std::vector<float> x = {-3.0f, 0.25f, 1.0f};
  ASSERT_TRUE(p.observe(x.data(), {3}).ok());
  ObserverState ps = p.state();
  EXPECT_EQ(ps.histMax, 4.0f); // 2048 bins of 2^-9 cover |x| < 4.
  EXPECT_TRUE(Observer(p).setState(ps).ok());
  ps.histMax = 8.0f;
  EXPECT_NE(p.setState(ps).message().find("is not bins * 2^k"),
            std::string::npos);
}

TEST(ObserverTest, CalibratorsOnTrivialData) {
  // A single value 3.5 lands in bin 1792 of width 2^-9. Percentile picks
  // that bin's left edge (3.5), entropy edge 1793, mse the centre of bin
  // 1792; affine clips all of them to the observed [3.5, 3.5].
  for (ObserverKind kind :
       {ObserverKind::Percentile, ObserverKind::Entropy, ObserverKind::MSE}) {
    Observer obs = make(kind);
    std::vector<float> x = {3.5f};
    ASSERT_TRUE(obs.observe(x.data(), {1}).ok());
    auto r = obs.computeRange();
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(r->first[0], 3.5f) << toString(kind);
    EXPECT_EQ(r->second[0], 3.5f) << toString(kind);
  }
}
