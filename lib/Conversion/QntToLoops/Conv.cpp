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
// 64-channel line), then the line's 8-channel blocks, then the rows:
//   avx2         llvm.x86.avx2.pmadd.ub.sw + pmadd.wd when every packed
//                weight pair proves |x1*w1 + x2*w2| <= 32767 for the input's
//                range (vpmaddubsw saturates 16-bit pair sums), else the
//                exact path
//   neon-dot     llvm.aarch64.neon.sdot (s8 x s8, no saturation)
//   neon-i8mm    llvm.aarch64.neon.smmla: 2 pixels x 8 channels times 2
//                output channels x 8 channels per instruction (the input
//                channels are padded to 8)
//   exact        widen to i32, multiply-add (portable, always exact)
// and their depthwise kernel runs 8 channels per vector, widened to int32.
//
//===----------------------------------------------------------------------===//

#include "quantc/Conversion/QntToLoops.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Reference/Requantize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::qnt;
using quantc::Int8Isa;

namespace {

constexpr int64_t kLanes = 8;   // output channels per accumulator vector
constexpr int64_t kPixels = 4;  // output pixels per register block
constexpr int64_t kZLanes = 16; // int32 lanes of a zmm register

/// Output pixels per register block for `nv` 16-channel vectors: nv * pixels
/// accumulators + nv weight vectors stay within the 32 zmm registers (the
/// input broadcast folds into vpdpbusd's memory operand).
int64_t zmmPixels(int64_t nv) { return nv == 4 ? 6 : nv == 3 ? 8 : 12; }

/// Everything the kernel emitter needs, in plain numbers.
struct ConvProblem {
  int64_t n, h, w, c;      // input NHWC
  int64_t groups, cg, cg4; // input channels per group (rounded up to 4,
                           // to 8 for i8mm)
  int64_t o, og, blocks;   // output channels, per group, 8-blocks per group
  int64_t kh, kw, sh, sw, dh, dw, pt, pb, pl, pr, oh, ow;
  int32_t shift;         // added to input bytes: 0, +128 or -128
  int32_t inZp;          // input zero point in the kernel's domain
  bool domainSigned;     // the kernel's input domain is s8
  int32_t outZp, lo, hi; // output zero point and activation bounds
  bool outSigned;
  bool hasResidual = false;
  bool resSigned = false;
  int32_t resZp = 0;
  float resMult = 0.0f;
  SmallVector<int8_t> weights; // OHWI, [o][ky][kx][ci < cg]
  SmallVector<int32_t> comp;   // per output channel
  SmallVector<float> mult;     // per output channel
  Int8Isa isa;
  bool fastAvx2 = false; // vpmaddubsw proven exact
  /// |float(acc) * mult (+ residual term)| < 2^30 for every input in the
  /// input's storage range: the rounded value fits int32, so vcvtps2dq
  /// cannot overflow and the saturating packs alone can clamp.
  bool noOverflow = false;
};

/// Channel (within its 64-channel block) of position j = 16 q + 4 L + d of
/// the packed order: vector q, 128-bit lane L, dword d. vpackssdw of
/// vectors (0, 1) and (2, 3), then vpack{us,ss}wb, interleave the vectors
/// per lane, so storing channel 16 L + 4 q + d there gives the 64 channels
/// in order.
int64_t packedChannel(int64_t j) {
  int64_t q = j / 16, lane = j % 16 / 4, d = j % 4;
  return 16 * lane + 4 * q + d;
}

quant::UniformQuantizedType activationType(Value v) {
  return cast<quant::UniformQuantizedType>(
      cast<ShapedType>(v.getType()).getElementType());
}

/// Raw storage values of a constant quantized operand `scast(constant)`.
std::optional<SmallVector<int64_t>> constantStorage(Value v) {
  auto scast = v.getDefiningOp<quant::StorageCastOp>();
  DenseIntElementsAttr attr;
  if (!scast || !matchPattern(scast.getInput(), m_Constant(&attr)))
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &x : attr.getValues<APInt>())
    values.push_back(x.getSExtValue());
  return values;
}

SmallVector<float> scalesOf(Value v) {
  Type elt = cast<ShapedType>(v.getType()).getElementType();
  if (auto t = dyn_cast<quant::UniformQuantizedType>(elt))
    return {static_cast<float>(t.getScale())};
  SmallVector<float> s;
  for (double x : cast<quant::UniformQuantizedPerAxisType>(elt).getScales())
    s.push_back(static_cast<float>(x));
  return s;
}

quantc::ref::Activation refActivation(Activation a) {
  return static_cast<quantc::ref::Activation>(static_cast<int>(a));
}

/// Fills the quantization part of `p` common to conv2d and linear.
LogicalResult prepareQuantization(Operation *op, Value input, Value filter,
                                  Value bias, Value residual, Value output,
                                  Activation activation,
                                  std::optional<APFloat> clampMin,
                                  std::optional<APFloat> clampMax,
                                  ConvProblem &p) {
  auto in = activationType(input), out = activationType(output);
  std::optional<SmallVector<int64_t>> w = constantStorage(filter);
  if (!w)
    return op->emitError() << "int8 lowering needs constant weights";
  p.weights.assign(w->begin(), w->end());
  SmallVector<int64_t> b(p.o, 0);
  if (bias) {
    std::optional<SmallVector<int64_t>> values = constantStorage(bias);
    if (!values)
      return op->emitError() << "int8 lowering needs a constant bias";
    b.assign(values->begin(), values->end());
  }
  bool inSigned = in.isSigned();
  p.domainSigned = p.isa == Int8Isa::NeonDot || p.isa == Int8Isa::NeonI8MM;
  p.shift = inSigned == p.domainSigned ? 0 : (inSigned ? 128 : -128);
  int64_t zp = in.getZeroPoint() + p.shift;
  p.inZp = static_cast<int32_t>(zp);
  SmallVector<float> wScales = scalesOf(filter);
  float inScale = static_cast<float>(in.getScale());
  float outScale = static_cast<float>(out.getScale());
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
    p.mult.push_back(quantc::ref::requantMultiplier(
        inScale, wScales[wScales.size() == 1 ? 0 : o], outScale));
  }
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
  // vpmaddubsw adds two u8 x s8 products into a saturating int16: exact iff
  // every (w1, w2) pair keeps x1*w1 + x2*w2 within int16 for all inputs in
  // [0, xmax] (the input's storage range in the u8 domain).
  if (p.isa == Int8Isa::AVX2) {
    int64_t xmax = std::max<int64_t>(in.getStorageTypeMax() + p.shift, 0);
    bool exact = true;
    for (int64_t o = 0; o < p.o && exact; ++o)
      for (int64_t ky = 0; ky < p.kh; ++ky)
        for (int64_t kx = 0; kx < p.kw; ++kx)
          for (int64_t c = 0; c < p.cg; c += 2) {
            auto at = [&](int64_t ci) -> int64_t {
              if (ci >= p.cg)
                return 0;
              return p.weights[((o * p.kh + ky) * p.kw + kx) * p.cg + ci];
            };
            int64_t w1 = at(c), w2 = at(c + 1);
            int64_t pos =
                xmax * (std::max<int64_t>(w1, 0) + std::max<int64_t>(w2, 0));
            int64_t neg =
                xmax * (std::min<int64_t>(w1, 0) + std::min<int64_t>(w2, 0));
            if (pos > 32767 || neg < -32768)
              exact = false;
          }
    p.fastAvx2 = exact;
  }
  return success();
}

/// Emits the kernel for one prepared problem.
class ConvEmitter {
public:
  ConvEmitter(ConversionPatternRewriter &rewriter, Location loc,
              const ConvProblem &p, ModuleOp module)
      : b(rewriter), loc(loc), p(p), module(module) {}

  /// `input`: memref [N, H, W, C] of i8; returns memref [N, OH, OW, O].
  Value emit(Value input, Value residual);

  /// Name of the dot-product path, for the remark.
  std::string pathName() const;

private:
  bool isDepthwise() const { return p.groups == p.c && p.cg == 1 && p.og == 1; }
  /// The avx512-vnni depthwise kernel's blocks of 64 packed lanes (input
  /// read in place, so channels a multiple of 16): their first channels,
  /// and the pixels per vector (returned; 0: no such blocks). Channels
  /// they leave (a tail of 16) go to 16-channel blocks.
  int64_t depthwiseLanes(SmallVectorImpl<int64_t> &starts) const {
    starts.clear();
    if (p.c % kZLanes)
      return 0;
    if (p.c >= 64) {
      for (int64_t c = 0; c + 64 <= p.c; c += 64)
        starts.push_back(c);
      // A tail of 32 or 48 channels: a block overlapping the one before (a
      // whole block per pixel). A tail of 16 (a whole block per pixel would
      // be 4x its work): copied out and run 4 pixels per vector at stride
      // 1 along rows, the 16-channel kernel otherwise.
      if (p.c % 64 > 16)
        starts.push_back(p.c - 64);
      return 1;
    }
    if (p.c != 32 && p.c != 16)
      return 0;
    if (p.sw != 1)
      return 0;
    starts.push_back(0);
    return 64 / p.c;
  }
  bool usesDot() const {
    return p.isa == Int8Isa::AVX512VNNI || p.isa == Int8Isa::NeonDot ||
           (p.isa == Int8Isa::AVX2 && p.fastAvx2);
  }
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// A constant mask of `width` lanes with the first `valid` set, or null
  /// when all are.
  Value prefixMask(int64_t width, int64_t valid) {
    if (valid >= width)
      return {};
    SmallVector<bool> lanes;
    for (int64_t i = 0; i < width; ++i)
      lanes.push_back(i < valid);
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(VectorType::get({width}, b.getI1Type()),
                               ArrayRef<bool>(lanes)));
  }
  /// The input row / column an output position reads at kernel offset `k`.
  Value windowIndex(Value out, Value k, int64_t stride, int64_t dilation) {
    return arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, out, idx(stride)),
        arith::MulIOp::create(b, loc, k, idx(dilation)));
  }
  Value global(StringRef prefix, RankedTensorType type, DenseElementsAttr v);
  Value packWeights();
  Value padInput(Value input, int64_t groupStride, int64_t channels, int32_t zp,
                 bool flip);
  Value emitDepthwise(Value input, Value residual);
  /// memref<...xi8> (identity layout) as memref<Nxi8>.
  Value flatten(Value memref);
  // AVX-512 kernels (zmm, 16 int32 lanes).
  Value emitZmm(Value input, Value residual);
  void emitZmmBlock(Value x, bool flipX, Value packed, Value comp, Value mult,
                    Value out, Value residual, Value g, Value vec0, int64_t nv,
                    Value m0, int64_t pixels, int64_t valid, bool packedOrder);
  Value emitDepthwiseZmm(Value input, Value residual);
  /// Requantizes 64 outputs held in the packed order (packedChannel):
  /// accumulators acc[q] with multipliers m[q], q < 4, and stores them as
  /// the 64 bytes at out[offset] (residual: read at the same offset).
  /// With `inOrder`, acc[q] holds bytes 16 q .. 16 q + 15 of the 64 instead
  /// (consecutive vectors of a contiguous output run): a dword permutation
  /// after the packs puts them in place.
  /// `segments`: the 64 bytes go to segments.size() (2 or 4) places of
  /// 64 / size bytes each instead of one (consecutive pixels); a null
  /// segment is neither read (residual) nor written.
  void storePacked64(ArrayRef<Value> acc, ArrayRef<Value> m, Value out,
                     Value residual, Value offset, bool inOrder = false,
                     ArrayRef<Value> segments = {});
  /// Requantizes a vector of accumulators and stores it at out[offset].
  void storeFlat(Value acc, Value m, Value out, Value residual, Value offset,
                 Value mask);
  /// Per-channel constants as globals [rows][cols] (comp padded with 0,
  /// mult with 1); the first `packedCols` columns of each row (whole
  /// 64-channel blocks) in the packed order of packedChannel.
  std::pair<Value, Value> compMultTables(int64_t rows, int64_t cols,
                                         int64_t perRow,
                                         int64_t packedCols = 0);
  void emitPixelsI8MM(Value xp, Value packed, Value comp, Value mult, Value out,
                      Value residual, Value n, Value oy, Value ox0,
                      int64_t pixels, Value g, Value block, int64_t valid);
  void storePixel(Value acc, Value m, Value out, Value residual, Value n,
                  Value oy, Value ox, Value outCh, Value mask);
  /// for ky, kx, i < inner: accumulators carried as iter_args.
  ValueRange reductionLoops(
      int64_t inner, ValueRange accs,
      function_ref<SmallVector<Value>(Value, Value, Value, SmallVector<Value>)>
          body);
  /// The block's multipliers, its first output channel and the tail mask.
  std::tuple<Value, Value, Value> storeContext(Value mult, Value g, Value oc0,
                                               int64_t valid);
  void emitPixels(Value xp, Value packed, Value comp, Value mult, Value out,
                  Value residual, Value n, Value oy, Value ox0, int64_t pixels,
                  Value g, Value block, int64_t valid);
  Value dot4(Value acc, Value x, Value w);
  /// r - zr as int32 lanes, from the residual's bytes `r`.
  Value residualLanes(Value r);
  /// float(acc) * mult (+ float(res) * resMult; res from residualLanes).
  Value scaled(Value acc, Value mult, Value res);
  /// Round half to even and convert to int32 (vcvtps2dq {rn-sae} on zmm).
  Value roundToInt(Value v);
  Value epilogue(Value acc, Value mult, Value res);

  ConversionPatternRewriter &b;
  Location loc;
  const ConvProblem &p;
  ModuleOp module;
};

