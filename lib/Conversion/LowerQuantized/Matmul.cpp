//===- Matmul.cpp - qnt.matmul (two activations) to int8 vector kernels ---===//
//
// A matmul of two quantized activations, [B, M, K] x [B, K, N] (attention's
// Q x K^T and scores x V), on the convolution kernels' dot-product
// instructions; nothing is known at compile time but the shapes and the
// quantization parameters, so both operands are packed at run time:
//
//   lhs' = lhs moved into the kernel's input domain (u8 for x86, s8 for
//          AArch64: the top bit flipped where the storage differs), each row
//          copied to a stride of a multiple of 32 bytes, zero-padded past K
//          (rows of 4-byte quads);
//   rhs' = rhs moved into s8 (u8 storage: the top bit flipped), packed per
//          panel of W columns (W = 16 on zmm, else 8) as [K / 4][W][4]
//          bytes (the dot instruction's weight layout; [K / 4][4][W] on the
//          exact path), zero-padded past K and N.
// On avx2 where vpmaddubsw could saturate, both are widened to 16 bits
// while packing (lhs' zero-extended, rhs' sign-extended into pairs
// [K / 4][2][W][2]) and vpmaddwd adds two exact products per int32 lane.
//
// With z' the zero points in those domains, sum_k (a - za)(b - zb) =
// sum_k a' b' - zb' * rowsum(a') - za' * colsum(b') + K * za' * zb': the
// packing computes comp[n] = K za' zb' - za' colsum(b')[n] and, unless
// zb' = 0, rowterm[m] = -zb' rowsum(a')[m], which initialize the
// accumulators; the inner loop is pure dot products (int32 wrap-around
// arithmetic is exact because the true sum fits int32, which the op's
// verifier checks). The epilogue is the convolution's requantization
// (ConvEmitter::epilogue) with the one multiplier s_lhs * s_rhs / s_out.
//
// Register blocks of R rows x nv vectors of W columns (zmm: 6 x 4, else
// 4 x 2): per quad, nv weight loads and one dword broadcast per row feed
// R * nv dot instructions. The last row block re-reads and re-writes the
// last row instead of running shorter (same values, same thread). Packing
// runs in an scf.parallel over the batch, the kernel in one over (batch,
// chunk of row blocks).
//
// avx2's vpmaddubsw saturates 16-bit pair sums: it is used when the operand
// ranges prove |a1 b1 + a2 b2| <= 32767 (7-bit activations do), else the
// 16-bit pairs above, as for convolutions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "ConvEmitter.h"

#include "mlir/Dialect/AMX/AMXDialect.h"

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::conv;

/// Rows per step of the tile kernel: 32 (2x2 accumulator tiles), 16 for a
/// matmul of fewer rows.
static int64_t tileRows(const MatmulShape &s) { return s.m >= 32 ? 32 : 16; }

std::string ConvEmitter::matmulPathName() const {
  if (p.matmul && p.family().matmulTiles(*p.matmul))
    return "matmul: " + p.info().name.str() + ": " + p.family().matmulPath(p) +
           ", " + std::to_string(tileRows(*p.matmul)) +
           " rows x 32 columns per step, both operands packed at run time "
           "to whole 64-byte tile rows";
  MatmulBlock blk = p.family().matmulBlock(p);
  return "matmul: " + p.info().name.str() + ": " + p.family().matmulPath(p) +
         ", " + std::to_string(blk.rows) + " rows x " +
         std::to_string(blk.lanes * blk.vectors) +
         " columns, both operands packed at run time";
}

namespace {

/// The qnt.matmul kernel of one problem (the file header describes it):
/// the packing of both operands (packLhsRow, packPanel, packQuad), then
/// register blocks (block: initAccumulators, one step per weight layout,
/// storeBlock) over the batch and chunks of row blocks (emitKernel). Built
/// on ConvEmitter's helpers; the dot steps are the kernel family's.
class MatmulEmitter {
public:
  explicit MatmulEmitter(ConvEmitter &e);
  Value emit(Value lhs, Value rhs);

private:
  Value idx(int64_t v) { return e.idx(v); }
  Value add(Value a, Value c) { return e.add(a, c); }
  Value mul(Value a, int64_t c) { return e.mul(a, c); }

