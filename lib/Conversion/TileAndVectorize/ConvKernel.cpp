//===- ConvKernel.cpp - Packed register-blocked float convolutions --------===//
//
// A float `qnt.conv2d` (the fused layer: bias, residual add, activation)
// with static shapes and constant weights becomes a kernel built on the
// buffers, the float twin of the int8 kernels of lib/Conversion/
// LowerQuantized: weights packed at compile time, register blocks of
// accumulators, the bias as their start and the residual add, the
// activation and a following qnt.unary (SiLU, hard swish: when it is the
// result's only use) applied in registers before the one store. NHWC
// throughout; padded convolutions read a zero-padded copy of the input
// (tensor.pad), the others and all depthwise ones read it in place. L = f32
// lanes of a vector register (16 with vector-bits=512, 8 with 256, 4 with 128).
//
// Convolutions with one group (implicit GEMM, `GemmConv`): a register block
// is P output pixels x nv vectors of output channels (AVX-512: 6 x 4 zmm,
// AVX2: 6 x 2 ymm, NEON: 6 x 4 q registers), pixels flat over (image, row,
// column) so that only the last block is short. Per step of the reduction
// (filter row ky, then the filter columns and input channels, which are one
// contiguous run of KW * C input values when the dilation along W is 1):
// nv weight vectors and one broadcast input value per pixel feed nv * P
// FMAs. The weights are packed per block of nv * L output channels as
// [KH][KW][C][nv * L] (zeros past the last channel), so that a block reads
// them in one sequential pass; the blocks of output channels whose count is
// not a multiple of nv vectors end in one narrower block, whose last vector
// is stored masked when the channels are not a multiple of L. Loop nest:
// scf.parallel over (channel block, pixel block) (OpenMP threads with
// --parallel=omp: each thread a run of pixel blocks of one channel block,
// whose packed weights stay in its cache), then the reduction.
//
// Depthwise convolutions (`DepthwiseConv`): a vector of L channels times a
// run of up to P pixels along an output row; per filter row, each input
// column of the run is loaded once and feeds every (pixel, kx) pair that
// reads it. The input is read in place, padded or not: each output row
// runs the filter rows that fall inside the input, and the pixels near the
// left and right borders are emitted one by one with the filter columns
// that fall inside (known at compile time), so that the interior runs have
// no test. scf.parallel over (output row of every image, channel vector),
// then the runs of the row. The weights are packed [KH][KW][C] (channels
// padded to L).
//
// Grouped convolutions with 1 < groups < C, non-constant weights and
// dynamic shapes keep the TOSA lowering (qnt-lower-float).
//
//===----------------------------------------------------------------------===//

#include "FloatKernels.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantParams.h"
#include "dialects/Qnt/IR/UnaryFunctions.h"
#include "dialects/Qnt/Transforms/UnaryArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

#include <cfloat>

using namespace mlir;

