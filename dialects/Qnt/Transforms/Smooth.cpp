//===- Smooth.cpp - SmoothQuant: activation outliers into the weights -----===//
//
// qnt-smooth: Xiao et al. 2023, "SmoothQuant: Accurate and Efficient
// Post-Training Quantization for Large Language Models". A layer norm's
// output X is divided by s per channel and every layer reading it has its
// input channel multiplied by s: X' W' = (X / s)(diag(s) W) = X W. The
// division is folded into the layer norm's gamma and beta, so the model
// computes the same function; s_k = max|X_k|^alpha / max|W_k|^(1 - alpha)
// narrows the channels with outliers (the activation's per-tensor int8
// range) at the cost of the weights' ranges (quantized per output channel,
// so one input channel's growth is shared out).
//
// The layer norm is smoothed only where the fold is exact: every path from
// its output goes through ops that keep the channel in the last dimension
// and are linear per channel (reshape, transpose, slice, concat of values
// that all come from it, average pooling) to the input of a float layer with
// a constant weight (a linear layer: tosa.matmul with a [1, K, N] weight; a
// float qnt.conv2d). A nonlinearity (GELU), a residual add or a result on
// the way has no exact fold: the layer norm is left alone with a remark
// saying why.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantizeUtils.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"
#include <algorithm>
#include <cmath>

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTSMOOTH
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

/// The attribute post-training quantization attaches to a layer norm: the
/// per-channel max |output| over the calibration data (dense f32 array).
static constexpr llvm::StringLiteral kAbsMaxAttr = "qnt.smooth_absmax";

namespace {

/// A layer that reads the smoothed activation through a constant weight:
/// weight element e belongs to input channel channelOf(e).
struct Reader {
  OpOperand *weight = nullptr;
  SmallVector<float> w;
  /// Elements per input-channel step and the layout of a conv filter
  /// (OHWI, I = C / groups): see channelOf.
  int64_t inner = 1, perGroupIn = 0, perGroupOut = 0;

