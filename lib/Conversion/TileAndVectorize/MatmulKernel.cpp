//===- MatmulKernel.cpp - Register-blocked float matmul -------------------===//
//
// A static f32 linalg.matmul / batch_matmul becomes the classic GEMM
// micro-kernel loop nest, built directly in vector ops on tensors:
//
//   for b, for n0 in steps of kCols (columns of the output; the last block
//   takes the remaining columns),
//     for m0 in steps of kRows (the last block takes the remaining rows):
//       acc[i] = C[b, m0 + i, n0 : n0 + kCols]               i < rows
//       for k: w = B[b, k, n0 : n0 + kCols]                  (one load)
//              acc[i] = fma(broadcast(A[b, m0 + i, k]), w, acc[i])
//       C[b, m0 + i, n0 : n0 + kCols] = acc[i]
//
// One vector of B and one broadcast element of A per FMA, the accumulators
// in registers for the whole reduction, and the B panel (K x kCols) reused
// by every block of rows while it is in cache; constant weights are packed
// at compile time so that a panel is contiguous.
//
// The accumulators start from C, except where C is a linalg.fill (the
// zeros tosa-to-linalg gives every matmul): then from the fill value, and
// the result goes to a fresh tensor, so the fill (a memset of the whole
// output) dies. A zero-filled matmul whose one user adds a bias broadcast
// along the rows (an ONNX MatMul + Add, a linear layer) starts from the
// bias instead and replaces that add: one pass over the output, not three
// (memset, matmul, add). linalg::vectorize of a
// matmul tile instead reads the tiles of both operands broadcast to
// rows x cols x depth and reduces along the depth, which is transposes and
// horizontal adds.
//
//===----------------------------------------------------------------------===//

#include "FloatKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace {

/// A linalg.generic adding a bias broadcast along the rows to `product`
/// (the matmul's one use): two inputs, all-parallel, body `addf` of the
/// two inputs, output and `product` indexed by the identity, the bias by a
/// map without the row dimension whose last result is the column.
struct BiasAdd {
  linalg::GenericOp op;
  Value bias;
  AffineMap map;
};

std::optional<BiasAdd> matchBiasAdd(Value product, bool batched) {
  if (!product.hasOneUse())
    return std::nullopt;
  auto add = dyn_cast<linalg::GenericOp>(*product.getUsers().begin());
  if (!add || add.getNumDpsInputs() != 2 || add.getNumDpsInits() != 1 ||
      add.getNumReductionLoops() != 0 || !add.hasPureTensorSemantics())
    return std::nullopt;
  Block &body = add.getRegion().front();
  if (body.getOperations().size() != 2)
    return std::nullopt;
  auto addf = dyn_cast<arith::AddFOp>(body.front());
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!addf || !yield || yield.getNumOperands() != 1 ||
      yield.getOperand(0) != addf.getResult())
    return std::nullopt;
  int64_t rank = batched ? 3 : 2;
  unsigned productIdx = add.getDpsInputs()[0] == product ? 0 : 1;
  if (add.getDpsInputs()[productIdx] != product)
    return std::nullopt;
  Value bias = add.getDpsInputs()[1 - productIdx];
  auto biasType = dyn_cast<RankedTensorType>(bias.getType());
  if (!biasType || !biasType.getElementType().isF32() ||
      !biasType.hasStaticShape())
    return std::nullopt;
  // The body adds the two inputs (either order), not the output.
  llvm::SmallDenseSet<Value, 2> args{addf.getLhs(), addf.getRhs()};
  if (args.size() != 2 || !args.contains(body.getArgument(0)) ||
      !args.contains(body.getArgument(1)))
    return std::nullopt;
  SmallVector<AffineMap> maps = add.getIndexingMapsArray();
  if (!maps[productIdx].isIdentity() || !maps[2].isIdentity() ||
      maps[2].getNumDims() != rank)
    return std::nullopt;
  AffineMap map = maps[1 - productIdx];
  // Results: constant 0 or the batch / column dimension; the column last.
  if (map.getNumResults() == 0 ||
      map.getResults().back() != getAffineDimExpr(rank - 1, map.getContext()))
    return std::nullopt;
  for (AffineExpr e : map.getResults()) {
    if (auto c = dyn_cast<AffineConstantExpr>(e); c && c.getValue() == 0)
      continue;
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || d.getPosition() == unsigned(rank - 2))
      return std::nullopt;
  }
  return BiasAdd{add, bias, map};
}

