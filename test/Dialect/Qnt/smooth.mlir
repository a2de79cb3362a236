// RUN: quant-opt %s -split-input-file -qnt-smooth=alpha=0.5 -verify-diagnostics | FileCheck %s
// RUN: not quant-opt %s -split-input-file -qnt-smooth=alpha=1.5 2>&1 | FileCheck %s --check-prefix=ALPHA
// RUN: not quant-opt %s -split-input-file -qnt-smooth=alpha=0 2>&1 | FileCheck %s --check-prefix=ALPHA0

// ALPHA: error: qnt-smooth: alpha must lie in (0, 1), got 1.5
// ALPHA0: error: qnt-smooth: alpha must lie in (0, 1), got 0

// A layer norm read by two linear layers, one through a reshape, the other
// through a transpose and a reshape (both keep the channels last). max|X| =
// [16, 0.25]; max|W| over both weights = [4, 4]; alpha 0.5:
// s = [sqrt(16) / sqrt(4), sqrt(0.25) / sqrt(4)] = [2, 0.25].
// gamma [1, 2] / s = [0.5, 8], beta [0.5, -1] / s = [0.25, -4];
// W1 rows * s: [2, -8, 4], [0.125, 0.25, -0.5]; W2 rows * s: [6], [1].
// CHECK-LABEL: func.func @two_linears
// CHECK-NOT: dense<[1.000000e+00, 2.000000e+00]>
// CHECK-DAG: %[[G:.*]] = arith.constant dense<[5.000000e-01, 8.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[2.500000e-01, -4.000000e+00]> : tensor<2xf32>
// CHECK: %[[Y:.*]] = qnt.layer_norm %arg0, %[[G]], %[[B]] {axis = 3 : i64} :
// CHECK-NOT: qnt.smooth_absmax
// CHECK: %[[W1:.*]] = arith.constant dense<{{\[\[\[}}2.000000e+00, -8.000000e+00, 4.000000e+00], [1.250000e-01, 2.500000e-01, -5.000000e-01]]]> : tensor<1x2x3xf32>
// CHECK: tosa.matmul %{{.*}}, %[[W1]]
// CHECK: %[[W2:.*]] = arith.constant dense<{{\[\[\[}}6.000000e+00], [1.000000e+00]]]> : tensor<1x2x1xf32>
// CHECK: tosa.matmul %{{.*}}, %[[W2]]
func.func @two_linears(%x: tensor<1x2x2x2xf32>) -> (tensor<1x4x3xf32>, tensor<1x4x1xf32>) {
  %g = "tosa.const"() <{values = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %b = "tosa.const"() <{values = dense<[0.5, -1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %w1 = "tosa.const"() <{values = dense<[[[1.0, -4.0, 2.0], [0.5, 1.0, -2.0]]]> : tensor<1x2x3xf32>}> : () -> tensor<1x2x3xf32>
  %w2 = "tosa.const"() <{values = dense<[[[3.0], [4.0]]]> : tensor<1x2x1xf32>}> : () -> tensor<1x2x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s3 = tosa.const_shape {values = dense<[1, 4, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  // expected-remark @below {{smoothed into 2 layer(s), alpha 0.5: channel max|x| max/median 64 -> 8, scales in [0.25, 2]}}
  %y = qnt.layer_norm %x, %g, %b {axis = 3 : i64, qnt.smooth_absmax = array<f32: 16.0, 0.25>} : tensor<1x2x2x2xf32>, tensor<2xf32>
  %r1 = tosa.reshape %y, %s3 : (tensor<1x2x2x2xf32>, !tosa.shape<3>) -> tensor<1x4x2xf32>
  %m1 = tosa.matmul %r1, %w1, %zp, %zp : (tensor<1x4x2xf32>, tensor<1x2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
  %t = tosa.transpose %y {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r2 = tosa.reshape %t, %s3 : (tensor<1x2x2x2xf32>, !tosa.shape<3>) -> tensor<1x4x2xf32>
  %m2 = tosa.matmul %r2, %w2, %zp, %zp : (tensor<1x4x2xf32>, tensor<1x2x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x1xf32>
  return %m1, %m2 : tensor<1x4x3xf32>, tensor<1x4x1xf32>
}

// -----

// A convolution reading the layer norm (ConvNeXt's downsampling layer), the
// channels rolled on the way (slices and a concat of the same tensor, as
// Swin's shifted windows). Filter [O=1, 1, 1, I=2] = [2, 8], max|X| = [8, 2]:
// s = [sqrt(8 / 2), sqrt(2 / 8)] = [2, 0.5]; gamma [1, 1] / s = [0.5, 2],
// filter * s = [4, 4].
// CHECK-LABEL: func.func @conv_after_roll
// CHECK-DAG: %[[G:.*]] = arith.constant dense<[5.000000e-01, 2.000000e+00]> : tensor<2xf32>
// CHECK: qnt.layer_norm %arg0, %[[G]],
// CHECK: %[[F:.*]] = arith.constant dense<4.000000e+00> : tensor<1x1x1x2xf32>
// CHECK: qnt.conv2d %{{.*}}, %[[F]] :
func.func @conv_after_roll(%x: tensor<1x3x1x2xf32>) -> tensor<1x3x1x1xf32> {
  %g = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %f = "tosa.const"() <{values = dense<[[[[2.0, 8.0]]]]> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %start0 = tosa.const_shape {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
  %start1 = tosa.const_shape {values = dense<[0, 1, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size1 = tosa.const_shape {values = dense<[1, 1, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size2 = tosa.const_shape {values = dense<[1, 2, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  // expected-remark @below {{smoothed into 1 layer(s)}}
  %y = qnt.layer_norm %x, %g, %b {axis = 3 : i64, qnt.smooth_absmax = array<f32: 8.0, 2.0>} : tensor<1x3x1x2xf32>, tensor<2xf32>
  %a = tosa.slice %y, %start1, %size2 : (tensor<1x3x1x2xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x2x1x2xf32>
  %c = tosa.slice %y, %start0, %size1 : (tensor<1x3x1x2xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x1x1x2xf32>
  %rolled = tosa.concat %a, %c {axis = 1 : i32} : (tensor<1x2x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x3x1x2xf32>
  %o = qnt.conv2d %rolled, %f : (tensor<1x3x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x3x1x1xf32>
  return %o : tensor<1x3x1x1xf32>
}

// -----

// A depthwise convolution: filter [O=2, 1, 1, I=1], output channel o reads
// input channel o. Filter [1, 4], max|X| = [4, 4]: s = [2, 1].
// CHECK-LABEL: func.func @depthwise
// CHECK-DAG: %[[G:.*]] = arith.constant dense<[5.000000e-01, 1.000000e+00]> : tensor<2xf32>
// CHECK: qnt.layer_norm %arg0, %[[G]],
// CHECK: %[[F:.*]] = arith.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}4.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK: qnt.conv2d %{{.*}}, %[[F]] {groups = 2 : i64}
func.func @depthwise(%x: tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32> {
  %g = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %f = "tosa.const"() <{values = dense<[[[[1.0]]], [[[4.0]]]]> : tensor<2x1x1x1xf32>}> : () -> tensor<2x1x1x1xf32>
  // expected-remark @below {{smoothed into 1 layer(s)}}
  %y = qnt.layer_norm %x, %g, %b {axis = 3 : i64, qnt.smooth_absmax = array<f32: 4.0, 4.0>} : tensor<1x1x1x2xf32>, tensor<2xf32>
  %o = qnt.conv2d %y, %f {groups = 2 : i64} : (tensor<1x1x1x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x1x1x2xf32>
  return %o : tensor<1x1x1x2xf32>
}

// -----

// Average pooling (Swin's final norm -> pool -> head) is a mean per channel:
// pool(x / s) = pool(x) / s. Weight [1, 2, 1] = [[1], [4]], max|X| = [4, 4]:
// s = [2, 1].
// CHECK-LABEL: func.func @avg_pool
// CHECK: qnt.layer_norm %arg0, %{{.*}}, %{{.*}}
// CHECK: tosa.avg_pool2d
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[}}2.000000e+00], [4.000000e+00]]]> : tensor<1x2x1xf32>
// CHECK: tosa.matmul %{{.*}}, %[[W]]
func.func @avg_pool(%x: tensor<1x2x2x2xf32>) -> tensor<1x1x1xf32> {
  %g = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %w = "tosa.const"() <{values = dense<[[[1.0], [4.0]]]> : tensor<1x2x1xf32>}> : () -> tensor<1x2x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s3 = tosa.const_shape {values = dense<[1, 1, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  // expected-remark @below {{smoothed into 1 layer(s)}}
  %y = qnt.layer_norm %x, %g, %b {axis = 3 : i64, qnt.smooth_absmax = array<f32: 4.0, 4.0>} : tensor<1x2x2x2xf32>, tensor<2xf32>
  %p = tosa.avg_pool2d %y, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x2xf32>
  %r = tosa.reshape %p, %s3 : (tensor<1x1x1x2xf32>, !tosa.shape<3>) -> tensor<1x1x2xf32>
  %m = tosa.matmul %r, %w, %zp, %zp : (tensor<1x1x2xf32>, tensor<1x2x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1xf32>
  return %m : tensor<1x1x1xf32>
}

// -----

// A residual add reads the layer norm's output too: no exact fold, left
// alone (gamma, beta and weight unchanged), the attribute removed.
// CHECK-LABEL: func.func @residual
// CHECK-NOT: arith.constant
// CHECK-NOT: qnt.smooth_absmax
// CHECK: qnt.layer_norm %arg0, %{{.*}}, %{{.*}} {axis = 2 : i64} :
func.func @residual(%x: tensor<1x4x2xf32>) -> tensor<1x4x2xf32> {
  %g = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %w = "tosa.const"() <{values = dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>}> : () -> tensor<1x2x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark @below {{not smoothed: it feeds tosa.add, not a float layer with constant weights (no exact fold)}}
  %y = qnt.layer_norm %x, %g, %b {axis = 2 : i64, qnt.smooth_absmax = array<f32: 16.0, 1.0>} : tensor<1x4x2xf32>, tensor<2xf32>
  %m = tosa.matmul %y, %w, %zp, %zp : (tensor<1x4x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x2xf32>
  %s = tosa.add %m, %y : (tensor<1x4x2xf32>, tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  return %s : tensor<1x4x2xf32>
}

// -----

// A GELU between the layer norm and the linear layer: no exact fold.
// CHECK-LABEL: func.func @gelu
// CHECK-NOT: arith.constant
func.func @gelu(%x: tensor<1x4x2xf32>) -> tensor<1x4x2xf32> {
  %g = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %w = "tosa.const"() <{values = dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>}> : () -> tensor<1x2x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark @below {{not smoothed: it feeds qnt.unary, not a float layer with constant weights (no exact fold)}}
  %y = qnt.layer_norm %x, %g, %b {axis = 2 : i64, qnt.smooth_absmax = array<f32: 16.0, 1.0>} : tensor<1x4x2xf32>, tensor<2xf32>
  %a = qnt.unary gelu %y : tensor<1x4x2xf32>
  %m = tosa.matmul %a, %w, %zp, %zp : (tensor<1x4x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x2xf32>
  return %m : tensor<1x4x2xf32>
}

// -----

// The layer norm's output is the second operand of a matmul of two
// activations (attention): no weight to fold into.
// CHECK-LABEL: func.func @activation_matmul
// CHECK-NOT: arith.constant
func.func @activation_matmul(%x: tensor<1x2x2xf32>, %q: tensor<1x2x2xf32>) -> tensor<1x2x2xf32> {
  %g = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark @below {{not smoothed: it feeds tosa.matmul, not a float layer with constant weights (no exact fold)}}
  %y = qnt.layer_norm %x, %g, %b {axis = 2 : i64, qnt.smooth_absmax = array<f32: 16.0, 1.0>} : tensor<1x2x2xf32>, tensor<2xf32>
  %m = tosa.matmul %q, %y, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// -----

// Concatenated with a value it does not produce: the other half would not
// be divided by s.
// CHECK-LABEL: func.func @concat_other
// CHECK-NOT: arith.constant
func.func @concat_other(%x: tensor<1x1x2xf32>, %z: tensor<1x1x2xf32>) -> tensor<1x2x2xf32> {
  %g = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %w = "tosa.const"() <{values = dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>}> : () -> tensor<1x2x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark @below {{not smoothed: it is concatenated with a value it does not produce}}
  %y = qnt.layer_norm %x, %g, %b {axis = 2 : i64, qnt.smooth_absmax = array<f32: 16.0, 1.0>} : tensor<1x1x2xf32>, tensor<2xf32>
  %c = tosa.concat %y, %z {axis = 1 : i32} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x2x2xf32>
  %m = tosa.matmul %c, %w, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// -----

// Over the last two dimensions, or with gamma an argument: left alone.
// CHECK-LABEL: func.func @not_foldable
// CHECK-NOT: arith.constant
func.func @not_foldable(%x: tensor<1x2x2xf32>, %g2: tensor<2x2xf32>, %g: tensor<2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2x2xf32>) {
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %w = "tosa.const"() <{values = dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>}> : () -> tensor<1x2x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark @below {{not smoothed: it normalizes more than the last dimension}}
  %y = qnt.layer_norm %x, %g2, %g2 {axis = 1 : i64, qnt.smooth_absmax = array<f32: 16.0, 1.0>} : tensor<1x2x2xf32>, tensor<2x2xf32>
  %m = tosa.matmul %y, %w, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  // expected-remark @below {{not smoothed: its gamma or beta is not a constant}}
  %y2 = qnt.layer_norm %x, %g, %b {axis = 2 : i64, qnt.smooth_absmax = array<f32: 16.0, 1.0>} : tensor<1x2x2xf32>, tensor<2xf32>
  %m2 = tosa.matmul %y2, %w, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m, %m2 : tensor<1x2x2xf32>, tensor<1x2x2xf32>
}

// -----

// A layer norm without statistics is not touched, and no remark.
// CHECK-LABEL: func.func @no_statistics
// CHECK-NOT: arith.constant
func.func @no_statistics(%x: tensor<1x2x2xf32>) -> tensor<1x2x2xf32> {
  %g = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %w = "tosa.const"() <{values = dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>}> : () -> tensor<1x2x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = qnt.layer_norm %x, %g, %b {axis = 2 : i64} : tensor<1x2x2xf32>, tensor<2xf32>
  %m = tosa.matmul %y, %w, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// -----

func.func @wrong_size(%x: tensor<1x2x2xf32>) -> tensor<1x2x2xf32> {
  %g = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  // expected-error @below {{'qnt.layer_norm' op qnt.smooth_absmax has 3 values for 2 channels}}
  %y = qnt.layer_norm %x, %g, %b {axis = 2 : i64, qnt.smooth_absmax = array<f32: 16.0, 1.0, 2.0>} : tensor<1x2x2xf32>, tensor<2xf32>
  return %y : tensor<1x2x2xf32>
}
