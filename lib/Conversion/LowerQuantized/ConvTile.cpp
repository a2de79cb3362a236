//===- ConvTile.cpp - amx-int8 convolution kernels on AMX tiles -----------===//
//
// The implicit GEMM of Conv.cpp on AMX tiles: tdpbusd multiplies a tile of
// 16 pixels x 64 input bytes (u8) by a tile of 16 rows of 16 output
// channels x 4 input bytes (s8) into 16 pixels x 16 channels of int32, 16,384
// products per instruction.
//
// * Weights: the zmm kernel's packed layout (packWeights16x4), shared with
//   the other x86 variants of a dispatching object: at a kernel tap, input
//   channel quads q of an nv-vector channel block are rows of nv * 64 bytes,
//   so 16 consecutive quads of one 16-channel vector are a B tile at row
//   stride nv * 64.
// * Inputs: a pixel's 64 consecutive input bytes are an A tile row. Pixels
//   are "virtual": v = row * pitch + column over the (padded) input's width,
//   so 16 consecutive virtual pixels are 16 rows at a constant stride of one
//   input pixel at every tap (oneDNN's brgemm convolution reads its input
//   the same way); the pitch - OW virtual pixels of each row are computed
//   and dropped. A layer without padding at stride 1 with 1x1 kernels reads
//   its input in place (pitch = OW, no dropped pixel, images contiguous);
//   others read the padded copy of padInput. A block that would run past
//   an image's last output starts earlier instead (it recomputes a few
//   outputs, which are the same), so every tile is 16 whole rows and every
//   read stays inside the image.
// * Blocking: 32 pixels x 32 channels per step (2 A, 2 B and 2x2
//   accumulator tiles: all 8 tiles of the register file, one tile load per
//   tdpbusd), 16 pixels where an image has fewer than 32; a 64-channel
//   block takes two such steps into a 32 x 64 int32 buffer on the stack,
//   then the zmm kernel's requantization (storeZmmBlock) stores its pixels,
//   so the two instruction sets share one epilogue. The accumulator tiles
//   start at the zero-point compensation (ONNX Runtime's MLAS preloads its
//   tiles the same way), a tile load at row stride 0.
// * Loop nest: scf.parallel over (chunk of pixel blocks, group, channel
//   block, image): a channel block's weights stay in L2 over a batch's
//   images; with OpenMP each thread's loop nest is one
//   outlined function, and LLVM configures the tiles (ldtilecfg) on its
//   entry, so every thread configures its own.
//
// The rule (tilesPay): tiles take a dense convolution or linear layer when
// every reduction step is whole tile rows (input channels per group a
// multiple of 64), the stride is 1 (a strided layer's pixels are not one
// stride apart in the padded copy) and an image has at least 16 outputs;
// other layers (the RGB stem, depthwise, strided, few channels, a batch-1
// classifier) keep the zmm kernels.
//
//===----------------------------------------------------------------------===//

#include "ConvEmitter.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::conv;