/// A static f32 matmul / batch_matmul with default indexing maps: its
/// operands and sizes.
struct MatmulShape {
  Value a, b, c;
  RankedTensorType cType;
  bool batched;
  int64_t batch, m, n, k;
};

std::optional<MatmulShape> matchMatmul(linalg::LinalgOp op) {
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) ||
      !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  // Default indexing maps only (no transposed or broadcast operands).
  if (auto mm = dyn_cast<linalg::MatmulOp>(op.getOperation());
      mm && mm.hasUserDefinedMaps())
    return std::nullopt;
  if (auto bmm = dyn_cast<linalg::BatchMatmulOp>(op.getOperation());
      bmm && bmm.hasUserDefinedMaps())
    return std::nullopt;
  Value a = op.getDpsInputs()[0], b = op.getDpsInputs()[1],
        c = op.getDpsInits()[0];
  auto aType = dyn_cast<RankedTensorType>(a.getType());
  auto bType = dyn_cast<RankedTensorType>(b.getType());
  auto cType = dyn_cast<RankedTensorType>(c.getType());
  if (!aType || !bType || !cType || !aType.hasStaticShape() ||
      !bType.hasStaticShape() || !cType.hasStaticShape() ||
      !aType.getElementType().isF32() || !bType.getElementType().isF32() ||
      !cType.getElementType().isF32())
    return std::nullopt;
  bool batched = isa<linalg::BatchMatmulOp>(op);
  int64_t rank = batched ? 3 : 2;
  ArrayRef<int64_t> cs = cType.getShape();
  int64_t k = aType.getShape()[rank - 1];
  if (k == 0)
    return std::nullopt;
  return MatmulShape{
      a, b, c, cType, batched, batched ? cs[0] : 1, cs[rank - 2], cs[rank - 1],
      k};
}

/// Builds the kernel of one matmul (see the file comment): the constants it
/// needs before the op it replaces, the parallel loop over the full column
/// blocks, and the loop over the remaining columns.
class MatmulKernel {
public:
  MatmulKernel(RewriterBase &rw, linalg::LinalgOp op, const MatmulShape &mm,
               unsigned vectorBits)
      : rw(rw), op(op), mm(mm), loc(op.getLoc()),
        // Output rows per block: 6 x 2 ymm accumulators leave AVX2's 16
        // registers room for the B vector and the broadcast (NEON: 24 of
        // 32); AVX-512 has 32 zmm registers, 12 accumulators keep both FMA
        // pipes busy.
        kRows(vectorBits >= 512 ? 12 : 6),
        // Output columns per block: one vector<16xf32> (two ymm registers on
        // AVX2, four q registers on NEON); on AVX-512 two zmm registers, so
        // that each broadcast element of A feeds two FMAs (24 accumulators).
        kCols(vectorBits >= 512 ? 32 : 16), rank(mm.batched ? 3 : 2),
        fullCols(mm.n - mm.n % kCols), tailCols(mm.n % kCols),
        fullRows(mm.m - mm.m % kRows), tailRows(mm.m % kRows) {}

