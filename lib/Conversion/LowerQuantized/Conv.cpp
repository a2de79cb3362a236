//===- Conv.cpp - Quantized conv2d / linear to int8 vector kernels --------===//
//
// The convolution kernel: an implicit GEMM over NHWC with weights packed at
// compile time:
//
//   acc[p][o] = comp[o] + sum_{ky,kx,q} dot4(x[p][ky,kx][4q..4q+3],
//   w[o][ky,kx][4q..4q+3])
//
// The input is read in the domain the dot-product instruction wants (u8 for
// x86 vpmaddubsw / vpdpbusd, s8 for AArch64 sdot: flipping the top bit moves
// between them and shifts the zero point by 128). Where the kernel needs it
// (padding, input channels per group not a multiple of 4, other ISAs than
// avx512-vnni) the input is first copied into a padded buffer (padding = the
// input zero point, channels per group rounded up to 4) with whole-row
// copies and a border fill where the channels are dense. comp[o] = bias[o] -
// zp' * sum_k w[o][k] folds the zero point in, so the inner loop is pure
// dot products. The epilogue is the int8 reference's requantization
// (quantc::ref): float(acc) * multiplier (+ the residual's float(r - zr) *
// mr), clamp to the activation's bounds minus the zero point (integers, so
// clamping before rounding is the same), round half to even, add the zero
// point.
//
// amx-int8 (emitTile, ConvTile.cpp, whose header gives the rule of which
// layers it takes; the others run the avx512-vnni kernels below): the same
// implicit GEMM on AMX tiles, tdpbusd on 16 pixels x 64 input bytes by 16
// quads x 16 output channels, B tiles read from packWeights16x4's layout,
// the requantization storeZmmBlock's.
//
// avx512-vnni (emitZmm): 16 int32 lanes per zmm register, a register block
// of up to 6 output pixels x 64 output channels (4 vectors; 3 vectors x 8
// pixels, 2 or 1 x 12 for the remaining channels): per (ky, kx, input
// channel quad) nv 64-byte weight loads and one dword broadcast per pixel
// (folded into vpdpbusd's {1to16} memory operand) feed nv * pixels
// llvm.x86.avx512.vpdpbusd.512. Pixels are flat over (image, row, column),
// so the only pixel tail is the last block. Loop nest: scf.parallel over
// (group, 64-channel block, chunk of pixel blocks), then the chunk's pixel
// blocks, then the reduction: a channel block's packed weights (KH * KW * Cg
// * 64 bytes) stay in L1 / L2 while the pixels stream through. Without
// padding and with whole channel quads (1x1 layers, linear) the input is
// read in place; an s8 input then gets its top bit flipped on the broadcast
// register. The epilogue rounds and converts with vcvtps2dq {rn-sae}.
// Depthwise (emitDepthwiseZmm), input read in place (whole 16-channel
// blocks): 64-channel blocks pack four kernel rows into one dword per
// channel, so one vpdpbusd does four taps of 16 channels (3x3: rows
// ky = 0..2 and a zero weight). A window slides along the output row
// (slide64): each input column is packed once, the 64-byte loads of the
// kernel rows interleaved by 128-bit lane unpacks (punpck{l,h}bw, then
// punpck{l,h}wd: 8 shuffles for 4 packed vectors) into vector q = lane L,
// dword d -> channel 16 L + 4 q + d, and feeds every (pixel, kx) that reads
// it, the live pixels' accumulators rotating through the loop's iteration
// arguments; the weights, comp and mult are stored in that order at compile
// time, and vpackssdw + vpack{us,ss}wb of the 4 requantized vectors (exact:
// the epilogue clamps to the output type) restore the channel order. With
// 16 or 32 channels at stride 1 a vector holds 64 / C adjacent pixels; a
// tail of 32 or 48 channels is a block overlapping the one before, a tail
// of 16 at stride 1 is copied out and run 4 pixels per vector. The
// remaining 16-channel blocks (and
// every block when the channels are not a multiple of 16, from a padded
// copy) use 16 channels per vector and runs of up to 14 output pixels: each
// input column of a kernel row is loaded and zero-extended once
// (vpmovzxbd) and feeds every (pixel, kx) pair that reads it, multiply-added
// by vpdpwssd (u8 input in the low 16 bits of each lane, high bits 0, times
// the sign-extended weight: exactly x * w). Runs whose taps all fall inside
// the input load directly, border runs clamp each address and select the
// zero point for taps outside. scf.parallel over (image, output row), then
// the channel blocks (the row's input rows stay in L1 / L2; under 64
// channels the channel block is a parallel dimension too). A depthwise
// 3x3 output has only 9 MACs per channel, so the requantization costs about
// as much as the MACs; the 64-channel blocks without a residual apply only
// the upper bound in float and the lower bound and zero point on the
// 16-bit lanes after vpackssdw (4 + 1 instructions per 16 outputs, not 6).
//
// The other ISAs use 8-lane vectors (ymm / two 128-bit NEON registers), a
// register block of 4 pixels x 8 channels (a row's last OW % 4 pixels: one
// narrower block), scf.parallel over (chunk of output rows, group,
// 64-channel line), then the line's blocks, then the rows. On x86
// (avx-vnni, avx2: emitYmm, ConvYmm.cpp) the weights and the comp / mult
// tables are the zmm kernel's (packWeights16x4: 64-byte rows of 16 output
// x 4 input channels, the channels of whole 64-channel blocks in the
// packed order), so a dispatching object stores them once for its three
// x86 variants; a row's 32-byte halves are ymm dot operands, and a
// register block of 4 pixels x 16 channels takes half h of two rows (two
// accumulators sharing each input broadcast; a 128-bit-half shuffle before
// the requantization puts the channels in order):
//   avx-vnni     llvm.x86.avx512.vpdpbusd.256
//   avx2         llvm.x86.avx2.pmadd.ub.sw + pmadd.wd when every weight pair
//                proves |x1*w1 + x2*w2| <= 32767 for the input's range
//                (vpmaddubsw saturates 16-bit pair sums), else
//                llvm.x86.avx2.pmadd.wd alone on the input zero-extended to
//                16 bits in the padded copy: 4 pixels x 8 channels (half a
//                row), its bytes sign-extended to int16 once per chunk of
//                rows, the pixel's 4 inputs broadcast as one qword, each
//                int32 lane half a channel's sum (added after the loop)
//   neon-dot     llvm.aarch64.neon.sdot (s8 x s8, no saturation)
//   neon-i8mm    llvm.aarch64.neon.smmla: 2 pixels x 8 channels times 2
//                output channels x 8 channels per instruction (the input
//                channels are padded to 8)
//   exact        widen to i32, multiply-add (portable, always exact)
// and their depthwise kernel runs 8 channels per vector, widened to int32.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "ConvEmitter.h"

