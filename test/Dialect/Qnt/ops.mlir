// RUN: quant-opt %s | FileCheck %s
// Round trip: the printed form parses back to the same IR.
// RUN: quant-opt %s | quant-opt | FileCheck %s
// The generic form and bytecode round-trip too.
// RUN: quant-opt %s --mlir-print-op-generic | quant-opt | FileCheck %s
// RUN: quant-opt %s --emit-bytecode | quant-opt | FileCheck %s

// CHECK-LABEL: func.func @observe_forms
func.func @observe_forms(%x: tensor<1x8x8x4xf32>, %w: tensor<2x3x3x4xf32>) -> (tensor<1x8x8x4xf32>, tensor<2x3x3x4xf32>) {
  // CHECK: qnt.observe %{{.*}} config <kind = min_max> : tensor<1x8x8x4xf32>
  %0 = qnt.observe %x config <kind = min_max> : tensor<1x8x8x4xf32>
  // CHECK: qnt.observe %{{.*}} config <kind = moving_average_min_max, dtype = qint8, qscheme = symmetric, quant_min = -127, quant_max = 127, averaging_constant = 0.05> {name = "act"}
  %1 = qnt.observe %0 config <kind = moving_average_min_max, dtype = qint8, qscheme = symmetric, quant_min = -127, quant_max = 127, averaging_constant = 0.05> {name = "act"} : tensor<1x8x8x4xf32>
  // CHECK: qnt.observe %{{.*}} config <kind = histogram, reduce_range = true, bins = 4, upsample_rate = 16> state <batches = 3, min = [-1.5], max = [2.25], histogram = [1.0, 0.0, 5.0, 2.0], hist_min = -1.5, hist_max = 2.5>
  %2 = qnt.observe %1 config <kind = histogram, reduce_range = true, bins = 4, upsample_rate = 16> state <batches = 3, min = [-1.5], max = [2.25], histogram = [1.0, 0.0, 5.0, 2.0], hist_min = -1.5, hist_max = 2.5> : tensor<1x8x8x4xf32>
  // CHECK: qnt.observe %{{.*}} config <kind = percentile, percentile = 99.9>
  %3 = qnt.observe %2 config <kind = percentile, percentile = 99.9> : tensor<1x8x8x4xf32>
  // CHECK: qnt.observe %{{.*}} config <kind = entropy, bins = 128>
  %4 = qnt.observe %3 config <kind = entropy, bins = 128> : tensor<1x8x8x4xf32>
  // CHECK: qnt.observe %{{.*}} config <kind = mse, eps = 1.0e-06>
  %5 = qnt.observe %4 config <kind = mse, eps = 1.0e-06> : tensor<1x8x8x4xf32>
  // CHECK: qnt.observe %{{.*}} config <kind = per_channel_min_max, dtype = qint8, qscheme = symmetric, ch_axis = 0> state <batches = 1, min = [-0.5, -0.25], max = [0.75, 0.125]> {name = "conv.weight"}
  %6 = qnt.observe %w config <kind = per_channel_min_max, dtype = qint8, qscheme = symmetric, ch_axis = 0> state <batches = 1, min = [-0.5, -0.25], max = [0.75, 0.125]> {name = "conv.weight"} : tensor<2x3x3x4xf32>
  // Negative ch_axis counts from the end (NHWC channels).
  // CHECK: qnt.observe %{{.*}} config <kind = per_channel_moving_average_min_max, ch_axis = -1>
  %7 = qnt.observe %5 config <kind = per_channel_moving_average_min_max, ch_axis = -1> state <batches = 2, min = [0.0, 0.0, 0.0, 0.0], max = [1.0, 2.0, 3.0, 4.0]> : tensor<1x8x8x4xf32>
  return %7, %6 : tensor<1x8x8x4xf32>, tensor<2x3x3x4xf32>
}