namespace {

constexpr int64_t kTileRows = 16;  // pixels per A tile, quads per B tile
constexpr int64_t kTileBytes = 64; // bytes per tile row

/// The virtual pixel space of ConvTile.cpp's header.
struct TileGeometry {
  enum Source { InPlace, PaddedCopy, Phases, Im2col } source;
  int64_t images;      // the parallel image dimension
  int64_t span;        // virtual pixels per image
  int64_t pitch;       // virtual pixels per output row (plane columns)
  int64_t planeRows;   // rows of a plane (Phases)
  int64_t imageStride; // plane pixels between images
  int64_t rowsPerStep; // pixels per block: 16 or 32
  // The A tiles' row stride (input pixel, or im2col row) in bytes.
  int64_t rowBytes;
  // Im2col: the reduction (kernel taps x input channels rounded up to 4),
  // rounded up to whole 64-byte tile rows.
  int64_t im2colBytes;
  // Phases: the strided input's planes (ky * dh % sh, kx * dw % sw), rows
  // and columns: phasesY x phasesX planes, phase a of rows at plane
  // a * phasesX + b (a single phase: plane 0, its residues onlyY, onlyX).
  int64_t phasesY, phasesX, onlyY, onlyX;
};

/// The residues of k * dilation modulo stride for k < kernel: all of them
/// (returns stride) or a single one (returns 1, the residue in `only`).
int64_t phaseCount(int64_t kernel, int64_t dilation, int64_t stride,
                   int64_t &only) {
  only = 0;
  if (stride == 1)
    return 1;
  llvm::SmallDenseSet<int64_t> residues;
  for (int64_t k = 0; k < kernel; ++k)
    residues.insert(k * dilation % stride);
  if (residues.size() == 1) {
    only = *residues.begin();
    return 1;
  }
  return stride;
}

TileGeometry tileGeometry(const ConvProblem &p) {
  TileGeometry t;
  bool pads = p.pt || p.pb || p.pl || p.pr;
  int64_t hp = p.h + p.pt + p.pb, wp = p.w + p.pl + p.pr;
  t.phasesY = phaseCount(p.kh, p.dh, p.sh, t.onlyY);
  t.phasesX = phaseCount(p.kw, p.dw, p.sw, t.onlyX);
  t.rowBytes = p.groups * p.cg4;
  t.im2colBytes = 0;
  t.planeRows = 0;
  // One row of pixels over the whole batch, read at a pixel's stride.
  auto flat = [&](TileGeometry::Source source) {
    t.source = source;
    t.images = 1;
    t.span = p.n * p.oh * p.ow;
    t.pitch = p.ow;
    t.imageStride = 0;
  };
  if (p.cg % kTileBytes) {
    // Few input channels (an RGB stem): one row of the whole reduction per
    // output pixel.
    flat(TileGeometry::Im2col);
    t.im2colBytes =
        (p.kh * p.kw * p.cg4 + kTileBytes - 1) / kTileBytes * kTileBytes;
    t.rowBytes = t.im2colBytes;
  } else if (p.kh == 1 && p.kw == 1 && p.sh == 1 && p.sw == 1 && !pads &&
             p.shift == 0) {
    flat(TileGeometry::InPlace);
  } else if (p.sh == 1 && p.sw == 1) {
    t.source = TileGeometry::PaddedCopy;
    t.images = p.n;
    t.span = (p.oh - 1) * wp + p.ow;
    t.pitch = wp;
    t.imageStride = hp * wp;
  } else {
    // Plane (a, b) holds padded pixels (y * sh + a, x * sw + b).
    t.source = TileGeometry::Phases;
    t.images = p.n;
    t.planeRows = (hp + p.sh - 1) / p.sh;
    t.pitch = (wp + p.sw - 1) / p.sw;
    t.span = (p.oh - 1) * t.pitch + p.ow;
    t.imageStride = t.phasesY * t.phasesX * t.planeRows * t.pitch;
  }
  t.rowsPerStep = t.span >= 2 * kTileRows ? 2 * kTileRows : kTileRows;
  return t;
}

/// Emits ConvEmitter::emitTile.
class TileKernel {
public:
  TileKernel(ConvEmitter &e)
      : e(e), b(e.b), loc(e.loc), p(e.p), t(tileGeometry(p)), cx(t.rowBytes),
        taps(p.kh * p.kw), q4(p.cg4 / 4),
        chunksOfK(t.source == TileGeometry::Im2col ? t.im2colBytes / kTileBytes
                                                   : p.cg4 / kTileBytes) {}

  Value emit(Value input, Value residual);

private:
  Value idx(int64_t v) { return e.idx(v); }
  Value add(Value a, Value c) { return e.add(a, c); }
  Value mul(Value a, int64_t c) { return e.mul(a, c); }
  /// The channel block of nv vectors from vector vec0 of group g, for the
  /// pixel blocks [lo, hi) of image n.
  void channelBlock(Value n, Value g, Value vec0, int64_t nv, int64_t valid,
                    bool packedOrder, Value lo, Value hi);
  /// Accumulates vectors [j0, j0 + nt) of the block (nv vectors from vec0)
  /// for the block's pixels (first virtual pixel v0) into `buf`
  /// [rowsPerStep][nv * 16] int32.
  void tiles(Value n, Value g, Value vec0, int64_t nv, int64_t j0, int64_t nt,
             Value v0, Value buf);
  /// for ky, kx (one tap for Im2col), 64-byte chunk kc of the tap's
  /// reduction: the accumulator tiles carried as iter_args.
  ValueRange reduction(
      ValueRange accs,
      function_ref<SmallVector<Value>(Value, Value, Value, SmallVector<Value>)>
          body);
  /// The rows of the whole reduction per output pixel (Im2col).
  Value im2col(Value input);
  /// The plane pixel a tap reads, relative to the output's virtual pixel.
  Value tapOffset(Value ky, Value kx);
  /// The strided input split into the planes of its phases (Phases).
  Value phaseCopy(Value input);
  /// Requantizes and stores the block's pixels from `buf`.
  void store(Value n, Value g, Value vec0, int64_t nv, int64_t valid,
             bool packedOrder, Value v0, Value buf);

