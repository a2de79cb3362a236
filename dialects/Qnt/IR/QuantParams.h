//===- QuantParams.h - One vocabulary for quantization parameters -*- C++
//-*-===//
//
// The bridge between MLIR's quantized element types and qnt's enums on one
// side and the MLIR-free int8 reference (quantc::ref) on the other: what a
// !quant.uniform type's scales, zero points, axis and storage range are, and
// which reference activation a qnt activation is. The quantizer, the int8
// lowering, the reference executor and the C header read them from here.
//
//===----------------------------------------------------------------------===//

#ifndef QNT_IR_QUANTPARAMS_H
#define QNT_IR_QUANTPARAMS_H

#include "dialects/Qnt/IR/QntAttrs.h"
#include "quantc/Reference/Reference.h"

#include "mlir/IR/Types.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir::qnt {

/// The parameters of a uniform quantized element type, per tensor or per
/// channel, exactly as the type holds them.
struct QuantParams {
  /// One scale and zero point per tensor, or one per channel along `axis`.
  SmallVector<double> scales;
  SmallVector<int64_t> zeroPoints;
  /// The quantized dimension of a per-channel type; none per tensor.
  std::optional<int32_t> axis;
  /// The storage range [qmin, qmax] values are clamped to.
  int32_t qmin = 0, qmax = 0;
  unsigned storageWidth = 8;
  bool isSigned = false;

  /// The scale of channel `c` as the int8 reference computes with it
  /// (float32); a per-tensor type has the same scale for every channel.
  float scale(int64_t c = 0) const {
    return static_cast<float>(scales[scales.size() == 1 ? 0 : c]);
  }
  /// The zero point of channel `c` as the reference holds it (int32).
  int32_t zeroPoint(int64_t c = 0) const {
    return static_cast<int32_t>(zeroPoints[zeroPoints.size() == 1 ? 0 : c]);
  }
  /// Whether [qmin, qmax] is the whole range of the storage type.
  bool fullRange() const;
  /// The int8 reference's view of a per-tensor type (no data, no shape).
  quantc::ref::QTensor refView() const;
};

/// The parameters of `type` (a quantized element type, or a shaped type of
/// one) when it is a !quant.uniform type, per tensor or per axis; nullopt
/// otherwise.
std::optional<QuantParams> quantParams(Type type);

/// The reference's activation for a fused activation of the qnt dialect.
quantc::ref::Activation refActivation(Activation activation);

/// The real-domain bounds a fused activation clamps a float result to
/// (`clampMin` / `clampMax` for `clamp`, which the ops' verifiers require);
/// [-FLT_MAX, FLT_MAX] for none.
std::pair<float, float> floatActivationBounds(Activation activation,
                                              std::optional<APFloat> clampMin,
                                              std::optional<APFloat> clampMax);

} // namespace mlir::qnt

#endif // QNT_IR_QUANTPARAMS_H
