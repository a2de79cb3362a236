//===- AmxToVector.cpp - The amx dialect as portable vector code ----------===//
//
// quantc-amx-to-vector: the portable twin of the amx-int8 tile kernels, a
// test-only lowering. QEMU cannot run AMX and most development machines
// lack it, so the tile kernels' tiling, packing, edges and epilogue are
// checked by running the same IR with every tile a vector<RxCxT>: a
// tile_load / tile_store is one vector.load / vector.store per row at the
// row's address (the hardware's accesses), tile_zero a zero constant and
// tile_muli the exact integer arithmetic of tdpb[su][su]d (every product
// widened to i32, int32 wrap-around), so outputs are bit for bit those of
// the tile unit (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace quantc {
#define GEN_PASS_DEF_AMXTOVECTOR
#include "quantc/Transforms/Passes.h.inc"
} // namespace quantc

using namespace mlir;

namespace {

/// Moves `indices` from a tile row to the next: `stride` elements on, or
/// with no stride, to the next index of the memref's second innermost
/// dimension (amx.tile_load's description).
void nextRow(OpBuilder &b, Location loc, SmallVectorImpl<Value> &indices,
             Value stride) {
  Value &index = indices[indices.size() - (stride ? 1 : 2)];
  Value step = stride ? stride : arith::ConstantIndexOp::create(b, loc, 1);
  index = arith::AddIOp::create(b, loc, index, step);
}

/// amx.tile_zero: a zero vector.
struct TileZeroToVector : OpConversionPattern<amx::TileZeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(amx::TileZeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<VectorType>(op.getType());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                   rewriter.getZeroAttr(type));
    return success();
  }
};

/// amx.tile_load: a vector.load per row, inserted into the tile.
struct TileLoadToVector : OpConversionPattern<amx::TileLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(amx::TileLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<VectorType>(op.getType());
    Location loc = op.getLoc();
    auto rowType =
        VectorType::get(type.getShape().drop_front(), type.getElementType());
    Value tile =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(type));
    SmallVector<Value> indices(adaptor.getIndices());
    for (int64_t r = 0, e = type.getDimSize(0); r < e; ++r) {
      if (r)
        nextRow(rewriter, loc, indices, adaptor.getStride());
      Value row = vector::LoadOp::create(rewriter, loc, rowType,
                                         adaptor.getBase(), indices);
      tile = vector::InsertOp::create(rewriter, loc, row, tile, r);
    }
    rewriter.replaceOp(op, tile);
    return success();
  }
};

