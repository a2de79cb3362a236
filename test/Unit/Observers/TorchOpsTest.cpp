//===- TorchOpsTest.cpp - Emulated ATen kernels against torch 1.13 --------===//
//
// The observers' exactness rests on a few emulated ATen CPU kernels (cascade
// sum, torch.histc, floor division). The observer goldens only reach some of
// their rounding corner cases, so they are also checked directly here against
// values recorded from torch 1.13 (odd bin counts, sizes around the 8-lane
// and 4-row blocking of the sum, exact bin edges).
//
//===----------------------------------------------------------------------===//

// The kernels are private to the library; the test reaches into its sources.
#include "../../../lib/Observers/Internal.h"

#include "GoldenData.h"

#include <gtest/gtest.h>

using namespace quantc::obs;
using namespace quantc::obs::test;

TEST(TorchOpsTest, CascadeSumMatchesTorchSum) {
  const GoldenData &d = goldenData();
  ASSERT_TRUE(d.error.empty()) << d.error;
  ASSERT_GE(d.sums.size(), 10u);
  for (const SumRecord &r : d.sums) {
    float got = detail::torchSum(r.values.data(),
                                 static_cast<int64_t>(r.values.size()));
    EXPECT_EQ(floatBits(got), floatBits(r.sum)) << "n = " << r.values.size();
  }
}

TEST(TorchOpsTest, HistcMatchesTorchHistc) {
  const GoldenData &d = goldenData();
  ASSERT_GE(d.histcs.size(), 8u);
  for (const HistcRecord &r : d.histcs) {
    std::vector<float> got = detail::torchHistc(
        r.values.data(), static_cast<int64_t>(r.values.size()), r.bins, r.lo,
        r.hi);
    ASSERT_EQ(got.size(), r.hist.size());
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_EQ(got[i], r.hist[i]) << "bins = " << r.bins << ", bin " << i;
  }
}

TEST(TorchOpsTest, DivFloorMatchesTorch) {
  const GoldenData &d = goldenData();
  ASSERT_GE(d.divFloors.size(), 100u);
  for (const DivFloorRecord &r : d.divFloors)
    EXPECT_EQ(floatBits(detail::torchDivFloor(r.a, r.b)), floatBits(r.result))
        << r.a << " // " << r.b;
}

TEST(TorchOpsTest, PythonIntOfFloat) {
  EXPECT_EQ(detail::pythonIntOfFloat(-2.9f), -2);
  EXPECT_EQ(detail::pythonIntOfFloat(2.9f), 2);
  EXPECT_EQ(detail::pythonIntOfFloat(-9.2233720e18f), INT64_MIN);
  EXPECT_FALSE(detail::pythonIntOfFloat(9.2233720e18f));
  EXPECT_FALSE(detail::pythonIntOfFloat(1e30f));
}
