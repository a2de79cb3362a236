//===- ConvDepthwiseZmm.cpp - avx512-vnni depthwise kernels ---------------===//
//
// Blocks of 64 packed lanes (four kernel rows per dword, vpdpbusd) with a
// window sliding along the output row, and 16-channel blocks by vpdpwssd.
// See Conv.cpp's header. DepthwiseZmmEmitter holds what the pieces share;
// each piece is a member function:
//
//   prepareInput / zeroPointRow / copyTail16   buffers and tables
//   run16 / row16 / parallel16                 the 16-channel kernel
//   tables64 / unpack / slide64 (SlideRow)     the 64-lane kernel
//   emitBlocks64 / emitBlocks16                the parallel loops
//
//===----------------------------------------------------------------------===//

#include "ConvEmitter.h"

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::conv;

namespace mlir::qnt::conv {

/// The avx512-vnni depthwise kernel of one convolution.
class DepthwiseZmmEmitter {
public:
  DepthwiseZmmEmitter(ConvEmitter &e, Value input, Value residual)
      : e(e), b(e.b), loc(e.loc), p(e.p), ctx(b.getContext()) {
    prepareInput(input, residual);
  }

  /// The output buffer [N, OH, OW, C].
  Value emit() {
    if (c64)
      emitBlocks64();
    else
      emitBlocks16();
    return outBuf;
  }

private:
  /// The tables of blocks of 64 packed lanes: weights [kq][kx][lane][4
  /// rows], comp and mult per lane, lanes in the unpacks' order.
  struct Tables {
    Value w, comp, mult;
    int64_t lanes = 0;
  };
  /// A kind of 64-lane block: its input (`x`, `pixBytes` bytes per pixel),
  /// pixels per vector and tables.
  struct SlideKind {
    Value x;
    int64_t pixBytes, pixPerVec;
    const Tables *t;
  };
  /// The accumulators of one vector pixel (4 vectors; empty: no pixel).
  using Acc = SmallVector<Value, 4>;
  class SlideRow;

  //===--------------------------------------------------------------------===//
  // Index arithmetic
  //===--------------------------------------------------------------------===//

  Value idx(int64_t v) { return e.idx(v); }
  Value add(Value a, Value c) { return e.add(a, c); }
  Value mul(Value a, int64_t c) { return e.mul(a, c); }
  Value sub(Value a, int64_t c) {
    return arith::SubIOp::create(b, loc, a, idx(c)).getResult();
  }
  Value cmp(arith::CmpIPredicate pred, Value a, Value c) {
    return arith::CmpIOp::create(b, loc, pred, a, c).getResult();
  }
  /// 0 <= v < size.
  Value inRange(Value v, int64_t size) {
    return arith::AndIOp::create(b, loc,
                                 cmp(arith::CmpIPredicate::sge, v, idx(0)),
                                 cmp(arith::CmpIPredicate::slt, v, idx(size)))
        .getResult();
  }
  Value clampTo(Value v, int64_t size) {
    return arith::MinSIOp::create(
               b, loc, arith::MaxSIOp::create(b, loc, v, idx(0)), idx(size - 1))
        .getResult();
  }
  Value splat64(int8_t v) {
    return arith::ConstantOp::create(
               b, loc,
               DenseElementsAttr::get(v64i8, b.getI8IntegerAttr(v).getValue()))
        .getResult();
  }

  //===--------------------------------------------------------------------===//
  // Buffers and tables
  //===--------------------------------------------------------------------===//

  /// The input (in place for whole 16-channel blocks, else a padded copy),
  /// the 16-channel tables, the output, the layout of the 64-lane blocks
  /// and their tables.
  void prepareInput(Value input, Value residual);
  /// A row of zero points (W x C, rounded up to whole vectors) for kernel
  /// rows outside the input, stored as the input's bytes.
  Value zeroPointRow();
  /// The last 16 channels copied out to a compact [N][H][W][16] buffer.
  Value copyTail16();

