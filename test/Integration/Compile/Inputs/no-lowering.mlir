// A quantized op the int8 lowering does not know (errors.mlir).
func.func @f(%x: tensor<2x2xf32>) -> tensor<4xf32> {
  %q = quant.qcast %x : tensor<2x2xf32> to tensor<2x2x!quant.uniform<u8:f32, 0.5:3>>
  %c = tensor.collapse_shape %q [[0, 1]] : tensor<2x2x!quant.uniform<u8:f32, 0.5:3>> into tensor<4x!quant.uniform<u8:f32, 0.5:3>>
  %y = quant.dcast %c : tensor<4x!quant.uniform<u8:f32, 0.5:3>> to tensor<4xf32>
  return %y : tensor<4xf32>
}