  /// Row m of batch bi of the lhs into `ap` (and its rowTerm).
  void packLhsRow(Value lhs, Value bi, Value m, Value padA);
  /// Column panel v of batch bi of the rhs into `bp` (`valid` columns) and
  /// its comp.
  void packPanel(Value rhs, Value bi, Value v, int64_t valid, Value padB);
  /// Rows 4q .. 4q + rows - 1 of the panel at column n0, interleaved into
  /// the weight layout; returns colSum plus their sums.
  Value packQuad(Value rhs, Value bi, Value v, Value n0, Value mask, Value padB,
                 Value q, int64_t rows, Value colSum);
  /// One register block: rows m0 .. m0 + R - 1 (clamped to M - 1) x vectors
  /// v0 .. v0 + nv - 1; `lastValid` columns in the last vector.
  void block(Value bi, Value m0, Value v0, int64_t nv, int64_t lastValid);
  SmallVector<Value> initAccumulators(Value bi, ArrayRef<Value> rows, Value v0,
                                      int64_t nv);
  /// One quad of K (q, from k0) on each layout's path.
  void stepPairs(SmallVectorImpl<Value> &acc, Value bi, ArrayRef<Value> rows,
                 Value v0, int64_t nv, Value q, Value k0);
  void stepDot(SmallVectorImpl<Value> &acc, Value bi, ArrayRef<Value> rows,
               Value v0, int64_t nv, Value q, Value k0);
  void stepColumns(SmallVectorImpl<Value> &acc, Value bi, ArrayRef<Value> rows,
                   Value v0, int64_t nv, Value q, Value k0);
  void storeBlock(ValueRange result, Value bi, ArrayRef<Value> rows, Value v0,
                  int64_t nv, int64_t lastValid);
  /// Requantizes `acc` and stores it at row `row`, vector `v` of the output
  /// (its first `valid` columns).
  void storeVector(Value acc, Value bi, Value row, Value v, int64_t valid);
  /// The register blocks, parallel over (batch, chunk of row blocks).
  void emitKernel();
  /// The tile kernel (KernelFamily::matmulTiles), parallel the same way:
  /// steps of 32 rows x 32 columns on 2x2 accumulator tiles (16 rows where
  /// M < 32; the last row block ends at row M - 1), stored through a stack
  /// buffer into the same requantization.
  void emitTileKernel();
  /// One step: rows m0.. x vectors v0 .. v0 + nt - 1 into `buf` [rows][32].
  void tileStep(Value bi, Value m0, Value v0, int64_t nt, Value buf);
  void storeTileStep(Value bi, Value m0, Value v0, int64_t nt,
                     int64_t lastValid, Value buf);

  ConvEmitter &e;
  ConversionPatternRewriter &b;
  Location loc;
  const ConvProblem &p;
  const MatmulShape &s;
  const bool dot, wide, tiles;
  const MatmulBlock blk;
  const int64_t W, q4, rowStride, fullVectors, tailCols, vectors;
  const bool flipA, flipB;
  const int32_t za, zb;
  Type i8, i16, i32;
  VectorType vWi8, vWi32, v4Wi8, v32i8, v32i32;
  /// The packed operands, their compensation terms, the output and the
  /// multiplier.
  Value ap, bp, comp, rowTerm, out, mult;
};

} // namespace

MatmulEmitter::MatmulEmitter(ConvEmitter &e)
    : e(e), b(e.b), loc(e.loc), p(e.p), s(*e.p.matmul), dot(e.usesDot()),
      wide(e.widePairs()), tiles(p.family().matmulTiles(s)),
      blk(p.family().matmulBlock(p)), W(blk.lanes),
      // Tiles read whole 64-byte rows: K padded to 64 (16 quads).
      q4(tiles ? (s.k + 63) / 64 * 16 : (s.k + 3) / 4),
      rowStride(tiles ? (s.k + 63) / 64 * 64 : (s.k + 31) / 32 * 32),
      fullVectors(s.n / W), tailCols(s.n % W),
      vectors(fullVectors + (tailCols ? 1 : 0)), flipA(p.shift != 0),
      flipB(s.rhsShift != 0), za(p.inZp), zb(s.rhsZp) {
  i8 = b.getI8Type(), i16 = b.getI16Type(), i32 = b.getI32Type();
  vWi8 = VectorType::get({W}, i8), vWi32 = VectorType::get({W}, i32);
  v4Wi8 = VectorType::get({4 * W}, i8);
  v32i8 = VectorType::get({32}, i8), v32i32 = VectorType::get({32}, i32);
}