#include "dialects/Qnt/IR/QuantParams.h"

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::conv;

namespace {

quant::UniformQuantizedType activationType(Value v) {
  return cast<quant::UniformQuantizedType>(
      cast<ShapedType>(v.getType()).getElementType());
}

/// The storage values of a constant quantized operand `scast(constant)`,
/// as `T` (weights of ViT-B/16 are 86M values: read through the typed
/// iterator over the attribute's raw data, not through APInt).
template <typename T> std::optional<SmallVector<T>> constantStorage(Value v) {
  auto scast = v.getDefiningOp<quant::StorageCastOp>();
  DenseIntElementsAttr attr;
  if (!scast || !matchPattern(scast.getInput(), m_Constant(&attr)))
    return std::nullopt;
  unsigned width = attr.getElementType().getIntOrFloatBitWidth();
  if (width == 8)
    return llvm::to_vector(llvm::map_range(
        attr.getValues<int8_t>(), [](int8_t x) { return static_cast<T>(x); }));
  if (width == 32)
    return llvm::to_vector(
        llvm::map_range(attr.getValues<int32_t>(),
                        [](int32_t x) { return static_cast<T>(x); }));
  SmallVector<T> values;
  for (const APInt &x : attr.getValues<APInt>())
    values.push_back(static_cast<T>(x.getSExtValue()));
  return values;
}

/// The dequantized-output form's activation bounds in float (the int8
/// reference's dequantizeAccumulator); no requantization to check.
LogicalResult prepareFloatOutput(Activation activation,
                                 std::optional<APFloat> clampMin,
                                 std::optional<APFloat> clampMax,
                                 ConvProblem &p) {
  switch (refActivation(activation)) {
  case quantc::ref::Activation::None:
    break;
  case quantc::ref::Activation::Relu:
    p.floatLo = 0.0f;
    break;
  case quantc::ref::Activation::Relu6:
    p.floatLo = 0.0f;
    p.floatHi = 6.0f;
    break;
  case quantc::ref::Activation::Clamp:
    p.floatLo = clampMin ? clampMin->convertToFloat() : 0.0f;
    p.floatHi = clampMax ? clampMax->convertToFloat() : 0.0f;
    break;
  }
  p.noOverflow = true;
  return success();
}

/// Fills the quantization part of `p` common to conv2d and linear.
LogicalResult prepareQuantization(Operation *op, Value input, Value filter,
                                  Value bias, Value residual, Value output,
                                  Activation activation,
                                  std::optional<APFloat> clampMin,
                                  std::optional<APFloat> clampMax,
                                  ConvProblem &p) {
  auto in = activationType(input);
  p.floatOut = cast<ShapedType>(output.getType()).getElementType().isF32();
  std::optional<SmallVector<int8_t>> w = constantStorage<int8_t>(filter);
  if (!w)
    return op->emitError() << "int8 lowering needs constant weights";
  p.weights = std::move(*w);
  SmallVector<int64_t> b(p.o, 0);
  if (bias) {
    std::optional<SmallVector<int64_t>> values = constantStorage<int64_t>(bias);
    if (!values)
      return op->emitError() << "int8 lowering needs a constant bias";
    b.assign(values->begin(), values->end());
  }
  bool inSigned = in.isSigned();
  p.domainSigned = p.info().signedInputs;
  p.shift = inSigned == p.domainSigned ? 0 : (inSigned ? 128 : -128);
  int64_t zp = in.getZeroPoint() + p.shift;
  p.inZp = static_cast<int32_t>(zp);
  std::optional<QuantParams> wParams = quantParams(filter.getType());
  float inScale = static_cast<float>(in.getScale());
  // The dequantized output is the requantization to scale 1.
  float outScale =
      p.floatOut ? 1.0f : static_cast<float>(activationType(output).getScale());
  int64_t perO = static_cast<int64_t>(p.weights.size()) / p.o;
  for (int64_t o = 0; o < p.o; ++o) {
    int64_t sum = 0;
    for (int64_t k = 0; k < perO; ++k)
      sum += p.weights[o * perO + k];
    int64_t comp = b[o] - zp * sum;
    if (comp < INT32_MIN || comp > INT32_MAX)
      return op->emitError() << "int8 lowering: zero-point compensation of "
                                "output channel "
                             << o << " overflows int32";
    p.comp.push_back(static_cast<int32_t>(comp));
    p.mult.push_back(
        quantc::ref::requantMultiplier(inScale, wParams->scale(o), outScale));
  }
  if (p.floatOut) {
    p.family().analyzeConv(
        p, std::max<int64_t>(in.getStorageTypeMax() + p.shift, 0));
    return prepareFloatOutput(activation, clampMin, clampMax, p);
  }
  auto out = activationType(output);
  p.outSigned = out.isSigned();
  p.outZp = static_cast<int32_t>(out.getZeroPoint());
  quantc::ref::Bounds bounds = quantc::ref::activationBounds(
      refActivation(activation), clampMin ? clampMin->convertToFloat() : 0.0f,
      clampMax ? clampMax->convertToFloat() : 0.0f, outScale, p.outZp,
      static_cast<int32_t>(out.getStorageTypeMin()),
      static_cast<int32_t>(out.getStorageTypeMax()));
  if (bounds.lo > bounds.hi)
    return op->emitError() << "int8 lowering: the clamp range misses the "
                              "output's quantized range";
  p.lo = bounds.lo;
  p.hi = bounds.hi;
  if (residual) {
    auto r = activationType(residual);
    p.hasResidual = true;
    p.resSigned = r.isSigned();
    p.resZp = static_cast<int32_t>(r.getZeroPoint());
    p.resMult = quantc::ref::requantMultiplier(static_cast<float>(r.getScale()),
                                               1.0f, outScale);
  }
  {
    int64_t xabs = std::max(std::abs(in.getStorageTypeMin() + p.shift),
                            std::abs(in.getStorageTypeMax() + p.shift));
    double rTerm = 0;
    if (residual) {
      auto r = activationType(residual);
      rTerm = std::fabs(double(p.resMult)) *
              double(std::max(std::abs(r.getStorageTypeMin() - p.resZp),
                              std::abs(r.getStorageTypeMax() - p.resZp)));
    }
    double worst = 0;
    for (int64_t o = 0; o < p.o; ++o) {
      int64_t sumAbs = 0;
      for (int64_t k = 0; k < perO; ++k)
        sumAbs += std::abs(p.weights[o * perO + k]);
      double acc = std::fabs(double(p.comp[o])) + double(sumAbs) * xabs;
      worst = std::max(worst, acc * std::fabs(double(p.mult[o])) + rTerm);
    }
    // Float rounding of the product and sum: a relative 2^-22 at most.
    p.noOverflow = worst * (1 + 1e-6) + 1 < std::ldexp(1.0, 30);
  }
  // What the kernel family proves about the products (avx2's pair sums).
  p.family().analyzeConv(
      p, std::max<int64_t>(in.getStorageTypeMax() + p.shift, 0));
  return success();
}

} // namespace