  /// Replaces the matmul (or the bias add it absorbs) by the kernel.
  void build();

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(rw, loc, v); }
  /// Indices [b, row, col] (or [row, col]).
  SmallVector<Value> at(Value bi, Value row, Value col) {
    SmallVector<Value> idx;
    if (mm.batched)
      idx.push_back(bi);
    idx.append({row, col});
    return idx;
  }
  /// Where the accumulators start: C, the fill's value, or (zero fill) the
  /// bias of the add this kernel then replaces.
  void findStart();
  /// A constant B (a layer's weights) packed into column panels,
  /// [batch, N / kCols, K, kCols] for the full blocks and [batch, K, rest]
  /// for the remaining columns, which the reduction loop reads contiguously.
  void packConstantB();
  /// B[bi, k, n0 : n0 + cols], from the panels if packed.
  Value readB(OpBuilder &kb, Value bi, Value kv, Value n0, VectorType type);
  /// The accumulators' start for the rows `rowIdx` at columns `outN` of
  /// `out`: the bias at columns n0.., the fill value, or C.
  SmallVector<Value> startAccumulators(OpBuilder &bld, Value out, Value outB,
                                       Value outN, Value bi, Value n0,
                                       ArrayRef<Value> rowIdx,
                                       VectorType vecType);
  /// One block of `rows` rows at m0 and `cols` columns at n0 of batch bi,
  /// accumulated into `out` at [outB, m0 + i, outN] (`out` is C, or the
  /// slice of C a parallel iteration owns).
  Value block(OpBuilder &bld, Value out, Value outB, Value outN, Value bi,
              Value m0, Value n0, int64_t rows, int64_t cols);
  /// The blocks of the columns at n0, `cols` wide: full blocks of rows, then
  /// the remaining rows.
  Value columns(OpBuilder &nb, Value out, Value outB, Value outN, Value bi,
                Value n0, int64_t cols);
  /// The full column blocks of every batch: one scf.forall over (batch,
  /// block), each iteration computing its [M, kCols] slice of C.
  Value fullColumnBlocks(int64_t blocks);
  /// The remaining columns, batch after batch.
  Value tailColumns(Value result);

  RewriterBase &rw;
  linalg::LinalgOp op;
  const MatmulShape &mm;
  Location loc;
  const int64_t kRows, kCols, rank, fullCols, tailCols, fullRows, tailRows;
  Value c;
  Value fillValue;
  std::optional<BiasAdd> biasAdd;
  /// The op the kernel replaces.
  Operation *replaced = nullptr;
  Value zero, one, pad, panels, tailPanel, panelWidth;
  SmallVector<bool> inBounds = {true};
};

void MatmulKernel::findStart() {
  if (auto fill = mm.c.getDefiningOp<linalg::FillOp>()) {
    fillValue = fill.getInputs()[0];
    if (matchPattern(fillValue, m_AnyZeroFloat()))
      biasAdd = matchBiasAdd(op->getResult(0), mm.batched);
  }
}

void MatmulKernel::packConstantB() {
  DenseElementsAttr bConst;
  if (!matchPattern(mm.b, m_Constant(&bConst)))
    return;
  int64_t batch = mm.batch, k = mm.k, n = mm.n;
  SmallVector<float> w(bConst.getValues<float>());
  SmallVector<float> full, rest;
  full.reserve(batch * k * fullCols);
  rest.reserve(batch * k * tailCols);
  for (int64_t bi = 0; bi < batch; ++bi) {
    const float *wb = w.data() + bi * k * n;
    for (int64_t j = 0; j < fullCols; j += kCols)
      for (int64_t kk = 0; kk < k; ++kk)
        full.append(wb + kk * n + j, wb + kk * n + j + kCols);
    for (int64_t kk = 0; kk < k; ++kk)
      rest.append(wb + kk * n + fullCols, wb + kk * n + n);
  }
  auto constant = [&](ArrayRef<int64_t> shape, ArrayRef<float> values) {
    auto type = RankedTensorType::get(shape, rw.getF32Type());
    return arith::ConstantOp::create(rw, loc, type,
                                     DenseElementsAttr::get(type, values));
  };
  if (fullCols > 0)
    panels = constant({batch, fullCols / kCols, k, kCols}, full);
  if (tailCols > 0)
    tailPanel = constant({batch, k, tailCols}, rest);
}

