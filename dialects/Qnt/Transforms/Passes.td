//===- Passes.td - Passes of the qnt dialect ---------------*- tablegen -*-===//

#ifndef QNT_TRANSFORMS_PASSES_TD
#define QNT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def QntInsertObservers : Pass<"qnt-insert-observers", "func::FuncOp"> {
  let summary = "Insert qnt.observe ops where PyTorch's prepare puts observers";
  let description = [{
    Inserts a `qnt.observe` op on every float tensor argument of the function
    (the model inputs; after a layout transpose or reshape that directly
    follows the argument, as the ONNX importer's NCHW -> NHWC transpose), on the result of every op that produces a new
    quantized value (convolutions, matmul, add, average pooling, concat,
    clamp and standalone batch norm), and on the constant weights of
    convolutions and matmuls. As after PyTorch's `fuse_modules`, an op whose
    only user is a clamp or batch norm it will be fused with is not observed:
    the observer goes after the fused chain. Ops that keep their input's
    quantization (max pooling, reshape, transpose) get no observer.

    Activation observers use `activation-kind`, `activation-dtype`,
    `activation-qscheme` and `reduce-range`; a `target` whose int8
    instructions saturate 16-bit pair sums (`avx2`, alias `x86`: vpmaddubsw)
    turns `reduce_range` on, as PyTorch's x86/fbgemm qconfig does. The
    targets are the int8 instruction sets of `include/quantc/Isa/Int8Isa.h`
    (or their PyTorch-style aliases x86, x86-vnni, aarch64). `quant-compile`
    inserts observers without a target and reduces ranges when folding
    (`qnt-fold-observers{reduce-range=...}`), so that one calibration serves
    every target. Weight observers use
    `weight-kind` (per-channel kinds observe the output-channel axis 0),
    `weight-dtype` and `weight-qscheme`. Each observer is named after the
    location of the value it observes (`NameLoc`s from the importer), made
    unique within the function. Values that are already observed are left
    alone, so the pass is idempotent.
  }];
  let dependentDialects = ["::mlir::qnt::QntDialect"];
  let options = [
    Option<"activationKind", "activation-kind", "std::string",
           /*default=*/"\"histogram\"",
           "Observer kind for activations (min_max, moving_average_min_max, "
           "histogram, percentile, entropy, mse)">,
    Option<"activationDtype", "activation-dtype", "std::string",
           /*default=*/"\"quint8\"", "quint8 or qint8">,
    Option<"activationQScheme", "activation-qscheme", "std::string",
           /*default=*/"\"affine\"", "affine or symmetric">,
    Option<"reduceRange", "reduce-range", "bool", /*default=*/"false",
           "Use 7-bit activations (x86 without VNNI)">,
    Option<"target", "target", "std::string", /*default=*/"\"generic\"",
           "Deployment target: an int8 instruction set (quant-compile "
           "--list-isas) or its PyTorch-style alias (an unknown name lists "
           "them); one whose dot instruction saturates 16-bit pair sums "
           "gets 7-bit activations">,
    Option<"weightKind", "weight-kind", "std::string",
           /*default=*/"\"per_channel_min_max\"",
           "Observer kind for weights (min_max or per_channel_min_max)">,
    Option<"weightDtype", "weight-dtype", "std::string",
           /*default=*/"\"qint8\"", "quint8 or qint8">,
    Option<"weightQScheme", "weight-qscheme", "std::string",
           /*default=*/"\"symmetric\"", "affine or symmetric">,
  ];
}

