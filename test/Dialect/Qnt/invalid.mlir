// RUN: quant-opt %s -split-input-file -verify-diagnostics
// One case per verifier message of the qnt dialect.

//===----------------------------------------------------------------------===//
// #qnt.observer
//===----------------------------------------------------------------------===//

func.func @qmin_without_qmax(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{quant_min and quant_max must be given together}}
  %0 = qnt.observe %x config <kind = min_max, quant_min = 0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @qrange_excludes_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{user-specified quantization range must include 0, got [1, 255]}}
  %0 = qnt.observe %x config <kind = min_max, quant_min = 1, quant_max = 255> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @qrange_outside_dtype(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{quantization range should be positive and not exceed the maximum bit range (=256), got [-128, 128]}}
  %0 = qnt.observe %x config <kind = min_max, dtype = qint8, quant_min = -128, quant_max = 128> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @qrange_outside_storage(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{quantization range [-10, 200] does not fit quint8 [0, 255]}}
  %0 = qnt.observe %x config <kind = min_max, quant_min = -10, quant_max = 200> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @qrange_empty(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{qmin must be strictly less than qmax for user-specified quantization range, got [0, 0]}}
  %0 = qnt.observe %x config <kind = min_max, quant_min = 0, quant_max = 0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @per_channel_without_axis(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{observer kind 'per_channel_min_max' requires ch_axis}}
  %0 = qnt.observe %x config <kind = per_channel_min_max> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @axis_on_per_tensor(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{ch_axis does not apply to observer kind 'histogram'}}
  %0 = qnt.observe %x config <kind = histogram, ch_axis = 0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @averaging_on_min_max(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{averaging_constant does not apply to observer kind 'min_max'}}
  %0 = qnt.observe %x config <kind = min_max, averaging_constant = 0.5> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @averaging_out_of_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{averaging_constant must be in [0, 1], got 1.500000}}
  %0 = qnt.observe %x config <kind = moving_average_min_max, averaging_constant = 1.5> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bins_on_min_max(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{bins does not apply to observer kind 'min_max'}}
  %0 = qnt.observe %x config <kind = min_max, bins = 10> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @zero_bins(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{bins must be in [2, 2^20], got 0}}
  %0 = qnt.observe %x config <kind = entropy, bins = 0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @upsample_on_percentile(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{upsample_rate does not apply to observer kind 'percentile'}}
  %0 = qnt.observe %x config <kind = percentile, upsample_rate = 4> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @zero_upsample(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{upsample_rate must be in [1, 2^20], got 0}}
  %0 = qnt.observe %x config <kind = histogram, upsample_rate = 0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @percentile_on_histogram(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{percentile does not apply to observer kind 'histogram'}}
  %0 = qnt.observe %x config <kind = histogram, percentile = 99.0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @percentile_out_of_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{percentile must be in (0, 100], got 100.500000}}
  %0 = qnt.observe %x config <kind = percentile, percentile = 100.5> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @negative_eps(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{eps must be positive and finite, got -1.000000}}
  %0 = qnt.observe %x config <kind = min_max, eps = -1.0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @symmetric_reduced_quint8(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot reduce range for symmetric quantization for quint8}}
  %0 = qnt.observe %x config <kind = min_max, qscheme = symmetric, reduce_range = true> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{expected ::mlir::qnt::ObserverKind to be one of: min_max, moving_average_min_max, histogram, per_channel_min_max, per_channel_moving_average_min_max, percentile, entropy, mse}}
  // expected-error @+1 {{failed to parse Qnt_ObserverConfigAttr parameter 'kind'}}
  %0 = qnt.observe %x config <kind = minmax> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// #qnt.observer_state
//===----------------------------------------------------------------------===//

func.func @zero_batches(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{batches must be positive, got 0}}
  %0 = qnt.observe %x config <kind = min_max> state <batches = 0, min = [0.0], max = [1.0]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @min_max_sizes(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{min and max must have the same non-zero number of values, got 2 and 1}}
  %0 = qnt.observe %x config <kind = min_max> state <batches = 1, min = [0.0, 1.0], max = [1.0]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @min_max_not_finite(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{min/max must be finite, got [0.000000e+00, INF] at channel 0}}
  %0 = qnt.observe %x config <kind = min_max> state <batches = 1, min = [0.0], max = [1.0e39]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @min_above_max(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{min must not exceed max, got [2.000000e+00, 1.000000e+00] at channel 0}}
  %0 = qnt.observe %x config <kind = min_max> state <batches = 1, min = [2.0], max = [1.0]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @histogram_without_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{histogram, hist_min and hist_max must be given together}}
  %0 = qnt.observe %x config <kind = histogram, bins = 2> state <batches = 1, min = [0.0], max = [1.0], histogram = [1.0, 2.0]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @empty_histogram(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{histogram must have at least one bin}}
  %0 = qnt.observe %x config <kind = histogram> state <batches = 1, min = [0.0], max = [1.0], histogram = [], hist_min = 0.0, hist_max = 1.0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @infinite_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{histogram counts must be finite, got INF}}
  %0 = qnt.observe %x config <kind = histogram, bins = 2> state <batches = 1, min = [0.0], max = [1.0], histogram = [1.0e39, 2.0], hist_min = 0.0, hist_max = 1.0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @histogram_range_reversed(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{histogram range [1.000000e+00, 0.000000e+00] is not a finite, ordered range}}
  %0 = qnt.observe %x config <kind = histogram, bins = 2> state <batches = 1, min = [0.0], max = [1.0], histogram = [1.0, 2.0], hist_min = 1.0, hist_max = 0.0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// qnt.observe
