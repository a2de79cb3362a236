//===- LowerMemRefCopy.cpp - memref.copy without runtime calls ------------===//
//
// quantc-lower-memref-copy: copies that finalize-memref-to-llvm would lower
// to a call of MLIR's runtime become memcpy of contiguous rows in a
// parallel loop, or linalg.copy (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace quantc {
#define GEN_PASS_DEF_LOWERMEMREFCOPY
#include "quantc/Transforms/Passes.h.inc"
} // namespace quantc

using namespace mlir;

namespace {

/// Whether finalize-memref-to-llvm copies `type` with llvm.memcpy (its
/// condition: an identity layout, or a static, non-empty, contiguous
/// row-major shape at any offset).
bool copiesWithMemcpy(MemRefType type) {
  return type.getLayout().isIdentity() ||
         (type.hasStaticShape() && type.getNumElements() > 0 &&
          memref::isStaticShapeAndContiguousRowMajor(type));
}

/// How many innermost dimensions of the statically shaped `type` are one
/// contiguous block, by memref::isStaticShapeAndContiguousRowMajor's rule
/// (every stride that of row-major order, unit dimensions included), so
/// that a row of them is copied with memcpy.
int64_t contiguousInnerDims(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return 0;
  int64_t expected = 1, dims = 0;
  for (int64_t d = type.getRank() - 1; d >= 0 && strides[d] == expected; --d) {
    expected *= type.getDimSize(d);
    ++dims;
  }
  return dims;
}

struct LowerCopy : OpRewritePattern<memref::CopyOp> {
  LowerCopy(MLIRContext *ctx, int64_t minRowBytes)
      : OpRewritePattern(ctx), minRowBytes(minRowBytes) {}

  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    auto source = dyn_cast<MemRefType>(op.getSource().getType());
    auto target = dyn_cast<MemRefType>(op.getTarget().getType());
    if (!source || !target)
      return rewriter.notifyMatchFailure(op, "unranked memref");
    if (copiesWithMemcpy(source) && copiesWithMemcpy(target))
      return rewriter.notifyMatchFailure(op, "already one memcpy");
    if (succeeded(copyRows(op, source, target, rewriter)))
      return success();
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(),
                                                op.getTarget());
    return success();
  }

  /// The copy as an scf.parallel nest over its outer dimensions, each
  /// iteration a memref.copy of one contiguous row of `rowDims` dimensions.
  LogicalResult copyRows(memref::CopyOp op, MemRefType source,
                         MemRefType target, PatternRewriter &rewriter) const {
    Type element = source.getElementType();
    if (!source.hasStaticShape() || !target.hasStaticShape() ||
        !element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
      return failure();
    int64_t rank = source.getRank();
    int64_t rowDims =
        std::min(contiguousInnerDims(source), contiguousInnerDims(target));
    if (rowDims == 0 || rowDims >= rank)
      return failure();
    ArrayRef<int64_t> rowShape = source.getShape().drop_front(rank - rowDims);
    int64_t rowBytes = element.getIntOrFloatBitWidth() / 8;
    for (int64_t size : rowShape)
      rowBytes *= size;
    if (rowBytes < minRowBytes)
      return failure();

    Location loc = op.getLoc();
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
    };
    Value zero = index(0), one = index(1);
    SmallVector<Value> lbs(rank - rowDims, zero), ubs,
        steps(rank - rowDims, one);
    for (int64_t d = 0; d < rank - rowDims; ++d)
      ubs.push_back(index(source.getDimSize(d)));
    Value from = op.getSource(), to = op.getTarget();
    scf::ParallelOp::create(
        rewriter, loc, lbs, ubs, steps,
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end());
          SmallVector<OpFoldResult> sizes(ivs.size(), b.getIndexAttr(1));
          SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
          for (int64_t size : rowShape) {
            offsets.push_back(b.getIndexAttr(0));
            sizes.push_back(b.getIndexAttr(size));
          }
          auto row = [&](Value memref, MemRefType type) -> Value {
            MemRefType rowType = memref::SubViewOp::inferRankReducedResultType(
                rowShape, type, offsets, sizes, strides);
            return memref::SubViewOp::create(b, l, rowType, memref, offsets,
                                             sizes, strides);
          };
          Value fromRow = row(from, source);
          Value toRow = row(to, target);
          memref::CopyOp::create(b, l, fromRow, toRow);
        });
    rewriter.eraseOp(op);
    return success();
  }

  int64_t minRowBytes;
};

struct LowerMemRefCopyPass
    : quantc::impl::LowerMemRefCopyBase<LowerMemRefCopyPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerCopy>(&getContext(), minRowBytes);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
