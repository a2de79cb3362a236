//===- Movement.cpp - Reference slice, pad, tile, transpose, resize -------===//
//
// Each op is an index map: output element -> input element (or the pad
// value). They are computed by walking the output's multi-index and mapping
// it per dimension, so every op is a small function of one coordinate.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <limits>

using namespace quantc::ref;
using namespace quantc::ref::detail;
using quantc::Status;

namespace {

/// Element count of `shape`, or an error when a dimension is < 0 (or < 1
/// with `positive`) or the product overflows int64.
Status countOf(const char *what, const std::vector<int64_t> &shape,
               bool positive, int64_t &count) {
  count = 1;
  for (int64_t d : shape) {
    if (d < (positive ? 1 : 0))
      return Status::failure(std::string(what) + ": invalid shape " +
                             shapeString(shape));
    if (d != 0 && count > std::numeric_limits<int64_t>::max() / d)
      return Status::failure(std::string(what) + ": " + shapeString(shape) +
                             " has more elements than int64 holds");
    count *= d;
  }
  return Status::success();
}

/// Fills `map` for an output of `outShape`: output dimension d reads input
/// dimension `inDim[d]` (the identity but for transposes), and
/// `source(d, i)` is the input coordinate of output coordinate i along
/// dimension d, or kPadValue.
template <typename F>
Status buildMap(const std::vector<int64_t> &inShape,
                const std::vector<int64_t> &outShape,
                const std::vector<size_t> &inDim, F source,
                std::vector<int64_t> &map) {
  int64_t inCount, outCount;
  QUANTC_TRY(countOf("input", inShape, /*positive=*/true, inCount));
  QUANTC_TRY(countOf("output", outShape, /*positive=*/true, outCount));
  const size_t rank = outShape.size();
  std::vector<int64_t> inStrides(rank, 1);
  for (size_t d = rank; d-- > 1;)
    inStrides[d - 1] = inStrides[d] * inShape[d];
  // Per dimension, the input offset of each output coordinate.
  std::vector<std::vector<int64_t>> offsets(rank);
  for (size_t d = 0; d < rank; ++d)
    for (int64_t i = 0; i < outShape[d]; ++i) {
      int64_t s = source(d, i);
      offsets[d].push_back(s == kPadValue ? kPadValue
                                          : s * inStrides[inDim[d]]);
    }
  map.assign(static_cast<size_t>(outCount), 0);
  std::vector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < outCount; ++i) {
    int64_t src = 0;
    for (size_t d = 0; d < rank && src != kPadValue; ++d)
      src = offsets[d][index[d]] == kPadValue ? kPadValue
                                              : src + offsets[d][index[d]];
    map[i] = src;
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < outShape[d])
        break;
      index[d] = 0;
    }
  }
  return Status::success();
}

std::vector<size_t> identityDims(size_t rank) {
  std::vector<size_t> dims(rank);
  for (size_t d = 0; d < rank; ++d)
    dims[d] = d;
  return dims;
}

Status checkRank(const char *what, size_t size, size_t expected) {
  if (size != expected)
    return Status::failure(
        std::string(what) + ": expected " + std::to_string(expected) +
        " values (one per dimension), got " + std::to_string(size));
  return Status::success();
}

} // namespace

Status quantc::ref::sliceIndexMap(const std::vector<int64_t> &inShape,
                                  const std::vector<int64_t> &start,
                                  const std::vector<int64_t> &size,
                                  std::vector<int64_t> &map) {
  const size_t rank = inShape.size();
  QUANTC_TRY(checkRank("start", start.size(), rank));
  QUANTC_TRY(checkRank("size", size.size(), rank));
  for (size_t d = 0; d < rank; ++d)
    if (start[d] < 0 || size[d] < 1 || start[d] > inShape[d] - size[d])
      return Status::failure("slice [" + std::to_string(start[d]) + ", +" +
                             std::to_string(size[d]) + ") of dimension " +
                             std::to_string(d) + " outside [0, " +
                             std::to_string(inShape[d]) + ")");
  return buildMap(
      inShape, size, identityDims(rank),
      [&](size_t d, int64_t i) { return start[d] + i; }, map);
}

