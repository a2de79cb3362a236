//===- QuantizableTosaOps.cpp - Quantization roles of TOSA ops ------------===//
//
// The one table of how each upstream TOSA op of the float graph takes part
// in quantization (QuantizableOpInterface, see QntInterfaces.td): its role,
// and the function that converts it to its int8 form where it has one
// (QuantizeMatmul.cpp, QuantizeElementwise.cpp, QuantizeDataMovement.cpp);
// an op of role same_as_input without one keeps its input's parameters. A
// TOSA op not listed here stays float (role not_quantized).
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QuantizableTosaOps.h"
#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantParams.h"
#include "dialects/Qnt/IR/QuantizeUtils.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::qnt;

namespace {

/// The conversion of an op of type OpTy to its int8 form (see
/// QuantizableOpInterface::quantize).
template <typename OpTy>
using QuantizeFn = LogicalResult (*)(OpTy op, RewriterBase &rewriter);

/// The float bias of an op of type OpTy (see
/// QuantizableOpInterface::getFloatBias).
template <typename OpTy> using BiasFn = Value (*)(OpTy op);

/// An op whose result gets its own observed parameters; `weightAxis` >= 0
/// observes operand 1 per channel along that axis; `quantizeFn` converts it
/// (none: it stays float); `biasFn` finds its bias (none: it has none).
template <typename OpTy, int64_t weightAxis = -1,
          QuantizeFn<OpTy> quantizeFn = nullptr, BiasFn<OpTy> biasFn = nullptr>
struct Observed : QuantizableOpInterface::ExternalModel<
                      Observed<OpTy, weightAxis, quantizeFn, biasFn>, OpTy> {
  QuantRole getQuantRole(Operation *) const { return QuantRole::observed; }
  SmallVector<std::pair<unsigned, int64_t>>
  getObservedWeights(Operation *) const {
    if (weightAxis < 0)
      return {};
    return {{1u, weightAxis}};
  }
  Value getFloatBias(Operation *op) const {
    if constexpr (biasFn != nullptr)
      return biasFn(cast<OpTy>(op));
    return nullptr;
  }
  LogicalResult quantize(Operation *op, RewriterBase &rewriter) const {
    if constexpr (quantizeFn != nullptr)
      return quantizeFn(cast<OpTy>(op), rewriter);
    return success();
  }
};

/// An op whose result keeps operand 0's parameters; `moves` when it only
/// moves, selects or repeats values (it then runs on storage integers);
/// `quantizeFn` converts it to an int8 op of its own (none: keepInputParams).
template <typename OpTy, bool moves = false,
          QuantizeFn<OpTy> quantizeFn = nullptr>
struct SameAsInput : QuantizableOpInterface::ExternalModel<
                         SameAsInput<OpTy, moves, quantizeFn>, OpTy> {
  QuantRole getQuantRole(Operation *) const { return QuantRole::same_as_input; }
  bool movesStorage(Operation *) const { return moves; }
  LogicalResult quantize(Operation *op, RewriterBase &rewriter) const {
    if constexpr (quantizeFn != nullptr)
      return quantizeFn(cast<OpTy>(op), rewriter);
    keepInputParams(op, rewriter);
    return success();
  }
};

/// Data movement: keeps the parameters, runs on storage integers.
template <typename OpTy> using MovesValues = SameAsInput<OpTy, true>;

/// Resize: nearest neighbour selects input values; bilinear interpolates
/// between them (never leaving the input's range, so the parameters are
/// shared as in PyTorch) and has no int8 form yet.
struct ResizeModel
    : QuantizableOpInterface::ExternalModel<ResizeModel, tosa::ResizeOp> {
  QuantRole getQuantRole(Operation *) const { return QuantRole::same_as_input; }
  bool movesStorage(Operation *op) const {
    return cast<tosa::ResizeOp>(op).getMode() ==
           tosa::ResizeMode::NEAREST_NEIGHBOR;
  }
  LogicalResult quantize(Operation *op, RewriterBase &rewriter) const {
    return quantizeResize(cast<tosa::ResizeOp>(op), rewriter);
  }
};

/// Clamp (relu, relu6): observed, and fused into the op before it (the
/// observer goes after the clamp), unless that is another clamp.
struct ClampModel
    : QuantizableOpInterface::ExternalModel<ClampModel, tosa::ClampOp> {
  QuantRole getQuantRole(Operation *) const { return QuantRole::observed; }
  bool fusesIntoProducer(Operation *, Operation *producer) const {
    return !isa<tosa::ClampOp>(producer);
  }
};

/// Add: observed; matmul + constant bias (one value per output, as
/// quantizeMatMul takes it) is one linear layer.
struct AddModel : QuantizableOpInterface::ExternalModel<AddModel, tosa::AddOp> {
  QuantRole getQuantRole(Operation *) const { return QuantRole::observed; }
  bool fusesIntoProducer(Operation *op, Operation *producer) const {
    auto matmul = dyn_cast<tosa::MatMulOp>(producer);
    return matmul && linearBiasAdd(matmul) == op;
  }
  LogicalResult quantize(Operation *op, RewriterBase &rewriter) const {
    return quantizeAdd(cast<tosa::AddOp>(op), rewriter);
  }
};

/// Pad keeps the parameters and moves values when it pads with zero
/// (exactly representable: the zero point); another value needs its own.
/// Once quantized, its pad value is a storage value of the input's type.
struct PadModel : QuantizableOpInterface::ExternalModel<PadModel, tosa::PadOp> {
  static bool movesValues(Operation *op) {
    Value padConst = cast<tosa::PadOp>(op).getPadConst();
    if (isa<quant::QuantizedType>(getElementTypeOrSelf(padConst.getType())))
      return true;
    DenseElementsAttr value;
    return matchPattern(padConst, m_Constant(&value)) &&
           value.getElementType().isF32() && value.isSplat() &&
           value.getSplatValue<float>() == 0.0f;
  }
  QuantRole getQuantRole(Operation *op) const {
    return movesValues(op) ? QuantRole::same_as_input : QuantRole::observed;
  }
  bool movesStorage(Operation *op) const { return movesValues(op); }
  /// Padding with zero: the same pad on the quantized tensor, padding with
  /// the zero point.
  LogicalResult quantize(Operation *op, RewriterBase &rewriter) const {
    if (!movesValues(op))
      return success();
    keepInputParams(op, rewriter, [&](Value q, Type qType) -> Value {
      Value padValue = makeQuantizedConstant(
          rewriter, op->getLoc(), RankedTensorType::get({1}, elementOf(q)),
          {quantParams(elementOf(q))->zeroPoint()});
      auto pad = cast<tosa::PadOp>(rewriter.clone(*op));
      pad->setOperand(0, q);
      pad->getResult(0).setType(qType);
      pad.getPadConstMutable().assign(padValue);
      return pad.getResult();
    });
    return success();
  }
};

} // namespace