std::string ConvEmitter::pathName() const {
  bool zmm = p.isa == Int8Isa::AVX512VNNI;
  // How whole 64-channel blocks are requantized (storePacked64).
  std::string packs = p.noOverflow
                          ? "stored by saturating packs"
                          : "stored by saturating packs after a float clamp";
  if (isDepthwise()) {
    if (!zmm)
      return "depthwise: 8 channels per vector, int32 multiply-add";
    SmallVector<int64_t> starts;
    int64_t pixels = depthwiseLanes(starts);
    std::string kernel = "by vpdpbusd (4 kernel rows per dword), a window "
                         "sliding along the row, ";
    if (pixels == 1)
      return "depthwise: 64-channel blocks " + kernel + packs +
             (p.c % 64 > 16 ? "; the last block overlaps the one before"
              : p.c % 64 == 16 && p.sw == 1
                  ? "; the last 16 channels copied out, 4 pixels per vector"
              : p.c % 64 == 16 ? "; 16-channel blocks by vpdpwssd"
                               : "");
    if (pixels > 1)
      return "depthwise: " + std::to_string(pixels) + " pixels x " +
             std::to_string(p.c) + " channels per 64 lanes " + kernel + packs;
    return "depthwise: 16 channels per zmm, vpdpwssd";
  }
  switch (p.isa) {
  case Int8Isa::AVX512VNNI: {
    int64_t vectors = (p.og + kZLanes - 1) / kZLanes;
    int64_t nv = std::min<int64_t>(vectors, 4);
    bool copy = p.pt || p.pb || p.pl || p.pr || p.cg != p.cg4;
    // Whole 64-channel blocks (not counting a 4-vector block with a tail).
    bool blocks64 = vectors >= 4 && !(vectors == 4 && p.og % kZLanes);
    return "avx512-vnni: vpdpbusd zmm, " + std::to_string(zmmPixels(nv)) +
           " pixels x " + std::to_string(nv * kZLanes) + " channels" +
           (copy ? ", padded input copy" : ", input read in place") +
           (blocks64 ? ", 64-channel blocks " + packs
            : p.groups == 1 && vectors < 4 && p.og % kZLanes == 0
                ? ", pixel runs " + packs
                : "");
  }
  case Int8Isa::AVX2:
    return p.fastAvx2 ? "avx2: vpmaddubsw + vpmaddwd (every 16-bit pair sum "
                        "is provably within int16)"
                      : "avx2: exact 32-bit path (vpmaddubsw could saturate "
                        "16-bit pair sums for this input range and weights)";
  case Int8Isa::NeonDot:
    return "neon: sdot";
  case Int8Isa::NeonI8MM:
    return "neon: smmla";
  case Int8Isa::Generic:
    return "generic: exact 32-bit vector path";
  }
  return "";
}

Value ConvEmitter::global(StringRef prefix, RankedTensorType type,
                          DenseElementsAttr value) {
  SymbolTable symbols(module);
  std::string name;
  for (int i = 0;; ++i) {
    name = (prefix + "_" + Twine(i)).str();
    if (!symbols.lookup(name))
      break;
  }
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    memref::GlobalOp::create(b, loc, b.getStringAttr(name),
                             b.getStringAttr("private"),
                             TypeAttr::get(memrefType), value, b.getUnitAttr(),
                             b.getI64IntegerAttr(64));
  }
  return memref::GetGlobalOp::create(b, loc, memrefType, name);
}

/// Packed weights. Dot paths: [G][B][KH][KW][Q][32] with byte j*4+t =
/// w[g*og + 8b + j][ky][kx][4q + t]. Exact path: [G][B][KH][KW][Q][4][8]
/// with element [t][j] the same weight. i8mm: [G][B][KH][KW][Q/2][64] with
/// byte jj*16 + jp*8 + t = w[8b + 2jj + jp][..][8r + t] (pairs of output
/// channels, 8 input channels each). Missing channels are 0.
Value ConvEmitter::packWeights() {
  // A tile holds 8 output channels x `chunk` input channels; `at(j, t)` is
  // the byte of output channel j, input channel t within the tile.
  bool i8mm = p.isa == Int8Isa::NeonI8MM;
  int64_t chunk = i8mm ? 8 : 4, tiles = p.cg4 / chunk;
  int64_t tileBytes = kLanes * chunk;
  auto at = [&](int64_t j, int64_t t) {
    if (i8mm)
      return (j / 2) * 16 + (j % 2) * 8 + t;
    return usesDot() ? j * 4 + t : t * kLanes + j;
  };
  SmallVector<int8_t> packed(
      p.groups * p.blocks * p.kh * p.kw * tiles * tileBytes, 0);
  for (int64_t g = 0; g < p.groups; ++g)
    for (int64_t bl = 0; bl < p.blocks; ++bl)
      for (int64_t ky = 0; ky < p.kh; ++ky)
        for (int64_t kx = 0; kx < p.kw; ++kx)
          for (int64_t q = 0; q < tiles; ++q)
            for (int64_t j = 0; j < kLanes; ++j)
              for (int64_t t = 0; t < chunk; ++t) {
                int64_t oc = bl * kLanes + j, ci = q * chunk + t;
                if (oc >= p.og || ci >= p.cg)
                  continue;
                int64_t o = g * p.og + oc;
                int64_t base =
                    ((((g * p.blocks + bl) * p.kh + ky) * p.kw + kx) * tiles +
                     q) *
                    tileBytes;
                packed[base + at(j, t)] =
                    p.weights[((o * p.kh + ky) * p.kw + kx) * p.cg + ci];
              }
  SmallVector<int64_t> shape{p.groups, p.blocks, p.kh, p.kw, tiles, tileBytes};
  if (!i8mm && !usesDot())
    shape = {p.groups, p.blocks, p.kh, p.kw, tiles, 4, kLanes};
  auto type = RankedTensorType::get(shape, b.getI8Type());
  return global("__qnt_weights", type,
                DenseElementsAttr::get(type, ArrayRef<int8_t>(packed)));
}

ValueRange ConvEmitter::reductionLoops(
    int64_t inner, ValueRange accs,
    function_ref<SmallVector<Value>(Value, Value, Value, SmallVector<Value>)>
        body) {
  auto loop = [&](int64_t ub, ValueRange iters,
                  function_ref<SmallVector<Value>(Value, ValueRange)> f) {
    return scf::ForOp::create(
               b, loc, idx(0), idx(ub), idx(1), iters,
               [&](OpBuilder &, Location, Value iv, ValueRange args) {
                 scf::YieldOp::create(b, loc, f(iv, args));
               })
        .getResults();
  };
  return loop(p.kh, accs, [&](Value ky, ValueRange a0) {
    return SmallVector<Value>(loop(p.kw, a0, [&](Value kx, ValueRange a1) {
      return SmallVector<Value>(loop(inner, a1, [&](Value i, ValueRange a2) {
        return body(ky, kx, i, SmallVector<Value>(a2.begin(), a2.end()));
      }));
    }));
  });
}

std::tuple<Value, Value, Value>
ConvEmitter::storeContext(Value mult, Value g, Value oc0, int64_t valid) {
  Value m =
      vector::LoadOp::create(b, loc, VectorType::get({kLanes}, b.getF32Type()),
                             mult, ValueRange{g, oc0});
  Value outCh = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, g, idx(p.og)), oc0);
  return {m, outCh, prefixMask(kLanes, valid)};
}

/// smmla: per pixel pair (A, B) and output-channel pair jj, a 2x2 int32 tile
/// [A.o0, A.o1, B.o0, B.o1] accumulates 8 input channels per instruction. A
/// single remaining pixel is paired with itself.
void ConvEmitter::emitPixelsI8MM(Value xp, Value packed, Value comp, Value mult,
                                 Value out, Value residual, Value n, Value oy,
                                 Value ox0, int64_t pixels, Value g,
                                 Value block, int64_t valid) {
  auto v8i32 = VectorType::get({kLanes}, b.getI32Type());
  auto v4i32 = VectorType::get({4}, b.getI32Type());
  auto v8i8 = VectorType::get({8}, b.getI8Type());
  auto v16i8 = VectorType::get({16}, b.getI8Type());
  Value oc0 = arith::MulIOp::create(b, loc, block, idx(kLanes));
  Value init = vector::LoadOp::create(b, loc, v8i32, comp, ValueRange{g, oc0});
  int64_t pairs = (pixels + 1) / 2;
  SmallVector<Value> accs;
  for (int64_t pr = 0; pr < pairs; ++pr)
    for (int64_t jj = 0; jj < 4; ++jj)
      accs.push_back(vector::ShuffleOp::create(
          b, loc, init, init,
          ArrayRef<int64_t>{2 * jj, 2 * jj + 1, 2 * jj, 2 * jj + 1}));
  int64_t r8 = p.cg4 / 8;
  Value chBase = arith::MulIOp::create(b, loc, g, idx(p.cg4));
  MLIRContext *ctx = b.getContext();
  ValueRange result = reductionLoops(
      r8, accs, [&](Value ky, Value kx, Value r, SmallVector<Value> acc) {
        Value iy = windowIndex(oy, ky, p.sh, p.dh);
        Value ch = arith::AddIOp::create(
            b, loc, chBase, arith::MulIOp::create(b, loc, r, idx(8)));
        auto row = [&](int64_t px) {
          Value ox = arith::AddIOp::create(b, loc, ox0, idx(px));
          Value ix = windowIndex(ox, kx, p.sw, p.dw);
          return vector::LoadOp::create(b, loc, v8i8, xp,
                                        ValueRange{n, iy, ix, ch});
        };
        SmallVector<Value> w;
        for (int64_t jj = 0; jj < 4; ++jj)
          w.push_back(vector::LoadOp::create(
              b, loc, v16i8, packed,
              ValueRange{g, block, ky, kx, r, idx(jj * 16)}));
        for (int64_t pr = 0; pr < pairs; ++pr) {
          Value ra = row(2 * pr);
          Value rb = 2 * pr + 1 < pixels ? Value(row(2 * pr + 1)) : ra;
          SmallVector<int64_t> concat;
          for (int64_t i = 0; i < 16; ++i)
            concat.push_back(i);
          Value a = vector::ShuffleOp::create(b, loc, ra, rb, concat);
          for (int64_t jj = 0; jj < 4; ++jj)
            acc[pr * 4 + jj] =
                PureIntrinsicOp::create(
                    b, loc, v4i32,
                    StringAttr::get(ctx, "llvm.aarch64.neon.smmla.v4i32.v16i8"),
                    ValueRange{acc[pr * 4 + jj], a, w[jj]})
                    .getResult();
        }
        return acc;
      });

  auto [m, outCh, mask] = storeContext(mult, g, oc0, valid);
  for (int64_t px = 0; px < pixels; ++px) {
    // Gather the pixel's row of the four 2x2 tiles: lanes 0,1 (A) or 2,3 (B).
    int64_t pr = px / 2, half = (px % 2) * 2;
    Value t01 = vector::ShuffleOp::create(
        b, loc, result[pr * 4 + 0], result[pr * 4 + 1],
        ArrayRef<int64_t>{half, half + 1, 4 + half, 4 + half + 1});
    Value t23 = vector::ShuffleOp::create(
        b, loc, result[pr * 4 + 2], result[pr * 4 + 3],
        ArrayRef<int64_t>{half, half + 1, 4 + half, 4 + half + 1});
    Value acc = vector::ShuffleOp::create(
        b, loc, t01, t23, ArrayRef<int64_t>{0, 1, 2, 3, 4, 5, 6, 7});
    (void)v8i32;
    Value ox = arith::AddIOp::create(b, loc, ox0, idx(px));
    storePixel(acc, m, out, residual, n, oy, ox, outCh, mask);
  }
}