namespace {

/// A float qnt.conv2d the kernels take: its geometry (the input's H and W
/// after padding) and constant operands.
struct FloatConv {
  qnt::Conv2DOp op;
  /// The element-wise function applied to the conv's result, its only use
  /// (EfficientNet's SiLU, MobileNetV3's hard swish), fused into the
  /// epilogue; or none.
  qnt::UnaryOp unary;
  DenseElementsAttr filter, bias;
  int64_t n, h, w, c, kh, kw, f, oh, ow, sh, sw, dh, dw;
  bool depthwise;
  SmallVector<int64_t> pad;
};

std::optional<FloatConv> matchFloatConv(qnt::Conv2DOp op) {
  if (op.isQuantized())
    return std::nullopt;
  auto in = dyn_cast<RankedTensorType>(op.getInput().getType());
  auto fil = dyn_cast<RankedTensorType>(op.getFilter().getType());
  auto out = dyn_cast<RankedTensorType>(op.getOutput().getType());
  if (!in || !fil || !out || !in.hasStaticShape() || !fil.hasStaticShape() ||
      !out.hasStaticShape() || !in.getElementType().isF32() ||
      !fil.getElementType().isF32() || !out.getElementType().isF32())
    return std::nullopt;
  FloatConv conv;
  conv.op = op;
  if (!matchPattern(op.getFilter(), m_Constant(&conv.filter)))
    return std::nullopt;
  if (op.getBias() && !matchPattern(op.getBias(), m_Constant(&conv.bias)))
    return std::nullopt;
  if (op.getResidual() &&
      !cast<ShapedType>(op.getResidual().getType()).hasStaticShape())
    return std::nullopt;
  conv.pad = SmallVector<int64_t>(op.getPad());
  conv.n = in.getDimSize(0);
  conv.h = in.getDimSize(1) + conv.pad[0] + conv.pad[1];
  conv.w = in.getDimSize(2) + conv.pad[2] + conv.pad[3];
  conv.c = in.getDimSize(3);
  conv.f = fil.getDimSize(0);
  conv.kh = fil.getDimSize(1);
  conv.kw = fil.getDimSize(2);
  conv.oh = out.getDimSize(1);
  conv.ow = out.getDimSize(2);
  conv.sh = op.getStrides()[0];
  conv.sw = op.getStrides()[1];
  conv.dh = op.getDilations()[0];
  conv.dw = op.getDilations()[1];
  int64_t groups = static_cast<int64_t>(op.getGroups());
  conv.depthwise = groups > 1 && groups == conv.c && conv.f == conv.c &&
                   fil.getDimSize(3) == 1;
  if (groups != 1 && !conv.depthwise)
    return std::nullopt;
  if (conv.n * conv.oh * conv.ow == 0 || conv.f == 0 || conv.c == 0)
    return std::nullopt;
  Value result = op.getOutput();
  if (result.hasOneUse())
    if (auto unary = dyn_cast<qnt::UnaryOp>(*result.getUsers().begin()))
      if (unary.getInput() == result && !unary.getAlphas() &&
          unary.getOutput().getType() == result.getType())
        conv.unary = unary;
  return conv;
}

/// What the kernels share: index arithmetic, the packed constants, the
/// buffers and the epilogue (residual add, activation, masked store).
class KernelBuilder {
public:
  KernelBuilder(RewriterBase &rw, const FloatConv &conv, unsigned vectorBits)
      : rw(rw), conv(conv), loc(this->conv.op.getLoc()),
        lanes(vectorBits >= 512   ? 16
              : vectorBits >= 256 ? 8
                                  : 4),
        // Accumulator registers: AVX-512 and NEON have 32 vector registers,
        // AVX2 16; the rest hold weights and inputs.
        accumulators(vectorBits == 256 ? 12 : 24),
        vecType(VectorType::get({lanes}, rw.getF32Type())) {
    qnt::Conv2DOp op = this->conv.op;
    std::tie(lo, hi) = qnt::floatActivationBounds(
        op.getActivation(), op.getClampMin(), op.getClampMax());
  }

protected:
  Value cst(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value add(OpBuilder &b, Value x, int64_t v) {
    return v == 0 ? x : arith::AddIOp::create(b, loc, x, cst(b, v)).getResult();
  }
  Value add(OpBuilder &b, Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value mul(OpBuilder &b, Value x, int64_t v) {
    return v == 1 ? x : arith::MulIOp::create(b, loc, x, cst(b, v)).getResult();
  }
  /// A packed constant as a flat read-only buffer.
  Value constantBuffer(ArrayRef<float> values) {
    auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                      rw.getF32Type());
    Value t = arith::ConstantOp::create(rw, loc, type,
                                        DenseElementsAttr::get(type, values));
    return toFlatBuffer(t);
  }
  /// `tensor` as a flat buffer (bufferization.to_buffer read-only).
  Value toFlatBuffer(Value tensor) {
    auto type = cast<RankedTensorType>(tensor.getType());
    Value buf = bufferization::ToBufferOp::create(
        rw, loc, MemRefType::get(type.getShape(), type.getElementType()),
        tensor, /*read_only=*/true);
    if (type.getRank() == 1)
      return buf;
    ReassociationIndices all;
    for (int64_t d = 0; d < type.getRank(); ++d)
      all.push_back(d);
    return memref::CollapseShapeOp::create(rw, loc, buf, {all});
  }
  /// The input, zero-padded when the layer pads, as a flat buffer.
  Value inputBuffer() {
    Value input = conv.op.getInput();
    if (llvm::any_of(conv.pad, [](int64_t p) { return p != 0; })) {
      auto padded = RankedTensorType::get({conv.n, conv.h, conv.w, conv.c},
                                          rw.getF32Type());
      Value zero = arith::ConstantOp::create(rw, loc, rw.getF32FloatAttr(0));
      input = tensor::PadOp::create(
          rw, loc, padded, input,
          getAsIndexOpFoldResult(rw.getContext(),
                                 {0, conv.pad[0], conv.pad[2], 0}),
          getAsIndexOpFoldResult(rw.getContext(),
                                 {0, conv.pad[1], conv.pad[3], 0}),
          zero);
    }
    return toFlatBuffer(input);
  }
  /// The bias padded with zeros to `channels` (or none).
  Value biasBuffer(int64_t channels) {
    if (!conv.bias)
      return {};
    SmallVector<float> values(conv.bias.getValues<float>());
    values.resize(channels, 0.0f);
    return constantBuffer(values);
  }
  /// Allocates the output (flat) and sets up the epilogue's buffers; the
  /// result tensor replaces the op once the loops are built.
  void prepareOutput() {
    auto type = cast<RankedTensorType>(conv.op.getOutput().getType());
    outMemref = memref::AllocOp::create(
        rw, loc, MemRefType::get(type.getShape(), rw.getF32Type()),
        rw.getI64IntegerAttr(64));
    ReassociationIndices all = {0, 1, 2, 3};
    out = memref::CollapseShapeOp::create(rw, loc, outMemref, {all});
    if (Value r = conv.op.getResidual())
      residual = toFlatBuffer(r);
  }
  void replaceOp() {
    auto type = cast<RankedTensorType>(conv.op.getOutput().getType());
    Value result = bufferization::ToTensorOp::create(
        rw, loc, type, outMemref, rw.getUnitAttr(), rw.getUnitAttr());
    if (conv.unary) {
      rw.replaceOp(conv.unary, result);
      rw.eraseOp(conv.op);
      return;
    }
    rw.replaceOp(conv.op, result);
  }
  /// A vector of `v` in every lane.
  Value splat(OpBuilder &b, float v) {
    return arith::ConstantOp::create(b, loc, vecType,
                                     DenseElementsAttr::get(vecType, v));
  }
  /// The vector of `buf` at flat offset `at`: with `mask`, its lanes only
  /// (the others 0, nothing read past them).
  Value loadLanes(OpBuilder &b, Value buf, Value at, Value mask) {
    if (mask)
      return vector::MaskedLoadOp::create(b, loc, vecType, buf, at, mask,
                                          splat(b, 0.0f));
    return vector::LoadOp::create(b, loc, vecType, buf, at);
  }
  /// A mask of the first `valid` lanes, or none when all are.
  Value prefixMask(OpBuilder &b, int64_t valid) {
    if (valid >= lanes)
      return {};
    SmallVector<bool> bits(lanes, false);
    std::fill_n(bits.begin(), valid, true);
    auto type = VectorType::get({lanes}, b.getI1Type());
    return arith::ConstantOp::create(b, loc, type,
                                     DenseElementsAttr::get(type, bits));
  }
  /// The accumulator's start at output channel `channel`: the bias or 0.
  Value start(OpBuilder &b, Value biasBuf, Value channel) {
    if (biasBuf)
      return vector::LoadOp::create(b, loc, vecType, biasBuf, channel);
    return splat(b, 0.0f);
  }
  /// Residual add, activation and store of one accumulator at flat output
  /// offset `at`, the first `valid` lanes only.
  void finish(OpBuilder &b, Value acc, Value at, int64_t valid) {
    Value mask = prefixMask(b, valid);
    if (residual)
      acc =
          arith::AddFOp::create(b, loc, acc, loadLanes(b, residual, at, mask));
    // NaN propagates (as tosa.clamp's minimumf / maximumf): bound > acc ?
    // bound : acc is acc for a NaN, one vmaxps / vminps with the bound
    // first (arith.maximumf would add a NaN test and a blend).
    auto bound = [&](float v, arith::CmpFPredicate pred) {
      Value c = splat(b, v);
      Value keep = arith::CmpFOp::create(b, loc, pred, c, acc);
      acc = arith::SelectOp::create(b, loc, keep, c, acc);
    };
    if (hi != FLT_MAX)
      bound(hi, arith::CmpFPredicate::OLT);
    if (lo != -FLT_MAX)
      bound(lo, arith::CmpFPredicate::OGT);
    if (conv.unary) {
      qnt::ArithUnaryOps ops{b, loc, vecType};
      acc = qnt::applyUnary(ops, conv.unary.getFn(), acc,
                            conv.unary.getAlphaOrDefault(),
                            conv.unary.getBetaOrDefault());
    }
    if (mask)
      vector::MaskedStoreOp::create(b, loc, out, at, mask, acc);
    else
      vector::StoreOp::create(b, loc, acc, out, at);
  }
  /// The weight w[o][ky][kx][c] of the OHWI filter.
  float weight(ArrayRef<float> w, int64_t o, int64_t ky, int64_t kx,
               int64_t ch) const {
    int64_t cg = conv.depthwise ? 1 : conv.c;
    return w[((o * conv.kh + ky) * conv.kw + kx) * cg + ch];
  }

  RewriterBase &rw;
  FloatConv conv;
  Location loc;
  const int64_t lanes, accumulators;
  VectorType vecType;
  float lo, hi;
  Value outMemref, out, residual;
};

/// One group: the implicit GEMM of the file comment.
class GemmConv : KernelBuilder {
public:
  GemmConv(RewriterBase &rw, const FloatConv &conv, unsigned vectorBits)
      : KernelBuilder(rw, conv, vectorBits) {
    int64_t vectors = llvm::divideCeil(conv.f, lanes);
    nv = std::min<int64_t>(4, vectors);
    pixels = conv.n * conv.oh * conv.ow;
    blockPixels = std::min(accumulators / nv, pixels);
    fullBlocks = vectors / nv;
    tailVectors = vectors % nv;
    // The block holding a partial vector is the tail block (masked).
    if (conv.f % lanes != 0 && tailVectors == 0) {
      --fullBlocks;
      tailVectors = nv;
    }
    reduction = conv.kh * conv.kw * conv.c;
  }

