//===- ConvEmitter.h - The int8 convolution kernel emitter ------*- C++ -*-===//
//
// Internal to lib/Conversion/LowerQuantized: a quantized convolution in plain
// numbers (ConvProblem) and the emitter of its kernel (ConvEmitter), whose
// members live in
//   Conv.cpp              the shared pieces (padded input copy, tables,
//                         requantization), the dispatch and the patterns;
//                         its header comment describes the kernels
//   ConvZmm.cpp           512-bit kernels (avx512-vnni)
//   ConvDepthwiseZmm.cpp  512-bit depthwise kernels (avx512-vnni)
//   ConvTile.cpp          AMX tile kernels (amx-int8)
//   ConvVector8.cpp       8-lane kernels (avx-vnni, avx2, NEON, generic)
//   Matmul.cpp            qnt.matmul of two activations (operands packed
//                         at run time)
// What differs between instruction sets (which kernel, the dot step, the
// weight layout, the register block) is asked of the instruction set's
// kernel family (Isa/KernelFamily.h, one file per family); the input domain
// and depth group come from the table in quantc/Isa/Int8Isa.h.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_LIB_CONVERSION_LOWERQUANTIZED_CONVEMITTER_H
#define QUANTC_LIB_CONVERSION_LOWERQUANTIZED_CONVEMITTER_H

#include "Isa/KernelFamily.h"

#include "quantc/Conversion/LowerQuantized.h"

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

#include <limits>

namespace mlir::qnt::conv {

using quantc::Int8Isa;

constexpr int64_t kLanes = 8;   // output channels per accumulator vector
constexpr int64_t kPixels = 4;  // output pixels per register block
constexpr int64_t kZLanes = 16; // int32 lanes of a zmm register

/// Output pixels per register block for `nv` 16-channel vectors: nv * pixels
/// accumulators + nv weight vectors stay within the 32 zmm registers (the
/// input broadcast folds into vpdpbusd's memory operand).
inline int64_t zmmPixels(int64_t nv) { return nv == 4 ? 6 : nv == 3 ? 8 : 12; }

/// A qnt.matmul of two activations: [batch, M, K] x [batch, K, N]; the
/// rhs moved into s8 by adding rhsShift (0 or -128), its zero point there
/// rhsZp; one requantization multiplier.
struct MatmulShape {
  int64_t batch = 1, m = 1, k = 1, n = 1;
  int32_t rhsShift = 0, rhsZp = 0;
  float mult = 1.0f;
};

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
  /// avx2 (Isa/Widening16.cpp): every 16-bit pair sum of vpmaddubsw is
  /// proven to fit int16 (else the widened pairs of vpmaddwd).
  bool pairSumsFit = false;
  /// The instruction set's entry (quantc/Isa/Int8Isa.h).
  const quantc::Int8IsaInfo &info() const { return quantc::getInfo(isa); }
  /// The instruction set's kernel family (Isa/KernelFamily.h).
  const KernelFamily &family() const { return KernelFamily::of(info()); }
  /// |float(acc) * mult (+ residual term)| < 2^30 for every input in the
  /// input's storage range: the rounded value fits int32, so vcvtps2dq
  /// cannot overflow and the saturating packs alone can clamp.
  bool noOverflow = false;
  /// The dequantized-output form (an f32 result, a model output): `mult` is
  /// input_scale * weight_scale[o], the result float(acc) * mult clamped to
  /// [floatLo, floatHi] (the fused activation in float), stored as f32.
  bool floatOut = false;
  float floatLo = -std::numeric_limits<float>::infinity();
  float floatHi = std::numeric_limits<float>::infinity();
  /// Set for qnt.matmul (emitMatmul); the lhs is the "input" above (shift,
  /// inZp, domainSigned).
  std::optional<MatmulShape> matmul;
};

/// Channel (within its 64-channel block) of position j = 16 q + 4 L + d of
/// the packed order: vector q, 128-bit lane L, dword d. vpackssdw of
/// vectors (0, 1) and (2, 3), then vpack{us,ss}wb, interleave the vectors
/// per lane, so storing channel 16 L + 4 q + d there gives the 64 channels
/// in order.
inline int64_t packedChannel(int64_t j) {
  int64_t q = j / 16, lane = j % 16 / 4, d = j % 4;
  return 16 * lane + 4 * q + d;
}