// CHECK-LABEL: func.func @fake_quant_forms
func.func @fake_quant_forms(%x: tensor<1x4x4x2xf32>, %w: tensor<2x3x3x2xf32>) -> (tensor<1x4x4x2xf32>, tensor<2x3x3x2xf32>) {
  // CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<u8:f32, 2.500000e-02:128> : tensor<1x4x4x2xf32>
  %0 = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.025:128> : tensor<1x4x4x2xf32>
  // Custom quantized range and the float range the parameters came from.
  // CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<u8<0:127>:f32, 5.000000e-02:10> {range_max = array<f32: 5.850000e+00>, range_min = array<f32: -5.000000e-01>}
  %1 = qnt.fake_quant %0 to !quant.uniform<u8<0:127>:f32, 0.05:10> {range_min = array<f32: -0.5>, range_max = array<f32: 5.85>} : tensor<1x4x4x2xf32>
  // Per-axis (per-channel) symmetric weights.
  // CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<i8<-127:127>:f32:0, {1.000000e-02,2.000000e-02}> {range_max = array<f32: 1.000000e+00, 2.540000e+00>, range_min = array<f32: -1.270000e+00, -2.540000e+00>}
  %2 = qnt.fake_quant %w to !quant.uniform<i8<-127:127>:f32:0, {0.01, 0.02}> {range_min = array<f32: -1.27, -2.54>, range_max = array<f32: 1.0, 2.54>} : tensor<2x3x3x2xf32>
  return %1, %2 : tensor<1x4x4x2xf32>, tensor<2x3x3x2xf32>
}

// CHECK-LABEL: func.func @batch_norm_forms
func.func @batch_norm_forms(%x: tensor<1x4x4x3xf32>, %y: tensor<1x3x4x4xf32>, %p: tensor<3xf32>) -> (tensor<1x4x4x3xf32>, tensor<1x3x4x4xf32>) {
  // CHECK: qnt.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x4x3xf32>, tensor<3xf32>
  %0 = qnt.batch_norm %x, %p, %p, %p, %p : tensor<1x4x4x3xf32>, tensor<3xf32>
  // CHECK: qnt.batch_norm %{{.*}} {axis = 1 : i64, epsilon = 1.000000e-03 : f32} : tensor<1x3x4x4xf32>, tensor<3xf32>
  %1 = qnt.batch_norm %y, %p, %p, %p, %p {axis = 1 : i64, epsilon = 1.0e-3 : f32} : tensor<1x3x4x4xf32>, tensor<3xf32>
  return %0, %1 : tensor<1x4x4x3xf32>, tensor<1x3x4x4xf32>
}

