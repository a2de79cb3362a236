// RUN: quant-opt %s -split-input-file -qnt-quantize -verify-diagnostics | FileCheck %s
// RUN: quant-opt %s -split-input-file -qnt-quantize="exclude=conv1" -verify-diagnostics | FileCheck %s --check-prefix=EXCL
// RUN: quant-opt %s -split-input-file -qnt-quantize="exclude=conv1,conv2" -verify-diagnostics | FileCheck %s --check-prefix=ISLAND
//
// Numbers by hand: input scale 0.05 (zp 128), filter scales {0.01, 0.005},
// output scale 0.1 (zp 0).
//   weights  0.5 / 0.01 = 50, -0.25 / 0.01 = -25 | 0.3 / 0.005 = 60, 2.0 -> 127 (clamped at qmax)
//   bias     0.1 / (0.05 * 0.01) = 200           | -0.1 / (0.05 * 0.005) = -400
//   multiplier 0.05 * 0.01 / 0.1 = 0.005         | 0.05 * 0.005 / 0.1 = 0.0025
// Scales are float32 (as PyTorch's): the bias scale is float(0.05) *
// float(0.01) exactly, 4.9999999627470954E-4.

// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[WRAW:.*]] = arith.constant dense<{{\[\[\[\[}}50, -25]]], {{\[\[\[}}60, 127]]]]> : tensor<2x1x1x2xi8>
// CHECK-DAG: %[[BRAW:.*]] = arith.constant dense<[200, -400]> : tensor<2xi32>
// CHECK-DAG: %[[X:.*]] = quant.qcast %arg0 {qnt.name = "input", qnt.range_max = array<f32: 1.000000e+01>, qnt.range_min = array<f32: -6.400000e+00>} : tensor<1x4x4x2xf32> to tensor<1x4x4x2x!quant.uniform<u8:f32, 5.000000e-02:128>>
// CHECK-DAG: %[[W:.*]] = quant.scast %[[WRAW]] {qnt.name = "conv1.weight"{{.*}}} : tensor<2x1x1x2xi8> to tensor<2x1x1x2x!quant.uniform<i8:f32:0, {1.000000e-02,5.000000e-03}>>
// CHECK-DAG: %[[B:.*]] = quant.scast %[[BRAW]] : tensor<2xi32> to tensor<2x!quant.uniform<i32:f32:0, {4.9999999627470954E-4,2.4999999813735477E-4}>>
// CHECK: %[[C:.*]] = qnt.conv2d %[[X]], %[[W]] bias(%[[B]]) {activation = #qnt<activation relu>, multiplier = array<f32: 5.000000e-03, 2.500000e-03>} : ({{.*}}) -> tensor<1x4x4x2x!quant.uniform<u8:f32, 1.000000e-01>>
// CHECK: %[[D:.*]] = quant.dcast %[[C]] : tensor<1x4x4x2x!quant.uniform<u8:f32, 1.000000e-01>> to tensor<1x4x4x2xf32>
// CHECK: return %[[D]]
// Excluded, the layer reads the model input and writes the model result:
// nothing around it is quantized (no quantize-dequantize between float
// layers); its weight stays the float weight.
// EXCL-LABEL: func.func @conv
// EXCL-NOT: quant.
// EXCL: arith.constant dense<{{\[\[\[\[}}5.000000e-01, -2.500000e-01]]], {{\[\[\[}}3.000000e-01, 2.000000e+00]]]]>
// EXCL-NOT: quant.
// EXCL: qnt.conv2d %arg0, %{{.*}} bias(%{{.*}}) {activation = #qnt<activation relu>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
// EXCL-NOT: quant.
// EXCL: return
func.func @conv(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<[[[[0.5, -0.25]]], [[[0.3, 2.0]]]]> : tensor<2x1x1x2xf32>
  %b = arith.constant dense<[0.1, -0.1]> : tensor<2xf32>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> {name = "input", range_min = array<f32: -6.4>, range_max = array<f32: 10.0>} : tensor<1x4x4x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:0, {0.01, 0.005}> {name = "conv1.weight", range_min = array<f32: -0.25, 0.3>, range_max = array<f32: 0.5, 2.0>} : tensor<2x1x1x2xf32>
  %c = qnt.conv2d %xq, %wq bias(%b) {activation = #qnt<activation relu>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32> loc("conv1")
  %cq = qnt.fake_quant %c to !quant.uniform<u8:f32, 0.1> : tensor<1x4x4x2xf32>
  return %cq : tensor<1x4x4x2xf32>
}

// -----

// Residual add, max pool (keeps parameters), global average pool, reshape
// and a linear layer with its bias add: everything between the model's
// qcast and dcast is quantized. The linear weight [1, K=2, N=3] is
// transposed to [N, K]; its bias 0.3 / (0.1 * 0.02) = 150.
// CHECK-LABEL: func.func @network
// CHECK: %[[X:.*]] = quant.qcast %arg0
// CHECK: %[[A:.*]] = qnt.add %[[X]], %[[X]] {activation = #qnt<activation relu>} : {{.*}} -> tensor<1x4x4x2x!quant.uniform<u8:f32, 2.000000e-01>>
// CHECK: %[[P:.*]] = qnt.max_pool2d %[[A]] {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 2.000000e-01>>) -> tensor<1x2x2x2x!quant.uniform<u8:f32, 2.000000e-01>>
// CHECK: %[[G:.*]] = qnt.avg_pool2d %[[P]] {kernel = array<i64: 2, 2>} : {{.*}} -> tensor<1x1x1x2x!quant.uniform<u8:f32, 1.000000e-01>>
// CHECK: %[[R:.*]] = tosa.reshape %[[G]], %{{.*}} : (tensor<1x1x1x2x!quant.uniform<u8:f32, 1.000000e-01>>, !tosa.shape<3>) -> tensor<1x1x2x!quant.uniform<u8:f32, 1.000000e-01>>
// CHECK: %[[WR:.*]] = arith.constant dense<{{\[\[}}10, 20], [30, 40], [50, 60]]> : tensor<3x2xi8>
// CHECK: %[[BR:.*]] = arith.constant dense<[150, 0, -50]> : tensor<3xi32>
// CHECK: %[[L:.*]] = qnt.linear %[[R]], %{{.*}} bias(%{{.*}}) {multiplier = array<f32: 4.000000e-03, 4.000000e-03, 4.000000e-03>}
// CHECK: quant.dcast %[[L]]
// CHECK-NOT: tosa.matmul
// CHECK-NOT: tosa.add
func.func @network(%x: tensor<1x4x4x2xf32>) -> tensor<1x1x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> : tensor<1x4x4x2xf32>
  %a = tosa.add %xq, %xq : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %r = tosa.clamp %a {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %rq = qnt.fake_quant %r to !quant.uniform<u8:f32, 0.2> : tensor<1x4x4x2xf32>
  %p = tosa.max_pool2d %rq {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
  %g = tosa.avg_pool2d %p, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x2xf32>
  %gq = qnt.fake_quant %g to !quant.uniform<u8:f32, 0.1> : tensor<1x1x1x2xf32>
  %s = tosa.const_shape {values = dense<[1, 1, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %f = tosa.reshape %gq, %s : (tensor<1x1x1x2xf32>, !tosa.shape<3>) -> tensor<1x1x2xf32>
  %w = arith.constant dense<[[[0.2, 0.6, 1.0], [0.4, 0.8, 1.2]]]> : tensor<1x2x3xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:2, {0.02, 0.02, 0.02}> : tensor<1x2x3xf32>
  %m = tosa.matmul %f, %wq, %zp, %zp : (tensor<1x1x2xf32>, tensor<1x2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x3xf32>
  %b = arith.constant dense<[[[0.3, 0.0, -0.1]]]> : tensor<1x1x3xf32>
  %l = tosa.add %m, %b : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
  %lq = qnt.fake_quant %l to !quant.uniform<u8:f32, 0.5:128> : tensor<1x1x3xf32>
  return %lq : tensor<1x1x3xf32>
}

// -----

// An op without a quantized form stays float between dcast and qcast.
// CHECK-LABEL: func.func @no_quantized_form
// CHECK: %[[Q:.*]] = quant.qcast %arg0
// CHECK: %[[D:.*]] = quant.dcast %[[Q]]
// CHECK: %[[S:.*]] = tosa.sigmoid %[[D]]
// CHECK: quant.qcast %[[S]]
func.func @no_quantized_form(%x: tensor<4xf32>) -> tensor<4xf32> {
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> : tensor<4xf32>
  %s = tosa.sigmoid %xq : (tensor<4xf32>) -> tensor<4xf32>
  %sq = qnt.fake_quant %s to !quant.uniform<u8:f32, 0.00390625> : tensor<4xf32>
  return %sq : tensor<4xf32>
}

// -----

func.func @uncalibrated(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<0.5> : tensor<2x1x1x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32, 0.01> : tensor<2x1x1x2xf32>
  // expected-error @unknown {{layer 'conv9' (qnt.conv2d): no quantization parameters for its input; calibrate the model and run qnt-fold-observers first, or exclude the layer}}
  %c = qnt.conv2d %x, %wq : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32> loc("conv9")
  %cq = qnt.fake_quant %c to !quant.uniform<u8:f32, 0.1> : tensor<1x4x4x2xf32>
  return %cq : tensor<1x4x4x2xf32>
}

// -----

func.func @bias_overflow(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<0.5> : tensor<2x1x1x2xf32>
  %b = arith.constant dense<[1.0e9, 0.0]> : tensor<2xf32>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.001> : tensor<1x4x4x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32, 0.01> : tensor<2x1x1x2xf32>
  // expected-error @unknown {{layer 'big' (qnt.conv2d): bias 1.000000e+09 of output channel 0 does not fit int32 at scale input_scale * filter_scale = 1.000000e-05}}
  %c = qnt.conv2d %xq, %wq bias(%b) : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32> loc("big")
  %cq = qnt.fake_quant %c to !quant.uniform<u8:f32, 0.1> : tensor<1x4x4x2xf32>
  return %cq : tensor<1x4x4x2xf32>
}

// -----

func.func @filter_not_quantized(%x: tensor<1x4x4x2xf32>, %w: tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32> {
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05> : tensor<1x4x4x2xf32>
  // expected-error @unknown {{layer 'c' (qnt.conv2d): the filter is not a quantized constant (its weight observer is missing)}}
  %c = qnt.conv2d %xq, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32> loc("c")
  %cq = qnt.fake_quant %c to !quant.uniform<u8:f32, 0.1> : tensor<1x4x4x2xf32>
  return %cq : tensor<1x4x4x2xf32>
}

// -----

// A transpose keeps its input's parameters (a flatten back to NCHW before
// a linear layer).
// CHECK-LABEL: func.func @transpose
// CHECK: %[[Q:.*]] = quant.qcast %arg0
// CHECK: tosa.transpose %[[Q]] {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x2x2x3x!quant.uniform<u8:f32, 5.000000e-02:128>>) -> tensor<1x3x2x2x!quant.uniform<u8:f32, 5.000000e-02:128>>
func.func @transpose(%x: tensor<1x2x2x3xf32>) -> tensor<1x3x2x2xf32> {
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> : tensor<1x2x2x3xf32>
  %t = tosa.transpose %xq {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x2x2x3xf32>) -> tensor<1x3x2x2xf32>
  return %t : tensor<1x3x2x2xf32>
}

// -----

// Data movement runs on the quantized tensor with its input's parameters:
// slices, tiles and nearest resizes as they are, a zero pad padding with
// the zero point (128). A bilinear resize becomes qnt.resize_bilinear
// (integer interpolation, the input's parameters).
// CHECK-LABEL: func.func @data_movement
// CHECK: %[[Q:.*]] = quant.qcast %arg0 : tensor<1x4x4x2xf32> to tensor<1x4x4x2x!quant.uniform<u8:f32, 5.000000e-02:128>>
// CHECK: %[[S:.*]] = tosa.slice %[[Q]], %{{.*}}, %{{.*}} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 5.000000e-02:128>>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x4x1x!quant.uniform<u8:f32, 5.000000e-02:128>>
// CHECK: %[[T:.*]] = tosa.tile %[[S]], %{{.*}} : (tensor<1x4x4x1x!quant.uniform<u8:f32, 5.000000e-02:128>>, !tosa.shape<4>) -> tensor<1x4x4x2x!quant.uniform<u8:f32, 5.000000e-02:128>>
// CHECK: %[[ZP:.*]] = arith.constant dense<-128> : tensor<1xi8>
// CHECK: %[[ZPQ:.*]] = quant.scast %[[ZP]] : tensor<1xi8> to tensor<1x!quant.uniform<u8:f32, 5.000000e-02:128>>
// CHECK: %[[P:.*]] = tosa.pad %[[T]], %{{.*}}, %[[ZPQ]] : (tensor<1x4x4x2x!quant.uniform<u8:f32, 5.000000e-02:128>>, !tosa.shape<8>, tensor<1x!quant.uniform<u8:f32, 5.000000e-02:128>>) -> tensor<1x6x6x2x!quant.uniform<u8:f32, 5.000000e-02:128>>
// CHECK: %[[N:.*]] = tosa.resize %[[P]], {{.*}} {mode = NEAREST_NEIGHBOR} : (tensor<1x6x6x2x!quant.uniform<u8:f32, 5.000000e-02:128>>, {{.*}}) -> tensor<1x12x12x2x!quant.uniform<u8:f32, 5.000000e-02:128>>
// CHECK: %[[B:.*]] = qnt.resize_bilinear %[[N]] {border = array<i64: 1, 1>, offset = array<i64: 0, 0>, scale = array<i64: 2, 1, 2, 1>} : (tensor<1x12x12x2x!quant.uniform<u8:f32, 5.000000e-02:128>>) -> tensor<1x24x24x2x!quant.uniform<u8:f32, 5.000000e-02:128>>
// CHECK: quant.dcast %[[B]]
// CHECK-NOT: tosa.resize
func.func @data_movement(%x: tensor<1x4x4x2xf32>) -> tensor<1x24x24x2xf32> {
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> : tensor<1x4x4x2xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 4, 4, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s = tosa.slice %xq, %start, %size : (tensor<1x4x4x2xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x4x1xf32>
  %m = tosa.const_shape {values = dense<[1, 1, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %t = tosa.tile %s, %m : (tensor<1x4x4x1xf32>, !tosa.shape<4>) -> tensor<1x4x4x2xf32>
  %pads = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %zero = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %p = tosa.pad %t, %pads, %zero : (tensor<1x4x4x2xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x6x6x2xf32>
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
  %n = tosa.resize %p, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x6x6x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x12x12x2xf32>
  %b = tosa.resize %n, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x12x12x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x24x24x2xf32>
  return %b : tensor<1x24x24x2xf32>
}

// -----

// A QDQ model's Gemm: the output is quantized after the reshape back to
// 2-D; the linear layer computes in that type and is reshaped.
// CHECK-LABEL: func.func @linear_then_reshape
// CHECK: %[[L:.*]] = qnt.linear %{{.*}} -> tensor<1x1x3x!quant.uniform<u8:f32, 5.000000e-01:128>>
// CHECK: %[[R:.*]] = tosa.reshape %[[L]], %{{.*}} -> tensor<1x3x!quant.uniform<u8:f32, 5.000000e-01:128>>
// CHECK: quant.dcast %[[R]]
// CHECK-NOT: tosa.matmul
func.func @linear_then_reshape(%x: tensor<1x1x2xf32>) -> tensor<1x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.1> : tensor<1x1x2xf32>
  %w = arith.constant dense<[[[0.2, 0.6, 1.0], [0.4, 0.8, 1.2]]]> : tensor<1x2x3xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32, 0.02> : tensor<1x2x3xf32>
  %m = tosa.matmul %xq, %wq, %zp, %zp : (tensor<1x1x2xf32>, tensor<1x2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x3xf32>
  %b = arith.constant dense<[[[0.3, 0.0, -0.1]]]> : tensor<1x1x3xf32>
  %l = tosa.add %m, %b : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
  %s = tosa.const_shape {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %l, %s : (tensor<1x1x3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
  %rq = qnt.fake_quant %r to !quant.uniform<u8:f32, 0.5:128> : tensor<1x3xf32>
  return %rq : tensor<1x3xf32>
}

// -----

// A Gemm with its Relu (qnt-fuse moved the clamp before the reshape): one
// qnt.linear with the fused relu, quantized once after it.
// CHECK-LABEL: func.func @linear_relu_then_reshape
// CHECK: %[[L:.*]] = qnt.linear %{{.*}} {activation = #qnt<activation relu>, {{.*}}} : {{.*}} -> tensor<1x1x3x!quant.uniform<u8:f32, 5.000000e-01>>
// CHECK: %[[R:.*]] = tosa.reshape %[[L]]
// CHECK: quant.dcast %[[R]]
// CHECK-NOT: tosa.clamp
func.func @linear_relu_then_reshape(%x: tensor<1x1x2xf32>) -> tensor<1x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.1> : tensor<1x1x2xf32>
  %w = arith.constant dense<[[[0.2, 0.6, 1.0], [0.4, 0.8, 1.2]]]> : tensor<1x2x3xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32, 0.02> : tensor<1x2x3xf32>
  %m = tosa.matmul %xq, %wq, %zp, %zp : (tensor<1x1x2xf32>, tensor<1x2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x3xf32>
  %b = arith.constant dense<[[[0.3, 0.0, -0.1]]]> : tensor<1x1x3xf32>
  %l = tosa.add %m, %b : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
  %c = tosa.clamp %l {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
  %cq = qnt.fake_quant %c to !quant.uniform<u8:f32, 0.5> : tensor<1x1x3xf32>
  %s = tosa.const_shape {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %cq, %s : (tensor<1x1x3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}

// -----

// A quantized weight left to a float op (a matmul whose input has no
// quantization) becomes the float constant of its dequantized values:
// round(0.21 / 0.02) = 10 -> 10 * 0.02f = 0.199999988 (float32), round(0.59
// / 0.04) = 15 -> 0.599999964, ...
// CHECK-LABEL: func.func @float_matmul
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[}}0.199999988, 0.599999964], [0.399999976, 1.19999993]]]> : tensor<1x2x2xf32>
// CHECK: tosa.matmul %arg0, %[[W]]
// CHECK-NOT: quant.dcast
func.func @float_matmul(%x: tensor<1x1x2xf32>) -> tensor<1x1x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = arith.constant dense<[[[0.21, 0.59], [0.39, 1.21]]]> : tensor<1x2x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:2, {0.02, 0.04}> : tensor<1x2x2xf32>
  %m = tosa.matmul %x, %wq, %zp, %zp : (tensor<1x1x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2xf32>
  return %m : tensor<1x1x2xf32>
}

// -----

// PyTorch's FX export: conv -> Q/DQ -> relu -> Q/DQ, the relu output
// quantized twice (one DequantizeLinear per use). The duplicates are one
// tensor; relu(dequantize(q)) = dequantize(max(q, zp)) is the conv's fused
// relu, followed by a requantization to the relu output's parameters.
// CHECK-LABEL: func.func @relu_between_qdq
// CHECK: %[[C:.*]] = qnt.conv2d {{.*}}activation = #qnt<activation relu>{{.*}} -> tensor<1x4x4x2x!quant.uniform<u8:f32, 1.000000e-01:10>>
// CHECK: %[[R:.*]] = qnt.requantize %[[C]] : (tensor<1x4x4x2x!quant.uniform<u8:f32, 1.000000e-01:10>>) -> tensor<1x4x4x2x!quant.uniform<u8:f32, 5.000000e-02>>
// CHECK: qnt.add %[[R]], %[[R]]
// CHECK-NOT: tosa.clamp
func.func @relu_between_qdq(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> : tensor<1x4x4x2xf32>
  %w = arith.constant dense<[[[[1.0, 0.5]]], [[[-0.5, 1.0]]]]> : tensor<2x1x1x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:0, {0.01, 0.01}> : tensor<2x1x1x2xf32>
  %c = qnt.conv2d %xq, %wq : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %cq = qnt.fake_quant %c to !quant.uniform<u8:f32, 0.1:10> : tensor<1x4x4x2xf32>
  %r = tosa.clamp %cq {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %r1 = qnt.fake_quant %r to !quant.uniform<u8:f32, 0.05> {name = "use1"} : tensor<1x4x4x2xf32>
  %r2 = qnt.fake_quant %r to !quant.uniform<u8:f32, 0.05> {name = "use2"} : tensor<1x4x4x2xf32>
  %a = tosa.add %r1, %r2 : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %aq = qnt.fake_quant %a to !quant.uniform<u8:f32, 0.1> : tensor<1x4x4x2xf32>
  return %aq : tensor<1x4x4x2xf32>
}

// -----

// PReLU (leaky_relu with one alpha per channel) between quantized tensors:
// one table per channel, 2 x 256 entries. Entry 0 is x = (0 - 128) * 0.5 =
// -64: channel 0 gives 0.25 * -64 = -16, i.e. -32 at scale 0.5; channel 1
// gives 64, i.e. 128, clamped to 127.
// CHECK-LABEL: func.func @prelu
// CHECK: qnt.lookup %{{.*}} {table = array<i32: -32, {{.*}}, 127, {{.*}}>} : (tensor<1x2x2x2x!quant.uniform<u8:f32, 5.000000e-01:128>>) -> tensor<1x2x2x2x!quant.uniform<i8:f32, 5.000000e-01>>
func.func @prelu(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.5:128> : tensor<1x2x2x2xf32>
  %p = qnt.unary leaky_relu %xq {alphas = array<f32: 0.25, -1.0>} : tensor<1x2x2x2xf32>
  %pq = qnt.fake_quant %p to !quant.uniform<i8:f32, 0.5> : tensor<1x2x2x2xf32>
  return %pq : tensor<1x2x2x2xf32>
}

// -----

// A batch norm that follows no convolution (DenseNet) with its relu,
// between quantized tensors: qnt.channel_affine. Channel 0: a = 2 /
// sqrt(3 + 1) = 1, b = 0.5 - 1 * 1 = -0.5: multiplier 0.1 * 1 / 0.05 = 2,
// offset -0.5 / 0.05 = -10; channel 1: a = 1 / sqrt(0 + 1) = 1, b = 0:
// multiplier 2, offset 0.
// CHECK-LABEL: func.func @batch_norm_relu
// CHECK: qnt.channel_affine %{{.*}} {activation = #qnt<activation relu>, multiplier = array<f32: 2.000000e+00, 2.000000e+00>, offset = array<f32: -1.000000e+01, 0.000000e+00>} : (tensor<1x2x2x2x!quant.uniform<u8:f32, 1.000000e-01:128>>) -> tensor<1x2x2x2x!quant.uniform<u8:f32, 5.000000e-02>>
// CHECK-NOT: qnt.batch_norm
// CHECK-NOT: tosa.clamp
func.func @batch_norm_relu(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.1:128> : tensor<1x2x2x2xf32>
  %gamma = arith.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %beta = arith.constant dense<[0.5, 0.0]> : tensor<2xf32>
  %mean = arith.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %var = arith.constant dense<[3.0, 0.0]> : tensor<2xf32>
  %bn = qnt.batch_norm %xq, %gamma, %beta, %mean, %var {epsilon = 1.0 : f32} : tensor<1x2x2x2xf32>, tensor<2xf32>
  %r = tosa.clamp %bn {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %rq = qnt.fake_quant %r to !quant.uniform<u8:f32, 0.05> : tensor<1x2x2x2xf32>
  return %rq : tensor<1x2x2x2xf32>
}

// -----

// An element-wise op with a constant is a function of the quantized
// operand: x * 0.5 (entry 0: 0 -> zero point 10; entry 1: 0.1 * 0.5 /
// 0.05 = 1 -> 11; entry 255: 12.75 / 0.05 + 10 = 265 -> 255), and k - y
// with one k per channel (y's entry 0 is -0.5: 1.5 / 0.1 = 15 for k = 1,
// 25 for k = 2, one table per channel).
// CHECK-LABEL: func.func @constant_operand
// CHECK: %[[M:.*]] = qnt.lookup %{{.*}} {table = array<i32: 10, 11, {{.*}}, 255>} : (tensor<1x2x2x2x!quant.uniform<u8:f32, 1.000000e-01>>) -> tensor<1x2x2x2x!quant.uniform<u8:f32, 5.000000e-02:10>>
// CHECK: qnt.lookup %[[M]] {table = array<i32: 15, {{.*}}, 25, {{.*}}>} : (tensor<1x2x2x2x!quant.uniform<u8:f32, 5.000000e-02:10>>) -> tensor<1x2x2x2x!quant.uniform<i8:f32, 1.000000e-01>>
// CHECK-NOT: tosa.mul
// CHECK-NOT: tosa.sub
func.func @constant_operand(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.1> : tensor<1x2x2x2xf32>
  %half = arith.constant dense<0.5> : tensor<1x1x1x1xf32>
  %m = tosa.mul %xq, %half, %shift : (tensor<1x2x2x2xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x2x2xf32>
  %mq = qnt.fake_quant %m to !quant.uniform<u8:f32, 0.05:10> : tensor<1x2x2x2xf32>
  %k = arith.constant dense<[[[[1.0, 2.0]]]]> : tensor<1x1x1x2xf32>
  %d = tosa.sub %k, %mq : (tensor<1x1x1x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %dq = qnt.fake_quant %d to !quant.uniform<i8:f32, 0.1> : tensor<1x2x2x2xf32>
  return %dq : tensor<1x2x2x2xf32>
}

// -----

// A squeeze-excitation block with hard_swish / hard_sigmoid between
// quantized tensors: each activation becomes a lookup table evaluated from
// the input's and the output's parameters (hard_swish of u8 x at 0.05:128:
// entry 0 is x = -6.4, hard_swish 0, i.e. the zero point 10; hard_sigmoid
// of the pool's u8 at 0.04:10: entry 0 is x = -0.4, 256 * (0.5 - 0.4 / 6)
// = 110.9 -> 111), the broadcast multiply a qnt.mul, the subtraction a
// qnt.sub.
// CHECK-LABEL: func.func @squeeze_excitation
// CHECK: %[[X:.*]] = quant.qcast %arg0
// CHECK: %[[H:.*]] = qnt.lookup %[[X]] {table = array<i32: 10, 10, {{.*}}>} : (tensor<1x2x2x4x!quant.uniform<u8:f32, 5.000000e-02:128>>) -> tensor<1x2x2x4x!quant.uniform<u8:f32, 4.000000e-02:10>>
// CHECK: %[[G:.*]] = qnt.avg_pool2d %[[H]]
// CHECK: %[[S:.*]] = qnt.lookup %[[G]] {table = array<i32: 111, {{.*}}>} : (tensor<1x1x1x4x!quant.uniform<u8:f32, 4.000000e-02:10>>) -> tensor<1x1x1x4x!quant.uniform<u8:f32, 3.906250e-03>>
// CHECK: %[[M:.*]] = qnt.mul %[[H]], %[[S]] : (tensor<1x2x2x4x!quant.uniform<u8:f32, 4.000000e-02:10>>, tensor<1x1x1x4x!quant.uniform<u8:f32, 3.906250e-03>>) -> tensor<1x2x2x4x!quant.uniform<u8:f32, 3.000000e-02:5>>
// CHECK: %[[D:.*]] = qnt.sub %[[M]], %[[H]] : {{.*}} -> tensor<1x2x2x4x!quant.uniform<i8:f32, 2.000000e-02>>
// CHECK: quant.dcast %[[D]]
// CHECK-NOT: qnt.unary
// CHECK-NOT: tosa.mul
func.func @squeeze_excitation(%x: tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> : tensor<1x2x2x4xf32>
  %h = qnt.unary hard_swish %xq : tensor<1x2x2x4xf32>
  %hq = qnt.fake_quant %h to !quant.uniform<u8:f32, 0.04:10> : tensor<1x2x2x4xf32>
  %g = tosa.avg_pool2d %hq, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x4xf32>
  %gq = qnt.fake_quant %g to !quant.uniform<u8:f32, 0.04:10> : tensor<1x1x1x4xf32>
  %s = qnt.unary hard_sigmoid %gq {alpha = 0.166666672 : f32, beta = 5.000000e-01 : f32} : tensor<1x1x1x4xf32>
  %sq = qnt.fake_quant %s to !quant.uniform<u8:f32, 0.00390625> : tensor<1x1x1x4xf32>
  %m = tosa.mul %hq, %sq, %shift : (tensor<1x2x2x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x2x2x4xf32>
  %mq = qnt.fake_quant %m to !quant.uniform<u8:f32, 0.03:5> : tensor<1x2x2x4xf32>
  %d = tosa.sub %mq, %hq : (tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  %dq = qnt.fake_quant %d to !quant.uniform<i8:f32, 0.02> : tensor<1x2x2x4xf32>
  return %dq : tensor<1x2x2x4xf32>
}

// -----

// Attention's matmul of two quantized activations: qnt.matmul with the
// operands' and the output's per-tensor types; without parameters for its
// output it stays float.
// CHECK-LABEL: func.func @activation_matmul
// CHECK: %[[A:.*]] = quant.qcast %arg0 : tensor<2x3x4xf32> to tensor<2x3x4x!quant.uniform<u8:f32, 1.000000e-01:128>>
// CHECK: %[[B:.*]] = quant.qcast %arg1 : tensor<2x4x5xf32> to tensor<2x4x5x!quant.uniform<u8<0:127>:f32, 2.000000e-02:60>>
// CHECK: %[[M:.*]] = qnt.matmul %[[A]], %[[B]] : (tensor<2x3x4x!quant.uniform<u8:f32, 1.000000e-01:128>>, tensor<2x4x5x!quant.uniform<u8<0:127>:f32, 2.000000e-02:60>>) -> tensor<2x3x5x!quant.uniform<u8:f32, 5.000000e-02:100>>
// CHECK: quant.dcast %[[M]]
// CHECK-NOT: tosa.matmul
func.func @activation_matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %aq = qnt.fake_quant %a to !quant.uniform<u8:f32, 0.1:128> : tensor<2x3x4xf32>
  %bq = qnt.fake_quant %b to !quant.uniform<u8<0:127>:f32, 0.02:60> : tensor<2x4x5xf32>
  %m = tosa.matmul %aq, %bq, %zp, %zp : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  %mq = qnt.fake_quant %m to !quant.uniform<u8:f32, 0.05:100> : tensor<2x3x5xf32>
  return %mq : tensor<2x3x5xf32>
}

// -----

// CHECK-LABEL: func.func @activation_matmul_float_output
// CHECK: %[[M:.*]] = tosa.matmul
// CHECK-NOT: qnt.matmul
func.func @activation_matmul_float_output(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %aq = qnt.fake_quant %a to !quant.uniform<u8:f32, 0.1:128> : tensor<2x3x4xf32>
  %bq = qnt.fake_quant %b to !quant.uniform<u8:f32, 0.02:60> : tensor<2x4x5xf32>
  %m = tosa.matmul %aq, %bq, %zp, %zp : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  return %m : tensor<2x3x5xf32>
}

// -----

// Float islands: an excluded layer between int8 layers reads a dequantized
// value and its result is quantized for the next int8 layer (conv1 alone
// excluded); between two excluded layers the activation stays float (conv1
// and conv2: the observer's quantize-dequantize is dropped, as PyTorch
// quantizes only the inputs of quantized modules).
// CHECK-LABEL: func.func @island
// CHECK-COUNT-3: qnt.conv2d {{.*}} -> tensor<1x4x4x2x!quant.uniform
// EXCL-LABEL: func.func @island
// EXCL: qnt.conv2d {{.*}} -> tensor<1x4x4x2x!quant.uniform
// EXCL: quant.dcast
// EXCL: qnt.conv2d {{.*}} -> tensor<1x4x4x2xf32>
// EXCL: quant.qcast {{.*}}qnt.name = "a1"
// EXCL: qnt.conv2d {{.*}} -> tensor<1x4x4x2x!quant.uniform
// ISLAND-LABEL: func.func @island
// ISLAND: qnt.conv2d {{.*}} -> tensor<1x4x4x2x!quant.uniform
// ISLAND: %[[D:.*]] = quant.dcast
// ISLAND: %[[C1:.*]] = qnt.conv2d %[[D]], {{.*}} -> tensor<1x4x4x2xf32>
// ISLAND-NOT: quant.qcast
// ISLAND: %[[C2:.*]] = qnt.conv2d %[[C1]], {{.*}} -> tensor<1x4x4x2xf32>
// ISLAND-NOT: quant.
// ISLAND: return %[[C2]]
func.func @island(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<[[[[0.5, -0.25]]], [[[0.3, 2.0]]]]> : tensor<2x1x1x2xf32>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> {name = "input"} : tensor<1x4x4x2xf32>
  %w0 = qnt.fake_quant %w to !quant.uniform<i8:f32:0, {0.01, 0.005}> : tensor<2x1x1x2xf32>
  %c0 = qnt.conv2d %xq, %w0 : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32> loc("conv0")
  %a0 = qnt.fake_quant %c0 to !quant.uniform<u8:f32, 0.1:128> {name = "a0"} : tensor<1x4x4x2xf32>
  %w1 = qnt.fake_quant %w to !quant.uniform<i8:f32:0, {0.01, 0.005}> : tensor<2x1x1x2xf32>
  %c1 = qnt.conv2d %a0, %w1 : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32> loc("conv1")
  %a1 = qnt.fake_quant %c1 to !quant.uniform<u8:f32, 0.1:128> {name = "a1"} : tensor<1x4x4x2xf32>
  %w2 = qnt.fake_quant %w to !quant.uniform<i8:f32:0, {0.01, 0.005}> : tensor<2x1x1x2xf32>
  %c2 = qnt.conv2d %a1, %w2 : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32> loc("conv2")
  %a2 = qnt.fake_quant %c2 to !quant.uniform<u8:f32, 0.1:128> {name = "a2"} : tensor<1x4x4x2xf32>
  return %a2 : tensor<1x4x4x2xf32>
}

// -----

// The data movement after an excluded layer stays float up to the model
// output (a detector head's Transpose + Reshape): no 8-bit tensor between
// the float conv and the result. Not excluded, the head is int8 throughout
// and dequantized at the end.
// CHECK-LABEL: func.func @excluded_head
// CHECK: qnt.conv2d {{.*}} -> tensor<1x4x4x2x!quant.uniform
// CHECK: tosa.transpose {{.*}} -> tensor<1x2x4x4x!quant.uniform
// CHECK: tosa.reshape {{.*}} -> tensor<1x32x!quant.uniform
// CHECK: quant.dcast
// EXCL-LABEL: func.func @excluded_head
// EXCL: %[[C:.*]] = qnt.conv2d {{.*}} -> tensor<1x4x4x2xf32>
// EXCL-NOT: quant.
// EXCL: %[[T:.*]] = tosa.transpose %[[C]] {{.*}} -> tensor<1x2x4x4xf32>
// EXCL-NOT: quant.
// EXCL: %[[R:.*]] = tosa.reshape %[[T]], {{.*}} -> tensor<1x32xf32>
// EXCL-NOT: quant.
// EXCL: return %[[R]]
func.func @excluded_head(%x: tensor<1x4x4x2xf32>) -> tensor<1x32xf32> {
  %w = arith.constant dense<[[[[0.5, -0.25]]], [[[0.3, 2.0]]]]> : tensor<2x1x1x2xf32>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> {name = "input", range_min = array<f32: -6.4>, range_max = array<f32: 6.35>} : tensor<1x4x4x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:0, {0.01, 0.005}> {range_min = array<f32: -0.25, 0.3>, range_max = array<f32: 0.5, 2.0>} : tensor<2x1x1x2xf32>
  %c = qnt.conv2d %xq, %wq : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32> loc("conv1")
  %cq = qnt.fake_quant %c to !quant.uniform<u8:f32, 0.1:128> {name = "conv1", range_min = array<f32: -12.8>, range_max = array<f32: 12.7>} : tensor<1x4x4x2xf32>
  %t = tosa.transpose %cq {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x4x4xf32>
  %s = tosa.const_shape {values = dense<[1, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %t, %s : (tensor<1x2x4x4xf32>, !tosa.shape<2>) -> tensor<1x32xf32>
  return %r : tensor<1x32xf32>
}
