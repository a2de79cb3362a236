//===- QntInterfaces.td - How ops take part in quantization -*- tablegen -*-===//
//
// QuantizableOpInterface: what an op of the float graph means to post-
// training quantization, declared once per op: on the qnt ops in QntOps.td,
// on upstream TOSA ops by the external models of QuantizableTosaOps.cpp.
// qnt-insert-observers, qnt-quantize, the int8 reference executor and the
// int8 lowering's legality check all read it.
//
//===----------------------------------------------------------------------===//

#ifndef QNT_INTERFACES_TD
#define QNT_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Qnt_QuantizableOpInterface : OpInterface<"QuantizableOpInterface"> {
  let cppNamespace = "::mlir::qnt";
  let description = [{
    How a float op takes part in post-training quantization, in PyTorch's
    terms:

    * `observed`: its result gets its own scale / zero point from an
      observer (convolutions, linear layers, add, mul, concat, clamp, ...);
    * `same_as_input`: its result keeps the parameters of operand 0, no
      observer (max pooling, reshapes, transposes, slices, zero padding:
      they only move or select values);
    * `fixed`: its result has parameters fixed by the function's range
      (`getFixedRange`, e.g. [0, 1] for a sigmoid: scale 1/256, zero point
      0 for u8), no observer;
    * `not_quantized`: it stays float (an op without this interface is
      treated the same); an observer goes on its result only when a
      quantizable op consumes it.

    `movesStorage` (role `same_as_input` only) says that the result's values
    are operand 0's values rearranged, selected or repeated (a pad value,
    if any, lies on its grid: zero is the zero point): the same op then runs unchanged on the
    quantized tensor, and on its storage integers after lowering.

    `getObservedWeights` names the constant operands observed per channel
    (weights) with their channel axis, `getFloatBias` the bias added per
    channel to the weighted sum of operand 0; `fusesIntoProducer` says that the op
    is fused with the op that produces its operand 0 (conv-batch_norm,
    conv-relu, matmul-bias), so that only the fused chain's output is
    observed.

    `quantize` is how `qnt-quantize` converts the op: between the
    dequantizes of its quantized operands and the quantize of its result it
    becomes its int8 form (and absorbs a following clamp or bias add it
    fuses), or stays float. By default an op of role `same_as_input` keeps
    its input's parameters and any other op stays as it is.
  }];
  let methods = [
    InterfaceMethod<"How the result's quantization parameters are chosen",
      "::mlir::qnt::QuantRole", "getQuantRole", (ins)>,
    InterfaceMethod<[{The real range [min, max] that fixes the result's
      parameters (role `fixed` only)}],
      "std::optional<std::pair<double, double>>", "getFixedRange", (ins), "",
      "return std::nullopt;">,
    InterfaceMethod<[{Whether the op only moves, selects or repeats operand
      0's values, so that it runs unchanged on storage integers (role
      `same_as_input` only)}],
      "bool", "movesStorage", (ins), "", "return false;">,
    InterfaceMethod<[{Constant operands observed per channel: (operand index,
      channel axis)}],
      "::llvm::SmallVector<std::pair<unsigned, int64_t>>",
      "getObservedWeights", (ins), "", "return {};">,
    InterfaceMethod<[{The float constant added per output channel (along
      the weight's channel axis of `getObservedWeights`) to the weighted sum
      of operand 0, which `quantize` rounds to int32 at input_scale *
      weight_scale (a convolution's bias operand, a linear layer's bias
      add); null when there is none}],
      "::mlir::Value", "getFloatBias", (ins), "", "return nullptr;">,
    InterfaceMethod<[{Whether the op fuses with `producer`, the op that
      produces its operand 0}],
      "bool", "fusesIntoProducer", (ins "::mlir::Operation *":$producer), "",
      "return false;">,
    InterfaceMethod<[{Replaces the op, between the dequantizes of its
      quantized operands and the quantize of its result, by its int8 form
      (every change through `rewriter`), or leaves it float where it has none
      for these operands. Fails, after an error at the op, only where the op
      must be quantized and cannot be (qnt-quantize then fails)}],
      "::llvm::LogicalResult", "quantize",
      (ins "::mlir::RewriterBase &":$rewriter), "",
      "return ::mlir::qnt::quantizeByRole($_op.getOperation(), rewriter);">,
  ];
}

#endif // QNT_INTERFACES_TD