  ConvEmitter &e;
  ConversionPatternRewriter &b;
  Location loc;
  const ConvProblem &p;
  const TileGeometry t;
  const int64_t cx, taps, q4, chunksOfK;
  Value x, w, comp, mult, out, res;
};

} // namespace

void TileKernel::tiles(Value n, Value g, Value vec0, int64_t nv, int64_t j0,
                       int64_t nt, Value v0, Value buf) {
  auto bytesTile = amx::TileType::get({kTileRows, kTileBytes}, b.getI8Type());
  auto accTile =
      amx::TileType::get({kTileRows, kTileBytes / 4}, b.getI32Type());
  int64_t mt = t.rowsPerStep / kTileRows;
  int64_t vtot = (p.og + kZLanes - 1) / kZLanes;
  // The accumulators start at the zero-point compensation: each row of
  // vector j's tile is the table's 16 values (a tile load at row stride 0).
  SmallVector<Value> accs;
  for (int64_t i = 0; i < mt; ++i)
    for (int64_t j = 0; j < nt; ++j)
      accs.push_back(amx::TileLoadOp::create(
          b, loc, accTile, comp,
          ValueRange{add(mul(g, vtot * kZLanes),
                         mul(add(vec0, idx(j0 + j)), kZLanes))},
          idx(0)));
  // Pixel v0's window origin (tap 0, first channel of group g).
  Value aBase = add(mul(add(mul(n, t.imageStride), v0), cx), mul(g, p.cg4));
  // The block's packed weights: [KH * KW][Q][nv][64] from wBase.
  Value wBase = mul(add(mul(g, vtot), vec0), taps * q4 * 64);
  Value aStride = idx(cx), bStride = idx(nv * kTileBytes);
  ValueRange result = reduction(accs, [&](Value ky, Value kx, Value kc,
                                          SmallVector<Value> acc) {
    Value tap = tapOffset(ky, kx);
    Value aOff = add(add(aBase, mul(tap, cx)), mul(kc, kTileBytes));
    Value step = add(mul(ky, p.kw), kx);
    Value bOff = add(
        wBase, mul(add(mul(step, q4), mul(kc, kTileRows)), nv * kTileBytes));
    // The A rows of the next 64-byte chunk into L1 (tiles are not
    // renamed, so a tile load waits for the products reading its tile:
    // one from L2 stalls them; ViT-B/16's linear layers 10-20 % faster).
    for (int64_t i = 0; i < mt; ++i)
      for (int64_t r = 0; r < kTileRows; ++r)
        memref::PrefetchOp::create(
            b, loc, x,
            ValueRange{add(aOff, idx((i * kTileRows + r) * cx + kTileBytes))},
            /*isWrite=*/false, /*localityHint=*/3, /*isDataCache=*/true);
    SmallVector<Value> a, w4;
    for (int64_t i = 0; i < mt; ++i)
      a.push_back(amx::TileLoadOp::create(
          b, loc, bytesTile, x, ValueRange{add(aOff, idx(i * kTileRows * cx))},
          aStride));
    for (int64_t j = 0; j < nt; ++j)
      w4.push_back(amx::TileLoadOp::create(
          b, loc, bytesTile, w,
          ValueRange{add(bOff, idx((j0 + j) * kTileBytes))}, bStride));
    for (int64_t i = 0; i < mt; ++i)
      for (int64_t j = 0; j < nt; ++j)
        acc[i * nt + j] = amx::TileMulIOp::create(
            b, loc, accTile, a[i], w4[j], acc[i * nt + j],
            /*isZextLhs=*/true, /*isZextRhs=*/false);
    return acc;
  });
  int64_t rowInts = nv * kZLanes;
  for (int64_t i = 0; i < mt; ++i)
    for (int64_t j = 0; j < nt; ++j)
      amx::TileStoreOp::create(
          b, loc, buf,
          ValueRange{idx(i * kTileRows * rowInts + (j0 + j) * kZLanes)},
          result[i * nt + j], idx(rowInts));
}

