//===- QntDialect.td - The qnt dialect ---------------------*- tablegen -*-===//
//
// The dialect definition shared by the op, attribute and enum files.
//
//===----------------------------------------------------------------------===//

#ifndef QNT_DIALECT_TD
#define QNT_DIALECT_TD

include "mlir/IR/OpBase.td"

def Qnt_Dialect : Dialect {
  let name = "qnt";
  let cppNamespace = "::mlir::qnt";
  let summary = "Observers, fake quantization and quantized kernels for int8 "
                "post-training quantization";
  let description = [{
    The `qnt` dialect carries a float model through post-training int8
    quantization:

    * `qnt.observe` records tensor statistics during calibration (the same
      observer vocabulary as PyTorch's `torch.ao.quantization` observers) and
      keeps the calibrated state in the IR;
    * `qnt.fake_quant` is quantize-then-dequantize in float with constant
      quantization parameters (PyTorch FakeQuantize / ONNX QDQ);
    * `qnt.batch_norm` is inference batch normalization, which no upstream
      dialect provides and which conv-bn fusion folds away;
    * `qnt.conv2d` and the other quantized ops compute on tensors whose
      element types are upstream `!quant.uniform` types.

    Quantized element types are never defined here: the upstream `quant`
    dialect owns them.
  }];
  // TOSA: the float graph's ops, whose QuantizableOpInterface models the
  // dialect attaches when it loads.
  let dependentDialects = ["::mlir::quant::QuantDialect",
                           "::mlir::tosa::TosaDialect"];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

// Every !quant.uniform element type of a qnt op's operands and results has
// its zero points inside its storage range (upstream's quant types check
// the scales, not the zero points).
def Qnt_QuantizedTypesInRange : NativeOpTrait<"QuantizedTypesInRange"> {
  let cppNamespace = "::mlir::qnt";
}

class Qnt_Op<string mnemonic, list<Trait> traits = []>
    : Op<Qnt_Dialect, mnemonic,
         !listconcat(traits, [Qnt_QuantizedTypesInRange])>;

#endif // QNT_DIALECT_TD
