//===- Common.h - Building blocks of the quantized-op lowerings -*- C++ -*-===//
//
// Internal to lib/Conversion/LowerQuantized: the quantization parameters of a
// tensor, the buffer plumbing every pattern repeats (to_buffer, alloc,
// to_tensor), loops with vector chunks and scalar tails, and the int8
// arithmetic of quantc::ref (Requantize.h) emitted as arith/math ops on
// scalars or vectors. The shared conv/linear patterns (Conv.cpp) may use it.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_LIB_CONVERSION_QNTTOLOOPS_COMMON_H
#define QUANTC_LIB_CONVERSION_QNTTOLOOPS_COMMON_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>

namespace quantc::lowering {

/// Lanes of the vector code: 16 x i8 is one 128-bit register; the i32 / f32
/// arithmetic on 16 lanes is split into native registers by LLVM.
constexpr int64_t kLanes = 16;

/// Per-tensor quantization of a tensor with 8-bit storage, as the reference
/// sees it (ReferenceModel: float scale, storage range as [qmin, qmax]).
struct QInfo {
  float scale = 1.0f;
  int32_t zeroPoint = 0;
  int32_t qmin = 0;
  int32_t qmax = 255;
  bool isSigned = false;

  /// True when [qmin, qmax] is the whole storage range (clamping is a no-op).
  bool fullRange() const {
    return isSigned ? qmin == -128 && qmax == 127 : qmin == 0 && qmax == 255;
  }
  /// True when scale and zero point equal `o`'s (values copy unchanged).
  bool sameParams(const QInfo &o) const {
    return scale == o.scale && zeroPoint == o.zeroPoint;
  }
};

/// The QInfo of a statically shaped tensor type (or an element type) with a
/// per-tensor `!quant.uniform` element type of 8-bit storage; nullopt else.
std::optional<QInfo> getQInfo(mlir::Type type);

/// The tensor type with the quantized element type replaced by its storage
/// integer type (signless, same width).
mlir::RankedTensorType storageTensorType(mlir::RankedTensorType type);

/// `bufferization.to_buffer {read_only}` with the identity-layout memref of
/// the (converted) tensor's type.
mlir::Value toBuffer(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::Value tensor);
/// A `memref.alloc` (64-byte aligned) for a tensor of type `type`.
mlir::Value allocBuffer(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type);
/// `bufferization.to_tensor %buffer restrict writable`.
mlir::Value toTensor(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::Value buffer);
/// The memref collapsed to one dimension (identity layout, static shape).
mlir::Value flatten(mlir::OpBuilder &b, mlir::Location loc, mlir::Value buffer);

/// A private constant memref.global (64-byte aligned) holding `value`, named
/// `<prefix>_<n>` (the first free n in the enclosing module), and its
/// memref.get_global at the builder's insertion point.
mlir::Value globalConstant(mlir::OpBuilder &b, mlir::Location loc,
                           llvm::StringRef prefix,
                           mlir::DenseElementsAttr value);

/// An index constant.
mlir::Value index(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// Calls body(b, loc, iv, lanes) on [lb, lb + n): iv steps by `vectorLanes`
/// (default kLanes) with lanes = vectorLanes over the largest multiple of
/// it, then by 1 with lanes = 1 over the tail. `lb` is an index value. With
/// `parallel`, the vector chunks are independent iterations of an
/// scf.parallel (the tail, fewer than vectorLanes elements, stays
/// sequential).
void forEachChunk(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lb,
                  int64_t n,
                  llvm::function_ref<void(mlir::OpBuilder &, mlir::Location,
                                          mlir::Value, int64_t)>
                      body,
                  bool parallel = false, int64_t vectorLanes = kLanes);

/// A perfect nest of scf.for over [0, ubs[i]) calling body with the ivs;
/// with `parallel`, one multi-dimensional scf.parallel instead (the body's
/// iterations must be independent).
void loopNest(mlir::OpBuilder &b, mlir::Location loc,
              llvm::ArrayRef<int64_t> ubs,
              llvm::function_ref<void(mlir::OpBuilder &, mlir::Location,
                                      mlir::ValueRange)>
                  body,
              bool parallel = false);

/// Emits the arithmetic of quantc::ref on scalars (lanes == 1) or on
/// vector<lanes x T>. Constants are splats; loads and stores are
/// memref.load/store or vector.load/store.
class Lanes {
public:
  Lanes(mlir::OpBuilder &b, mlir::Location loc, int64_t lanes)
      : b(b), loc(loc), lanes(lanes) {}

  /// `scalar` or vector<lanes x scalar>.
  mlir::Type type(mlir::Type scalar) const;
  mlir::Value f32(float v);
  mlir::Value i32(int32_t v);
  /// Broadcasts a scalar value to the lanes (no-op for lanes == 1).
  mlir::Value splat(mlir::Value scalar);

  mlir::Value load(mlir::Value memref, mlir::ValueRange indices);
  void store(mlir::Value value, mlir::Value memref, mlir::ValueRange indices);

  /// 8-bit storage values as i32 (sign- or zero-extended).
  mlir::Value extend(mlir::Value v, bool isSigned);
  /// i32 -> i8 (the value fits the storage type).
  mlir::Value narrow(mlir::Value v);
  /// i32 -> f32, round to nearest even (as static_cast<float>).
  mlir::Value toFloat(mlir::Value v);
  /// max(lo, min(hi, v)) on i32.
  mlir::Value clamp(mlir::Value v, int32_t lo, int32_t hi);

  /// clamp(roundHalfEven(v) + zeroPoint, lo, hi) as i32 for f32 `v`, exactly
  /// as quantc::ref does it in int64: the rounded value is clamped in float
  /// to [lo - zeroPoint, hi - zeroPoint] (integers, exact in f32), then
  /// shifted. With nanToZero, NaN rounds to 0 as roundHalfEven does (only
  /// quantize can see NaN: requantization multiplies finite values).
  mlir::Value roundClampShift(mlir::Value v, int32_t zeroPoint, int32_t lo,
                              int32_t hi, bool nanToZero = false);

  /// quantc::ref::requantize: clamp(rhe(float(acc) * m) + zp, lo, hi).
  mlir::Value requantize(mlir::Value acc, mlir::Value multiplier,
                         int32_t zeroPoint, int32_t lo, int32_t hi);
  /// quantc::ref::requantize2: float(a) * ma + float(c) * mc, then as above.
  mlir::Value requantize2(mlir::Value a, mlir::Value ma, mlir::Value c,
                          mlir::Value mc, int32_t zeroPoint, int32_t lo,
                          int32_t hi);
  /// A value of quantization `in` (already extended to i32) expressed in
  /// quantization `out` (as i32): the value clamped to out's range when scale
  /// and zero point agree, else requantize(v - zin, requantMultiplier(sin, 1,
  /// sout), zout, qmin, qmax) (the reference's concat / requantize / max pool
  /// rule).
  mlir::Value rescale(mlir::Value x, const QInfo &in, const QInfo &out);

  mlir::OpBuilder &builder() { return b; }
  mlir::Location location() const { return loc; }

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
  int64_t lanes;
};

} // namespace quantc::lowering

#endif // QUANTC_LIB_CONVERSION_QNTTOLOOPS_COMMON_H