void TileKernel::store(Value n, Value g, Value vec0, int64_t nv, int64_t valid,
                       bool packedOrder, Value v0, Value buf) {
  auto v16i32 = VectorType::get({kZLanes}, b.getI32Type());
  int64_t rowInts = nv * kZLanes;
  Value perImage = mul(n, p.oh * p.ow);
  e.forLoop(idx(0), idx(t.rowsPerStep), ValueRange{},
            [&](Value px, ValueRange) {
              Value v = add(v0, px);
              Value oy = arith::DivUIOp::create(b, loc, v, idx(t.pitch));
              Value ox = arith::RemUIOp::create(b, loc, v, idx(t.pitch));
              auto body = [&] {
                SmallVector<Value> finals;
                for (int64_t j = 0; j < nv; ++j) {
                  finals.push_back(vector::LoadOp::create(
                      b, loc, v16i32, buf,
                      ValueRange{add(mul(px, rowInts), idx(j * kZLanes))}));
                }
                Value m = add(perImage, add(mul(oy, p.ow), ox));
                e.storeZmmBlock(finals, mult, out, res, g, vec0, nv, m, 1,
                                valid, packedOrder);
              };
              if (t.pitch == p.ow) {
                body();
              } else {
                Value inside = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::ult, ox, idx(p.ow));
                scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
                  body();
                  scf::YieldOp::create(b, loc);
                });
              }
              return SmallVector<Value>{};
            });
}

ValueRange TileKernel::reduction(
    ValueRange accs,
    function_ref<SmallVector<Value>(Value, Value, Value, SmallVector<Value>)>
        body) {
  bool flat = t.source == TileGeometry::Im2col;
  auto loop = [&](int64_t ub, ValueRange iters,
                  function_ref<SmallVector<Value>(Value, ValueRange)> f) {
    return e.forLoop(idx(0), idx(ub), iters, f);
  };
  return loop(flat ? 1 : p.kh, accs, [&](Value ky, ValueRange a0) {
    return SmallVector<Value>(
        loop(flat ? 1 : p.kw, a0, [&](Value kx, ValueRange a1) {
          return SmallVector<Value>(
              loop(chunksOfK, a1, [&](Value kc, ValueRange a2) {
                return body(ky, kx, kc, SmallVector<Value>(a2));
              }));
        }));
  });
}