Value MatmulEmitter::emit(Value lhs, Value rhs) {
  // The packed operands' element: i16 on the wide-pair path.
  Type packedElt = wide ? Type(i16) : Type(i8);
  ap = e.alloc({s.batch, s.m, rowStride}, packedElt);
  bp = e.alloc({s.batch, vectors, q4, 4 * W}, packedElt);
  comp = e.alloc({s.batch, vectors * W}, i32);
  rowTerm = zb ? e.alloc({s.batch, s.m}, i32) : Value();
  out = e.alloc({s.batch, s.m, s.n}, i8);

  // Packing, parallel over the batch.
  scf::ParallelOp::create(
      b, loc, ValueRange{idx(0)}, ValueRange{idx(s.batch)}, ValueRange{idx(1)},
      [&](OpBuilder &, Location, ValueRange ivs) {
        Value bi = ivs[0];
        // lhs rows: 32-byte chunks, the last one masked (its padding reads
        // as the value that flips to 0).
        Value padA = e.splat(v32i8, flipA ? -128 : 0);
        scf::ForOp::create(b, loc, idx(0), idx(s.m), idx(1), ValueRange{},
                           [&](OpBuilder &, Location, Value m, ValueRange) {
                             packLhsRow(lhs, bi, m, padA);
                             scf::YieldOp::create(b, loc);
                           });
        // rhs panels: quads of 4 rows, interleaved into the dot layout.
        Value padB = e.splat(vWi8, flipB ? -128 : 0);
        if (fullVectors)
          scf::ForOp::create(b, loc, idx(0), idx(fullVectors), idx(1),
                             ValueRange{},
                             [&](OpBuilder &, Location, Value v, ValueRange) {
                               packPanel(rhs, bi, v, W, padB);
                               scf::YieldOp::create(b, loc);
                             });
        if (tailCols)
          packPanel(rhs, bi, idx(fullVectors), tailCols, padB);
        scf::ReduceOp::create(b, loc);
      });

  mult = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(VectorType::get({W}, b.getF32Type()),
                             b.getF32FloatAttr(s.mult).getValue()));
  if (tiles)
    emitTileKernel();
  else
    emitKernel();
  return out;
}

void MatmulEmitter::packLhsRow(Value lhs, Value bi, Value m, Value padA) {
  Value sum = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  for (int64_t c = 0; c < rowStride; c += 32) {
    int64_t valid = std::min<int64_t>(32, s.k - c);
    Value v = padA;
    if (valid > 0) {
      Value mask = e.prefixMask(32, valid);
      v = mask ? Value(vector::MaskedLoadOp::create(
                     b, loc, v32i8, lhs, ValueRange{bi, m, idx(c)}, mask, padA))
               : Value(vector::LoadOp::create(b, loc, v32i8, lhs,
                                              ValueRange{bi, m, idx(c)}));
    }
    if (flipA)
      v = arith::XOrIOp::create(b, loc, v, e.splat(v32i8, -128));
    vector::StoreOp::create(b, loc,
                            wide ? Value(arith::ExtUIOp::create(
                                       b, loc, VectorType::get({32}, i16), v))
                                 : v,
                            ap, ValueRange{bi, m, idx(c)});
    if (zb && valid > 0) {
      Value wide = p.domainSigned
                       ? Value(arith::ExtSIOp::create(b, loc, v32i32, v))
                       : Value(arith::ExtUIOp::create(b, loc, v32i32, v));
      sum =
          arith::AddIOp::create(b, loc, sum,
                                vector::ReductionOp::create(
                                    b, loc, vector::CombiningKind::ADD, wide));
    }
  }
  if (zb)
    memref::StoreOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc, sum,
            arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(-zb))),
        rowTerm, ValueRange{bi, m});
}

