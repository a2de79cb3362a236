//===- ConvDepthwiseZmm.cpp - avx512-vnni depthwise kernels ---------------===//
//
// Blocks of 64 packed lanes (four kernel rows per dword, vpdpbusd) with a
// window sliding along the output row, and 16-channel blocks by vpdpwssd.
// See Conv.cpp's header.
//
//===----------------------------------------------------------------------===//

#include "ConvEmitter.h"

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::conv;

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
