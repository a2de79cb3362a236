// RUN: quant-opt %s --split-input-file --qnt-lower-float | FileCheck %s
// RUN: quant-opt %s --split-input-file --qnt-lower-float --quantc-float-to-llvm -o /dev/null

// Softmax along the axis, max-subtracted: the reductions keep the axis as
// a dimension of size 1 and broadcast back.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[M:.*]] = tosa.reduce_max %arg0 {axis = 1 : i32} : (tensor<2x10xf32>) -> tensor<2x1xf32>
// CHECK: %[[D:.*]] = tosa.sub %arg0, %[[M]] : (tensor<2x10xf32>, tensor<2x1xf32>) -> tensor<2x10xf32>
// CHECK: %[[E:.*]] = tosa.exp %[[D]]
// CHECK: %[[S:.*]] = tosa.reduce_sum %[[E]] {axis = 1 : i32}
// CHECK: %[[R:.*]] = tosa.reciprocal %[[S]]
// CHECK: %[[Y:.*]] = tosa.mul %[[E]], %[[R]], %{{.*}} : (tensor<2x10xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x10xf32>
// CHECK: return %[[Y]]
func.func @softmax(%x: tensor<2x10xf32>) -> tensor<2x10xf32> {
  %0 = qnt.softmax %x {axis = 1 : i64} : tensor<2x10xf32>
  return %0 : tensor<2x10xf32>
}

// -----

// Log-softmax: the shifted input minus the log of the sum.
// CHECK-LABEL: func.func @log_softmax
// CHECK: %[[M:.*]] = tosa.reduce_max %arg0 {axis = 0 : i32} : (tensor<3x4xf32>) -> tensor<1x4xf32>
// CHECK: %[[D:.*]] = tosa.sub %arg0, %[[M]]
// CHECK: %[[E:.*]] = tosa.exp %[[D]]
// CHECK: %[[S:.*]] = tosa.reduce_sum %[[E]] {axis = 0 : i32}
// CHECK: %[[L:.*]] = tosa.log %[[S]]
// CHECK: %[[Y:.*]] = tosa.sub %[[D]], %[[L]] : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
// CHECK: return %[[Y]]
func.func @log_softmax(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = qnt.softmax %x {axis = 0 : i64, log} : tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
