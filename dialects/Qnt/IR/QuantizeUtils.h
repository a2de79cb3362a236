//===- QuantizeUtils.h - Pieces of QuantizableOpInterface::quantize -*- C++
//-*-===//
//
// What the `quantize` methods of QuantizableOpInterface share: reading the
// QDQ form qnt-quantize builds (an op between the dequantizes of its
// quantized operands and the quantize of its result), building quantized
// constants, and the role same_as_input. Each op's own conversion lives next
// to it: the qnt ops' in Quantize<Op>.cpp, the TOSA ops' in the files
// declared below, attached by QuantizableTosaOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef QNT_IR_QUANTIZEUTILS_H
#define QNT_IR_QUANTIZEUTILS_H

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Reference/Reference.h"

#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::qnt {

//===----------------------------------------------------------------------===//
// The QDQ form
//===----------------------------------------------------------------------===//

/// The unit attribute of a layer that produces a model output in float
/// (qnt-float-outputs): qnt-quantize builds its dequantized-output form.
constexpr llvm::StringLiteral kFloatOutputAttr = "qnt.float_output";

/// The element type of the shaped value `v`.
Type elementOf(Value v);
/// `q` for a value `dcast(q)`, else null.
Value quantizedSource(Value v);
/// The qcast that is the only user of `v`, else null.
quant::QuantizeCastOp quantizedSink(Value v);
/// The raw storage values of a quantized constant `scast(arith.constant)`.
std::optional<SmallVector<int32_t>> constantStorage(Value q);
/// The values of a float32 constant.
std::optional<SmallVector<float>> floatConstant(Value v);
/// A quantized constant: raw `values` stored as the storage type, cast to
/// `type` (whose element type is quantized).
Value makeQuantizedConstant(OpBuilder &b, Location loc, RankedTensorType type,
                            ArrayRef<int32_t> values);
/// A float clamp to [0, +inf): relu.
bool isRelu(tosa::ClampOp clamp);
/// The clamp that is the only user of `result`, with its fused activation;
/// `result` moves to the clamp's result. {nullptr, nullopt} otherwise.
std::pair<Operation *, std::optional<FusedClamp>> clampAfter(Value &result);
/// The reference views of an element-wise op's quantized input `q` and of
/// the qcast `sink` of its result, when both are per-tensor 8-bit; nullopt
/// otherwise (or when either is missing).
std::optional<std::pair<quantc::ref::QTensor, quantc::ref::QTensor>>
elementwiseViews(Value q, quant::QuantizeCastOp sink);
/// An error at `op` that names its layer and op.
InFlightDiagnostic layerError(Operation *op);
/// A warning at `op` that names its layer and op.
InFlightDiagnostic layerWarning(Operation *op);
/// Whether `op` is a layer named in `excluded`: by its op name, by a name of
/// its (fused) location, or by the name of the observer of its output (a
/// `qnt.fake_quant`, or the qcast it became), which survives printing IR
/// without debug info.
bool isExcludedLayer(Operation *op, const llvm::StringSet<> &excluded);

//===----------------------------------------------------------------------===//
// Constants quantized as the reference quantizes them
//===----------------------------------------------------------------------===//

struct QuantParams;

/// The storage values of the float constant `values` of shape `shape`
/// quantized with `p` (per tensor, or per channel along `p.axis`):
/// `quantc::ref::quantize` of each element.
SmallVector<int32_t> quantizeValues(ArrayRef<float> values,
                                    ArrayRef<int64_t> shape,
                                    const QuantParams &p);
/// The real values of the storage values `q` of shape `shape` with `p`:
/// `quantc::ref::dequantize` of each element.
SmallVector<float> dequantizeValues(ArrayRef<int32_t> q,
                                    ArrayRef<int64_t> shape,
                                    const QuantParams &p);

/// WeightScaleForBias.cpp: before qnt-quantize quantizes the weights, each
/// layer under `root` with a bias (QuantizableOpInterface::getFloatBias) and
/// observer-chosen weight parameters, not in `excluded`, whose int32
/// accumulator cannot hold its bias plus the weighted sum of any input at
/// input_scale * weight_scale gets the weight scale of those channels (per
/// tensor: the tensor's) raised on its weight's qnt.fake_quant until it
/// can, with a warning naming the layer, channels and old and new scales.
void fitWeightScalesToBiases(Operation *root,
                             const llvm::StringSet<> &excluded);

//===----------------------------------------------------------------------===//
// Role same_as_input
//===----------------------------------------------------------------------===//

/// Builds an op's int8 form on its quantized operand 0 `q`, with result type
/// `qType` (the input's parameters), or returns null.
using Int8Form = llvm::function_ref<Value(Value q, Type qType)>;

/// An op whose result keeps its input's parameters: its `int8Form` when
/// given and not null; else for data movement (movesStorage) the same op on
/// the quantized tensor (a zero pad padding with the zero point); else the
/// op stays float between a dequantize and a quantize with the input's
/// parameters (exact: its values lie on the input's grid).
void keepInputParams(Operation *op, RewriterBase &rewriter,
                     Int8Form int8Form = nullptr);
/// An excluded layer of role same_as_input: the op stays float and only its
/// result is quantized with the input's parameters.
void keepInputParamsInFloat(Operation *op, RewriterBase &rewriter);

//===----------------------------------------------------------------------===//
// The quantize methods of TOSA ops (attached in QuantizableTosaOps.cpp)
//===----------------------------------------------------------------------===//

/// QuantizeMatmul.cpp: a linear layer (constant weights) or a matmul of two
/// activations.
LogicalResult quantizeMatMul(tosa::MatMulOp op, RewriterBase &rewriter);
/// The bias add of a linear layer: the add that is the only user of `op`'s
/// result, with a float constant of N values (`op`'s [1, K, N] weight) as
/// its other operand; null otherwise.
tosa::AddOp linearBiasAdd(tosa::MatMulOp op);
/// That bias add's float constant, or null.
Value linearBias(tosa::MatMulOp op);
/// QuantizeElementwise.cpp: add / sub / mul of two quantized activations, or
/// of one and a constant (a lookup table).
LogicalResult quantizeAdd(tosa::AddOp op, RewriterBase &rewriter);
LogicalResult quantizeSub(tosa::SubOp op, RewriterBase &rewriter);
LogicalResult quantizeMul(tosa::MulOp op, RewriterBase &rewriter);
/// QuantizeDataMovement.cpp: pooling, bilinear resize and concat.
LogicalResult quantizeAvgPool(tosa::AvgPool2dOp op, RewriterBase &rewriter);
LogicalResult quantizeMaxPool(tosa::MaxPool2dOp op, RewriterBase &rewriter);
LogicalResult quantizeResize(tosa::ResizeOp op, RewriterBase &rewriter);
LogicalResult quantizeConcat(tosa::ConcatOp op, RewriterBase &rewriter);

} // namespace mlir::qnt

#endif // QNT_IR_QUANTIZEUTILS_H