/// How the x86 kernels cut a group's output channels into blocks: `full`
/// whole 64-channel blocks (4 vectors of 16, in the packed order of
/// packedChannel), then one block of the `rest` vectors (0-4, in channel
/// order; the last one holds `tailValid` channels).
struct ChannelBlocks {
  int64_t vectors, full, rest, tailValid;
};
inline ChannelBlocks channelBlocks(int64_t og) {
  int64_t vectors = (og + kZLanes - 1) / kZLanes;
  ChannelBlocks cb{vectors, vectors / 4, vectors % 4,
                   og % kZLanes ? og % kZLanes : kZLanes};
  // A 4-vector block with a tail keeps the channel order (masked stores).
  if (cb.rest == 0 && cb.tailValid < kZLanes) {
    cb.full -= 1;
    cb.rest = 4;
  }
  return cb;
}

/// Zero bytes packWeights16x4 appends for amx-int8's im2col tiles
/// (ConvTile.cpp), which read whole 16-row tiles of quads past a block's
/// last one; 0 where that kernel would not take `p` (on any instruction
/// set: the x86 variants' weights stay identical).
int64_t tileWeightSlack(const ConvProblem &p);

class DepthwiseZmmEmitter;
class YmmKernel;

/// Emits the kernel for one prepared problem. Its members are public for
/// the kernel families (Isa/), which build their kernels from them.
class ConvEmitter {
  friend class YmmKernel; // ConvYmm.cpp

public:
  ConvEmitter(ConversionPatternRewriter &rewriter, Location loc,
              const ConvProblem &p, ModuleOp module)
      : b(rewriter), loc(loc), p(p), module(module) {}

  /// `input`: memref [N, H, W, C] of i8; returns memref [N, OH, OW, O].
  Value emit(Value input, Value residual);

  /// Name of the dot-product path, for the remark.
  std::string pathName() const;

