// RUN: quant-opt %s -split-input-file -qnt-quantize -verify-diagnostics | FileCheck %s
//
// qnt-quantize raises the weight scale of a channel whose int32 accumulator
// cannot hold its bias (dialects/Qnt/IR/WeightScaleForBias.cpp): to
//   s' = (|bias| / input_scale + max|x - zp| * sum |w|)
//        / (INT32_MAX - max|x - zp| * K / 2 - 1)
// in float32, the smallest scale at which |bias_q| + max|x - zp| * sum
// |w_q| <= INT32_MAX whatever the rounding.

// Per-channel weights. Input scale 2^-7, zero point 128 (max|x - zp| =
// 128). Channel 0 is dead (weights +-1e-20, scale 2^-23 from the
// observer's eps): its bias 2.54 needs 2.54 / 2^-30 = 2.73e9 steps. s' =
// (2.54 / 2^-7 + 128 * 2e-20) / (2147483647 - 128 * 2 / 2 - 1)
// = 1.5139581e-07 (float32); the bias is then round(2.54 / (2^-7 * s')) =
// 2147483446 and the weights 0. Channel 1 fits and keeps its scale 2^-8:
// bias 0.1 / 2^-15 = 3277 (3276.8), weights 0.5 -> 127 (clamped), -0.25 ->
// -64.
// CHECK-LABEL: func.func @dead_channel
// CHECK-DAG: arith.constant dense<{{\[\[\[\[}}0, 0]]], {{\[\[\[}}127, -64]]]]> : tensor<2x1x1x2xi8>
// CHECK-DAG: arith.constant dense<[2147483446, 3277]> : tensor<2xi32>
// CHECK-DAG: tensor<2x1x1x2x!quant.uniform<i8:f32:0, {1.5139580966661015E-7,3.906250e-03}>>
// CHECK: qnt.conv2d
func.func @dead_channel(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<[[[[1.0e-20, -1.0e-20]]], [[[0.5, -0.25]]]]> : tensor<2x1x1x2xf32>
  %b = arith.constant dense<[2.54, 0.1]> : tensor<2xf32>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.0078125:128> {range_min = array<f32: -1.0>, range_max = array<f32: 1.0>} : tensor<1x4x4x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:0, {1.1920928955078125E-7, 0.00390625}> {range_min = array<f32: -1.0e-20, -0.25>, range_max = array<f32: 1.0e-20, 0.5>} : tensor<2x1x1x2xf32>
  // expected-warning @unknown {{layer 'dead' (qnt.conv2d): the int32 accumulator cannot hold the bias: weight scale raised (weights requantized) for output channel 0 (bias 2.540000e+00 at input_scale * weight_scale = 9.313226e-10): 1.192093e-07 -> 1.513958e-07}}
  %c = qnt.conv2d %xq, %wq bias(%b) : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32> loc("dead")
  %cq = qnt.fake_quant %c to !quant.uniform<u8:f32, 0.1> : tensor<1x4x4x2xf32>
  return %cq : tensor<1x4x4x2xf32>
}

// -----

// A linear layer with per-tensor weights (scale 0.01) reading a zero-range
// activation (scale 2^-23, zero point 0: max|x - zp| = 255) through a
// reshape. Output 1's bias -3 needs 2.5e9 steps; the tensor's scale rises
// to s' = (3 / 2^-23 + 255 * 0.3) / (2147483647 - 255 - 1) = 0.011718787
// and every column is requantized with it: biases round(0.5 / (2^-23 *
// s')) = 357912804, -2147476821 and 0; weights 0.2 -> 17, -0.1 -> -9,
// 0.5 -> 43, 0.25 -> 21.
// CHECK-LABEL: func.func @zero_range_input
// CHECK-DAG: arith.constant dense<{{\[\[}}17, -9], [17, -9], [43, 21]]> : tensor<3x2xi8>
// CHECK-DAG: arith.constant dense<[357912804, -2147476821, 0]> : tensor<3xi32>
// CHECK-DAG: tensor<3x2x!quant.uniform<i8:f32, 0.011718787252902985>>
// CHECK: qnt.linear
func.func @zero_range_input(%x: tensor<1x2x2xf32>) -> tensor<1x2x3xf32> {
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 1.1920928955078125E-7> {range_min = array<f32: 0.0>, range_max = array<f32: 0.0>} : tensor<1x2x2xf32>
  %s = tosa.const_shape {values = dense<[1, 2, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %xq, %s : (tensor<1x2x2xf32>, !tosa.shape<3>) -> tensor<1x2x2xf32>
  %w = arith.constant dense<[[[0.2, 0.2, 0.5], [-0.1, -0.1, 0.25]]]> : tensor<1x2x3xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32, 0.01> {range_min = array<f32: -0.1>, range_max = array<f32: 0.5>} : tensor<1x2x3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-warning @unknown {{layer 'fc' (tosa.matmul): the int32 accumulator cannot hold the bias: per-tensor weight scale raised (weights requantized) for output channel 1 (bias -3.000000e+00 at input_scale * weight_scale = 1.192093e-09): 1.000000e-02 -> 1.171879e-02}}
  %m = tosa.matmul %r, %wq, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3xf32> loc("fc")
  %b = arith.constant dense<[[[0.5, -3.0, 0.0]]]> : tensor<1x1x3xf32>
  %y = tosa.add %m, %b : (tensor<1x2x3xf32>, tensor<1x1x3xf32>) -> tensor<1x2x3xf32>
  %yq = qnt.fake_quant %y to !quant.uniform<u8:f32, 0.05:128> : tensor<1x2x3xf32>
  return %yq : tensor<1x2x3xf32>
}

// -----

// The parameters of a QDQ model (no observed range) are the model's: the
// bias that does not fit is an error, as before.
func.func @given_parameters(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<1.0e-20> : tensor<2x1x1x2xf32>
  %b = arith.constant dense<[2.54, 0.0]> : tensor<2xf32>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.0078125:128> : tensor<1x4x4x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:0, {1.1920928955078125E-7, 1.1920928955078125E-7}> : tensor<2x1x1x2xf32>
  // expected-error @unknown {{layer 'given' (qnt.conv2d): bias 2.540000e+00 of output channel 0 does not fit int32 at scale input_scale * filter_scale = 9.313226e-10}}
  %c = qnt.conv2d %xq, %wq bias(%b) : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32> loc("given")
  %cq = qnt.fake_quant %c to !quant.uniform<u8:f32, 0.1> : tensor<1x4x4x2xf32>
  return %cq : tensor<1x4x4x2xf32>
}
