// RUN: quant-opt %s -split-input-file -qnt-fold-observers -verify-diagnostics | FileCheck %s
// RUN: quant-opt %s -split-input-file -qnt-fold-observers=reduce-range=activations -verify-diagnostics | FileCheck %s --check-prefix=REDUCE
// RUN: quant-opt %s -split-input-file -qnt-fold-observers=reduce-range=weights -verify-diagnostics | FileCheck %s --check-prefix=WEIGHTS
// Expected scales / zero points are PyTorch 1.13's calculate_qparams for the
// same observer and range (torch.ao.quantization.observer), as float32.

// MinMaxObserver(quint8), range [-1, 3]: scale 0.01568627543747425, zp 64.
// CHECK-LABEL: func.func @min_max_quint8
// CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<u8:f32, 0.015686275437474251:64> {name = "act", range_max = array<f32: 3.000000e+00>, range_min = array<f32: -1.000000e+00>}
func.func @min_max_quint8(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = qnt.observe %x config <kind = min_max> state <batches = 1, min = [-1.0], max = [3.0]> {name = "act"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// MinMaxObserver(qint8, per_tensor_symmetric), range [-0.5, 2]: 0.01568627543747425, zp 0.
// CHECK-LABEL: func.func @min_max_qint8_symmetric
// CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<i8:f32, 0.015686275437474251>
func.func @min_max_qint8_symmetric(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = qnt.observe %x config <kind = moving_average_min_max, dtype = qint8, qscheme = symmetric> state <batches = 3, min = [-0.5], max = [2.0]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// reduce_range: 7-bit storage range [0, 127]; range [0, 6]: 0.04724409431219101, zp 0.
// CHECK-LABEL: func.func @reduce_range
// CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<u8<0:127>:f32, 0.04724409431219101>
func.func @reduce_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = qnt.observe %x config <kind = min_max, reduce_range = true> state <batches = 1, min = [0.0], max = [6.0]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Custom 4-bit range quant_min = 0, quant_max = 15, range [-0.3, 1.2]: 0.10000000149011612, zp 3.
// CHECK-LABEL: func.func @custom_range
// CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<u8<0:15>:f32, 0.10000000149011612:3>
func.func @custom_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = qnt.observe %x config <kind = min_max, quant_min = 0, quant_max = 15> state <batches = 1, min = [-0.3], max = [1.2]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// PerChannelMinMaxObserver(ch_axis=0, qint8, per_channel_symmetric):
// scales [0.007843137718737125, 0.0058823530562222], zero points 0.
// CHECK-LABEL: func.func @per_channel
// CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<i8:f32:0, {0.0078431377187371254,0.0058823530562222004}> {range_max = array<f32: 5.000000e-01, 7.500000e-01>, range_min = array<f32: -1.000000e+00, -2.500000e-01>}
func.func @per_channel(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = qnt.observe %x config <kind = per_channel_min_max, dtype = qint8, qscheme = symmetric, ch_axis = 0> state <batches = 1, min = [-1.0, -0.25], max = [0.5, 0.75]> : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A weight needs no calibration data: the constant is observed by the pass.
// Per channel over rows [1, -2] and [0.5, 0.25]: [0.01568627543747425, 0.003921568859368563].
// CHECK-LABEL: func.func @constant_weight
// CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<i8:f32:0, {0.015686275437474251,0.0039215688593685627}> {name = "fc.weight", range_max = array<f32: 1.000000e+00, 5.000000e-01>, range_min = array<f32: -2.000000e+00, 2.500000e-01>}
func.func @constant_weight() -> tensor<2x2xf32> {
  %w = arith.constant dense<[[1.0, -2.0], [0.5, 0.25]]> : tensor<2x2xf32>
  %0 = qnt.observe %w config <kind = per_channel_min_max, dtype = qint8, qscheme = symmetric, ch_axis = 0> {name = "fc.weight"} : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// HistogramObserver(bins=16, upsample_rate=4) after torch.randn(200) * 2 + 0.5
// (seed 0): PyTorch's L2 search gives scale 0.041339974850416183, zp 114.
// CHECK-LABEL: func.func @histogram
// The searched range, not the histogram's, produced the scale.
// CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<u8:f32, 0.041339974850416183:114> {range_max = array<f32: 5.81504869>, range_min = array<f32: -4.72664499>}
func.func @histogram(%x: tensor<200xf32>) -> tensor<200xf32> {
  %0 = qnt.observe %x config <kind = histogram, bins = 16, upsample_rate = 4> state <batches = 1, min = [-4.726644992828369], max = [7.321005344390869], histogram = [2.0, 7.0, 12.0, 15.0, 16.0, 32.0, 28.0, 32.0, 21.0, 16.0, 6.0, 5.0, 2.0, 2.0, 1.0, 0.0], hist_min = -4.726644992828369, hist_max = 7.321005344390869> : tensor<200xf32>
  return %0 : tensor<200xf32>
}

// -----

func.func @not_calibrated(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'qnt.observe' op observer 'relu1' has no calibrated state: calibrate the model first}}
  %0 = qnt.observe %x config <kind = histogram> {name = "relu1"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// reduce-range (the choice quant-compile makes at folding for an object
// with avx2 kernels). activations: activation observers fold to 7 bits
// whatever their config says; constants (weights) keep theirs; a config
// that cannot be reduced (symmetric quint8) keeps its range. weights (the
// default of quant-compile): the other way round.
// Without the option: MinMaxObserver(quint8), range [-1, 3]: 0.0157, zp 64.
// With it: MinMaxObserver(quint8, reduce_range=True): 0.031496062874794006,
// zp 32 (PyTorch 1.13's calculate_qparams). The weight, symmetric qint8
// over [-1, 2] with reduce_range=True: [-64, 63], 2 / 63.5 =
// 0.031496062874794006, zp 0.
// CHECK-LABEL: func.func @reduce_at_fold
// CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<u8:f32, 0.015686275437474251:64> {name = "act"
// CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<i8:f32, 0.015686275437474251> {name = "w"
// CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<u8:f32, 0.015686275437474251:128> {name = "sym"
// REDUCE-LABEL: func.func @reduce_at_fold
// REDUCE: qnt.fake_quant %{{.*}} to !quant.uniform<u8<0:127>:f32, 0.031496062874794006:32> {name = "act"
// REDUCE: qnt.fake_quant %{{.*}} to !quant.uniform<i8:f32, 0.015686275437474251> {name = "w"
// REDUCE: qnt.fake_quant %{{.*}} to !quant.uniform<u8:f32, 0.015686275437474251:128> {name = "sym"
// WEIGHTS-LABEL: func.func @reduce_at_fold
// WEIGHTS: qnt.fake_quant %{{.*}} to !quant.uniform<u8:f32, 0.015686275437474251:64> {name = "act"
// WEIGHTS: qnt.fake_quant %{{.*}} to !quant.uniform<i8<-64:63>:f32, 0.031496062874794006> {name = "w"
// WEIGHTS: qnt.fake_quant %{{.*}} to !quant.uniform<u8:f32, 0.015686275437474251:128> {name = "sym"
func.func @reduce_at_fold(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense<[-1.0, 0.5, 2.0, 1.0]> : tensor<4xf32>
  %0 = qnt.observe %x config <kind = min_max> state <batches = 1, min = [-1.0], max = [3.0]> {name = "act"} : tensor<4xf32>
  %1 = qnt.observe %w config <kind = min_max, dtype = qint8, qscheme = symmetric> {name = "w"} : tensor<4xf32>
  %2 = qnt.observe %x config <kind = min_max, qscheme = symmetric> state <batches = 1, min = [0.0], max = [2.0]> {name = "sym"} : tensor<4xf32>
  %3 = arith.addf %0, %1 : tensor<4xf32>
  %4 = arith.addf %3, %2 : tensor<4xf32>
  return %4 : tensor<4xf32>
}