Value MatmulKernel::readB(OpBuilder &kb, Value bi, Value kv, Value n0,
                          VectorType type) {
  if (!panels && !tailPanel)
    return vector::TransferReadOp::create(kb, loc, type, mm.b, at(bi, kv, n0),
                                          pad, ArrayRef(inBounds));
  Value pb = mm.batched ? bi : zero;
  if (type.getDimSize(0) == kCols && panels) {
    Value j = arith::DivUIOp::create(kb, loc, n0, panelWidth);
    return vector::TransferReadOp::create(kb, loc, type, panels,
                                          ValueRange{pb, j, kv, zero}, pad,
                                          ArrayRef(inBounds));
  }
  return vector::TransferReadOp::create(kb, loc, type, tailPanel,
                                        ValueRange{pb, kv, zero}, pad,
                                        ArrayRef(inBounds));
}

SmallVector<Value> MatmulKernel::startAccumulators(OpBuilder &bld, Value out,
                                                   Value outB, Value outN,
                                                   Value bi, Value n0,
                                                   ArrayRef<Value> rowIdx,
                                                   VectorType vecType) {
  // Where every row's accumulator starts, unless it reads C: the bias at
  // columns n0.., or the fill value.
  Value start;
  if (biasAdd) {
    SmallVector<Value> bIdx;
    for (AffineExpr e : biasAdd->map.getResults()) {
      auto d = dyn_cast<AffineDimExpr>(e);
      bIdx.push_back(!d ? zero : d.getPosition() == 0 && mm.batched ? bi : n0);
    }
    start = vector::TransferReadOp::create(bld, loc, vecType, biasAdd->bias,
                                           bIdx, pad, ArrayRef(inBounds));
  } else if (fillValue) {
    start = vector::BroadcastOp::create(bld, loc, vecType, fillValue);
  }
  SmallVector<Value> accs;
  for (Value row : rowIdx)
    accs.push_back(start ? start
                         : vector::TransferReadOp::create(
                               bld, loc, vecType, out, at(outB, row, outN), pad,
                               ArrayRef(inBounds))
                               .getResult());
  return accs;
}

Value MatmulKernel::block(OpBuilder &bld, Value out, Value outB, Value outN,
                          Value bi, Value m0, Value n0, int64_t rows,
                          int64_t cols) {
  auto vecType = VectorType::get({cols}, rw.getF32Type());
  SmallVector<Value> rowIdx;
  for (int64_t i = 0; i < rows; ++i) {
    Value r =
        i == 0 ? m0
               : arith::AddIOp::create(
                     bld, loc, m0, arith::ConstantIndexOp::create(bld, loc, i));
    rowIdx.push_back(r);
  }
  SmallVector<Value> accs =
      startAccumulators(bld, out, outB, outN, bi, n0, rowIdx, vecType);
  auto kLoop = scf::ForOp::create(
      bld, loc, zero, index(mm.k), one, accs,
      [&](OpBuilder &kb, Location, Value kv, ValueRange iters) {
        Value w = readB(kb, bi, kv, n0, vecType);
        SmallVector<Value> next;
        for (int64_t i = 0; i < rows; ++i) {
          Value x =
              tensor::ExtractOp::create(kb, loc, mm.a, at(bi, rowIdx[i], kv));
          Value xs = vector::BroadcastOp::create(kb, loc, vecType, x);
          next.push_back(vector::FMAOp::create(kb, loc, xs, w, iters[i]));
        }
        scf::YieldOp::create(kb, loc, next);
      });
  for (int64_t i = 0; i < rows; ++i)
    out = vector::TransferWriteOp::create(bld, loc, kLoop.getResult(i), out,
                                          at(outB, rowIdx[i], outN),
                                          ArrayRef(inBounds))
              .getResult();
  return out;
}

