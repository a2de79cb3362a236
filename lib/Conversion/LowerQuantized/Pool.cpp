//===- Pool.cpp - qnt.max_pool2d and qnt.avg_pool2d -----------------------===//
//
// NHWC pooling: a parallel loop over batch, output row and column; the
// window is clipped to the input once per output position (padded positions
// never contribute), and channels are the vector dimension (16 lanes, scalar
// tail). Semantics: quantc::ref::maxPool2d / avgPool2d. The average pool's
// multiplier depends on the number of non-padded elements: with padding it
// is read from a table indexed by that count (computed by the reference at
// compile time), without padding it is one constant.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Patterns.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Reference/Requantize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace quantc::lowering;
namespace ref = quantc::ref;

namespace {

enum class PoolKind { Max, Avg };

template <typename OpTy, PoolKind kind>
struct PoolLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<QInfo> in = getQInfo(op.getInput().getType());
    std::optional<QInfo> out = getQInfo(op.getOutput().getType());
    if (!in || !out)
      return rewriter.notifyMatchFailure(op, "needs per-tensor 8-bit types");
    ArrayRef<int64_t> kernel = op.getKernel(), strides = op.getStrides(),
                      pad = op.getPad();
    ArrayRef<int64_t> inShape = op.getInput().getType().getShape();
    ArrayRef<int64_t> outShape = op.getOutput().getType().getShape();
    const int64_t channels = inShape[3];
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;

    Value input = toBuffer(b, loc, adaptor.getInput());
    auto type = cast<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getOutput().getType()));
    Value output = allocBuffer(b, loc, type);

    // Average pool multipliers: one constant, or a table indexed by count.
    const bool padded = llvm::any_of(pad, [](int64_t p) { return p != 0; });
    const int64_t window = kernel[0] * kernel[1];
    Value table;
    if (kind == PoolKind::Avg && padded) {
      SmallVector<float> multipliers(window + 1, 0.0f);
      for (int64_t count = 1; count <= window; ++count)
        multipliers[count] =
            ref::avgPoolMultiplier(in->scale, out->scale, count);
      auto tableType = RankedTensorType::get({window + 1}, b.getF32Type());
      Value constant = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(tableType, ArrayRef(multipliers)));
      table = toBuffer(b, loc, constant);
    }

    // Output pixels are independent: parallel over (n, y, x).
    loopNest(
        b, loc, {outShape[0], outShape[1], outShape[2]},
        [&](OpBuilder &nb, Location nl, ValueRange ivs) {
          auto idx = [&](int64_t v) { return index(nb, nl, v); };
          // First input row / column of the window (may be negative) and the
          // clipped kernel ranges [lo, hi).
          // One op per statement: the IR does not depend on the C++
          // compiler's argument evaluation order.
          auto clip = [&](Value o, int64_t dim) {
            Value scaled = arith::MulIOp::create(nb, nl, o, idx(strides[dim]));
            Value start =
                arith::SubIOp::create(nb, nl, scaled, idx(pad[2 * dim]));
            Value neg = arith::SubIOp::create(nb, nl, idx(0), start);
            Value lo = arith::MaxSIOp::create(nb, nl, neg, idx(0));
            Value size = idx(inShape[1 + dim]);
            Value room = arith::SubIOp::create(nb, nl, size, start);
            Value hi = arith::MinSIOp::create(nb, nl, room, idx(kernel[dim]));
            return std::make_tuple(start, lo, hi);
          };
          auto [y0, kyLo, kyHi] = clip(ivs[1], 0);
          auto [x0, kxLo, kxHi] = clip(ivs[2], 1);

          Value countI32, multiplier;
          if (kind == PoolKind::Avg) {
            Value rows = arith::SubIOp::create(nb, nl, kyHi, kyLo);
            Value cols = arith::SubIOp::create(nb, nl, kxHi, kxLo);
            Value count = arith::MulIOp::create(nb, nl, rows, cols);
            countI32 =
                arith::IndexCastOp::create(nb, nl, nb.getI32Type(), count);
            if (padded)
              multiplier = memref::LoadOp::create(nb, nl, table, count);
            else
              multiplier = arith::ConstantOp::create(
                  nb, nl,
                  nb.getF32FloatAttr(
                      ref::avgPoolMultiplier(in->scale, out->scale, window)));
          }

          forEachChunk(
              nb, nl, idx(0), channels,
              [&](OpBuilder &cb, Location cl, Value c, int64_t lanes) {
                Lanes l(cb, cl, lanes);
                // The reference's initial maximum (below any 8-bit value).
                Value init = l.i32(kind == PoolKind::Max ? -256 : 0);
                auto rows = scf::ForOp::create(
                    cb, cl, kyLo, kyHi, index(cb, cl, 1), ValueRange{init},
                    [&](OpBuilder &rb, Location rl, Value ky,
                        ValueRange rowAcc) {
                      Value iy = arith::AddIOp::create(rb, rl, y0, ky);
                      auto cols = scf::ForOp::create(
                          rb, rl, kxLo, kxHi, index(rb, rl, 1), rowAcc,
                          [&](OpBuilder &xb, Location xl, Value kx,
                              ValueRange acc) {
                            Lanes xlanes(xb, xl, lanes);
                            Value ix = arith::AddIOp::create(xb, xl, x0, kx);
                            Value v = xlanes.extend(
                                xlanes.load(input, {ivs[0], iy, ix, c}),
                                in->isSigned);
                            Value next =
                                kind == PoolKind::Max
                                    ? arith::MaxSIOp::create(xb, xl, acc[0], v)
                                          .getResult()
                                    : arith::AddIOp::create(xb, xl, acc[0], v)
                                          .getResult();
                            scf::YieldOp::create(xb, xl, next);
                          });
                      scf::YieldOp::create(rb, rl, cols.getResults());
                    });
                Value acc = rows.getResult(0);
                Value q;
                if (kind == PoolKind::Max) {
                  q = l.rescale(acc, *in, *out);
                } else {
                  // sum(x - zin) = sum(x) - count * zin, exact in int32.
                  if (in->zeroPoint != 0) {
                    Value zp = arith::ConstantOp::create(
                        cb, cl, cb.getI32IntegerAttr(in->zeroPoint));
                    Value bias = arith::MulIOp::create(cb, cl, countI32, zp);
                    Value lanesBias = l.splat(bias);
                    acc = arith::SubIOp::create(cb, cl, acc, lanesBias);
                  }
                  Value m = l.splat(multiplier);
                  q = l.requantize(acc, m, out->zeroPoint, out->qmin,
                                   out->qmax);
                }
                l.store(l.narrow(q), output, {ivs[0], ivs[1], ivs[2], c});
              });
        },
        /*parallel=*/true);
    rewriter.replaceOp(op, toTensor(b, loc, output));
    return success();
  }
};

} // namespace

void quantc::lowering::populatePoolPatterns(TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  patterns.add<PoolLowering<mlir::qnt::MaxPool2DOp, PoolKind::Max>,
               PoolLowering<mlir::qnt::AvgPool2DOp, PoolKind::Avg>>(
      typeConverter, patterns.getContext());
}