Value TileKernel::im2col(Value input) {
  // The padded copy ([N, Hp, Wp, Cg4], zero point at the borders, in the
  // kernel's domain), then per output pixel its kernel rows: with dw = 1 a
  // kernel row's KW * Cg4 bytes are contiguous there.
  int64_t hp = p.h + p.pt + p.pb, wp = p.w + p.pl + p.pr;
  Value xp = e.flatten(e.padInput(input, p.cg4, p.cg4, p.inZp, p.shift != 0));
  int64_t reduction = taps * p.cg4;
  Value col = e.alloc({p.n * p.oh * p.ow * t.im2colBytes}, b.getI8Type());
  int64_t piece = p.dw == 1 ? p.kw * p.cg4 : p.cg4;
  int64_t width = llvm::PowerOf2Ceil(piece);
  auto pieceType = VectorType::get({width}, b.getI8Type());
  Value mask = e.prefixMask(width, piece);
  Value zeros = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(pieceType, b.getI8IntegerAttr(0).getValue()));
  int64_t tail = t.im2colBytes - reduction;
  auto tailType = VectorType::get(
      {(int64_t)llvm::PowerOf2Ceil(std::max<int64_t>(tail, 1))}, b.getI8Type());
  Value tailZeros = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(tailType, b.getI8IntegerAttr(0).getValue()));
  Value tailMask = e.prefixMask(tailType.getNumElements(), tail);
  // The pieces are written in order, each one whole vector: the bytes past
  // a piece are the next one's (written after it) or, past the last one,
  // the row's tail (zeroed last), so only the loads need masks (a masked
  // store crossing a cache line costs several times a plain one). Where the
  // tail is shorter than that overhang, masked stores.
  bool plainStores = width - piece <= tail;
  auto copy = [&](Value from, Value to) {
    Value v = mask ? Value(vector::MaskedLoadOp::create(b, loc, pieceType, xp,
                                                        from, mask, zeros))
                   : Value(vector::LoadOp::create(b, loc, pieceType, xp,
                                                  ValueRange{from}));
    if (mask && !plainStores)
      vector::MaskedStoreOp::create(b, loc, col, to, mask, v);
    else
      vector::StoreOp::create(b, loc, v, col, ValueRange{to});
  };
  scf::ParallelOp::create(
      b, loc, ValueRange{idx(0), idx(0)}, ValueRange{idx(p.n), idx(p.oh)},
      ValueRange{idx(1), idx(1)}, [&](OpBuilder &, Location, ValueRange ivs) {
        Value n = ivs[0], oy = ivs[1];
        e.forLoop(idx(0), idx(p.ow), ValueRange{}, [&](Value ox, ValueRange) {
          Value m = add(mul(add(mul(n, p.oh), oy), p.ow), ox);
          Value row = mul(m, t.im2colBytes);
          for (int64_t ky = 0; ky < p.kh; ++ky)
            for (int64_t kx = 0; kx < (p.dw == 1 ? 1 : p.kw); ++kx) {
              Value y = add(mul(oy, p.sh), idx(ky * p.dh));
              Value xcol = add(mul(ox, p.sw), idx(kx * p.dw));
              Value from = mul(add(mul(add(mul(n, hp), y), wp), xcol), p.cg4);
              copy(from, add(row, idx((ky * p.kw + kx) * p.cg4)));
            }
          if (tail) {
            Value at = add(row, idx(reduction));
            if (tailMask)
              vector::MaskedStoreOp::create(b, loc, col, at, tailMask,
                                            tailZeros);
            else
              vector::StoreOp::create(b, loc, tailZeros, col, ValueRange{at});
          }
          return SmallVector<Value>{};
        });
        scf::ReduceOp::create(b, loc);
      });
  return col;
}

Value TileKernel::tapOffset(Value ky, Value kx) {
  if (t.source != TileGeometry::Phases)
    return add(mul(ky, p.dh * t.pitch), mul(kx, p.dw));
  // Tap (ky, kx) reads plane (ky * dh % sh, kx * dw % sw) at row
  // ky * dh / sh, column kx * dw / sw of the output's pixel.
  Value dy = mul(ky, p.dh), dx = mul(kx, p.dw);
  Value row = arith::DivUIOp::create(b, loc, dy, idx(p.sh));
  Value col = arith::DivUIOp::create(b, loc, dx, idx(p.sw));
  Value plane = idx(0);
  if (t.phasesY > 1)
    plane = mul(arith::RemUIOp::create(b, loc, dy, idx(p.sh)), t.phasesX);
  if (t.phasesX > 1)
    plane = add(plane, arith::RemUIOp::create(b, loc, dx, idx(p.sw)));
  return add(mul(plane, t.planeRows * t.pitch), add(mul(row, t.pitch), col));
}

