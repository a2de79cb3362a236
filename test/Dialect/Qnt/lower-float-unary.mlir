// RUN: quant-opt %s --split-input-file --qnt-lower-float-unary | FileCheck %s
// RUN: quant-opt %s --split-input-file --qnt-lower-float-unary --quantc-float-to-llvm -o /dev/null

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
