// RUN: quant-opt %s --split-input-file --qnt-lower-float | FileCheck %s
// RUN: quant-opt %s --split-input-file --qnt-lower-float --quantc-float-to-llvm -o /dev/null

// Over the last dimension: the mean and the biased variance as reduce_sum
// times 1 / n, rsqrt of the variance plus epsilon, then gamma and beta
// reshaped to broadcast.
// CHECK-LABEL: func.func @last_dim
// CHECK-DAG: %[[N:.*]] = "tosa.const"() <{values = dense<1.250000e-01> : tensor<1x1x1xf32>}>
// CHECK-DAG: %[[EPS:.*]] = "tosa.const"() <{values = dense<9.99999997E-7> : tensor<1x1x1xf32>}>
// CHECK: %[[S:.*]] = tosa.reduce_sum %arg0 {axis = 2 : i32} : (tensor<2x3x8xf32>) -> tensor<2x3x1xf32>
// CHECK: %[[M:.*]] = tosa.mul %[[S]], %[[N]], %{{.*}} : (tensor<2x3x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x3x1xf32>
// CHECK: %[[D:.*]] = tosa.sub %arg0, %[[M]] : (tensor<2x3x8xf32>, tensor<2x3x1xf32>) -> tensor<2x3x8xf32>
// CHECK: %[[D2:.*]] = tosa.mul %[[D]], %[[D]], %{{.*}} : (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<1xi8>) -> tensor<2x3x8xf32>
// CHECK: %[[VS:.*]] = tosa.reduce_sum %[[D2]] {axis = 2 : i32}
// CHECK: %[[V:.*]] = tosa.mul %[[VS]], %[[N]]
// CHECK: %[[VE:.*]] = tosa.add %[[V]], %[[EPS]]
// CHECK: %[[R:.*]] = tosa.rsqrt %[[VE]] : (tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
// CHECK: %[[G:.*]] = tosa.reshape %arg1, %{{.*}} : (tensor<8xf32>, !tosa.shape<3>) -> tensor<1x1x8xf32>
// CHECK: %[[DR:.*]] = tosa.mul %[[D]], %[[R]]
// CHECK: %[[DG:.*]] = tosa.mul %[[DR]], %[[G]]
// CHECK: %[[B:.*]] = tosa.reshape %arg2, %{{.*}} : (tensor<8xf32>, !tosa.shape<3>) -> tensor<1x1x8xf32>
// CHECK: %[[Y:.*]] = tosa.add %[[DG]], %[[B]] : (tensor<2x3x8xf32>, tensor<1x1x8xf32>) -> tensor<2x3x8xf32>
// CHECK: return %[[Y]]
func.func @last_dim(%x: tensor<2x3x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x3x8xf32> {
  %0 = qnt.layer_norm %x, %g, %b {axis = 2 : i64, epsilon = 1.0e-6 : f32} : tensor<2x3x8xf32>, tensor<8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

// Over the last two dimensions: one reduce_sum per dimension, 1 / (3 * 8).
// CHECK-LABEL: func.func @two_dims
// CHECK: "tosa.const"() <{values = dense<0.0416666679> : tensor<1x1x1xf32>}>
// CHECK: tosa.reduce_sum %arg0 {axis = 1 : i32} : (tensor<2x3x8xf32>) -> tensor<2x1x8xf32>
// CHECK: tosa.reduce_sum %{{.*}} {axis = 2 : i32} : (tensor<2x1x8xf32>) -> tensor<2x1x1xf32>
// CHECK: tosa.reshape %arg1, %{{.*}} : (tensor<3x8xf32>, !tosa.shape<3>) -> tensor<1x3x8xf32>
func.func @two_dims(%x: tensor<2x3x8xf32>, %g: tensor<3x8xf32>, %b: tensor<3x8xf32>) -> tensor<2x3x8xf32> {
  %0 = qnt.layer_norm %x, %g, %b {axis = 1 : i64} : tensor<2x3x8xf32>, tensor<3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

// Group norm of an NHWC tensor, 2 groups of 2 channels: the input as
// [N, H * W, groups, C / groups], mean and variance over dimensions 1 and 3
// (1 / (3 * 3 * 2)), then reshaped back and scaled per channel.
// CHECK-LABEL: func.func @group_norm
// CHECK-DAG: "tosa.const"() <{values = dense<0.055555556> : tensor<1x1x1x1xf32>}>
// CHECK: %[[X:.*]] = tosa.reshape %arg0, %{{.*}} : (tensor<1x3x3x4xf32>, !tosa.shape<4>) -> tensor<1x9x2x2xf32>
// CHECK: tosa.reduce_sum %[[X]] {axis = 1 : i32} : (tensor<1x9x2x2xf32>) -> tensor<1x1x2x2xf32>
// CHECK: tosa.reduce_sum %{{.*}} {axis = 3 : i32} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x1xf32>
// CHECK: tosa.rsqrt %{{.*}} : (tensor<1x1x2x1xf32>) -> tensor<1x1x2x1xf32>
// CHECK: tosa.reshape %{{.*}} : (tensor<1x9x2x2xf32>, !tosa.shape<4>) -> tensor<1x3x3x4xf32>
// CHECK: tosa.reshape %arg1, %{{.*}} : (tensor<4xf32>, !tosa.shape<4>) -> tensor<1x1x1x4xf32>
// CHECK: tosa.add %{{.*}}, %{{.*}} : (tensor<1x3x3x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x3x3x4xf32>
func.func @group_norm(%x: tensor<1x3x3x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = qnt.group_norm %x, %g, %b {groups = 2 : i64} : tensor<1x3x3x4xf32>, tensor<4xf32>
  return %0 : tensor<1x3x3x4xf32>
}
