//===- QParams.h - Quantization parameters from min/max ---------*- C++ -*-===//
//
// Scale/zero-point computation shared by the compiler passes, the runtime and
// the tests. Reproduces PyTorch 1.13's observer arithmetic bit for bit
// (torch/ao/quantization/observer.py: `_calculate_qparams`,
// `_validate_qmin_qmax`; utils.py: `calculate_qmin_qmax`), in float32.
//
// This header has no MLIR/LLVM dependency and the library builds without
// exceptions: fallible functions return a quantc::Status or
// quantc::StatusOr<T> (quantc/Support/Status.h).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATION_QPARAMS_H
#define QUANTC_CALIBRATION_QPARAMS_H

#include "quantc/Support/Status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace quantc::obs {

/// Quantized storage type (PyTorch's torch.quint8 / torch.qint8).
enum class Dtype { QUInt8, QInt8 };

/// Per-tensor/per-channel quantization scheme (PyTorch's *_affine and
/// *_symmetric; per-tensor vs per-channel is a separate flag).
enum class QScheme { Affine, Symmetric };

/// Returns "quint8"/"qint8".
const char *toString(Dtype dtype);
/// Returns "affine"/"symmetric".
const char *toString(QScheme qscheme);
/// Parses "quint8"/"qint8".
std::optional<Dtype> parseDtype(const std::string &name);
/// Parses "affine"/"symmetric".
std::optional<QScheme> parseQScheme(const std::string &name);

/// The integer range [qmin, qmax] quantized values are clamped to.
struct QuantRange {
  int64_t qmin = 0;
  int64_t qmax = 255;
  /// True when the range came from a user-given quant_min/quant_max (PyTorch's
  /// `has_customized_qrange`). Needed because symmetric quint8 uses zero point
  /// 128 for the default range but floor((qmin + qmax) / 2) for a custom one.
  bool customized = false;
};

/// Validates a user-given quant_min/quant_max for `dtype`: a failure says
/// what is wrong. Checks, in order: both or neither given
/// (PyTorch silently ignores a lone bound; we reject it), qmin <= 0 <= qmax,
/// qmin < qmax (PyTorch's `_validate_qmin_qmax`), qmax - qmin + 1 <= 256
/// (PyTorch's qint8 check, applied to both dtypes), and the range fits the
/// storage type ([0, 255] for quint8, [-128, 127] for qint8; PyTorch does not
/// check this and then produces zero points outside the storage type).
Status validateQuantRange(Dtype dtype, std::optional<int64_t> quantMin,
                          std::optional<int64_t> quantMax);

/// PyTorch's `calculate_qmin_qmax`: the default 8-bit range, or the custom
/// one; with `reduceRange` the default becomes [0, 127] / [-64, 63] and a
/// custom range becomes [floor(qmin / 2), floor(qmax / 2)]. The custom range
/// must have passed validateQuantRange.
QuantRange effectiveQuantRange(Dtype dtype, bool reduceRange,
                               std::optional<int64_t> quantMin,
                               std::optional<int64_t> quantMax);

/// Which operand of the int8 dot products a model is folded with 7-bit
/// ranges (reduce_range) for. A dot instruction that adds two u8 x s8
/// products into a saturating int16 (AVX2's vpmaddubsw) is exact when
/// either side has 7 bits: PyTorch's x86 / fbgemm qconfig reduces the
/// activations ([0, 127]); ONNX Runtime's `reduce_range` and oneDNN reduce
/// the weights ([-64, 63]), which keeps the per-tensor activations, the
/// coarser of the two, at 8 bits.
enum class RangeReduction { None, Activations, Weights };

/// Scales and zero points, one per channel (a single entry per tensor).
struct QParams {
  std::vector<float> scale;
  std::vector<int32_t> zeroPoint;
};

/// PyTorch's `_calculate_qparams` in float32 for (per-channel) affine and
/// symmetric schemes. `perChannel` selects PyTorch's per-channel validity
/// checks; per-tensor requires exactly one min/max. As in PyTorch, a
/// per-tensor (+inf, -inf) pair (an observer that saw nothing) yields the
/// default scale 1.0 / zero point 0. Errors: size mismatch, empty input,
/// min > max or NaN.
StatusOr<QParams> calculateQParams(const std::vector<float> &minVals,
                                   const std::vector<float> &maxVals,
                                   Dtype dtype, QScheme qscheme,
                                   const QuantRange &range, float eps,
                                   bool perChannel);

/// PyTorch's FixedQParamsObserver: the parameters of an op whose output
/// range [min, max] is known (sigmoid [0, 1], tanh [-1, 1]):
/// scale = (max - min) / (qmax - qmin + 1), zero point = qmin - min / scale
/// (1/256 and 0 for a sigmoid in quint8).
QParams fixedQParams(double min, double max, const QuantRange &range);

} // namespace quantc::obs

#endif // QUANTC_CALIBRATION_QPARAMS_H