void mlir::qnt::attachQuantizableTosaModels(MLIRContext &ctx) {
  // Convolutions (weights per output channel: OHWI axis 0, HWCM axis 2) and
  // matmuls ([1, K, N] weights per N).
  tosa::Conv2DOp::attachInterface<Observed<tosa::Conv2DOp, 0>>(ctx);
  tosa::DepthwiseConv2DOp::attachInterface<
      Observed<tosa::DepthwiseConv2DOp, 2>>(ctx);
  tosa::MatMulOp::attachInterface<
      Observed<tosa::MatMulOp, 2, quantizeMatMul, linearBias>>(ctx);
  // Arithmetic and pooling with new ranges.
  tosa::AddOp::attachInterface<AddModel>(ctx);
  tosa::SubOp::attachInterface<Observed<tosa::SubOp, -1, quantizeSub>>(ctx);
  tosa::MulOp::attachInterface<Observed<tosa::MulOp, -1, quantizeMul>>(ctx);
  tosa::ReduceSumOp::attachInterface<Observed<tosa::ReduceSumOp>>(ctx);
  tosa::ConcatOp::attachInterface<Observed<tosa::ConcatOp, -1, quantizeConcat>>(
      ctx);
  tosa::ClampOp::attachInterface<ClampModel>(ctx);
  // Data movement and selection; average pooling too, as PyTorch's
  // backends share its input's parameters: a mean never leaves the input's
  // range, so its own observer would only narrow the grid to what the
  // calibration images produced (and clip on other images).
  tosa::AvgPool2dOp::attachInterface<
      SameAsInput<tosa::AvgPool2dOp, false, quantizeAvgPool>>(ctx);
  tosa::MaxPool2dOp::attachInterface<
      SameAsInput<tosa::MaxPool2dOp, false, quantizeMaxPool>>(ctx);
  tosa::ReduceMaxOp::attachInterface<SameAsInput<tosa::ReduceMaxOp>>(ctx);
  tosa::ReduceMinOp::attachInterface<SameAsInput<tosa::ReduceMinOp>>(ctx);
  tosa::ReshapeOp::attachInterface<MovesValues<tosa::ReshapeOp>>(ctx);
  tosa::TransposeOp::attachInterface<MovesValues<tosa::TransposeOp>>(ctx);
  tosa::SliceOp::attachInterface<MovesValues<tosa::SliceOp>>(ctx);
  tosa::TileOp::attachInterface<MovesValues<tosa::TileOp>>(ctx);
  tosa::ResizeOp::attachInterface<ResizeModel>(ctx);
  tosa::PadOp::attachInterface<PadModel>(ctx);
}