std::string ConvEmitter::pathName() const { return p.family().convPath(*this); }

Value ConvEmitter::global(StringRef prefix, RankedTensorType type,
                          DenseElementsAttr value) {
  return quantc::lowering::globalConstant(b, loc, prefix, value.reshape(type));
}

namespace {

/// The padded input copy of ConvEmitter::padInput: [N, H + pads, W + pads,
/// channels] filled with the zero point `zpValue`, input channel g * cg + c
/// copied to g * groupStride + c (top bit flipped when `flipBit`, i.e. when
/// the kernel's byte domain differs from the input's; zero-extended to i16
/// with `widen`). The copy moves whole rows (or pixels, or groups) with
/// 64-element vectors: parallel over (image, padded row), border rows
/// filled with the zero point (fill), inner rows copied (copyRow; an RGB
/// input spread to 4-byte slots by copyRgb).
class PaddedCopy {
public:
  PaddedCopy(ConvEmitter &e, int64_t groupStride, int64_t channels,
             int32_t zpValue, bool flipBit, bool widen)
      : e(e), b(e.b), loc(e.loc), p(e.p), groupStride(groupStride),
        channels(channels), zpValue(zpValue), flipBit(flipBit), widen(widen),
        hp(p.h + p.pt + p.pb), wp(p.w + p.pl + p.pr),
        elt(widen ? b.getI16Type() : b.getI8Type()),
        v64i8(VectorType::get({64}, b.getI8Type())),
        dense(groupStride == p.cg || p.groups == 1), perPixel(p.groups * p.cg),
        rowBytes(wp * channels) {}