  void build();

private:
  /// Weights packed per channel block: [block][KH][KW][C][width].
  Value packWeights();
  /// The block of `vectors` output-channel vectors at block `cb`, for the
  /// pixel block `pb`: the full or the short pixel block. The `tail` block
  /// (the last) stores its last vector masked when the channels are not a
  /// multiple of the lanes.
  void channelBlock(OpBuilder &b, Value cb, Value pb, int64_t vectors,
                    Value weightBase, bool tail);
  /// `count` pixels from `p0` times `vectors` channel vectors.
  void block(OpBuilder &b, Value p0, Value channel0, Value weightBase,
             int64_t count, int64_t vectors, int64_t width, bool tail);
  /// The reduction over (kx, c) of one filter row, the accumulators as the
  /// loop's iteration arguments.
  SmallVector<Value> reduceRow(OpBuilder &b, ArrayRef<Value> bases,
                               Value rowOffset, Value weightRow,
                               ValueRange accs, int64_t vectors, int64_t width);

  int64_t nv, pixels, blockPixels, fullBlocks, tailVectors, reduction;
  Value input, weights, bias;
};

Value GemmConv::packWeights() {
  SmallVector<float> w(conv.filter.getValues<float>());
  SmallVector<float> packed;
  int64_t width = nv * lanes;
  packed.reserve((fullBlocks * width + tailVectors * lanes) * reduction);
  auto packBlock = [&](int64_t o0, int64_t blockWidth) {
    for (int64_t ky = 0; ky < conv.kh; ++ky)
      for (int64_t kx = 0; kx < conv.kw; ++kx)
        for (int64_t ch = 0; ch < conv.c; ++ch)
          for (int64_t j = 0; j < blockWidth; ++j)
            packed.push_back(o0 + j < conv.f ? weight(w, o0 + j, ky, kx, ch)
                                             : 0.0f);
  };
  for (int64_t cb = 0; cb < fullBlocks; ++cb)
    packBlock(cb * width, width);
  if (tailVectors)
    packBlock(fullBlocks * width, tailVectors * lanes);
  return constantBuffer(packed);
}

SmallVector<Value> GemmConv::reduceRow(OpBuilder &b, ArrayRef<Value> bases,
                                       Value rowOffset, Value weightRow,
                                       ValueRange accs, int64_t vectors,
                                       int64_t width) {
  // One run of KW * C contiguous input values when the dilation along W is
  // 1; else a loop over kx around a run of C.
  bool contiguous = conv.dw == 1;
  int64_t run = contiguous ? conv.kw * conv.c : conv.c;
  auto runLoop = [&](OpBuilder &rb, Value inOffset, Value wOffset,
                     ValueRange iters) {
    auto loop = scf::ForOp::create(
        rb, loc, cst(rb, 0), cst(rb, run), cst(rb, 1), iters,
        [&](OpBuilder &kb, Location, Value j, ValueRange acc) {
          Value wAt = add(kb, wOffset, mul(kb, j, width));
          SmallVector<Value> wv;
          for (int64_t v = 0; v < vectors; ++v)
            wv.push_back(vector::LoadOp::create(kb, loc, vecType, weights,
                                                add(kb, wAt, v * lanes)));
          Value at = add(kb, inOffset, j);
          SmallVector<Value> next;
          for (auto [i, base] : llvm::enumerate(bases)) {
            Value x = memref::LoadOp::create(kb, loc, input,
                                             ValueRange{add(kb, base, at)});
            Value xs = vector::BroadcastOp::create(kb, loc, vecType, x);
            for (int64_t v = 0; v < vectors; ++v)
              next.push_back(vector::FMAOp::create(kb, loc, xs, wv[v],
                                                   acc[i * vectors + v]));
          }
          scf::YieldOp::create(kb, loc, next);
        });
    return SmallVector<Value>(loop.getResults());
  };
  if (contiguous)
    return runLoop(b, rowOffset, weightRow, accs);
  auto kxLoop = scf::ForOp::create(
      b, loc, cst(b, 0), cst(b, conv.kw), cst(b, 1), accs,
      [&](OpBuilder &xb, Location, Value kx, ValueRange acc) {
        Value inOffset = add(xb, rowOffset, mul(xb, kx, conv.dw * conv.c));
        Value wOffset = add(xb, weightRow, mul(xb, kx, conv.c * width));
        scf::YieldOp::create(xb, loc, runLoop(xb, inOffset, wOffset, acc));
      });
  return SmallVector<Value>(kxLoop.getResults());
}

void GemmConv::block(OpBuilder &b, Value p0, Value channel0, Value weightBase,
                     int64_t count, int64_t vectors, int64_t width, bool tail) {
  // Each pixel's input offset at tap (0, 0) and output offset.
  SmallVector<Value> bases, outAt;
  int64_t plane = conv.oh * conv.ow;
  for (int64_t i = 0; i < count; ++i) {
    Value p = add(b, p0, i);
    Value img = arith::DivUIOp::create(b, loc, p, cst(b, plane));
    Value r = arith::RemUIOp::create(b, loc, p, cst(b, plane));
    Value oy = arith::DivUIOp::create(b, loc, r, cst(b, conv.ow));
    Value ox = arith::RemUIOp::create(b, loc, r, cst(b, conv.ow));
    Value row = add(b, mul(b, img, conv.h), mul(b, oy, conv.sh));
    Value pix = add(b, mul(b, row, conv.w), mul(b, ox, conv.sw));
    bases.push_back(mul(b, pix, conv.c));
    outAt.push_back(add(b, mul(b, p, conv.f), channel0));
  }
  SmallVector<Value> starts, accs;
  for (int64_t v = 0; v < vectors; ++v)
    starts.push_back(start(b, bias, add(b, channel0, v * lanes)));
  for (int64_t i = 0; i < count; ++i)
    accs.append(starts);
  auto kyLoop = scf::ForOp::create(
      b, loc, cst(b, 0), cst(b, conv.kh), cst(b, 1), accs,
      [&](OpBuilder &yb, Location, Value ky, ValueRange acc) {
        Value rowOffset = mul(yb, ky, conv.dh * conv.w * conv.c);
        Value weightRow =
            add(yb, weightBase, mul(yb, ky, conv.kw * conv.c * width));
        scf::YieldOp::create(
            yb, loc,
            reduceRow(yb, bases, rowOffset, weightRow, acc, vectors, width));
      });
  int64_t lastValid = tail && conv.f % lanes ? conv.f % lanes : lanes;
  for (int64_t i = 0; i < count; ++i)
    for (int64_t v = 0; v < vectors; ++v)
      finish(b, kyLoop.getResult(i * vectors + v), add(b, outAt[i], v * lanes),
             v == vectors - 1 ? lastValid : lanes);
}

void GemmConv::channelBlock(OpBuilder &b, Value cb, Value pb, int64_t vectors,
                            Value weightBase, bool tail) {
  int64_t width = vectors * lanes;
  Value p0 = mul(b, pb, blockPixels);
  Value channel0 = mul(b, cb, nv * lanes);
  int64_t shortPixels = pixels % blockPixels;
  if (shortPixels == 0) {
    block(b, p0, channel0, weightBase, blockPixels, vectors, width, tail);
    return;
  }
  int64_t lastBlock = pixels / blockPixels;
  Value isShort = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, pb,
                                        cst(b, lastBlock));
  scf::IfOp::create(
      b, loc, isShort,
      [&](OpBuilder &tb, Location) {
        block(tb, p0, channel0, weightBase, shortPixels, vectors, width, tail);
        scf::YieldOp::create(tb, loc);
      },
      [&](OpBuilder &eb, Location) {
        block(eb, p0, channel0, weightBase, blockPixels, vectors, width, tail);
        scf::YieldOp::create(eb, loc);
      });
}

void GemmConv::build() {
  rw.setInsertionPoint(conv.op);
  input = inputBuffer();
  weights = packWeights();
  bias = biasBuffer((fullBlocks * nv + tailVectors) * lanes);
  prepareOutput();
  int64_t width = nv * lanes;
  int64_t blocks = fullBlocks + (tailVectors ? 1 : 0);
  int64_t pixelBlocks = llvm::divideCeil(pixels, blockPixels);
  auto loop =
      scf::ParallelOp::create(rw, loc, ValueRange{cst(rw, 0), cst(rw, 0)},
                              ValueRange{cst(rw, blocks), cst(rw, pixelBlocks)},
                              ValueRange{cst(rw, 1), cst(rw, 1)});
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  Value cb = loop.getInductionVars()[0], pb = loop.getInductionVars()[1];
  auto full = [&](OpBuilder &fb) {
    Value base = mul(fb, cb, reduction * width);
    channelBlock(fb, cb, pb, nv, base, /*tail=*/false);
  };
  if (tailVectors == 0) {
    full(b);
  } else if (fullBlocks == 0) {
    channelBlock(b, cb, pb, tailVectors, cst(b, 0), /*tail=*/true);
  } else {
    Value isTail = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, cb,
                                         cst(b, fullBlocks));
    scf::IfOp::create(
        b, loc, isTail,
        [&](OpBuilder &tb, Location) {
          channelBlock(tb, cb, pb, tailVectors,
                       cst(tb, fullBlocks * reduction * width), /*tail=*/true);
          scf::YieldOp::create(tb, loc);
        },
        [&](OpBuilder &eb, Location) {
          full(eb);
          scf::YieldOp::create(eb, loc);
        });
  }
  replaceOp();
}