Value TileKernel::phaseCopy(Value input) {
  auto v64i8 = VectorType::get({kTileBytes}, b.getI8Type());
  int64_t planes = t.phasesY * t.phasesX;
  Value xp = e.alloc({p.n * t.imageStride * cx}, b.getI8Type());
  Value src = e.flatten(input);
  Value zp = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          v64i8, b.getI8IntegerAttr(static_cast<int8_t>(p.inZp)).getValue()));
  Value flip = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          v64i8, b.getI8IntegerAttr(static_cast<int8_t>(0x80)).getValue()));
  // Parallel over (image, plane, plane row): each plane pixel is the padded
  // input's pixel (row * sh + a, column * sw + b), copied 64 bytes at a
  // time (its top bit flipped into the kernel's domain), or the zero point
  // where that pixel is padding.
  scf::ParallelOp::create(
      b, loc, ValueRange{idx(0), idx(0), idx(0)},
      ValueRange{idx(p.n), idx(planes), idx(t.planeRows)},
      ValueRange{idx(1), idx(1), idx(1)},
      [&](OpBuilder &, Location, ValueRange ivs) {
        Value n = ivs[0], plane = ivs[1], r = ivs[2];
        Value a =
            t.phasesY > 1
                ? Value(arith::DivUIOp::create(b, loc, plane, idx(t.phasesX)))
                : idx(t.onlyY);
        Value bx =
            t.phasesX > 1
                ? Value(arith::RemUIOp::create(b, loc, plane, idx(t.phasesX)))
                : idx(t.onlyX);
        Value y =
            arith::SubIOp::create(b, loc, add(mul(r, p.sh), a), idx(p.pt));
        Value rowInside = arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, y, idx(0)),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y,
                                  idx(p.h)));
        Value dstRow =
            mul(add(mul(add(mul(n, planes), plane), t.planeRows), r), t.pitch);
        e.forLoop(idx(0), idx(t.pitch), ValueRange{}, [&](Value c, ValueRange) {
          Value xcol =
              arith::SubIOp::create(b, loc, add(mul(c, p.sw), bx), idx(p.pl));
          Value inside = arith::AndIOp::create(
              b, loc, rowInside,
              arith::AndIOp::create(
                  b, loc,
                  arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, xcol,
                                        idx(0)),
                  arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, xcol,
                                        idx(p.w))));
          Value dst = mul(add(dstRow, c), cx);
          scf::IfOp::create(
              b, loc, inside,
              [&](OpBuilder &, Location) {
                Value from = mul(add(mul(add(mul(n, p.h), y), p.w), xcol), cx);
                for (int64_t k = 0; k < cx; k += kTileBytes) {
                  Value v = vector::LoadOp::create(
                      b, loc, v64i8, src, ValueRange{add(from, idx(k))});
                  if (p.shift != 0)
                    v = arith::XOrIOp::create(b, loc, v, flip);
                  vector::StoreOp::create(b, loc, v, xp,
                                          ValueRange{add(dst, idx(k))});
                }
                scf::YieldOp::create(b, loc);
              },
              [&](OpBuilder &, Location) {
                for (int64_t k = 0; k < cx; k += kTileBytes)
                  vector::StoreOp::create(b, loc, zp, xp,
                                          ValueRange{add(dst, idx(k))});
                scf::YieldOp::create(b, loc);
              });
          return SmallVector<Value>{};
        });
        scf::ReduceOp::create(b, loc);
      });
  return xp;
}

void TileKernel::channelBlock(Value n, Value g, Value vec0, int64_t nv,
                              int64_t valid, bool packedOrder, Value lo,
                              Value hi) {
  // The block's int32 results, 64-byte aligned on the stack (one per
  // thread: it is allocated in the parallel loop's body).
  Value buf =
      memref::AllocaOp::create(
          b, loc,
          MemRefType::get({t.rowsPerStep * nv * kZLanes}, b.getI32Type()),
          b.getI64IntegerAttr(64))
          .getResult();
  e.forLoop(lo, hi, ValueRange{}, [&](Value blk, ValueRange) {
    // The last block of an image starts early enough to end at its last
    // virtual pixel.
    Value v0 = arith::MinSIOp::create(b, loc, mul(blk, t.rowsPerStep),
                                      idx(t.span - t.rowsPerStep));
    for (int64_t j0 = 0; j0 < nv; j0 += 2)
      tiles(n, g, vec0, nv, j0, std::min<int64_t>(2, nv - j0), v0, buf);
    store(n, g, vec0, nv, valid, packedOrder, v0, buf);
    return SmallVector<Value>{};
  });
}

