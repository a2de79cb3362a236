// RUN: quant-opt %s -split-input-file -qnt-lower-float-conv | FileCheck %s
// Numerics: test/Integration/Fuse/equivalence.mlir runs lowered fused models.

// groups = 1, residual and relu: conv, add, clamp.
// CHECK-LABEL: func.func @plain
// CHECK: %[[C:.*]] = tosa.conv2d %arg0, %arg1, %arg2, %[[ZP:.*]], %[[ZP]] {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
// CHECK: %[[A:.*]] = tosa.add %[[C]], %arg0
// CHECK: tosa.clamp %[[A]] {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32}
func.func @plain(%x: tensor<1x4x4x2xf32>, %w: tensor<2x3x3x2xf32>, %b: tensor<2xf32>) -> tensor<1x4x4x2xf32> {
  %0 = qnt.conv2d %x, %w bias(%b) residual(%x) {pad = array<i64: 1, 1, 1, 1>, activation = #qnt<activation relu>} : (tensor<1x4x4x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// Stride 2 over 10 rows with pad 1: the bottom/right padding row is never
// read and TOSA wants exact sizes, so it is dropped; no bias: zeros.
// CHECK-LABEL: func.func @trim_padding
// CHECK: %[[Z:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<2xf32>}>
// CHECK: tosa.conv2d %arg0, %arg1, %[[Z]], {{.*}} pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>
func.func @trim_padding(%x: tensor<1x10x10x2xf32>, %w: tensor<2x3x3x2xf32>) -> tensor<1x5x5x2xf32> {
  %0 = qnt.conv2d %x, %w {pad = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x10x10x2xf32>, tensor<2x3x3x2xf32>) -> tensor<1x5x5x2xf32>
  return %0 : tensor<1x5x5x2xf32>
}

// -----

// Not enough padding to drop: the unread input row is sliced off.
// CHECK-LABEL: func.func @trim_input
// CHECK: %[[S:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 9, 9, 2] [1, 1, 1, 1]
// CHECK: tosa.conv2d %[[S]], {{.*}} pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>
func.func @trim_input(%x: tensor<1x10x10x2xf32>, %w: tensor<2x3x3x2xf32>) -> tensor<1x4x4x2xf32> {
  %0 = qnt.conv2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x10x10x2xf32>, tensor<2x3x3x2xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// Depthwise, multiplier 2: OHWI [4, 3, 3, 1] -> [2, 2, 3, 3] -> HWCM [3, 3, 2, 2].
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[R:.*]] = tosa.reshape %arg1, %{{.*}} : (tensor<4x3x3x1xf32>, !tosa.shape<4>) -> tensor<2x2x3x3xf32>
// CHECK: %[[T:.*]] = tosa.transpose %[[R]] {perms = array<i32: 2, 3, 0, 1>} : (tensor<2x2x3x3xf32>) -> tensor<3x3x2x2xf32>
// CHECK: tosa.depthwise_conv2d %arg0, %[[T]]
// CHECK: tosa.clamp {{.*}} {max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32}
func.func @depthwise(%x: tensor<1x4x4x2xf32>, %w: tensor<4x3x3x1xf32>) -> tensor<1x2x2x4xf32> {
  %0 = qnt.conv2d %x, %w {groups = 2, activation = #qnt<activation relu6>} : (tensor<1x4x4x2xf32>, tensor<4x3x3x1xf32>) -> tensor<1x2x2x4xf32>
  return %0 : tensor<1x2x2x4xf32>
}

// -----

// groups = 2 with two input channels per group: one conv per group, concat.
// CHECK-LABEL: func.func @grouped
// CHECK-COUNT-2: tosa.conv2d {{.*}} -> tensor<1x4x4x3xf32>
// CHECK: tosa.concat {{.*}} {axis = 3 : i32} : (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x4x4x6xf32>
// CHECK: tosa.clamp {{.*}} {max_val = 2.000000e+00 : f32, min_val = -1.000000e+00 : f32}
func.func @grouped(%x: tensor<1x4x4x4xf32>, %w: tensor<6x1x1x2xf32>) -> tensor<1x4x4x6xf32> {
  %0 = qnt.conv2d %x, %w {groups = 2, activation = #qnt<activation clamp>, clamp_min = -1.0 : f32, clamp_max = 2.0 : f32} : (tensor<1x4x4x4xf32>, tensor<6x1x1x2xf32>) -> tensor<1x4x4x6xf32>
  return %0 : tensor<1x4x4x6xf32>
}