Value MatmulEmitter::packQuad(Value rhs, Value bi, Value v, Value n0,
                              Value mask, Value padB, Value q, int64_t rows,
                              Value colSum) {
  SmallVector<Value> r;
  for (int64_t i = 0; i < 4; ++i) {
    Value x = e.splat(vWi8, 0);
    if (i < rows) {
      Value k = add(mul(q, 4), idx(i));
      x = mask ? Value(vector::MaskedLoadOp::create(
                     b, loc, vWi8, rhs, ValueRange{bi, k, n0}, mask, padB))
               : Value(vector::LoadOp::create(b, loc, vWi8, rhs,
                                              ValueRange{bi, k, n0}));
      if (flipB)
        x = arith::XOrIOp::create(b, loc, x, e.splat(vWi8, -128));
      colSum = arith::AddIOp::create(b, loc, colSum,
                                     arith::ExtSIOp::create(b, loc, vWi32, x));
    }
    r.push_back(x);
  }
  if (!dot && !wide) {
    for (int64_t i = 0; i < 4; ++i)
      vector::StoreOp::create(b, loc, r[i], bp,
                              ValueRange{bi, v, q, idx(i * W)});
    return colSum;
  }
  // Lane j of the 4W bytes: r0[j], r1[j], r2[j], r3[j] (dot); of each half
  // of the 4W words: r0[j], r1[j] then r2[j], r3[j] (wide).
  SmallVector<int64_t> pairs, quads;
  for (int64_t j = 0; j < W; ++j) {
    pairs.push_back(j);
    pairs.push_back(W + j);
  }
  for (int64_t j = 0; j < W; ++j)
    for (int64_t t : {2 * j, 2 * j + 1, 2 * W + 2 * j, 2 * W + 2 * j + 1})
      quads.push_back(t);
  Value t01 = vector::ShuffleOp::create(b, loc, r[0], r[1], pairs);
  Value t23 = vector::ShuffleOp::create(b, loc, r[2], r[3], pairs);
  if (wide) {
    auto v2Wi16 = VectorType::get({2 * W}, i16);
    vector::StoreOp::create(b, loc, arith::ExtSIOp::create(b, loc, v2Wi16, t01),
                            bp, ValueRange{bi, v, q, idx(0)});
    vector::StoreOp::create(b, loc, arith::ExtSIOp::create(b, loc, v2Wi16, t23),
                            bp, ValueRange{bi, v, q, idx(2 * W)});
  } else {
    Value packed = vector::ShuffleOp::create(b, loc, t01, t23, quads);
    vector::StoreOp::create(b, loc, packed, bp, ValueRange{bi, v, q, idx(0)});
  }
  return colSum;
}

void MatmulEmitter::packPanel(Value rhs, Value bi, Value v, int64_t valid,
                              Value padB) {
  Value n0 = mul(v, W);
  Value mask = e.prefixMask(W, valid);
  Value colSum = e.splat(vWi32, 0);
  colSum = e.forLoop(idx(0), idx(s.k / 4), ValueRange{colSum},
                     [&](Value q, ValueRange args) {
                       return SmallVector<Value>{
                           packQuad(rhs, bi, v, n0, mask, padB, q, 4, args[0])};
                     })[0];
  if (s.k % 4)
    colSum =
        packQuad(rhs, bi, v, n0, mask, padB, idx(s.k / 4), s.k % 4, colSum);
  // Zero quads up to the tiles' padded K.
  int64_t packed = (s.k + 3) / 4;
  if (q4 > packed)
    e.forLoop(idx(packed), idx(q4), ValueRange{}, [&](Value q, ValueRange) {
      vector::StoreOp::create(b, loc, e.splat(v4Wi8, 0), bp,
                              ValueRange{bi, v, q, idx(0)});
      return SmallVector<Value>{};
    });
  // comp = K za' zb' - za' colsum.
  Value c = arith::SubIOp::create(
      b, loc, e.splat(vWi32, int64_t(s.k) * za * zb),
      arith::MulIOp::create(b, loc, colSum, e.splat(vWi32, za)));
  vector::StoreOp::create(b, loc, c, comp, ValueRange{bi, n0});
}