/// [N, H + pads, W + pads, channels] filled with the zero point `zp`, input
/// channel g * cg + c copied to g * groupStride + c (top bit flipped when
/// `flip`, i.e. when the kernel's byte domain differs from the input's). The
/// copy moves whole rows (or pixels, or groups) with 64-byte vectors.
Value ConvEmitter::padInput(Value input, int64_t groupStride, int64_t channels,
                            int32_t zpValue, bool flipBit) {
  int64_t hp = p.h + p.pt + p.pb, wp = p.w + p.pl + p.pr;
  auto type = MemRefType::get({p.n, hp, wp, channels}, b.getI8Type());
  Value xp = memref::AllocOp::create(b, loc, type);
  Value dst = flatten(xp), src = flatten(input);
  auto v64i8 = VectorType::get({64}, b.getI8Type());
  auto splat8 = [&](VectorType t, int8_t v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(t, b.getI8IntegerAttr(v).getValue()));
  };
  auto loop = [&](int64_t ub, auto body) {
    if (ub == 1) {
      body(idx(0));
      return;
    }
    scf::ForOp::create(b, loc, idx(0), idx(ub), idx(1), ValueRange{},
                       [&](OpBuilder &, Location, Value iv, ValueRange) {
                         body(iv);
                         scf::YieldOp::create(b, loc);
                       });
  };
  auto mul = [&](Value a, int64_t c) {
    return arith::MulIOp::create(b, loc, a, idx(c)).getResult();
  };
  auto add = [&](Value a, Value c) {
    return arith::AddIOp::create(b, loc, a, c).getResult();
  };
  // Stores (or copies) `len` bytes: 64-byte vectors, then one vector of the
  // next power of two, masked when the tail is not one.
  auto bytes = [&](Value s, Value d, int64_t len) {
    auto chunk = [&](Value off, int64_t width, int64_t valid) {
      auto t = VectorType::get({width}, b.getI8Type());
      Value mask = prefixMask(width, valid);
      Value v = splat8(t, static_cast<int8_t>(zpValue));
      if (s) {
        Value at = add(s, off);
        v = mask ? Value(vector::MaskedLoadOp::create(b, loc, t, src, at, mask,
                                                      v))
                 : Value(vector::LoadOp::create(b, loc, t, src, at));
        if (flipBit)
          v = arith::XOrIOp::create(b, loc, v, splat8(t, -128));
      }
      Value at = add(d, off);
      if (mask)
        vector::MaskedStoreOp::create(b, loc, dst, at, mask, v);
      else
        vector::StoreOp::create(b, loc, v, dst, at);
    };
    int64_t full = len / 64, tail = len % 64;
    if (full)
      loop(full, [&](Value i) { chunk(mul(i, 64), 64, 64); });
    if (tail)
      chunk(idx(full * 64), static_cast<int64_t>(llvm::PowerOf2Ceil(tail)),
            tail);
  };
  (void)v64i8;
  bool dense = groupStride == p.cg || p.groups == 1;
  int64_t perPixel = p.groups * p.cg;
  bool rows = dense && channels == perPixel;
  int64_t rowBytes = wp * channels;
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
              if (rows) {
                if (p.pl)
                  bytes(Value(), rowStart, p.pl * channels);
                if (p.pr)
                  bytes(Value(), add(d, idx(p.w * channels)), p.pr * channels);
                bytes(s, d, p.w * perPixel);
              } else if (dense && perPixel == 3 && channels == 4) {
                // 3 channels (an RGB image) to 4-byte slots: 16 pixels per
                // 48-byte load, one byte shuffle adding the zero point as
                // the 4th byte, one 64-byte store.
                bytes(Value(), rowStart, rowBytes);
                SmallVector<int64_t> spread;
                for (int64_t i = 0; i < 16; ++i)
                  for (int64_t j = 0; j < 4; ++j)
                    spread.push_back(j < 3 ? 3 * i + j : 64);
                Value zpv = splat8(v64i8, static_cast<int8_t>(zpValue));
                auto expand = [&](Value x0, int64_t count) {
                  Value v = vector::MaskedLoadOp::create(
                      b, loc, v64i8, src, ValueRange{add(s, mul(x0, 3))},
                      prefixMask(64, 3 * count), zpv);
                  if (flipBit)
                    v = arith::XOrIOp::create(b, loc, v, splat8(v64i8, -128));
                  v = vector::ShuffleOp::create(b, loc, v, zpv, spread);
                  Value at = add(d, mul(x0, 4));
                  if (count < 16)
                    vector::MaskedStoreOp::create(b, loc, dst, ValueRange{at},
                                                  prefixMask(64, 4 * count), v);
                  else
                    vector::StoreOp::create(b, loc, v, dst, ValueRange{at});
                };
                loop(p.w / 16, [&](Value i) { expand(mul(i, 16), 16); });
                if (p.w % 16)
                  expand(idx(p.w / 16 * 16), p.w % 16);
              } else {
                bytes(Value(), rowStart, rowBytes);
                loop(p.w, [&](Value x) {
                  Value sx = add(s, mul(x, perPixel)),
                        dx = add(d, mul(x, channels));
                  if (dense) {
                    bytes(sx, dx, perPixel);
                    return;
                  }
                  loop(p.groups, [&](Value g) {
                    bytes(add(sx, mul(g, p.cg)), add(dx, mul(g, groupStride)),
                          p.cg);
                  });
                });
              }
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

Value ConvEmitter::flatten(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<ReassociationIndices> all(1);
  for (int64_t i = 0; i < type.getRank(); ++i)
    all[0].push_back(i);
  return memref::CollapseShapeOp::create(b, loc, memref, all);
}

Value ConvEmitter::dot4(Value acc, Value x, Value w) {
  MLIRContext *ctx = b.getContext();
  auto v8i32 = VectorType::get({kLanes}, b.getI32Type());
  // qnt.pure_intrinsic: LLVM's call_intrinsic has unknown memory effects,
  // which buffer deallocation refuses; these intrinsics have none.
  auto call = [&](Type result, StringRef name, ValueRange args) {
    return PureIntrinsicOp::create(b, loc, result, StringAttr::get(ctx, name),
                                   args)
        .getResult();
  };
  switch (p.isa) {
  case Int8Isa::AVX512VNNI:
    // LLVM 22 types the byte operands as <32 x i8>.
    return call(v8i32, "llvm.x86.avx512.vpdpbusd.256", {acc, x, w});
  case Int8Isa::AVX2: {
    auto v16i16 = VectorType::get({16}, b.getI16Type());
    Value pairs = call(v16i16, "llvm.x86.avx2.pmadd.ub.sw", {x, w});
    Value ones = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(v16i16, b.getI16IntegerAttr(1).getValue()));
    Value quads = call(v8i32, "llvm.x86.avx2.pmadd.wd", {pairs, ones});
    return arith::AddIOp::create(b, loc, acc, quads);
  }
  case Int8Isa::NeonDot:
  case Int8Isa::NeonI8MM: {
    auto v4i32 = VectorType::get({4}, b.getI32Type());
    auto v16i8 = VectorType::get({16}, b.getI8Type());
    Value result = acc;
    for (int64_t half = 0; half < 2; ++half) {
      Value a = vector::ExtractStridedSliceOp::create(b, loc, acc, {half * 4},
                                                      {4}, {1});
      Value xs = vector::ExtractStridedSliceOp::create(b, loc, x, {half * 16},
                                                       {16}, {1});
      Value ws = vector::ExtractStridedSliceOp::create(b, loc, w, {half * 16},
                                                       {16}, {1});
      (void)v16i8;
      Value d = call(v4i32, "llvm.aarch64.neon.sdot.v4i32.v16i8", {a, xs, ws});
      result = vector::InsertStridedSliceOp::create(b, loc, d, result,
                                                    {half * 4}, {1});
    }
    return result;
  }
  case Int8Isa::Generic:
    break;
  }
  llvm_unreachable("dot4 on the exact path");
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
  if (p.isa == Int8Isa::AVX512VNNI && lanes == kZLanes) {
    // vcvtps2dq {rn-sae}: round half to even and convert in one instruction.
    return PureIntrinsicOp::create(
               b, loc, vi32,
               StringAttr::get(b.getContext(),
                               "llvm.x86.avx512.mask.cvtps2dq.512"),
               ValueRange{
                   v,
                   arith::ConstantOp::create(
                       b, loc,
                       DenseElementsAttr::get(
                           vi32, b.getI32IntegerAttr(0).getValue())),
                   arith::ConstantOp::create(b, loc, b.getI16IntegerAttr(-1)),
                   arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(8))})
        .getResult();
  }
  return arith::FPToSIOp::create(b, loc, vi32,
                                 math::RoundEvenOp::create(b, loc, v));
}

/// float(acc) * m (+ float(r - zr) * mr), round half to even, clamp to
/// [lo - zp, hi - zp] in float (exact small integers), + zp, to i32.
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

void ConvEmitter::emitPixels(Value xp, Value packed, Value comp, Value mult,
                             Value out, Value residual, Value n, Value oy,
                             Value ox0, int64_t pixels, Value g, Value block,
                             int64_t valid) {
  auto v8i32 = VectorType::get({kLanes}, b.getI32Type());
  auto v8i8 = VectorType::get({kLanes}, b.getI8Type());
  auto v32i8 = VectorType::get({32}, b.getI8Type());
  auto v4i8 = VectorType::get({4}, b.getI8Type());
  auto v1i32 = VectorType::get({1}, b.getI32Type());
  Value oc0 = arith::MulIOp::create(b, loc, block, idx(kLanes));
  // comp / mult are [G][blocks * 8].
  Value init = vector::LoadOp::create(b, loc, v8i32, comp, ValueRange{g, oc0});
  SmallVector<Value> accs(pixels, init);
  int64_t q4 = p.cg4 / 4;
  Value chBase = arith::MulIOp::create(b, loc, g, idx(p.cg4));
  ValueRange result = reductionLoops(
      q4, accs, [&](Value ky, Value kx, Value q, SmallVector<Value> acc) {
        Value iy = windowIndex(oy, ky, p.sh, p.dh);
        Value ch = arith::AddIOp::create(
            b, loc, chBase, arith::MulIOp::create(b, loc, q, idx(4)));
        auto ixOf = [&](int64_t px) {
          Value ox = arith::AddIOp::create(b, loc, ox0, idx(px));
          return windowIndex(ox, kx, p.sw, p.dw);
        };
        if (usesDot()) {
          Value wv = vector::LoadOp::create(
              b, loc, v32i8, packed, ValueRange{g, block, ky, kx, q, idx(0)});
          for (int64_t px = 0; px < pixels; ++px) {
            Value quad = vector::LoadOp::create(
                b, loc, v4i8, xp, ValueRange{n, iy, ixOf(px), ch});
            Value word = vector::BitCastOp::create(b, loc, v1i32, quad);
            Value scalar = vector::ExtractOp::create(b, loc, word, 0);
            Value splat = vector::BroadcastOp::create(b, loc, v8i32, scalar);
            Value xv = vector::BitCastOp::create(b, loc, v32i8, splat);
            acc[px] = dot4(acc[px], xv, wv);
          }
        } else {
          for (int64_t t = 0; t < 4; ++t) {
            Value wt = vector::LoadOp::create(
                b, loc, v8i8, packed,
                ValueRange{g, block, ky, kx, q, idx(t), idx(0)});
            Value w32 = arith::ExtSIOp::create(b, loc, v8i32, wt);
            Value cht = arith::AddIOp::create(b, loc, ch, idx(t));
            for (int64_t px = 0; px < pixels; ++px) {
              Value x = memref::LoadOp::create(
                  b, loc, xp, ValueRange{n, iy, ixOf(px), cht});
              Value x32 =
                  p.domainSigned
                      ? Value(arith::ExtSIOp::create(b, loc, b.getI32Type(), x))
                      : Value(
                            arith::ExtUIOp::create(b, loc, b.getI32Type(), x));
              Value xs = vector::BroadcastOp::create(b, loc, v8i32, x32);
              acc[px] = arith::AddIOp::create(
                  b, loc, acc[px], arith::MulIOp::create(b, loc, xs, w32));
            }
          }
        }
        return acc;
      });

  auto [m, outCh, mask] = storeContext(mult, g, oc0, valid);
  for (int64_t px = 0; px < pixels; ++px)
    storePixel(result[px], m, out, residual, n, oy,
               arith::AddIOp::create(b, loc, ox0, idx(px)), outCh, mask);
}