  Value emit(Value input);

private:
  Value idx(int64_t v) { return e.idx(v); }
  Value add(Value a, Value c) { return e.add(a, c); }
  Value mul(Value a, int64_t c) { return e.mul(a, c); }
  Value splat8(VectorType t, int8_t v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(t, b.getI8IntegerAttr(v).getValue()));
  }
  /// The zero point as `width` elements of the copy.
  Value zpOf(int64_t width);
  /// Input bytes as elements of the copy.
  Value toCopy(Value v);
  /// body(iv) for iv < ub (no loop for one iteration).
  void loop(int64_t ub, function_ref<void(Value)> body);
  /// `width` elements (the first `valid`) at element `off` of source
  /// offset `s` (null: the zero point) to destination offset `d`.
  void chunk(Value s, Value d, Value off, int64_t width, int64_t valid);
  /// Stores (or copies) `len` bytes: 64-byte vectors, then one vector of the
  /// next power of two, masked when the tail is not one.
  void bytes(Value s, Value d, int64_t len);
  /// Input row `s` into the padded row at `d` (rowStart: its first byte).
  void copyRow(Value s, Value d, Value rowStart);
  /// 3 channels (an RGB image) to 4-byte slots: 16 pixels per 48-byte
  /// load, one byte shuffle adding the zero point as the 4th byte, one
  /// 64-byte store.
  void copyRgb(Value s, Value d, Value rowStart);

  ConvEmitter &e;
  ConversionPatternRewriter &b;
  Location loc;
  const ConvProblem &p;
  const int64_t groupStride, channels;
  const int32_t zpValue;
  const bool flipBit, widen;
  const int64_t hp, wp;
  Type elt;
  VectorType v64i8;
  const bool dense;
  const int64_t perPixel, rowBytes;
  Value src, dst;
};

} // namespace

Value PaddedCopy::zpOf(int64_t width) {
  if (!widen)
    return splat8(VectorType::get({width}, elt), static_cast<int8_t>(zpValue));
  return arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(VectorType::get({width}, elt),
                             b.getI16IntegerAttr(zpValue).getValue()));
}