SmallVector<Value> MatmulEmitter::initAccumulators(Value bi,
                                                   ArrayRef<Value> rows,
                                                   Value v0, int64_t nv) {
  SmallVector<Value> accs;
  for (int64_t r = 0; r < blk.rows; ++r) {
    Value rt;
    if (zb)
      rt = vector::BroadcastOp::create(
          b, loc, vWi32,
          memref::LoadOp::create(b, loc, rowTerm, ValueRange{bi, rows[r]}));
    for (int64_t j = 0; j < nv; ++j) {
      Value c = vector::LoadOp::create(b, loc, vWi32, comp,
                                       ValueRange{bi, mul(add(v0, idx(j)), W)});
      accs.push_back(rt ? Value(arith::AddIOp::create(b, loc, c, rt)) : c);
    }
  }
  return accs;
}

void MatmulEmitter::stepPairs(SmallVectorImpl<Value> &acc, Value bi,
                              ArrayRef<Value> rows, Value v0, int64_t nv,
                              Value q, Value k0) {
  auto v2Wi16 = VectorType::get({2 * W}, i16);
  auto v2i16 = VectorType::get({2}, i16);
  SmallVector<Value> w;
  for (int64_t j = 0; j < nv; ++j)
    for (int64_t h = 0; h < 2; ++h)
      w.push_back(vector::LoadOp::create(
          b, loc, v2Wi16, bp,
          ValueRange{bi, add(v0, idx(j)), q, idx(h * 2 * W)}));
  for (int64_t r = 0; r < blk.rows; ++r)
    for (int64_t h = 0; h < 2; ++h) {
      Value pair = vector::LoadOp::create(
          b, loc, v2i16, ap, ValueRange{bi, rows[r], add(k0, idx(2 * h))});
      for (int64_t j = 0; j < nv; ++j)
        acc[r * nv + j] = e.dotPair(acc[r * nv + j], pair, w[j * 2 + h]);
    }
}

void MatmulEmitter::stepDot(SmallVectorImpl<Value> &acc, Value bi,
                            ArrayRef<Value> rows, Value v0, int64_t nv, Value q,
                            Value k0) {
  auto v1i32 = VectorType::get({1}, i32);
  auto v4i8 = VectorType::get({4}, i8);
  SmallVector<Value> w;
  for (int64_t j = 0; j < nv; ++j)
    w.push_back(vector::LoadOp::create(
        b, loc, v4Wi8, bp, ValueRange{bi, add(v0, idx(j)), q, idx(0)}));
  for (int64_t r = 0; r < blk.rows; ++r) {
    Value quad =
        vector::LoadOp::create(b, loc, v4i8, ap, ValueRange{bi, rows[r], k0});
    Value word = vector::ExtractOp::create(
        b, loc, vector::BitCastOp::create(b, loc, v1i32, quad), 0);
    Value xv = vector::BitCastOp::create(
        b, loc, v4Wi8, vector::BroadcastOp::create(b, loc, vWi32, word));
    for (int64_t j = 0; j < nv; ++j)
      acc[r * nv + j] = e.dot4(acc[r * nv + j], xv, w[j]);
  }
}

void MatmulEmitter::stepColumns(SmallVectorImpl<Value> &acc, Value bi,
                                ArrayRef<Value> rows, Value v0, int64_t nv,
                                Value q, Value k0) {
  for (int64_t t = 0; t < 4; ++t) {
    SmallVector<Value> w;
    for (int64_t j = 0; j < nv; ++j)
      w.push_back(arith::ExtSIOp::create(
          b, loc, vWi32,
          vector::LoadOp::create(
              b, loc, vWi8, bp,
              ValueRange{bi, add(v0, idx(j)), q, idx(t * W)})));
    for (int64_t r = 0; r < blk.rows; ++r) {
      Value x = memref::LoadOp::create(
          b, loc, ap, ValueRange{bi, rows[r], add(k0, idx(t))});
      Value x32 = p.domainSigned
                      ? Value(arith::ExtSIOp::create(b, loc, i32, x))
                      : Value(arith::ExtUIOp::create(b, loc, i32, x));
      Value xs = vector::BroadcastOp::create(b, loc, vWi32, x32);
      for (int64_t j = 0; j < nv; ++j)
        acc[r * nv + j] = arith::AddIOp::create(
            b, loc, acc[r * nv + j], arith::MulIOp::create(b, loc, xs, w[j]));
    }
  }
}