/// Depthwise: channel vectors times runs of pixels along a row, the input
/// read in place: the filter rows of an output row are those that fall
/// inside the input (bounds computed per row), the pixels whose filter
/// columns all fall inside run in blocks, the few border pixels of each side
/// one by one with the columns that fall inside (known at compile time).
class DepthwiseConv : KernelBuilder {
public:
  DepthwiseConv(RewriterBase &rw, const FloatConv &conv, unsigned vectorBits)
      : KernelBuilder(rw, conv, vectorBits) {
    vectors = llvm::divideCeil(conv.c, lanes);
    run = std::min(conv.ow, accumulators / 2);
    inH = conv.h - conv.pad[0] - conv.pad[1];
    inW = conv.w - conv.pad[2] - conv.pad[3];
  }

  void build();

private:
  /// The filter columns [first, last) that pixel `ox` reads inside the
  /// input.
  std::pair<int64_t, int64_t> columnsInside(int64_t ox) const;
  /// Weights [KH][KW][C padded to whole vectors].
  Value packWeights();
  /// `count` pixels of an output row from column ox0, the channel vector at
  /// c0 whose first `valid` lanes are channels; pixel i reads the filter
  /// columns kx[i] (all: the interior).
  void pixelRun(OpBuilder &b, Value rowOut, Value ox0, Value c0, int64_t count,
                int64_t valid, ArrayRef<std::pair<int64_t, int64_t>> kx);
  /// One channel vector of one output row.
  void rowVector(OpBuilder &b, Value rowOut, Value c0, int64_t valid);

