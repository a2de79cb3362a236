// A per-channel fake_quant on an activation: no int8 form (qdq.mlir).
func.func @m(%x: tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32> {
  %0 = qnt.fake_quant %x to !quant.uniform<u8:f32:3, {0.1, 0.2, 0.3}> : tensor<1x2x2x3xf32>
  %1 = tosa.clamp %0 {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  return %1 : tensor<1x2x2x3xf32>
}