/// amx.tile_store: each row extracted and stored with vector.store.
struct TileStoreToVector : OpConversionPattern<amx::TileStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(amx::TileStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> indices(adaptor.getIndices());
    for (int64_t r = 0, e = op.getTileType().getDimSize(0); r < e; ++r) {
      if (r)
        nextRow(rewriter, loc, indices, adaptor.getStride());
      Value row = vector::ExtractOp::create(rewriter, loc, adaptor.getVal(), r);
      vector::StoreOp::create(rewriter, loc, row, adaptor.getBase(), indices);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// `bytes` (a vector of i8) widened to i32, zero- or sign-extended.
Value widen(OpBuilder &b, Location loc, Value bytes, bool zext) {
  auto type = VectorType::get(cast<VectorType>(bytes.getType()).getShape(),
                              b.getI32Type());
  if (zext)
    return arith::ExtUIOp::create(b, loc, type, bytes);
  return arith::ExtSIOp::create(b, loc, type, bytes);
}

/// The indices lane(0), ..., lane(count - 1) of a shuffle.
template <typename Lane>
SmallVector<int64_t> shuffleMask(int64_t count, Lane lane) {
  SmallVector<int64_t> mask;
  for (int64_t j = 0; j < count; ++j)
    mask.push_back(lane(j));
  return mask;
}

/// One row of tdpb[su][su]d: accRow (N x i32) plus, for each n < N, the
/// sum over k < K, i < 4 of lhsRow[4k+i] * rhsRows[k][4n+i] (lhsRow: 4K
/// lanes, rhsRows: K rows of 4N lanes, all widened to i32). Group k of
/// lhsRow is repeated N times and multiplied by rhs row k; the sums over
/// k are reduced by groups of 4 at the end. Every product fits in i32, and
/// wrapping integer additions in any order give the same sum.
Value multiplyRow(OpBuilder &b, Location loc, Value lhsRow,
                  ArrayRef<Value> rhsRows, Value accRow, int64_t n) {
  Value sum;
  for (auto [k, rhsRow] : llvm::enumerate(rhsRows)) {
    int64_t group = 4 * k;
    Value lanes = vector::ShuffleOp::create(
        b, loc, lhsRow, lhsRow,
        shuffleMask(4 * n, [&](int64_t j) { return group + j % 4; }));
    Value product = arith::MulIOp::create(b, loc, lanes, rhsRow);
    sum = sum ? arith::AddIOp::create(b, loc, sum, product) : product;
  }
  for (int64_t i = 0; i < 4; ++i)
    accRow = arith::AddIOp::create(
        b, loc, accRow,
        vector::ShuffleOp::create(
            b, loc, sum, sum,
            shuffleMask(n, [&](int64_t j) { return 4 * j + i; })));
  return accRow;
}

/// amx.tile_muli: acc (M x N i32) += lhs (M x 4K i8) * rhs (K x 4N i8) with
/// groups of 4 bytes, acc[m][n] += the sum over k < K, i < 4 of
/// ext(lhs[m][4k+i]) * ext(rhs[k][4n+i]), each ext as the op's zext flags
/// say. The rhs rows are widened once; a loop of M iterations carries the
/// rows of lhs and acc, computes row 0 (multiplyRow) and yields the rows
/// rotated by one, so that the code holds one row's arithmetic instead of
/// M (a 16 x 16 x 64 tile: about 100 ops).
struct TileMulIToVector : OpConversionPattern<amx::TileMulIOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(amx::TileMulIOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayRef<int64_t> acc = op.getTileType().getShape();
    ArrayRef<int64_t> lhs = op.getLhsTileType().getShape();
    ArrayRef<int64_t> rhs = op.getRhsTileType().getShape();
    int64_t m = acc[0], n = acc[1], k = rhs[0];
    if (lhs[0] != m || lhs[1] != 4 * k || rhs[1] != 4 * n)
      return rewriter.notifyMatchFailure(op, "tile shapes do not multiply");
    SmallVector<Value> rhsRows;
    for (int64_t kk = 0; kk < k; ++kk)
      rhsRows.push_back(
          widen(rewriter, loc,
                vector::ExtractOp::create(rewriter, loc, adaptor.getRhs(), kk),
                op.getIsZextRhs()));

    // The loop carries the M rows of lhs and of acc, rotated by one row
    // each iteration (the order of the yielded values: no op).
    SmallVector<Value> init;
    for (Value tile : {adaptor.getLhs(), adaptor.getAcc()})
      for (int64_t r = 0; r < m; ++r)
        init.push_back(vector::ExtractOp::create(rewriter, loc, tile, r));
    bool zextLhs = op.getIsZextLhs();
    auto body = [&](OpBuilder &b, Location loc, Value, ValueRange rows) {
      Value lhsRow = widen(b, loc, rows[0], zextLhs);
      SmallVector<Value> next(rows.drop_front(1).take_front(m - 1));
      next.push_back(rows[0]);
      llvm::append_range(next, rows.drop_front(m + 1));
      next.push_back(multiplyRow(b, loc, lhsRow, rhsRows, rows[m], n));
      scf::YieldOp::create(b, loc, next);
    };
    auto loop = scf::ForOp::create(
        rewriter, loc, arith::ConstantIndexOp::create(rewriter, loc, 0),
        arith::ConstantIndexOp::create(rewriter, loc, m),
        arith::ConstantIndexOp::create(rewriter, loc, 1), init, body);
    Value result = adaptor.getAcc();
    for (int64_t r = 0; r < m; ++r)
      result = vector::InsertOp::create(rewriter, loc, loop.getResult(m + r),
                                        result, r);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct AmxToVectorPass : public quantc::impl::AmxToVectorBase<AmxToVectorPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion([](amx::TileType type) -> Type {
      return VectorType::get(type.getShape(), type.getElementType());
    });
    ConversionTarget target(*context);
    target.addIllegalDialect<amx::AMXDialect>();
    // Any other op holding a tile (a loop's iter_args, an scf.if's results)
    // must be converted too.
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });
    RewritePatternSet patterns(context);
    patterns.add<TileZeroToVector, TileLoadToVector, TileStoreToVector,
                 TileMulIToVector>(converter, context);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