  //===--------------------------------------------------------------------===//
  // The 16-channel kernel (vpdpwssd)
  //===--------------------------------------------------------------------===//

  /// The (pixel, kx) pairs of a run of `pixels` outputs that read its input
  /// column `col` (counted from the run's first column).
  SmallVector<std::pair<int64_t, int64_t>> columnUses(int64_t pixels,
                                                      int64_t col) const;
  /// One run of `pixels` outputs starting at column ox0 of row (n, oy),
  /// channels c0..c0+15; `checked`: some of its taps may fall outside the
  /// input.
  void run16(Value n, Value oy, Value c0, Value ox0, int64_t pixels, Value mask,
             bool checked);
  /// A run is interior when all its taps are inside the input.
  Value interiorAt(Value oy, Value ox0, int64_t pixels);
  /// One output row of 16-channel block `cb` (`valid` channels).
  void row16(Value n, Value oy, Value cb, int64_t valid);
  /// Parallel over (image, output row, channel block): the channel blocks of
  /// a row share the KH input rows, which stay in L1 / L2 while they run.
  void parallel16(int64_t blocksHere, int64_t firstBlock, int64_t valid);
  void emitBlocks16();

  //===--------------------------------------------------------------------===//
  // The 64-lane kernel (vpdpbusd, four kernel rows per dword)
  //===--------------------------------------------------------------------===//

  Tables tables64(ArrayRef<int64_t> starts, int64_t perVec);
  /// punpck{l,h}{bw,wd} on 64-byte vectors (`elt` bytes per element).
  Value unpack(Value a, Value c, bool hi, int64_t elt);
  /// One output row of the block whose tables start at lane `tb`, reading
  /// input channels from byte c0In of a pixel and writing output channels
  /// from c0Out (SlideRow).
  void slide64(Value n, Value oy, const SlideKind &kind, Value tb, Value c0In,
               Value c0Out);
  /// Output channels of 64-channel block `block` (the last may overlap).
  void mainBlock64(Value n, Value oy, Value block);
  void emitBlocks64();

  ConvEmitter &e;
  ConversionPatternRewriter &b;
  Location loc;
  const ConvProblem &p;
  MLIRContext *ctx;

  VectorType v16i32, v16f32, v16i8, v32i16, v64i8;
  // Input: whole 16-channel blocks are read in place and taps outside it
  // read the zero point; otherwise a padded copy with channels rounded up.
  int64_t cpad;
  bool inPlace, flipX;
  Value xp;
  int64_t hp, wp, offY, offX;
  // The 16-channel kernel's tables and the output.
  Value w, comp, mult, outBuf, out, res;
  Value zpVec, signVec;
  int64_t kRun, cBlocks, tailValid;
  // The 64-lane blocks.
  SmallVector<int64_t> blockStart;
  int64_t pixPerVec, nBlocks, c64, quads;
  Tables main64, tailTables;
  bool tail16, tailCompact, rowPad;
  int8_t rawZp;
  Value zpRow;
};

} // namespace mlir::qnt::conv

