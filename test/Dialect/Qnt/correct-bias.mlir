// RUN: quant-opt %s -split-input-file -qnt-correct-bias -verify-diagnostics | FileCheck %s
// RUN: quant-opt %s -split-input-file -qnt-correct-bias="exclude=conv_excluded" -verify-diagnostics | FileCheck %s --check-prefix=EXCL
//
// The corrected bias is b[o] - sum_t dW[o, t] * m[t], dW = dq(q(W)) - W
// (quantc::ref::quantize then dequantize with the weight's type) and m the
// layer's qnt.input_mean. The numbers below by hand in decimal; the printed
// values differ in the last digits because the weights are float32 (0.26 is
// 0.2599999905), the sums double, the result rounded to float32 once (the
// same computation in NumPy prints the same digits).

// Per-channel 1x1 conv, scales {0.1, 0.05}, means m = [2, 1]:
//   o = 0: W [0.26, -0.13] -> q [3, -1] -> dW [0.04, 0.03];
//          shift 0.04 * 2 + 0.03 * 1 = 0.11;  0.5 - 0.11 = 0.39
//   o = 1: W [0.12, 0.01] -> q [2, 0] -> dW [-0.02, -0.01];
//          shift -0.04 - 0.01 = -0.05;  -0.2 + 0.05 = -0.15
// CHECK-LABEL: func.func @conv
// CHECK: %[[B:.*]] = arith.constant dense<[0.389999956, -1.500000e-01]> : tensor<2xf32>
// CHECK: qnt.conv2d %{{.*}}, %{{.*}} bias(%[[B]]) : (
// CHECK-NOT: qnt.input_mean
// EXCL-LABEL: func.func @conv
// EXCL: arith.constant dense<[0.389999956, -1.500000e-01]>
func.func @conv(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<[[[[0.26, -0.13]]], [[[0.12, 0.01]]]]> : tensor<2x1x1x2xf32>
  %b = arith.constant dense<[0.5, -0.2]> : tensor<2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:0, {0.1, 0.05}> : tensor<2x1x1x2xf32>
  %c = qnt.conv2d %x, %wq bias(%b) {qnt.input_mean = array<f32: 2.0, 1.0>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  return %c : tensor<1x4x4x2xf32>
}

// -----

// Depthwise 1x2 filter, 2 channels, multiplier 2 (outputs 0, 1 read input
// channel 0; outputs 2, 3 channel 1), per tensor scale 0.1, no bias.
// Means [KH = 1, KW = 2, C = 2]: tap 0 [1, 10], tap 1 [2, 20].
//   o = 0: W [0.26, 0.13]  -> q [3, 1]  -> dW [0.04, -0.03]; shift 0.04 - 0.06 = -0.02
//   o = 1: W [0.14, -0.06] -> q [1, -1] -> dW [-0.04, -0.04]; shift -0.04 - 0.08 = -0.12
//   o = 2: W [0.26, 0.13]  (channel 1): shift 0.4 - 0.6 = -0.2
//   o = 3: W [0.31, 0.0]   -> q [3, 0]  -> dW [-0.01, 0]; shift -0.1
// The new bias is minus the shift.
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[B:.*]] = arith.constant dense<[0.019999966, 0.120000005, 0.19999966, 0.0999999046]> : tensor<4xf32>
// CHECK: qnt.conv2d %{{.*}}, %{{.*}} bias(%[[B]]) {groups = 2 : i64} : (
func.func @depthwise(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x3x4xf32> {
  %w = arith.constant dense<[[[[0.26], [0.13]]], [[[0.14], [-0.06]]], [[[0.26], [0.13]]], [[[0.31], [0.0]]]]> : tensor<4x1x2x1xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32, 0.1> : tensor<4x1x2x1xf32>
  %c = qnt.conv2d %x, %wq {groups = 2 : i64, qnt.input_mean = array<f32: 1.0, 10.0, 2.0, 20.0>} : (tensor<1x4x4x2xf32>, tensor<4x1x2x1xf32>) -> tensor<1x4x3x4xf32>
  return %c : tensor<1x4x3x4xf32>
}

// -----

// A linear layer (matmul with a [1, K, N] weight and its bias add): the
// per-channel conv's weights transposed, so the same numbers.
// CHECK-LABEL: func.func @linear
// CHECK: %[[B:.*]] = arith.constant dense<{{\[\[\[}}0.389999956, -1.500000e-01]]]> : tensor<1x1x2xf32>
// CHECK: tosa.add %{{.*}}, %[[B]]
func.func @linear(%x: tensor<1x3x2xf32>) -> tensor<1x3x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = arith.constant dense<[[[0.26, 0.12], [-0.13, 0.01]]]> : tensor<1x2x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:2, {0.1, 0.05}> : tensor<1x2x2xf32>
  %m = tosa.matmul %x, %wq, %zp, %zp {qnt.input_mean = array<f32: 2.0, 1.0>} : (tensor<1x3x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x2xf32>
  %b = arith.constant dense<[[[0.5, -0.2]]]> : tensor<1x1x2xf32>
  %l = tosa.add %m, %b : (tensor<1x3x2xf32>, tensor<1x1x2xf32>) -> tensor<1x3x2xf32>
  return %l : tensor<1x3x2xf32>
}

// -----

// Without a bias add, one is created right after the matmul.
// CHECK-LABEL: func.func @linear_without_bias
// CHECK: %[[M:.*]] = tosa.matmul
// CHECK-NOT: qnt.input_mean
// CHECK: %[[B:.*]] = arith.constant dense<{{\[\[\[}}-0.110000037, 0.0499999896]]]> : tensor<1x1x2xf32>
// CHECK: %[[A:.*]] = tosa.add %[[M]], %[[B]] : (tensor<1x3x2xf32>, tensor<1x1x2xf32>) -> tensor<1x3x2xf32>
// CHECK: return %[[A]]
func.func @linear_without_bias(%x: tensor<1x3x2xf32>) -> tensor<1x3x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = arith.constant dense<[[[0.26, 0.12], [-0.13, 0.01]]]> : tensor<1x2x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:2, {0.1, 0.05}> : tensor<1x2x2xf32>
  %m = tosa.matmul %x, %wq, %zp, %zp {qnt.input_mean = array<f32: 2.0, 1.0>} : (tensor<1x3x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x2xf32>
  return %m : tensor<1x3x2xf32>
}

// -----

// A 3x3 conv with padding reads its means as [KH, KW, C]; a weight on its
// grid has nothing to correct. Excluded (by the layer's name), the layer
// keeps its bias and loses the attribute.
// CHECK-LABEL: func.func @conv_excluded
// Only the centre tap is off its grid: 0.125 -> q 1 (scale 0.1) -> dW
// -0.025; its mean 10: shift -0.25, bias 0.5 + 0.25 = 0.75.
// CHECK: %[[B:.*]] = arith.constant dense<7.500000e-01> : tensor<1xf32>
// CHECK: qnt.conv2d %{{.*}}, %{{.*}} bias(%[[B]]) {pad = array<i64: 1, 1, 1, 1>} :
// EXCL-LABEL: func.func @conv_excluded
// EXCL: %[[B:.*]] = arith.constant dense<5.000000e-01> : tensor<1xf32>
// EXCL: qnt.conv2d %{{.*}}, %{{.*}} bias(%[[B]]) {pad = array<i64: 1, 1, 1, 1>} :
func.func @conv_excluded(%x: tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32> {
  %w = arith.constant dense<[[[[0.1], [0.2], [0.1]], [[0.0], [0.125], [0.0]], [[0.1], [0.2], [0.1]]]]> : tensor<1x3x3x1xf32>
  %b = arith.constant dense<[0.5]> : tensor<1xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32, 0.1> : tensor<1x3x3x1xf32>
  %c = qnt.conv2d %x, %wq bias(%b) {pad = array<i64: 1, 1, 1, 1>, qnt.input_mean = array<f32: 1.0, 1.0, 1.0, 1.0, 10.0, 1.0, 1.0, 1.0, 1.0>} : (tensor<1x4x4x1xf32>, tensor<1x3x3x1xf32>, tensor<1xf32>) -> tensor<1x4x4x1xf32> loc("conv_excluded")
  return %c : tensor<1x4x4x1xf32>
}

// -----

func.func @wrong_length(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<0.25> : tensor<2x3x3x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32, 0.1> : tensor<2x3x3x2xf32>
  // expected-error @+1 {{layer '?' (qnt.conv2d): qnt.input_mean has 2 values, expected 18 (KH x KW x C = 3 x 3 x 2)}}
  %c = qnt.conv2d %x, %wq {pad = array<i64: 1, 1, 1, 1>, qnt.input_mean = array<f32: 2.0, 1.0>} : (tensor<1x4x4x2xf32>, tensor<2x3x3x2xf32>) -> tensor<1x4x4x2xf32>
  return %c : tensor<1x4x4x2xf32>
}

// -----

func.func @not_an_array(%x: tensor<1x3x2xf32>) -> tensor<1x3x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = arith.constant dense<0.25> : tensor<1x2x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32, 0.1> : tensor<1x2x2xf32>
  // expected-error @+1 {{layer '?' (tosa.matmul): qnt.input_mean must be a dense f32 array}}
  %m = tosa.matmul %x, %wq, %zp, %zp {qnt.input_mean = dense<1.0> : tensor<2xf32>} : (tensor<1x3x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x2xf32>
  return %m : tensor<1x3x2xf32>
}

// -----

func.func @unquantized_filter(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<0.25> : tensor<2x1x1x2xf32>
  // expected-error @+1 {{layer '?' (qnt.conv2d): the filter is not a qnt.fake_quant of a constant (fold the observers first)}}
  %c = qnt.conv2d %x, %w {qnt.input_mean = array<f32: 2.0, 1.0>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  return %c : tensor<1x4x4x2xf32>
}

// -----

func.func @other_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{layer '?' (tosa.clamp): qnt.input_mean on an op that is neither a float qnt.conv2d nor a tosa.matmul}}
  %r = tosa.clamp %x {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32, qnt.input_mean = array<f32: 1.0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