/// Requantizes one pixel's 8 accumulators and stores the valid lanes.
void ConvEmitter::storePixel(Value acc, Value m, Value out, Value residual,
                             Value n, Value oy, Value ox, Value outCh,
                             Value mask) {
  auto v8i8 = VectorType::get({kLanes}, b.getI8Type());
  SmallVector<Value> indices{n, oy, ox, outCh};
  Value res;
  if (residual) {
    Value r =
        mask ? Value(vector::MaskedLoadOp::create(
                   b, loc, v8i8, residual, indices, mask,
                   arith::ConstantOp::create(
                       b, loc,
                       DenseElementsAttr::get(
                           v8i8, b.getI8IntegerAttr(0).getValue()))))
             : Value(vector::LoadOp::create(b, loc, v8i8, residual, indices));
    res = residualLanes(r);
  }
  Value q = epilogue(acc, m, res);
  Value bytes = arith::TruncIOp::create(b, loc, v8i8, q);
  if (mask)
    vector::MaskedStoreOp::create(b, loc, out, indices, mask, bytes);
  else
    vector::StoreOp::create(b, loc, bytes, out, indices);
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

/// Depthwise with one output channel per input channel: vectors run along
/// the channels. acc[c] = comp[c] + sum_{ky,kx} x[iy][ix][c] * w[ky][kx][c],
/// 8 channels at a time, widened to int32 (exact on every target).
Value ConvEmitter::emitDepthwise(Value input, Value residual) {
  int64_t cpad = (p.c + kLanes - 1) / kLanes * kLanes;
  // The same byte domain as the other kernels: comp was computed for it.
  Value xp = padInput(input, /*groupStride=*/1, cpad, p.inZp, p.shift != 0);
  SmallVector<int8_t> packed(p.kh * p.kw * cpad, 0);
  for (int64_t c = 0; c < p.c; ++c)
    for (int64_t ky = 0; ky < p.kh; ++ky)
      for (int64_t kx = 0; kx < p.kw; ++kx)
        packed[(ky * p.kw + kx) * cpad + c] =
            p.weights[(c * p.kh + ky) * p.kw + kx];
  auto wType = RankedTensorType::get({p.kh, p.kw, cpad}, b.getI8Type());
  Value w = global("__qnt_weights", wType,
                   DenseElementsAttr::get(wType, ArrayRef<int8_t>(packed)));
  auto [compV, multV] = compMultTables(1, cpad, p.c);
  auto outType = MemRefType::get({p.n, p.oh, p.ow, p.o}, b.getI8Type());
  Value out = memref::AllocOp::create(b, loc, outType);
  auto v8i32 = VectorType::get({kLanes}, b.getI32Type());
  auto v8i8 = VectorType::get({kLanes}, b.getI8Type());
  bool inSigned = p.domainSigned;
  auto loop = [&](int64_t ub, auto body) {
    scf::ForOp::create(b, loc, idx(0), idx(ub), idx(1), ValueRange{},
                       [&](OpBuilder &, Location, Value iv, ValueRange) {
                         body(iv);
                         scf::YieldOp::create(b, loc);
                       });
  };
  Value zero = idx(0);
  auto block = [&](Value n, Value oy, Value ox, Value blk, int64_t valid) {
    Value c0 = arith::MulIOp::create(b, loc, blk, idx(kLanes));
    Value init =
        vector::LoadOp::create(b, loc, v8i32, compV, ValueRange{zero, c0});
    ValueRange acc = reductionLoops(
        1, ValueRange{init},
        [&](Value ky, Value kx, Value, SmallVector<Value> a) {
          Value iy = windowIndex(oy, ky, p.sh, p.dh);
          Value ix = windowIndex(ox, kx, p.sw, p.dw);
          Value xv = vector::LoadOp::create(b, loc, v8i8, xp,
                                            ValueRange{n, iy, ix, c0});
          Value wv =
              vector::LoadOp::create(b, loc, v8i8, w, ValueRange{ky, kx, c0});
          Value x32 = inSigned
                          ? Value(arith::ExtSIOp::create(b, loc, v8i32, xv))
                          : Value(arith::ExtUIOp::create(b, loc, v8i32, xv));
          Value w32 = arith::ExtSIOp::create(b, loc, v8i32, wv);
          a[0] = arith::AddIOp::create(b, loc, a[0],
                                       arith::MulIOp::create(b, loc, x32, w32));
          return a;
        });
    auto [m, outCh, mask] = storeContext(multV, zero, c0, valid);
    storePixel(acc[0], m, out, residual, n, oy, ox, outCh, mask);
  };
  int64_t full = p.c / kLanes, tail = p.c % kLanes;
  // Parallel over (image, output row); the row's KH input rows stay in L1
  // across its pixels and channel blocks.
  scf::ParallelOp::create(
      b, loc, ValueRange{idx(0), idx(0)}, ValueRange{idx(p.n), idx(p.oh)},
      ValueRange{idx(1), idx(1)}, [&](OpBuilder &, Location, ValueRange ivs) {
        Value n = ivs[0], oy = ivs[1];
        loop(p.ow, [&](Value ox) {
          if (full)
            loop(full, [&](Value blk) { block(n, oy, ox, blk, kLanes); });
          if (tail)
            block(n, oy, ox, idx(full), tail);
        });
        scf::ReduceOp::create(b, loc);
      });
  return out;
}

//===----------------------------------------------------------------------===//
// AVX-512 VNNI kernels
//===----------------------------------------------------------------------===//

void ConvEmitter::storePacked64(ArrayRef<Value> acc, ArrayRef<Value> m,
                                Value out, Value residual, Value offset,
                                bool inOrder, ArrayRef<Value> segments) {
  MLIRContext *ctx = b.getContext();
  auto v16i32 = VectorType::get({kZLanes}, b.getI32Type());
  auto v16f32 = VectorType::get({kZLanes}, b.getF32Type());
  auto v32i16 = VectorType::get({32}, b.getI16Type());
  auto v64i8 = VectorType::get({64}, b.getI8Type());
  auto intrinsic = [&](StringRef name, Type t, ValueRange args) {
    return PureIntrinsicOp::create(b, loc, t, StringAttr::get(ctx, name), args)
        .getResult();
  };
  Value r64;
  int64_t segBytes = segments.empty() ? 64 : 64 / segments.size();
  auto segType = VectorType::get({segBytes}, b.getI8Type());
  if (residual && segments.empty()) {
    r64 = vector::LoadOp::create(b, loc, v64i8, residual, ValueRange{offset});
  } else if (residual) {
    r64 = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(v64i8, b.getI8IntegerAttr(0).getValue()));
    for (auto [i, at] : llvm::enumerate(segments)) {
      if (!at)
        continue;
      Value part =
          vector::LoadOp::create(b, loc, segType, residual, ValueRange{at});
      r64 = vector::InsertStridedSliceOp::create(
          b, loc, part, r64, ArrayRef<int64_t>{int64_t(i) * segBytes},
          ArrayRef<int64_t>{1});
    }
  }
  Value e[4];
  for (int64_t q = 0; q < 4; ++q) {
    Value res;
    if (residual) {
      // The residual's bytes of this vector's channels.
      SmallVector<int64_t> mask;
      for (int64_t j = 0; j < 16; ++j)
        mask.push_back(inOrder ? 16 * q + j : packedChannel(16 * q + j));
      res = residualLanes(vector::ShuffleOp::create(b, loc, r64, r64, mask));
    }
    Value v = scaled(acc[q], m[q], res);
    // Rounded, v must fit int32 (vcvtps2dq gives INT_MIN otherwise, which
    // saturates to the lower bound: right below, wrong above). Unless that
    // is proven at compile time, clamp above in float first (the bound is
    // an integer, so before rounding is the same as after).
    if (!p.noOverflow)
      v = arith::MinimumFOp::create(
          b, loc, v,
          arith::ConstantOp::create(
              b, loc,
              DenseElementsAttr::get(
                  v16f32, b.getF32FloatAttr(float(p.hi - p.outZp)).getValue())),
          arith::FastMathFlags::nnan);
    e[q] = roundToInt(v);
  }
  // int32 -> int16 with signed saturation (vpackssdw), + zero point with
  // signed saturation (vpaddsw), the activation's bounds where they are
  // inside the storage range, and the storage range itself by the
  // saturating byte pack: every step is monotone and saturates only
  // outside [lo, hi], so this is clamp(round(v) + zp, lo, hi) exactly.
  auto splat16 = [&](int32_t x) {
    return arith::ConstantOp::create(
               b, loc,
               DenseElementsAttr::get(
                   v32i16,
                   b.getI16IntegerAttr(static_cast<int16_t>(x)).getValue()))
        .getResult();
  };
  int32_t storageMin = p.outSigned ? -128 : 0;
  int32_t storageMax = p.outSigned ? 127 : 255;
  Value half[2];
  for (int64_t h = 0; h < 2; ++h) {
    Value v = intrinsic("llvm.x86.avx512.packssdw.512", v32i16,
                        ValueRange{e[2 * h], e[2 * h + 1]});
    if (p.outZp)
      v = intrinsic("llvm.sadd.sat.v32i16", v32i16,
                    ValueRange{v, splat16(p.outZp)});
    if (p.lo > storageMin)
      v = arith::MaxSIOp::create(b, loc, v, splat16(p.lo));
    if (p.hi < storageMax)
      v = arith::MinSIOp::create(b, loc, v, splat16(p.hi));
    half[h] = v;
  }
  Value bytes = intrinsic(p.outSigned ? "llvm.x86.avx512.packsswb.512"
                                      : "llvm.x86.avx512.packuswb.512",
                          v64i8, ValueRange{half[0], half[1]});
  if (inOrder) {
    // Dword 4 L + q now holds elements 4 L .. 4 L + 3 of vector q, which
    // belong at dword 4 q + L (vpermd).
    SmallVector<int64_t> perm;
    for (int64_t k = 0; k < 16; ++k)
      perm.push_back(4 * (k % 4) + k / 4);
    Value d = vector::BitCastOp::create(b, loc, v16i32, bytes);
    d = vector::ShuffleOp::create(b, loc, d, d, perm);
    bytes = vector::BitCastOp::create(b, loc, v64i8, d);
  }
  if (segments.empty()) {
    vector::StoreOp::create(b, loc, bytes, out, ValueRange{offset});
    return;
  }
  for (auto [i, at] : llvm::enumerate(segments)) {
    if (!at)
      continue;
    Value part = vector::ExtractStridedSliceOp::create(
        b, loc, bytes, ArrayRef<int64_t>{int64_t(i) * segBytes},
        ArrayRef<int64_t>{segBytes}, ArrayRef<int64_t>{1});
    vector::StoreOp::create(b, loc, part, out, ValueRange{at});
  }
}

void ConvEmitter::storeFlat(Value acc, Value m, Value out, Value residual,
                            Value offset, Value mask) {
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  auto vi8 = VectorType::get({lanes}, b.getI8Type());
  Value res;
  if (residual) {
    Value zero = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vi8, b.getI8IntegerAttr(0).getValue()));
    Value r = mask ? Value(vector::MaskedLoadOp::create(b, loc, vi8, residual,
                                                        offset, mask, zero))
                   : Value(vector::LoadOp::create(b, loc, vi8, residual,
                                                  ValueRange{offset}));
    res = residualLanes(r);
  }
  Value bytes = arith::TruncIOp::create(b, loc, vi8, epilogue(acc, m, res));
  if (mask)
    vector::MaskedStoreOp::create(b, loc, out, offset, mask, bytes);
  else
    vector::StoreOp::create(b, loc, bytes, out, ValueRange{offset});
}

