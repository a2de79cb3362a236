//===- ConvZmm.cpp - avx512-vnni convolution kernels ----------------------===//
//
// Register blocks of up to 6 pixels x 64 output channels fed by vpdpbusd,
// and the requantizing stores of 16 or 64 int32 lanes (storeFlat,
// storePacked64) the depthwise kernel shares. See Conv.cpp's header.
//
//===----------------------------------------------------------------------===//

#include "ConvEmitter.h"

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::conv;

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
          for (int64_t j = 0; j < nv; ++j)
            acc[px * nv + j] = dot4(acc[px * nv + j], xv, w[j]);
        }
        return acc;
      });
  storeZmmBlock(SmallVector<Value>(result.begin(), result.end()), mult, out,
                residual, g, vec0, nv, m0, pixels, valid, packedOrder);
}

/// Requantizes and stores emitZmmBlock's accumulators `finals` (pixel px's
/// vector j at px * nv + j): whole 64-channel blocks by storePacked64, runs
/// of whole vectors four at a time, the rest vector by vector.
void ConvEmitter::storeZmmBlock(ArrayRef<Value> finals, Value mult, Value out,
                                Value residual, Value g, Value vec0, int64_t nv,
                                Value m0, int64_t pixels, int64_t valid,
                                bool packedOrder) {
  auto v16f32 = VectorType::get({kZLanes}, b.getF32Type());
  // Channel offset of vector j in the [G][V * 16] tables.
  int64_t vtot = (p.og + kZLanes - 1) / kZLanes;
  auto tableOffset = [&](int64_t j) {
    return add(mul(g, vtot * kZLanes), mul(add(vec0, idx(j)), kZLanes));
  };
  if (packedOrder) {
    // A whole 64-channel block in the packed order: 64 bytes per pixel.
    SmallVector<Value> m;
    for (int64_t j = 0; j < nv; ++j)
      m.push_back(vector::LoadOp::create(b, loc, v16f32, mult,
                                         ValueRange{tableOffset(j)}));
    Value ch = add(mul(g, p.og), mul(vec0, kZLanes));
    for (int64_t px = 0; px < pixels; ++px)
      storePacked64(finals.slice(px * nv, nv), m, out, residual,
                    add(mul(add(m0, idx(px)), p.o), ch));
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
    int64_t total = pixels * nv;
    Value base = mul(m0, p.o);
    for (int64_t v = 0; v + 4 <= total; v += 4) {
      SmallVector<Value> mq;
      for (int64_t i = 0; i < 4; ++i)
        mq.push_back(m[(v + i) % nv]);
      storePacked64(finals.slice(v, 4), mq, out, residual,
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
    Value ch = add(mul(g, p.og), mul(vec0, kZLanes));
    int64_t grouped = pixels / perGroup * perGroup;
    for (int64_t px = 0; px < grouped; px += perGroup) {
      SmallVector<Value> mq, at;
      for (int64_t i = 0; i < 4; ++i)
        mq.push_back(m[i % nv]);
      for (int64_t i = 0; i < perGroup; ++i)
        at.push_back(add(mul(add(m0, idx(px + i)), p.o), ch));
      storePacked64(finals.slice(px * nv, 4), mq, out, residual, at[0],
                    /*inOrder=*/true, at);
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
      storeFlat(finals[px * nv + j], m, out, residual, off, mask);
    }
  }
}

/// Per group, per channel block of nv vectors (channelBlocks: 4, then the
/// rest), [KH][KW][Q][nv][16 channels][4 input channels], flat: a block of
/// nv vectors starting at vector v0 begins at (g * V + v0) * KH * KW * Q *
/// 64. Whole 64-channel blocks hold their channels in the packed order
/// (packedChannel, for storePacked64). Missing channels are 0; zero rows
/// follow where amx-int8's im2col tiles need them.
Value ConvEmitter::packWeights16x4() {
  ChannelBlocks cb = channelBlocks(p.og);
  int64_t vtot = cb.vectors, full = cb.full, rest = cb.rest;
  int64_t q4 = p.cg4 / 4, taps = p.kh * p.kw;
  // amx-int8's im2col tiles read whole tiles past the last block: zero
  // bytes after it (every x86 variant packs them, whatever its instruction
  // set, so a dispatching object still holds one copy).
  SmallVector<int8_t> packed(
      p.groups * vtot * taps * q4 * 64 + tileWeightSlack(p), 0);
  for (int64_t g = 0; g < p.groups; ++g)
    for (int64_t v = 0; v < vtot; ++v) {
      int64_t v0 = v < full * 4 ? v / 4 * 4 : full * 4;
      int64_t nv = v < full * 4 ? 4 : rest;
      int64_t region = (g * vtot + v0) * taps * q4 * 64;
      for (int64_t t = 0; t < taps; ++t)
        for (int64_t q = 0; q < q4; ++q)
          for (int64_t lane = 0; lane < kZLanes; ++lane)
            for (int64_t i = 0; i < 4; ++i) {
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
  auto type = RankedTensorType::get({static_cast<int64_t>(packed.size())},
                                    b.getI8Type());
  return global("__qnt_weights", type,
                DenseElementsAttr::get(type, ArrayRef<int8_t>(packed)));
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
  ChannelBlocks cb = channelBlocks(p.og);
  int64_t vtot = cb.vectors, full = cb.full, rest = cb.rest;
  int64_t tailValid = cb.tailValid;
  Value w = packWeights16x4();
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
  int64_t chunks = threadChunks(tasks, pixelsTotal / 24);
  // The pixel blocks of channel blocks with nv vectors in chunk `c`.
  auto chunkBlocks = [&](Value c, Value g, Value vec0, int64_t nv,
                         int64_t valid, bool packedOrder) {
    int64_t pb = nv == 4 ? pbFull : pbRest;
    int64_t nBlocks = pixelsTotal / pb, tail = pixelsTotal % pb;
    int64_t perChunk = (nBlocks + chunks - 1) / chunks;
    auto [lo, hi] = chunkRange(c, perChunk, nBlocks);
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