void DepthwiseZmmEmitter::prepareInput(Value input, Value residual) {
  v16i32 = VectorType::get({kZLanes}, b.getI32Type());
  v16f32 = VectorType::get({kZLanes}, b.getF32Type());
  v16i8 = VectorType::get({kZLanes}, b.getI8Type());
  v32i16 = VectorType::get({32}, b.getI16Type());
  v64i8 = VectorType::get({64}, b.getI8Type());
  cpad = (p.c + kZLanes - 1) / kZLanes * kZLanes;
  inPlace = cpad == p.c;
  xp = inPlace ? e.flatten(input)
               : e.flatten(e.padInput(input, /*groupStride=*/1, cpad, p.inZp,
                                      p.shift != 0));
  hp = inPlace ? p.h : p.h + p.pt + p.pb;
  wp = inPlace ? p.w : p.w + p.pl + p.pr;
  offY = inPlace ? p.pt : 0, offX = inPlace ? p.pl : 0;
  flipX = inPlace && p.shift != 0;
  SmallVector<int32_t> packed(p.kh * p.kw * cpad, 0);
  for (int64_t c = 0; c < p.c; ++c)
    for (int64_t t = 0; t < p.kh * p.kw; ++t)
      packed[t * cpad + c] = p.weights[c * p.kh * p.kw + t];
  auto wType = RankedTensorType::get({p.kh * p.kw * cpad}, b.getI32Type());
  w = e.global("__qnt_weights", wType,
               DenseElementsAttr::get(wType, ArrayRef<int32_t>(packed)));
  auto [comp2, mult2] = e.compMultTables(1, cpad, p.c);
  comp = e.flatten(comp2), mult = e.flatten(mult2);
  auto outType = MemRefType::get({p.n, p.oh, p.ow, p.o}, b.getI8Type());
  outBuf = memref::AllocOp::create(b, loc, outType);
  out = e.flatten(outBuf);
  res = residual ? e.flatten(residual) : Value();
  // Pixels per run: up to 14 accumulators (+ KH * KW weights in registers);
  // the run length that leaves the smallest tail, longer runs preferred.
  kRun = std::min<int64_t>(p.ow, 14);
  for (int64_t r = 14; r >= 8 && p.ow > 14; --r)
    if ((p.ow + r - 1) / r * r - p.ow < (p.ow + kRun - 1) / kRun * kRun - p.ow)
      kRun = r;
  cBlocks = cpad / kZLanes;
  tailValid = p.c % kZLanes ? p.c % kZLanes : kZLanes;
  zpVec = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          v16i8, b.getI8IntegerAttr(static_cast<int8_t>(p.inZp)).getValue()));
  signVec = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(v16i8, b.getI8IntegerAttr(-128).getValue()));

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
  pixPerVec = std::max<int64_t>(e.depthwiseLanes(blockStart), 1);
  nBlocks = blockStart.size(), c64 = nBlocks * 64;
  quads = (p.kh + 3) / 4;
  if (c64)
    main64 = tables64(blockStart, std::min<int64_t>(p.c, 64));
  // A 16-channel tail at stride 1 along rows: copied out to a compact
  // [N][H][W][16] buffer (before the blocks run) and run 4 pixels per
  // vector like a 16-channel layer; at other strides, the 16-channel kernel.
  tail16 = c64 && pixPerVec == 1 && p.c % 64 == 16;
  tailCompact = tail16 && p.sw == 1;
  if (tailCompact)
    tailTables = tables64({p.c - 16}, 16);
  rowPad = inPlace && (p.pt || p.pb);
  rawZp = static_cast<int8_t>(flipX ? (p.inZp ^ 0x80) : p.inZp);
  if (c64 && rowPad)
    zpRow = zeroPointRow();
}

Value DepthwiseZmmEmitter::zeroPointRow() {
  int64_t bytes = (p.w * cpad + 63) / 64 * 64;
  auto zpType = MemRefType::get({bytes}, b.getI8Type());
  Value row = memref::AllocOp::create(b, loc, zpType);
  Value fill = splat64(rawZp);
  scf::ForOp::create(b, loc, idx(0), idx(bytes / 64), idx(1), ValueRange{},
                     [&](OpBuilder &, Location, Value i, ValueRange) {
                       vector::StoreOp::create(b, loc, fill, row,
                                               ValueRange{mul(i, 64)});
                       scf::YieldOp::create(b, loc);
                     });
  auto dyn = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  return memref::CastOp::create(b, loc, dyn, row);
}

