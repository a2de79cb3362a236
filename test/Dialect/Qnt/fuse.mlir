// RUN: quant-opt %s -split-input-file -qnt-fuse | FileCheck %s

// conv -> bn -> relu: the batch norm is folded into filter and bias, the relu
// becomes the activation. Channel 0: scale = 3 / sqrt(4 + 0) = 1.5, w' = 2 *
// 1.5 = 3, b' = (1 - 1) * 1.5 + 0.5 = 0.5. Channel 1: scale = 1 / sqrt(0.25)
// = 2, w' = 0.5 * 2 = 1, b' = (2 - 0.5) * 2 + 0 = 3.
// CHECK-LABEL: func.func @conv_bn_relu
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}3.000000e+00]]], {{\[\[\[}}1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[5.000000e-01, 3.000000e+00]> : tensor<2xf32>
// CHECK: %[[C:.*]] = qnt.conv2d %arg0, %[[W]] bias(%[[B]]) {activation = #qnt<activation relu>} : (tensor<1x2x2x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @conv_bn_relu(%x: tensor<1x2x2x1xf32>) -> tensor<1x2x2x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<[[[[2.0]]], [[[0.5]]]]> : tensor<2x1x1x1xf32>}> : () -> tensor<2x1x1x1xf32>
  %b = "tosa.const"() <{values = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %gamma = "tosa.const"() <{values = dense<[3.0, 1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %beta = "tosa.const"() <{values = dense<[0.5, 0.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %mean = "tosa.const"() <{values = dense<[1.0, 0.5]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %var = "tosa.const"() <{values = dense<[4.0, 0.25]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32>
  %bn = qnt.batch_norm %c, %gamma, %beta, %mean, %var {epsilon = 0.0 : f32} : tensor<1x2x2x2xf32>, tensor<2xf32>
  %r = tosa.clamp %bn {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}

// -----

// Residual block: conv + add + relu6 is one layer with a residual operand.
// CHECK-LABEL: func.func @conv_add_relu6
// CHECK: %[[C:.*]] = qnt.conv2d %arg0, %{{.*}} bias(%{{.*}}) residual(%arg0) {activation = #qnt<activation relu6>, pad = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT: return %[[C]]
func.func @conv_add_relu6(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.5> : tensor<2x3x3x2xf32>}> : () -> tensor<2x3x3x2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %a = tosa.add %x, %c : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %r = tosa.clamp %a {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %r : tensor<1x4x4x2xf32>
}

// -----

// Depthwise (multiplier 2): HWCM [1, 1, 2, 2] becomes OHWI [4, 1, 1, 1] with
// o = c * 2 + m, and a clip becomes a clamp activation.
// CHECK-LABEL: func.func @depthwise_clip
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}2.000000e+00]]], {{\[\[\[}}3.000000e+00]]], {{\[\[\[}}4.000000e+00]]]]> : tensor<4x1x1x1xf32>
// CHECK: qnt.conv2d %arg0, %[[W]] bias(%{{.*}}) {activation = #qnt<activation clamp>, clamp_max = 3.000000e+00 : f32, clamp_min = -1.000000e+00 : f32, groups = 2 : i64}
func.func @depthwise_clip(%x: tensor<1x3x3x2xf32>) -> tensor<1x3x3x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>}> : () -> tensor<1x1x2x2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x2xf32>, tensor<1x1x2x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x4xf32>
  %r = tosa.clamp %c {max_val = 3.0 : f32, min_val = -1.0 : f32} : (tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %r : tensor<1x3x3x4xf32>
}

// -----

// Not fused: a conv output used twice, and a batch norm with non-constant
// parameters.
// CHECK-LABEL: func.func @not_fused
// CHECK: %[[C:.*]] = qnt.conv2d
// CHECK: tosa.clamp %[[C]]
// CHECK: qnt.batch_norm %[[C]]
func.func @not_fused(%x: tensor<1x2x2x1xf32>, %p: tensor<1xf32>) -> (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<2.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %c = tosa.conv2d %x, %w, %zp, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  %r = tosa.clamp %c {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %bn = qnt.batch_norm %c, %p, %p, %p, %p : tensor<1x2x2x1xf32>, tensor<1xf32>
  return %r, %bn : tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>
}

// -----

// A QDQ model's depthwise filter: the fake_quant moves with the
// transposition, its axis (C, multiplier 1) becoming O = dimension 0.
// CHECK-LABEL: func.func @depthwise_fake_quant
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}2.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK: %[[WQ:.*]] = qnt.fake_quant %[[W]] to !quant.uniform<i8:f32:0, {1.000000e-01,2.000000e-01}> {name = "w"} : tensor<2x1x1x1xf32>
// CHECK: qnt.conv2d %arg0, %[[WQ]] bias(%{{.*}}) {groups = 2 : i64}
func.func @depthwise_fake_quant(%x: tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<[[[[1.0], [2.0]]]]> : tensor<1x1x2x1xf32>}> : () -> tensor<1x1x2x1xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:2, {0.1, 0.2}> {name = "w"} : tensor<1x1x2x1xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = tosa.depthwise_conv2d %x, %wq, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x2xf32>, tensor<1x1x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  return %c : tensor<1x3x3x2xf32>
}

// -----

// Per-axis quantization along C with multiplier 2 has no OHWI form: the
// depthwise conv is left alone.
// CHECK-LABEL: func.func @depthwise_fake_quant_multiplier
// CHECK: tosa.depthwise_conv2d
func.func @depthwise_fake_quant_multiplier(%x: tensor<1x3x3x1xf32>) -> tensor<1x3x3x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<[[[[1.0, 2.0]]]]> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:3, {0.1, 0.2}> : tensor<1x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = tosa.depthwise_conv2d %x, %wq, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x1xf32>, tensor<1x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  return %c : tensor<1x3x3x2xf32>
}

// -----

// A relu after a Gemm's reshape moves before the reshape, next to the
// layer it fuses with (matmul + bias add).
// CHECK-LABEL: func.func @gemm_relu
// CHECK: %[[A:.*]] = tosa.add
// CHECK: %[[C:.*]] = tosa.clamp %[[A]] {{.*}} : (tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
// CHECK: %[[R:.*]] = tosa.reshape %[[C]]
// CHECK: return %[[R]]
func.func @gemm_relu(%x: tensor<1x1x2xf32>) -> tensor<1x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = arith.constant dense<0.5> : tensor<1x2x3xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x1x2xf32>, tensor<1x2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x3xf32>
  %b = arith.constant dense<0.1> : tensor<1x1x3xf32>
  %l = tosa.add %m, %b : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
  %s = tosa.const_shape {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %l, %s : (tensor<1x1x3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
  %c = tosa.clamp %r {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x3xf32>) -> tensor<1x3xf32>
  return %c : tensor<1x3xf32>
}

// -----

// A 1-D conv -> bn -> relu: the conv's [N, 1, L, C] is reshaped to
// [N, L, C] before them; both move above the reshape (channels stay last)
// and fuse as in @conv_bn_relu (same numbers).
// CHECK-LABEL: func.func @conv1d_bn_relu
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}3.000000e+00]]], {{\[\[\[}}1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[5.000000e-01, 3.000000e+00]> : tensor<2xf32>
// CHECK: %[[C:.*]] = qnt.conv2d %arg0, %[[W]] bias(%[[B]]) {activation = #qnt<activation relu>} : (tensor<1x1x4x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x1x4x2xf32>
// CHECK-NEXT: %[[R:.*]] = tosa.reshape %[[C]]
// CHECK-NEXT: return %[[R]] : tensor<1x4x2xf32>
func.func @conv1d_bn_relu(%x: tensor<1x1x4x1xf32>) -> tensor<1x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<[[[[2.0]]], [[[0.5]]]]> : tensor<2x1x1x1xf32>}> : () -> tensor<2x1x1x1xf32>
  %b = "tosa.const"() <{values = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %gamma = "tosa.const"() <{values = dense<[3.0, 1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %beta = "tosa.const"() <{values = dense<[0.5, 0.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %mean = "tosa.const"() <{values = dense<[1.0, 0.5]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %var = "tosa.const"() <{values = dense<[4.0, 0.25]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x4x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4x2xf32>
  %s = tosa.const_shape {values = dense<[1, 4, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %l = tosa.reshape %c, %s : (tensor<1x1x4x2xf32>, !tosa.shape<3>) -> tensor<1x4x2xf32>
  %bn = qnt.batch_norm %l, %gamma, %beta, %mean, %var {epsilon = 0.0 : f32} : tensor<1x4x2xf32>, tensor<2xf32>
  %r = tosa.clamp %bn {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  return %r : tensor<1x4x2xf32>
}

// -----

// A batch norm after a reshape that moves the channels is not moved.
// CHECK-LABEL: func.func @conv_reshape_bn_channels_moved
// CHECK: tosa.reshape
// CHECK: qnt.batch_norm
func.func @conv_reshape_bn_channels_moved(%x: tensor<1x1x4x1xf32>) -> tensor<1x2x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<[[[[2.0]]], [[[0.5]]]]> : tensor<2x1x1x1xf32>}> : () -> tensor<2x1x1x1xf32>
  %b = "tosa.const"() <{values = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %p = "tosa.const"() <{values = dense<[1.0, 1.0, 1.0, 1.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x4x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4x2xf32>
  %s = tosa.const_shape {values = dense<[1, 2, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %l = tosa.reshape %c, %s : (tensor<1x1x4x2xf32>, !tosa.shape<3>) -> tensor<1x2x4xf32>
  %bn = qnt.batch_norm %l, %p, %p, %p, %p : tensor<1x2x4xf32>, tensor<4xf32>
  return %bn : tensor<1x2x4xf32>
}

// -----

// F.relu6 as PyTorch exports it: Relu, then Clip(0, 6). Both clamps become
// the conv's relu6 whichever fuses first (here the two clamps merge).
// CHECK-LABEL: func.func @conv_relu_clip
// CHECK: %[[C:.*]] = qnt.conv2d %arg0, %{{.*}} bias(%{{.*}}) {activation = #qnt<activation relu6>}
// CHECK-NOT: tosa.clamp
// CHECK: return %[[C]]
func.func @conv_relu_clip(%x: tensor<1x2x2x1xf32>) -> tensor<1x2x2x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<[[[[2.0]]], [[[0.5]]]]> : tensor<2x1x1x1xf32>}> : () -> tensor<2x1x1x1xf32>
  %b = "tosa.const"() <{values = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32>
  %r = tosa.clamp %c {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r6 = tosa.clamp %r {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %r6 : tensor<1x2x2x2xf32>
}

// -----

// A clamp after a conv that has already fused one: the bounds intersect,
// [-1, 3] and [0, 6] give [0, 3].
// CHECK-LABEL: func.func @activated_conv_clip
// CHECK: %[[C:.*]] = qnt.conv2d %arg0, %{{.*}} bias(%{{.*}}) {activation = #qnt<activation clamp>, clamp_max = 3.000000e+00 : f32, clamp_min = 0.000000e+00 : f32}
// CHECK-NEXT: return %[[C]]
func.func @activated_conv_clip(%x: tensor<1x2x2x1xf32>, %w: tensor<2x1x1x1xf32>, %b: tensor<2xf32>) -> tensor<1x2x2x2xf32> {
  %c = qnt.conv2d %x, %w bias(%b) {activation = #qnt<activation clamp>, clamp_max = 3.0 : f32, clamp_min = -1.0 : f32} : (tensor<1x2x2x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %r = tosa.clamp %c {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}

// -----

// A relu6 conv then a relu: still relu6. Clamps whose bounds do not overlap
// (the result would be a constant) stay as they are.
// CHECK-LABEL: func.func @relu6_conv_relu
// CHECK: %[[C:.*]] = qnt.conv2d %arg0, %{{.*}} bias(%{{.*}}) {activation = #qnt<activation relu6>}
// CHECK-NEXT: %[[D:.*]] = tosa.clamp %arg0 {max_val = 1.000000e+00 : f32, min_val = 0.000000e+00 : f32}
// CHECK-NEXT: %[[E:.*]] = tosa.clamp %[[D]] {max_val = 3.000000e+00 : f32, min_val = 2.000000e+00 : f32}
// CHECK-NEXT: return %[[C]], %[[E]]
func.func @relu6_conv_relu(%x: tensor<1x2x2x1xf32>, %w: tensor<2x1x1x1xf32>, %b: tensor<2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x1xf32>) {
  %c = qnt.conv2d %x, %w bias(%b) {activation = #qnt<activation relu6>} : (tensor<1x2x2x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %r = tosa.clamp %c {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %d = tosa.clamp %x {max_val = 1.0 : f32, min_val = 0.0 : f32} : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %e = tosa.clamp %d {max_val = 3.0 : f32, min_val = 2.0 : f32} : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  return %r, %e : tensor<1x2x2x2xf32>, tensor<1x2x2x1xf32>
}

// -----

// A conv then an add of one constant per output channel (ConvTranspose as
// paddle2onnx writes it): the add becomes the conv's bias, 0.5 + 1.0 and
// -0.5 + 3.0. A constant of one value adds to every channel; a constant of
// another shape is a residual-like add and stays.
// CHECK-LABEL: func.func @bias_add
// CHECK: %[[B:.*]] = arith.constant dense<[1.500000e+00, 2.500000e+00]> : tensor<2xf32>
// CHECK: %[[C:.*]] = qnt.conv2d %arg0, %{{.*}} bias(%[[B]])
// CHECK-NOT: tosa.add
// CHECK: return %[[C]]
func.func @bias_add(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<[[[[0.5, -0.25]]], [[[0.3, 2.0]]]]> : tensor<2x1x1x2xf32>
  %b = arith.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %c = arith.constant dense<[[[[1.0, 3.0]]]]> : tensor<1x1x1x2xf32>
  %y = qnt.conv2d %x, %w bias(%b) : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %z = tosa.add %y, %c : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  return %z : tensor<1x4x4x2xf32>
}

// CHECK-LABEL: func.func @bias_add_scalar
// CHECK: %[[B:.*]] = arith.constant dense<2.500000e-01> : tensor<2xf32>
// CHECK: %[[C:.*]] = qnt.conv2d %arg0, %{{.*}} bias(%[[B]])
// CHECK: return %[[C]]
func.func @bias_add_scalar(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<[[[[0.5, -0.25]]], [[[0.3, 2.0]]]]> : tensor<2x1x1x2xf32>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %y = qnt.conv2d %x, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %z = tosa.add %y, %c : (tensor<1x4x4x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x4x2xf32>
  return %z : tensor<1x4x4x2xf32>
}

// CHECK-LABEL: func.func @row_add_stays
// CHECK: qnt.conv2d
// CHECK: tosa.add
func.func @row_add_stays(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<[[[[0.5, -0.25]]], [[[0.3, 2.0]]]]> : tensor<2x1x1x2xf32>
  %c = arith.constant dense<1.0> : tensor<1x4x1x2xf32>
  %y = qnt.conv2d %x, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %z = tosa.add %y, %c : (tensor<1x4x4x2xf32>, tensor<1x4x1x2xf32>) -> tensor<1x4x4x2xf32>
  return %z : tensor<1x4x4x2xf32>
}
