// RUN: quant-opt %s --split-input-file --qnt-lower-float | FileCheck %s
// RUN: quant-opt %s --split-input-file --qnt-lower-float --quantc-float-to-llvm -o /dev/null

// The formula of UnaryFunctions.h in one element-wise linalg.generic.
// CHECK-LABEL: func.func @hard_swish
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK-NOT: qnt.unary
func.func @hard_swish(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = qnt.unary hard_swish %x : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// exp is a polynomial approximation, not a libm call per element.
// CHECK-LABEL: func.func @sigmoid
// CHECK: linalg.generic
// CHECK-NOT: math.exp
// CHECK: linalg.yield
func.func @sigmoid(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = qnt.unary sigmoid %x : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Parameters are the op's, or the function's defaults (leaky_relu: 0.01).
// CHECK-LABEL: func.func @leaky_relu
// CHECK: arith.constant 0.00999999977 : f32
func.func @leaky_relu(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = qnt.unary leaky_relu %x : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Per-channel alphas (PReLU): a second input, read along the last dimension.
// CHECK: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK: #[[LAST:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @prelu
// CHECK: %[[A:.*]] = arith.constant dense<[2.500000e-01, -1.000000e+00, 5.000000e-01]> : tensor<3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[LAST]], #[[ID]]]
// CHECK-SAME: ins(%arg0, %[[A]] : tensor<1x2x3xf32>, tensor<3xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[ALPHA:.*]]: f32, %{{.*}}: f32):
// CHECK: arith.mulf %[[ALPHA]]
func.func @prelu(%x: tensor<1x2x3xf32>) -> tensor<1x2x3xf32> {
  %0 = qnt.unary leaky_relu %x {alphas = array<f32: 0.25, -1.0, 0.5>} : tensor<1x2x3xf32>
  return %0 : tensor<1x2x3xf32>
}

// -----

// sign is step(x) - step(-x), step a compare and select; round is
// math.roundeven (ties to even).
// CHECK-LABEL: func.func @sign_round
// CHECK: linalg.generic
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: arith.subf
// CHECK: linalg.generic
// CHECK: math.roundeven
func.func @sign_round(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = qnt.unary sign %x : tensor<2x8xf32>
  %1 = qnt.unary round %0 : tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}
