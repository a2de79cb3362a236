//===- ConvYmm.cpp - 8-lane x86 convolution kernels -----------------------===//
//
// avx-vnni (vpdpbusd ymm) and avx2 (vpmaddubsw + vpmaddwd, or vpmaddwd on
// inputs widened to 16 bits) read the weights the zmm kernel reads
// (ConvEmitter::packWeights16x4) and the same comp / mult tables, so the x86
// variants of a dispatching object store them once. A 64-byte row of that
// layout is 16 output channels x 4 input channels; each 32-byte half is one
// ymm dot operand (8 channels x 4 inputs). In a whole 64-channel block the
// channels are in the packed order of packedChannel: half h of row r holds
// channels 32 h + 4 r + d (lanes 0-3) and 32 h + 16 + 4 r + d (lanes 4-7),
// d < 4; the other blocks hold the channels in order. A register block is
// 4 pixels x 16 channels on the dot path (half h of two rows, whose 128-bit
// halves are 8 consecutive channels each: a shuffle before the
// requantization restores the order), 4 pixels x 8 channels on the wide
// path (half a row, requantized in the packed order and stored as two runs
// of 4 bytes). The 8-lane kernels of ConvVector8.cpp serve the other
// instruction sets. See Conv.cpp's header.
//
//===----------------------------------------------------------------------===//

#include "ConvEmitter.h"

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::conv;

namespace mlir::qnt::conv {

/// What one register block computes: two weight pieces per dot step (32
/// bytes each on the dot path, 16 on the wide path) and where their
/// channels go.
struct YmmUnit {
  /// Byte offsets of the pieces within a dot step's rows; the comp / mult
  /// entries of a piece's lanes start at offset / 4 in the block's tables.
  Value piece[2];
  /// Output channels (from the block's first) of the two 8-channel
  /// outputs (the dot path) or of the one output (the wide path: piece 0's
  /// 4 channels, then piece 1's); how many of each are stored.
  Value out[2];
  int64_t valid[2] = {kLanes, kLanes};
  /// The wide path in a packed block: an output's lanes 0-3 go to channels
  /// out .. out + 3, lanes 4-7 to out + 16 .. out + 19.
  bool runs = false;
  /// The dot path in a packed block: see finishDot.
  bool interleaved = false;
};

/// emitYmm's loops and register blocks.
class YmmKernel {
public:
  YmmKernel(ConvEmitter &e) : e(e), b(e.b), loc(e.loc), p(e.p) {}
  Value emit(Value input, Value residual);

private:
  /// One register block: `pixels` pixels of row (n, oy) from ox0 x `u`, in
  /// the channel block whose weights start at `wBlock` (rows of `rowBytes`
  /// per dot step), tables at `tBlock`, output channels at `chBlock`.
  void block(Value n, Value oy, Value ox0, int64_t pixels, Value g,
             Value wBlock, int64_t rowBytes, Value tBlock, Value chBlock,
             const YmmUnit &u);
  void finishDot(ArrayRef<Value> acc, int64_t nb, int64_t pixels, Value n,
                 Value oy, Value ox0, Value tBlock, Value chBlock,
                 const YmmUnit &u);
  void finishWide(ArrayRef<Value> acc, int64_t pixels, Value n, Value oy,
                  Value ox0, Value tBlock, Value chBlock, const YmmUnit &u);
  /// Requantizes the 8 lanes `acc` of output `k` of `u` and stores them.
  void store(Value acc, Value m, Value n, Value oy, Value ox, Value chBlock,
             const YmmUnit &u, int64_t k);
  /// The units of a channel block: whole 64-channel blocks (packed order),
  /// or the `rest` vectors of the last block (channel order).
  void packedUnits(function_ref<void(const YmmUnit &)> run);
  void restUnits(function_ref<void(const YmmUnit &)> run);
  /// 8 lanes: the 4 at `lo` and the 4 at `hi` of `table`.
  Value halves(Value table, Type element, Value lo, Value hi);
  void loop(int64_t ub, function_ref<void(Value)> body);
  /// The wide path: unit `u`'s weights sign-extended to int16, per dot step
  /// piece 0's 16 then piece 1's (vpmovsxbw once per unit and chunk of
  /// rows, not in the inner loop, where it would add a shuffle per 8
  /// multiply-adds).
  Value widen(Value wBlock, int64_t rowBytes, const YmmUnit &u);