Status quantc::ref::padIndexMap(const std::vector<int64_t> &inShape,
                                const std::vector<int64_t> &pads,
                                std::vector<int64_t> &map) {
  const size_t rank = inShape.size();
  if (pads.size() != 2 * rank)
    return Status::failure("pads: expected " + std::to_string(2 * rank) +
                           " values (two per dimension), got " +
                           std::to_string(pads.size()));
  std::vector<int64_t> outShape(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (pads[2 * d] < 0 || pads[2 * d + 1] < 0 ||
        pads[2 * d] > (std::numeric_limits<int32_t>::max() - inShape[d]) -
                          pads[2 * d + 1])
      return Status::failure("pads of dimension " + std::to_string(d) +
                             " must be in [0, 2^31) in total");
    outShape[d] = inShape[d] + pads[2 * d] + pads[2 * d + 1];
  }
  return buildMap(
      inShape, outShape, identityDims(rank),
      [&](size_t d, int64_t i) {
        int64_t s = i - pads[2 * d];
        return s < 0 || s >= inShape[d] ? kPadValue : s;
      },
      map);
}

Status quantc::ref::tileIndexMap(const std::vector<int64_t> &inShape,
                                 const std::vector<int64_t> &multiples,
                                 std::vector<int64_t> &map) {
  const size_t rank = inShape.size();
  QUANTC_TRY(checkRank("multiples", multiples.size(), rank));
  std::vector<int64_t> outShape(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (multiples[d] < 1 ||
        multiples[d] > std::numeric_limits<int32_t>::max() / inShape[d])
      return Status::failure("multiple " + std::to_string(multiples[d]) +
                             " of dimension " + std::to_string(d) +
                             " must be in [1, 2^31 / size]");
    outShape[d] = inShape[d] * multiples[d];
  }
  return buildMap(
      inShape, outShape, identityDims(rank),
      [&](size_t d, int64_t i) { return i % inShape[d]; }, map);
}

Status quantc::ref::transposeIndexMap(const std::vector<int64_t> &inShape,
                                      const std::vector<int32_t> &perms,
                                      std::vector<int64_t> &map) {
  const size_t rank = inShape.size();
  QUANTC_TRY(checkRank("perms", perms.size(), rank));
  std::vector<size_t> inDim(rank);
  std::vector<bool> seen(rank, false);
  std::vector<int64_t> outShape(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (perms[d] < 0 || static_cast<size_t>(perms[d]) >= rank || seen[perms[d]])
      return Status::failure("perms: not a permutation");
    seen[perms[d]] = true;
    inDim[d] = static_cast<size_t>(perms[d]);
    outShape[d] = inShape[inDim[d]];
  }
  return buildMap(
      inShape, outShape, inDim, [](size_t, int64_t i) { return i; }, map);
}

namespace {

int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/// Checks TOSA's resize parameters for an NHWC `inShape` and computes the
/// output's height and width.
Status resizeOutputSize(const std::vector<int64_t> &inShape,
                        const std::vector<int64_t> &scale,
                        const std::vector<int64_t> &offset,
                        const std::vector<int64_t> &border, int64_t outHW[2]) {
  if (inShape.size() != 4)
    return Status::failure("resize: expected an NHWC input");
  if (scale.size() != 4 || offset.size() != 2 || border.size() != 2)
    return Status::failure(
        "resize: expected 4 scale, 2 offset and 2 border values");
  for (int a = 0; a < 2; ++a) {
    const int64_t n = scale[2 * a], d = scale[2 * a + 1];
    // TOSA's limits: 0 < n, d <= 2^11, |offset| < 16 n, |border| < 16 n.
    if (n < 1 || d < 1 || n > 2048 || d > 2048 || offset[a] <= -16 * n ||
        offset[a] >= 16 * n || border[a] <= -16 * n || border[a] >= 16 * n)
      return Status::failure("resize: scale, offset or border out of range");
    if (inShape[1 + a] < 1 || inShape[1 + a] > (int64_t(1) << 20))
      return Status::failure("resize: image sizes must be in [1, 2^20]");
    const int64_t span = (inShape[1 + a] - 1) * n - offset[a] + border[a];
    if (span < 0 || span % d != 0)
      return Status::failure("resize: the output size is not a whole number");
    outHW[a] = span / d + 1;
  }
  return Status::success();
}

} // namespace

