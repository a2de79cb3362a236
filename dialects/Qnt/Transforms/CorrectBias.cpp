//===- CorrectBias.cpp - Weight quantization's output shift into the bias -===//
//
// Empirical bias correction (Nagel et al. 2019, section 4.2): each conv or
// linear layer that carries the means of its input (`qnt.input_mean`,
// measured on the calibration data) gets the expected output shift of its
// weight's quantization error subtracted from its float bias, which
// qnt-quantize then rounds into the int32 bias. The weight's quantized
// values are computed as qnt-quantize computes them (quantizeValues).
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantParams.h"
#include "dialects/Qnt/IR/QuantizeUtils.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTCORRECTBIAS
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

/// The attribute that carries a layer's input means.
static constexpr StringLiteral kInputMean = "qnt.input_mean";

namespace {

/// A layer's weight error `dq(q(W)) - W` and the weight's shape.
struct WeightError {
  SmallVector<double> values;
  SmallVector<int64_t> shape;
};

} // namespace

/// The error that quantizing the weight `w` (a qnt.fake_quant of a float
/// constant) leaves, or failure when `w` is not one.
static FailureOr<WeightError> weightError(Value w) {
  auto fq = w.getDefiningOp<FakeQuantOp>();
  std::optional<SmallVector<float>> values =
      fq ? floatConstant(fq.getInput()) : std::nullopt;
  std::optional<QuantParams> p = fq ? quantParams(fq.getQtype()) : std::nullopt;
  if (!values || !p)
    return failure();
  WeightError e;
  e.shape.assign(fq.getInput().getType().getShape().begin(),
                 fq.getInput().getType().getShape().end());
  SmallVector<float> dq =
      dequantizeValues(quantizeValues(*values, e.shape, *p), e.shape, *p);
  for (auto [real, rounded] : llvm::zip(*values, dq))
    e.values.push_back(double(rounded) - double(real));
  return e;
}

/// The means `op` carries, checked to number `expected`.
static FailureOr<ArrayRef<float>> inputMeans(Operation *op, int64_t expected,
                                             StringRef layout) {
  auto means = op->getAttrOfType<DenseF32ArrayAttr>(kInputMean);
  if (!means)
    return layerError(op) << kInputMean << " must be a dense f32 array";
  if (static_cast<int64_t>(means.size()) != expected)
    return layerError(op) << kInputMean << " has " << means.size()
                          << " values, expected " << expected << " (" << layout
                          << ")";
  return means.asArrayRef();
}

/// `bias - shift`, rounded to float once.
static SmallVector<float> corrected(ArrayRef<float> bias,
                                    ArrayRef<double> shift) {
  SmallVector<float> out;
  for (auto [b, s] : llvm::zip(bias, shift))
    out.push_back(static_cast<float>(double(b) - s));
  return out;
}

namespace {

struct QntCorrectBiasPass
    : public mlir::qnt::impl::QntCorrectBiasBase<QntCorrectBiasPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::StringSet<> excluded;
    for (const std::string &e : exclude)
      excluded.insert(e);
    SmallVector<Operation *> layers;
    getOperation().walk([&](Operation *op) {
      if (op->hasAttr(kInputMean))
        layers.push_back(op);
    });
    for (Operation *op : layers) {
      LogicalResult done = success();
      if (!isExcludedLayer(op, excluded)) {
        if (auto conv = dyn_cast<Conv2DOp>(op))
          done = correctConv(conv);
        else if (auto matmul = dyn_cast<tosa::MatMulOp>(op))
          done = correctLinear(matmul);
        else
          done = layerError(op) << kInputMean
                                << " on an op that is neither a float "
                                   "qnt.conv2d nor a tosa.matmul";
      }
      if (failed(done))
        return signalPassFailure();
      op->removeAttr(kInputMean);
    }
  }

  LogicalResult correctConv(Conv2DOp op);
  LogicalResult correctLinear(tosa::MatMulOp op);
};

} // namespace