Value PaddedCopy::toCopy(Value v) {
  if (!widen)
    return v;
  int64_t width = cast<VectorType>(v.getType()).getNumElements();
  return arith::ExtUIOp::create(b, loc, VectorType::get({width}, elt), v);
}

void PaddedCopy::loop(int64_t ub, function_ref<void(Value)> body) {
  if (ub == 1) {
    body(idx(0));
    return;
  }
  scf::ForOp::create(b, loc, idx(0), idx(ub), idx(1), ValueRange{},
                     [&](OpBuilder &, Location, Value iv, ValueRange) {
                       body(iv);
                       scf::YieldOp::create(b, loc);
                     });
}

void PaddedCopy::chunk(Value s, Value d, Value off, int64_t width,
                       int64_t valid) {
  auto t = VectorType::get({width}, b.getI8Type());
  Value mask = e.prefixMask(width, valid);
  Value v = zpOf(width);
  if (s) {
    Value at = add(s, off);
    Value pass = splat8(t, static_cast<int8_t>(zpValue));
    v = mask ? Value(
                   vector::MaskedLoadOp::create(b, loc, t, src, at, mask, pass))
             : Value(vector::LoadOp::create(b, loc, t, src, at));
    if (flipBit)
      v = arith::XOrIOp::create(b, loc, v, splat8(t, -128));
    v = toCopy(v);
  }
  Value at = add(d, off);
  if (mask)
    vector::MaskedStoreOp::create(b, loc, dst, at, mask, v);
  else
    vector::StoreOp::create(b, loc, v, dst, at);
}

void PaddedCopy::bytes(Value s, Value d, int64_t len) {
  int64_t full = len / 64, tail = len % 64;
  if (full)
    loop(full, [&](Value i) { chunk(s, d, mul(i, 64), 64, 64); });
  if (tail)
    chunk(s, d, idx(full * 64), static_cast<int64_t>(llvm::PowerOf2Ceil(tail)),
          tail);
}

void PaddedCopy::copyRgb(Value s, Value d, Value rowStart) {
  bytes(Value(), rowStart, rowBytes);
  SmallVector<int64_t> spread;
  for (int64_t i = 0; i < 16; ++i)
    for (int64_t j = 0; j < 4; ++j)
      spread.push_back(j < 3 ? 3 * i + j : 64);
  Value zpv = splat8(v64i8, static_cast<int8_t>(zpValue));
  auto expand = [&](Value x0, int64_t count) {
    Value v = vector::MaskedLoadOp::create(b, loc, v64i8, src,
                                           ValueRange{add(s, mul(x0, 3))},
                                           e.prefixMask(64, 3 * count), zpv);
    if (flipBit)
      v = arith::XOrIOp::create(b, loc, v, splat8(v64i8, -128));
    v = toCopy(vector::ShuffleOp::create(b, loc, v, zpv, spread));
    Value at = add(d, mul(x0, 4));
    if (count < 16)
      vector::MaskedStoreOp::create(b, loc, dst, ValueRange{at},
                                    e.prefixMask(64, 4 * count), v);
    else
      vector::StoreOp::create(b, loc, v, dst, ValueRange{at});
  };
  loop(p.w / 16, [&](Value i) { expand(mul(i, 16), 16); });
  if (p.w % 16)
    expand(idx(p.w / 16 * 16), p.w % 16);
}

void PaddedCopy::copyRow(Value s, Value d, Value rowStart) {
  if (dense && channels == perPixel) {
    // Whole rows: fill the border columns, copy the input row.
    if (p.pl)
      bytes(Value(), rowStart, p.pl * channels);
    if (p.pr)
      bytes(Value(), add(d, idx(p.w * channels)), p.pr * channels);
    bytes(s, d, p.w * perPixel);
    return;
  }
  if (dense && perPixel == 3 && channels == 4)
    return copyRgb(s, d, rowStart);
  // Padded channels: fill the row, copy each pixel (or group).
  bytes(Value(), rowStart, rowBytes);
  loop(p.w, [&](Value x) {
    Value sx = add(s, mul(x, perPixel)), dx = add(d, mul(x, channels));
    if (dense) {
      bytes(sx, dx, perPixel);
      return;
    }
    loop(p.groups, [&](Value g) {
      bytes(add(sx, mul(g, p.cg)), add(dx, mul(g, groupStride)), p.cg);
    });
  });
}