Value DepthwiseZmmEmitter::copyTail16() {
  // Raw bytes: the sign flip, if any, happens at the loads like for the
  // input.
  int64_t rows = p.n * p.h;
  auto tailType = MemRefType::get({rows * p.w * 16}, b.getI8Type());
  Value x = memref::AllocOp::create(b, loc, tailType);
  scf::ParallelOp::create(
      b, loc, ValueRange{idx(0)}, ValueRange{idx(rows)}, ValueRange{idx(1)},
      [&](OpBuilder &, Location, ValueRange ivs) {
        scf::ForOp::create(
            b, loc, idx(0), idx(p.w), idx(1), ValueRange{},
            [&](OpBuilder &, Location, Value col, ValueRange) {
              Value pix = add(mul(ivs[0], p.w), col);
              Value v = vector::LoadOp::create(
                  b, loc, v16i8, xp,
                  ValueRange{add(mul(pix, cpad), idx(p.c - 16))});
              vector::StoreOp::create(b, loc, v, x, ValueRange{mul(pix, 16)});
              scf::YieldOp::create(b, loc);
            });
        scf::ReduceOp::create(b, loc);
      });
  if (rowPad)
    x = memref::CastOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI8Type()), x);
  return x;
}

//===----------------------------------------------------------------------===//
// The 16-channel kernel
//===----------------------------------------------------------------------===//

SmallVector<std::pair<int64_t, int64_t>>
DepthwiseZmmEmitter::columnUses(int64_t pixels, int64_t col) const {
  SmallVector<std::pair<int64_t, int64_t>> uses;
  for (int64_t px = 0; px < pixels; ++px)
    for (int64_t kx = 0; kx < p.kw; ++kx)
      if (px * p.sw + kx * p.dw == col)
        uses.push_back({px, kx});
  return uses;
}

void DepthwiseZmmEmitter::run16(Value n, Value oy, Value c0, Value ox0,
                                int64_t pixels, Value mask, bool checked) {
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
    e.storeFlat(result[px], m, out, res, add(mul(pix, p.o), c0), mask);
  }
}

Value DepthwiseZmmEmitter::interiorAt(Value oy, Value ox0, int64_t pixels) {
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
}