def QntFoldObservers : Pass<"qnt-fold-observers", "func::FuncOp"> {
  let summary = "Replace calibrated observers by constant fake quantization";
  let description = [{
    Replaces every `qnt.observe` by a `qnt.fake_quant` whose
    `!quant.uniform` type holds the scale(s) and zero point(s) computed from
    the observer's calibrated state exactly as PyTorch's `calculate_qparams`
    computes them (per tensor, or per channel along `ch_axis`), with the
    effective quantized range (`reduce_range`, custom `quant_min` /
    `quant_max`) as the storage range. The float range the parameters were
    derived from (the running min/max, or the range a histogram search chose)
    is kept as `range_min` / `range_max`, so every scale can be traced back to
    the FP32 range that produced it.

    An observer of a constant (a weight) needs no calibration data: if it has
    no state, the pass observes the constant itself. Any other observer
    without state is an error: the model has not been calibrated.

    `reduce-range` folds one side of the int8 dot products with
    `reduce_range` on, whatever the observers' configs say, for int8 kernels
    whose dot instruction adds two u8 x s8 products into a saturating int16
    (AVX2's vpmaddubsw), which either side at 7 bits keeps exact:
    `activations` (observers of anything but constants: u8 [0, 127], what
    PyTorch's x86 / fbgemm qconfig does) or `weights` (observers of
    constants: s8 [-64, 63], what ONNX Runtime's `reduce_range` and oneDNN
    do; `quant-compile`'s default where an object has such kernels).
    Observer statistics do not depend on `reduce_range` (only the parameters
    computed from them do), so one calibration can be folded for any target.
  }];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::quant::QuantDialect"];
  let options = [
    Option<"reduceRange", "reduce-range", "::quantc::obs::RangeReduction",
           /*default=*/"::quantc::obs::RangeReduction::None",
           "Fold one side with 7-bit ranges (reduce_range)",
           [{::llvm::cl::values(
             clEnumValN(::quantc::obs::RangeReduction::None, "none",
                        "8-bit activations and weights"),
             clEnumValN(::quantc::obs::RangeReduction::Activations,
                        "activations", "7-bit activations, u8 [0, 127]"),
             clEnumValN(::quantc::obs::RangeReduction::Weights, "weights",
                        "7-bit weights, s8 [-64, 63]"))}]>,
  ];
}

def QntCorrectBias : Pass<"qnt-correct-bias", "func::FuncOp"> {
  let summary = "Fold the output shift that weight quantization causes into "
                "the bias";
  let description = [{
    Empirical bias correction (Nagel et al. 2019, "Data-Free Quantization
    Through Weight Equalization and Bias Correction", section 4.2): on a
    folded model (`qnt-fold-observers`), a layer whose weight is a
    `qnt.fake_quant` of a constant computes with `dW = dq(q(W)) - W` added
    to its weight, which shifts its output channel `o` by
    `E[conv(x, dW)][o]` on average. That expectation is linear in the input,
    so it is `sum_{kh, kw, c} dW[o, kh, kw, c] * m[kh, kw, c]` with `m` the
    mean of the input value each filter tap reads (0 where it reads
    padding), over every output position and sample. The pass subtracts it
    from the layer's float bias (a bias of zeros where there was none), so
    `qnt-quantize` rounds the corrected bias into the int32 bias.

    The means come from the layer's `qnt.input_mean` attribute (a dense f32
    array), which post-training quantization attaches with
    `--bias-correction` after running the float model on the calibration
    data: `[KH, KW, C]` in that order for a float `qnt.conv2d` (C the input
    channels of all groups; an output channel of group `g` reads the
    filter's channels from input channel `g * C / groups` on, so a
    depthwise layer's channel `o` reads channel `o / M`), `[K]` for a
    linear layer (`tosa.matmul` with a constant `[1, K, N]` weight, its
    bias a `tosa.add` of a constant right after it).
    `dq(q(W))` is what `qnt-quantize` will store: `quantc::ref::quantize`
    and `quantc::ref::dequantize` with the weight's `!quant.uniform` type.
    The attribute is removed; layers named in `exclude` (as in
    `qnt-quantize`) are left as they are.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tosa::TosaDialect"];
  let options = [
    ListOption<"exclude", "exclude", "std::string",
               "Layer names or op names kept in float (left uncorrected)">,
  ];
}

def QntLowerFloat : Pass<"qnt-lower-float", "func::FuncOp"> {
  let summary = "Lower the float qnt ops to TOSA and linalg";
  let description = [{
    Expands the float forms of the qnt ops into TOSA or linalg ops, which
    the standard TOSA -> linalg pipeline compiles with the rest of the float
    model. Each op's lowering is its own pattern set (`Lower<Op>.cpp`, one
    `populate...Patterns` each):

    * `qnt.fake_quant` (`LowerFakeQuant.cpp`): an element-wise
      `linalg.generic` that quantizes and dequantizes in float32 exactly as
      the int8 reference does (`quantc::ref::quantize` then
      `quantc::ref::dequantize`):
      `r = clamp(round_half_even(x * (1 / scale)), qmin - zp, qmax - zp)`
      (NaN rounds to 0), `y = (r + 0.0) * scale`, with the float32 reciprocal
      of the float32 scale, per tensor or per channel along the type's axis,
      for any storage range. `x * (1 / scale)` is what `quant.qcast` and
      weight quantization compute in the int8 model, so a model run in float
      with this lowering simulates its quantization exactly; ONNX
      QuantizeLinear divides (`x / scale`), which differs from the product
      only when `x / scale` lies within a rounding error of a half-integer
      (the two then round to neighbouring integers).
    * float `qnt.conv2d` (`LowerFloatConv.cpp`): `tosa.conv2d` (groups = 1),
      `tosa.depthwise_conv2d` (groups = C, one input channel per group) or,
      for other grouped convolutions, an `scf.for` over the groups whose body
      is one `linalg.conv_2d_nhwc_hwcf` on the group's channels (the input
      padded once, the filter rearranged to one HWCF filter per group, the
      output initialized with the bias and updated in place), so that the
      code does not grow with the number of groups; then `tosa.add` for the
      residual and `tosa.clamp` for the activation. Padding that a
      floor-mode convolution never reads is dropped, as TOSA requires exact
      output sizes.
    * `qnt.batch_norm` (`LowerBatchNorm.cpp`): an element-wise
      `linalg.generic` computing
      `(x - mean) * (gamma / sqrt(var + epsilon)) + beta` with the
      parameters broadcast along the op's axis, so that a model whose batch
      norms were not fused into convolutions can still be compiled.
    * float `qnt.unary` (`LowerFloatUnary.cpp`): an element-wise
      `linalg.generic` whose body is the function's formula
      (`dialects/Qnt/IR/UnaryFunctions.h`) in arith / math ops; exp, tanh,
      erf and log1p are then expanded into polynomial approximations
      (upstream `math` patterns) so that the body vectorizes instead of
      calling libm per element.
    * float `qnt.softmax` (`LowerSoftmax.cpp`): its max-subtracted formula in
      TOSA ops along the axis: `reduce_max`, `sub`, `exp`, `reduce_sum`, then
      `reciprocal` and `mul` (softmax) or `log` and `sub` (log-softmax).
    * float `qnt.layer_norm` and `qnt.group_norm` (`LowerLayerNorm.cpp`):
      `reduce_sum` over each normalized dimension and a multiplication by
      `1 / n` for the mean, `sub`, the same for the biased variance of the
      difference, `rsqrt` of the variance plus epsilon, then `mul` by it and
      by `gamma` and `add` of `beta` (both reshaped to broadcast). A group
      norm is the same formula on the input reshaped to
      `[N, S, groups, C / groups]` (`S` the spatial size), reduced over
      dimensions 1 and 3, then reshaped back for the per-channel `gamma` and
      `beta`.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def QntInstrumentObservers : Pass<"qnt-instrument-observers", "ModuleOp"> {
  let summary = "Turn observers into calls to the calibration runtime";
  let description = [{
    Replaces each `qnt.observe` by its input and a call
    `func.call @qnt_rt_observe(%id, %x)` that hands the tensor (as an
    unranked, read-only tensor) to the calibration runtime, which updates the
    observer's statistics. Observers are numbered 0, 1, ... in the order a
    module walk visits them; the calibration driver numbers the observers of
    the original module the same way. The runtime function is declared with
    `llvm.emit_c_interface`, so the compiled code calls
    `_mlir_ciface_qnt_rt_observe(int64_t, UnrankedMemRefType<float> *)`.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def QntFuse : Pass<"qnt-fuse", "func::FuncOp"> {
  let summary = "Fuse conv-bn-relu and conv-add-relu into qnt.conv2d";
  let description = [{
    Builds fused float layers before calibration, as PyTorch's
    `fuse_modules` does, so that observers see the fused activations:

    * `tosa.conv2d` and `tosa.depthwise_conv2d` become the float form of
      `qnt.conv2d` (depthwise filters [KH, KW, C, M] become OHWI
      [C * M, KH, KW, 1] with `groups` = C);
    * a `qnt.batch_norm` whose input is a convolution with constant filter
      and bias is folded into them: `w' = w * gamma / sqrt(var + eps)`,
      `b' = (b - mean) * gamma / sqrt(var + eps) + beta` per output channel,
      computed in double and rounded to f32 once;
    * a `tosa.add` of a convolution and a constant of one value per output
      channel (`[1, 1, 1, O]`) or one for all (`[1, 1, 1, 1]`) is added to
      the convolution's bias (ConvTranspose as paddle2onnx writes it);
    * a `tosa.add` of a convolution and another tensor of the same shape
      becomes the convolution's `residual`;
    * a `tosa.clamp` after a convolution becomes its activation (`relu` for
      [0, +inf), `relu6` for [0, 6], `clamp` otherwise);
    * a `tosa.clamp` after the reshape that follows a matmul or its bias add
      (ONNX's Gemm -> Relu) moves before the reshape, where it fuses with
      the linear layer (one observer after it; `qnt-quantize` makes it the
      `qnt.linear`'s activation); so does one after the reshape that follows
      a convolution (a 1-D Conv -> Relu), and a `qnt.batch_norm` there that
      keeps the channels last (a 1-D Conv -> BatchNormalization).

    Only single-use intermediate values are fused. A depthwise filter that
    is a `qnt.fake_quant` of a constant (a QDQ model's weight) is
    transposed under its fake_quant (per tensor, or per channel with one
    output per input channel, the axis becoming dimension 0); a batch norm
    after a convolution with a fake-quantized filter is not folded.
  }];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tosa::TosaDialect"];
}

def QntEqualize : Pass<"qnt-equalize", "func::FuncOp"> {
  let summary = "Cross-layer equalization of consecutive float layers";
  let description = [{
    Balances the per-channel weight ranges of consecutive layers (Nagel et
    al. 2019, "Data-Free Quantization Through Weight Equalization and Bias
    Correction", section 4.1) on the fused float model, after `qnt-fuse` and
    before `qnt-insert-observers`. A pair is a producer (a float
    `qnt.conv2d` of any groups, or a linear layer: `tosa.matmul` with a
    constant [1, K, N] weight and its optional constant bias add) whose
    output, through single-use ops, reaches a consumer layer's input, with
    only positive-homogeneous functions between them (f(x / s) = f(x) / s
    for s > 0): the producer's fused activation none or relu, a
    `tosa.clamp` that is a relu, `qnt.unary leaky_relu` (LeakyReLU, PReLU),
    max and average pooling (channels last) and reshapes. The producer's
    output channel c (filter and bias) is divided by
    `s_c = sqrt(r1_c / r2_c)` and the consumer's weights reading channel c
    are multiplied by it, `r1_c` and `r2_c` being the largest |w| of the
    producer's output channel and of the consumer's weights reading channel
    c: both become `sqrt(r1_c * r2_c)` and the model computes the same
    function (to the rounding of the weights to f32, once per weight). A
    depthwise consumer's channel is multiplied, so its output is unchanged,
    and it is the producer of the next pair: chains (conv -> depthwise ->
    conv) are swept pair by pair until no scale changes by more than 1e-8
    or `max-sweeps` sweeps. A channel whose range is zero or below 1e-12 of
    the largest on either side keeps scale 1.

    A pair is left alone, with a remark saying why, when the producer adds
    a residual (the residual would need rescaling too), its activation or a
    clamp between is relu6 or another clamp (one bound per tensor cannot be
    rescaled per channel), a function between is not positive-homogeneous
    (hard_swish, silu, ...), its output has several uses, or the consumer's
    weights are not constant. Each equalized pair gets a remark with the
    range of its scales. High-bias absorption (the paper's section 4.2) is
    not done: it is exact only where a lower bound of the pre-activation
    holds, which the fused model no longer knows.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"maxSweeps", "max-sweeps", "int", /*default=*/"32",
           "Most sweeps over a chain of pairs before the scales converge">,
  ];
}

def QntSmooth : Pass<"qnt-smooth", "func::FuncOp"> {
  let summary = "SmoothQuant: move activation outliers of layer norm outputs "
                "into the weights of the layers reading them";
  let description = [{
    Xiao et al. 2023, "SmoothQuant": the output X of a `qnt.layer_norm` is
    divided per channel k by
    `s_k = max|X_k|^alpha / max|W_k|^(1 - alpha)` and the input channel k of
    every layer reading it multiplied by `s_k`, so `X' W' = X W`. The
    division is folded into the layer norm's gamma and beta (both divided by
    `s`), so the float model computes the same function (to f32 rounding:
    each value is computed in double and rounded once). Outlier channels of
    X (per-tensor int8 activations) shrink; the weights, quantized per
    output channel, take them over.

    `max|X_k|` comes from the layer norm's `qnt.smooth_absmax` attribute (a
    dense f32 array, one value per channel), which post-training
    quantization attaches with `--smooth-alpha` after running the fused
    float model on the calibration data; `max|W_k|` is the largest |weight|
    of input channel k over all layers reading X. A channel where either is
    0 keeps `s_k = 1`. The layer norm must normalize over the last dimension
    only, with constant gamma and beta, and each path from its output must
    reach the input of a float layer with a constant weight (a `tosa.matmul`
    with a [1, K, N] weight, or a float `qnt.conv2d`) through ops that keep
    the channel in the last dimension (reshape, transpose, slice, concat of
    values that all come from X, average pooling). Otherwise (a GELU, a
    residual add, a result on the way: no exact fold) the layer norm is
    left alone. Each
    layer norm with the attribute gets a remark: smoothed (with the ratio
    max / median of its channels' max|X| before and after), or not and why.
    The attribute is removed. `alpha` must lie in (0, 1).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"alpha", "alpha", "double", /*default=*/"0.5",
           "Migration strength in (0, 1): the share of each channel's "
           "activation range moved into the weights">,
  ];
}

def QntFloatOutputs : Pass<"qnt-float-outputs", "func::FuncOp"> {
  let summary = "Produce model outputs in float by the layer that computes them";
  let description = [{
    Works on a folded model (`qnt-fold-observers`), before `qnt-quantize`.
    A model output whose value comes from a layer with weights (a float
    `qnt.conv2d` without residual, or a linear layer: `tosa.matmul` with a
    constant `[1, K, N]` weight, its constant bias add and clamp) through
    data movement only (ops whose `QuantizableOpInterface` says
    `movesStorage`: reshape, transpose, slice, ...; `tosa.concat`), or
    through a `qnt.softmax`, a sigmoid (`qnt.unary`) or a `tosa.argmax` that
    ends the model, is produced in float by that layer: the pass removes the
    observers' `qnt.fake_quant`s on the way and marks the layer
    `qnt.float_output`, which `qnt-quantize` turns into the layer's
    dequantized-output form (int8 input and weights, the int32 accumulator
    times `input_scale * weight_scale[o]`, the fused activation in float).
    The data movement and the final function then run in float on exact
    layer outputs, never through an 8-bit tensor: a detector's score head
    whose logits span [-6000, 3] keeps its positive scores.

    An output is left as it is when any value on the way has a reader off
    the way to the return, when a branch reaches anything else than such a
    layer or a constant (an add of two activations, a model input), or when
    a `qnt.fake_quant` on the way comes from the model (a QDQ model's
    explicit output quantization, without `range_min`). Each marked layer
    gets a remark.
  }];
  let dependentDialects = ["::mlir::qnt::QntDialect"];
}

def QntQuantize : Pass<"qnt-quantize", "func::FuncOp"> {
  let summary = "Convert a folded float model to quantized qnt ops";
  let description = [{
    Works on a model whose observers were folded into `qnt.fake_quant`
    (`qnt-fold-observers`):

    1. identical `qnt.fake_quant`s of one value (one per use in PyTorch's
       QDQ export) become one; every activation `qnt.fake_quant` becomes
       `quant.qcast` +
       `quant.dcast` with its `!quant.uniform` type (QDQ form); a
       `qnt.fake_quant` of a constant (a weight) is quantized now: an i8
       constant (`quant.scast` to its type), values
       `clamp(round_half_even(w * (1 / scale)) + zero_point)` as
       `quantc::ref::quantize`;
    2. every float op whose inputs are dequantized and whose result is
       quantized becomes its quantized form: float `qnt.conv2d` -> quantized
       `qnt.conv2d` (bias to i32 with scale `s_in * s_w[o]`, requantization
       multipliers `quantc::ref::requantMultiplier` stored on the op),
       `tosa.matmul` with a constant weight (+ constant bias add) ->
       `qnt.linear`, `tosa.add` / `tosa.sub` / `tosa.mul` (+ relu, with
       broadcasting) -> `qnt.add` / `qnt.sub` / `qnt.mul`, `qnt.unary`
       (sigmoid, hard_swish, silu, ...) -> `qnt.lookup` (its table
       evaluated in double from both parameters,
       `quantc::ref::lookupTable`), `tosa.concat` -> `qnt.concat`;
       `tosa.avg_pool2d` -> `qnt.avg_pool2d` with the parameters of the
       qcast after it (a QDQ model's), else its input's; `tosa.max_pool2d`,
       `tosa.reshape` and `tosa.transpose` keep their input's parameters;
    3. a relu (`tosa.clamp` [0, +inf)) between the dcast of a quantized
       conv, linear or add without activation and a qcast becomes that
       op's fused relu (exact: `relu(dequantize(q)) = dequantize(max(q,
       zp))`), as in PyTorch's QDQ export of an unfused relu;
    4. `quant.qcast(quant.dcast(x))` becomes `x` (same type) or
       `qnt.requantize`; a quantized constant still dequantized for a float
       op (the weight of an excluded layer) becomes the float constant of
       its dequantized values.

    What remains is quantized at the model inputs (`quant.qcast`),
    dequantized at the outputs (`quant.dcast`), and float, between dcast and
    qcast, for ops without a quantized form and for layers named in
    `exclude` (by layer name, e.g. `conv1`, or op name, e.g. `tosa.add`).
    A convolution or linear layer without quantization parameters for its
    input or output, or whose bias does not fit int32, is an error.
  }];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::quant::QuantDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tosa::TosaDialect"];
  let options = [
    ListOption<"exclude", "exclude", "std::string",
               "Layer names or op names to keep in float">,
  ];
}

def QntLowerPureIntrinsics : Pass<"qnt-lower-pure-intrinsics"> {
  let summary = "Turn qnt.pure_intrinsic into llvm.call_intrinsic";
  let description = [{
    The last step before LLVM IR for int8 kernels: after bufferization and
    buffer deallocation (which need to know that the dot-product intrinsics
    have no memory effects), each `qnt.pure_intrinsic` becomes the
    `llvm.call_intrinsic` it stands for.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // QNT_TRANSFORMS_PASSES_TD
