//===- QntEnums.td - Enumerations of the qnt dialect -------*- tablegen -*-===//
//
// Observer kinds, quantized dtypes, quantization schemes, fused
// activations and the element-wise functions of qnt.unary. Spellings follow PyTorch's torch.ao.quantization names.
//
//===----------------------------------------------------------------------===//

#ifndef QNT_ENUMS_TD
#define QNT_ENUMS_TD

include "mlir/IR/EnumAttr.td"
include "QntDialect.td"

def Qnt_ObserverKind : I32EnumAttr<"ObserverKind", "statistics an observer collects", [
    I32EnumAttrCase<"min_max", 0>,
    I32EnumAttrCase<"moving_average_min_max", 1>,
    I32EnumAttrCase<"histogram", 2>,
    I32EnumAttrCase<"per_channel_min_max", 3>,
    I32EnumAttrCase<"per_channel_moving_average_min_max", 4>,
    I32EnumAttrCase<"percentile", 5>,
    I32EnumAttrCase<"entropy", 6>,
    I32EnumAttrCase<"mse", 7>,
    // `auto` is a C++ keyword: the C++ name differs from the spelling.
    I32EnumAttrCase<"automatic", 8, "auto">]> {
  let cppNamespace = "::mlir::qnt";
  let genSpecializedAttr = 0;
}

def Qnt_QuantDtype : I32EnumAttr<"QuantDtype", "quantized storage type", [
    I32EnumAttrCase<"quint8", 0>,
    I32EnumAttrCase<"qint8", 1>]> {
  let cppNamespace = "::mlir::qnt";
  let genSpecializedAttr = 0;
}

def Qnt_QScheme : I32EnumAttr<"QScheme", "quantization scheme", [
    I32EnumAttrCase<"affine", 0>,
    I32EnumAttrCase<"symmetric", 1>]> {
  let cppNamespace = "::mlir::qnt";
  let genSpecializedAttr = 0;
}

def Qnt_Activation : I32EnumAttr<"Activation",
    "activation fused into a quantized op's requantization epilogue", [
    I32EnumAttrCase<"none", 0>,
    I32EnumAttrCase<"relu", 1>,
    I32EnumAttrCase<"relu6", 2>,
    I32EnumAttrCase<"clamp", 3>]> {
  let cppNamespace = "::mlir::qnt";
  let genSpecializedAttr = 0;
}

def Qnt_ActivationAttr : EnumAttr<Qnt_Dialect, Qnt_Activation, "activation"> {
  let assemblyFormat = "$value";
}

def Qnt_UnaryFn : I32EnumAttr<"UnaryFn",
    "element-wise function of qnt.unary", [
    I32EnumAttrCase<"sigmoid", 0>,
    I32EnumAttrCase<"tanh", 1>,
    I32EnumAttrCase<"hard_sigmoid", 2>,
    I32EnumAttrCase<"hard_swish", 3>,
    I32EnumAttrCase<"silu", 4>,
    I32EnumAttrCase<"gelu", 5>,
    I32EnumAttrCase<"gelu_tanh", 6>,
    I32EnumAttrCase<"leaky_relu", 7>,
    I32EnumAttrCase<"elu", 8>,
    I32EnumAttrCase<"softplus", 9>,
    I32EnumAttrCase<"erf", 10>,
    I32EnumAttrCase<"mish", 11>,
    I32EnumAttrCase<"selu", 12>,
    I32EnumAttrCase<"celu", 13>,
    I32EnumAttrCase<"thresholded_relu", 14>,
    I32EnumAttrCase<"round", 15>,
    I32EnumAttrCase<"sign", 16>]> {
  let cppNamespace = "::mlir::qnt";
}

def Qnt_QuantRole : I32EnumAttr<"QuantRole",
    "how an op's result is quantized (QuantizableOpInterface)", [
    I32EnumAttrCase<"not_quantized", 0>,
    I32EnumAttrCase<"observed", 1>,
    I32EnumAttrCase<"same_as_input", 2>,
    I32EnumAttrCase<"fixed", 3>]> {
  let cppNamespace = "::mlir::qnt";
  let genSpecializedAttr = 0;
}

#endif // QNT_ENUMS_TD
