// RUN: quant-opt %s -split-input-file -qnt-lower-float | FileCheck %s
// Numerics are checked end to end in test/Integration/Calibrate/ranges.mlir.

// NHWC (axis -1): parameters are indexed by the last dimension.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @nhwc
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x3xf32>, %[[G:.*]]: tensor<3xf32>, %[[B:.*]]: tensor<3xf32>, %[[M:.*]]: tensor<3xf32>, %[[V:.*]]: tensor<3xf32>)
// CHECK: %[[EPS:.*]] = arith.constant 1.000000e-03 : f32
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[C]], #[[C]], #[[C]], #[[C]], #[[ID]]]
// CHECK-SAME: ins(%[[X]], %[[G]], %[[B]], %[[M]], %[[V]] :
// CHECK: ^bb0(%[[x:.*]]: f32, %[[g:.*]]: f32, %[[b:.*]]: f32, %[[m:.*]]: f32, %[[v:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[VE:.*]] = arith.addf %[[v]], %[[EPS]]
// CHECK-NEXT: %[[R:.*]] = math.rsqrt %[[VE]]
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[g]], %[[R]]
// CHECK-NEXT: %[[XC:.*]] = arith.subf %[[x]], %[[m]]
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[XC]], %[[S]]
// CHECK-NEXT: %[[Z:.*]] = arith.addf %[[Y]], %[[b]]
// CHECK-NEXT: linalg.yield %[[Z]]
// CHECK-NOT: qnt.batch_norm
func.func @nhwc(%x: tensor<1x4x4x3xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<1x4x4x3xf32> {
  %0 = qnt.batch_norm %x, %g, %b, %m, %v {epsilon = 1.0e-3 : f32} : tensor<1x4x4x3xf32>, tensor<3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

// NCHW (axis 1).
// CHECK: #[[C1:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @nchw
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[C1]], #[[C1]], #[[C1]], #[[C1]], #{{.*}}]
func.func @nchw(%x: tensor<1x3x4x4xf32>, %p: tensor<3xf32>) -> tensor<1x3x4x4xf32> {
  %0 = qnt.batch_norm %x, %p, %p, %p, %p {axis = 1 : i64} : tensor<1x3x4x4xf32>, tensor<3xf32>
  return %0 : tensor<1x3x4x4xf32>
}