Value TileKernel::emit(Value input, Value residual) {
  x = t.source == TileGeometry::Im2col    ? im2col(input)
      : t.source == TileGeometry::InPlace ? e.flatten(input)
      : t.source == TileGeometry::PaddedCopy
          ? e.flatten(e.padInput(input, p.cg4, cx, p.inZp, p.shift != 0))
          : phaseCopy(input);
  ChannelBlocks cb = channelBlocks(p.og);
  w = e.packWeights16x4();
  auto [comp2, mult2] =
      e.compMultTables(p.groups, cb.vectors * kZLanes, p.og, cb.full * 64);
  comp = e.flatten(comp2), mult = e.flatten(mult2);
  auto outType = MemRefType::get({p.n, p.oh, p.ow, p.o}, b.getI8Type());
  Value outBuf = memref::AllocOp::create(b, loc, outType);
  out = e.flatten(outBuf);
  res = residual ? e.flatten(residual) : Value();

  int64_t blocks = (t.span + t.rowsPerStep - 1) / t.rowsPerStep;
  int64_t cbCount = cb.full + (cb.rest ? 1 : 0);
  int64_t chunks =
      ConvEmitter::threadChunks(t.images * p.groups * cbCount, blocks / 2);
  int64_t perChunk = (blocks + chunks - 1) / chunks;
  scf::ParallelOp::create(
      b, loc, ValueRange{idx(0), idx(0), idx(0), idx(0)},
      ValueRange{idx(chunks), idx(p.groups), idx(cbCount), idx(t.images)},
      ValueRange{idx(1), idx(1), idx(1), idx(1)},
      [&](OpBuilder &, Location, ValueRange ivs) {
        // Images innermost: a channel block's weights stay in L2 over the
        // batch's images.
        Value c = ivs[0], g = ivs[1], blockIdx = ivs[2], n = ivs[3];
        auto [lo, hi] = e.chunkRange(c, perChunk, blocks);
        auto full = [&] {
          channelBlock(n, g, mul(blockIdx, 4), 4, kZLanes, true, lo, hi);
        };
        auto rest = [&] {
          channelBlock(n, g, idx(cb.full * 4), cb.rest, cb.tailValid, false, lo,
                       hi);
        };
        if (!cb.rest) {
          full();
        } else if (!cb.full) {
          rest();
        } else {
          Value isRest = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                               blockIdx, idx(cb.full));
          scf::IfOp::create(
              b, loc, isRest,
              [&](OpBuilder &, Location) {
                rest();
                scf::YieldOp::create(b, loc);
              },
              [&](OpBuilder &, Location) {
                full();
                scf::YieldOp::create(b, loc);
              });
        }
        scf::ReduceOp::create(b, loc);
      });
  return outBuf;
}

/// The rule of the header, on the problem alone (the instruction set
/// aside).
static bool tilesTake(const ConvProblem &p) {
  if (p.groups == p.c && p.cg == 1 && p.og == 1) // depthwise
    return false;
  // Not whole tile rows per tap: the whole reduction as one row per pixel
  // (im2col) where it is long enough to fill a few tile rows.
  if (p.cg % kTileBytes && (p.groups != 1 || p.kh * p.kw == 1 ||
                            p.kh * p.kw * p.cg4 < 2 * kTileBytes))
    return false;
  return tileGeometry(p).span >= kTileRows;
}

bool ConvEmitter::tilesPay() const { return tilesTake(p); }

int64_t mlir::qnt::conv::tileWeightSlack(const ConvProblem &p) {
  int64_t quads = p.kh * p.kw * p.cg4 / 4;
  if (!tilesTake(p) || tileGeometry(p).source != TileGeometry::Im2col ||
      quads % kTileRows == 0)
    return 0;
  return (kTileRows - quads % kTileRows) * 4 * kTileBytes;
}

Value ConvEmitter::emitTile(Value input, Value residual) {
  return TileKernel(*this).emit(input, residual);
}

std::string ConvEmitter::tilePath() const {
  TileGeometry t = tileGeometry(p);
  return p.info().name.str() + ": tdpbusd tiles, " +
         std::to_string(t.rowsPerStep) + " pixels x 32 channels per step (" +
         std::to_string(t.rowsPerStep / kTileRows) + "x2 accumulator tiles), " +
         (t.source == TileGeometry::Im2col
              ? "im2col rows of " + std::to_string(t.im2colBytes) + " bytes"
          : t.source == TileGeometry::InPlace ? "input read in place"
          : t.source == TileGeometry::PaddedCopy
              ? "padded input copy"
              : "padded input copy split into " +
                    std::to_string(t.phasesY * t.phasesX) + " stride phase" +
                    (t.phasesY * t.phasesX > 1 ? "s" : "")) +
         ", zmm requantization";
}
