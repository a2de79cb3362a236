// RUN: quant-opt %s -split-input-file -qnt-float-outputs -verify-diagnostics | FileCheck %s
// RUN: quant-opt %s -split-input-file -qnt-float-outputs -qnt-quantize | FileCheck %s --check-prefix=QUANT
//
// Model outputs computed by a layer through data movement (or a final
// sigmoid / softmax / argmax): the observers' fake_quants on the way go, the
// layer is marked, and qnt-quantize builds its dequantized-output form (f32
// result, multipliers input_scale * filter_scale[o] = 0.05 * {0.01, 0.005}).

// A detector's head: conv -> transpose -> reshape -> output.
// CHECK-LABEL: func.func @head
// CHECK: qnt.fake_quant %arg0
// CHECK: qnt.fake_quant %{{.*}} to !quant.uniform<i8
// CHECK: %[[C:.*]] = qnt.conv2d {{.*}} {qnt.float_output}
// CHECK-NOT: qnt.fake_quant
// CHECK: %[[T:.*]] = tosa.transpose %[[C]]
// CHECK: %[[R:.*]] = tosa.reshape %[[T]]
// CHECK: return %[[R]]
// QUANT-LABEL: func.func @head
// QUANT: %[[C:.*]] = qnt.conv2d {{.*}} {multiplier = array<f32: 5.000000e-04, 2.500000e-04>{{.*}}} : (tensor<1x4x4x2x!quant.uniform<u8:f32, 5.000000e-02:128>>, {{.*}}) -> tensor<1x4x4x2xf32>
// QUANT: %[[T:.*]] = tosa.transpose %[[C]] {{.*}} : (tensor<1x4x4x2xf32>) -> tensor<1x2x4x4xf32>
// QUANT-NOT: quant.dcast
// QUANT: return
func.func @head(%x: tensor<1x4x4x2xf32>) -> tensor<1x32xf32> {
  %w = arith.constant dense<[[[[0.5, -0.25]]], [[[0.3, 2.0]]]]> : tensor<2x1x1x2xf32>
  %b = arith.constant dense<[0.1, -0.1]> : tensor<2xf32>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> {name = "input", range_min = array<f32: -6.4>, range_max = array<f32: 10.0>} : tensor<1x4x4x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:0, {0.01, 0.005}> {name = "conv1.weight", range_min = array<f32: -0.25, 0.3>, range_max = array<f32: 0.5, 2.0>} : tensor<2x1x1x2xf32>
  // expected-remark@+1 {{model output produced in float by this layer}}
  %c = qnt.conv2d %xq, %wq bias(%b) : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %cq = qnt.fake_quant %c to !quant.uniform<u8:f32, 0.1:200> {name = "conv1", range_min = array<f32: -20.0>, range_max = array<f32: 5.5>} : tensor<1x4x4x2xf32>
  %t = tosa.transpose %cq {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x4x4xf32>
  %s = tosa.const_shape {values = dense<[1, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %t, %s : (tensor<1x2x4x4xf32>, !tosa.shape<2>) -> tensor<1x32xf32>
  return %r : tensor<1x32xf32>
}

// -----

// A linear layer (matmul, bias add) whose output goes through a sigmoid that
// ends the model: both fake_quants go.
// CHECK-LABEL: func.func @classifier
// CHECK: tosa.matmul {{.*}} {qnt.float_output}
// CHECK: %[[L:.*]] = tosa.add
// CHECK-NEXT: %[[S:.*]] = qnt.unary sigmoid %[[L]]
// CHECK-NEXT: return %[[S]]
// QUANT-LABEL: func.func @classifier
// QUANT: %[[L:.*]] = qnt.linear {{.*}} -> tensor<1x1x3xf32>
// QUANT: qnt.unary sigmoid %[[L]] : tensor<1x1x3xf32>
func.func @classifier(%x: tensor<1x1x2xf32>) -> tensor<1x1x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> {range_min = array<f32: -6.4>, range_max = array<f32: 6.35>} : tensor<1x1x2xf32>
  %w = arith.constant dense<[[[0.2, 0.6, 1.0], [0.4, 0.8, 1.2]]]> : tensor<1x2x3xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:2, {0.02, 0.02, 0.02}> : tensor<1x2x3xf32>
  // expected-remark@+1 {{model output produced in float by this layer}}
  %m = tosa.matmul %xq, %wq, %zp, %zp : (tensor<1x1x2xf32>, tensor<1x2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x3xf32>
  %b = arith.constant dense<[[[0.3, 0.0, -0.1]]]> : tensor<1x1x3xf32>
  %l = tosa.add %m, %b : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
  %lq = qnt.fake_quant %l to !quant.uniform<u8:f32, 0.5:128> {range_min = array<f32: -64.0>, range_max = array<f32: 63.5>} : tensor<1x1x3xf32>
  %s = qnt.unary sigmoid %lq : tensor<1x1x3xf32>
  %sq = qnt.fake_quant %s to !quant.uniform<u8:f32, 0.00390625> {range_min = array<f32: 0.0>, range_max = array<f32: 1.0>} : tensor<1x1x3xf32>
  return %sq : tensor<1x1x3xf32>
}

// -----

// Two heads concatenated: both layers produce floats, the concat is float.
// CHECK-LABEL: func.func @two_heads
// CHECK-COUNT-2: {qnt.float_output}
// CHECK: %[[C:.*]] = tosa.concat
// CHECK-NEXT: return %[[C]]
func.func @two_heads(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x3xf32> {
  %w1 = arith.constant dense<[[[[0.5, -0.25]]], [[[0.3, 2.0]]]]> : tensor<2x1x1x2xf32>
  %w2 = arith.constant dense<[[[[1.5, -0.5]]]]> : tensor<1x1x1x2xf32>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> {range_min = array<f32: -6.4>, range_max = array<f32: 6.35>} : tensor<1x4x4x2xf32>
  %w1q = qnt.fake_quant %w1 to !quant.uniform<i8:f32:0, {0.01, 0.02}> : tensor<2x1x1x2xf32>
  %w2q = qnt.fake_quant %w2 to !quant.uniform<i8:f32:0, {0.02}> : tensor<1x1x1x2xf32>
  // expected-remark@+1 {{model output produced in float}}
  %c1 = qnt.conv2d %xq, %w1q : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %c1q = qnt.fake_quant %c1 to !quant.uniform<u8:f32, 0.1:100> {range_min = array<f32: -10.0>, range_max = array<f32: 15.5>} : tensor<1x4x4x2xf32>
  // expected-remark@+1 {{model output produced in float}}
  %c2 = qnt.conv2d %xq, %w2q : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x1xf32>
  %c2q = qnt.fake_quant %c2 to !quant.uniform<u8:f32, 0.1:100> {range_min = array<f32: -10.0>, range_max = array<f32: 15.5>} : tensor<1x4x4x1xf32>
  %cat = tosa.concat %c1q, %c2q {axis = 3 : i32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x1xf32>) -> tensor<1x4x4x3xf32>
  %catq = qnt.fake_quant %cat to !quant.uniform<u8:f32, 0.1:100> {range_min = array<f32: -10.0>, range_max = array<f32: 15.5>} : tensor<1x4x4x3xf32>
  return %catq : tensor<1x4x4x3xf32>
}

// -----

// Left alone: the layer's output is also read by another layer; an output
// of an add of two activations; a QDQ model's own output quantization (no
// range_min); a conv with a residual.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: qnt.float_output
// CHECK-COUNT-4: qnt.fake_quant %{{.*}} to !quant.uniform<u8
// CHECK-NOT: qnt.float_output
// CHECK: return
func.func @left_alone(%x: tensor<1x4x4x2xf32>) -> (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) {
  %w = arith.constant dense<[[[[0.5, -0.25]]], [[[0.3, 2.0]]]]> : tensor<2x1x1x2xf32>
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> {range_min = array<f32: -6.4>, range_max = array<f32: 6.35>} : tensor<1x4x4x2xf32>
  %wq = qnt.fake_quant %w to !quant.uniform<i8:f32:0, {0.01, 0.02}> : tensor<2x1x1x2xf32>
  %c = qnt.conv2d %xq, %wq : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %cq = qnt.fake_quant %c to !quant.uniform<u8:f32, 0.1:100> {range_min = array<f32: -10.0>, range_max = array<f32: 15.5>} : tensor<1x4x4x2xf32>
  %d = qnt.conv2d %cq, %wq residual(%cq) : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %dq = qnt.fake_quant %d to !quant.uniform<u8:f32, 0.1:100> {range_min = array<f32: -10.0>, range_max = array<f32: 15.5>} : tensor<1x4x4x2xf32>
  %a = tosa.add %dq, %xq : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %aq = qnt.fake_quant %a to !quant.uniform<u8:f32, 0.1:100> {range_min = array<f32: -10.0>, range_max = array<f32: 15.5>} : tensor<1x4x4x2xf32>
  %e = qnt.conv2d %aq, %wq : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %eq = qnt.fake_quant %e to !quant.uniform<u8:f32, 0.1:100> : tensor<1x4x4x2xf32>
  return %cq, %aq, %eq : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>
}
