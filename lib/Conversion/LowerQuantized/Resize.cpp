//===- Resize.cpp - qnt.resize_bilinear -----------------------------------===//
//
// A parallel loop over (batch, output row, output column); the two input
// rows and columns and their integer weights come from per-axis tap tables
// computed at compile time (quantc::ref::bilinearTaps, constant globals).
// Channels are the vector dimension (16 lanes, scalar tail): four loads,
// the exact i32 sum of the weighted neighbours, then the reference's one
// rounding floor((acc + N / 2) / N) and clamp (quantc::ref::resizeBilinear).
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Patterns.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Reference/Reference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace quantc::lowering;
namespace ref = quantc::ref;

namespace {

struct ResizeBilinearLowering
    : OpConversionPattern<mlir::qnt::ResizeBilinearOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(mlir::qnt::ResizeBilinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<QInfo> q = getQInfo(op.getInput().getType());
    if (!q)
      return rewriter.notifyMatchFailure(op, "needs per-tensor 8-bit types");
    ArrayRef<int64_t> inShape = op.getInput().getType().getShape();
    ArrayRef<int64_t> outShape = op.getOutput().getType().getShape();
    ArrayRef<int64_t> scale = op.getScale(), offset = op.getOffset();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;

    // Tap tables: per output row [i0, i1, w0, w1], then per output column.
    SmallVector<int32_t> taps;
    for (int a = 0; a < 2; ++a)
      for (const ref::BilinearTap &t :
           ref::bilinearTaps(inShape[1 + a], outShape[1 + a], scale[2 * a],
                             scale[2 * a + 1], offset[a]))
        for (int64_t v : {t.i0, t.i1, t.w0, t.w1})
          taps.push_back(static_cast<int32_t>(v));
    auto tapType = RankedTensorType::get({static_cast<int64_t>(taps.size())},
                                         b.getI32Type());
    Value table =
        globalConstant(b, loc, "__qnt_bilinear_taps",
                       DenseIntElementsAttr::get(tapType, ArrayRef(taps)));
    const int64_t colBase = 4 * outShape[1];
    const int32_t total = static_cast<int32_t>(scale[0] * scale[2]);
    const int64_t channels = inShape[3];

    Value input = toBuffer(b, loc, adaptor.getInput());
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getOutput().getType()));
    Value output = allocBuffer(b, loc, type);
    loopNest(
        b, loc, {outShape[0], outShape[1], outShape[2]},
        [&](OpBuilder &nb, Location nl, ValueRange ivs) {
          // Tap entry k of output row ivs[1] / column ivs[2].
          auto tap = [&](Value o, int64_t base, int64_t k) {
            Value i = arith::MulIOp::create(nb, nl, o, index(nb, nl, 4));
            Value j = arith::AddIOp::create(nb, nl, i, index(nb, nl, base + k));
            return memref::LoadOp::create(nb, nl, table, ValueRange{j})
                .getResult();
          };
          auto toIndex = [&](Value v) {
            return arith::IndexCastOp::create(nb, nl, nb.getIndexType(), v)
                .getResult();
          };
          Value y0 = toIndex(tap(ivs[1], 0, 0)),
                y1 = toIndex(tap(ivs[1], 0, 1));
          Value wy0 = tap(ivs[1], 0, 2), wy1 = tap(ivs[1], 0, 3);
          Value x0 = toIndex(tap(ivs[2], colBase, 0));
          Value x1 = toIndex(tap(ivs[2], colBase, 1));
          Value wx0 = tap(ivs[2], colBase, 2), wx1 = tap(ivs[2], colBase, 3);
          Value w00 = arith::MulIOp::create(nb, nl, wy0, wx0);
          Value w01 = arith::MulIOp::create(nb, nl, wy0, wx1);
          Value w10 = arith::MulIOp::create(nb, nl, wy1, wx0);
          Value w11 = arith::MulIOp::create(nb, nl, wy1, wx1);
          forEachChunk(
              nb, nl, index(nb, nl, 0), channels,
              [&](OpBuilder &cb, Location cl, Value c, int64_t lanes) {
                Lanes l(cb, cl, lanes);
                auto term = [&](Value y, Value x, Value w) {
                  Value v =
                      l.extend(l.load(input, {ivs[0], y, x, c}), q->isSigned);
                  return arith::MulIOp::create(cb, cl, v, l.splat(w))
                      .getResult();
                };
                Value acc = term(y0, x0, w00);
                acc = arith::AddIOp::create(cb, cl, acc, term(y0, x1, w01));
                acc = arith::AddIOp::create(cb, cl, acc, term(y1, x0, w10));
                acc = arith::AddIOp::create(cb, cl, acc, term(y1, x1, w11));
                Value rounded =
                    arith::AddIOp::create(cb, cl, acc, l.i32(total / 2));
                Value v =
                    arith::FloorDivSIOp::create(cb, cl, rounded, l.i32(total));
                l.store(l.narrow(l.clamp(v, q->qmin, q->qmax)), output,
                        {ivs[0], ivs[1], ivs[2], c});
              });
        },
        /*parallel=*/true);
    rewriter.replaceOp(op, toTensor(b, loc, output));
    return success();
  }
};

} // namespace

void quantc::lowering::populateResizePatterns(TypeConverter &typeConverter,
                                              RewritePatternSet &patterns) {
  patterns.add<ResizeBilinearLowering>(typeConverter, patterns.getContext());
}
