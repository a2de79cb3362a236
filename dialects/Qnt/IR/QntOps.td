//===- QntOps.td - Operations of the qnt dialect -----------*- tablegen -*-===//
//
// Observers, fake quantization, inference batch norm and quantized kernels.
// Quantized ops take and return tensors of upstream `!quant.uniform` types.
//
//===----------------------------------------------------------------------===//

#ifndef QNT_OPS_TD
#define QNT_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/Quant/IR/QuantBase.td"
include "QntDialect.td"
include "QntEnums.td"
include "QntAttrs.td"

def Qnt_F32Tensor : RankedTensorOf<[F32]>;

//===----------------------------------------------------------------------===//
// qnt.observe
//===----------------------------------------------------------------------===//

def Qnt_ObserveOp : Qnt_Op<"observe", [SameOperandsAndResultType]> {
  let summary = "Identity that records statistics of a float tensor";
  let description = [{
    Returns its input unchanged. When the model is compiled for calibration,
    every execution of the op updates the observer's statistics (min/max,
    moving averages or a histogram, as `config` says); the calibration tool
    writes them back into `state`. Folding replaces a calibrated observer by
    `qnt.fake_quant` with the scale and zero point derived from `state`.

    `name` identifies the observer in calibration profiles and reports
    (usually the producing layer's name).

    The op is not `Pure`: it must survive dead-code elimination until
    calibration is done, even when its result is unused.

    Example:
    ```mlir
    %1 = qnt.observe %0 config <kind = per_channel_min_max, dtype = qint8,
           qscheme = symmetric, ch_axis = 0>
           state <batches = 1, min = array<f32: -1.0, -0.5>,
                  max = array<f32: 1.0, 2.0>> {name = "conv1.weight"}
           : tensor<2x3x3x1xf32>
    ```
  }];
  let arguments = (ins
    Qnt_F32Tensor:$input,
    Qnt_ObserverConfigAttr:$config,
    OptionalAttr<Qnt_ObserverStateAttr>:$state,
    OptionalAttr<StrAttr>:$name
  );
  let results = (outs Qnt_F32Tensor:$output);
  let assemblyFormat = [{
    $input `config` $config (`state` $state^)? attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The channel axis as a non-negative index, for per-channel kinds.
    std::optional<int64_t> getNormalizedChannelAxis();
  }];
}

//===----------------------------------------------------------------------===//
// qnt.fake_quant
//===----------------------------------------------------------------------===//

