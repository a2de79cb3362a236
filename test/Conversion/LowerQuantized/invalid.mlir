// RUN: quant-opt %s --qnt-lower-quantized --split-input-file --verify-diagnostics

func.func @no_lowering(%x: tensor<2x2x!quant.uniform<u8:f32, 0.5:3>>) -> tensor<4x!quant.uniform<u8:f32, 0.5:3>> {
  // expected-error @+1 {{'tensor.collapse_shape' on quantized tensors has no int8 lowering}}
  %0 = tensor.collapse_shape %x [[0, 1]] : tensor<2x2x!quant.uniform<u8:f32, 0.5:3>> into tensor<4x!quant.uniform<u8:f32, 0.5:3>>
  return %0 : tensor<4x!quant.uniform<u8:f32, 0.5:3>>
}

// -----

func.func @dynamic(%x: tensor<?xf32>) -> tensor<?x!quant.uniform<u8:f32, 0.5:3>> {
  // expected-error @+1 {{'quant.qcast': the int8 lowering needs statically shaped tensors}}
  %0 = quant.qcast %x : tensor<?xf32> to tensor<?x!quant.uniform<u8:f32, 0.5:3>>
  return %0 : tensor<?x!quant.uniform<u8:f32, 0.5:3>>
}

// -----

func.func @per_axis(%x: tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5, 0.25, 0.125}>> {
  // expected-error @+1 {{'quant.qcast': the int8 lowering needs per-tensor !quant.uniform types with 8-bit storage and f32 expressed type}}
  %0 = quant.qcast %x : tensor<2x3xf32> to tensor<2x3x!quant.uniform<i8:f32:1, {0.5, 0.25, 0.125}>>
  return %0 : tensor<2x3x!quant.uniform<i8:f32:1, {0.5, 0.25, 0.125}>>
}

// -----

func.func @wide(%x: tensor<4xf32>) -> tensor<4x!quant.uniform<i16:f32, 0.5>> {
  // expected-error @+1 {{'quant.qcast': the int8 lowering needs per-tensor !quant.uniform types with 8-bit storage and f32 expressed type}}
  %0 = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i16:f32, 0.5>>
  return %0 : tensor<4x!quant.uniform<i16:f32, 0.5>>
}

// -----

// A bilinear resize interpolates: it does not run on storage integers.
!q = !quant.uniform<u8:f32, 0.05:200>
func.func @bilinear(%x: tensor<1x2x2x1x!q>) -> tensor<1x4x4x1x!q> {
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.resize' on quantized tensors has no int8 lowering}}
  %r = tosa.resize %x, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x2x2x1x!q>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x4x4x1x!q>
  return %r : tensor<1x4x4x1x!q>
}
