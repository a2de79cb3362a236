// RUN: quant-opt %s --qnt-lower-quantized --split-input-file | FileCheck %s

// Storage casts of constants are the constants themselves (int8 weights,
// int32 biases); signatures and returns carry storage types.
// CHECK-LABEL: func.func @constants() -> (tensor<2x2xi8>, tensor<2xi32>)
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[}}1, -2], [3, -128]]> : tensor<2x2xi8>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[100000, -7]> : tensor<2xi32>
// CHECK-NOT: quant.scast
// CHECK: return %[[W]], %[[B]] : tensor<2x2xi8>, tensor<2xi32>
func.func @constants() -> (tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>, tensor<2x!quant.uniform<i32:f32, 0.01>>) {
  %w = arith.constant dense<[[1, -2], [3, -128]]> : tensor<2x2xi8>
  %qw = quant.scast %w : tensor<2x2xi8> to tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
  %b = arith.constant dense<[100000, -7]> : tensor<2xi32>
  %qb = quant.scast %b : tensor<2xi32> to tensor<2x!quant.uniform<i32:f32, 0.01>>
  return %qw, %qb : tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>, tensor<2x!quant.uniform<i32:f32, 0.01>>
}

// -----

// Reshape: a collapse to one dimension and an expansion (views after
// bufferization); the tosa shape operand is left dead.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x1x32xi8>) -> tensor<1x32xi8>
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1, 2, 3]] : tensor<1x1x1x32xi8> into tensor<32xi8>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [1, 32] : tensor<32xi8> into tensor<1x32xi8>
// CHECK: return %[[E]]
func.func @reshape(%x: tensor<1x1x1x32x!quant.uniform<u8:f32, 0.1:3>>) -> tensor<1x32x!quant.uniform<u8:f32, 0.1:3>> {
  %s = tosa.const_shape {values = dense<[1, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<1x1x1x32x!quant.uniform<u8:f32, 0.1:3>>, !tosa.shape<2>) -> tensor<1x32x!quant.uniform<u8:f32, 0.1:3>>
  return %0 : tensor<1x32x!quant.uniform<u8:f32, 0.1:3>>
}

// -----

// Calls between functions on quantized tensors.
// CHECK-LABEL: func.func private @callee(tensor<4xi8>) -> tensor<4xi8>
// CHECK-LABEL: func.func @caller
// CHECK: call @callee(%{{.*}}) : (tensor<4xi8>) -> tensor<4xi8>
func.func private @callee(tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
func.func @caller(%x: tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>> {
  %0 = func.call @callee(%x) : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 0.5>>
}