  int64_t vectors, run, inH, inW;
  Value input, weights, bias;
  /// Per output row: the input row of filter row 0 in the image's rows
  /// (img * H + oy * sh - pad top) and the filter rows inside the input.
  Value rowBase, kyFirst, kyLast;
};

std::pair<int64_t, int64_t> DepthwiseConv::columnsInside(int64_t ox) const {
  int64_t first = 0, last = conv.kw;
  while (first < last && ox * conv.sw - conv.pad[2] + first * conv.dw < 0)
    ++first;
  while (last > first &&
         ox * conv.sw - conv.pad[2] + (last - 1) * conv.dw >= inW)
    --last;
  return {first, last};
}

Value DepthwiseConv::packWeights() {
  SmallVector<float> w(conv.filter.getValues<float>());
  int64_t padded = vectors * lanes;
  SmallVector<float> packed(conv.kh * conv.kw * padded, 0.0f);
  for (int64_t ky = 0; ky < conv.kh; ++ky)
    for (int64_t kx = 0; kx < conv.kw; ++kx)
      for (int64_t ch = 0; ch < conv.c; ++ch)
        packed[(ky * conv.kw + kx) * padded + ch] = weight(w, ch, ky, kx, 0);
  return constantBuffer(packed);
}

void DepthwiseConv::pixelRun(OpBuilder &b, Value rowOut, Value ox0, Value c0,
                             int64_t count, int64_t valid,
                             ArrayRef<std::pair<int64_t, int64_t>> kx) {
  Value mask = prefixMask(b, valid);
  // Offset of the input column the run's first pixel reads at kx = 0 (left
  // of the input for a border pixel: only its columns inside are read).
  Value col =
      arith::SubIOp::create(b, loc, mul(b, ox0, conv.sw), cst(b, conv.pad[2]));
  Value colAt = add(b, mul(b, col, conv.c), c0);
  Value s = start(b, bias, c0);
  SmallVector<Value> accs(count, s);
  auto kyLoop = scf::ForOp::create(
      b, loc, kyFirst, kyLast, cst(b, 1), accs,
      [&](OpBuilder &yb, Location, Value ky, ValueRange acc) {
        Value row = add(yb, rowBase, mul(yb, ky, conv.dh));
        Value rowAt = add(yb, mul(yb, row, inW * conv.c), colAt);
        Value wRow = add(yb, mul(yb, ky, conv.kw * vectors * lanes), c0);
        // Input columns (in pixels from the run's first column) loaded once
        // per filter row.
        DenseMap<int64_t, Value> columns;
        auto column = [&](int64_t q) {
          auto [it, inserted] = columns.try_emplace(q, Value());
          if (inserted)
            it->second = loadLanes(yb, input, add(yb, rowAt, q * conv.c), mask);
          return it->second;
        };
        SmallVector<Value> next(acc.begin(), acc.end());
        for (int64_t x = 0; x < conv.kw; ++x) {
          Value wv;
          for (int64_t i = 0; i < count; ++i) {
            if (x < kx[i].first || x >= kx[i].second)
              continue;
            if (!wv)
              wv = vector::LoadOp::create(yb, loc, vecType, weights,
                                          add(yb, wRow, x * vectors * lanes));
            next[i] = vector::FMAOp::create(
                yb, loc, column(i * conv.sw + x * conv.dw), wv, next[i]);
          }
        }
        scf::YieldOp::create(yb, loc, next);
      });
  for (int64_t i = 0; i < count; ++i)
    finish(b, kyLoop.getResult(i),
           add(b, rowOut, add(b, mul(b, add(b, ox0, i), conv.c), c0)), valid);
}

