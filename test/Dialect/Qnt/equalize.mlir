// RUN: quant-opt %s -split-input-file -qnt-equalize -verify-diagnostics | FileCheck %s

// conv -> relu -> conv. Ranges r1 = |w1| = [4, 0.25], r2 = |w2| = [1, 4]:
// s = sqrt(r1 / r2) = [2, 0.25]; the first conv's filter and bias are
// divided by s (w1 = [2, 1], b1 = [0.5, 8]), the second's input channels
// multiplied (w2 = [2, 1]); both sides of each channel now have range
// sqrt(r1 * r2) = [2, 1], and a second sweep finds scales of 1.
// CHECK-LABEL: func.func @conv_relu_conv
// CHECK-DAG: %[[W1:.*]] = arith.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B1:.*]] = arith.constant dense<[5.000000e-01, 8.000000e+00]> : tensor<2xf32>
// CHECK: %[[C:.*]] = qnt.conv2d %arg0, %[[W1]] bias(%[[B1]]) {activation = #qnt<activation relu>}
// CHECK-DAG: %[[W2:.*]] = arith.constant dense<{{\[\[\[\[}}2.000000e+00, 1.000000e+00]]]]> : tensor<1x1x1x2xf32>
// CHECK-DAG: %[[B2:.*]] = arith.constant dense<3.000000e+00> : tensor<1xf32>
// CHECK: qnt.conv2d %[[C]], %[[W2]] bias(%[[B2]])
func.func @conv_relu_conv(%x: tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32> {
  %w1 = arith.constant dense<[[[[4.0]]], [[[0.25]]]]> : tensor<2x1x1x1xf32>
  %b1 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %w2 = arith.constant dense<[[[[1.0, 4.0]]]]> : tensor<1x1x1x2xf32>
  %b2 = arith.constant dense<3.0> : tensor<1xf32>
  // expected-remark @+1 {{equalized with 'qnt.conv2d': 2 channels divided by scales in [0.25, 2] (2 sweeps)}}
  %c = qnt.conv2d %x, %w1 bias(%b1) {activation = #qnt<activation relu>} : (tensor<1x4x4x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %d = qnt.conv2d %c, %w2 bias(%b2) : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>, tensor<1xf32>) -> tensor<1x4x4x1xf32>
  return %d : tensor<1x4x4x1xf32>
}

// -----

// conv -> depthwise: the depthwise filter's channel is multiplied by s, so
// its output is unchanged; its bias is not touched. Same ranges as above.
// CHECK-LABEL: func.func @conv_depthwise
// CHECK-DAG: %[[W1:.*]] = arith.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK: %[[C:.*]] = qnt.conv2d %arg0, %[[W1]] {activation = #qnt<activation relu>}
// CHECK-DAG: %[[W2:.*]] = arith.constant dense<{{\[\[\[\[}}2.000000e+00], [1.000000e+00], [-2.000000e+00]]], {{\[\[\[}}1.000000e+00], [5.000000e-01], [2.500000e-01]]]]> : tensor<2x1x3x1xf32>
// CHECK-DAG: %[[B2:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: qnt.conv2d %[[C]], %[[W2]] bias(%[[B2]]) {groups = 2 : i64, pad = array<i64: 0, 0, 1, 1>}
func.func @conv_depthwise(%x: tensor<1x4x4x1xf32>) -> tensor<1x4x4x2xf32> {
  %w1 = arith.constant dense<[[[[4.0]]], [[[0.25]]]]> : tensor<2x1x1x1xf32>
  %w2 = arith.constant dense<[[[[1.0], [0.5], [-1.0]]], [[[4.0], [2.0], [1.0]]]]> : tensor<2x1x3x1xf32>
  %b2 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // expected-remark @+1 {{equalized with 'qnt.conv2d': 2 channels divided by scales in [0.25, 2] (2 sweeps)}}
  %c = qnt.conv2d %x, %w1 {activation = #qnt<activation relu>} : (tensor<1x4x4x1xf32>, tensor<2x1x1x1xf32>) -> tensor<1x4x4x2xf32>
  %d = qnt.conv2d %c, %w2 bias(%b2) {groups = 2 : i64, pad = array<i64: 0, 0, 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x3x1xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  return %d : tensor<1x4x4x2xf32>
}

// -----

// conv -> depthwise -> conv: a chain, swept pair by pair until the scales
// converge. Channel 0's ranges are 8, 1, 1 along the chain and converge to
// their geometric mean 2 on all three (to the 1e-8 of log(s) where the
// sweeps stop); channel 1's (1, 1, 1) stay.
// CHECK-LABEL: func.func @chain
// CHECK-DAG: arith.constant dense<{{\[\[\[\[}}{{2.000000e\+00|1.99999[0-9]*|2.00000[0-9]*}}]]], {{\[\[\[}}1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: arith.constant dense<{{\[\[\[\[}}{{2.000000e\+00|1.99999[0-9]*|2.00000[0-9]*}}]]], {{\[\[\[}}1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: arith.constant dense<{{\[\[\[\[}}{{2.000000e\+00|1.99999[0-9]*|2.00000[0-9]*}}, 1.000000e+00]]]]> : tensor<1x1x1x2xf32>
func.func @chain(%x: tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32> {
  %w1 = arith.constant dense<[[[[8.0]]], [[[1.0]]]]> : tensor<2x1x1x1xf32>
  %w2 = arith.constant dense<[[[[1.0]]], [[[1.0]]]]> : tensor<2x1x1x1xf32>
  %w3 = arith.constant dense<[[[[1.0, 1.0]]]]> : tensor<1x1x1x2xf32>
  // expected-remark @+1 {{equalized with 'qnt.conv2d': 2 channels divided by scales in [1, 4}}
  %c = qnt.conv2d %x, %w1 {activation = #qnt<activation relu>} : (tensor<1x4x4x1xf32>, tensor<2x1x1x1xf32>) -> tensor<1x4x4x2xf32>
  // expected-remark @+1 {{equalized with 'qnt.conv2d': 2 channels divided by scales in [1, 2}}
  %d = qnt.conv2d %c, %w2 {groups = 2 : i64, activation = #qnt<activation relu>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x4x4x2xf32>
  %e = qnt.conv2d %d, %w3 : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x1xf32>
  return %e : tensor<1x4x4x1xf32>
}

// -----

// linear -> relu -> linear (tosa.matmul with [1, K, N] weights and a bias
// add). Output 0 of the first has range 4, output 1 range 1; the second's
// rows 0 and 1 have ranges 1 and 4: s = [2, 0.5].
// CHECK-LABEL: func.func @linear_relu_linear
// CHECK: %[[W1:.*]] = arith.constant dense<{{\[\[\[}}2.000000e+00, 2.000000e+00], [-1.000000e+00, 1.000000e+00]]]> : tensor<1x2x2xf32>
// CHECK: tosa.matmul %arg0, %[[W1]]
// CHECK: %[[B1:.*]] = arith.constant dense<{{\[\[\[}}5.000000e-01, 4.000000e+00]]]> : tensor<1x1x2xf32>
// CHECK: tosa.add %{{.*}}, %[[B1]]
// CHECK: %[[W2:.*]] = arith.constant dense<2.000000e+00> : tensor<1x2x1xf32>
// CHECK: tosa.matmul %{{.*}}, %[[W2]]
func.func @linear_relu_linear(%x: tensor<1x1x2xf32>) -> tensor<1x1x1xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w1 = arith.constant dense<[[[4.0, 1.0], [-2.0, 0.5]]]> : tensor<1x2x2xf32>
  %b1 = arith.constant dense<[[[1.0, 2.0]]]> : tensor<1x1x2xf32>
  %w2 = arith.constant dense<[[[1.0], [4.0]]]> : tensor<1x2x1xf32>
  // expected-remark @+1 {{equalized with 'tosa.matmul': 2 channels divided by scales in [0.5, 2]}}
  %m = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x1x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2xf32>
  %a = tosa.add %m, %b1 : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  %r = tosa.clamp %a {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  %n = tosa.matmul %r, %w2, %zp, %zp : (tensor<1x1x2xf32>, tensor<1x2x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1xf32>
  return %n : tensor<1x1x1xf32>
}

// -----

// conv -> relu -> global average pool -> reshape -> linear, and a leaky
// relu (PReLU's per-channel slopes) between two convs: both commute with a
// positive scale per channel.
// CHECK-LABEL: func.func @through_pool_and_leaky_relu
// CHECK-DAG: arith.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: arith.constant dense<{{\[\[\[}}2.000000e+00], [1.000000e+00]]]> : tensor<1x2x1xf32>
// CHECK-DAG: arith.constant dense<1.000000e+00> : tensor<1x1x1x2xf32>
func.func @through_pool_and_leaky_relu(%x: tensor<1x4x4x1xf32>) -> (tensor<1x1x1xf32>, tensor<1x4x4x1xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w1 = arith.constant dense<[[[[4.0]]], [[[0.25]]]]> : tensor<2x1x1x1xf32>
  %w2 = arith.constant dense<[[[1.0], [4.0]]]> : tensor<1x2x1xf32>
  // expected-remark @+1 {{equalized with 'tosa.matmul': 2 channels divided by scales in [0.25, 2]}}
  %c = qnt.conv2d %x, %w1 {activation = #qnt<activation relu>} : (tensor<1x4x4x1xf32>, tensor<2x1x1x1xf32>) -> tensor<1x4x4x2xf32>
  %p = tosa.avg_pool2d %c, %zp, %zp {acc_type = f32, kernel = array<i64: 4, 4>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x2xf32>
  %f = tosa.reshape %p, %shape : (tensor<1x1x1x2xf32>, !tosa.shape<3>) -> tensor<1x1x2xf32>
  %m = tosa.matmul %f, %w2, %zp, %zp : (tensor<1x1x2xf32>, tensor<1x2x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1xf32>
  %w3 = arith.constant dense<[[[[2.0]]], [[[0.5]]]]> : tensor<2x1x1x1xf32>
  %w4 = arith.constant dense<[[[[0.5, 2.0]]]]> : tensor<1x1x1x2xf32>
  // expected-remark @+1 {{equalized with 'qnt.conv2d': 2 channels divided by scales in [0.5, 2]}}
  %d = qnt.conv2d %x, %w3 : (tensor<1x4x4x1xf32>, tensor<2x1x1x1xf32>) -> tensor<1x4x4x2xf32>
  %l = qnt.unary leaky_relu %d {alphas = array<f32: 0.25, 0.1>} : tensor<1x4x4x2xf32>
  %e = qnt.conv2d %l, %w4 : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x1xf32>
  return %m, %e : tensor<1x1x1xf32>, tensor<1x4x4x1xf32>
}

// -----

// Pairs left alone, each with a remark saying why; no constant changes.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: arith.constant dense<2.0
func.func @left_alone(%x: tensor<1x4x4x2xf32>, %wx: tensor<2x1x1x2xf32>) -> (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) {
  %w = arith.constant dense<[[[[4.0, 1.0]]], [[[0.25, 1.0]]]]> : tensor<2x1x1x2xf32>
  // expected-remark @+1 {{not equalized with 'qnt.conv2d': its relu6 bound 6 is one per tensor and cannot be rescaled per channel}}
  %a = qnt.conv2d %x, %w {activation = #qnt<activation relu6>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %a2 = qnt.conv2d %a, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  // expected-remark @+1 {{not equalized with 'qnt.conv2d': its residual operand would need rescaling too}}
  %b = qnt.conv2d %x, %w residual(%x) {activation = #qnt<activation relu>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %b2 = qnt.conv2d %b, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  // expected-remark @+1 {{not equalized with 'qnt.conv2d': its output has 2 uses}}
  %c = qnt.conv2d %x, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %c2 = qnt.conv2d %c, %w residual(%c) : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  // expected-remark @+1 {{not equalized with 'qnt.conv2d': the next layer has non-constant weights}}
  %d = qnt.conv2d %x, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %d2 = qnt.conv2d %d, %wx : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  // expected-remark @+1 {{not equalized with 'qnt.conv2d': 'silu' after it is not positive-homogeneous}}
  %e = qnt.conv2d %x, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %e1 = qnt.unary silu %e : tensor<1x4x4x2xf32>
  %e2 = qnt.conv2d %e1, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  // expected-remark @+1 {{not equalized with 'qnt.conv2d': the clamp after it is not a relu: its bounds are one per tensor and cannot be rescaled per channel}}
  %f = qnt.conv2d %x, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %f1 = tosa.clamp %f {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %f2 = qnt.conv2d %f1, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  return %a2, %b2, %c2, %d2, %e2, %f2 : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>
}