void MatmulEmitter::storeBlock(ValueRange result, Value bi,
                               ArrayRef<Value> rows, Value v0, int64_t nv,
                               int64_t lastValid) {
  for (int64_t r = 0; r < blk.rows; ++r)
    for (int64_t j = 0; j < nv; ++j)
      storeVector(result[r * nv + j], bi, rows[r], add(v0, idx(j)),
                  j == nv - 1 ? lastValid : W);
}

void MatmulEmitter::storeVector(Value acc, Value bi, Value row, Value v,
                                int64_t valid) {
  Value bytes =
      arith::TruncIOp::create(b, loc, vWi8, e.epilogue(acc, mult, Value()));
  SmallVector<Value> at{bi, row, mul(v, W)};
  if (Value mask = e.prefixMask(W, valid))
    vector::MaskedStoreOp::create(b, loc, out, at, mask, bytes);
  else
    vector::StoreOp::create(b, loc, bytes, out, at);
}

void MatmulEmitter::block(Value bi, Value m0, Value v0, int64_t nv,
                          int64_t lastValid) {
  SmallVector<Value> rows;
  for (int64_t r = 0; r < blk.rows; ++r)
    rows.push_back(
        arith::MinSIOp::create(b, loc, add(m0, idx(r)), idx(s.m - 1)));
  SmallVector<Value> accs = initAccumulators(bi, rows, v0, nv);
  ValueRange result =
      e.forLoop(idx(0), idx(q4), accs, [&](Value q, ValueRange args) {
        SmallVector<Value> acc(args.begin(), args.end());
        Value k0 = mul(q, 4);
        if (wide)
          stepPairs(acc, bi, rows, v0, nv, q, k0);
        else if (dot)
          stepDot(acc, bi, rows, v0, nv, q, k0);
        else
          stepColumns(acc, bi, rows, v0, nv, q, k0);
        return acc;
      });
  storeBlock(result, bi, rows, v0, nv, lastValid);
}

void MatmulEmitter::tileStep(Value bi, Value m0, Value v0, int64_t nt,
                             Value buf) {
  auto bytesTile = amx::TileType::get({16, 64}, i8);
  auto accTile = amx::TileType::get({16, 16}, i32);
  int64_t mt = tileRows(s) / 16;
  // The accumulators start at comp (rows at stride 0); the row terms are
  // added in the epilogue.
  SmallVector<Value> accs;
  for (int64_t i = 0; i < mt; ++i)
    for (int64_t j = 0; j < nt; ++j)
      accs.push_back(amx::TileLoadOp::create(
          b, loc, accTile, comp, ValueRange{bi, mul(add(v0, idx(j)), W)},
          idx(0)));
  ValueRange result = e.forLoop(
      idx(0), idx(rowStride / 64), accs, [&](Value kc, ValueRange args) {
        SmallVector<Value> acc(args.begin(), args.end()), a, w;
        for (int64_t i = 0; i < mt; ++i)
          a.push_back(amx::TileLoadOp::create(
              b, loc, bytesTile, ap,
              ValueRange{bi, add(m0, idx(16 * i)), mul(kc, 64)},
              idx(rowStride)));
        for (int64_t j = 0; j < nt; ++j)
          w.push_back(amx::TileLoadOp::create(
              b, loc, bytesTile, bp,
              ValueRange{bi, add(v0, idx(j)), mul(kc, 16), idx(0)},
              idx(4 * W)));
        for (int64_t i = 0; i < mt; ++i)
          for (int64_t j = 0; j < nt; ++j)
            acc[i * nt + j] = amx::TileMulIOp::create(
                b, loc, accTile, a[i], w[j], acc[i * nt + j],
                /*isZextLhs=*/!p.domainSigned, /*isZextRhs=*/false);
        return acc;
      });
  for (int64_t i = 0; i < mt; ++i)
    for (int64_t j = 0; j < nt; ++j)
      amx::TileStoreOp::create(b, loc, buf,
                               ValueRange{idx(16 * i * 2 * W + j * W)},
                               result[i * nt + j], idx(2 * W));
}