  int64_t channelOf(int64_t e) const {
    if (perGroupIn == 0)
      return e / inner; // A [1, K, N] matmul weight: e = k * N + n.
    int64_t o = e / inner, i = e % perGroupIn;
    return (o / perGroupOut) * perGroupIn + i;
  }
};

int64_t lastDim(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getRank() > 0 ? t.getShape().back() : ShapedType::kDynamic;
}

/// Whether `op` moves data so that its result's channel (last dimension,
/// `channels` long) is that of the element it came from.
bool keepsChannels(Operation *op, int64_t channels) {
  if (op->getNumResults() != 1 || lastDim(op->getResult(0)) != channels)
    return false;
  if (isa<tosa::ReshapeOp>(op)) // Flat order kept, last dimensions equal.
    return lastDim(op->getOperand(0)) == channels;
  if (auto t = dyn_cast<tosa::TransposeOp>(op))
    return t.getPerms().back() == static_cast<int32_t>(t.getPerms().size() - 1);
  if (isa<tosa::SliceOp>(op)) // The whole last dimension.
    return lastDim(op->getOperand(0)) == channels;
  if (isa<tosa::AvgPool2dOp>(op)) // NHWC; a mean per channel, zero padding.
    return lastDim(op->getOperand(0)) == channels;
  if (auto c = dyn_cast<tosa::ConcatOp>(op)) // Not along the channels.
    return c.getAxis() !=
           cast<RankedTensorType>(c.getResult().getType()).getRank() - 1;
  return false;
}

/// The reader of the use `use` of a value with `channels` channels, or
/// nullopt when it is no float layer with a constant weight reading it.
std::optional<Reader> readerOf(OpOperand &use, int64_t channels) {
  Operation *op = use.getOwner();
  if (auto mm = dyn_cast<tosa::MatMulOp>(op)) {
    auto type = cast<RankedTensorType>(mm.getB().getType());
    std::optional<SmallVector<float>> w = floatConstant(mm.getB());
    if (use.getOperandNumber() != 0 || !w || type.getDimSize(0) != 1 ||
        type.getDimSize(1) != channels)
      return std::nullopt;
    return Reader{&mm.getBMutable(), std::move(*w), type.getDimSize(2)};
  }
  if (auto conv = dyn_cast<Conv2DOp>(op)) {
    std::optional<SmallVector<float>> w = floatConstant(conv.getFilter());
    if (conv.isQuantized() || use.get() != conv.getInput() || !w)
      return std::nullopt;
    auto type = cast<RankedTensorType>(conv.getFilter().getType());
    int64_t groups = conv.getGroups(), out = type.getDimSize(0);
    int64_t inner = type.getNumElements() / out;
    return Reader{&conv.getFilterMutable(), std::move(*w), inner,
                  type.getDimSize(3), out / groups};
  }
  return std::nullopt;
}

/// Every layer reading `output` (a layer norm's) through channel-keeping
/// data movement, or failure with the reason in `why`.
FailureOr<SmallVector<Reader>> findReaders(Value output, std::string &why) {
  int64_t channels = lastDim(output);
  SmallVector<Reader> readers;
  llvm::SetVector<Value> moved;
  moved.insert(output);
  SmallVector<tosa::ConcatOp> concats;
  for (size_t i = 0; i < moved.size(); ++i) {
    for (OpOperand &use : moved[i].getUses()) {
      Operation *user = use.getOwner();
      if (std::optional<Reader> reader = readerOf(use, channels)) {
        readers.push_back(std::move(*reader));
        continue;
      }
      if (!keepsChannels(user, channels)) {
        why = ("it feeds " + user->getName().getStringRef() +
               ", not a float layer with constant weights (no exact fold)")
                  .str();
        return failure();
      }
      if (auto concat = dyn_cast<tosa::ConcatOp>(user))
        concats.push_back(concat);
      moved.insert(user->getResult(0));
    }
  }
  for (tosa::ConcatOp concat : concats)
    if (!llvm::all_of(concat.getOperands(),
                      [&](Value v) { return moved.contains(v); })) {
      why = "it is concatenated with a value it does not produce";
      return failure();
    }
  if (readers.empty()) {
    why = "no layer reads it";
    return failure();
  }
  return readers;
}

/// max / (lower) median of the positive `v` (1 when empty).
double spread(ArrayRef<double> v) {
  SmallVector<double> sorted(v);
  llvm::sort(sorted);
  double median = sorted.empty() ? 0 : sorted[(sorted.size() - 1) / 2];
  return median > 0 ? sorted.back() / median : 1.0;
}

struct QntSmoothPass : public mlir::qnt::impl::QntSmoothBase<QntSmoothPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult smooth(LayerNormOp op);
  /// The smoothing scales of the channels: max|X_k|^alpha /
  /// max|W_k|^(1 - alpha), 1 where either is 0 (or not finite).
  SmallVector<double> scales(ArrayRef<float> absMax,
                             ArrayRef<Reader> readers) const;
  void rewrite(LayerNormOp op, ArrayRef<double> s,
               MutableArrayRef<Reader> readers, ArrayRef<float> gamma,
               ArrayRef<float> beta);

  llvm::SetVector<Operation *> replacedConstants;
};

void QntSmoothPass::runOnOperation() {
  if (!(alpha > 0 && alpha < 1)) {
    getOperation().emitError()
        << "qnt-smooth: alpha must lie in (0, 1), got " << alpha;
    return signalPassFailure();
  }
  SmallVector<LayerNormOp> norms;
  getOperation().walk([&](LayerNormOp op) {
    if (op->hasAttr(kAbsMaxAttr))
      norms.push_back(op);
  });
  for (LayerNormOp op : norms)
    if (failed(smooth(op)))
      return signalPassFailure();
  for (Operation *c : replacedConstants)
    if (c->use_empty())
      c->erase();
}

