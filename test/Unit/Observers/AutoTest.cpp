//===- AutoTest.cpp - The auto observer and Observer::asKind
//---------------===//
//
// An `auto` observer collects the calibrators' statistics; asKind turns it
// into min_max, percentile, entropy or mse. For every golden dataset and both
// schemes, the resolved observer must give exactly (bit for bit) the state
// and qparams of an observer of that kind fed the same batches: the selection
// of quant-compile --activation-observer=auto relies on it.
//
//===----------------------------------------------------------------------===//

#include "GoldenData.h"

#include <gtest/gtest.h>

using namespace quantc::obs;
using namespace quantc::obs::test;

namespace {
Observer observeAll(const ObserverConfig &config,
                    const std::vector<Batch> &batches) {
  auto observer = Observer::create(config);
  EXPECT_TRUE(observer.ok()) << observer.message();
  for (const Batch &b : batches)
    EXPECT_TRUE(observer->observe(b.values.data(), b.shape).ok());
  return *observer;
}

void expectSameQParams(const QParams &a, const QParams &b,
                       const std::string &what) {
  ASSERT_EQ(a.scale.size(), b.scale.size()) << what;
  for (size_t i = 0; i < a.scale.size(); ++i) {
    EXPECT_EQ(floatBits(a.scale[i]), floatBits(b.scale[i])) << what;
    EXPECT_EQ(a.zeroPoint[i], b.zeroPoint[i]) << what;
  }
}
} // namespace

TEST(AutoObserver, ResolvesToEachCandidateExactly) {
  int checked = 0;
  for (const auto &[name, batches] : goldenData().datasets) {
    if (batches.empty())
      continue;
    for (QScheme scheme : {QScheme::Affine, QScheme::Symmetric})
      for (Dtype dtype : {Dtype::QUInt8, Dtype::QInt8}) {
        if (scheme == QScheme::Symmetric && dtype == Dtype::QUInt8)
          continue;
        ObserverConfig config;
        config.kind = ObserverKind::Auto;
        config.qscheme = scheme;
        config.dtype = dtype;
        Observer autoObserver = observeAll(config, batches);
        EXPECT_TRUE(autoObserver.computeQParams().failed());
        for (ObserverKind kind : kAutoCandidates) {
          std::string what = name + " " + toString(kind) + " " +
                             toString(scheme) + " " + toString(dtype);
          auto resolved = autoObserver.asKind(kind);
          ASSERT_TRUE(resolved.ok()) << resolved.message();
          config.kind = kind;
          Observer direct = observeAll(config, batches);
          EXPECT_EQ(resolved->config().kind, kind);
          EXPECT_EQ(resolved->state().histogram, direct.state().histogram)
              << what;
          EXPECT_EQ(resolved->state().min, direct.state().min) << what;
          EXPECT_EQ(resolved->state().max, direct.state().max) << what;
          // The resolved state is a valid state of its kind.
          auto fresh = Observer::create(config);
          EXPECT_TRUE(fresh->setState(resolved->state()).ok()) << what;
          auto a = resolved->computeQParams();
          auto b = direct.computeQParams();
          // Some datasets have no valid qparams (e.g. a constant for a
          // calibrator): both must fail alike then.
          ASSERT_EQ(a.ok(), b.ok()) << what;
          if (a.ok())
            expectSameQParams(*a, *b, what);
          else
            EXPECT_EQ(a.message(), b.message()) << what;
          ++checked;
        }
      }
  }
  EXPECT_GT(checked, 0);
}

TEST(AutoObserver, MergesAsTheCalibrators) {
  const auto &datasets = goldenData().datasets;
  for (const auto &[name, batches] : datasets) {
    if (batches.size() < 2)
      continue;
    ObserverConfig config;
    config.kind = ObserverKind::Auto;
    std::vector<Batch> first(batches.begin(), batches.begin() + 1);
    std::vector<Batch> rest(batches.begin() + 1, batches.end());
    Observer a = observeAll(config, first);
    Observer b = observeAll(config, rest);
    ASSERT_TRUE(a.merge(b).ok());
    Observer all = observeAll(config, batches);
    EXPECT_EQ(a.state().histogram, all.state().histogram) << name;
    EXPECT_EQ(a.state().min, all.state().min) << name;
    EXPECT_EQ(a.state().max, all.state().max) << name;
    EXPECT_EQ(a.state().batches, all.state().batches) << name;
  }
}

TEST(AutoObserver, OnlyAutoResolvesAndOnlyToCandidates) {
  ObserverConfig config;
  config.kind = ObserverKind::Auto;
  auto autoObserver = Observer::create(config);
  ASSERT_TRUE(autoObserver.ok());
  EXPECT_TRUE(autoObserver->asKind(ObserverKind::Histogram).failed());
  EXPECT_TRUE(autoObserver->asKind(ObserverKind::Auto).failed());
  EXPECT_TRUE(autoObserver->asKind(ObserverKind::MinMax).ok());
  config.kind = ObserverKind::MSE;
  auto mse = Observer::create(config);
  EXPECT_TRUE(mse->asKind(ObserverKind::MinMax).failed());
  EXPECT_EQ(parseObserverKind("auto"), ObserverKind::Auto);
  EXPECT_TRUE(usesHistogram(ObserverKind::Auto));
}
