//===- Common.h - Argument checks shared by the reference ops ---*- C++ -*-===//
//
// Internal to lib/Reference: formatting of shapes and the checks every op
// repeats (quantization of the output, fused-activation bounds).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_LIB_REFERENCE_COMMON_H
#define QUANTC_LIB_REFERENCE_COMMON_H

#include "quantc/Reference/Reference.h"

#include <string>
#include <vector>

namespace quantc::ref::detail {

/// "[1, 2, 3]".
std::string shapeString(const std::vector<int64_t> &shape);

/// Error unless `shape` equals `expected`; `what` names the tensor.
Status checkShape(const char *what, const std::vector<int64_t> &shape,
                  const std::vector<int64_t> &expected);

/// Error unless `shape` broadcasts to `out` (same rank; each dimension
/// equal to out's or 1).
Status checkBroadcast(const char *what, const std::vector<int64_t> &shape,
                      const std::vector<int64_t> &out);

/// Walks the output's elements in order and gives, for each, the flat index
/// of the element of a broadcast operand (shape checked by checkBroadcast).
class BroadcastIndex {
public:
  BroadcastIndex(const std::vector<int64_t> &shape,
                 const std::vector<int64_t> &out);
  /// The operand index of the current output element.
  int64_t operator*() const { return offset; }
  /// Moves to the next output element.
  void next();

private:
  std::vector<int64_t> out, strides, counter;
  int64_t offset = 0;
};

/// Error unless m is finite (a scale ratio overflowed otherwise).
Status checkMultiplier(const char *what, float m);

/// The bounds of `act` for `output`, or an error when they are empty or the
/// clamp bounds are not finite / ordered.
Status outputBounds(const FusedActivation &act, const QTensor &output,
                    Bounds &bounds);

/// Checks the weights: data, rank, scales (count 1 or shape[0], finite and
/// > 0).
Status checkWeights(const QWeights &weights, size_t rank);

/// Error unless, for every output channel o, any input in
/// [input.qmin, input.qmax] gives an accumulator within int32:
/// sum_k |w[o, k]| * max|x - zp| + |bias[o]| <= INT32_MAX, where the
/// weights of channel o are the k = 0..perChannel-1 values at
/// weights.data + o * perChannel.
Status checkAccumulatorRange(const QTensor &input, const QWeights &weights,
                             const int32_t *bias, int64_t channels,
                             int64_t perChannel);

} // namespace quantc::ref::detail

#endif // QUANTC_LIB_REFERENCE_COMMON_H