LogicalResult QntSmoothPass::smooth(LayerNormOp op) {
  auto absMax = op->getAttrOfType<DenseF32ArrayAttr>(kAbsMaxAttr);
  op->removeAttr(kAbsMaxAttr);
  auto type = cast<RankedTensorType>(op.getType());
  int64_t channels = type.getShape().back();
  if (!absMax)
    return op.emitOpError() << kAbsMaxAttr << " must be a dense f32 array";
  if (static_cast<int64_t>(absMax.size()) != channels)
    return op.emitOpError() << kAbsMaxAttr << " has " << absMax.size()
                            << " values for " << channels << " channels";
  std::optional<SmallVector<float>> gamma = floatConstant(op.getGamma());
  std::optional<SmallVector<float>> beta = floatConstant(op.getBeta());
  std::string why;
  FailureOr<SmallVector<Reader>> readers = failure();
  if (static_cast<int64_t>(op.getAxis()) != type.getRank() - 1)
    why = "it normalizes more than the last dimension";
  else if (!gamma || !beta)
    why = "its gamma or beta is not a constant";
  else
    readers = findReaders(op.getResult(), why);
  if (failed(readers)) {
    op.emitRemark() << "not smoothed: " << why;
    return success();
  }
  SmallVector<double> s = scales(absMax.asArrayRef(), *readers);
  SmallVector<double> before, after;
  for (int64_t k = 0; k < channels; ++k) {
    before.push_back(absMax[k]);
    after.push_back(absMax[k] / s[k]);
  }
  auto [lo, hi] = std::minmax_element(s.begin(), s.end());
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "smoothed into " << readers->size() << " layer(s), alpha "
     << llvm::format("%g", alpha.getValue()) << ": channel max|x| max/median "
     << llvm::format("%.3g -> %.3g", spread(before), spread(after))
     << ", scales in " << llvm::format("[%.3g, %.3g]", *lo, *hi);
  op.emitRemark() << message;
  rewrite(op, s, *readers, *gamma, *beta);
  return success();
}

SmallVector<double> QntSmoothPass::scales(ArrayRef<float> absMax,
                                          ArrayRef<Reader> readers) const {
  SmallVector<double> wMax(absMax.size(), 0.0);
  for (const Reader &r : readers)
    for (auto [e, w] : llvm::enumerate(r.w)) {
      double &m = wMax[r.channelOf(e)];
      m = std::max(m, std::fabs(static_cast<double>(w)));
    }
  SmallVector<double> s(absMax.size(), 1.0);
  for (auto [k, x] : llvm::enumerate(absMax))
    if (x > 0 && std::isfinite(x) && wMax[k] > 0 && std::isfinite(wMax[k]))
      s[k] = std::pow(static_cast<double>(x), alpha.getValue()) /
             std::pow(wMax[k], 1.0 - alpha.getValue());
  return s;
}

void QntSmoothPass::rewrite(LayerNormOp op, ArrayRef<double> s,
                            MutableArrayRef<Reader> readers,
                            ArrayRef<float> gamma, ArrayRef<float> beta) {
  OpBuilder b(op);
  auto constant = [&](Value old, ArrayRef<float> values) {
    replacedConstants.insert(old.getDefiningOp());
    auto type = cast<RankedTensorType>(old.getType());
    return arith::ConstantOp::create(b, old.getLoc(),
                                     DenseElementsAttr::get(type, values));
  };
  SmallVector<float> g(gamma.size()), bt(beta.size());
  for (size_t k = 0; k < s.size(); ++k) {
    g[k] = static_cast<float>(gamma[k] / s[k]);
    bt[k] = static_cast<float>(beta[k] / s[k]);
  }
  op.getGammaMutable().assign(constant(op.getGamma(), g));
  op.getBetaMutable().assign(constant(op.getBeta(), bt));
  for (Reader &r : readers) {
    SmallVector<float> w(r.w.size());
    for (auto [e, v] : llvm::enumerate(r.w))
      w[e] = static_cast<float>(v * s[r.channelOf(e)]);
    b.setInsertionPoint(r.weight->getOwner());
    r.weight->assign(constant(r.weight->get(), w));
  }
}

} // namespace