Value PaddedCopy::emit(Value input) {
  auto type = MemRefType::get({p.n, hp, wp, channels}, elt);
  Value xp = memref::AllocOp::create(b, loc, type);
  dst = e.flatten(xp), src = e.flatten(input);
  // Parallel over (image, padded row): border rows are filled with the zero
  // point; inner rows get their border columns filled and the input row
  // copied whole (or, with padded channels, the row filled and each pixel
  // or group copied).
  scf::ParallelOp::create(
      b, loc, ValueRange{idx(0), idx(0)}, ValueRange{idx(p.n), idx(hp)},
      ValueRange{idx(1), idx(1)}, [&](OpBuilder &, Location, ValueRange ivs) {
        Value n = ivs[0], yp = ivs[1];
        Value rowStart = mul(add(mul(n, hp), yp), rowBytes);
        Value inside = arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, yp,
                                  idx(p.pt)),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, yp,
                                  idx(p.pt + p.h)));
        scf::IfOp::create(
            b, loc, inside,
            [&](OpBuilder &, Location) {
              Value y = arith::SubIOp::create(b, loc, yp, idx(p.pt));
              Value s = mul(add(mul(n, p.h), y), p.w * perPixel);
              Value d = add(rowStart, idx(p.pl * channels));
              copyRow(s, d, rowStart);
              scf::YieldOp::create(b, loc);
            },
            [&](OpBuilder &, Location) {
              bytes(Value(), rowStart, rowBytes);
              scf::YieldOp::create(b, loc);
            });
        scf::ReduceOp::create(b, loc);
      });
  return xp;
}

Value ConvEmitter::padInput(Value input, int64_t groupStride, int64_t channels,
                            int32_t zpValue, bool flipBit, bool widen) {
  return PaddedCopy(*this, groupStride, channels, zpValue, flipBit, widen)
      .emit(input);
}

Value ConvEmitter::flatten(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<ReassociationIndices> all(1);
  for (int64_t i = 0; i < type.getRank(); ++i)
    all[0].push_back(i);
  return memref::CollapseShapeOp::create(b, loc, memref, all);
}

Value ConvEmitter::residualLanes(Value r) {
  int64_t lanes = cast<VectorType>(r.getType()).getNumElements();
  auto vi32 = VectorType::get({lanes}, b.getI32Type());
  Value r32 = p.resSigned ? Value(arith::ExtSIOp::create(b, loc, vi32, r))
                          : Value(arith::ExtUIOp::create(b, loc, vi32, r));
  Value zr = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(vi32, b.getI32IntegerAttr(p.resZp).getValue()));
  return arith::SubIOp::create(b, loc, r32, zr);
}

Value ConvEmitter::scaled(Value acc, Value mult, Value res) {
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  auto vf32 = VectorType::get({lanes}, b.getF32Type());
  Value v = arith::MulFOp::create(
      b, loc, arith::SIToFPOp::create(b, loc, vf32, acc), mult);
  if (!res)
    return v;
  Value mr = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(vf32, b.getF32FloatAttr(p.resMult).getValue()));
  Value t = arith::MulFOp::create(
      b, loc, arith::SIToFPOp::create(b, loc, vf32, res), mr);
  return arith::AddFOp::create(b, loc, v, t);
}

Value ConvEmitter::roundToInt(Value v) {
  int64_t lanes = cast<VectorType>(v.getType()).getNumElements();
  auto vi32 = VectorType::get({lanes}, b.getI32Type());
  if (Value r = p.family().roundToInt(*this, v))
    return r;
  return arith::FPToSIOp::create(b, loc, vi32,
                                 math::RoundEvenOp::create(b, loc, v));
}

/// float(acc) * m (+ float(r - zr) * mr), round half to even, clamp to
/// [lo - zp, hi - zp] in float (exact small integers), + zp, to i32.
Value ConvEmitter::floatEpilogue(Value acc, Value mult) {
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  auto vf32 = VectorType::get({lanes}, b.getF32Type());
  auto splatF = [&](float v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vf32, b.getF32FloatAttr(v).getValue()));
  };
  Value v = scaled(acc, mult, Value());
  // v is never NaN (a finite product): the reference's comparisons.
  auto nnan = arith::FastMathFlags::nnan;
  if (!std::isinf(p.floatLo))
    v = arith::MaximumFOp::create(b, loc, v, splatF(p.floatLo), nnan);
  if (!std::isinf(p.floatHi))
    v = arith::MinimumFOp::create(b, loc, v, splatF(p.floatHi), nnan);
  return v;
}

