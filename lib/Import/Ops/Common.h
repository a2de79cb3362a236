//===- Common.h - Helpers shared by several op categories -------*- C++ -*-===//
//
// Private to lib/Import/Ops: the window attributes of convolutions and
// pools, and quantized weights (a DequantizeLinear'ed initializer or a
// QuantizeLinear -> DequantizeLinear pair on a constant).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_LIB_IMPORT_OPS_COMMON_H
#define QUANTC_LIB_IMPORT_OPS_COMMON_H

#include "../Importer.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"

#include <optional>

namespace quantc::onnx_import {

/// The window of a 2-D convolution or pool, read from `strides`,
/// `dilations`, `pads` and `auto_pad` and checked against the input size.
struct Window {
  llvm::SmallVector<int64_t> strides, dilations;
  /// [top, bottom, left, right] (the order of TOSA and qnt ops).
  llvm::SmallVector<int64_t> pad;
};
/// A 1-D window (one value in `kernel`, `h` = 1: the op's input is
/// [N, C, L], read as [N, C, 1, L]) is returned as the 2-D window with H = 1.
mlir::FailureOr<Window> readWindow(NodeImporter &n, int64_t h, int64_t w,
                                   llvm::ArrayRef<int64_t> kernel,
                                   bool allowDilation = true);

/// The integer attribute `name` of a window op with `spatial` (1 or 2)
/// dimensions, `perDim` values per dimension (1: strides, 2: pads as
/// [begins..., ends...]), widened to 2-D (H = 1 first: `fill` for H) and
/// checked for its length. Absent: `dflt` for each value.
mlir::FailureOr<llvm::SmallVector<int64_t>>
spatialInts(NodeImporter &n, llvm::StringRef name, int64_t spatial,
            int64_t perDim, int64_t dflt, int64_t fill);

/// The convolution of the NHWC `input` with the OIHW `weight` (`qdq`: its
/// quantization, per tensor or along axis 0), `bias` (one per output
/// channel, or null), `group`, `strides`, `pad` ([top, bottom, left,
/// right]) and `dilations`: tosa.conv2d, tosa.depthwise_conv2d or (groups,
/// or a floor-mode window TOSA cannot size exactly) the float qnt.conv2d.
/// NHWC result.
mlir::FailureOr<mlir::Value>
buildConv2d(NodeImporter &n, mlir::Value input, const ConstTensor &weight,
            const PendingQuant *qdq, const ConstTensor *bias, int64_t group,
            llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> pad,
            llvm::ArrayRef<int64_t> dilations);

/// ConvTranspose (ConvTranspose.cpp), registered with the convolutions.
mlir::LogicalResult convTranspose(NodeImporter &n);

/// Output size of a window along one dimension (floor mode).
inline int64_t windowOutSize(int64_t in, int64_t padBegin, int64_t padEnd,
                             int64_t kernel, int64_t stride,
                             int64_t dilation = 1) {
  return (in + padBegin + padEnd - dilation * (kernel - 1) - 1) / stride + 1;
}

/// A zero tosa.pad of only H and W of an NHWC `input`: the unpadded input,
/// with its pads added to `pad` ([top, bottom, left, right]); otherwise
/// `input`. A convolution takes it as its own padding, an average pool as
/// padding that counts in the average (how PyTorch exports
/// count_include_pad=True).
mlir::Value foldZeroPad(mlir::Value input, llvm::SmallVectorImpl<int64_t> &pad);

/// Input `i` as a constant weight; `qdq` is set when it is quantized (a
/// DequantizeLinear of an initializer or a QDQ pair on a constant).
const ConstTensor *weight(NodeImporter &n, int i, const PendingQuant *&qdq);

/// The operands of a 1-D or 2-D convolution (Conv, ConvTranspose): input 0
/// an activation [N, C, L] or [N, C, H, W], input 1 a constant weight of
/// the same rank (quantized or not), input 2 an optional constant bias. A
/// 1-D one reads as the 2-D one with H = 1: `inShape` and `w` get a unit
/// dimension at index 2. `what` names the op in the rank error ("only 1-D
/// and 2-D <what> (3-D or 4-D input) are supported").
struct ConvOperands {
  Act x;
  bool oneD;
  llvm::SmallVector<int64_t> inShape; ///< ONNX order, 4-D
  ConstTensor w;                      ///< 4-D
  const PendingQuant *qdq;
  const ConstTensor *bias; ///< null when absent
};
mlir::FailureOr<ConvOperands> readConvOperands(NodeImporter &n,
                                               llvm::StringRef what);

/// The scale (input `scaleInput`) and optional zero point (input `zpInput`,
/// null when absent) of a quantized tensor, checked against the ONNX spec:
/// a scalar or 1-D float scale, each finite and positive (and a normal
/// float32, so that requantization multipliers stay finite); a zero point
/// of the same shape, int8 / uint8 (or int32 for `int32Allowed`, a bias),
/// each inside its type's range.
mlir::LogicalResult quantParams(NodeImporter &n, int scaleInput, int zpInput,
                                const ConstTensor *&scale,
                                const ConstTensor *&zp,
                                bool int32Allowed = false);

/// The !quant type of `q` with its per-axis dimension at `irAxis`.
mlir::quant::QuantizedType quantType(NodeImporter &n, const PendingQuant &q,
                                     int64_t irAxis);

/// qnt.fake_quant of `v` to `qtype`, named `name`.
mlir::Value fakeQuant(NodeImporter &n, mlir::Value v,
                      mlir::quant::QuantizedType qtype, llvm::StringRef name);

/// The value of `v` if it is a constant whose elements are all equal (a
/// tosa.const splat, or tosa.reciprocal of one: how Div by a constant is
/// imported).
std::optional<double> splatValue(mlir::Value v);

/// qnt.layer_norm of `x` if `numerator / denominator` (a Div's inputs) is
/// the layer normalization PyTorch exports below opset 17: `numerator = x -
/// ReduceMean(x)` and `denominator = Sqrt(ReduceMean(numerator ^ 2) + eps)`
/// (or the square as numerator * numerator) over the trailing dimensions
/// (in IR order). Null otherwise.
mlir::Value matchLayerNorm(NodeImporter &n, const Act &numerator,
                           const Act &denominator);

/// A qnt.layer_norm equal to `a * c` (`isMul`) or `a + c` when `a` is a
/// qnt.layer_norm and the constant `c` broadcasts along its normalized
/// dimensions only (nn.LayerNorm's weight and bias): the product goes into
/// gamma and beta, the sum into beta. Null otherwise.
mlir::Value foldIntoLayerNorm(NodeImporter &n, const Act &a,
                              const ConstTensor &c, bool isMul);

/// A view of a qnt.group_norm equal to `a * c` (`isMul`) or `a + c` when
/// `a` is a qnt.group_norm or a view of one (tosa.reshape / transpose) and
/// the constant `c` is one value per channel of the group norm (PyTorch's
/// nn.GroupNorm weight and bias after the exported Reshape back): folded
/// into its gamma and beta, the result in `layout`. Null otherwise.
mlir::Value foldIntoGroupNorm(NodeImporter &n, const Act &a,
                              const ConstTensor &c, bool isMul, Layout &layout);

/// The float values of a constant tensor (a layer or group norm's gamma and
/// beta), or none.
std::optional<std::vector<float>> constantValues(mlir::Value v);

class OpRegistry;
/// InstanceNormalization and GroupNormalization (GroupNorm.cpp), registered
/// by registerNormalizationOps.
void registerGroupNormOps(OpRegistry &registry);

} // namespace quantc::onnx_import

#endif // QUANTC_LIB_IMPORT_OPS_COMMON_H
