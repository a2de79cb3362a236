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
include "QntInterfaces.td"

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
    /// The observer library's observer as qnt-fold-observers folds this op:
    /// its config (with `reduction`, the range of an activation, or of a
    /// constant for `Weights`, reduced to 7 bits where the config allows
    /// it) and its state; a constant input without state is observed here.
    /// A failure says why.
    ::quantc::StatusOr<::quantc::obs::Observer>
    loadObserver(::quantc::obs::RangeReduction reduction);
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
    DeclareOpInterfaceMethods<Qnt_QuantizableOpInterface,
                              ["fusesIntoProducer", "quantize"]>,
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

def Qnt_Conv2DOp : Qnt_Op<"conv2d", [Pure, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Qnt_QuantizableOpInterface,
                              ["getObservedWeights", "getFloatBias",
                               "quantize"]>]> {
  let summary = "2-D convolution with bias, residual add and activation (NHWC)";
  let description = [{
    A convolution layer as one op: `input` is NHWC, `filter` OHWI
    (I = C / `groups`), `bias` one value per output channel, `residual` (a
    tensor of the result's shape) is added before the fused `activation`
    (`relu`: x >= 0, `relu6`: 0 <= x <= 6, `clamp`: `clamp_min` <= x <=
    `clamp_max`, bounds in the real domain). `pad` is [top, bottom, left,
    right]; `groups` = C with one filter input channel is a depthwise
    convolution.

    The op has two forms:

    * **float** (all operands and the result f32): the fused layer that
      `qnt-fuse` builds from TOSA convolutions, batch norms, adds and clamps,
      so that observers see fused activations, as after PyTorch's
      `fuse_modules`;
    * **quantized** ("qconv", built by `qnt-quantize`): `input`, `residual`
      and the result have per-tensor 8-bit `!quant.uniform` types (u8 or i8),
      `filter` is i8 quantized per tensor or per output channel (quantized
      dimension 0) with zero points 0, `bias` is i32 with scale
      `input_scale * filter_scale[o]` and zero point 0. Accumulation is exact
      in int32; `multiplier[o]` (set by `qnt-quantize`) is the float32
      requantization factor `input_scale * filter_scale[o] / result_scale`
      of the int8 reference (`quantc::ref`), which defines the exact
      arithmetic: `q = clamp(round_half_even(float(acc) * multiplier[o]) +
      zero_point, lo, hi)`;
    * **dequantized output** (a quantized form with an f32 result and no
      residual; `qnt-float-outputs` marks the layers that compute a model
      output, `qnt-quantize` builds it): `multiplier[o]` is
      `input_scale * filter_scale[o]` (`requantMultiplier(input_scale,
      filter_scale[o], 1)`) and the result is `activation(float(acc) *
      multiplier[o])` in float32, never rounded to 8 bits.

    Example (quantized):
    ```mlir
    %y = qnt.conv2d %x, %w bias(%b) {pad = array<i64: 1, 1, 1, 1>, activation = #qnt<activation relu>}
      : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>,
         tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>,
         tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>)
      -> tensor<1x8x8x2x!quant.uniform<u8:f32, 0.1>>
    ```
  }];
  let arguments = (ins
    TensorRankOf<[F32, quant_QuantizedType], [4]>:$input,
    TensorRankOf<[F32, quant_QuantizedType], [4]>:$filter,
    Optional<TensorRankOf<[F32, quant_QuantizedType], [1]>>:$bias,
    Optional<TensorRankOf<[F32, quant_QuantizedType], [4]>>:$residual,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pad,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
    DefaultValuedAttr<I64Attr, "1">:$groups,
    DefaultValuedAttr<Qnt_ActivationAttr, "::mlir::qnt::Activation::none">:$activation,
    OptionalAttr<F32Attr>:$clamp_min,
    OptionalAttr<F32Attr>:$clamp_max,
    OptionalAttr<DenseF32ArrayAttr>:$multiplier
  );
  let results = (outs TensorRankOf<[F32, quant_QuantizedType], [4]>:$output);
  let assemblyFormat = [{
    $input `,` $filter (`bias` `(` $bias^ `)`)? (`residual` `(` $residual^ `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True for the quantized form (quantized element types).
    bool isQuantized();
  }];
}

//===----------------------------------------------------------------------===//
// qnt.unary
//===----------------------------------------------------------------------===//

def Qnt_UnaryOp : Qnt_Op<"unary", [Pure, SameOperandsAndResultType,
    DeclareOpInterfaceMethods<Qnt_QuantizableOpInterface,
                              ["getFixedRange", "quantize"]>]> {
  let summary = "Element-wise activation function (sigmoid, hard_swish, ...)";
  let description = [{
    Applies `fn` (a `UnaryFn`: sigmoid, tanh, hard_sigmoid, hard_swish,
    silu, gelu, leaky_relu, ...) to every element, with the optional
    parameters `alpha` and `beta` (their defaults are ONNX's). Each
    function's formula, parameters and range are written once, in
    `dialects/Qnt/IR/UnaryFunctions.h`, and used by the float lowering
    (`qnt-lower-float`), the verifier and the quantization role: a
    bounded function (sigmoid, hard_sigmoid, tanh, erf, sign) has fixed
    output parameters, the others are observed. `selu` takes ONNX's `alpha`
    and its `gamma` (the scale) as `beta`; `round` rounds half to even.

    `alphas` gives `leaky_relu` one alpha per channel of the last dimension
    instead of one `alpha`: ONNX's PRelu with a per-channel slope.

    Example:
    ```mlir
    %y = qnt.unary hard_sigmoid %x {alpha = 0.166666672 : f32, beta = 5.000000e-01 : f32}
      : tensor<1x8x8x16xf32>
    %z = qnt.unary leaky_relu %x {alphas = array<f32: 0.25, 0.1>} : tensor<1x8x8x2xf32>
    ```
  }];
  let arguments = (ins
    Qnt_F32Tensor:$input,
    Qnt_UnaryFn:$fn,
    OptionalAttr<F32Attr>:$alpha,
    OptionalAttr<F32Attr>:$beta,
    OptionalAttr<DenseF32ArrayAttr>:$alphas
  );
  let results = (outs Qnt_F32Tensor:$output);
  let assemblyFormat = "$fn $input attr-dict `:` type($input)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `alpha` / `beta`, or the function's defaults.
    double getAlphaOrDefault();
    double getBetaOrDefault();
  }];
}

def Qnt_SoftmaxOp : Qnt_Op<"softmax", [Pure, SameOperandsAndResultType,
    DeclareOpInterfaceMethods<Qnt_QuantizableOpInterface,
                              ["getFixedRange"]>]> {
  let summary = "Softmax (or log-softmax) along one dimension";
  let description = [{
    `exp(x - max) / sum(exp(x - max))` along `axis` (`log`: its logarithm,
    `x - max - log(sum(exp(x - max)))`). One op, as ONNX and PyTorch have
    it, so that quantization sees it whole: like PyTorch's `nn.Softmax`, a
    softmax has fixed output parameters for the range [0, 1] (scale 1/256,
    zero point 0 for u8), except attention's (a softmax feeding the left
    operand of a matmul, through reshapes and transposes), whose output is
    observed: most attention probabilities lie far below 1/256. Its int8
    form is PyTorch's: dequantize, float softmax, quantize. A log-softmax stays float. `qnt-lower-float`
    expands it into TOSA ops for the float code.

    Example:
    ```mlir
    %p = qnt.softmax %logits {axis = 1 : i64} : tensor<1x10xf32>
    ```
  }];
  let arguments = (ins Qnt_F32Tensor:$input, I64Attr:$axis, UnitAttr:$log);
  let results = (outs Qnt_F32Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Qnt_LayerNormOp : Qnt_Op<"layer_norm", [Pure,
    DeclareOpInterfaceMethods<Qnt_QuantizableOpInterface>,
    AllTypesMatch<["input", "output"]>, AllTypesMatch<["gamma", "beta"]>]> {
  let summary = "Layer normalization over the trailing dimensions";
  let description = [{
    `(x - mean) / sqrt(var + epsilon) * gamma + beta`, where `mean` and the
    biased `var` are taken over dimensions `[axis, rank)` for each index of
    the leading ones, and `gamma` and `beta` have the shape of those
    dimensions. It is ONNX's LayerNormalization (opset 17) and PyTorch's
    `nn.LayerNorm`; the ONNX importer also recognizes the ReduceMean / Sub /
    Pow / Sqrt / Div pattern PyTorch exports at opsets below 17, and folds a
    following Mul and Add by constants into `gamma` and `beta`. One op so
    that quantization sees it whole: its output is observed, and in an int8
    model it computes in float between a dequantize and a quantize (a float
    island, listed by `quant-compile -v` and the report).
    `qnt-lower-float` expands it into TOSA ops for the float code.

    Example:
    ```mlir
    %y = qnt.layer_norm %x, %gamma, %beta {axis = 2 : i64, epsilon = 1.0e-06 : f32}
           : tensor<1x197x768xf32>, tensor<768xf32>
    ```
  }];
  let arguments = (ins
    Qnt_F32Tensor:$input,
    Qnt_F32Tensor:$gamma,
    Qnt_F32Tensor:$beta,
    I64Attr:$axis,
    DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon
  );
  let results = (outs Qnt_F32Tensor:$output);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta attr-dict `:` type($input) `,` type($gamma)
  }];
  let hasVerifier = 1;
}

def Qnt_GroupNormOp : Qnt_Op<"group_norm", [Pure,
    DeclareOpInterfaceMethods<Qnt_QuantizableOpInterface>,
    AllTypesMatch<["input", "output"]>, AllTypesMatch<["gamma", "beta"]>]> {
  let summary = "Group (and instance) normalization of a channels-last tensor";
  let description = [{
    The input is channels-last, `[N, S1, ..., Sk, C]` (k >= 0; an NHWC
    image), and its `C` channels fall into `groups` consecutive groups of
    `C / groups`. For each sample `n` and group `g`, `mean` and the biased
    `var` are taken over the spatial dimensions and the group's channels;
    `y = (x - mean) / sqrt(var + epsilon) * gamma[c] + beta[c]`, with
    `gamma` and `beta` of shape `[C]`. It is ONNX's GroupNormalization and
    PyTorch's `nn.GroupNorm`; `groups = C` is InstanceNormalization
    (`nn.InstanceNorm2d`). The ONNX importer also recognizes PyTorch's
    export of `nn.GroupNorm` below opset 18 (Reshape, InstanceNormalization,
    Reshape, Mul, Add). One op so that quantization sees it whole: as
    `qnt.layer_norm` (and PyTorch's quantized `group_norm` /
    `instance_norm`), its output is observed and in an int8 model it
    computes in float between a dequantize and a quantize.
    `qnt-lower-float` expands it into TOSA ops for the float code.

    Example:
    ```mlir
    %y = qnt.group_norm %x, %gamma, %beta {groups = 4 : i64, epsilon = 1.0e-05 : f32}
           : tensor<1x16x16x32xf32>, tensor<32xf32>
    ```
  }];
  let arguments = (ins
    Qnt_F32Tensor:$input,
    Qnt_F32Tensor:$gamma,
    Qnt_F32Tensor:$beta,
    I64Attr:$groups,
    DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon
  );
  let results = (outs Qnt_F32Tensor:$output);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta attr-dict `:` type($input) `,` type($gamma)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Other quantized ops
//===----------------------------------------------------------------------===//

def Qnt_QTensor : TensorOf<[quant_QuantizedType]>;

def Qnt_LinearOp : Qnt_Op<"linear", [Pure]> {
  let summary = "Quantized fully connected layer";
  let description = [{
    `output[..., n] = activation(sum_k input[..., k] * weight[n, k] + bias[n])`
    on quantized tensors: `input` has a per-tensor 8-bit type, `weight`
    ([N, K]) i8 per tensor or per output feature (quantized dimension 0)
    with zero points 0, `bias` i32 with scale `input_scale * weight_scale[n]`.
    Requantization as in `qnt.conv2d` (`multiplier[n]`); an f32 result is
    the dequantized-output form of `qnt.conv2d`.
  }];
  let arguments = (ins
    Qnt_QTensor:$input,
    TensorRankOf<[quant_QuantizedType], [2]>:$weight,
    Optional<TensorRankOf<[quant_QuantizedType], [1]>>:$bias,
    DefaultValuedAttr<Qnt_ActivationAttr, "::mlir::qnt::Activation::none">:$activation,
    OptionalAttr<F32Attr>:$clamp_min,
    OptionalAttr<F32Attr>:$clamp_max,
    OptionalAttr<DenseF32ArrayAttr>:$multiplier
  );
  let results = (outs TensorOf<[F32, quant_QuantizedType]>:$output);
  let assemblyFormat = [{
    $input `,` $weight (`bias` `(` $bias^ `)`)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

class Qnt_BinaryOp<string mnemonic> : Qnt_Op<mnemonic, [Pure]> {
  let arguments = (ins Qnt_QTensor:$lhs, Qnt_QTensor:$rhs,
    DefaultValuedAttr<Qnt_ActivationAttr, "::mlir::qnt::Activation::none">:$activation);
  let results = (outs Qnt_QTensor:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Qnt_AddOp : Qnt_BinaryOp<"add"> {
  let summary = "Quantized element-wise addition";
  let description = [{
    Adds two quantized tensors in the real domain and requantizes to the
    result's parameters, optionally followed by `relu` (the exact formula is
    the int8 reference's `quantc::ref::add`). The operands have the
    result's rank; each of their dimensions is the result's or 1
    (broadcast).
  }];
}

def Qnt_SubOp : Qnt_BinaryOp<"sub"> {
  let summary = "Quantized element-wise subtraction";
  let description = [{
    `lhs - rhs` in the real domain, requantized as `qnt.add` with the
    right-hand term negated (`quantc::ref::add` with `subtract`); broadcasts
    as `qnt.add`.
  }];
}

def Qnt_MulOp : Qnt_BinaryOp<"mul"> {
  let summary = "Quantized element-wise multiplication";
  let description = [{
    `(lhs - zl) * (rhs - zr)` in int32, requantized with the multiplier
    `scale_lhs * scale_rhs / scale_out` (PyTorch's `quantized::mul`,
    `quantc::ref::mul`), optionally followed by `relu`. Broadcasts as
    `qnt.add`: a squeeze-excitation block multiplies a [N, H, W, C]
    activation by a [N, 1, 1, C] scale.

    Example:
    ```mlir
    %y = qnt.mul %x, %s : (tensor<1x7x7x96x!quant.uniform<u8:f32, 0.05:3>>,
        tensor<1x1x1x96x!quant.uniform<u8:f32, 0.00390625>>)
        -> tensor<1x7x7x96x!quant.uniform<u8:f32, 0.04:2>>
    ```
  }];
}

def Qnt_MatMulOp : Qnt_Op<"matmul", [Pure]> {
  let summary = "Quantized batched matmul of two activations";
  let description = [{
    `output[b, m, n] = sum_k lhs[b, m, k] * rhs[b, k, n]` in real values, on
    two quantized activations with per-tensor parameters (attention's
    Q x K^T and scores x V), as PyTorch's `quantized::matmul` and ONNX
    Runtime's QLinearMatMul compute it. In storage values (the int8
    reference's `quantc::ref::batchMatmul`):
    `acc = sum_k (lhs - zl) * (rhs - zr)` exactly in int32, then
    `q = clamp(round_half_even(float(acc) * m) + zo, qmin, qmax)` with
    `m = scale_lhs * scale_rhs / scale_out` in float32. Unlike `qnt.linear`
    neither operand is a constant: the kernel packs `rhs` at run time.

    Example:
    ```mlir
    %s = qnt.matmul %q, %kt : (tensor<12x197x64x!quant.uniform<u8:f32, 0.05:128>>,
        tensor<12x64x197x!quant.uniform<u8:f32, 0.04:120>>)
        -> tensor<12x197x197x!quant.uniform<u8:f32, 0.1:140>>
    ```
  }];
  let arguments = (ins
    TensorRankOf<[quant_QuantizedType], [3]>:$lhs,
    TensorRankOf<[quant_QuantizedType], [3]>:$rhs
  );
  let results = (outs TensorRankOf<[quant_QuantizedType], [3]>:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Qnt_LookupOp : Qnt_Op<"lookup", [Pure]> {
  let summary = "Element-wise function of one 8-bit value, as a table";
  let description = [{
    `output[i] = table[t * 256 + (input[i] - storage_min)]`: an element-wise
    function of a quantized value (sigmoid, hard_swish, silu, ...) has only
    256 possible inputs, so `qnt-quantize` evaluates it once per input
    value at compile time, in double, from the input's and the output's
    parameters (`quantc::ref::lookupTable`), and stores the output storage
    values here. Entry k is for the input storage value `storage_min + k`
    (0 for u8, -128 for i8). With 256 entries one table serves every
    element (t = 0); with C * 256 entries, C the size of the last dimension,
    element i uses the table of its channel (per-channel functions such as
    PReLU). `quantc::ref::lookup` defines the op.
  }];
  let arguments = (ins Qnt_QTensor:$input, DenseI32ArrayAttr:$table);
  let results = (outs Qnt_QTensor:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Qnt_ChannelAffineOp : Qnt_Op<"channel_affine", [Pure]> {
  let summary = "Per-channel affine map of a quantized tensor (batch norm)";
  let description = [{
    `output = activation(input * a[c] + b[c])` in real values, `c` the
    index along the last dimension: a batch norm that follows no
    convolution (DenseNet's pre-activation), with its relu. In storage
    values, as `quantc::ref::channelAffine` defines it:
    `requantize2(q - zp_in, multiplier[c], 1, offset[c], zp_out, lo, hi)`
    with `multiplier[c] = s_in * a[c] / s_out` and `offset[c] = b[c] / s_out`
    (f32, computed in double by `qnt-quantize`) and [lo, hi] the
    activation's bounds.
  }];
  let arguments = (ins
    Qnt_QTensor:$input,
    DenseF32ArrayAttr:$multiplier,
    DenseF32ArrayAttr:$offset,
    DefaultValuedAttr<Qnt_ActivationAttr, "::mlir::qnt::Activation::none">:$activation,
    OptionalAttr<F32Attr>:$clamp_min,
    OptionalAttr<F32Attr>:$clamp_max
  );
  let results = (outs Qnt_QTensor:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

class Qnt_Pool2DOp<string mnemonic> : Qnt_Op<mnemonic, [Pure]> {
  let arguments = (ins
    TensorRankOf<[quant_QuantizedType], [4]>:$input,
    DenseI64ArrayAttr:$kernel,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pad
  );
  let results = (outs TensorRankOf<[quant_QuantizedType], [4]>:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Qnt_MaxPool2DOp : Qnt_Pool2DOp<"max_pool2d"> {
  let summary = "Quantized 2-D max pooling (NHWC)";
  let description = [{
    Max over each window; the result has the input's quantized type (max
    commutes with a monotonic affine map). `pad` is [top, bottom, left,
    right]; padded positions never win.
  }];
}

def Qnt_AvgPool2DOp : Qnt_Op<"avg_pool2d", [Pure]> {
  let summary = "Quantized 2-D average pooling (NHWC)";
  let description = [{
    Average over each window of the non-padded elements
    (count_include_pad = false), requantized to the result's parameters
    (`quantc::ref::avgPool2d` defines the rounding). A kernel covering the
    whole input is a global average pool.
  }];
  let arguments = (ins
    TensorRankOf<[quant_QuantizedType], [4]>:$input,
    DenseI64ArrayAttr:$kernel,
    DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pad
  );
  let results = (outs TensorRankOf<[quant_QuantizedType], [4]>:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Qnt_ResizeBilinearOp : Qnt_Op<"resize_bilinear", [Pure]> {
  let summary = "Quantized bilinear resize of H and W (NHWC)";
  let description = [{
    TOSA's bilinear resize (`scale` = [n_y, d_y, n_x, d_x], `offset`,
    `border`: the rational map of `tosa.resize`) on the storage values, in
    integers and rounded once (`quantc::ref::resizeBilinear` defines it):
    the four neighbours weighted by integer tap weights summing to
    N = n_y * n_x, then `floor((acc + N / 2) / N)`. The result keeps the
    input's quantization.
  }];
  let arguments = (ins
    TensorRankOf<[quant_QuantizedType], [4]>:$input,
    DenseI64ArrayAttr:$scale,
    DenseI64ArrayAttr:$offset,
    DenseI64ArrayAttr:$border
  );
  let results = (outs TensorRankOf<[quant_QuantizedType], [4]>:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Qnt_ConcatOp : Qnt_Op<"concat", [Pure]> {
  let summary = "Quantized concatenation";
  let description = [{
    Concatenates along `axis`; inputs whose parameters differ from the
    result's are requantized.
  }];
  let arguments = (ins Variadic<Qnt_QTensor>:$inputs, I64Attr:$axis);
  let results = (outs Qnt_QTensor:$output);
  let assemblyFormat = [{
    $inputs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Qnt_RequantizeOp : Qnt_Op<"requantize", [Pure]> {
  let summary = "Change the quantization parameters of a tensor";
  let description = [{
    `q_out = clamp(round_half_even((q_in - zp_in) * (s_in / s_out)) + zp_out)`
    with the same shape; used where two quantized ops disagree on a tensor's
    parameters.
  }];
  let arguments = (ins Qnt_QTensor:$input);
  let results = (outs Qnt_QTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// qnt.pure_intrinsic
//===----------------------------------------------------------------------===//

def Qnt_PureIntrinsicOp : Qnt_Op<"pure_intrinsic", [Pure]> {
  let summary = "A side-effect-free LLVM intrinsic call (int8 dot products)";
  let description = [{
    Calls the LLVM intrinsic `intrin` (e.g. `llvm.x86.avx2.pmadd.ub.sw`,
    `llvm.x86.avx512.vpdpbusd.256`, `llvm.aarch64.neon.sdot.v4i32.v16i8`) on
    vector values. Unlike `llvm.call_intrinsic`, which has unknown memory
    effects, it is `Pure`, so buffer deallocation and other analyses can run
    on kernels that use it; `qnt-lower-pure-intrinsics` turns it into
    `llvm.call_intrinsic` as the last step before LLVM IR. Only intrinsics
    that neither read nor write memory may be used.
  }];
  let arguments = (ins StrAttr:$intrin, Variadic<AnyType>:$args);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $intrin `(` $args `)` attr-dict `:` functional-type($args, $result)
  }];
  let hasVerifier = 1;
}

#endif // QNT_OPS_TD
