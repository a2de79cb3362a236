// RUN: quant-opt %s -split-input-file -qnt-lower-float | FileCheck %s
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

// A constant depthwise filter is rearranged at compile time (a run-time
// transpose of a constant would be vectorized and unrolled element by
// element): OHWI [4, 1, 2, 1] with multiplier 2 -> HWCM [1, 2, 2, 2].
// CHECK-LABEL: func.func @depthwise_constant
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}1.000000e+00, 3.000000e+00], [5.000000e+00, 7.000000e+00]], {{\[\[}}2.000000e+00, 4.000000e+00], [6.000000e+00, 8.000000e+00]]]]> : tensor<1x2x2x2xf32>}>
// CHECK-NOT: tosa.transpose
// CHECK: tosa.depthwise_conv2d %arg0, %[[W]]
func.func @depthwise_constant(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x3x4xf32> {
  %w = arith.constant dense<[[[[1.0], [2.0]]], [[[3.0], [4.0]]], [[[5.0], [6.0]]], [[[7.0], [8.0]]]]> : tensor<4x1x2x1xf32>
  %0 = qnt.conv2d %x, %w {groups = 2} : (tensor<1x4x4x2xf32>, tensor<4x1x2x1xf32>) -> tensor<1x4x3x4xf32>
  return %0 : tensor<1x4x3x4xf32>
}

// -----

// groups = 2 with two input channels per group: one loop over the groups
// around one convolution of a group's channels (the code does not grow with
// the number of groups): the input padded once, the filter as one HWCF
// filter per group, the output initialized with the bias and updated in
// place.
// CHECK-LABEL: func.func @grouped
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: } : tensor<1x4x4x4xf32> to tensor<1x6x6x4xf32>
// CHECK: %[[R:.*]] = tosa.reshape %arg1, %{{.*}} : (tensor<6x3x3x2xf32>, !tosa.shape<5>) -> tensor<2x3x3x3x2xf32>
// CHECK: %[[W:.*]] = tosa.transpose %[[R]] {perms = array<i32: 0, 2, 3, 4, 1>} : (tensor<2x3x3x3x2xf32>) -> tensor<2x3x3x2x3xf32>
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<6xf32>) outs(%{{.*}} : tensor<1x4x4x6xf32>)
// CHECK: %[[L:.*]] = scf.for %[[G:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[B]]) -> (tensor<1x4x4x6xf32>) {
// CHECK:   %[[IN:.*]] = arith.muli %[[G]], %[[C2]]
// CHECK:   %[[OUT:.*]] = arith.muli %[[G]], %[[C3]]
// CHECK:   %[[X:.*]] = tensor.extract_slice %[[P]][0, 0, 0, %[[IN]]] [1, 6, 6, 2] [1, 1, 1, 1]
// CHECK:   %[[F:.*]] = tensor.extract_slice %[[W]][%[[G]], 0, 0, 0, 0] [1, 3, 3, 2, 3] [1, 1, 1, 1, 1] : tensor<2x3x3x2x3xf32> to tensor<3x3x2x3xf32>
// CHECK:   %[[A:.*]] = tensor.extract_slice %[[ACC]][0, 0, 0, %[[OUT]]] [1, 4, 4, 3] [1, 1, 1, 1]
// CHECK:   %[[CONV:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[X]], %[[F]] : tensor<1x6x6x2xf32>, tensor<3x3x2x3xf32>) outs(%[[A]] : tensor<1x4x4x3xf32>)
// CHECK:   %[[U:.*]] = tensor.insert_slice %[[CONV]] into %[[ACC]][0, 0, 0, %[[OUT]]] [1, 4, 4, 3] [1, 1, 1, 1]
// CHECK:   scf.yield %[[U]]
// CHECK: tosa.clamp %[[L]] {max_val = 2.000000e+00 : f32, min_val = -1.000000e+00 : f32}
func.func @grouped(%x: tensor<1x4x4x4xf32>, %w: tensor<6x3x3x2xf32>, %b: tensor<6xf32>) -> tensor<1x4x4x6xf32> {
  %0 = qnt.conv2d %x, %w bias(%b) {groups = 2, pad = array<i64: 1, 1, 1, 1>, activation = #qnt<activation clamp>, clamp_min = -1.0 : f32, clamp_max = 2.0 : f32} : (tensor<1x4x4x4xf32>, tensor<6x3x3x2xf32>, tensor<6xf32>) -> tensor<1x4x4x6xf32>
  return %0 : tensor<1x4x4x6xf32>
}

// -----

// A constant filter is rearranged at compile time: OHWI [4, 1, 1, 2] with
// groups = 2 -> [G, KH, KW, ci, og] = [2, 1, 1, 2, 2]; no padding, no pad.
// CHECK-LABEL: func.func @grouped_constant
// CHECK-NOT: tensor.pad
// CHECK: "tosa.const"() <{values = dense<{{\[\[\[\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]]], {{\[\[\[\[}}5.000000e+00, 7.000000e+00], [6.000000e+00, 8.000000e+00]]]]]> : tensor<2x1x1x2x2xf32>}>
// CHECK-NOT: tosa.transpose
// CHECK: scf.for
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @grouped_constant(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]], [[[5.0, 6.0]]], [[[7.0, 8.0]]]]> : tensor<4x1x1x2xf32>
  %0 = qnt.conv2d %x, %w {groups = 2} : (tensor<1x4x4x4xf32>, tensor<4x1x1x2xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}