// CHECK-LABEL: func.func @conv2d_forms
func.func @conv2d_forms(
    %x: tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>,
    %xs: tensor<1x8x8x4x!quant.uniform<i8:f32, 0.05:-3>>,
    %w: tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>,
    %wt: tensor<2x1x1x4x!quant.uniform<i8:f32, 0.01>>,
    %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>,
    %wg: tensor<4x3x3x2x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03, 0.04}>>,
    %wd: tensor<4x3x3x1x!quant.uniform<i8<-127:127>:f32:0, {0.01, 0.02, 0.03, 0.04}>>) {
  // Per-channel filter, bias, padding, relu.
  // CHECK: qnt.conv2d %{{.*}}, %{{.*}} bias(%{{.*}}) {activation = #qnt<activation relu>, pad = array<i64: 1, 1, 1, 1>}
  %0 = qnt.conv2d %x, %w bias(%b) {pad = array<i64: 1, 1, 1, 1>, activation = #qnt<activation relu>}
    : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x3x3x4x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>)
    -> tensor<1x8x8x2x!quant.uniform<u8:f32, 0.1>>
  // No bias, per-tensor filter, i8 activations, stride 2 (1x1 kernel).
  // CHECK: qnt.conv2d %{{.*}}, %{{.*}} {strides = array<i64: 2, 2>} : (tensor<1x8x8x4x!quant.uniform<i8:f32, 5.000000e-02:-3>>, tensor<2x1x1x4x!quant.uniform<i8:f32, 1.000000e-02>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 2.000000e-01:5>>
  %1 = qnt.conv2d %xs, %wt {strides = array<i64: 2, 2>}
    : (tensor<1x8x8x4x!quant.uniform<i8:f32, 0.05:-3>>, tensor<2x1x1x4x!quant.uniform<i8:f32, 0.01>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.2:5>>
  // Grouped conv with dilation and relu6.
  // CHECK: qnt.conv2d %{{.*}}, %{{.*}} {activation = #qnt<activation relu6>, dilations = array<i64: 2, 2>, groups = 2 : i64}
  %2 = qnt.conv2d %x, %wg {groups = 2, dilations = array<i64: 2, 2>, activation = #qnt<activation relu6>}
    : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<4x3x3x2x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03, 0.04}>>)
    -> tensor<1x4x4x4x!quant.uniform<u8:f32, 0.1>>
  // Depthwise (groups = channels), asymmetric padding, clamp.
  // CHECK: qnt.conv2d %{{.*}}, %{{.*}} {activation = #qnt<activation clamp>, clamp_max = 4.000000e+00 : f32, clamp_min = -1.000000e+00 : f32, groups = 4 : i64, pad = array<i64: 0, 2, 1, 1>}
  %3 = qnt.conv2d %x, %wd {groups = 4, pad = array<i64: 0, 2, 1, 1>, activation = #qnt<activation clamp>, clamp_min = -1.0 : f32, clamp_max = 4.0 : f32}
    : (tensor<1x8x8x4x!quant.uniform<u8:f32, 0.05:128>>, tensor<4x3x3x1x!quant.uniform<i8<-127:127>:f32:0, {0.01, 0.02, 0.03, 0.04}>>)
    -> tensor<1x8x8x4x!quant.uniform<u8:f32, 0.1:20>>
  return
}

// The float form of conv2d: the fused layer before quantization.
// CHECK-LABEL: func.func @conv2d_float
// CHECK: qnt.conv2d %{{.*}}, %{{.*}} bias(%{{.*}}) residual(%{{.*}}) {activation = #qnt<activation relu>, pad = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x4xf32>, tensor<4x3x3x4xf32>, tensor<4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK: qnt.conv2d %{{.*}}, %{{.*}} {groups = 4 : i64} : (tensor<1x8x8x4xf32>, tensor<4x3x3x1xf32>) -> tensor<1x6x6x4xf32>
func.func @conv2d_float(%x: tensor<1x8x8x4xf32>, %w: tensor<4x3x3x4xf32>, %b: tensor<4xf32>, %wd: tensor<4x3x3x1xf32>) {
  %0 = qnt.conv2d %x, %w bias(%b) residual(%x) {pad = array<i64: 1, 1, 1, 1>, activation = #qnt<activation relu>}
    : (tensor<1x8x8x4xf32>, tensor<4x3x3x4xf32>, tensor<4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %1 = qnt.conv2d %x, %wd {groups = 4} : (tensor<1x8x8x4xf32>, tensor<4x3x3x1xf32>) -> tensor<1x6x6x4xf32>
  return
}

// Quantized conv with a residual and the requantization multipliers.
// CHECK-LABEL: func.func @conv2d_residual
// CHECK: qnt.conv2d %{{.*}}, %{{.*}} bias(%{{.*}}) residual(%{{.*}}) {multiplier = array<f32: 5.000000e-03, 0.00999999977>}
func.func @conv2d_residual(
    %x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>,
    %w: tensor<2x1x1x2x!quant.uniform<i8:f32:0, {0.01, 0.02}>>,
    %b: tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>,
    %r: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.2:-4>>) -> tensor<1x4x4x2x!quant.uniform<u8:f32, 0.1>> {
  %0 = qnt.conv2d %x, %w bias(%b) residual(%r) {multiplier = array<f32: 0.005, 0.01>}
    : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, tensor<2x1x1x2x!quant.uniform<i8:f32:0, {0.01, 0.02}>>, tensor<2x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03}>>, tensor<1x4x4x2x!quant.uniform<i8:f32, 0.2:-4>>)
    -> tensor<1x4x4x2x!quant.uniform<u8:f32, 0.1>>
  return %0 : tensor<1x4x4x2x!quant.uniform<u8:f32, 0.1>>
}

// CHECK-LABEL: func.func @other_quantized_ops
// CHECK: qnt.linear %{{.*}}, %{{.*}} bias(%{{.*}}) {activation = #qnt<activation relu>, multiplier = array<f32: 2.000000e-02, 4.000000e-02, 6.000000e-02>}
// CHECK: qnt.linear %{{.*}}, %{{.*}} : (tensor<1x1x8x!quant.uniform<u8:f32, 5.000000e-02:3>>, tensor<3x8x!quant.uniform<i8:f32, 1.000000e-02>>) -> tensor<1x1x3x!quant.uniform<i8:f32, 2.500000e-02>>
// CHECK: qnt.add %{{.*}}, %{{.*}} {activation = #qnt<activation relu>}
// CHECK: qnt.max_pool2d %{{.*}} {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}
// CHECK: qnt.avg_pool2d %{{.*}} {kernel = array<i64: 4, 4>}
// CHECK: qnt.avg_pool2d %{{.*}} {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>}
// CHECK: qnt.concat %{{.*}}, %{{.*}} {axis = 3 : i64}
// CHECK: qnt.requantize %{{.*}} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 5.000000e-02:128>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 1.000000e-01>>
func.func @other_quantized_ops(
    %v: tensor<2x8x!quant.uniform<u8:f32, 0.05:3>>,
    %v3: tensor<1x1x8x!quant.uniform<u8:f32, 0.05:3>>,
    %fw: tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>,
    %fwt: tensor<3x8x!quant.uniform<i8:f32, 0.01>>,
    %fb: tensor<3x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03, 1.5e-03}>>,
    %x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>,
    %y: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.02:0>>) {
  %0 = qnt.linear %v, %fw bias(%fb) {activation = #qnt<activation relu>, multiplier = array<f32: 0.02, 0.04, 0.06>}
    : (tensor<2x8x!quant.uniform<u8:f32, 0.05:3>>, tensor<3x8x!quant.uniform<i8:f32:0, {0.01, 0.02, 0.03}>>, tensor<3x!quant.uniform<i32:f32:0, {5.0e-04, 1.0e-03, 1.5e-03}>>) -> tensor<2x3x!quant.uniform<u8:f32, 0.025>>
  %1 = qnt.linear %v3, %fwt : (tensor<1x1x8x!quant.uniform<u8:f32, 0.05:3>>, tensor<3x8x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x1x3x!quant.uniform<i8:f32, 0.025>>
  %2 = qnt.add %x, %y {activation = #qnt<activation relu>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, tensor<1x4x4x2x!quant.uniform<u8:f32, 0.02:0>>) -> tensor<1x4x4x2x!quant.uniform<u8:f32, 0.1>>
  %3 = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x2x2x2x!quant.uniform<u8:f32, 0.05:128>>
  %4 = qnt.avg_pool2d %x {kernel = array<i64: 4, 4>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x1x1x2x!quant.uniform<u8:f32, 0.03:7>>
  %5 = qnt.avg_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>
  %6 = qnt.concat %x, %y {axis = 3 : i64} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>, tensor<1x4x4x2x!quant.uniform<u8:f32, 0.02:0>>) -> tensor<1x4x4x4x!quant.uniform<u8:f32, 0.05:128>>
  %7 = qnt.requantize %x : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.1>>
  return
}

// CHECK-LABEL: func.func @pure_intrinsic
// CHECK: qnt.pure_intrinsic "llvm.x86.avx512.vpdpbusd.256"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<8xi32>, vector<32xi8>, vector<32xi8>) -> vector<8xi32>
func.func @pure_intrinsic(%acc: vector<8xi32>, %x: vector<32xi8>, %w: vector<32xi8>) -> vector<8xi32> {
  %0 = qnt.pure_intrinsic "llvm.x86.avx512.vpdpbusd.256"(%acc, %x, %w) : (vector<8xi32>, vector<32xi8>, vector<32xi8>) -> vector<8xi32>
  return %0 : vector<8xi32>
}

// CHECK-LABEL: func.func @unary
// CHECK: qnt.unary hard_sigmoid %{{.*}} {alpha = 0.166666672 : f32, beta = 5.000000e-01 : f32} : tensor<1x4xf32>
// CHECK: qnt.unary silu %{{.*}} : tensor<1x4xf32>
// CHECK: qnt.unary leaky_relu %{{.*}} {alphas = array<f32: 2.500000e-01, 1.000000e-01, 0.000000e+00, -1.000000e+00>} : tensor<1x4xf32>
func.func @unary(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = qnt.unary hard_sigmoid %x {alpha = 0.166666672 : f32, beta = 5.000000e-01 : f32} : tensor<1x4xf32>
  %1 = qnt.unary silu %0 : tensor<1x4xf32>
  %2 = qnt.unary leaky_relu %1 {alphas = array<f32: 0.25, 0.1, 0.0, -1.0>} : tensor<1x4xf32>
  return %2 : tensor<1x4xf32>
}

// CHECK-LABEL: func.func @softmax
// CHECK: qnt.softmax %{{.*}} {axis = 1 : i64} : tensor<2x10xf32>
// CHECK: qnt.softmax %{{.*}} {axis = 0 : i64, log} : tensor<2x10xf32>
func.func @softmax(%x: tensor<2x10xf32>) -> tensor<2x10xf32> {
  %0 = qnt.softmax %x {axis = 1 : i64} : tensor<2x10xf32>
  %1 = qnt.softmax %0 {axis = 0 : i64, log} : tensor<2x10xf32>
  return %1 : tensor<2x10xf32>
}

// CHECK-LABEL: func.func @layer_norm
// CHECK: qnt.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64, epsilon = 9.99999997E-7 : f32} : tensor<2x10xf32>, tensor<10xf32>
func.func @layer_norm(%x: tensor<2x10xf32>, %g: tensor<10xf32>, %b: tensor<10xf32>) -> tensor<2x10xf32> {
  %0 = qnt.layer_norm %x, %g, %b {axis = 1 : i64, epsilon = 1.0e-6 : f32} : tensor<2x10xf32>, tensor<10xf32>
  return %0 : tensor<2x10xf32>
}

// CHECK-LABEL: func.func @group_norm
// CHECK: qnt.group_norm %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 9.99999997E-7 : f32, groups = 2 : i64} : tensor<1x3x3x4xf32>, tensor<4xf32>
func.func @group_norm(%x: tensor<1x3x3x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = qnt.group_norm %x, %g, %b {groups = 2 : i64, epsilon = 1.0e-6 : f32} : tensor<1x3x3x4xf32>, tensor<4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

// CHECK-LABEL: func.func @int8_data_ops
// CHECK: qnt.channel_affine %{{.*}} {activation = #qnt<activation relu6>, multiplier = array<f32: 1.500000e+00, 2.000000e+00>, offset = array<f32: -3.000000e+00, 0.000000e+00>}
// CHECK: qnt.resize_bilinear %{{.*}} {border = array<i64: 1, 1>, offset = array<i64: 0, 0>, scale = array<i64: 2, 1, 2, 1>}
!q = !quant.uniform<u8:f32, 0.05:200>
func.func @int8_data_ops(%x: tensor<1x2x2x2x!q>) -> tensor<1x4x4x2x!q> {
  %0 = qnt.channel_affine %x {multiplier = array<f32: 1.5, 2.0>, offset = array<f32: -3.0, 0.0>, activation = #qnt<activation relu6>} : (tensor<1x2x2x2x!q>) -> tensor<1x2x2x2x!q>
  %1 = qnt.resize_bilinear %0 {scale = array<i64: 2, 1, 2, 1>, offset = array<i64: 0, 0>, border = array<i64: 1, 1>} : (tensor<1x2x2x2x!q>) -> tensor<1x4x4x2x!q>
  return %1 : tensor<1x4x4x2x!q>
}

// CHECK-LABEL: func.func @activation_matmul
// CHECK: qnt.matmul %arg0, %arg1 : (tensor<12x5x8x!quant.uniform<u8:f32, 5.000000e-02:128>>, tensor<12x8x7x!quant.uniform<i8:f32, 4.000000e-02:-3>>) -> tensor<12x5x7x!quant.uniform<u8:f32, 1.000000e-01:140>>
func.func @activation_matmul(%q: tensor<12x5x8x!quant.uniform<u8:f32, 0.05:128>>, %k: tensor<12x8x7x!quant.uniform<i8:f32, 0.04:-3>>) -> tensor<12x5x7x!quant.uniform<u8:f32, 0.1:140>> {
  %0 = qnt.matmul %q, %k : (tensor<12x5x8x!quant.uniform<u8:f32, 0.05:128>>, tensor<12x8x7x!quant.uniform<i8:f32, 0.04:-3>>) -> tensor<12x5x7x!quant.uniform<u8:f32, 0.1:140>>
  return %0 : tensor<12x5x7x!quant.uniform<u8:f32, 0.1:140>>
}