//===----------------------------------------------------------------------===//

func.func @observe_int(%x: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'qnt.observe' op operand #0 must be ranked tensor of 32-bit float values}}
  %0 = qnt.observe %x config <kind = min_max> : tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @ch_axis_out_of_range(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'qnt.observe' op ch_axis 2 is out of range for a tensor of rank 2}}
  %0 = qnt.observe %x config <kind = per_channel_min_max, ch_axis = 2> : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @state_channels(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'qnt.observe' op state has 2 min/max values but the observer has 4 channels along ch_axis}}
  %0 = qnt.observe %x config <kind = per_channel_min_max, ch_axis = 1> state <batches = 1, min = [0.0, 0.0], max = [1.0, 1.0]> : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @state_per_tensor(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'qnt.observe' op state has 2 min/max values but the observer has 1 (one per tensor)}}
  %0 = qnt.observe %x config <kind = min_max> state <batches = 1, min = [0.0, 0.0], max = [1.0, 1.0]> : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @histogram_missing(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qnt.observe' op observer kind 'entropy' needs a histogram in its state}}
  %0 = qnt.observe %x config <kind = entropy> state <batches = 1, min = [0.0], max = [1.0]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @histogram_unexpected(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qnt.observe' op observer kind 'min_max' keeps no histogram}}
  %0 = qnt.observe %x config <kind = min_max> state <batches = 1, min = [0.0], max = [1.0], histogram = [1.0], hist_min = 0.0, hist_max = 1.0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @histogram_bins(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qnt.observe' op state histogram has 2 bins but the observer has 3}}
  %0 = qnt.observe %x config <kind = mse, bins = 3> state <batches = 1, min = [0.0], max = [1.0], histogram = [1.0, 1.0], hist_min = 0.0, hist_max = 1.0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// qnt.fake_quant
//===----------------------------------------------------------------------===//

func.func @fake_quant_not_uniform(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qnt.fake_quant' op qtype must be a !quant.uniform type, got '!quant.any<i8:f32>'}}
  %0 = qnt.fake_quant %x to !quant.any<i8:f32> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @fake_quant_zero_point(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qnt.fake_quant' op zero point 1000 of '!quant.uniform<u8:f32, 1.000000e-01:1000>' is outside its storage range [0, 255]}}
  %0 = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.1:1000> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Every qnt op checks the zero points of its operands' and results' types.
func.func @add_zero_point(%x: tensor<4x!quant.uniform<u8:f32, 0.05:128>>, %y: tensor<4x!quant.uniform<i8:f32:0, {0.02:-129, 0.02:0, 0.02:0, 0.02:0}>>) -> tensor<4x!quant.uniform<u8:f32, 0.1>> {
  // expected-error @+1 {{'qnt.add' op zero point -129 of '!quant.uniform<i8:f32:0, {2.000000e-02:-129,2.000000e-02,2.000000e-02,2.000000e-02}>' is outside its storage range [-128, 127]}}
  %0 = qnt.add %x, %y : (tensor<4x!quant.uniform<u8:f32, 0.05:128>>, tensor<4x!quant.uniform<i8:f32:0, {0.02:-129, 0.02:0, 0.02:0, 0.02:0}>>) -> tensor<4x!quant.uniform<u8:f32, 0.1>>
  return %0 : tensor<4x!quant.uniform<u8:f32, 0.1>>
}

// -----

func.func @fake_quant_expressed(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qnt.fake_quant' op expressed type 'f16' of qtype does not match the element type 'f32'}}
  %0 = qnt.fake_quant %x to !quant.uniform<u8:f16, 0.1> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @fake_quant_axis(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qnt.fake_quant' op quantized dimension 1 is out of range for a tensor of rank 1}}
  %0 = qnt.fake_quant %x to !quant.uniform<i8:f32:1, {0.1, 0.2}> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @fake_quant_scales(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qnt.fake_quant' op qtype has 2 scales but dimension 0 has size 4}}
  %0 = qnt.fake_quant %x to !quant.uniform<i8:f32:0, {0.1, 0.2}> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @fake_quant_range_pair(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qnt.fake_quant' op range_min and range_max must be given together}}
  %0 = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.1> {range_min = array<f32: 0.0>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @fake_quant_range_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qnt.fake_quant' op range_min/range_max must have one value per scale (1), got 2 and 2}}
  %0 = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.1> {range_min = array<f32: 0.0, 0.0>, range_max = array<f32: 1.0, 1.0>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @fake_quant_range_order(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qnt.fake_quant' op range_min must not exceed range_max, got [2.000000e+00, 1.000000e+00] at index 0}}
  %0 = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.1> {range_min = array<f32: 2.0>, range_max = array<f32: 1.0>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @fake_quant_bad_scale(%x: tensor<4xf32>) -> tensor<4xf32> {
  // Upstream's quant type verifier rejects a zero scale.
  // expected-error @+1 {{scale 0.000000e+00 out of expressed type range}}
  %0 = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// qnt.batch_norm
//===----------------------------------------------------------------------===//

func.func @bn_axis(%x: tensor<1x4x4x3xf32>, %p: tensor<3xf32>) -> tensor<1x4x4x3xf32> {
  // expected-error @+1 {{'qnt.batch_norm' op axis 4 is out of range for a tensor of rank 4}}
  %0 = qnt.batch_norm %x, %p, %p, %p, %p {axis = 4 : i64} : tensor<1x4x4x3xf32>, tensor<3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @bn_channels(%x: tensor<1x4x4x3xf32>, %p: tensor<4xf32>) -> tensor<1x4x4x3xf32> {
  // expected-error @+1 {{'qnt.batch_norm' op parameters have 4 elements but the input has 3 channels along axis 3}}
  %0 = qnt.batch_norm %x, %p, %p, %p, %p : tensor<1x4x4x3xf32>, tensor<4xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @bn_eps(%x: tensor<1x4x4x3xf32>, %p: tensor<3xf32>) -> tensor<1x4x4x3xf32> {
  // expected-error @+1 {{'qnt.batch_norm' op epsilon must be finite and non-negative, got -1.000000e+00}}
  %0 = qnt.batch_norm %x, %p, %p, %p, %p {epsilon = -1.0 : f32} : tensor<1x4x4x3xf32>, tensor<3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @bn_param_types(%x: tensor<1x4x4x3xf32>, %p: tensor<3xf32>, %q: tensor<4xf32>) -> tensor<1x4x4x3xf32> {
  // expected-error @+1 {{'qnt.batch_norm' op failed to verify that all of {gamma, beta, mean, var} have same type}}
  %0 = "qnt.batch_norm"(%x, %p, %q, %p, %p) : (tensor<1x4x4x3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// qnt.conv2d
//===----------------------------------------------------------------------===//

func.func @conv_input_per_axis(%x: tensor<1x8x8x4x!quant.uniform<u8:f32:3, {0.1, 0.1, 0.1, 0.1}>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op input element type must be a per-tensor !quant.uniform type with 8-bit storage and f32 expressed type}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<1x8x8x4x!quant.uniform<u8:f32:3, {0.1, 0.1, 0.1, 0.1}>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_input_16bit(%x: tensor<1x8x8x4x!quant.uniform<i16:f32, 0.05>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op input element type must be a per-tensor !quant.uniform type with 8-bit storage and f32 expressed type}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<1x8x8x4x!quant.uniform<i16:f32, 0.05>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_result_type(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op result element type must be a per-tensor !quant.uniform type with 8-bit storage and f32 expressed type}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<i32:f32, 0.1>>
  return
}

// -----

func.func @conv_strides(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op strides must be 2 positive values}}
  %0 = qnt.conv2d %x, %w bias(%b) {strides = array<i64: 1, 0>} : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_dilations(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op dilations must be 2 positive values}}
  %0 = qnt.conv2d %x, %w bias(%b) {dilations = array<i64: 1>} : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_pad(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op pad must be 4 non-negative values [top, bottom, left, right]}}
  %0 = qnt.conv2d %x, %w bias(%b) {pad = array<i64: 0, 0, -1, 0>} : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_groups(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op groups must be positive, got 0}}
  %0 = qnt.conv2d %x, %w bias(%b) {groups = 0} : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_filter_u8(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<u8:f32, 0.01>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op filter element type must be a !quant.uniform type with i8 storage and f32 expressed type}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<u8:f32, 0.01>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_filter_axis(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:3, {0.01, 0.02, 0.03, 0.04}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op filter must be quantized per output channel (dimension 0), got dimension 3}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:3, {0.01, 0.02, 0.03, 0.04}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_filter_scales(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op filter has 3 scales but 2 output channels}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_filter_zp(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01:1, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op filter zero points must be 0}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01:1, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x2x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op input has 4 channels but filter input channels (2) * groups (1) = 2}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x2x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_groups_divide(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x1x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op output channels (2) must be divisible by groups (4)}}
  %0 = qnt.conv2d %x, %w bias(%b) {groups = 4} : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x1x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_kernel_too_big(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op dilated kernel (9) is larger than the padded input (8) along height}}
  %0 = qnt.conv2d %x, %w bias(%b) {dilations = array<i64: 4, 1>} : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_result_shape(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op result shape [1, 8, 8, 2] does not match the expected [1, 6, 6, 2]}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x8x8x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_bias_size(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<3x!quant.uniform<i32:f32, 5.0e-04>>) {
  // expected-error @+1 {{'qnt.conv2d' op bias has 3 elements but the filter has 2 output channels}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<3x!quant.uniform<i32:f32, 5.0e-04>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_bias_storage(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i8:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op bias element type must be a !quant.uniform type with i32 storage and f32 expressed type}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i8:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_bias_zp(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04:3, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op bias zero points must be 0}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04:3, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_bias_scale(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 2.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op bias scale 2.000000e-03 at output channel 1 does not equal input scale * filter scale = 1.000000e-03}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 2.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_clamp_bounds(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op activation 'clamp' requires clamp_min and clamp_max}}
  %0 = qnt.conv2d %x, %w bias(%b) {activation = #qnt<activation clamp>, clamp_min = 0.0 : f32} : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_clamp_order(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op clamp_min must not exceed clamp_max}}
  %0 = qnt.conv2d %x, %w bias(%b) {activation = #qnt<activation clamp>, clamp_min = 2.0 : f32, clamp_max = 1.0 : f32} : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_clamp_without_clamp(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op clamp_min/clamp_max apply only to activation 'clamp'}}
  %0 = qnt.conv2d %x, %w bias(%b) {activation = #qnt<activation relu>, clamp_max = 1.0 : f32} : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @conv_rank(%x: tensor<8x8x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) {
  // expected-error @+1 {{'qnt.conv2d' op operand #0 must be 4D tensor of 32-bit float or quantized type values}}
  %0 = qnt.conv2d %x, %w bias(%b)  : (tensor<8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// float conv2d, linear, add, pooling, concat, requantize
//===----------------------------------------------------------------------===//

func.func @conv_float_mixed(%x: tensor<1x4x4x2xf32>, %w: tensor<2x1x1x2x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{'qnt.conv2d' op float form: every operand must be f32 (the input is f32)}}
  %0 = qnt.conv2d %x, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x4x4x2xf32>
  return
}

// -----

func.func @conv_float_result(%x: tensor<1x4x4x2xf32>, %w: tensor<2x1x1x2xf32>) {
  // expected-error @+1 {{'qnt.conv2d' op float form: the result must be f32}}
  %0 = qnt.conv2d %x, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @conv_float_bias(%x: tensor<1x4x4x2xf32>, %w: tensor<2x1x1x2xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'qnt.conv2d' op bias has 3 elements but the filter has 2 output channels}}
  %0 = qnt.conv2d %x, %w bias(%b) : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<3xf32>) -> tensor<1x4x4x2xf32>
  return
}

// -----

func.func @conv_residual_shape(%x: tensor<1x4x4x2xf32>, %w: tensor<2x1x1x2xf32>, %r: tensor<1x2x2x2xf32>) {
  // expected-error @+1 {{'qnt.conv2d' op residual must have the result's shape}}
  %0 = qnt.conv2d %x, %w residual(%r) : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  return
}

// -----

func.func @conv_residual_type(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x1x1x2x!quant.uniform<i8:f32, 0.1>>, %r: tensor<1x4x4x2x!quant.uniform<i16:f32, 0.1>>) {
  // expected-error @+1 {{'qnt.conv2d' op residual element type must be a per-tensor !quant.uniform type with 8-bit storage and f32 expressed type}}
  %0 = qnt.conv2d %x, %w residual(%r) : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x1x1x2x!quant.uniform<i8:f32, 0.1>>, tensor<1x4x4x2x!quant.uniform<i16:f32, 0.1>>) -> tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @conv_multiplier_float(%x: tensor<1x4x4x2xf32>, %w: tensor<2x1x1x2xf32>) {
  // expected-error @+1 {{'qnt.conv2d' op multiplier applies only to the quantized form}}
  %0 = qnt.conv2d %x, %w {multiplier = array<f32: 1.0, 1.0>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  return
}

// -----

func.func @conv_multiplier_count(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x1x1x2x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{'qnt.conv2d' op multiplier has 1 values but there are 2 output channels}}
  %0 = qnt.conv2d %x, %w {multiplier = array<f32: 1.0>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x1x1x2x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @conv_multiplier_value(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<2x1x1x2x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{'qnt.conv2d' op multiplier values must be positive and finite, got 0.000000e+00}}
  %0 = qnt.conv2d %x, %w {multiplier = array<f32: 1.0, 0.0>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x1x1x2x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @linear_input_type(%v: tensor<2x8x!quant.uniform<i16:f32, 0.05>>, %w: tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>) {
  // expected-error @+1 {{'qnt.linear' op input element type must be a per-tensor !quant.uniform type with 8-bit storage and f32 expressed type}}
  %0 = qnt.linear %v, %w : (tensor<2x8x!quant.uniform<i16:f32, 0.05>>, tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>) -> tensor<2x3x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @linear_result_type(%v: tensor<2x8x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>) {
  // expected-error @+1 {{'qnt.linear' op result element type must be a per-tensor !quant.uniform type with 8-bit storage and f32 expressed type}}
  %0 = qnt.linear %v, %w : (tensor<2x8x!quant.uniform<u8:f32, 0.05:128>>, tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>) -> tensor<2x3x!quant.uniform<i32:f32, 0.1>>
  return
}

// -----

func.func @linear_rank(%v: tensor<2x8x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>) {
  // expected-error @+1 {{'qnt.linear' op input and result must have the same rank >= 1}}
  %0 = qnt.linear %v, %w : (tensor<2x8x!quant.uniform<u8:f32, 0.05:128>>, tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>) -> tensor<1x2x3x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @linear_features(%v: tensor<2x4x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>) {
  // expected-error @+1 {{'qnt.linear' op input has 4 features but the weight expects 8}}
  %0 = qnt.linear %v, %w : (tensor<2x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>) -> tensor<2x3x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @linear_result(%v: tensor<2x8x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>) {
  // expected-error @+1 {{'qnt.linear' op result shape must be the input's with the last dimension 3}}
  %0 = qnt.linear %v, %w : (tensor<2x8x!quant.uniform<u8:f32, 0.05:128>>, tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>) -> tensor<2x4x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @linear_weight(%v: tensor<2x8x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<3x8x!quant.uniform<u8:f32, 0.1>>) {
  // expected-error @+1 {{'qnt.linear' op weight element type must be a !quant.uniform type with i8 storage and f32 expressed type}}
  %0 = qnt.linear %v, %w : (tensor<2x8x!quant.uniform<u8:f32, 0.05:128>>, tensor<3x8x!quant.uniform<u8:f32, 0.1>>) -> tensor<2x3x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @linear_bias(%v: tensor<2x8x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>, %b: tensor<3x!quant.uniform<i32:f32, 1.0e-03>>) {
  // expected-error @+1 {{'qnt.linear' op bias scale 1.000000e-03 at output channel 0 does not equal input scale * filter scale = 5.000000e-04}}
  %0 = qnt.linear %v, %w bias(%b) : (tensor<2x8x!quant.uniform<u8:f32, 0.05:128>>, tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>, tensor<3x!quant.uniform<i32:f32, 1.0e-03>>) -> tensor<2x3x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @linear_clamp(%v: tensor<2x8x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>) {
  // expected-error @+1 {{'qnt.linear' op activation 'clamp' requires clamp_min and clamp_max}}
  %0 = qnt.linear %v, %w {activation = #qnt<activation clamp>} : (tensor<2x8x!quant.uniform<u8:f32, 0.05:128>>, tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>) -> tensor<2x3x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @add_types(%a: tensor<4x!quant.uniform<u8:f32, 0.05:128>>, %b: tensor<4x!quant.uniform<i8:f32:0, {0.1, 0.1, 0.1, 0.1}>>) {
  // expected-error @+1 {{'qnt.add' op operands and result must have per-tensor !quant.uniform types with 8-bit storage and f32 expressed type}}
  %0 = qnt.add %a, %b : (tensor<4x!quant.uniform<u8:f32, 0.05:128>>, tensor<4x!quant.uniform<i8:f32:0, {0.1, 0.1, 0.1, 0.1}>>) -> tensor<4x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @add_shapes(%a: tensor<4x!quant.uniform<u8:f32, 0.05:128>>, %b: tensor<2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.add' op operand of shape 'tensor<2x!quant.uniform<u8:f32, 5.000000e-02:128>>' does not broadcast to the result: each dimension must be the result's or 1}}
  %0 = qnt.add %a, %b : (tensor<4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<4x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @add_activation(%a: tensor<4x!quant.uniform<u8:f32, 0.05:128>>, %b: tensor<4x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.add' op supports activation none or relu}}
  %0 = qnt.add %a, %b {activation = #qnt<activation relu6>} : (tensor<4x!quant.uniform<u8:f32, 0.05:128>>, tensor<4x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<4x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @mul_rank(%a: tensor<2x4x!quant.uniform<u8:f32, 0.05:128>>, %b: tensor<4x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.mul' op operand of shape 'tensor<4x!quant.uniform<u8:f32, 5.000000e-02:128>>' does not broadcast to the result}}
  %0 = qnt.mul %a, %b : (tensor<2x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<4x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<2x4x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @sub_activation(%a: tensor<4x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.sub' op supports activation none or relu}}
  %0 = qnt.sub %a, %a {activation = #qnt<activation relu6>} : (tensor<4x!quant.uniform<u8:f32, 0.05:128>>, tensor<4x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<4x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @lookup_table_size(%x: tensor<2x3x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.lookup' op table must have 256 entries (one table) or 256 per channel of the last dimension, got 3}}
  %0 = qnt.lookup %x {table = array<i32: 1, 2, 3>} : (tensor<2x3x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<2x3x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @lookup_entry(%x: tensor<2x3x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.lookup' op table entry 300 is outside the result's storage range [0, 255]}}
  %0 = qnt.lookup %x {table = array<i32: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 300>} : (tensor<2x3x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<2x3x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @lookup_shape(%x: tensor<2x3x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.lookup' op input and result must have the same shape}}
  %0 = qnt.lookup %x {table = array<i32: 1, 2, 3>} : (tensor<2x3x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<3x2x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @max_pool_type(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.max_pool2d' op result must have the input's quantized type}}
  %0 = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x2x2x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @pool_kernel(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.max_pool2d' op kernel must be 2 positive values}}
  %0 = qnt.max_pool2d %x {kernel = array<i64: 2>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x3x3x2x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @pool_strides(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.avg_pool2d' op strides must be 2 positive values}}
  %0 = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 0, 1>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x3x3x2x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @pool_pad(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.avg_pool2d' op pad must be 4 non-negative values [top, bottom, left, right]}}
  %0 = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 1, 1>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x3x3x2x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @pool_pad_kernel(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.avg_pool2d' op padding must be smaller than the kernel}}
  %0 = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 2, 0, 0, 0>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x5x3x2x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @pool_too_big(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.avg_pool2d' op kernel is larger than the padded input}}
  %0 = qnt.avg_pool2d %x {kernel = array<i64: 5, 5>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x1x1x2x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @pool_result(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.max_pool2d' op result width is 3, expected 2}}
  %0 = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x2x3x2x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @pool_channels(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.avg_pool2d' op batch and channels of input and result must agree}}
  %0 = qnt.avg_pool2d %x {kernel = array<i64: 4, 4>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x1x1x3x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @pool_types(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.avg_pool2d' op operands and result must have per-tensor !quant.uniform types with 8-bit storage and f32 expressed type}}
  %0 = qnt.avg_pool2d %x {kernel = array<i64: 4, 4>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x1x1x2x!quant.uniform<i32:f32, 0.1>>
  return
}

// -----

func.func @concat_axis(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.concat' op axis 4 is out of range for rank 4}}
  %0 = qnt.concat %x, %x {axis = 4 : i64} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x4x4x4x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @concat_rank(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, %y: tensor<4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.concat' op inputs must have the result's rank}}
  %0 = qnt.concat %x, %y {axis = 3 : i64} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, tensor<4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x4x4x4x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @concat_shape(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, %y: tensor<1x4x2x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.concat' op inputs must match the result outside the concatenation axis}}
  %0 = qnt.concat %x, %y {axis = 3 : i64} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, tensor<1x4x2x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x4x4x4x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @concat_total(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.concat' op result has 5 elements along the axis, the inputs 4}}
  %0 = qnt.concat %x, %x {axis = 3 : i64} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x4x4x5x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @concat_empty() {
  // expected-error @+1 {{'qnt.concat' op needs at least one input}}
  %0 = qnt.concat {axis = 0 : i64} : () -> tensor<1x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @requantize_shape(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.requantize' op input and result must have the same shape}}
  %0 = qnt.requantize %x : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x4x4x1x!quant.uniform<u8:f32, 0.05:128>>
  return
}

// -----

func.func @requantize_type(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.requantize' op operands and result must have per-tensor !quant.uniform types with 8-bit storage and f32 expressed type}}
  %0 = qnt.requantize %x : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x4x4x2x!quant.uniform<i16:f32, 0.1>>
  return
}

// -----

func.func @pure_intrinsic_name(%a: vector<8xi32>) -> vector<8xi32> {
  // expected-error @+1 {{'qnt.pure_intrinsic' op intrinsic name must start with 'llvm.', got 'x86.vpdpbusd'}}
  %0 = qnt.pure_intrinsic "x86.vpdpbusd"(%a) : (vector<8xi32>) -> vector<8xi32>
  return %0 : vector<8xi32>
}

// -----

func.func @unary_alpha(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'qnt.unary' op 'sigmoid' takes no alpha}}
  %0 = qnt.unary sigmoid %x {alpha = 0.5 : f32} : tensor<1x4xf32>
  return
}

// -----

func.func @unary_beta(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'qnt.unary' op 'leaky_relu' takes no beta}}
  %0 = qnt.unary leaky_relu %x {beta = 0.5 : f32} : tensor<1x4xf32>
  return
}

// -----

func.func @unary_finite(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'qnt.unary' op alpha and beta must be finite}}
  %0 = qnt.unary elu %x {alpha = 0x7F800000 : f32} : tensor<1x4xf32>
  return
}

// -----

func.func @softmax_axis(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'qnt.softmax' op axis 2 outside [0, 2)}}
  %0 = qnt.softmax %x {axis = 2 : i64} : tensor<1x4xf32>
  return
}

// -----

// A negative axis (ONNX's -1 is normalized by the importer) prints as such.
func.func @softmax_negative_axis(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'qnt.softmax' op axis -1 outside [0, 2)}}
  %0 = qnt.softmax %x {axis = -1 : i64} : tensor<1x4xf32>
  return
}

// -----

func.func @alphas_fn(%x: tensor<1x2xf32>) {
  // expected-error @+1 {{'qnt.unary' op alphas (one per channel) are for leaky_relu without alpha}}
  %0 = qnt.unary elu %x {alphas = array<f32: 1.0, 2.0>} : tensor<1x2xf32>
  return
}

// -----

func.func @alphas_count(%x: tensor<1x2xf32>) {
  // expected-error @+1 {{'qnt.unary' op expected 2 alphas (the last dimension), got 3}}
  %0 = qnt.unary leaky_relu %x {alphas = array<f32: 1.0, 2.0, 3.0>} : tensor<1x2xf32>
  return
}

// -----

func.func @alphas_finite(%x: tensor<1x2xf32>) {
  // expected-error @+1 {{'qnt.unary' op alphas must be finite}}
  %0 = qnt.unary leaky_relu %x {alphas = array<f32: 1.0, 0x7FC00000>} : tensor<1x2xf32>
  return
}

// -----

!q = !quant.uniform<u8:f32, 0.05:200>
func.func @bilinear_type(%x: tensor<1x2x2x1x!q>) {
  // expected-error @+1 {{'qnt.resize_bilinear' op result must keep the input's quantized type}}
  %0 = qnt.resize_bilinear %x {scale = array<i64: 2, 1, 2, 1>, offset = array<i64: 0, 0>, border = array<i64: 1, 1>} : (tensor<1x2x2x1x!q>) -> tensor<1x4x4x1x!quant.uniform<u8:f32, 0.1:200>>
  return
}

// -----

!q = !quant.uniform<u8:f32, 0.05:200>
func.func @bilinear_shape(%x: tensor<1x2x2x1x!q>) {
  // expected-error @+1 {{'qnt.resize_bilinear' op result shape must be [1, 4, 4, 1]}}
  %0 = qnt.resize_bilinear %x {scale = array<i64: 2, 1, 2, 1>, offset = array<i64: 0, 0>, border = array<i64: 1, 1>} : (tensor<1x2x2x1x!q>) -> tensor<1x3x4x1x!q>
  return
}

// -----

!q = !quant.uniform<u8:f32, 0.05:200>
func.func @bilinear_scale(%x: tensor<1x2x2x1x!q>) {
  // expected-error @+1 {{'qnt.resize_bilinear' op resize: scale, offset or border out of range}}
  %0 = qnt.resize_bilinear %x {scale = array<i64: 0, 1, 2, 1>, offset = array<i64: 0, 0>, border = array<i64: 1, 1>} : (tensor<1x2x2x1x!q>) -> tensor<1x4x4x1x!q>
  return
}

// -----

!q = !quant.uniform<u8:f32, 0.05:200>
func.func @channel_affine_count(%x: tensor<1x2x!q>) {
  // expected-error @+1 {{'qnt.channel_affine' op expected 2 multipliers and offsets (the last dimension)}}
  %0 = qnt.channel_affine %x {multiplier = array<f32: 1.0>, offset = array<f32: 0.0, 1.0>} : (tensor<1x2x!q>) -> tensor<1x2x!q>
  return
}

// -----

!q = !quant.uniform<u8:f32, 0.05:200>
func.func @channel_affine_finite(%x: tensor<1x2x!q>) {
  // expected-error @+1 {{'qnt.channel_affine' op multipliers and offsets must be finite}}
  %0 = qnt.channel_affine %x {multiplier = array<f32: 1.0, 0x7F800000>, offset = array<f32: 0.0, 1.0>} : (tensor<1x2x!q>) -> tensor<1x2x!q>
  return
}

// -----

!q = !quant.uniform<u8:f32, 0.05:200>
func.func @bilinear_dynamic(%x: tensor<1x?x2x1x!q>) {
  // expected-error @+1 {{'qnt.resize_bilinear' op needs static shapes}}
  %0 = qnt.resize_bilinear %x {scale = array<i64: 2, 1, 2, 1>, offset = array<i64: 0, 0>, border = array<i64: 1, 1>} : (tensor<1x?x2x1x!q>) -> tensor<1x4x4x1x!q>
  return
}

// -----

// Sizes, pads and groups that overflow int64 are refused, not computed.
func.func @conv_groups_overflow(%x: tensor<1x8x8x4xf32>, %w: tensor<4x3x3x2xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{'qnt.conv2d' op input has 4 channels but filter input channels (2) * groups (4611686018427387906) = overflow}}
  %0 = qnt.conv2d %x, %w {groups = 4611686018427387906} : (tensor<1x8x8x4xf32>, tensor<4x3x3x2xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv_pad_overflow(%x: tensor<1x8x8x4xf32>, %w: tensor<4x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{'qnt.conv2d' op padded input or dilated kernel size overflows along height}}
  %0 = qnt.conv2d %x, %w {pad = array<i64: 9223372036854775807, 1, 0, 0>} : (tensor<1x8x8x4xf32>, tensor<4x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv_dilation_overflow(%x: tensor<1x8x8x4xf32>, %w: tensor<4x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{'qnt.conv2d' op padded input or dilated kernel size overflows along width}}
  %0 = qnt.conv2d %x, %w {dilations = array<i64: 1, 4611686018427387904>} : (tensor<1x8x8x4xf32>, tensor<4x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @pool_pad_overflow(%x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.1>>) -> tensor<1x4x4x4x!quant.uniform<u8:f32, 0.1>> {
  // expected-error @+1 {{'qnt.max_pool2d' op padded input size overflows}}
  %0 = qnt.max_pool2d %x {kernel = array<i64: 2, 9223372036854775807>, strides = array<i64: 2, 2>, pad = array<i64: 0, 0, 9223372036854775806, 9223372036854775806>} : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.1>>) -> tensor<1x4x4x4x!quant.uniform<u8:f32, 0.1>>
  return %0 : tensor<1x4x4x4x!quant.uniform<u8:f32, 0.1>>
}

// -----

func.func @layer_norm_axis(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'qnt.layer_norm' op axis 2 outside [0, 2)}}
  %0 = qnt.layer_norm %x, %g, %g {axis = 2 : i64} : tensor<2x4xf32>, tensor<4xf32>
  return
}

// -----

func.func @layer_norm_gamma(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'qnt.layer_norm' op gamma and beta must have the shape of the normalized dimensions [axis, rank)}}
  %0 = qnt.layer_norm %x, %g, %g {axis = 0 : i64} : tensor<2x4xf32>, tensor<4xf32>
  return
}

// -----

func.func @layer_norm_epsilon(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'qnt.layer_norm' op epsilon must be finite and >= 0}}
  %0 = qnt.layer_norm %x, %g, %g {axis = 1 : i64, epsilon = -1.0 : f32} : tensor<2x4xf32>, tensor<4xf32>
  return
}

// -----

func.func @group_norm_rank(%x: tensor<4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'qnt.group_norm' op input must be [N, ..., C] (rank >= 2)}}
  %0 = qnt.group_norm %x, %g, %g {groups = 2 : i64} : tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @group_norm_groups(%x: tensor<1x3x6xf32>, %g: tensor<6xf32>) {
  // expected-error @+1 {{'qnt.group_norm' op groups 4 must be positive and divide the 6 channels}}
  %0 = qnt.group_norm %x, %g, %g {groups = 4 : i64} : tensor<1x3x6xf32>, tensor<6xf32>
  return
}

// -----

func.func @group_norm_gamma(%x: tensor<1x3x6xf32>, %g: tensor<3xf32>) {
  // expected-error @+1 {{'qnt.group_norm' op gamma and beta must have shape [6] (one per channel)}}
  %0 = qnt.group_norm %x, %g, %g {groups = 3 : i64} : tensor<1x3x6xf32>, tensor<3xf32>
  return
}

// -----

func.func @group_norm_epsilon(%x: tensor<1x3x6xf32>, %g: tensor<6xf32>) {
  // expected-error @+1 {{'qnt.group_norm' op epsilon must be finite and >= 0}}
  %0 = qnt.group_norm %x, %g, %g {groups = 3 : i64, epsilon = -1.0 : f32} : tensor<1x3x6xf32>, tensor<6xf32>
  return
}

// -----

func.func @celu_alpha(%x: tensor<4xf32>) {
  // expected-error @+1 {{'qnt.unary' op celu's alpha must not be 0}}
  %0 = qnt.unary celu %x {alpha = 0.0 : f32} : tensor<4xf32>
  return
}

// -----

func.func @matmul_shapes(%a: tensor<2x3x4x!quant.uniform<u8:f32, 0.05:128>>, %b: tensor<2x5x6x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.matmul' op expects [B, M, K] x [B, K, N] -> [B, M, N], got}}
  %0 = qnt.matmul %a, %b : (tensor<2x3x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x5x6x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<2x3x6x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x3x4x!quant.uniform<u8:f32, 0.05:128>>, %b: tensor<3x4x6x!quant.uniform<u8:f32, 0.05:128>>) {
  // expected-error @+1 {{'qnt.matmul' op expects [B, M, K] x [B, K, N] -> [B, M, N], got}}
  %0 = qnt.matmul %a, %b : (tensor<2x3x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<3x4x6x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<2x3x6x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

func.func @matmul_per_channel(%a: tensor<1x3x2x!quant.uniform<u8:f32, 0.05:128>>, %b: tensor<1x2x2x!quant.uniform<i8:f32:2, {0.1, 0.2}>>) {
  // expected-error @+1 {{'qnt.matmul' op operands and result must have per-tensor !quant.uniform types with 8-bit storage and f32 expressed type}}
  %0 = qnt.matmul %a, %b : (tensor<1x3x2x!quant.uniform<u8:f32, 0.05:128>>, tensor<1x2x2x!quant.uniform<i8:f32:2, {0.1, 0.2}>>) -> tensor<1x3x2x!quant.uniform<u8:f32, 0.1>>
  return
}

// -----

// 40000 products of up to 255 x 255 overflow int32.
func.func @matmul_overflow(%a: tensor<1x1x40000x!quant.uniform<u8:f32, 0.05>>, %b: tensor<1x40000x1x!quant.uniform<u8:f32, 0.05>>) {
  // expected-error @+1 {{'qnt.matmul' op the int32 accumulator could overflow: K = 40000 products of 8-bit values}}
  %0 = qnt.matmul %a, %b : (tensor<1x1x40000x!quant.uniform<u8:f32, 0.05>>, tensor<1x40000x1x!quant.uniform<u8:f32, 0.05>>) -> tensor<1x1x1x!quant.uniform<u8:f32, 0.1>>
  return
}