  ConvEmitter &e;
  ConversionPatternRewriter &b;
  Location loc;
  const ConvProblem &p;
  bool wide = false;
  Value xp, w, comp, mult, out, residual;
  /// The current unit's widen() buffer.
  Value wide16;
};

} // namespace mlir::qnt::conv

void YmmKernel::loop(int64_t ub, function_ref<void(Value)> body) {
  scf::ForOp::create(b, loc, e.idx(0), e.idx(ub), e.idx(1), ValueRange{},
                     [&](OpBuilder &, Location, Value iv, ValueRange) {
                       body(iv);
                       scf::YieldOp::create(b, loc);
                     });
}

Value YmmKernel::widen(Value wBlock, int64_t rowBytes, const YmmUnit &u) {
  int64_t steps = p.kh * p.kw * p.cg4 / 4;
  Value buf = memref::AllocOp::create(
      b, loc, MemRefType::get({steps * 32}, b.getI16Type()));
  auto v16i8 = VectorType::get({16}, b.getI8Type());
  auto v16i16 = VectorType::get({16}, b.getI16Type());
  loop(steps, [&](Value step) {
    Value wOff = e.add(wBlock, e.mul(step, rowBytes));
    for (int64_t k = 0; k < 2; ++k) {
      Value bytes = vector::LoadOp::create(b, loc, v16i8, w,
                                           ValueRange{e.add(wOff, u.piece[k])});
      vector::StoreOp::create(
          b, loc, arith::ExtSIOp::create(b, loc, v16i16, bytes), buf,
          ValueRange{e.add(e.mul(step, 32), e.idx(16 * k))});
    }
  });
  return buf;
}

Value YmmKernel::halves(Value table, Type element, Value lo, Value hi) {
  auto v4 = VectorType::get({4}, element);
  Value a = vector::LoadOp::create(b, loc, v4, table, ValueRange{lo});
  Value c = vector::LoadOp::create(b, loc, v4, table, ValueRange{hi});
  return vector::ShuffleOp::create(b, loc, a, c,
                                   ArrayRef<int64_t>{0, 1, 2, 3, 4, 5, 6, 7});
}