/// One register block: `pixels` consecutive output pixels (flat index m0..,
/// across rows and images) x `nv` 16-channel vectors starting at vector
/// `vec0` of group `g`. Per (ky, kx, input-channel quad): nv 64-byte weight
/// loads, one dword broadcast per pixel, nv * pixels vpdpbusd.
void ConvEmitter::emitZmmBlock(Value x, bool flipX, Value packed, Value comp,
                               Value mult, Value out, Value residual, Value g,
                               Value vec0, int64_t nv, Value m0, int64_t pixels,
                               int64_t valid, bool packedOrder) {
  auto v16i32 = VectorType::get({kZLanes}, b.getI32Type());
  auto v16f32 = VectorType::get({kZLanes}, b.getF32Type());
  auto v64i8 = VectorType::get({64}, b.getI8Type());
  auto v4i8 = VectorType::get({4}, b.getI8Type());
  auto v1i32 = VectorType::get({1}, b.getI32Type());
  MLIRContext *ctx = b.getContext();
  auto mul = [&](Value a, int64_t c) {
    return arith::MulIOp::create(b, loc, a, idx(c)).getResult();
  };
  auto add = [&](Value a, Value c) {
    return arith::AddIOp::create(b, loc, a, c).getResult();
  };
  int64_t hp = p.h + p.pt + p.pb, wp = p.w + p.pl + p.pr;
  int64_t cx = p.groups * p.cg4, q4 = p.cg4 / 4, taps = p.kh * p.kw;
  int64_t perImage = p.oh * p.ow;
  // Offset of each pixel's window origin (ky = kx = 0, first channel of g).
  Value chBase = mul(g, p.cg4);
  SmallVector<Value> base;
  for (int64_t px = 0; px < pixels; ++px) {
    Value m = add(m0, idx(px));
    Value n = arith::DivUIOp::create(b, loc, m, idx(perImage));
    Value r = arith::RemUIOp::create(b, loc, m, idx(perImage));
    Value oy = arith::DivUIOp::create(b, loc, r, idx(p.ow));
    Value ox = arith::RemUIOp::create(b, loc, r, idx(p.ow));
    Value row = add(mul(n, hp), mul(oy, p.sh));
    base.push_back(add(mul(add(mul(row, wp), mul(ox, p.sw)), cx), chBase));
  }
  // Channel offset of vector j in the [G][V * 16] tables.
  int64_t vtot = (p.og + kZLanes - 1) / kZLanes;
  auto tableOffset = [&](int64_t j) {
    return add(mul(g, vtot * kZLanes), mul(add(vec0, idx(j)), kZLanes));
  };
  SmallVector<Value> accs;
  for (int64_t px = 0; px < pixels; ++px)
    for (int64_t j = 0; j < nv; ++j)
      accs.push_back(vector::LoadOp::create(b, loc, v16i32, comp,
                                            ValueRange{tableOffset(j)}));
  // Packed weights of this block: [KH][KW][Q][nv][64] at wBase.
  Value wBase = mul(add(mul(g, vtot), vec0), taps * q4 * 64);
  Value flipWord;
  if (flipX)
    flipWord = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            v16i32,
            b.getI32IntegerAttr(static_cast<int32_t>(0x80808080u)).getValue()));
  ValueRange result = reductionLoops(
      q4, accs, [&](Value ky, Value kx, Value q, SmallVector<Value> acc) {
        Value kOff = mul(add(mul(ky, p.dh * wp), mul(kx, p.dw)), cx);
        Value xOff = add(kOff, mul(q, 4));
        Value step = add(mul(ky, p.kw), kx);
        Value wOff = add(wBase, mul(add(mul(step, q4), q), nv * 64));
        SmallVector<Value> w;
        for (int64_t j = 0; j < nv; ++j)
          w.push_back(vector::LoadOp::create(
              b, loc, v64i8, packed, ValueRange{add(wOff, idx(j * 64))}));
        for (int64_t px = 0; px < pixels; ++px) {
          Value quad = vector::LoadOp::create(b, loc, v4i8, x,
                                              ValueRange{add(base[px], xOff)});
          Value word = vector::ExtractOp::create(
              b, loc, vector::BitCastOp::create(b, loc, v1i32, quad), 0);
          Value splat = vector::BroadcastOp::create(b, loc, v16i32, word);
          if (flipX)
            splat = arith::XOrIOp::create(b, loc, splat, flipWord);
          Value xv = vector::BitCastOp::create(b, loc, v64i8, splat);
          for (int64_t j = 0; j < nv; ++j) {
            Value &a = acc[px * nv + j];
            a = PureIntrinsicOp::create(
                    b, loc, v16i32,
                    StringAttr::get(ctx, "llvm.x86.avx512.vpdpbusd.512"),
                    ValueRange{a, xv, w[j]})
                    .getResult();
          }
        }
        return acc;
      });
  if (packedOrder) {
    // A whole 64-channel block in the packed order: 64 bytes per pixel.
    SmallVector<Value> m;
    for (int64_t j = 0; j < nv; ++j)
      m.push_back(vector::LoadOp::create(b, loc, v16f32, mult,
                                         ValueRange{tableOffset(j)}));
    Value ch = add(mul(g, p.og), mul(vec0, kZLanes));
    SmallVector<Value> finals(result.begin(), result.end());
    for (int64_t px = 0; px < pixels; ++px)
      storePacked64(ArrayRef<Value>(finals).slice(px * nv, nv), m, out,
                    residual, add(mul(add(m0, idx(px)), p.o), ch));
    return;
  }
  if (p.groups == 1 && nv * kZLanes == p.o) {
    // Fewer than 64 output channels, all of them in this block: the pixels'
    // outputs are one contiguous run of vectors, stored 4 vectors (64
    // bytes) at a time by saturating packs and a dword permutation; the
    // last pixels * nv % 4 vectors one by one.
    SmallVector<Value> m;
    for (int64_t j = 0; j < nv; ++j)
      m.push_back(vector::LoadOp::create(b, loc, v16f32, mult,
                                         ValueRange{tableOffset(j)}));
    SmallVector<Value> finals(result.begin(), result.end());
    int64_t total = pixels * nv;
    Value base = mul(m0, p.o);
    for (int64_t v = 0; v + 4 <= total; v += 4) {
      SmallVector<Value> mq;
      for (int64_t i = 0; i < 4; ++i)
        mq.push_back(m[(v + i) % nv]);
      storePacked64(ArrayRef<Value>(finals).slice(v, 4), mq, out, residual,
                    add(base, idx(v * kZLanes)), /*inOrder=*/true);
    }
    for (int64_t v = total / 4 * 4; v < total; ++v)
      storeFlat(finals[v], m[v % nv], out, residual,
                add(base, idx(v * kZLanes)), Value());
    return;
  }
  int64_t perGroup = nv == 1 ? 4 : nv == 2 ? 2 : 0;
  if (perGroup && valid == kZLanes && pixels >= perGroup) {
    // Whole remainder vectors (1 or 2 per pixel) of perGroup consecutive
    // pixels: one saturating pack of 4 vectors, stored in perGroup pieces.
    SmallVector<Value> m;
    for (int64_t j = 0; j < nv; ++j)
      m.push_back(vector::LoadOp::create(b, loc, v16f32, mult,
                                         ValueRange{tableOffset(j)}));
    SmallVector<Value> finals(result.begin(), result.end());
    Value ch = add(mul(g, p.og), mul(vec0, kZLanes));
    int64_t grouped = pixels / perGroup * perGroup;
    for (int64_t px = 0; px < grouped; px += perGroup) {
      SmallVector<Value> mq, at;
      for (int64_t i = 0; i < 4; ++i)
        mq.push_back(m[i % nv]);
      for (int64_t i = 0; i < perGroup; ++i)
        at.push_back(add(mul(add(m0, idx(px + i)), p.o), ch));
      storePacked64(ArrayRef<Value>(finals).slice(px * nv, 4), mq, out,
                    residual, at[0], /*inOrder=*/true, at);
    }
    for (int64_t px = grouped; px < pixels; ++px)
      for (int64_t j = 0; j < nv; ++j)
        storeFlat(finals[px * nv + j], m[j], out, residual,
                  add(add(mul(add(m0, idx(px)), p.o), ch), idx(j * kZLanes)),
                  Value());
    return;
  }
  for (int64_t j = 0; j < nv; ++j) {
    Value m = vector::LoadOp::create(b, loc, v16f32, mult,
                                     ValueRange{tableOffset(j)});
    Value mask;
    if (j == nv - 1 && valid < kZLanes)
      mask = vector::CreateMaskOp::create(
          b, loc, VectorType::get({kZLanes}, b.getI1Type()),
          ValueRange{idx(valid)});
    Value ch = add(mul(g, p.og), mul(add(vec0, idx(j)), kZLanes));
    for (int64_t px = 0; px < pixels; ++px) {
      Value off = add(mul(add(m0, idx(px)), p.o), ch);
      storeFlat(result[px * nv + j], m, out, residual, off, mask);
    }
  }
}

/// The zmm implicit GEMM. Pixels are flat (across rows and images), so the
/// only pixel tail is at the very end. Output channels are taken 64 (4
/// vectors) at a time, the rest (1-3 vectors, the masked one last) in one
/// final block. Loop nest: parallel over (group, channel block, pixel chunk),
/// then the register blocks of the chunk: a channel block's packed weights
/// (KH * KW * Cg * 64 bytes) stay in L1/L2 while its pixels stream through.
Value ConvEmitter::emitZmm(Value input, Value residual) {
  bool pads = p.pt || p.pb || p.pl || p.pr;
  // Without padding and with whole channel quads the input is read in place
  // (the u8 <-> s8 flip, if any, happens on the broadcast register).
  bool copy = pads || p.cg != p.cg4;
  int64_t cx = p.groups * p.cg4;
  Value x = copy ? flatten(padInput(input, p.cg4, cx, p.inZp, p.shift != 0))
                 : flatten(input);
  bool flipX = !copy && p.shift != 0;
  int64_t vtot = (p.og + kZLanes - 1) / kZLanes, q4 = p.cg4 / 4;
  int64_t taps = p.kh * p.kw;
  // Packed weights: per group, per block of nv vectors (4, then the rest),
  // [KH][KW][Q][nv][16 channels][4 input channels]; a block of nv vectors
  // starting at vector v0 begins at (g * vtot + v0) * taps * Q * 64.
  int64_t full = vtot / 4, rest = vtot % 4;
  int64_t tailValid = p.og % kZLanes ? p.og % kZLanes : kZLanes;
  if (rest == 0 && tailValid < kZLanes) {
    full -= 1;
    rest = 4;
  }
  SmallVector<int8_t> packed(p.groups * vtot * taps * q4 * 64, 0);
  for (int64_t g = 0; g < p.groups; ++g)
    for (int64_t v = 0; v < vtot; ++v) {
      int64_t v0 = v < full * 4 ? v / 4 * 4 : full * 4;
      int64_t nv = v < full * 4 ? 4 : rest;
      int64_t region = (g * vtot + v0) * taps * q4 * 64;
      for (int64_t t = 0; t < taps; ++t)
        for (int64_t q = 0; q < q4; ++q)
          for (int64_t lane = 0; lane < kZLanes; ++lane)
            for (int64_t i = 0; i < 4; ++i) {
              // Whole 64-channel blocks hold their channels in the
              // packed order (storePacked64).
              int64_t oc =
                  v < full * 4
                      ? v0 * kZLanes + packedChannel((v - v0) * kZLanes + lane)
                      : v * kZLanes + lane;
              int64_t ci = q * 4 + i;
              if (oc >= p.og || ci >= p.cg)
                continue;
              int64_t o = g * p.og + oc;
              packed[region + ((t * q4 + q) * nv + (v - v0)) * 64 + lane * 4 +
                     i] = p.weights[(o * taps + t) * p.cg + ci];
            }
    }
  auto wType = RankedTensorType::get({static_cast<int64_t>(packed.size())},
                                     b.getI8Type());
  Value w = global("__qnt_weights", wType,
                   DenseElementsAttr::get(wType, ArrayRef<int8_t>(packed)));
  auto [comp2, mult2] =
      compMultTables(p.groups, vtot * kZLanes, p.og, full * 64);
  Value comp = flatten(comp2), mult = flatten(mult2);
  auto outType = MemRefType::get({p.n, p.oh, p.ow, p.o}, b.getI8Type());
  Value outBuf = memref::AllocOp::create(b, loc, outType);
  Value out = flatten(outBuf);
  Value res = residual ? flatten(residual) : Value();
  int64_t pixelsTotal = p.n * p.oh * p.ow;

  // Parallel over (pixel chunk, group, channel block): one loop for the full
  // 64-channel blocks, one for the block of the remaining vectors (one loop
  // for both, choosing per iteration, ran b1_expand of MobileNetV2 ~20 %
  // slower on one thread). The chunk is the
  // outermost dimension, so a static schedule gives each thread a range of
  // pixels with all their channels (no two threads write the same cache
  // line of a pixel row, and a thread's input pixels stay in its cache); a
  // chunk's pixel blocks run with one channel block's packed weights
  // (KH * KW * Cg * 64 bytes) hot in L1 / L2. Chunks: enough iterations
  // for a few threads (at least 16 in all).
  int64_t cbCount = full + (rest ? 1 : 0);
  int64_t pbFull = std::min(zmmPixels(4), pixelsTotal);
  int64_t pbRest = std::min(zmmPixels(rest ? rest : 4), pixelsTotal);
  int64_t tasks = p.groups * cbCount;
  int64_t chunks = std::clamp<int64_t>((16 + tasks - 1) / tasks, 1,
                                       std::max<int64_t>(pixelsTotal / 24, 1));
  // The pixel blocks of channel blocks with nv vectors in chunk `c`.
  auto chunkBlocks = [&](Value c, Value g, Value vec0, int64_t nv,
                         int64_t valid, bool packedOrder) {
    int64_t pb = nv == 4 ? pbFull : pbRest;
    int64_t nBlocks = pixelsTotal / pb, tail = pixelsTotal % pb;
    int64_t perChunk = (nBlocks + chunks - 1) / chunks;
    Value lo = arith::MinSIOp::create(
        b, loc, arith::MulIOp::create(b, loc, c, idx(perChunk)), idx(nBlocks));
    Value hi = arith::MinSIOp::create(
        b, loc, arith::AddIOp::create(b, loc, lo, idx(perChunk)), idx(nBlocks));
    scf::ForOp::create(b, loc, lo, hi, idx(1), ValueRange{},
                       [&](OpBuilder &, Location, Value blk, ValueRange) {
                         emitZmmBlock(
                             x, flipX, w, comp, mult, out, res, g, vec0, nv,
                             arith::MulIOp::create(b, loc, blk, idx(pb)), pb,
                             valid, packedOrder);
                         scf::YieldOp::create(b, loc);
                       });
    if (tail) {
      Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, c,
                                         idx(chunks - 1));
      scf::IfOp::create(b, loc, last, [&](OpBuilder &, Location) {
        emitZmmBlock(x, flipX, w, comp, mult, out, res, g, vec0, nv,
                     idx(nBlocks * pb), tail, valid, packedOrder);
        scf::YieldOp::create(b, loc);
      });
    }
  };
  auto region = [&](int64_t count, bool isFull) {
    scf::ParallelOp::create(
        b, loc, ValueRange{idx(0), idx(0), idx(0)},
        ValueRange{idx(chunks), idx(p.groups), idx(count)},
        ValueRange{idx(1), idx(1), idx(1)},
        [&](OpBuilder &, Location, ValueRange ivs) {
          Value c = ivs[0], g = ivs[1], cb = ivs[2];
          if (isFull)
            chunkBlocks(c, g, arith::MulIOp::create(b, loc, cb, idx(4)), 4,
                        kZLanes, true);
          else
            chunkBlocks(c, g, idx(full * 4), rest, tailValid, false);
          scf::ReduceOp::create(b, loc);
        });
  };
  if (full)
    region(full, true);
  if (rest)
    region(1, false);
  return outBuf;
}