void MatmulEmitter::storeTileStep(Value bi, Value m0, Value v0, int64_t nt,
                                  int64_t lastValid, Value buf) {
  e.forLoop(idx(0), idx(tileRows(s)), ValueRange{}, [&](Value r, ValueRange) {
    Value row = add(m0, r);
    Value rt;
    if (zb)
      rt = vector::BroadcastOp::create(
          b, loc, vWi32,
          memref::LoadOp::create(b, loc, rowTerm, ValueRange{bi, row}));
    for (int64_t j = 0; j < nt; ++j) {
      Value acc = vector::LoadOp::create(
          b, loc, vWi32, buf, ValueRange{add(mul(r, 2 * W), idx(j * W))});
      if (rt)
        acc = arith::AddIOp::create(b, loc, acc, rt);
      storeVector(acc, bi, row, add(v0, idx(j)), j == nt - 1 ? lastValid : W);
    }
    return SmallVector<Value>{};
  });
}

void MatmulEmitter::emitTileKernel() {
  const int64_t rows = tileRows(s);
  const int64_t rowBlocks = (s.m + rows - 1) / rows;
  const int64_t pairs = fullVectors / 2;
  const int64_t restVectors = fullVectors % 2 + (tailCols ? 1 : 0);
  const int64_t chunks = ConvEmitter::threadChunks(s.batch, rowBlocks);
  const int64_t perChunk = (rowBlocks + chunks - 1) / chunks;
  scf::ParallelOp::create(
      b, loc, ValueRange{idx(0), idx(0)}, ValueRange{idx(s.batch), idx(chunks)},
      ValueRange{idx(1), idx(1)}, [&](OpBuilder &, Location, ValueRange ivs) {
        Value bi = ivs[0];
        Value buf = memref::AllocaOp::create(
                        b, loc, MemRefType::get({rows * 2 * W}, i32),
                        b.getI64IntegerAttr(64))
                        .getResult();
        auto [lo, hi] = e.chunkRange(ivs[1], perChunk, rowBlocks);
        e.forLoop(lo, hi, ValueRange{}, [&](Value rb, ValueRange) {
          // The last block ends at the last row (recomputing a few rows).
          Value m0 =
              arith::MinSIOp::create(b, loc, mul(rb, rows), idx(s.m - rows));
          if (pairs)
            e.forLoop(idx(0), idx(pairs), ValueRange{},
                      [&](Value pr, ValueRange) {
                        Value v0 = mul(pr, 2);
                        tileStep(bi, m0, v0, 2, buf);
                        storeTileStep(bi, m0, v0, 2, W, buf);
                        return SmallVector<Value>{};
                      });
          if (restVectors) {
            Value v0 = idx(pairs * 2);
            tileStep(bi, m0, v0, restVectors, buf);
            storeTileStep(bi, m0, v0, restVectors, tailCols ? tailCols : W,
                          buf);
          }
          return SmallVector<Value>{};
        });
        scf::ReduceOp::create(b, loc);
      });
}