void DepthwiseZmmEmitter::row16(Value n, Value oy, Value cb, int64_t valid) {
  int64_t runs = p.ow / kRun, tail = p.ow % kRun;
  Value c0 = mul(cb, kZLanes);
  Value mask;
  if (valid < kZLanes)
    mask = vector::CreateMaskOp::create(
        b, loc, VectorType::get({kZLanes}, b.getI1Type()),
        ValueRange{idx(valid)});
  // A run inside the input reads it unchecked; the padded copy always is.
  auto dispatch = [&](Value ox0, int64_t pixels) {
    if (!inPlace) {
      run16(n, oy, c0, ox0, pixels, mask, false);
      return;
    }
    scf::IfOp::create(
        b, loc, interiorAt(oy, ox0, pixels),
        [&](OpBuilder &, Location) {
          run16(n, oy, c0, ox0, pixels, mask, false);
          scf::YieldOp::create(b, loc);
        },
        [&](OpBuilder &, Location) {
          run16(n, oy, c0, ox0, pixels, mask, true);
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
}

void DepthwiseZmmEmitter::parallel16(int64_t blocksHere, int64_t firstBlock,
                                     int64_t valid) {
  scf::ParallelOp::create(b, loc, ValueRange{idx(0), idx(0), idx(0)},
                          ValueRange{idx(p.n), idx(p.oh), idx(blocksHere)},
                          ValueRange{idx(1), idx(1), idx(1)},
                          [&](OpBuilder &, Location, ValueRange ivs) {
                            row16(ivs[0], ivs[1], add(ivs[2], idx(firstBlock)),
                                  valid);
                            scf::ReduceOp::create(b, loc);
                          });
}

void DepthwiseZmmEmitter::emitBlocks16() {
  if (tailValid == kZLanes) {
    parallel16(cBlocks, 0, kZLanes);
    return;
  }
  if (cBlocks > 1)
    parallel16(cBlocks - 1, 0, kZLanes);
  parallel16(1, cBlocks - 1, tailValid);
}

//===----------------------------------------------------------------------===//
// The 64-lane kernel
//===----------------------------------------------------------------------===//

DepthwiseZmmEmitter::Tables
DepthwiseZmmEmitter::tables64(ArrayRef<int64_t> starts, int64_t perVec) {
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
  t.w =
      e.flatten(e.global("__qnt_weights", wqType,
                         DenseElementsAttr::get(wqType, ArrayRef<int8_t>(wq))));
  t.comp =
      e.flatten(e.global("__qnt_comp", cType,
                         DenseElementsAttr::get(cType, ArrayRef<int32_t>(cq))));
  t.mult = e.flatten(e.global(
      "__qnt_mult", mType, DenseElementsAttr::get(mType, ArrayRef<float>(mq))));
  return t;
}

Value DepthwiseZmmEmitter::unpack(Value a, Value c, bool hi, int64_t elt) {
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
}

/// One output row of a 64-lane block: a window slides along the row. A
/// vector holds P = pixPerVec adjacent pixels, so the row is one of
/// ceil(OW / P) "vector pixels" at stride SV = P SW, whose taps start at
/// columns v SV + kx DW (counted from the left padding) and cover P columns.
/// Step t reads the starts [t SV, (t + 1) SV), each packed once (KH rows by
/// the unpacks) and used by every (vector pixel, kx) that reads it; vector
/// pixel t starts at step t and is complete after step t + D. The D + 1
/// live pixels' accumulators rotate through the loop's iteration arguments
/// (D + 1 steps per iteration, so they keep their registers). Steps whose
/// columns are all inside the input run in the loop; the others (padding,
/// the row's ends) are emitted once, with the padding columns as constants.
/// Kernel rows outside the input read a row of zero points.
class DepthwiseZmmEmitter::SlideRow {
public:
  SlideRow(DepthwiseZmmEmitter &d, Value n, Value oy, const SlideKind &kind,
           Value tb, Value c0In, Value c0Out);
  void emit();

private:
  /// A column of zero points, packed: the quad's rows inside the kernel.
  Value zpColumn(int64_t kq);
  /// The 64 bytes of row r at start column `ix` (input coordinates); with
  /// `valid` (P flags), only the valid columns are read, the others hold
  /// zero points.
  Value rowBytes(int64_t r, Value ix, ArrayRef<bool> valid);
  /// Kernel rows 4 kq .. 4 kq + 3 of the column at `ix`, unpacked.
  void packColumn(Value ix, int64_t kq, ArrayRef<bool> valid, Value out[4]);
  /// Stores vector pixel v (a Value) = output pixels P v .. P v + P - 1,
  /// of which `pixels` exist.
  void storeVector(ArrayRef<Value> acc, Value v, int64_t pixels);
  /// Step t (`ts`: its number, when static). win[d]: the accumulators of
  /// vector pixel t - d (empty: no such pixel).
  void step(Value t, std::optional<int64_t> ts, SmallVector<Acc> &win);
  /// Steps that can run in the loop: a new vector pixel, a complete one
  /// (all P pixels inside the row), and all columns inside the input.
  bool steady(int64_t t) const;

  DepthwiseZmmEmitter &d;
  ConversionPatternRewriter &b;
  Location loc;
  const ConvProblem &p;
  Value n, oy, tb, c0Out;
  int64_t pixPerVec, pixBytes, lanes, vecStride, vecOw, slideD, totalCols,
      colBytes;
  Value xp, w64, comp64, mult64;
  SmallVector<Value> rowMem, rowOff;
  SmallVector<Value> wk; // [kq][kx][q]
  Value m[4];
  Value zero, sign;
};

DepthwiseZmmEmitter::SlideRow::SlideRow(DepthwiseZmmEmitter &d, Value n,
                                        Value oy, const SlideKind &kind,
                                        Value tb, Value c0In, Value c0Out)
    : d(d), b(d.b), loc(d.loc), p(d.p), n(n), oy(oy), tb(tb), c0Out(c0Out) {
  pixPerVec = kind.pixPerVec, pixBytes = kind.pixBytes;
  xp = kind.x, w64 = kind.t->w, comp64 = kind.t->comp, mult64 = kind.t->mult;
  lanes = kind.t->lanes;
  vecStride = pixPerVec * p.sw;
  vecOw = (p.ow + pixPerVec - 1) / pixPerVec;
  slideD = (p.kw - 1) * p.dw / vecStride;
  totalCols = (vecOw - 1) * vecStride + (p.kw - 1) * p.dw + 1;
  colBytes = 64 / pixPerVec;
  auto dyn = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  Value xDyn =
      d.rowPad ? memref::CastOp::create(b, loc, dyn, xp).getResult() : xp;
  // Per kernel row: the memref and the offset of its first column.
  for (int64_t r = 0; r < p.kh; ++r) {
    Value y = d.sub(d.add(d.mul(oy, p.sh), d.idx(r * p.dh)), d.offY);
    Value off =
        d.add(d.mul(d.add(d.mul(n, d.hp), d.rowPad ? d.clampTo(y, d.hp) : y),
                    d.wp * pixBytes),
              c0In);
    if (d.rowPad) {
      Value valid = d.inRange(y, d.hp);
      rowMem.push_back(arith::SelectOp::create(b, loc, valid, xDyn, d.zpRow));
      rowOff.push_back(arith::SelectOp::create(b, loc, valid, off, c0In));
    } else {
      rowMem.push_back(xp);
      rowOff.push_back(off);
    }
  }
  for (int64_t kq = 0; kq < d.quads; ++kq)
    for (int64_t kx = 0; kx < p.kw; ++kx)
      for (int64_t q = 0; q < 4; ++q)
        wk.push_back(vector::LoadOp::create(
            b, loc, d.v64i8, w64,
            ValueRange{d.add(d.mul(tb, 4),
                             d.idx(((kq * p.kw + kx) * lanes + q * 16) * 4))}));
  for (int64_t q = 0; q < 4; ++q)
    m[q] = vector::LoadOp::create(b, loc, d.v16f32, mult64,
                                  ValueRange{d.add(tb, d.idx(q * kZLanes))});
  zero = d.splat64(0), sign = d.splat64(-128);
}

Value DepthwiseZmmEmitter::SlideRow::zpColumn(int64_t kq) {
  uint32_t word = 0;
  for (int64_t r = 0; r < 4 && kq * 4 + r < p.kh; ++r)
    word |= uint32_t(uint8_t(p.inZp)) << (8 * r);
  return vector::BitCastOp::create(
             b, loc, d.v64i8,
             arith::ConstantOp::create(
                 b, loc,
                 DenseElementsAttr::get(
                     d.v16i32, b.getI32IntegerAttr(int32_t(word)).getValue())))
      .getResult();
}

Value DepthwiseZmmEmitter::SlideRow::rowBytes(int64_t r, Value ix,
                                              ArrayRef<bool> valid) {
  Value at = d.add(rowOff[r], d.mul(ix, pixBytes));
  Value x;
  if (valid.empty() || llvm::all_of(valid, [](bool v) { return v; })) {
    x = vector::LoadOp::create(b, loc, d.v64i8, rowMem[r], ValueRange{at});
  } else {
    x = d.splat64(d.rawZp);
    auto part = VectorType::get({colBytes}, b.getI8Type());
    for (auto [i, ok] : llvm::enumerate(valid))
      if (ok)
        x = vector::InsertStridedSliceOp::create(
            b, loc,
            vector::LoadOp::create(
                b, loc, part, rowMem[r],
                ValueRange{d.add(at, d.idx(int64_t(i) * colBytes))}),
            x, ArrayRef<int64_t>{int64_t(i) * colBytes}, ArrayRef<int64_t>{1});
  }
  if (d.flipX)
    x = arith::XOrIOp::create(b, loc, x, sign);
  return x;
}

void DepthwiseZmmEmitter::SlideRow::packColumn(Value ix, int64_t kq,
                                               ArrayRef<bool> valid,
                                               Value out[4]) {
  SmallVector<Value> x(4, zero);
  for (int64_t r = 0; r < 4 && kq * 4 + r < p.kh; ++r)
    x[r] = rowBytes(kq * 4 + r, ix, valid);
  Value aLo = d.unpack(x[0], x[1], false, 1),
        aHi = d.unpack(x[0], x[1], true, 1);
  Value bLo = d.unpack(x[2], x[3], false, 1),
        bHi = d.unpack(x[2], x[3], true, 1);
  out[0] = d.unpack(aLo, bLo, false, 2);
  out[1] = d.unpack(aLo, bLo, true, 2);
  out[2] = d.unpack(aHi, bHi, false, 2);
  out[3] = d.unpack(aHi, bHi, true, 2);
}

void DepthwiseZmmEmitter::SlideRow::storeVector(ArrayRef<Value> acc, Value v,
                                                int64_t pixels) {
  Value first =
      d.add(d.mul(d.add(d.mul(n, p.oh), oy), p.ow), d.mul(v, pixPerVec));
  Value at = d.add(d.mul(first, p.o), c0Out);
  // One store when the vector's pixels are adjacent in the output.
  if (pixels == pixPerVec && (pixPerVec == 1 || p.o == colBytes)) {
    d.e.storePacked64(acc, m, d.out, d.res, at);
    return;
  }
  SmallVector<Value> segments(pixPerVec);
  for (int64_t i = 0; i < pixels; ++i)
    segments[i] = d.add(at, d.idx(i * p.o));
  d.e.storePacked64(acc, m, d.out, d.res, at, /*inOrder=*/false, segments);
}

void DepthwiseZmmEmitter::SlideRow::step(Value t, std::optional<int64_t> ts,
                                         SmallVector<Acc> &win) {
  Acc fresh;
  if (!ts || *ts < vecOw)
    for (int64_t q = 0; q < 4; ++q)
      fresh.push_back(vector::LoadOp::create(
          b, loc, d.v16i32, comp64, ValueRange{d.add(tb, d.idx(q * kZLanes))}));
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
        int64_t col = *ts * vecStride + s + i - d.offX;
        valid.push_back(col >= 0 && col < p.w);
        anyValid |= valid.back();
      }
    }
    Value ix = d.sub(d.add(d.mul(t, vecStride), d.idx(s)), d.offX);
    for (int64_t kq = 0; kq < d.quads; ++kq) {
      Value px[4];
      if (!anyValid) {
        for (int64_t q = 0; q < 4; ++q)
          px[q] = zpColumn(kq);
      } else {
        packColumn(ix, kq, valid, px);
      }
      for (auto [back, kx] : uses)
        for (int64_t q = 0; q < 4; ++q)
          win[back][q] =
              d.e.dot4(win[back][q], px[q], wk[(kq * p.kw + kx) * 4 + q]);
    }
  }
  if (!win.back().empty()) {
    int64_t pixels = pixPerVec;
    if (ts)
      pixels = std::min(pixPerVec, p.ow - (*ts - slideD) * pixPerVec);
    storeVector(win.back(), d.sub(t, slideD), pixels);
  }
  win.pop_back();
}