/// Depthwise on zmm: 16 channels per vector, a register block of up to 14
/// output pixels along a row. Each input column of a kernel row is loaded and
/// widened once and feeds every (pixel, kx) pair that reads it; the
/// multiply-add is vpdpwssd on int32 lanes holding a u8 input (upper 16 bits
/// zero) and a sign-extended weight: exactly x * w.
Value ConvEmitter::emitDepthwiseZmm(Value input, Value residual) {
  int64_t cpad = (p.c + kZLanes - 1) / kZLanes * kZLanes;
  // Whole channel blocks: the input is read in place and taps outside it
  // read the zero point (runs that touch the border check each load);
  // otherwise it is copied into a padded buffer with channels rounded up.
  bool inPlace = cpad == p.c;
  Value xp = inPlace ? flatten(input)
                     : flatten(padInput(input, /*groupStride=*/1, cpad, p.inZp,
                                        p.shift != 0));
  int64_t hp = inPlace ? p.h : p.h + p.pt + p.pb;
  int64_t wp = inPlace ? p.w : p.w + p.pl + p.pr;
  int64_t offY = inPlace ? p.pt : 0, offX = inPlace ? p.pl : 0;
  bool flipX = inPlace && p.shift != 0;
  SmallVector<int32_t> packed(p.kh * p.kw * cpad, 0);
  for (int64_t c = 0; c < p.c; ++c)
    for (int64_t t = 0; t < p.kh * p.kw; ++t)
      packed[t * cpad + c] = p.weights[c * p.kh * p.kw + t];
  auto wType = RankedTensorType::get({p.kh * p.kw * cpad}, b.getI32Type());
  Value w = global("__qnt_weights", wType,
                   DenseElementsAttr::get(wType, ArrayRef<int32_t>(packed)));
  auto [comp2, mult2] = compMultTables(1, cpad, p.c);
  Value comp = flatten(comp2), mult = flatten(mult2);
  auto outType = MemRefType::get({p.n, p.oh, p.ow, p.o}, b.getI8Type());
  Value outBuf = memref::AllocOp::create(b, loc, outType);
  Value out = flatten(outBuf);
  Value res = residual ? flatten(residual) : Value();
  auto v16i32 = VectorType::get({kZLanes}, b.getI32Type());
  auto v16f32 = VectorType::get({kZLanes}, b.getF32Type());
  auto v16i8 = VectorType::get({kZLanes}, b.getI8Type());
  auto v32i16 = VectorType::get({32}, b.getI16Type());
  MLIRContext *ctx = b.getContext();
  auto mul = [&](Value a, int64_t c) {
    return arith::MulIOp::create(b, loc, a, idx(c)).getResult();
  };
  auto add = [&](Value a, Value c) {
    return arith::AddIOp::create(b, loc, a, c).getResult();
  };
  // Pixels per run: up to 14 accumulators (+ KH * KW weights in registers);
  // the run length that leaves the smallest tail, longer runs preferred.
  int64_t kRun = std::min<int64_t>(p.ow, 14);
  for (int64_t r = 14; r >= 8 && p.ow > 14; --r)
    if ((p.ow + r - 1) / r * r - p.ow < (p.ow + kRun - 1) / kRun * kRun - p.ow)
      kRun = r;
  int64_t cBlocks = cpad / kZLanes;
  int64_t tailValid = p.c % kZLanes ? p.c % kZLanes : kZLanes;
  // One run of `pixels` outputs starting at column ox0 of row (n, oy).
  Value zpVec = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          v16i8, b.getI8IntegerAttr(static_cast<int8_t>(p.inZp)).getValue()));
  Value signVec = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(v16i8, b.getI8IntegerAttr(-128).getValue()));
  auto cmp = [&](arith::CmpIPredicate pred, Value a, Value c) {
    return arith::CmpIOp::create(b, loc, pred, a, c).getResult();
  };
  auto inRange = [&](Value v, int64_t size) {
    return arith::AndIOp::create(b, loc,
                                 cmp(arith::CmpIPredicate::sge, v, idx(0)),
                                 cmp(arith::CmpIPredicate::slt, v, idx(size)))
        .getResult();
  };
  auto clampTo = [&](Value v, int64_t size) {
    return arith::MinSIOp::create(
               b, loc, arith::MaxSIOp::create(b, loc, v, idx(0)), idx(size - 1))
        .getResult();
  };
  auto sub = [&](Value a, int64_t c) {
    return arith::SubIOp::create(b, loc, a, idx(c)).getResult();
  };
  // `checked`: some of the run's taps may fall outside the input.
  // The (pixel, kx) pairs of a run of `pixels` outputs that read its input
  // column `col` (counted from the run's first column).
  auto columnUses = [&](int64_t pixels, int64_t col) {
    SmallVector<std::pair<int64_t, int64_t>> uses;
    for (int64_t px = 0; px < pixels; ++px)
      for (int64_t kx = 0; kx < p.kw; ++kx)
        if (px * p.sw + kx * p.dw == col)
          uses.push_back({px, kx});
    return uses;
  };
  auto run = [&](Value n, Value oy, Value c0, Value ox0, int64_t pixels,
                 Value mask, bool checked) {
    Value init = vector::LoadOp::create(b, loc, v16i32, comp, ValueRange{c0});
    SmallVector<Value> accs(pixels, init);
    int64_t cols = (pixels - 1) * p.sw + (p.kw - 1) * p.dw + 1;
    ValueRange result =
        scf::ForOp::create(
            b, loc, idx(0), idx(p.kh), idx(1), accs,
            [&](OpBuilder &, Location, Value ky, ValueRange args) {
              SmallVector<Value> acc(args.begin(), args.end());
              Value iy = sub(add(mul(oy, p.sh), mul(ky, p.dh)), offY);
              Value ix0 = sub(mul(ox0, p.sw), offX);
              Value rowValid = checked ? inRange(iy, hp) : Value();
              Value rowBase =
                  mul(add(mul(n, hp), checked ? clampTo(iy, hp) : iy), wp);
              Value rowOff = add(mul(add(rowBase, ix0), cpad), c0);
              SmallVector<Value> wk;
              for (int64_t kx = 0; kx < p.kw; ++kx)
                wk.push_back(vector::BitCastOp::create(
                    b, loc, v32i16,
                    vector::LoadOp::create(
                        b, loc, v16i32, w,
                        ValueRange{
                            add(mul(add(mul(ky, p.kw), idx(kx)), cpad), c0)})));
              for (int64_t col = 0; col < cols; ++col) {
                auto uses = columnUses(pixels, col);
                if (uses.empty())
                  continue;
                Value xv;
                if (checked) {
                  Value ix = add(ix0, idx(col));
                  Value at = add(mul(add(rowBase, clampTo(ix, wp)), cpad), c0);
                  xv = vector::LoadOp::create(b, loc, v16i8, xp, at);
                  if (flipX)
                    xv = arith::XOrIOp::create(b, loc, xv, signVec);
                  Value valid =
                      arith::AndIOp::create(b, loc, rowValid, inRange(ix, wp));
                  xv = arith::SelectOp::create(b, loc, valid, xv, zpVec);
                } else {
                  xv = vector::LoadOp::create(
                      b, loc, v16i8, xp,
                      ValueRange{add(rowOff, idx(col * cpad))});
                  if (flipX)
                    xv = arith::XOrIOp::create(b, loc, xv, signVec);
                }
                Value x32 = vector::BitCastOp::create(
                    b, loc, v32i16, arith::ExtUIOp::create(b, loc, v16i32, xv));
                for (auto [px, kx] : uses)
                  acc[px] =
                      PureIntrinsicOp::create(
                          b, loc, v16i32,
                          StringAttr::get(ctx, "llvm.x86.avx512.vpdpwssd.512"),
                          ValueRange{acc[px], x32, wk[kx]})
                          .getResult();
              }
              scf::YieldOp::create(b, loc, acc);
            })
            .getResults();
    Value m = vector::LoadOp::create(b, loc, v16f32, mult, ValueRange{c0});
    for (int64_t px = 0; px < pixels; ++px) {
      Value pix = add(mul(add(mul(n, p.oh), oy), p.ow), add(ox0, idx(px)));
      storeFlat(result[px], m, out, res, add(mul(pix, p.o), c0), mask);
    }
  };
  // 64-channel blocks (in place only): KH kernel rows packed four to a
  // dword per channel, so one vpdpbusd does four taps of 16 channels. The
  // four rows' 64-byte loads of an input column are interleaved with the
  // 128-bit-lane unpacks (punpck{l,h}bw, then punpck{l,h}wd): packed vector
  // q holds, in lane L, dword d, channel 16 L + 4 q + d. The weights, comp
  // and mult tables are stored in that order; vpackssdw + vpack{us,ss}wb
  // (exact: the epilogue clamps to the output type) undo it on the way out.
  // Blocks of 64 packed lanes (read in place, channels a multiple of 16):
  // with 64 or more channels, 64-channel blocks, the last one starting at
  // C - 64 when C is not a multiple of 64 (it overlaps the block before,
  // whose outputs it computes again, identically); with 16 or 32 channels
  // at stride 1, one block whose vectors hold 64 / C adjacent pixels.
  SmallVector<int64_t> blockStart;
  int64_t pixPerVec = std::max<int64_t>(depthwiseLanes(blockStart), 1);
  int64_t nBlocks = blockStart.size(), c64 = nBlocks * 64;
  int64_t quads = (p.kh + 3) / 4;
  // The tables of blocks starting at `starts` with `perVec` channels per
  // vector: weights [kq][kx][lane][4 rows], comp and mult per lane, lanes in
  // the unpacks' order.
  struct Tables {
    Value w, comp, mult;
    int64_t lanes;
  };
  auto tables = [&](ArrayRef<int64_t> starts, int64_t perVec) {
    int64_t lanes = int64_t(starts.size()) * 64;
    SmallVector<int8_t> wq(quads * p.kw * lanes * 4, 0);
    SmallVector<int32_t> cq(lanes);
    SmallVector<float> mq(lanes);
    for (auto [cb, start] : llvm::enumerate(starts))
      for (int64_t jj = 0; jj < 64; ++jj) {
        int64_t ch = start + packedChannel(jj) % perVec;
        int64_t j = int64_t(cb) * 64 + jj;
        cq[j] = p.comp[ch];
        mq[j] = p.mult[ch];
        for (int64_t kq = 0; kq < quads; ++kq)
          for (int64_t kx = 0; kx < p.kw; ++kx)
            for (int64_t r = 0; r < 4 && kq * 4 + r < p.kh; ++r)
              wq[((kq * p.kw + kx) * lanes + j) * 4 + r] =
                  p.weights[(ch * p.kh + kq * 4 + r) * p.kw + kx];
      }
    auto wqType =
        RankedTensorType::get({static_cast<int64_t>(wq.size())}, b.getI8Type());
    auto cType = RankedTensorType::get({lanes}, b.getI32Type());
    auto mType = RankedTensorType::get({lanes}, b.getF32Type());
    Tables t;
    t.lanes = lanes;
    t.w = flatten(global("__qnt_weights", wqType,
                         DenseElementsAttr::get(wqType, ArrayRef<int8_t>(wq))));
    t.comp =
        flatten(global("__qnt_comp", cType,
                       DenseElementsAttr::get(cType, ArrayRef<int32_t>(cq))));
    t.mult =
        flatten(global("__qnt_mult", mType,
                       DenseElementsAttr::get(mType, ArrayRef<float>(mq))));
    return t;
  };
  Tables main64;
  if (c64)
    main64 = tables(blockStart, std::min<int64_t>(p.c, 64));
  // A 16-channel tail at stride 1 along rows: copied out to a compact
  // [N][H][W][16] buffer (before the blocks run) and run 4 pixels per
  // vector like a 16-channel layer; at other strides, the 16-channel kernel.
  bool tail16 = c64 && pixPerVec == 1 && p.c % 64 == 16;
  bool tailCompact = tail16 && p.sw == 1;
  Tables tailTables;
  if (tailCompact)
    tailTables = tables({p.c - 16}, 16);
  auto v64i8 = VectorType::get({64}, b.getI8Type());
  auto splat64 = [&](int8_t v) {
    return arith::ConstantOp::create(
               b, loc,
               DenseElementsAttr::get(v64i8, b.getI8IntegerAttr(v).getValue()))
        .getResult();
  };
  // punpck{l,h}{bw,wd} on 64-byte vectors (`elt` bytes per element).
  auto unpack = [&](Value a, Value c, bool hi, int64_t elt) {
    int64_t n = 64 / elt, perLane = 16 / elt, half = perLane / 2;
    auto t = VectorType::get({n}, b.getIntegerType(8 * elt));
    a = vector::BitCastOp::create(b, loc, t, a);
    c = vector::BitCastOp::create(b, loc, t, c);
    SmallVector<int64_t> mask;
    for (int64_t l = 0; l < 4; ++l)
      for (int64_t i = 0; i < half; ++i) {
        mask.push_back(l * perLane + (hi ? half : 0) + i);
        mask.push_back(n + l * perLane + (hi ? half : 0) + i);
      }
    return vector::BitCastOp::create(
               b, loc, v64i8, vector::ShuffleOp::create(b, loc, a, c, mask))
        .getResult();
  };
  // One output row of a block: a window slides along the row. A vector
  // holds P = pixPerVec adjacent pixels, so the row is one of ceil(OW / P)
  // "vector pixels" at stride SV = P SW, whose taps start at columns
  // v SV + kx DW (counted from the left padding) and cover P columns. Step
  // t reads the starts [t SV, (t + 1) SV), each packed once (KH rows by the
  // unpacks) and used by every (vector pixel, kx) that reads it; vector
  // pixel t starts at step t and is complete after step t + D. The D + 1
  // live pixels' accumulators rotate through the loop's iteration
  // arguments (D + 1 steps per iteration, so they keep their registers).
  // Steps whose columns are all inside the input run in the loop; the
  // others (padding, the row's ends) are emitted once, with the padding
  // columns as constants. Kernel rows outside the input read a row of zero
  // points.
  bool rowPad = inPlace && (p.pt || p.pb);
  int8_t rawZp = static_cast<int8_t>(flipX ? (p.inZp ^ 0x80) : p.inZp);
  Value zpRow;
  if (c64 && rowPad) {
    // W x C zero points (rounded up to whole vectors), stored as the input's
    // bytes (before the sign flip).
    int64_t bytes = (p.w * cpad + 63) / 64 * 64;
    auto zpType = MemRefType::get({bytes}, b.getI8Type());
    zpRow = memref::AllocOp::create(b, loc, zpType);
    Value fill = splat64(rawZp);
    scf::ForOp::create(b, loc, idx(0), idx(bytes / 64), idx(1), ValueRange{},
                       [&](OpBuilder &, Location, Value i, ValueRange) {
                         vector::StoreOp::create(b, loc, fill, zpRow,
                                                 ValueRange{mul(i, 64)});
                         scf::YieldOp::create(b, loc);
                       });
    auto dyn = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
    zpRow = memref::CastOp::create(b, loc, dyn, zpRow);
  }
  // A kind of block: its input (`x`, `pixBytes` bytes per pixel), pixels
  // per vector and tables.
  struct SlideKind {
    Value x;
    int64_t pixBytes, pixPerVec;
    const Tables *t;
  };
  // One output row of the block whose tables start at lane `tb`, reading
  // input channels from byte c0In of a pixel and writing output channels
  // from c0Out.
  auto slide64 = [&](Value n, Value oy, const SlideKind &kind, Value tb,
                     Value c0In, Value c0Out) {
    int64_t pixPerVec = kind.pixPerVec, pixBytes = kind.pixBytes;
    Value xp = kind.x, w64 = kind.t->w, comp64 = kind.t->comp,
          mult64 = kind.t->mult;
    int64_t lanes = kind.t->lanes;
    int64_t vecStride = pixPerVec * p.sw;
    int64_t vecOw = (p.ow + pixPerVec - 1) / pixPerVec;
    int64_t slideD = (p.kw - 1) * p.dw / vecStride;
    int64_t totalCols = (vecOw - 1) * vecStride + (p.kw - 1) * p.dw + 1;
    int64_t colBytes = 64 / pixPerVec;
    auto dyn = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
    Value xDyn =
        rowPad ? memref::CastOp::create(b, loc, dyn, xp).getResult() : xp;
    // Per kernel row: the memref and the offset of its first column.
    SmallVector<Value> rowMem, rowOff;
    for (int64_t r = 0; r < p.kh; ++r) {
      Value y = sub(add(mul(oy, p.sh), idx(r * p.dh)), offY);
      Value off =
          add(mul(add(mul(n, hp), rowPad ? clampTo(y, hp) : y), wp * pixBytes),
              c0In);
      if (rowPad) {
        Value valid = inRange(y, hp);
        rowMem.push_back(arith::SelectOp::create(b, loc, valid, xDyn, zpRow));
        rowOff.push_back(arith::SelectOp::create(b, loc, valid, off, c0In));
      } else {
        rowMem.push_back(xp);
        rowOff.push_back(off);
      }
    }
    SmallVector<Value> wk; // [kq][kx][q]
    for (int64_t kq = 0; kq < quads; ++kq)
      for (int64_t kx = 0; kx < p.kw; ++kx)
        for (int64_t q = 0; q < 4; ++q)
          wk.push_back(vector::LoadOp::create(
              b, loc, v64i8, w64,
              ValueRange{add(mul(tb, 4),
                             idx(((kq * p.kw + kx) * lanes + q * 16) * 4))}));
    Value m[4];
    for (int64_t q = 0; q < 4; ++q)
      m[q] = vector::LoadOp::create(b, loc, v16f32, mult64,
                                    ValueRange{add(tb, idx(q * kZLanes))});
    // A column of zero points, packed: the quad's rows inside the kernel.
    auto zpColumn = [&](int64_t kq) {
      uint32_t word = 0;
      for (int64_t r = 0; r < 4 && kq * 4 + r < p.kh; ++r)
        word |= uint32_t(uint8_t(p.inZp)) << (8 * r);
      return vector::BitCastOp::create(
                 b, loc, v64i8,
                 arith::ConstantOp::create(
                     b, loc,
                     DenseElementsAttr::get(
                         v16i32,
                         b.getI32IntegerAttr(int32_t(word)).getValue())))
          .getResult();
    };
    Value zero = splat64(0), sign = splat64(-128);
    // The 64 bytes of row r at start column `ix` (input coordinates); with
    // `valid` (P flags), only the valid columns are read, the others hold
    // zero points.
    auto rowBytes = [&](int64_t r, Value ix, ArrayRef<bool> valid) {
      Value at = add(rowOff[r], mul(ix, pixBytes));
      Value x;
      if (valid.empty() || llvm::all_of(valid, [](bool v) { return v; })) {
        x = vector::LoadOp::create(b, loc, v64i8, rowMem[r], ValueRange{at});
      } else {
        x = splat64(rawZp);
        auto part = VectorType::get({colBytes}, b.getI8Type());
        for (auto [i, ok] : llvm::enumerate(valid))
          if (ok)
            x = vector::InsertStridedSliceOp::create(
                b, loc,
                vector::LoadOp::create(
                    b, loc, part, rowMem[r],
                    ValueRange{add(at, idx(int64_t(i) * colBytes))}),
                x, ArrayRef<int64_t>{int64_t(i) * colBytes},
                ArrayRef<int64_t>{1});
      }
      if (flipX)
        x = arith::XOrIOp::create(b, loc, x, sign);
      return x;
    };
    auto packColumn = [&](Value ix, int64_t kq, ArrayRef<bool> valid,
                          Value out[4]) {
      SmallVector<Value> x(4, zero);
      for (int64_t r = 0; r < 4 && kq * 4 + r < p.kh; ++r)
        x[r] = rowBytes(kq * 4 + r, ix, valid);
      Value aLo = unpack(x[0], x[1], false, 1),
            aHi = unpack(x[0], x[1], true, 1);
      Value bLo = unpack(x[2], x[3], false, 1),
            bHi = unpack(x[2], x[3], true, 1);
      out[0] = unpack(aLo, bLo, false, 2);
      out[1] = unpack(aLo, bLo, true, 2);
      out[2] = unpack(aHi, bHi, false, 2);
      out[3] = unpack(aHi, bHi, true, 2);
    };
    // Stores vector pixel v (a Value) = output pixels P v .. P v + P - 1,
    // of which `pixels` exist.
    auto storeVector = [&](ArrayRef<Value> acc, Value v, int64_t pixels) {
      Value first = add(mul(add(mul(n, p.oh), oy), p.ow), mul(v, pixPerVec));
      Value at = add(mul(first, p.o), c0Out);
      // One store when the vector's pixels are adjacent in the output.
      if (pixels == pixPerVec && (pixPerVec == 1 || p.o == colBytes)) {
        storePacked64(acc, m, out, res, at);
        return;
      }
      SmallVector<Value> segments(pixPerVec);
      for (int64_t i = 0; i < pixels; ++i)
        segments[i] = add(at, idx(i * p.o));
      storePacked64(acc, m, out, res, at, /*inOrder=*/false, segments);
    };
    // win[d]: the accumulators of vector pixel t - d (empty: no such pixel).
    using Acc = SmallVector<Value, 4>;
    auto step = [&](Value t, std::optional<int64_t> ts, SmallVector<Acc> &win) {
      Acc fresh;
      if (!ts || *ts < vecOw)
        for (int64_t q = 0; q < 4; ++q)
          fresh.push_back(vector::LoadOp::create(
              b, loc, v16i32, comp64, ValueRange{add(tb, idx(q * kZLanes))}));
      win.insert(win.begin(), fresh);
      for (int64_t s = 0; s < vecStride; ++s) {
        if (ts && *ts * vecStride + s >= totalCols)
          break;
        SmallVector<std::pair<int64_t, int64_t>> uses; // (d, kx)
        for (int64_t kx = 0; kx < p.kw; ++kx) {
          int64_t e = kx * p.dw - s;
          if (e >= 0 && e % vecStride == 0 && !win[e / vecStride].empty())
            uses.push_back({e / vecStride, kx});
        }
        if (uses.empty())
          continue;
        // Which of the P columns are inside the input (static steps).
        SmallVector<bool> valid;
        bool anyValid = true;
        if (ts) {
          anyValid = false;
          for (int64_t i = 0; i < pixPerVec; ++i) {
            int64_t col = *ts * vecStride + s + i - offX;
            valid.push_back(col >= 0 && col < p.w);
            anyValid |= valid.back();
          }
        }
        Value ix = sub(add(mul(t, vecStride), idx(s)), offX);
        for (int64_t kq = 0; kq < quads; ++kq) {
          Value px[4];
          if (!anyValid) {
            for (int64_t q = 0; q < 4; ++q)
              px[q] = zpColumn(kq);
          } else {
            packColumn(ix, kq, valid, px);
          }
          for (auto [d, kx] : uses)
            for (int64_t q = 0; q < 4; ++q)
              win[d][q] =
                  PureIntrinsicOp::create(
                      b, loc, v16i32,
                      StringAttr::get(ctx, "llvm.x86.avx512.vpdpbusd.512"),
                      ValueRange{win[d][q], px[q],
                                 wk[(kq * p.kw + kx) * 4 + q]})
                      .getResult();
        }
      }
      if (!win.back().empty()) {
        int64_t pixels = pixPerVec;
        if (ts)
          pixels = std::min(pixPerVec, p.ow - (*ts - slideD) * pixPerVec);
        storeVector(win.back(), sub(t, slideD), pixels);
      }
      win.pop_back();
    };
    // Steps [tA, tB) run in the loop: a new vector pixel, a complete one
    // (all P pixels inside the row), and all columns inside the input.
    auto steady = [&](int64_t t) {
      return t >= slideD && (t + 1) * pixPerVec <= p.ow &&
             t * vecStride >= offX &&
             (t + 1) * vecStride + pixPerVec - 1 <= offX + p.w &&
             (t + 1) * vecStride <= totalCols;
    };
    int64_t tA = 0;
    while (tA < vecOw && !steady(tA))
      ++tA;
    int64_t tB = tA;
    while (tB < vecOw && steady(tB))
      ++tB;
    int64_t period = slideD + 1, loops = (tB - tA) / period;
    SmallVector<Acc> win(slideD);
    for (int64_t t = 0; t < tA; ++t)
      step(idx(t), t, win);
    if (loops) {
      SmallVector<Value> carried;
      for (Acc &a : win)
        carried.append(a.begin(), a.end());
      ValueRange results =
          scf::ForOp::create(
              b, loc, idx(0), idx(loops), idx(1), carried,
              [&](OpBuilder &, Location, Value k, ValueRange args) {
                SmallVector<Acc> w(slideD);
                for (int64_t d = 0; d < slideD; ++d)
                  w[d].assign(args.begin() + 4 * d, args.begin() + 4 * d + 4);
                Value t0 = add(mul(k, period), idx(tA));
                for (int64_t u = 0; u < period; ++u)
                  step(add(t0, idx(u)), std::nullopt, w);
                SmallVector<Value> yielded;
                for (Acc &a : w)
                  yielded.append(a.begin(), a.end());
                scf::YieldOp::create(b, loc, yielded);
              })
              .getResults();
      for (int64_t d = 0; d < slideD; ++d)
        win[d].assign(results.begin() + 4 * d, results.begin() + 4 * d + 4);
    }
    for (int64_t t = tA + loops * period; t < vecOw + slideD; ++t)
      step(idx(t), t, win);
  };
  int64_t runs = p.ow / kRun, tail = p.ow % kRun;
  // A run is interior when all its taps are inside the input.
  auto interiorAt = [&](Value oy, Value ox0, int64_t pixels) {
    Value iyLo = sub(mul(oy, p.sh), offY);
    Value iyHi = add(iyLo, idx((p.kh - 1) * p.dh));
    Value ixLo = sub(mul(ox0, p.sw), offX);
    Value ixHi = add(ixLo, idx((pixels - 1) * p.sw + (p.kw - 1) * p.dw));
    Value rows = arith::AndIOp::create(
        b, loc, cmp(arith::CmpIPredicate::sge, iyLo, idx(0)),
        cmp(arith::CmpIPredicate::slt, iyHi, idx(hp)));
    Value cols = arith::AndIOp::create(
        b, loc, cmp(arith::CmpIPredicate::sge, ixLo, idx(0)),
        cmp(arith::CmpIPredicate::slt, ixHi, idx(wp)));
    return arith::AndIOp::create(b, loc, rows, cols).getResult();
  };
  auto row = [&](Value n, Value oy, Value cb, int64_t valid) {
    Value c0 = mul(cb, kZLanes);
    Value mask;
    if (valid < kZLanes)
      mask = vector::CreateMaskOp::create(
          b, loc, VectorType::get({kZLanes}, b.getI1Type()),
          ValueRange{idx(valid)});
    auto dispatch = [&](Value ox0, int64_t pixels) {
      if (!inPlace) {
        run(n, oy, c0, ox0, pixels, mask, false);
        return;
      }
      scf::IfOp::create(
          b, loc, interiorAt(oy, ox0, pixels),
          [&](OpBuilder &, Location) {
            run(n, oy, c0, ox0, pixels, mask, false);
            scf::YieldOp::create(b, loc);
          },
          [&](OpBuilder &, Location) {
            run(n, oy, c0, ox0, pixels, mask, true);
            scf::YieldOp::create(b, loc);
          });
    };
    if (runs)
      scf::ForOp::create(b, loc, idx(0), idx(runs), idx(1), ValueRange{},
                         [&](OpBuilder &, Location, Value r, ValueRange) {
                           dispatch(mul(r, kRun), kRun);
                           scf::YieldOp::create(b, loc);
                         });
    if (tail)
      dispatch(idx(runs * kRun), tail);
  };
  if (c64) {
    // Parallel over (image, output row, block). Rows are outer, so a static
    // schedule gives each thread whole rows, whose KH input rows stay in its
    // L1 / L2 across the row's blocks.
    SlideKind mainKind{xp, cpad, pixPerVec, &main64};
    // The compact copy of a 16-channel tail (raw bytes: the sign flip, if
    // any, happens at the loads like for the input).
    SlideKind tailKind{Value(), 16, 4, &tailTables};
    if (tailCompact) {
      int64_t rows = p.n * p.h;
      auto tailType = MemRefType::get({rows * p.w * 16}, b.getI8Type());
      tailKind.x = memref::AllocOp::create(b, loc, tailType);
      auto v16i8 = VectorType::get({16}, b.getI8Type());
      scf::ParallelOp::create(
          b, loc, ValueRange{idx(0)}, ValueRange{idx(rows)}, ValueRange{idx(1)},
          [&](OpBuilder &, Location, ValueRange ivs) {
            scf::ForOp::create(
                b, loc, idx(0), idx(p.w), idx(1), ValueRange{},
                [&](OpBuilder &, Location, Value x, ValueRange) {
                  Value pix = add(mul(ivs[0], p.w), x);
                  Value v = vector::LoadOp::create(
                      b, loc, v16i8, xp,
                      ValueRange{add(mul(pix, cpad), idx(p.c - 16))});
                  vector::StoreOp::create(b, loc, v, tailKind.x,
                                          ValueRange{mul(pix, 16)});
                  scf::YieldOp::create(b, loc);
                });
            scf::ReduceOp::create(b, loc);
          });
      if (rowPad)
        tailKind.x = memref::CastOp::create(
            b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI8Type()),
            tailKind.x);
    }
    // Output channel of a 64-channel block (the last one may overlap).
    auto mainBlock = [&](Value n, Value oy, Value block) {
      Value tb = mul(block, 64);
      Value c0 = tb;
      if (pixPerVec > 1)
        c0 = idx(0);
      else if (p.c % 64)
        c0 = arith::MinSIOp::create(b, loc, tb, idx(p.c - 64));
      slide64(n, oy, mainKind, tb, c0, c0);
    };
    // A 16-channel tail: one more block, compact (4 pixels per vector) at
    // stride 1, else by the 16-channel kernel.
    scf::ParallelOp::create(
        b, loc, ValueRange{idx(0), idx(0), idx(0)},
        ValueRange{idx(p.n), idx(p.oh), idx(nBlocks + (tail16 ? 1 : 0))},
        ValueRange{idx(1), idx(1), idx(1)},
        [&](OpBuilder &, Location, ValueRange ivs) {
          if (!tail16) {
            mainBlock(ivs[0], ivs[1], ivs[2]);
          } else {
            scf::IfOp::create(
                b, loc, cmp(arith::CmpIPredicate::slt, ivs[2], idx(nBlocks)),
                [&](OpBuilder &, Location) {
                  mainBlock(ivs[0], ivs[1], ivs[2]);
                  scf::YieldOp::create(b, loc);
                },
                [&](OpBuilder &, Location) {
                  if (tailCompact)
                    slide64(ivs[0], ivs[1], tailKind, idx(0), idx(0),
                            idx(p.c - 16));
                  else
                    row(ivs[0], ivs[1], idx(cBlocks - 1), kZLanes);
                  scf::YieldOp::create(b, loc);
                });
          }
          scf::ReduceOp::create(b, loc);
        });
    return outBuf;
  }
  // Parallel over (image, output row, channel block): the channel blocks of
  // a row share the KH input rows, which stay in L1 / L2 while they run.
  auto parallel = [&](int64_t blocksHere, int64_t firstBlock, int64_t valid) {
    scf::ParallelOp::create(b, loc, ValueRange{idx(0), idx(0), idx(0)},
                            ValueRange{idx(p.n), idx(p.oh), idx(blocksHere)},
                            ValueRange{idx(1), idx(1), idx(1)},
                            [&](OpBuilder &, Location, ValueRange ivs) {
                              row(ivs[0], ivs[1], add(ivs[2], idx(firstBlock)),
                                  valid);
                              scf::ReduceOp::create(b, loc);
                            });
  };
  if (tailValid == kZLanes) {
    parallel(cBlocks, 0, kZLanes);
  } else {
    if (cBlocks > 1)
      parallel(cBlocks - 1, 0, kZLanes);
    parallel(1, cBlocks - 1, tailValid);
  }
  return outBuf;
}

