//===- ConvVector8.cpp - 8-lane convolution kernels -----------------------===//
//
// avx-vnni, avx2, NEON and generic vector code: register blocks of 4 pixels
// x 8 output channels, and the depthwise kernel of 8 channels per vector.
// See Conv.cpp's header. The dot step, the weight layout and the register
// block are the kernel family's (Isa/KernelFamily.h).
//
//===----------------------------------------------------------------------===//

#include "ConvEmitter.h"

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::conv;

/// Packed weights of the 8-lane kernels (the x86 ones read the zmm
/// kernel's instead: packWeights16x4). Dot paths: [G][B][KH][KW][Q][32] with
/// byte j*4+t = w[g*og + 8b + j][ky][kx][4q + t]. Exact path:
/// [G][B][KH][KW][Q][4][8] with element [t][j] the same weight. i8mm:
/// [G][B][KH][KW][Q/2][64] with byte jj*16 + jp*8 + t = w[8b + 2jj +
/// jp][..][8r + t] (pairs of output channels, 8 input channels each).
/// Missing channels are 0.
Value ConvEmitter::packWeights() {
  // A tile holds 8 output channels x `chunk` input channels; `at(j, t)` is
  // the element of output channel j, input channel t within the tile.
  bool i8mm = layout() == WeightLayout::MatrixPairs;
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

void ConvEmitter::emitPixels(Value xp, Value packed, Value comp, Value mult,
                             Value out, Value residual, Value n, Value oy,
                             Value ox0, int64_t pixels, Value g, Value block,
                             int64_t valid, int64_t nb) {
  assert((nb == 1 || (blocksPerRegisterBlock() >= nb && valid == kLanes)) &&
         "several blocks only where the ISA has the registers, all whole");
  auto v8i32 = VectorType::get({kLanes}, b.getI32Type());
  auto v8i8 = VectorType::get({kLanes}, b.getI8Type());
  auto v32i8 = VectorType::get({32}, b.getI8Type());
  auto v4i8 = VectorType::get({4}, b.getI8Type());
  auto v1i32 = VectorType::get({1}, b.getI32Type());
  // Blocks block .. block + nb - 1; accumulator px * nb + k is pixel px's
  // of block + k. comp / mult are [G][blocks * 8].
  SmallVector<Value> blocks, accs;
  for (int64_t k = 0; k < nb; ++k)
    blocks.push_back(add(block, idx(k)));
  for (int64_t px = 0; px < pixels; ++px)
    for (int64_t k = 0; k < nb; ++k)
      accs.push_back(vector::LoadOp::create(b, loc, v8i32, comp,
                                            ValueRange{g, mul(blocks[k], 8)}));
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
          // One broadcast of the pixel's input quad feeds every block.
          SmallVector<Value> wv;
          for (int64_t k = 0; k < nb; ++k)
            wv.push_back(vector::LoadOp::create(
                b, loc, v32i8, packed,
                ValueRange{g, blocks[k], ky, kx, q, idx(0)}));
          for (int64_t px = 0; px < pixels; ++px) {
            Value quad = vector::LoadOp::create(
                b, loc, v4i8, xp, ValueRange{n, iy, ixOf(px), ch});
            Value word = vector::BitCastOp::create(b, loc, v1i32, quad);
            Value scalar = vector::ExtractOp::create(b, loc, word, 0);
            Value splat = vector::BroadcastOp::create(b, loc, v8i32, scalar);
            Value xv = vector::BitCastOp::create(b, loc, v32i8, splat);
            for (int64_t k = 0; k < nb; ++k)
              acc[px * nb + k] = dot4(acc[px * nb + k], xv, wv[k]);
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

  for (int64_t k = 0; k < nb; ++k) {
    auto [m, outCh, mask] = storeContext(mult, g, mul(blocks[k], 8), valid);
    for (int64_t px = 0; px < pixels; ++px)
      storePixel(result[px * nb + k], m, out, residual, n, oy,
                 arith::AddIOp::create(b, loc, ox0, idx(px)), outCh, mask);
  }
}

/// Requantizes one pixel's 8 accumulators and stores the valid lanes.
void ConvEmitter::storePixel(Value acc, Value m, Value out, Value residual,
                             Value n, Value oy, Value ox, Value outCh,
                             Value mask) {
  auto v8i8 = VectorType::get({kLanes}, b.getI8Type());
  SmallVector<Value> indices{n, oy, ox, outCh};
  if (p.floatOut) {
    Value v = floatEpilogue(acc, m);
    if (mask)
      vector::MaskedStoreOp::create(b, loc, out, indices, mask, v);
    else
      vector::StoreOp::create(b, loc, v, out, indices);
    return;
  }
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
  auto outType = MemRefType::get({p.n, p.oh, p.ow, p.o}, outElementType());
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

/// NEON and generic (avx-vnni and avx2: emitYmm): the padded copy, then
/// register blocks of 4 pixels x 8 channels.
Value ConvEmitter::emitVector8(Value input, Value residual) {
  Value xp = padInput(input, p.cg4, p.groups * p.cg4, p.inZp, p.shift != 0);
  Value packed = packWeights();
  auto [compV, multV] = compMultTables(p.groups, p.blocks * kLanes, p.og);
  auto outType = MemRefType::get({p.n, p.oh, p.ow, p.o}, outElementType());
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
  int64_t chunks = threadChunks(tasks, rows);
  int64_t perChunk = (rows + chunks - 1) / chunks;
  scf::ParallelOp::create(
      b, loc, ValueRange{idx(0), idx(0), idx(0)},
      ValueRange{idx(chunks), idx(p.groups), idx(lines)},
      ValueRange{idx(1), idx(1), idx(1)},
      [&](OpBuilder &, Location, ValueRange ivs) {
        Value g = ivs[1], line = ivs[2];
        Value rowLo, rowHi; // captured below: not a structured binding
        std::tie(rowLo, rowHi) = chunkRange(ivs[0], perChunk, rows);
        // `nb` 8-channel blocks over the chunk's rows.
        auto blockRows = [&](Value block, int64_t valid, int64_t nb) {
          scf::ForOp::create(
              b, loc, rowLo, rowHi, idx(1), ValueRange{},
              [&](OpBuilder &, Location, Value r, ValueRange) {
                Value n = arith::DivUIOp::create(b, loc, r, idx(p.oh));
                Value oy = arith::RemUIOp::create(b, loc, r, idx(p.oh));
                auto pixelBlock = [&](Value ox0, int64_t pixels) {
                  p.family().emitPixelBlock(*this, xp, packed, compV, multV,
                                            out, residual, n, oy, ox0, pixels,
                                            g, block, valid, nb);
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
        // The line's whole 8-channel blocks; in pairs (a last odd one
        // alone) where the family has the registers, whose 4 x 16
        // accumulators use each input broadcast twice: with 4 x 8 the
        // broadcasts made the loads the bottleneck (ResNet-50 on avx2's
        // wide-pair path: 58.4 ms for 42.4 with vpmaddubsw).
        if (full && blocksPerRegisterBlock() == 2) {
          auto [blkLo, blkHi] = chunkRange(line, lineBlocks, full);
          Value count = arith::SubIOp::create(b, loc, blkHi, blkLo);
          Value pairsHi = add(
              blkLo, arith::AndIOp::create(b, loc, count, idx(~int64_t(1))));
          scf::ForOp::create(
              b, loc, blkLo, pairsHi, idx(2), ValueRange{},
              [&](OpBuilder &, Location, Value block, ValueRange) {
                blockRows(block, kLanes, 2);
                scf::YieldOp::create(b, loc);
              });
          scf::IfOp::create(b, loc,
                            arith::CmpIOp::create(b, loc,
                                                  arith::CmpIPredicate::ult,
                                                  pairsHi, blkHi),
                            [&](OpBuilder &, Location) {
                              blockRows(pairsHi, kLanes, 1);
                              scf::YieldOp::create(b, loc);
                            });
        } else if (full) {
          auto [blkLo, blkHi] = chunkRange(line, lineBlocks, full);
          scf::ForOp::create(
              b, loc, blkLo, blkHi, idx(1), ValueRange{},
              [&](OpBuilder &, Location, Value block, ValueRange) {
                blockRows(block, kLanes, 1);
                scf::YieldOp::create(b, loc);
              });
        }
        // The partial block (channels OG % 8) is in the last line.
        if (tail)
          scf::IfOp::create(b, loc,
                            arith::CmpIOp::create(b, loc,
                                                  arith::CmpIPredicate::eq,
                                                  line, idx(lines - 1)),
                            [&](OpBuilder &, Location) {
                              blockRows(idx(full), tail, 1);
                              scf::YieldOp::create(b, loc);
                            });
        scf::ReduceOp::create(b, loc);
      });
  // The padded copy is freed by buffer deallocation (which rejects
  // explicit deallocs in its input).
  return out;
}