Type ConvEmitter::outElementType() {
  return p.floatOut ? Type(b.getF32Type()) : Type(b.getI8Type());
}

Value ConvEmitter::epilogue(Value acc, Value mult, Value res) {
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  auto v8f32 = VectorType::get({lanes}, b.getF32Type());
  auto v8i32 = VectorType::get({lanes}, b.getI32Type());
  auto splatF = [&](float v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(v8f32, b.getF32FloatAttr(v).getValue()));
  };
  Value v = scaled(acc, mult, res);
  // v is never NaN (a finite product and sum): nnan drops the NaN
  // propagation of maximumf / minimumf. The bounds are integers, so clamping
  // before rounding gives the same result as after.
  auto nnan = arith::FastMathFlags::nnan;
  v = arith::MaximumFOp::create(b, loc, v, splatF(float(p.lo - p.outZp)), nnan);
  v = arith::MinimumFOp::create(b, loc, v, splatF(float(p.hi - p.outZp)), nnan);
  Value q = roundToInt(v);
  Value zp = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(v8i32, b.getI32IntegerAttr(p.outZp).getValue()));
  return arith::AddIOp::create(b, loc, q, zp);
}

std::pair<Value, Value> ConvEmitter::compMultTables(int64_t rows, int64_t cols,
                                                    int64_t perRow,
                                                    int64_t packedCols) {
  // comp padded with 0, mult with 1 (padded lanes are never stored).
  SmallVector<int32_t> comp(rows * cols, 0);
  SmallVector<float> mult(rows * cols, 1.0f);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < perRow; ++c) {
      int64_t from = c < packedCols ? c / 64 * 64 + packedChannel(c % 64) : c;
      comp[r * cols + c] = p.comp[r * perRow + from];
      mult[r * cols + c] = p.mult[r * perRow + from];
    }
  auto compType = RankedTensorType::get({rows, cols}, b.getI32Type());
  auto multType = RankedTensorType::get({rows, cols}, b.getF32Type());
  return {global("__qnt_comp", compType,
                 DenseElementsAttr::get(compType, ArrayRef<int32_t>(comp))),
          global("__qnt_mult", multType,
                 DenseElementsAttr::get(multType, ArrayRef<float>(mult)))};
}

Value ConvEmitter::emit(Value input, Value residual) {
  return p.family().emitConv(*this, input, residual);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

Value toBuffer(ConversionPatternRewriter &rewriter, Location loc,
               Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  return bufferization::ToBufferOp::create(
      rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
      tensor, /*read_only=*/true);
}

Value toTensor(ConversionPatternRewriter &rewriter, Location loc,
               Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  return bufferization::ToTensorOp::create(
      rewriter, loc,
      RankedTensorType::get(type.getShape(), type.getElementType()), buffer,
      rewriter.getUnitAttr(), rewriter.getUnitAttr());
}

struct ConvLowering : public OpConversionPattern<Conv2DOp> {
  ConvLowering(TypeConverter &converter, MLIRContext *ctx, Int8Isa isa)
      : OpConversionPattern(converter, ctx), isa(isa) {}

  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.isQuantized())
      return rewriter.notifyMatchFailure(op, "float conv");
    ConvProblem p;
    // A dequantized output (a model's output layer) takes the portable
    // kernels, whose epilogue stores floats.
    bool floatOut = op.getOutput().getType().getElementType().isF32();
    p.isa = floatOut ? Int8Isa::Generic : isa;
    auto in = op.getInput().getType().getShape();
    auto f = op.getFilter().getType().getShape();
    auto out = op.getOutput().getType().getShape();
    p.n = in[0], p.h = in[1], p.w = in[2], p.c = in[3];
    p.groups = static_cast<int64_t>(op.getGroups());
    p.cg = p.c / p.groups;
    int64_t group = getInfo(p.isa).depthGroup;
    p.cg4 = (p.cg + group - 1) / group * group;
    p.o = f[0], p.og = p.o / p.groups;
    p.blocks = (p.og + kLanes - 1) / kLanes;
    p.kh = f[1], p.kw = f[2];
    p.sh = op.getStrides()[0], p.sw = op.getStrides()[1];
    p.dh = op.getDilations()[0], p.dw = op.getDilations()[1];
    p.pt = op.getPad()[0], p.pb = op.getPad()[1], p.pl = op.getPad()[2],
    p.pr = op.getPad()[3];
    p.oh = out[1], p.ow = out[2];
    if (failed(prepareQuantization(op, op.getInput(), op.getFilter(),
                                   op.getBias(), op.getResidual(),
                                   op.getOutput(), op.getActivation(),
                                   op.getClampMin(), op.getClampMax(), p)))
      return failure();
    ModuleOp module = op->getParentOfType<ModuleOp>();
    ConvEmitter emitter(rewriter, op.getLoc(), p, module);
    op.emitRemark() << "int8 kernel: " << emitter.pathName()
                    << (floatOut ? " (dequantized float output)" : "");
    Value input = toBuffer(rewriter, op.getLoc(), adaptor.getInput());
    Value residual = adaptor.getResidual() ? toBuffer(rewriter, op.getLoc(),
                                                      adaptor.getResidual())
                                           : Value();
    Value result = emitter.emit(input, residual);
    rewriter.replaceOp(op, toTensor(rewriter, op.getLoc(), result));
    return success();
  }

  Int8Isa isa;
};