Status quantc::ref::resizeOutputShape(const std::vector<int64_t> &inShape,
                                      const std::vector<int64_t> &scale,
                                      const std::vector<int64_t> &offset,
                                      const std::vector<int64_t> &border,
                                      std::vector<int64_t> &outShape) {
  int64_t outHW[2];
  QUANTC_TRY(resizeOutputSize(inShape, scale, offset, border, outHW));
  outShape = {inShape[0], outHW[0], outHW[1], inShape[3]};
  return Status::success();
}

Status quantc::ref::resizeNearestIndexMap(const std::vector<int64_t> &inShape,
                                          const std::vector<int64_t> &scale,
                                          const std::vector<int64_t> &offset,
                                          const std::vector<int64_t> &border,
                                          std::vector<int64_t> &map) {
  int64_t outHW[2];
  QUANTC_TRY(resizeOutputSize(inShape, scale, offset, border, outHW));
  return buildMap(
      inShape, {inShape[0], outHW[0], outHW[1], inShape[3]}, identityDims(4),
      [&](size_t dim, int64_t i) -> int64_t {
        if (dim == 0 || dim == 3)
          return i;
        const int a = static_cast<int>(dim) - 1;
        const int64_t n = scale[2 * a], d = scale[2 * a + 1];
        const int64_t v = i * d + offset[a];
        int64_t s = floorDiv(v, n);
        if (2 * (v - s * n) >= n)
          ++s;
        return std::max<int64_t>(0, std::min(s, inShape[dim] - 1));
      },
      map);
}

std::vector<BilinearTap> quantc::ref::bilinearTaps(int64_t inSize,
                                                   int64_t outSize, int64_t n,
                                                   int64_t d, int64_t offset) {
  std::vector<BilinearTap> taps;
  auto clampIndex = [&](int64_t i) {
    return std::max<int64_t>(0, std::min(i, inSize - 1));
  };
  for (int64_t o = 0; o < outSize; ++o) {
    const int64_t v = o * d + offset;
    const int64_t i = floorDiv(v, n), r = v - i * n;
    taps.push_back({clampIndex(i), clampIndex(i + 1), n - r, r});
  }
  return taps;
}

Status quantc::ref::resizeBilinear(const QTensor &input,
                                   const std::vector<int64_t> &scale,
                                   const std::vector<int64_t> &offset,
                                   const std::vector<int64_t> &border,
                                   const QTensor &output) {
  QUANTC_TRY(input.validate("input", 4));
  QUANTC_TRY(output.validate("output", 4));
  int64_t outHW[2];
  QUANTC_TRY(resizeOutputSize(input.shape, scale, offset, border, outHW));
  QUANTC_TRY(checkShape("output", output.shape,
                        {input.shape[0], outHW[0], outHW[1], input.shape[3]}));
  if (input.isSigned != output.isSigned || input.scale != output.scale ||
      input.zeroPoint != output.zeroPoint)
    return Status::failure("output: a bilinear resize keeps the input's "
                           "quantization");
  const std::vector<BilinearTap> rows =
      bilinearTaps(input.shape[1], outHW[0], scale[0], scale[1], offset[0]);
  const std::vector<BilinearTap> cols =
      bilinearTaps(input.shape[2], outHW[1], scale[2], scale[3], offset[1]);
  const int64_t total = scale[0] * scale[2];
  const int64_t h = input.shape[1], w = input.shape[2], c = input.shape[3];
  int64_t i = 0;
  for (int64_t b = 0; b < input.shape[0]; ++b)
    for (const BilinearTap &ty : rows)
      for (const BilinearTap &tx : cols)
        for (int64_t ch = 0; ch < c; ++ch, ++i) {
          auto at = [&](int64_t y, int64_t x) -> int64_t {
            return input.get(((b * h + y) * w + x) * c + ch);
          };
          const int64_t acc = at(ty.i0, tx.i0) * ty.w0 * tx.w0 +
                              at(ty.i0, tx.i1) * ty.w0 * tx.w1 +
                              at(ty.i1, tx.i0) * ty.w1 * tx.w0 +
                              at(ty.i1, tx.i1) * ty.w1 * tx.w1;
          const int64_t v = floorDiv(acc + total / 2, total);
          output.set(i, static_cast<int32_t>(std::max<int64_t>(
                            output.qmin, std::min<int64_t>(output.qmax, v))));
        }
  return Status::success();
}
