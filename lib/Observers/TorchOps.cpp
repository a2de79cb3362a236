//===- TorchOps.cpp - Emulated ATen CPU kernels --------------------------===//
//
// The few ATen CPU kernels whose exact rounding PyTorch 1.13's observers
// depend on, written out in scalar float32 so that results match bit for bit:
// the cascade sum (aten/src/ATen/native/cpu/SumKernel.cpp), floor division
// (div_floor_floating) and torch.histc (HistogramKernel.cpp,
// LINEAR_INTERPOLATION, bounds from histc_select_outer_bin_edges).
// Checked against torch 1.13 on x86-64 with AVX2, i.e. 8-lane float vectors;
// an AVX-512 build of PyTorch sums in 16 lanes and may differ in the last bit.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <algorithm>
#include <array>
#include <cmath>

using namespace quantc::obs;

namespace {
constexpr int kLanes = 8; // Vectorized<float>::size() with AVX2.
using Vec = std::array<float, kLanes>;

int64_t ceilLog2(int64_t x) {
  if (x <= 2)
    return 1;
  int64_t bits = 0;
  for (uint64_t v = static_cast<uint64_t>(x) - 1; v; v >>= 1)
    ++bits;
  return bits;
}

template <typename T> void addInto(T &acc, const T &v) {
  for (size_t l = 0; l < acc.size(); ++l)
    acc[l] += v[l];
}

/// multi_row_sum with nrows = 4: four accumulators of `T` (a vector or a
/// one-lane array), cascaded over four levels.
template <typename T, typename Load>
std::array<T, 4> multiRowSum(Load load, int64_t size) {
  constexpr int64_t numLevels = 4, nrows = 4;
  const int64_t levelPower = std::max<int64_t>(4, ceilLog2(size) / numLevels);
  const int64_t levelStep = int64_t(1) << levelPower;
  const int64_t levelMask = levelStep - 1;
  T zero{};
  std::array<std::array<T, nrows>, numLevels> acc;
  for (auto &level : acc)
    level.fill(zero);
  int64_t i = 0;
  while (i + levelStep <= size) {
    for (int64_t j = 0; j < levelStep; ++j, ++i)
      for (int64_t k = 0; k < nrows; ++k)
        addInto(acc[0][k], load(i * nrows + k));
    for (int64_t j = 1; j < numLevels; ++j) {
      for (int64_t k = 0; k < nrows; ++k) {
        addInto(acc[j][k], acc[j - 1][k]);
        acc[j - 1][k] = zero;
      }
      if ((i & (levelMask << (j * levelPower))) != 0)
        break;
    }
  }
  for (; i < size; ++i)
    for (int64_t k = 0; k < nrows; ++k)
      addInto(acc[0][k], load(i * nrows + k));
  for (int64_t j = 1; j < numLevels; ++j)
    for (int64_t k = 0; k < nrows; ++k)
      addInto(acc[0][k], acc[j][k]);
  return acc[0];
}

/// row_sum: interpret the row as (-1, 4) and sum the columns, then the tail.
template <typename T, typename Load> T rowSum(Load load, int64_t size) {
  const int64_t sizeIlp = size / 4;
  std::array<T, 4> partial = multiRowSum<T>(load, sizeIlp);
  for (int64_t i = sizeIlp * 4; i < size; ++i)
    addInto(partial[0], load(i));
  for (int k = 1; k < 4; ++k)
    addInto(partial[0], partial[k]);
  return partial[0];
}
} // namespace

float detail::torchSum(const float *x, int64_t n) {
  float result;
  if (n >= kLanes) {
    // vectorized_inner_sum: row_sum over whole vectors, then the scalar tail,
    // then the lanes of the vector accumulator, in this order.
    const int64_t vecSize = n / kLanes;
    Vec v = rowSum<Vec>(
        [&](int64_t i) {
          Vec r;
          std::copy(x + i * kLanes, x + (i + 1) * kLanes, r.begin());
          return r;
        },
        vecSize);
    float acc = 0;
    for (int64_t k = vecSize * kLanes; k < n; ++k)
      acc += x[k];
    for (float lane : v)
      acc += lane;
    result = acc;
  } else {
    using One = std::array<float, 1>;
    result = rowSum<One>([&](int64_t i) { return One{x[i]}; }, n)[0];
  }
  // The output is zero-filled and the result accumulated into it.
  return 0.0f + result;
}

/// The last element of torch.linspace(lo, hi, steps) in float32. ATen's
/// linspace kernel writes 16 elements per step as two 8-lane
/// Vectorized::arange(base, step) and the remainder with the scalar formula;
/// the last element is exactly `hi` unless `steps` is a multiple of 16, in
/// which case it is base + 7 * step, where PyTorch's GCC build contracted the
/// base computation `end - step * k` into a fused multiply-add.
static float linspaceLast(double lo, double hi, int64_t steps) {
  const float start = static_cast<float>(lo), end = static_cast<float>(hi);
  if (steps < 2 * kLanes || steps % (2 * kLanes) != 0)
    return end;
  const float step = (end - start) / static_cast<float>(steps - 1);
  const int64_t idx = steps - kLanes, halfway = steps / 2;
  float base = idx < halfway
                   ? std::fma(step, static_cast<float>(idx), start)
                   : std::fma(-step, static_cast<float>(steps - idx - 1), end);
  return base + 7.0f * step;
}

float detail::torchDivFloor(float a, float b) {
  if (b == 0)
    return a / b;
  float mod = std::fmod(a, b);
  float div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0))
    div -= 1.0f;
  float floordiv;
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5f)
      floordiv += 1.0f;
  } else {
    floordiv = std::copysign(0.0f, a / b);
  }
  return floordiv;
}

std::vector<float> detail::torchHistc(const float *x, int64_t n, int64_t bins,
                                      double lo, double hi) {
  if (lo == hi) {
    auto [mn, mx] = std::minmax_element(x, x + n);
    lo = *mn;
    hi = *mx;
  }
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  // The edges are torch.linspace(lo, hi, bins + 1) in float32; the kernel only
  // reads the first (exactly float(lo)) and the last.
  const float left = static_cast<float>(lo),
              right = linspaceLast(lo, hi, bins + 1);
  const float width = right - left;
  const float binsF = static_cast<float>(bins);
  std::vector<float> hist(bins, 0.0f);
  for (int64_t i = 0; i < n; ++i) {
    float e = x[i];
    if (!(e >= left && e <= right))
      continue;
    auto pos = static_cast<int64_t>((e - left) * binsF / width);
    if (pos >= bins) // The last bin includes its right edge.
      pos = bins - 1;
    hist[pos] += 1.0f;
  }
  return hist;
}

std::optional<int64_t> detail::pythonIntOfFloat(float v) {
  double t = std::trunc(static_cast<double>(v));
  if (!(t >= -9223372036854775808.0 && t < 9223372036854775808.0))
    return std::nullopt;
  return static_cast<int64_t>(t);
}
