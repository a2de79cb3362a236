//===- LowerFloatConv.cpp - Float qnt.conv2d to TOSA ----------------------===//
//
// The float form of qnt.conv2d is a fused layer; to run the float model
// (calibration, reference outputs) it is expanded back into TOSA ops, which
// the standard TOSA -> linalg pipeline compiles.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantParams.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include <cfloat>

using namespace mlir;
using namespace mlir::qnt;

namespace {

Value f32Constant(PatternRewriter &rewriter, Location loc,
                  ArrayRef<int64_t> shape, float value) {
  auto type = RankedTensorType::get(shape, rewriter.getF32Type());
  return tosa::ConstOp::create(rewriter, loc, type,
                               DenseElementsAttr::get(type, value));
}

/// Static slice [offsets, offsets + sizes) of a tensor.
Value slice(PatternRewriter &rewriter, Location loc, Value input,
            ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
  SmallVector<OpFoldResult> o = getAsIndexOpFoldResult(rewriter.getContext(),
                                                       offsets),
                            s = getAsIndexOpFoldResult(rewriter.getContext(),
                                                       sizes),
                            st(offsets.size(), rewriter.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(rewriter, loc, input, o, s, st);
}

/// `filter` viewed as `view` (same elements, row-major) and transposed by
/// `perms`. A constant filter is rearranged now (a run-time transpose of a
/// constant would be vectorized and unrolled element by element); any other
/// becomes a tosa.reshape and a tosa.transpose.
Value permuteFilter(PatternRewriter &rewriter, Location loc, Value filter,
                    ArrayRef<int64_t> view, ArrayRef<int32_t> perms) {
  auto type = cast<RankedTensorType>(filter.getType());
  SmallVector<int64_t> shape;
  for (int32_t p : perms)
    shape.push_back(view[p]);
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  DenseElementsAttr values;
  if (matchPattern(filter, m_Constant(&values)) &&
      values.getElementType().isF32()) {
    if (values.isSplat())
      return tosa::ConstOp::create(rewriter, loc, resultType,
                                   values.resizeSplat(resultType));
    // Source strides of the view, in the order of the result dimensions.
    int64_t rank = view.size();
    SmallVector<int64_t> viewStrides(rank, 1), strides(rank);
    for (int64_t d = rank - 1; d > 0; --d)
      viewStrides[d - 1] = viewStrides[d] * view[d];
    for (int64_t d = 0; d < rank; ++d)
      strides[d] = viewStrides[perms[d]];
    SmallVector<float> from(values.getValues<float>());
    SmallVector<float> to;
    to.reserve(from.size());
    SmallVector<int64_t> index(rank, 0);
    int64_t source = 0;
    for (size_t n = 0; n < from.size(); ++n) {
      to.push_back(from[source]);
      // Next result index, odometer-style, keeping `source` in step.
      for (int64_t d = rank - 1; d >= 0; --d) {
        source += strides[d];
        if (++index[d] < shape[d])
          break;
        source -= strides[d] * shape[d];
        index[d] = 0;
      }
    }
    return tosa::ConstOp::create(
        rewriter, loc, resultType,
        DenseElementsAttr::get(resultType, ArrayRef<float>(to)));
  }
  Value reshaped = tosa::ReshapeOp::create(
      rewriter, loc, RankedTensorType::get(view, type.getElementType()), filter,
      tosa::getTosaConstShape(rewriter, loc, view));
  return tosa::TransposeOp::create(rewriter, loc, resultType, reshaped,
                                   rewriter.getDenseI32ArrayAttr(perms));
}

/// `bias` [O] broadcast to every pixel of `type` [N, OH, OW, O].
Value broadcastBias(PatternRewriter &rewriter, Location loc, Value bias,
                    RankedTensorType type) {
  MLIRContext *ctx = rewriter.getContext();
  Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                        type.getElementType());
  SmallVector<AffineMap> maps = {
      AffineMap::get(4, 0, getAffineDimExpr(3, ctx), ctx),
      AffineMap::getMultiDimIdentityMap(4, ctx)};
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             rewriter, loc, type, bias, empty, maps, iterators,
             [](OpBuilder &b, Location l, ValueRange args) {
               linalg::YieldOp::create(b, l, args[0]);
             })
      .getResult(0);
}