void MatmulEmitter::emitKernel() {
  // Column blocks: full ones of blk.vectors whole vectors, then the rest
  // (whole vectors and the partial one).
  const int64_t fullBlocks = fullVectors / blk.vectors;
  const int64_t restVectors = fullVectors % blk.vectors + (tailCols ? 1 : 0);
  const int64_t rowBlocks = (s.m + blk.rows - 1) / blk.rows;
  const int64_t chunks = ConvEmitter::threadChunks(s.batch, rowBlocks);
  const int64_t perChunk = (rowBlocks + chunks - 1) / chunks;
  scf::ParallelOp::create(
      b, loc, ValueRange{idx(0), idx(0)}, ValueRange{idx(s.batch), idx(chunks)},
      ValueRange{idx(1), idx(1)}, [&](OpBuilder &, Location, ValueRange ivs) {
        Value bi = ivs[0];
        auto [lo, hi] = e.chunkRange(ivs[1], perChunk, rowBlocks);
        scf::ForOp::create(
            b, loc, lo, hi, idx(1), ValueRange{},
            [&](OpBuilder &, Location, Value rb, ValueRange) {
              Value m0 = mul(rb, blk.rows);
              if (fullBlocks)
                scf::ForOp::create(
                    b, loc, idx(0), idx(fullBlocks), idx(1), ValueRange{},
                    [&](OpBuilder &, Location, Value cb, ValueRange) {
                      block(bi, m0, mul(cb, blk.vectors), blk.vectors, W);
                      scf::YieldOp::create(b, loc);
                    });
              if (restVectors)
                block(bi, m0, idx(fullBlocks * blk.vectors), restVectors,
                      tailCols ? tailCols : W);
              scf::YieldOp::create(b, loc);
            });
        scf::ReduceOp::create(b, loc);
      });
}

Value ConvEmitter::emitMatmul(Value lhs, Value rhs) {
  return MatmulEmitter(*this).emit(lhs, rhs);
}

namespace {

struct MatMulLowering : public OpConversionPattern<MatMulOp> {
  MatMulLowering(TypeConverter &converter, MLIRContext *ctx, Int8Isa isa)
      : OpConversionPattern(converter, ctx), isa(isa) {}

  LogicalResult
  matchAndRewrite(MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    using quantc::lowering::getQInfo;
    std::optional<quantc::lowering::QInfo> a = getQInfo(op.getLhs().getType()),
                                           bq = getQInfo(op.getRhs().getType()),
                                           o = getQInfo(
                                               op.getOutput().getType());
    if (!a || !bq || !o)
      return rewriter.notifyMatchFailure(op, "not per-tensor 8-bit");
    auto lhsShape = op.getLhs().getType().getShape();
    ConvProblem p;
    p.isa = isa;
    p.domainSigned = p.info().signedInputs;
    p.shift = a->isSigned == p.domainSigned ? 0 : (a->isSigned ? 128 : -128);
    p.inZp = a->zeroPoint + p.shift;
    MatmulShape s;
    s.batch = lhsShape[0], s.m = lhsShape[1], s.k = lhsShape[2];
    s.n = op.getRhs().getType().getDimSize(2);
    s.rhsShift = bq->isSigned ? 0 : -128;
    s.rhsZp = bq->zeroPoint + s.rhsShift;
    s.mult = quantc::ref::requantMultiplier(a->scale, bq->scale, o->scale);
    p.matmul = s;
    p.outSigned = o->isSigned;
    p.outZp = o->zeroPoint;
    p.lo = o->qmin;
    p.hi = o->qmax;
    // What the kernel family proves about the products (avx2's pair sums).
    p.family().analyzeMatmul(p, std::max<int64_t>(a->qmax + p.shift, 0),
                             std::min<int64_t>(bq->qmin + s.rhsShift, 0),
                             std::max<int64_t>(bq->qmax + s.rhsShift, 0));
    ModuleOp module = op->getParentOfType<ModuleOp>();
    ConvEmitter emitter(rewriter, op.getLoc(), p, module);
    op.emitRemark() << "int8 kernel: " << emitter.matmulPathName();
    Value out = emitter.emitMatmul(
        quantc::lowering::toBuffer(rewriter, op.getLoc(), adaptor.getLhs()),
        quantc::lowering::toBuffer(rewriter, op.getLoc(), adaptor.getRhs()));
    rewriter.replaceOp(op,
                       quantc::lowering::toTensor(rewriter, op.getLoc(), out));
    return success();
  }

  Int8Isa isa;
};

} // namespace

void mlir::qnt::conv::populateMatmulLoweringPatterns(
    TypeConverter &typeConverter, RewritePatternSet &patterns, Int8Isa isa) {
  patterns.add<MatMulLowering>(typeConverter, patterns.getContext(), isa);
}