Value MatmulKernel::columns(OpBuilder &nb, Value out, Value outB, Value outN,
                            Value bi, Value n0, int64_t cols) {
  if (fullRows > 0) {
    auto mLoop = scf::ForOp::create(
        nb, loc, zero, index(fullRows), index(kRows), ValueRange{out},
        [&](OpBuilder &mb, Location, Value m0, ValueRange mIters) {
          scf::YieldOp::create(
              mb, loc,
              block(mb, mIters[0], outB, outN, bi, m0, n0, kRows, cols));
        });
    out = mLoop.getResult(0);
  }
  if (tailRows > 0)
    out = block(nb, out, outB, outN, bi, index(fullRows), n0, tailRows, cols);
  return out;
}

Value MatmulKernel::fullColumnBlocks(int64_t blocks) {
  // OpenMP threads with parallel=omp. The panel of B (K x kCols) stays in
  // the iterating core's cache for all rows.
  auto forall =
      scf::ForallOp::create(rw, loc,
                            ArrayRef<OpFoldResult>{rw.getIndexAttr(mm.batch),
                                                   rw.getIndexAttr(blocks)},
                            ValueRange{c}, std::nullopt);
  OpBuilder fb = OpBuilder::atBlockBegin(forall.getBody());
  Value bi = forall.getInductionVar(0);
  Value n0 =
      arith::MulIOp::create(fb, loc, forall.getInductionVar(1), panelWidth);
  SmallVector<OpFoldResult> offsets, sizes, strides(rank, fb.getIndexAttr(1));
  if (mm.batched) {
    offsets.push_back(bi);
    sizes.push_back(fb.getIndexAttr(1));
  }
  offsets.append({fb.getIndexAttr(0), n0});
  sizes.append({fb.getIndexAttr(mm.m), fb.getIndexAttr(kCols)});
  Value slice = tensor::ExtractSliceOp::create(
      fb, loc, forall.getRegionIterArgs()[0], offsets, sizes, strides);
  Value done = columns(fb, slice, zero, zero, bi, n0, kCols);
  OpBuilder pb = OpBuilder::atBlockBegin(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(
      pb, loc, done, forall.getRegionIterArgs()[0], offsets, sizes, strides);
  // The body's constants were created before `replaced`, after the forall.
  forall->moveBefore(replaced);
  return forall.getResult(0);
}

Value MatmulKernel::tailColumns(Value result) {
  auto batchLoop = scf::ForOp::create(
      rw, loc, zero, index(mm.batch), one, ValueRange{result},
      [&](OpBuilder &bb, Location, Value bi, ValueRange bIters) {
        Value n0 = index(fullCols);
        scf::YieldOp::create(bb, loc,
                             columns(bb, bIters[0], bi, n0, bi, n0, tailCols));
      });
  return batchLoop.getResult(0);
}

void MatmulKernel::build() {
  findStart();
  // The tensor the kernel writes: a fresh one when the accumulators do not
  // read C.
  replaced = biasAdd ? biasAdd->op.getOperation() : op.getOperation();
  rw.setInsertionPoint(replaced);
  c = mm.c;
  if (fillValue)
    c = tensor::EmptyOp::create(rw, loc, mm.cType.getShape(), rw.getF32Type());
  zero = index(0);
  one = index(1);
  pad = arith::ConstantOp::create(rw, loc, rw.getF32FloatAttr(0.0f));
  packConstantB();
  panelWidth = index(kCols);
  Value result = c;
  if (int64_t blocks = fullCols / kCols; blocks > 0)
    result = fullColumnBlocks(blocks);
  if (tailCols > 0)
    result = tailColumns(result);
  rw.replaceOp(replaced, result);
  if (biasAdd)
    rw.eraseOp(op);
}

} // namespace

LogicalResult quantc::float_codegen::lowerMatmulToKernel(RewriterBase &rw,
                                                         linalg::LinalgOp op,
                                                         unsigned vectorBits) {
  std::optional<MatmulShape> mm = matchMatmul(op);
  if (!mm)
    return failure();
  MatmulKernel(rw, op, *mm, vectorBits).build();
  return success();
}