  /// qnt.matmul (Matmul.cpp): `lhs` memref [B, M, K], `rhs` [B, K, N] of
  /// i8; returns memref [B, M, N].
  Value emitMatmul(Value lhs, Value rhs);
  std::string matmulPathName() const;

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
  /// The 8-lane kernels' weight layout (the kernel family's).
  WeightLayout layout() const { return p.family().weightLayout(p); }
  bool usesDot() const { return layout() == WeightLayout::DotQuads; }
  /// avx2 where vpmaddubsw could saturate: the input widened to u16 (in the
  /// padded copy), the weights packed as s16 pairs, and vpmaddwd, which
  /// adds two exact 16 x 16-bit products into an int32 lane.
  bool widePairs() const { return layout() == WeightLayout::Pairs16; }
  /// 8-channel blocks per register block (emitPixels): two on x86's 16 ymm
  /// registers (4 pixels x 16 channels: 8 accumulators, 2 weight vectors,
  /// each input broadcast used twice), one elsewhere.
  int64_t blocksPerRegisterBlock() const {
    return p.family().blocksPerRegisterBlock();
  }
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// A 64-byte aligned memref.alloc.
  Value alloc(ArrayRef<int64_t> shape, Type elt) {
    return memref::AllocOp::create(b, loc, MemRefType::get(shape, elt),
                                   b.getI64IntegerAttr(64))
        .getResult();
  }
  /// An integer splat; int32 constants wrap as the arithmetic does.
  Value splat(VectorType t, int64_t v) {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            t,
            b.getIntegerAttr(t.getElementType(),
                             static_cast<int32_t>(static_cast<uint32_t>(v)))));
  }
  /// scf.for from lb to ub (step 1) carrying `iters`; `body` returns the
  /// values to yield.
  ValueRange forLoop(Value lb, Value ub, ValueRange iters,
                     function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    return scf::ForOp::create(
               b, loc, lb, ub, idx(1), iters,
               [&](OpBuilder &, Location, Value iv, ValueRange args) {
                 scf::YieldOp::create(b, loc, body(iv, args));
               })
        .getResults();
  }
  Value add(Value a, Value c) {
    return arith::AddIOp::create(b, loc, a, c).getResult();
  }
  Value mul(Value a, int64_t c) {
    return arith::MulIOp::create(b, loc, a, idx(c)).getResult();
  }
  /// How many chunks to cut `total` units of work into for the threads:
  /// enough that `tasks` x chunks iterations make at least 16, at most
  /// `total` (and at least 1).
  static int64_t threadChunks(int64_t tasks, int64_t total) {
    return std::clamp<int64_t>((16 + tasks - 1) / tasks, 1,
                               std::max<int64_t>(total, 1));
  }
  /// [lo, hi) of chunk `c` of `perChunk` units out of `total`.
  std::pair<Value, Value> chunkRange(Value c, int64_t perChunk, int64_t total) {
    Value lo = arith::MinSIOp::create(b, loc, mul(c, perChunk), idx(total));
    Value hi =
        arith::MinSIOp::create(b, loc, add(lo, idx(perChunk)), idx(total));
    return {lo, hi};
  }
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
  /// The weights of every x86 kernel (ConvZmm.cpp): blocks of 16 output
  /// channels x 4 input channels, 64 bytes (a zmm dot operand, two ymm
  /// ones), in channelBlocks' blocks. One flat global, which the x86
  /// variants of a dispatching object share.
  Value packWeights16x4();
  /// The 8-lane x86 kernels (avx-vnni, avx2) on packWeights16x4's weights
  /// (ConvYmm.cpp).
  Value emitYmm(Value input, Value residual);
  /// With `widen`, the copy holds the bytes zero-extended to i16 (the
  /// kernel's domain is u8 there).
  Value padInput(Value input, int64_t groupStride, int64_t channels, int32_t zp,
                 bool flip, bool widen = false);
  /// The family's Pairs16 step (KernelFamily::dotPair): a pair of u16
  /// inputs at `pair` (a vector<2xi16> load) broadcast to every int32 lane,
  /// times s16 weight pairs `w`, added to `acc`.
  Value dotPair(Value acc, Value pair, Value w) {
    return p.family().dotPair(*this, acc, pair, w);
  }
  // The 8-lane kernels (avx2, NEON, generic).
  Value emitVector8(Value input, Value residual);
  Value emitDepthwise(Value input, Value residual);
  /// memref<...xi8> (identity layout) as memref<Nxi8>.
  Value flatten(Value memref);
  /// amx-int8 (ConvTile.cpp): whether the tile kernel takes this layer
  /// (the rule is in its header), and the kernel.
  bool tilesPay() const;
  Value emitTile(Value input, Value residual);
  std::string tilePath() const;
  // AVX-512 kernels (zmm, 16 int32 lanes).
  Value emitZmm(Value input, Value residual);
  void emitZmmBlock(Value x, bool flipX, Value packed, Value comp, Value mult,
                    Value out, Value residual, Value g, Value vec0, int64_t nv,
                    Value m0, int64_t pixels, int64_t valid, bool packedOrder);
  /// emitZmmBlock's requantization and stores.
  void storeZmmBlock(ArrayRef<Value> finals, Value mult, Value out,
                     Value residual, Value g, Value vec0, int64_t nv, Value m0,
                     int64_t pixels, int64_t valid, bool packedOrder);
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
  /// A register block of `pixels` output pixels x `nb` 8-channel blocks
  /// from `block` on (nb = 2: whole blocks, so that one input broadcast
  /// feeds two dot steps).
  void emitPixels(Value xp, Value packed, Value comp, Value mult, Value out,
                  Value residual, Value n, Value oy, Value ox0, int64_t pixels,
                  Value g, Value block, int64_t valid, int64_t nb = 1);
  /// The family's dot step (KernelFamily::dot4).
  Value dot4(Value acc, Value x, Value w) {
    return p.family().dot4(*this, acc, x, w);
  }
  /// r - zr as int32 lanes, from the residual's bytes `r`.
  Value residualLanes(Value r);
  /// float(acc) * mult (+ float(res) * resMult; res from residualLanes).
  Value scaled(Value acc, Value mult, Value res);
  /// Round half to even and convert to int32 (one instruction where the
  /// family has one: KernelFamily::roundToInt).
  Value roundToInt(Value v);
  Value epilogue(Value acc, Value mult, Value res);
  /// The dequantized-output form's epilogue: float(acc) * mult clamped to
  /// [p.floatLo, p.floatHi], an f32 vector.
  Value floatEpilogue(Value acc, Value mult);
  /// The element type of the layer's result buffer: i8, or f32 (floatOut).
  Type outElementType();

  ConversionPatternRewriter &b;
  Location loc;
  const ConvProblem &p;
  ModuleOp module;
};

/// The qnt.matmul lowering (Matmul.cpp).
void populateMatmulLoweringPatterns(TypeConverter &typeConverter,
                                    RewritePatternSet &patterns,
                                    quantc::Int8Isa isa);

} // namespace mlir::qnt::conv

#endif // QUANTC_LIB_CONVERSION_LOWERQUANTIZED_CONVEMITTER_H