/// A grouped convolution (1 < groups, not depthwise) as a loop over the
/// groups around one convolution of a group's channels, accumulating into
/// the bias-initialized output in place: the code does not grow with the
/// number of groups (the per-group body is tiled and vectorized like any
/// other convolution).
Value lowerGrouped(PatternRewriter &rewriter, Location loc, Value input,
                   Value filter, Value bias, ArrayRef<int64_t> pad,
                   ArrayRef<int64_t> strides, ArrayRef<int64_t> dil,
                   RankedTensorType convType, int64_t groups) {
  auto inType = cast<RankedTensorType>(input.getType());
  auto filterType = cast<RankedTensorType>(filter.getType());
  int64_t n = inType.getDimSize(0), h = inType.getDimSize(1),
          w = inType.getDimSize(2);
  int64_t o = filterType.getDimSize(0), kh = filterType.getDimSize(1),
          kw = filterType.getDimSize(2), ci = filterType.getDimSize(3);
  int64_t og = o / groups;
  Type f32 = rewriter.getF32Type();

  // Padding once for all groups.
  if (llvm::any_of(pad, [](int64_t p) { return p != 0; })) {
    h += pad[0] + pad[1];
    w += pad[2] + pad[3];
    Value zero = arith::ConstantOp::create(rewriter, loc, f32,
                                           rewriter.getF32FloatAttr(0.0f));
    input = tensor::PadOp::create(
        rewriter, loc,
        RankedTensorType::get({n, h, w, inType.getDimSize(3)}, f32), input,
        getAsIndexOpFoldResult(rewriter.getContext(), {0, pad[0], pad[2], 0}),
        getAsIndexOpFoldResult(rewriter.getContext(), {0, pad[1], pad[3], 0}),
        zero);
  }
  // OHWI [G * og, KH, KW, ci] -> [G, og, KH, KW, ci] -> one HWCF filter per
  // group: [G, KH, KW, ci, og].
  Value filters = permuteFilter(rewriter, loc, filter, {groups, og, kh, kw, ci},
                                {0, 2, 3, 4, 1});
  Value init = broadcastBias(rewriter, loc, bias, convType);

  auto index = [&](OpBuilder &b, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto sliceType = RankedTensorType::get(
      {n, convType.getDimSize(1), convType.getDimSize(2), og}, f32);
  auto stridesAttr = rewriter.getI64TensorAttr(strides);
  auto dilationsAttr = rewriter.getI64TensorAttr(dil);
  auto loop = scf::ForOp::create(
      rewriter, loc, index(rewriter, 0), index(rewriter, groups),
      index(rewriter, 1), ValueRange{init},
      [&](OpBuilder &b, Location l, Value g, ValueRange args) {
        OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
        Value inOffset = arith::MulIOp::create(b, l, g, index(b, ci));
        Value outOffset = arith::MulIOp::create(b, l, g, index(b, og));
        auto sizes = [&](ArrayRef<int64_t> s) {
          return getAsIndexOpFoldResult(b.getContext(), s);
        };
        Value x = tensor::ExtractSliceOp::create(
            b, l, input, {zero, zero, zero, inOffset}, sizes({n, h, w, ci}),
            {one, one, one, one});
        Value f = tensor::ExtractSliceOp::create(
            b, l, RankedTensorType::get({kh, kw, ci, og}, f32), filters,
            {g, zero, zero, zero, zero}, sizes({1, kh, kw, ci, og}),
            {one, one, one, one, one});
        SmallVector<OpFoldResult> outOffsets = {zero, zero, zero, outOffset};
        SmallVector<OpFoldResult> outSizes = sizes(sliceType.getShape());
        SmallVector<OpFoldResult> unit(4, one);
        Value acc = tensor::ExtractSliceOp::create(b, l, args[0], outOffsets,
                                                   outSizes, unit);
        Value conv = linalg::Conv2DNhwcHwcfOp::create(
                         b, l, TypeRange{sliceType}, ValueRange{x, f},
                         ValueRange{acc}, stridesAttr, dilationsAttr)
                         .getResult(0);
        Value updated = tensor::InsertSliceOp::create(
            b, l, conv, args[0], outOffsets, outSizes, unit);
        scf::YieldOp::create(b, l, updated);
      });
  return loop.getResult(0);
}

struct LowerFloatConv : public OpRewritePattern<Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (op.isQuantized())
      return failure();
    Location loc = op.getLoc();
    auto inType = op.getInput().getType();
    auto filterType = op.getFilter().getType();
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    if (!inType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic input shape");
    int64_t n = inType.getDimSize(0), c = inType.getDimSize(3);
    int64_t o = filterType.getDimSize(0), kh = filterType.getDimSize(1),
            kw = filterType.getDimSize(2), ci = filterType.getDimSize(3);
    int64_t groups = static_cast<int64_t>(op.getGroups());
    SmallVector<int64_t> pad(op.getPad());
    ArrayRef<int64_t> strides = op.getStrides(), dil = op.getDilations();

    // TOSA requires (H - 1 + pads - (K - 1) * d) to divide by the stride:
    // drop bottom/right padding rows a floor-mode conv never reads, and
    // input rows when the padding is not enough.
    Value input = op.getInput();
    int64_t h = inType.getDimSize(1), w = inType.getDimSize(2);
    int64_t trimH = 0, trimW = 0;
    for (int i = 0; i < 2; ++i) {
      int64_t size = i == 0 ? h : w;
      int64_t k = i == 0 ? kh : kw;
      int64_t rem =
          (size - 1 + pad[2 * i] + pad[2 * i + 1] - (k - 1) * dil[i]) %
          strides[i];
      int64_t fromPad = std::min(rem, pad[2 * i + 1]);
      pad[2 * i + 1] -= fromPad;
      (i == 0 ? trimH : trimW) = rem - fromPad;
    }
    if (trimH || trimW) {
      h -= trimH;
      w -= trimW;
      input = slice(rewriter, loc, input, {0, 0, 0, 0}, {n, h, w, c});
    }

    Value bias =
        op.getBias() ? op.getBias() : f32Constant(rewriter, loc, {o}, 0.0f);
    Value zp = f32Constant(rewriter, loc, {1}, 0.0f);
    auto padAttr = rewriter.getDenseI64ArrayAttr(pad);
    auto strideAttr = rewriter.getDenseI64ArrayAttr(strides);
    auto dilAttr = rewriter.getDenseI64ArrayAttr(dil);
    auto acc = TypeAttr::get(rewriter.getF32Type());
    RankedTensorType convType =
        RankedTensorType::get(outType.getShape(), rewriter.getF32Type());

    Value result;
    if (groups == 1) {
      result = tosa::Conv2DOp::create(rewriter, loc, convType, input,
                                      op.getFilter(), bias, zp, zp, padAttr,
                                      strideAttr, dilAttr, acc);
    } else if (groups == c && ci == 1) {
      // OHWI [C * M, KH, KW, 1] -> [C, M, KH, KW] -> HWCM [KH, KW, C, M].
      int64_t m = o / c;
      Value hwcm = permuteFilter(rewriter, loc, op.getFilter(), {c, m, kh, kw},
                                 {2, 3, 0, 1});
      result = tosa::DepthwiseConv2DOp::create(rewriter, loc, convType, input,
                                               hwcm, bias, zp, zp, padAttr,
                                               strideAttr, dilAttr, acc);
    } else {
      result = lowerGrouped(rewriter, loc, input, op.getFilter(), bias, pad,
                            strides, dil, convType, groups);
    }

    if (Value residual = op.getResidual())
      result = tosa::AddOp::create(rewriter, loc, convType, result, residual);
    auto [lo, hi] = floatActivationBounds(op.getActivation(), op.getClampMin(),
                                          op.getClampMax());
    if (op.getActivation() != Activation::none)
      result = tosa::ClampOp::create(rewriter, loc, convType, result,
                                     rewriter.getF32FloatAttr(lo),
                                     rewriter.getF32FloatAttr(hi));
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::qnt::populateLowerFloatConvPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerFloatConv>(patterns.getContext());
}