void YmmKernel::block(Value n, Value oy, Value ox0, int64_t pixels, Value g,
                      Value wBlock, int64_t rowBytes, Value tBlock,
                      Value chBlock, const YmmUnit &u) {
  auto v8i32 = VectorType::get({kLanes}, b.getI32Type());
  auto v4i8 = VectorType::get({4}, b.getI8Type());
  auto v1i32 = VectorType::get({1}, b.getI32Type());
  // Accumulator px * nb + k: pixel px's of piece k. The wide path's are
  // split (lane 2c + s: channel c's products of inputs 2s, 2s + 1) and
  // start at 0; comp is added after the pairs are summed.
  int64_t nb = wide || u.valid[1] > 0 ? 2 : 1;
  SmallVector<Value> accs;
  Value zero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(v8i32, b.getI32IntegerAttr(0).getValue()));
  for (int64_t px = 0; px < pixels; ++px)
    for (int64_t k = 0; k < nb; ++k)
      accs.push_back(wide ? zero
                          : Value(vector::LoadOp::create(
                                b, loc, v8i32, comp,
                                ValueRange{e.add(tBlock, arith::DivUIOp::create(
                                                             b, loc, u.piece[k],
                                                             e.idx(4)))})));
  int64_t q4 = p.cg4 / 4;
  Value chBase = e.mul(g, p.cg4);
  ValueRange result = e.reductionLoops(
      q4, accs, [&](Value ky, Value kx, Value q, SmallVector<Value> acc) {
        Value iy = e.windowIndex(oy, ky, p.sh, p.dh);
        Value ch = e.add(chBase, e.mul(q, 4));
        Value step = e.add(e.mul(e.add(e.mul(ky, p.kw), kx), q4), q);
        Value wOff = e.add(wBlock, e.mul(step, rowBytes));
        auto ixOf = [&](int64_t px) {
          return e.windowIndex(e.add(ox0, e.idx(px)), kx, p.sw, p.dw);
        };
        SmallVector<Value> wv;
        if (wide) {
          // The unit's weights of this step, sign-extended (widen).
          auto v16i16 = VectorType::get({16}, b.getI16Type());
          for (int64_t k = 0; k < nb; ++k)
            wv.push_back(vector::LoadOp::create(
                b, loc, v16i16, wide16,
                ValueRange{e.add(e.mul(step, 32), e.idx(16 * k))}));
          // The pixel's 4 inputs (u16) in every 64-bit lane: vpmaddwd
          // gives lane 2c + s the products of inputs 2s, 2s + 1.
          auto v4i16 = VectorType::get({4}, b.getI16Type());
          auto v1i64 = VectorType::get({1}, b.getI64Type());
          auto v4i64 = VectorType::get({4}, b.getI64Type());
          for (int64_t px = 0; px < pixels; ++px) {
            Value quad = vector::LoadOp::create(
                b, loc, v4i16, xp, ValueRange{n, iy, ixOf(px), ch});
            Value word = vector::ExtractOp::create(
                b, loc, vector::BitCastOp::create(b, loc, v1i64, quad), 0);
            Value xv = vector::BitCastOp::create(
                b, loc, v16i16,
                vector::BroadcastOp::create(b, loc, v4i64, word));
            for (int64_t k = 0; k < nb; ++k) {
              Value prod = p.family().madd16(e, xv, wv[k]);
              Value &a = acc[px * nb + k];
              a = arith::AddIOp::create(b, loc, a, prod);
            }
          }
          return acc;
        }
        // One broadcast of the pixel's input quad feeds both pieces.
        auto v32i8 = VectorType::get({32}, b.getI8Type());
        for (int64_t k = 0; k < nb; ++k)
          wv.push_back(vector::LoadOp::create(
              b, loc, v32i8, w, ValueRange{e.add(wOff, u.piece[k])}));
        for (int64_t px = 0; px < pixels; ++px) {
          Value quad = vector::LoadOp::create(b, loc, v4i8, xp,
                                              ValueRange{n, iy, ixOf(px), ch});
          Value word = vector::ExtractOp::create(
              b, loc, vector::BitCastOp::create(b, loc, v1i32, quad), 0);
          Value xv = vector::BitCastOp::create(
              b, loc, v32i8, vector::BroadcastOp::create(b, loc, v8i32, word));
          for (int64_t k = 0; k < nb; ++k)
            acc[px * nb + k] = e.dot4(acc[px * nb + k], xv, wv[k]);
        }
        return acc;
      });
  SmallVector<Value> finals(result.begin(), result.end());
  if (wide)
    finishWide(finals, pixels, n, oy, ox0, tBlock, chBlock, u);
  else
    finishDot(finals, nb, pixels, n, oy, ox0, tBlock, chBlock, u);
}