LogicalResult QntCorrectBiasPass::correctConv(Conv2DOp op) {
  FailureOr<WeightError> dw = weightError(op.getFilter());
  if (failed(dw))
    return layerError(op) << "the filter is not a qnt.fake_quant of a "
                             "constant (fold the observers first)";
  // Filter OHWI: [O, KH, KW, C / groups].
  int64_t o = dw->shape[0], kh = dw->shape[1], kw = dw->shape[2],
          cg = dw->shape[3];
  int64_t c = op.getInput().getType().getDimSize(3);
  int64_t groups = op.getGroups();
  std::string layout =
      llvm::formatv("KH x KW x C = {0} x {1} x {2}", kh, kw, c).str();
  FailureOr<ArrayRef<float>> m = inputMeans(op, kh * kw * c, layout);
  if (failed(m))
    return failure();
  SmallVector<float> bias(o, 0.0f);
  if (Value b = op.getBias()) {
    std::optional<SmallVector<float>> fb = floatConstant(b);
    if (!fb)
      return layerError(op) << "the bias is not a constant";
    bias = *fb;
  }
  // Output channel `oc` of group `g` reads input channels [g * cg, g * cg
  // + cg).
  SmallVector<double> shift(o, 0.0);
  int64_t perGroup = o / groups;
  for (int64_t oc = 0; oc < o; ++oc) {
    int64_t first = (oc / perGroup) * cg;
    double sum = 0;
    for (int64_t t = 0; t < kh * kw; ++t)
      for (int64_t i = 0; i < cg; ++i)
        sum += dw->values[(oc * kh * kw + t) * cg + i] *
               double((*m)[t * c + first + i]);
    shift[oc] = sum;
  }
  OpBuilder b(op);
  auto type = RankedTensorType::get({o}, b.getF32Type());
  Value newBias = arith::ConstantOp::create(
      b, op.getLoc(),
      DenseElementsAttr::get(type, ArrayRef<float>(corrected(bias, shift))));
  op.getBiasMutable().assign(newBias);
  return success();
}

LogicalResult QntCorrectBiasPass::correctLinear(tosa::MatMulOp op) {
  FailureOr<WeightError> dw = weightError(op.getB());
  if (failed(dw) || dw->shape[0] != 1)
    return layerError(op) << "the weight is not a [1, K, N] qnt.fake_quant "
                             "of a constant (fold the observers first)";
  int64_t k = dw->shape[1], n = dw->shape[2];
  FailureOr<ArrayRef<float>> m =
      inputMeans(op, k, llvm::formatv("K = {0}", k).str());
  if (failed(m))
    return failure();
  SmallVector<double> shift(n, 0.0);
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j)
      shift[j] += dw->values[i * n + j] * double((*m)[i]);
  // The bias add that qnt-quantize makes the linear layer's bias.
  Value result = op.getResult();
  OpBuilder b(op->getContext());
  if (result.hasOneUse())
    if (auto add = dyn_cast<tosa::AddOp>(*result.getUsers().begin())) {
      OpOperand &other = add.getInput1() == result ? add.getInput2Mutable()
                                                   : add.getInput1Mutable();
      std::optional<SmallVector<float>> fb = floatConstant(other.get());
      if (fb && static_cast<int64_t>(fb->size()) == n) {
        b.setInsertionPoint(add);
        auto type = cast<RankedTensorType>(other.get().getType());
        other.set(arith::ConstantOp::create(
            b, add.getLoc(),
            DenseElementsAttr::get(type,
                                   ArrayRef<float>(corrected(*fb, shift)))));
        return success();
      }
    }
  // None: a bias add of the correction, [1, 1, N] against [1, M, N].
  b.setInsertionPointAfter(op);
  auto type = RankedTensorType::get({1, 1, n}, b.getF32Type());
  Value bias = arith::ConstantOp::create(
      b, op.getLoc(),
      DenseElementsAttr::get(type, ArrayRef<float>(corrected(
                                       SmallVector<float>(n, 0.0f), shift))));
  auto add =
      tosa::AddOp::create(b, op.getLoc(), result.getType(), result, bias);
  result.replaceAllUsesExcept(add.getResult(), add);
  return success();
}