bool DepthwiseZmmEmitter::SlideRow::steady(int64_t t) const {
  return t >= slideD && (t + 1) * pixPerVec <= p.ow &&
         t * vecStride >= d.offX &&
         (t + 1) * vecStride + pixPerVec - 1 <= d.offX + p.w &&
         (t + 1) * vecStride <= totalCols;
}

void DepthwiseZmmEmitter::SlideRow::emit() {
  // Steps [tA, tB) run in the loop.
  int64_t tA = 0;
  while (tA < vecOw && !steady(tA))
    ++tA;
  int64_t tB = tA;
  while (tB < vecOw && steady(tB))
    ++tB;
  int64_t period = slideD + 1, loops = (tB - tA) / period;
  SmallVector<Acc> win(slideD);
  for (int64_t t = 0; t < tA; ++t)
    step(d.idx(t), t, win);
  if (loops) {
    SmallVector<Value> carried;
    for (Acc &a : win)
      carried.append(a.begin(), a.end());
    ValueRange results =
        scf::ForOp::create(
            b, loc, d.idx(0), d.idx(loops), d.idx(1), carried,
            [&](OpBuilder &, Location, Value k, ValueRange args) {
              SmallVector<Acc> w(slideD);
              for (int64_t i = 0; i < slideD; ++i)
                w[i].assign(args.begin() + 4 * i, args.begin() + 4 * i + 4);
              Value t0 = d.add(d.mul(k, period), d.idx(tA));
              for (int64_t u = 0; u < period; ++u)
                step(d.add(t0, d.idx(u)), std::nullopt, w);
              SmallVector<Value> yielded;
              for (Acc &a : w)
                yielded.append(a.begin(), a.end());
              scf::YieldOp::create(b, loc, yielded);
            })
            .getResults();
    for (int64_t i = 0; i < slideD; ++i)
      win[i].assign(results.begin() + 4 * i, results.begin() + 4 * i + 4);
  }
  for (int64_t t = tA + loops * period; t < vecOw + slideD; ++t)
    step(d.idx(t), t, win);
}