void YmmKernel::finishDot(ArrayRef<Value> acc, int64_t nb, int64_t pixels,
                          Value n, Value oy, Value ox0, Value tBlock,
                          Value chBlock, const YmmUnit &u) {
  auto v8f32 = VectorType::get({kLanes}, b.getF32Type());
  SmallVector<Value> m;
  for (int64_t k = 0; k < nb; ++k)
    m.push_back(vector::LoadOp::create(
        b, loc, v8f32, mult,
        ValueRange{e.add(
            tBlock, arith::DivUIOp::create(b, loc, u.piece[k], e.idx(4)))}));
  // interleaved: the two accumulators' low 128-bit halves are 8
  // consecutive channels, their high halves the 8 from 16 on (the
  // multipliers likewise).
  auto halvesOf = [&](Value x, Value y, bool high) -> Value {
    int64_t o = high ? 4 : 0;
    return vector::ShuffleOp::create(b, loc, x, y,
                                     ArrayRef<int64_t>{o, o + 1, o + 2, o + 3,
                                                       o + 8, o + 9, o + 10,
                                                       o + 11});
  };
  if (u.interleaved)
    m = {halvesOf(m[0], m[1], false), halvesOf(m[0], m[1], true)};
  for (int64_t px = 0; px < pixels; ++px) {
    SmallVector<Value> vs(acc.slice(px * nb, nb));
    if (u.interleaved)
      vs = {halvesOf(vs[0], vs[1], false), halvesOf(vs[0], vs[1], true)};
    for (int64_t k = 0; k < nb; ++k)
      store(vs[k], m[k], n, oy, e.add(ox0, e.idx(px)), chBlock, u, k);
  }
}