Value ConvEmitter::emit(Value input, Value residual) {
  bool zmm = p.isa == Int8Isa::AVX512VNNI;
  if (isDepthwise())
    return zmm ? emitDepthwiseZmm(input, residual)
               : emitDepthwise(input, residual);
  if (zmm)
    return emitZmm(input, residual);
  Value xp = padInput(input, p.cg4, p.groups * p.cg4, p.inZp, p.shift != 0);
  Value packed = packWeights();
  auto [compV, multV] = compMultTables(p.groups, p.blocks * kLanes, p.og);
  auto outType = MemRefType::get({p.n, p.oh, p.ow, p.o}, b.getI8Type());
  Value out = memref::AllocOp::create(b, loc, outType);

  auto loop = [&](int64_t lb, int64_t ub, int64_t step, auto body) {
    if (lb >= ub)
      return;
    scf::ForOp::create(b, loc, idx(lb), idx(ub), idx(step), ValueRange{},
                       [&](OpBuilder &, Location, Value iv, ValueRange) {
                         body(iv);
                         scf::YieldOp::create(b, loc);
                       });
  };
  int64_t full = p.og / kLanes, tail = p.og % kLanes;
  int64_t owFull = (p.ow / kPixels) * kPixels;
  // Parallel over (chunk of output rows, group, 64-channel line): a
  // thread writes whole 64-byte runs of output channels (8-channel blocks
  // split between threads wrote the same cache lines: 2 threads ran a
  // 96-channel layer 2.3x slower than 1), and inside an iteration each
  // 8-channel block runs over the chunk's rows, so its packed weights
  // (KH * KW * Cg * 8 bytes) stay in L1. Chunks: enough iterations for a
  // few threads (at least 16 in all) while the rows last.
  int64_t blocksTotal = full + (tail ? 1 : 0);
  int64_t lineBlocks = 64 / kLanes;
  int64_t lines = (blocksTotal + lineBlocks - 1) / lineBlocks;
  int64_t rows = p.n * p.oh, tasks = p.groups * lines;
  int64_t chunks = std::clamp<int64_t>((16 + tasks - 1) / tasks, 1, rows);
  int64_t perChunk = (rows + chunks - 1) / chunks;
  auto minIdx = [&](Value a, Value c) {
    return arith::MinSIOp::create(b, loc, a, c).getResult();
  };
  scf::ParallelOp::create(
      b, loc, ValueRange{idx(0), idx(0), idx(0)},
      ValueRange{idx(chunks), idx(p.groups), idx(lines)},
      ValueRange{idx(1), idx(1), idx(1)},
      [&](OpBuilder &, Location, ValueRange ivs) {
        Value g = ivs[1], line = ivs[2];
        Value rowLo = minIdx(
            arith::MulIOp::create(b, loc, ivs[0], idx(perChunk)), idx(rows));
        Value rowHi = minIdx(
            arith::AddIOp::create(b, loc, rowLo, idx(perChunk)), idx(rows));
        // One 8-channel block over the chunk's rows.
        auto blockRows = [&](Value block, int64_t valid) {
          scf::ForOp::create(
              b, loc, rowLo, rowHi, idx(1), ValueRange{},
              [&](OpBuilder &, Location, Value r, ValueRange) {
                Value n = arith::DivUIOp::create(b, loc, r, idx(p.oh));
                Value oy = arith::RemUIOp::create(b, loc, r, idx(p.oh));
                auto pixelBlock = [&](Value ox0, int64_t pixels) {
                  if (p.isa == Int8Isa::NeonI8MM)
                    emitPixelsI8MM(xp, packed, compV, multV, out, residual, n,
                                   oy, ox0, pixels, g, block, valid);
                  else
                    emitPixels(xp, packed, compV, multV, out, residual, n, oy,
                               ox0, pixels, g, block, valid);
                };
                loop(0, owFull, kPixels,
                     [&](Value ox0) { pixelBlock(ox0, kPixels); });
                // The row's last OW % 4 pixels: one narrower block
                // (single-pixel blocks would leave the loads and the
                // multiply-add latency exposed: 7-pixel rows ran at half
                // oneDNN's speed).
                if (p.ow > owFull)
                  pixelBlock(idx(owFull), p.ow - owFull);
                scf::YieldOp::create(b, loc);
              });
        };
        Value blkLo = arith::MulIOp::create(b, loc, line, idx(lineBlocks));
        if (full)
          scf::ForOp::create(
              b, loc, blkLo,
              minIdx(arith::AddIOp::create(b, loc, blkLo, idx(lineBlocks)),
                     idx(full)),
              idx(1), ValueRange{},
              [&](OpBuilder &, Location, Value block, ValueRange) {
                blockRows(block, kLanes);
                scf::YieldOp::create(b, loc);
              });
        // The partial block (channels OG % 8) is in the last line.
        if (tail)
          scf::IfOp::create(b, loc,
                            arith::CmpIOp::create(b, loc,
                                                  arith::CmpIPredicate::eq,
                                                  line, idx(lines - 1)),
                            [&](OpBuilder &, Location) {
                              blockRows(idx(full), tail);
                              scf::YieldOp::create(b, loc);
                            });
        scf::ReduceOp::create(b, loc);
      });
  // The padded copy is freed by buffer deallocation (which rejects
  // explicit deallocs in its input).
  return out;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

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
    p.isa = isa;
    auto in = op.getInput().getType().getShape();
    auto f = op.getFilter().getType().getShape();
    auto out = op.getOutput().getType().getShape();
    p.n = in[0], p.h = in[1], p.w = in[2], p.c = in[3];
    p.groups = static_cast<int64_t>(op.getGroups());
    p.cg = p.c / p.groups;
    p.cg4 = isa == Int8Isa::NeonI8MM ? (p.cg + 7) / 8 * 8 : (p.cg + 3) / 4 * 4;
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
    op.emitRemark() << "int8 kernel: " << emitter.pathName();
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
    p.isa = isa;
    p.n = 1, p.h = 1, p.w = rows, p.c = k;
    p.groups = 1, p.cg = k;
    p.cg4 = isa == Int8Isa::NeonI8MM ? (k + 7) / 8 * 8 : (k + 3) / 4 * 4;
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
    op.emitRemark() << "int8 kernel: " << emitter.pathName();
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
        rewriter, loc, MemRefType::get(outShape, rewriter.getI8Type()), out4, 0,
        outShape, strides);
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
}