void DepthwiseConv::rowVector(OpBuilder &b, Value rowOut, Value c0,
                              int64_t valid) {
  // Interior pixels [first, last): every filter column inside the input.
  int64_t first = 0, last = conv.ow;
  while (first < conv.ow && columnsInside(first).first > 0)
    ++first;
  while (last > first && columnsInside(last - 1).second < conv.kw)
    --last;
  for (int64_t ox = 0; ox < conv.ow; ++ox) {
    if (ox >= first && ox < last)
      continue;
    pixelRun(b, rowOut, cst(b, ox), c0, 1, valid, {columnsInside(ox)});
  }
  int64_t interior = last - first, runs = interior / run, rest = interior % run;
  SmallVector<std::pair<int64_t, int64_t>> all(run, {0, conv.kw});
  if (runs > 0)
    scf::ForOp::create(b, loc, cst(b, first), cst(b, first + runs * run),
                       cst(b, run), ValueRange{},
                       [&](OpBuilder &rb, Location, Value ox0, ValueRange) {
                         pixelRun(rb, rowOut, ox0, c0, run, valid, all);
                         scf::YieldOp::create(rb, loc);
                       });
  if (rest > 0)
    pixelRun(b, rowOut, cst(b, first + runs * run), c0, rest, valid,
             ArrayRef(all).take_front(rest));
}