void YmmKernel::store(Value acc, Value m, Value n, Value oy, Value ox,
                      Value chBlock, const YmmUnit &u, int64_t k) {
  Value ch = e.add(chBlock, u.out[k]);
  if (!u.runs) {
    e.storePixel(acc, m, out, residual, n, oy, ox, ch,
                 e.prefixMask(kLanes, u.valid[k]));
    return;
  }
  // Two runs of 4 channels, 16 apart.
  auto v4i8 = VectorType::get({4}, b.getI8Type());
  auto v8i8 = VectorType::get({kLanes}, b.getI8Type());
  Value ch16 = e.add(ch, e.idx(16));
  Value res;
  if (residual) {
    Value r0 = vector::LoadOp::create(b, loc, v4i8, residual,
                                      ValueRange{n, oy, ox, ch});
    Value r1 = vector::LoadOp::create(b, loc, v4i8, residual,
                                      ValueRange{n, oy, ox, ch16});
    res = e.residualLanes(vector::ShuffleOp::create(
        b, loc, r0, r1, ArrayRef<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  }
  Value bytes = arith::TruncIOp::create(b, loc, v8i8, e.epilogue(acc, m, res));
  for (int64_t half = 0; half < 2; ++half)
    vector::StoreOp::create(b, loc,
                            vector::ExtractStridedSliceOp::create(
                                b, loc, bytes, {half * 4}, {4}, {1}),
                            out, ValueRange{n, oy, ox, half ? ch16 : ch});
}

void YmmKernel::finishWide(ArrayRef<Value> acc, int64_t pixels, Value n,
                           Value oy, Value ox0, Value tBlock, Value chBlock,
                           const YmmUnit &u) {
  Value t0 =
      e.add(tBlock, arith::DivUIOp::create(b, loc, u.piece[0], e.idx(4)));
  Value t1 =
      e.add(tBlock, arith::DivUIOp::create(b, loc, u.piece[1], e.idx(4)));
  Value c = halves(comp, b.getI32Type(), t0, t1);
  Value m = halves(mult, b.getF32Type(), t0, t1);
  for (int64_t px = 0; px < pixels; ++px) {
    // Lanes 2c and 2c + 1 of the split accumulators are channel c's halves.
    Value x = acc[2 * px], y = acc[2 * px + 1];
    Value even = vector::ShuffleOp::create(
        b, loc, x, y, ArrayRef<int64_t>{0, 2, 4, 6, 8, 10, 12, 14});
    Value odd = vector::ShuffleOp::create(
        b, loc, x, y, ArrayRef<int64_t>{1, 3, 5, 7, 9, 11, 13, 15});
    Value sum = arith::AddIOp::create(b, loc, c,
                                      arith::AddIOp::create(b, loc, even, odd));
    store(sum, m, n, oy, e.add(ox0, e.idx(px)), chBlock, u, 0);
  }
}

void YmmKernel::packedUnits(function_ref<void(const YmmUnit &)> run) {
  if (!wide) {
    // Unit 2k + h: half h of rows 2k and 2k + 1, whose low 128-bit halves
    // are channels 32 h + 8 k .. + 7 and high halves the 8 from 16 on (the
    // next unit reads the same 64-byte rows).
    loop(4, [&](Value unit) {
      Value k = arith::DivUIOp::create(b, loc, unit, e.idx(2));
      Value h = arith::RemUIOp::create(b, loc, unit, e.idx(2));
      YmmUnit u;
      u.interleaved = true;
      u.piece[0] = e.add(e.mul(k, 128), e.mul(h, 32));
      u.piece[1] = e.add(u.piece[0], e.idx(64));
      u.out[0] = e.add(e.mul(h, 32), e.mul(k, 8));
      u.out[1] = e.add(u.out[0], e.idx(16));
      run(u);
    });
    return;
  }
  // Unit 2 r + h: half h of row r, channels 32 h + 4 r + 16 L + d (the
  // next unit reads the same 64-byte rows).
  loop(8, [&](Value unit) {
    Value r = arith::DivUIOp::create(b, loc, unit, e.idx(2));
    Value h = arith::RemUIOp::create(b, loc, unit, e.idx(2));
    YmmUnit u;
    u.runs = true;
    u.piece[0] = e.add(e.mul(r, 64), e.mul(h, 32));
    u.piece[1] = e.add(u.piece[0], e.idx(16));
    u.out[0] = e.add(e.mul(h, 32), e.mul(r, 4));
    run(u);
  });
}

void YmmKernel::restUnits(function_ref<void(const YmmUnit &)> run) {
  ChannelBlocks cb = channelBlocks(p.og);
  int64_t whole = cb.tailValid == kZLanes ? cb.rest : cb.rest - 1;
  // Half h of vector v: channels 16 v + 8 h .. + 7.
  auto unitOf = [&](Value v, Value h, int64_t valid) {
    YmmUnit u;
    u.piece[0] = e.add(e.mul(v, 64), e.mul(h, 32));
    u.piece[1] = e.add(u.piece[0], e.idx(wide ? 16 : 32));
    u.out[0] = e.add(e.mul(v, 16), e.mul(h, 8));
    u.out[1] = e.add(u.out[0], e.idx(8));
    u.valid[0] = std::min<int64_t>(valid, kLanes);
    u.valid[1] = wide ? 0 : std::max<int64_t>(valid - kLanes, 0);
    return u;
  };
  if (!wide) {
    // Both halves of a vector per unit.
    if (whole)
      loop(whole, [&](Value v) { run(unitOf(v, e.idx(0), kZLanes)); });
    if (whole < cb.rest)
      run(unitOf(e.idx(whole), e.idx(0), cb.tailValid));
    return;
  }
  if (whole)
    loop(2 * whole, [&](Value unit) {
      run(unitOf(arith::DivUIOp::create(b, loc, unit, e.idx(2)),
                 arith::RemUIOp::create(b, loc, unit, e.idx(2)), kLanes));
    });
  if (whole < cb.rest) {
    run(unitOf(e.idx(whole), e.idx(0), cb.tailValid));
    if (cb.tailValid > kLanes)
      run(unitOf(e.idx(whole), e.idx(1), cb.tailValid - kLanes));
  }
}

Value YmmKernel::emit(Value input, Value xres) {
  wide = e.widePairs();
  residual = xres;
  xp = e.padInput(input, p.cg4, p.groups * p.cg4, p.inZp, p.shift != 0, wide);
  w = e.packWeights16x4();
  ChannelBlocks cb = channelBlocks(p.og);
  auto [comp2, mult2] =
      e.compMultTables(p.groups, cb.vectors * kZLanes, p.og, cb.full * 64);
  comp = e.flatten(comp2);
  mult = e.flatten(mult2);
  auto outType = MemRefType::get({p.n, p.oh, p.ow, p.o}, b.getI8Type());
  out = memref::AllocOp::create(b, loc, outType);
  int64_t taps = p.kh * p.kw, q4 = p.cg4 / 4;
  int64_t owFull = p.ow / kPixels * kPixels;
  // Parallel over (chunk of output rows, group, channel block): a thread
  // writes whole 64-byte runs of output channels, and inside an iteration
  // each unit runs over the chunk's rows, so its weights stay in L1.
  int64_t lines = cb.full + (cb.rest ? 1 : 0);
  int64_t rows = p.n * p.oh, tasks = p.groups * lines;
  int64_t chunks = ConvEmitter::threadChunks(tasks, rows);
  int64_t perChunk = (rows + chunks - 1) / chunks;
  scf::ParallelOp::create(
      b, loc, ValueRange{e.idx(0), e.idx(0), e.idx(0)},
      ValueRange{e.idx(chunks), e.idx(p.groups), e.idx(lines)},
      ValueRange{e.idx(1), e.idx(1), e.idx(1)},
      [&](OpBuilder &, Location, ValueRange ivs) {
        Value g = ivs[1], line = ivs[2];
        Value rowLo, rowHi;
        std::tie(rowLo, rowHi) = e.chunkRange(ivs[0], perChunk, rows);
        // The channel block from vector v0 on, of nv vectors.
        auto runBlock = [&](Value v0, int64_t nv, bool packed) {
          Value wBlock =
              e.mul(e.add(e.mul(g, cb.vectors), v0), taps * q4 * kZLanes * 4);
          Value tBlock = e.mul(e.add(e.mul(g, cb.vectors), v0), kZLanes);
          Value chBlock = e.add(e.mul(g, p.og), e.mul(v0, kZLanes));
          auto run = [&](const YmmUnit &u) {
            if (wide)
              wide16 = widen(wBlock, nv * 64, u);
            scf::ForOp::create(
                b, loc, rowLo, rowHi, e.idx(1), ValueRange{},
                [&](OpBuilder &, Location, Value r, ValueRange) {
                  Value n = arith::DivUIOp::create(b, loc, r, e.idx(p.oh));
                  Value oy = arith::RemUIOp::create(b, loc, r, e.idx(p.oh));
                  auto pixels = [&](Value ox0, int64_t count) {
                    block(n, oy, ox0, count, g, wBlock, nv * 64, tBlock,
                          chBlock, u);
                  };
                  if (owFull)
                    scf::ForOp::create(
                        b, loc, e.idx(0), e.idx(owFull), e.idx(kPixels),
                        ValueRange{},
                        [&](OpBuilder &, Location, Value ox0, ValueRange) {
                          pixels(ox0, kPixels);
                          scf::YieldOp::create(b, loc);
                        });
                  // The row's last OW % 4 pixels: one narrower block.
                  if (p.ow > owFull)
                    pixels(e.idx(owFull), p.ow - owFull);
                  scf::YieldOp::create(b, loc);
                });
          };
          if (packed)
            packedUnits(run);
          else
            restUnits(run);
        };
        auto restBlock = [&] { runBlock(e.idx(cb.full * 4), cb.rest, false); };
        if (cb.full && cb.rest) {
          Value isFull = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, line, e.idx(cb.full));
          scf::IfOp::create(
              b, loc, isFull,
              [&](OpBuilder &, Location) {
                runBlock(e.mul(line, 4), 4, true);
                scf::YieldOp::create(b, loc);
              },
              [&](OpBuilder &, Location) {
                restBlock();
                scf::YieldOp::create(b, loc);
              });
        } else if (cb.full) {
          runBlock(e.mul(line, 4), 4, true);
        } else {
          restBlock();
        }
        scf::ReduceOp::create(b, loc);
      });
  // The padded copy is freed by buffer deallocation.
  return out;
}

Value ConvEmitter::emitYmm(Value input, Value residual) {
  return YmmKernel(*this).emit(input, residual);
}