void DepthwiseZmmEmitter::slide64(Value n, Value oy, const SlideKind &kind,
                                  Value tb, Value c0In, Value c0Out) {
  SlideRow(*this, n, oy, kind, tb, c0In, c0Out).emit();
}

void DepthwiseZmmEmitter::mainBlock64(Value n, Value oy, Value block) {
  SlideKind mainKind{xp, cpad, pixPerVec, &main64};
  Value tb = mul(block, 64);
  Value c0 = tb;
  if (pixPerVec > 1)
    c0 = idx(0);
  else if (p.c % 64)
    c0 = arith::MinSIOp::create(b, loc, tb, idx(p.c - 64));
  slide64(n, oy, mainKind, tb, c0, c0);
}

void DepthwiseZmmEmitter::emitBlocks64() {
  // Parallel over (image, output row, block). Rows are outer, so a static
  // schedule gives each thread whole rows, whose KH input rows stay in its
  // L1 / L2 across the row's blocks.
  // A 16-channel tail: one more block, compact (4 pixels per vector) at
  // stride 1, else by the 16-channel kernel.
  SlideKind tailKind{Value(), 16, 4, &tailTables};
  if (tailCompact)
    tailKind.x = copyTail16();
  scf::ParallelOp::create(
      b, loc, ValueRange{idx(0), idx(0), idx(0)},
      ValueRange{idx(p.n), idx(p.oh), idx(nBlocks + (tail16 ? 1 : 0))},
      ValueRange{idx(1), idx(1), idx(1)},
      [&](OpBuilder &, Location, ValueRange ivs) {
        if (!tail16) {
          mainBlock64(ivs[0], ivs[1], ivs[2]);
        } else {
          scf::IfOp::create(
              b, loc, cmp(arith::CmpIPredicate::slt, ivs[2], idx(nBlocks)),
              [&](OpBuilder &, Location) {
                mainBlock64(ivs[0], ivs[1], ivs[2]);
                scf::YieldOp::create(b, loc);
              },
              [&](OpBuilder &, Location) {
                if (tailCompact)
                  slide64(ivs[0], ivs[1], tailKind, idx(0), idx(0),
                          idx(p.c - 16));
                else
                  row16(ivs[0], ivs[1], idx(cBlocks - 1), kZLanes);
                scf::YieldOp::create(b, loc);
              });
        }
        scf::ReduceOp::create(b, loc);
      });
}

/// Depthwise on zmm: 16 channels per vector, a register block of up to 14
/// output pixels along a row. Each input column of a kernel row is loaded and
/// widened once and feeds every (pixel, kx) pair that reads it; the
/// multiply-add is vpdpwssd on int32 lanes holding a u8 input (upper 16 bits
/// zero) and a sign-extended weight: exactly x * w. With whole blocks of 64
/// packed lanes, the 64-lane kernel (vpdpbusd, four kernel rows per dword).
Value ConvEmitter::emitDepthwiseZmm(Value input, Value residual) {
  return DepthwiseZmmEmitter(*this, input, residual).emit();
}