void DepthwiseConv::build() {
  rw.setInsertionPoint(conv.op);
  input = toFlatBuffer(conv.op.getInput());
  weights = packWeights();
  bias = biasBuffer(vectors * lanes);
  prepareOutput();
  auto loop = scf::ParallelOp::create(
      rw, loc, ValueRange{cst(rw, 0), cst(rw, 0)},
      ValueRange{cst(rw, conv.n * conv.oh), cst(rw, vectors)},
      ValueRange{cst(rw, 1), cst(rw, 1)});
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  Value r = loop.getInductionVars()[0], cv = loop.getInductionVars()[1];
  Value img = arith::DivUIOp::create(b, loc, r, cst(b, conv.oh));
  Value oy = arith::RemUIOp::create(b, loc, r, cst(b, conv.oh));
  // The input row of filter row 0 (above the input at the top border), and
  // the filter rows inside: ky in [ceil(-y0 / dh), ceil((H - y0) / dh))
  // clamped to [0, KH].
  Value y0 =
      arith::SubIOp::create(b, loc, mul(b, oy, conv.sh), cst(b, conv.pad[0]));
  rowBase = add(b, mul(b, img, inH), y0);
  auto clampKy = [&](Value v) {
    v = arith::MaxSIOp::create(b, loc, v, cst(b, 0));
    return arith::MinSIOp::create(b, loc, v, cst(b, conv.kh)).getResult();
  };
  Value negY0 = arith::SubIOp::create(b, loc, cst(b, 0), y0);
  kyFirst = clampKy(arith::CeilDivSIOp::create(b, loc, negY0, cst(b, conv.dh)));
  kyLast = clampKy(arith::CeilDivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, cst(b, inH), y0), cst(b, conv.dh)));
  Value rowOut = mul(b, r, conv.ow * conv.c);
  Value c0 = mul(b, cv, lanes);
  int64_t partial = conv.c % lanes;
  if (partial == 0) {
    rowVector(b, rowOut, c0, lanes);
  } else {
    Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, cv,
                                         cst(b, vectors - 1));
    scf::IfOp::create(
        b, loc, isLast,
        [&](OpBuilder &tb, Location) {
          rowVector(tb, rowOut, c0, partial);
          scf::YieldOp::create(tb, loc);
        },
        [&](OpBuilder &eb, Location) {
          rowVector(eb, rowOut, c0, lanes);
          scf::YieldOp::create(eb, loc);
        });
  }
  replaceOp();
}

} // namespace

LogicalResult quantc::float_codegen::lowerFloatConv(RewriterBase &rewriter,
                                                    qnt::Conv2DOp op,
                                                    unsigned vectorBits) {
  std::optional<FloatConv> conv = matchFloatConv(op);
  if (!conv)
    return failure();
  if (conv->depthwise)
    DepthwiseConv(rewriter, *conv, vectorBits).build();
  else
    GemmConv(rewriter, *conv, vectorBits).build();
  return success();
}
