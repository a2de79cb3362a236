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

// -----

// Data movement is the same TOSA op on the storage integers (lowered with
// the float ops by tosa-to-linalg / tosa-to-tensor): a slice, a tile, a
// pad whose quantized pad value is the zero point (u8 200: i8 -56), a
// nearest resize.
// CHECK-LABEL: func.func @data_movement
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x2xi8>) -> tensor<1x12x12x2xi8>
// CHECK: %[[S:.*]] = tosa.slice %[[X]], %{{.*}}, %{{.*}} : (tensor<1x4x4x2xi8>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x4x1xi8>
// CHECK: %[[T:.*]] = tosa.tile %[[S]], %{{.*}} : (tensor<1x4x4x1xi8>, !tosa.shape<4>) -> tensor<1x4x4x2xi8>
// CHECK: %[[ZP:.*]] = arith.constant dense<-56> : tensor<1xi8>
// CHECK: %[[P:.*]] = tosa.pad %[[T]], %{{.*}}, %[[ZP]] : (tensor<1x4x4x2xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x6x6x2xi8>
// CHECK: %[[R:.*]] = tosa.resize %[[P]], {{.*}} {mode = NEAREST_NEIGHBOR} : (tensor<1x6x6x2xi8>, {{.*}}) -> tensor<1x12x12x2xi8>
// CHECK: return %[[R]]
!q = !quant.uniform<u8:f32, 0.05:200>
func.func @data_movement(%x: tensor<1x4x4x2x!q>) -> tensor<1x12x12x2x!q> {
  %start = tosa.const_shape {values = dense<[0, 0, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 4, 4, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s = tosa.slice %x, %start, %size : (tensor<1x4x4x2x!q>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x4x1x!q>
  %m = tosa.const_shape {values = dense<[1, 1, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %t = tosa.tile %s, %m : (tensor<1x4x4x1x!q>, !tosa.shape<4>) -> tensor<1x4x4x2x!q>
  %pads = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %zp = arith.constant dense<-56> : tensor<1xi8>
  %zq = quant.scast %zp : tensor<1xi8> to tensor<1x!q>
  %p = tosa.pad %t, %pads, %zq : (tensor<1x4x4x2x!q>, !tosa.shape<8>, tensor<1x!q>) -> tensor<1x6x6x2x!q>
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.resize %p, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x6x6x2x!q>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x12x12x2x!q>
  return %r : tensor<1x12x12x2x!q>
}

// -----

// A float op reading dequantize(quantize(x)) (a float layer right after a
// quantized graph input) sees x on the int8 grid: the pair is lowered, not
// folded to x as upstream's folder would.
// CHECK-LABEL: func.func @qdq_into_float
// CHECK-NOT: tosa.abs %arg0
// CHECK: math.roundeven
// CHECK: memref.store %{{.*}} : memref<4xi8>
// CHECK: %[[D:.*]] = bufferization.to_tensor %{{.*}} : memref<4xf32> to tensor<4xf32>
// CHECK: tosa.abs %[[D]]
func.func @qdq_into_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<u8:f32, 0.5:3>>
  %d = quant.dcast %q : tensor<4x!quant.uniform<u8:f32, 0.5:3>> to tensor<4xf32>
  %a = tosa.abs %d : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