/// qnt.linear is a 1x1 convolution over the rows of its input.
struct LinearLowering : public OpConversionPattern<LinearOp> {
  LinearLowering(TypeConverter &converter, MLIRContext *ctx, Int8Isa isa)
      : OpConversionPattern(converter, ctx), isa(isa) {}

  LogicalResult
  matchAndRewrite(LinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inShape = op.getInput().getType().getShape();
    auto wShape = op.getWeight().getType().getShape();
    int64_t k = inShape.back(), rows = 1;
    for (int64_t d : inShape.drop_back())
      rows *= d;
    ConvProblem p;
    bool floatOut = op.getOutput().getType().getElementType().isF32();
    p.isa = floatOut ? Int8Isa::Generic : isa;
    p.n = 1, p.h = 1, p.w = rows, p.c = k;
    p.groups = 1, p.cg = k;
    int64_t group = getInfo(p.isa).depthGroup;
    p.cg4 = (k + group - 1) / group * group;
    p.o = wShape[0], p.og = p.o, p.blocks = (p.og + kLanes - 1) / kLanes;
    p.kh = p.kw = p.sh = p.sw = p.dh = p.dw = 1;
    p.pt = p.pb = p.pl = p.pr = 0;
    p.oh = 1, p.ow = rows;
    if (failed(prepareQuantization(op, op.getInput(), op.getWeight(),
                                   op.getBias(), Value(), op.getOutput(),
                                   op.getActivation(), op.getClampMin(),
                                   op.getClampMax(), p)))
      return failure();
    ModuleOp module = op->getParentOfType<ModuleOp>();
    ConvEmitter emitter(rewriter, loc, p, module);
    op.emitRemark() << "int8 kernel: " << emitter.pathName()
                    << (floatOut ? " (dequantized float output)" : "");
    // View the input [..., K] as [1, 1, rows, K] and the result back.
    Value in = toBuffer(rewriter, loc, adaptor.getInput());
    auto in4 = MemRefType::get({1, 1, rows, k}, rewriter.getI8Type());
    Value in4v = memref::ReinterpretCastOp::create(
        rewriter, loc, in4, in, 0, ArrayRef<int64_t>{1, 1, rows, k},
        ArrayRef<int64_t>{rows * k, rows * k, k, 1});
    Value out4 = emitter.emit(in4v, Value());
    auto outShape = op.getOutput().getType().getShape();
    SmallVector<int64_t> strides(outShape.size(), 1);
    for (int64_t d = static_cast<int64_t>(outShape.size()) - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * outShape[d + 1];
    Value outV = memref::ReinterpretCastOp::create(
        rewriter, loc, MemRefType::get(outShape, emitter.outElementType()),
        out4, 0, outShape, strides);
    rewriter.replaceOp(op, toTensor(rewriter, loc, outV));
    return success();
  }

  Int8Isa isa;
};

} // namespace

void quantc::populateConvLoweringPatterns(TypeConverter &typeConverter,
                                          RewritePatternSet &patterns,
                                          Int8Isa isa) {
  patterns.add<ConvLowering, LinearLowering>(typeConverter,
                                             patterns.getContext(), isa);
  conv::populateMatmulLoweringPatterns(typeConverter, patterns, isa);
}
