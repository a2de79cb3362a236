//===- QuantizeElementwise.cpp - quantize of element-wise ops ------------===//
//
// QuantizableOpInterface::quantize of the element-wise ops: tosa add / sub /
// mul (qnt.add / sub / mul of two quantized activations, a lookup table with
// a constant), qnt.unary (a lookup table) and a standalone qnt.batch_norm
// (qnt.channel_affine). Tables and parameters are the int8 reference's.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QuantizeUtils.h"
#include "dialects/Qnt/IR/UnaryFunctions.h"

#include <cmath>

using namespace mlir;
using namespace mlir::qnt;

/// `x op k` (or `k op x`) with `x` quantized and `k` a float constant that
/// is one number or one per channel of the last dimension (x * 0.5, a
/// per-channel scale or shift, a division by a constant as the importer's
/// multiplication by its reciprocal), with a clamp after it: an
/// element-wise function of x, i.e. one lookup table per distinct constant
/// (UnaryFunctions' tables, evaluated in double).
static void quantizeConstantBinary(Operation *op, RewriterBase &b) {
  bool xFirst = static_cast<bool>(quantizedSource(op->getOperand(0)));
  Value q = quantizedSource(op->getOperand(xFirst ? 0 : 1));
  Value other = op->getOperand(xFirst ? 1 : 0);
  std::optional<SmallVector<float>> k = floatConstant(other);
  if (!k)
    if (auto recip = other.getDefiningOp<tosa::ReciprocalOp>())
      if ((k = floatConstant(recip.getInput1())))
        for (float &v : *k)
          v = 1.0f / v;
  auto xType = cast<RankedTensorType>(q.getType());
  auto kType = cast<RankedTensorType>(other.getType());
  Value result = op->getResult(0);
  if (!k || xType.getRank() < 1 || kType.getRank() != xType.getRank() ||
      cast<ShapedType>(result.getType()).getShape() != xType.getShape() ||
      !llvm::all_of(kType.getShape().drop_back(),
                    [](int64_t d) { return d == 1; }) ||
      (k->size() != 1 &&
       static_cast<int64_t>(k->size()) != xType.getShape().back()))
    return;
  auto [clamp, act] = clampAfter(result);
  quant::QuantizeCastOp sink = quantizedSink(result);
  auto views = elementwiseViews(q, sink);
  if (!views)
    return;
  double lo = -INFINITY, hi = INFINITY;
  if (act) {
    lo = act->activation == Activation::clamp ? act->min.getValueAsDouble()
                                              : 0.0;
    hi = act->activation == Activation::relu6   ? 6.0
         : act->activation == Activation::clamp ? act->max.getValueAsDouble()
                                                : INFINITY;
  }
  std::vector<int32_t> table;
  for (float c : *k) {
    auto f = [&](double x) {
      double y = isa<tosa::MulOp>(op)   ? x * double(c)
                 : isa<tosa::AddOp>(op) ? x + double(c)
                 : xFirst               ? x - double(c)
                                        : double(c) - x;
      return std::clamp(y, lo, hi);
    };
    std::vector<int32_t> t =
        quantc::ref::lookupTable(f, views->first, views->second);
    table.insert(table.end(), t.begin(), t.end());
  }
  b.setInsertionPoint(sink);
  SmallVector<Location> locs{op->getLoc()};
  if (clamp)
    locs.insert(locs.begin(), clamp->getLoc());
  auto lookup =
      LookupOp::create(b, FusedLoc::get(b.getContext(), locs), sink.getType(),
                       q, b.getDenseI32ArrayAttr(table));
  b.replaceOp(sink, lookup.getOutput());
  if (clamp)
    b.eraseOp(clamp);
  b.eraseOp(op);
}

/// add / sub / mul of two quantized activations (broadcasting), with a
/// following relu fused.
template <typename QntOp>
static void quantizeBinary(Operation *op, RewriterBase &b) {
  Value qa = quantizedSource(op->getOperand(0)),
        qb = quantizedSource(op->getOperand(1));
  if (!qa && !qb)
    return;
  if (!qa || !qb)
    return quantizeConstantBinary(op, b);
  Value result = op->getResult(0);
  Operation *relu = nullptr;
  if (result.hasOneUse())
    if (auto clamp = dyn_cast<tosa::ClampOp>(*result.getUsers().begin())) {
      if (isRelu(clamp)) {
        relu = clamp;
        result = clamp.getResult();
      }
    }
  quant::QuantizeCastOp sink = quantizedSink(result);
  if (!sink)
    return;
  b.setInsertionPoint(sink);
  auto binary = QntOp::create(
      b, op->getLoc(), sink.getType(), qa, qb,
      ActivationAttr::get(b.getContext(),
                          relu ? Activation::relu : Activation::none));
  b.replaceOp(sink, binary.getOutput());
  if (relu)
    b.eraseOp(relu);
  b.eraseOp(op);
}