def Qnt_FakeQuantOp : Qnt_Op<"fake_quant", [Pure, SameOperandsAndResultType]> {
  let summary = "Quantize then dequantize in float";
  let description = [{
    Computes `(clamp(round(x / scale) + zero_point, qmin, qmax) - zero_point)
    * scale` element-wise, with round-half-to-even, as PyTorch's
    `fake_quantize_per_tensor_affine` / `fake_quantize_per_channel_affine`
    and an ONNX QuantizeLinear + DequantizeLinear pair do.

    All quantization parameters come from `qtype`, an upstream
    `!quant.uniform` type: scale(s), zero point(s), the quantized range
    (its storage type, or explicit `<qmin:qmax>`) and, for per-axis types,
    the axis. Its expressed type must be the tensor's element type.

    `range_min` / `range_max` keep the float range the parameters were
    derived from (one value per scale) so that the origin of every scale
    stays visible after calibration has been folded away; `name` is the name
    of the observer it came from.

    Example:
    ```mlir
    %1 = qnt.fake_quant %0 to !quant.uniform<u8:f32, 0.0235:0>
           {range_min = array<f32: 0.0>, range_max = array<f32: 6.0>}
           : tensor<1x8x8x16xf32>
    ```
  }];
  let arguments = (ins
    Qnt_F32Tensor:$input,
    TypeAttrOf<quant_QuantizedType>:$qtype,
    OptionalAttr<DenseF32ArrayAttr>:$range_min,
    OptionalAttr<DenseF32ArrayAttr>:$range_max,
    OptionalAttr<StrAttr>:$name
  );
  let results = (outs Qnt_F32Tensor:$output);
  let assemblyFormat = "$input `to` $qtype attr-dict `:` type($input)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// qnt.batch_norm
//===----------------------------------------------------------------------===//

def Qnt_BatchNormOp : Qnt_Op<"batch_norm", [Pure,
    AllTypesMatch<["input", "output"]>,
    AllTypesMatch<["gamma", "beta", "mean", "var"]>]> {
  let summary = "Inference batch normalization";
  let description = [{
    `y = (x - mean[c]) / sqrt(var[c] + epsilon) * gamma[c] + beta[c]` where
    `c` is the index along `axis` (default -1: the last dimension, channels
    in the NHWC layout the float graph uses). The four parameter tensors
    have one element per channel.

    Example:
    ```mlir
    %1 = qnt.batch_norm %0, %gamma, %beta, %mean, %var {epsilon = 1.0e-05 : f32}
           : tensor<1x8x8x16xf32>, tensor<16xf32>
    ```
  }];
  let arguments = (ins
    Qnt_F32Tensor:$input,
    TensorRankOf<[F32], [1]>:$gamma,
    TensorRankOf<[F32], [1]>:$beta,
    TensorRankOf<[F32], [1]>:$mean,
    TensorRankOf<[F32], [1]>:$var,
    DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon,
    DefaultValuedAttr<I64Attr, "-1">:$axis
  );
  let results = (outs Qnt_F32Tensor:$output);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta `,` $mean `,` $var attr-dict `:` type($input)
    `,` type($gamma)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// qnt.conv2d
//===----------------------------------------------------------------------===//

def Qnt_Conv2DOp : Qnt_Op<"conv2d", [Pure]> {
  let summary = "Quantized 2-D convolution (qconv), NHWC";
  let description = [{
    An int8 convolution: `input` is NHWC with a per-tensor 8-bit
    `!quant.uniform` element type (u8 or i8), `filter` is OHWI (I = C/groups)
    with an i8 element type quantized per tensor or per output channel
    (quantized dimension 0) with zero points 0, `bias` (optional) has one
    i32 element per output channel quantized with scale
    `input_scale * filter_scale[o]` and zero point 0. The result is NHWC with
    a per-tensor 8-bit quantized type.

    Accumulation is exact in int32; the result is requantized from scale
    `input_scale * filter_scale[o]` to the result scale, offset by the result
    zero point, and clamped by the fused activation (`relu`: x >= 0,
    `relu6`: 0 <= x <= 6, `clamp`: `clamp_min` <= x <= `clamp_max`, bounds in
    the real domain) and the result's quantized range.

    `pad` is [top, bottom, left, right]; padding reads the input zero point
    (real 0). `groups` splits channels; `groups` = C with one filter input
    channel is a depthwise convolution.

    Example:
    ```mlir
    %y = qnt.conv2d %x, %w, %b {pad = array<i64: 1, 1, 1, 1>, activation = relu}
      : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>,
         tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>,
         tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>)
      -> tensor<1x8x8x2x!quant.uniform<u8:f32, 0.1>>
    ```
  }];
  let arguments = (ins
    TensorRankOf<[quant_QuantizedType], [4]>:$input,
    TensorRankOf<[quant_QuantizedType], [4]>:$filter,
    Optional<TensorRankOf<[quant_QuantizedType], [1]>>:$bias,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pad,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
    DefaultValuedAttr<I64Attr, "1">:$groups,
    DefaultValuedAttr<Qnt_ActivationAttr, "::mlir::qnt::Activation::none">:$activation,
    OptionalAttr<F32Attr>:$clamp_min,
    OptionalAttr<F32Attr>:$clamp_max
  );
  let results = (outs TensorRankOf<[quant_QuantizedType], [4]>:$output);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // QNT_OPS_TD
