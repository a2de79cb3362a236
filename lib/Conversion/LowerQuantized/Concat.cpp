//===- Concat.cpp - qnt.concat --------------------------------------------===//
//
// Concatenation along any axis as a copy of rows: with `rows` = the product
// of the dimensions before the axis, input i is `rows` runs of cols_i
// contiguous elements that land at column offset_i of the output's rows.
// Each run is a vector loop (16 lanes, scalar tail); rows are independent
// (scf.parallel). An input with the
// output's scale and zero point is copied (clamped to the output's range),
// any other is requantized: quantc::ref::concat.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Patterns.h"

#include "dialects/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace quantc::lowering;

namespace {

struct ConcatLowering : OpConversionPattern<mlir::qnt::ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(mlir::qnt::ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<QInfo> out = getQInfo(op.getOutput().getType());
    if (!out)
      return rewriter.notifyMatchFailure(op, "needs per-tensor 8-bit types");
    SmallVector<QInfo> ins;
    for (Value v : op.getInputs()) {
      std::optional<QInfo> q = getQInfo(v.getType());
      if (!q)
        return rewriter.notifyMatchFailure(op, "needs per-tensor 8-bit types");
      ins.push_back(*q);
    }
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    const int64_t axis = static_cast<int64_t>(op.getAxis());
    int64_t rows = 1, outCols = 1;
    for (int64_t d = 0; d < outType.getRank(); ++d)
      (d < axis ? rows : outCols) *= outType.getDimSize(d);

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getOutput().getType()));
    Value output = allocBuffer(b, loc, type);
    Value flatOut = flatten(b, loc, output);
    int64_t offset = 0;
    for (auto [i, operand] : llvm::enumerate(adaptor.getInputs())) {
      const QInfo &in = ins[i];
      const int64_t cols =
          cast<RankedTensorType>(operand.getType()).getNumElements() / rows;
      Value flatIn = flatten(b, loc, toBuffer(b, loc, operand));
      // Rows are independent: parallel over rows, or over the chunks of the
      // only row (never both: no nested parallel loops).
      loopNest(
          b, loc, {rows},
          [&](OpBuilder &rb, Location rl, ValueRange r) {
            Value src =
                arith::MulIOp::create(rb, rl, r[0], index(rb, rl, cols));
            Value row =
                arith::MulIOp::create(rb, rl, r[0], index(rb, rl, outCols));
            Value dst =
                arith::AddIOp::create(rb, rl, row, index(rb, rl, offset));
            forEachChunk(
                rb, rl, index(rb, rl, 0), cols,
                [&](OpBuilder &cb, Location cl, Value j, int64_t lanes) {
                  Lanes l(cb, cl, lanes);
                  Value s = arith::AddIOp::create(cb, cl, src, j);
                  Value d = arith::AddIOp::create(cb, cl, dst, j);
                  Value v = l.extend(l.load(flatIn, s), in.isSigned);
                  l.store(l.narrow(l.rescale(v, in, *out)), flatOut, d);
                },
                /*parallel=*/rows == 1);
          },
          /*parallel=*/rows > 1);
      offset += cols;
    }
    rewriter.replaceOp(op, toTensor(b, loc, output));
    return success();
  }
};

} // namespace

void quantc::lowering::populateConcatPatterns(TypeConverter &typeConverter,
                                              RewritePatternSet &patterns) {
  patterns.add<ConcatLowering>(typeConverter, patterns.getContext());
}