LogicalResult mlir::qnt::quantizeAdd(tosa::AddOp op, RewriterBase &rewriter) {
  quantizeBinary<AddOp>(op, rewriter);
  return success();
}

LogicalResult mlir::qnt::quantizeSub(tosa::SubOp op, RewriterBase &rewriter) {
  quantizeBinary<SubOp>(op, rewriter);
  return success();
}

LogicalResult mlir::qnt::quantizeMul(tosa::MulOp op, RewriterBase &rewriter) {
  quantizeBinary<MulOp>(op, rewriter);
  return success();
}

/// An element-wise function between quantized tensors: its lookup table,
/// evaluated once per input value in double (UnaryFunctions.h); one table
/// per channel for per-channel alphas (PReLU).
LogicalResult UnaryOp::quantize(RewriterBase &b) {
  UnaryOp op = *this;
  Value q = quantizedSource(op.getInput());
  quant::QuantizeCastOp sink = quantizedSink(op.getOutput());
  auto views = elementwiseViews(q, sink);
  if (!views)
    return success();
  UnaryFn fn = op.getFn();
  double beta = op.getBetaOrDefault();
  // One table, or one per channel of the last dimension (per-channel alphas).
  SmallVector<double> alphas{op.getAlphaOrDefault()};
  if (std::optional<ArrayRef<float>> perChannel = op.getAlphas())
    alphas.assign(perChannel->begin(), perChannel->end());
  std::vector<int32_t> table;
  for (double alpha : alphas) {
    std::vector<int32_t> t = quantc::ref::lookupTable(
        [&](double x) { return evalUnary(fn, x, alpha, beta); }, views->first,
        views->second);
    table.insert(table.end(), t.begin(), t.end());
  }
  b.setInsertionPoint(sink);
  auto lookup = LookupOp::create(b, op.getLoc(), sink.getType(), q,
                                 b.getDenseI32ArrayAttr(table));
  b.replaceOp(sink, lookup.getOutput());
  b.eraseOp(op);
  return success();
}

/// A batch norm between quantized tensors (one that follows no
/// convolution), with the clamp after it: qnt.channel_affine with
/// quantc::ref::batchNormAffine's parameters.
LogicalResult BatchNormOp::quantize(RewriterBase &b) {
  BatchNormOp op = *this;
  Value q = quantizedSource(op.getInput());
  RankedTensorType type = op.getInput().getType();
  auto axis = static_cast<int64_t>(op.getAxis());
  if (!q || type.getRank() < 1 || (axis != -1 && axis != type.getRank() - 1))
    return success();
  Value result = op.getOutput();
  auto [clamp, act] = clampAfter(result);
  quant::QuantizeCastOp sink = quantizedSink(result);
  auto views = elementwiseViews(q, sink);
  std::optional<SmallVector<float>> gamma = floatConstant(op.getGamma()),
                                    beta = floatConstant(op.getBeta()),
                                    mean = floatConstant(op.getMean()),
                                    var = floatConstant(op.getVar());
  if (!views || !gamma || !beta || !mean || !var)
    return success();
  std::vector<float> multipliers, offsets;
  if (quantc::ref::batchNormAffine(
          {gamma->begin(), gamma->end()}, {beta->begin(), beta->end()},
          {mean->begin(), mean->end()}, {var->begin(), var->end()},
          op.getEpsilon().convertToDouble(), views->first.scale,
          views->second.scale, multipliers, offsets)
          .failed())
    return success();
  b.setInsertionPoint(sink);
  SmallVector<Location> locs{op.getLoc()};
  if (clamp)
    locs.insert(locs.begin(), clamp->getLoc());
  auto affine = ChannelAffineOp::create(
      b, FusedLoc::get(b.getContext(), locs), sink.getType(), q,
      b.getDenseF32ArrayAttr(multipliers), b.getDenseF32ArrayAttr(offsets),
      ActivationAttr::get(b.getContext(),
                          act ? act->activation : Activation::none),
      act ? act->min : FloatAttr(), act ? act->max : FloatAttr());
  b.replaceOp(sink, affine.getOutput());
  if (clamp)
    b.eraseOp(clamp);
  b.eraseOp(op);
  return success();
}
