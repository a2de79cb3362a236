// RUN: quant-opt %s --split-input-file --qnt-insert-observers | FileCheck %s
// RUN: quant-opt %s --split-input-file --qnt-insert-observers="activation-kind=moving_average_min_max activation-dtype=qint8 activation-qscheme=symmetric reduce-range=true weight-kind=min_max weight-qscheme=affine" | FileCheck %s --check-prefix=OPTS
// Idempotent: a second run adds nothing.
// RUN: quant-opt %s --split-input-file --qnt-insert-observers --qnt-insert-observers | FileCheck %s
// RUN: not quant-opt %s --split-input-file --qnt-insert-observers="activation-kind=minmax" 2>&1 | FileCheck %s --check-prefix=BADKIND
// RUN: not quant-opt %s --split-input-file --qnt-insert-observers="activation-kind=per_channel_min_max" 2>&1 | FileCheck %s --check-prefix=PERCHANNEL

// BADKIND: qnt-insert-observers: unknown observer kind 'minmax'
// PERCHANNEL: qnt-insert-observers: per-channel observer kind 'per_channel_min_max' is only available for weights

// conv -> bn -> relu is one fused layer: the weight and the relu output are
// observed, the conv and bn outputs are not.
// CHECK-LABEL: func.func @conv_bn_relu
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x2xf32>
// CHECK: %[[XO:.*]] = qnt.observe %[[X]] config <kind = histogram> {name = "input"}
// CHECK: %[[W:.*]] = "tosa.const"() {{.*}} -> tensor<3x1x1x2xf32>
// CHECK: %[[WO:.*]] = qnt.observe %[[W]] config <kind = per_channel_min_max, dtype = qint8, qscheme = symmetric, ch_axis = 0> {name = "conv1.weight"}
// CHECK: %[[C:.*]] = tosa.conv2d %[[XO]], %[[WO]],
// CHECK-NEXT: %[[BN:.*]] = qnt.batch_norm %[[C]],
// CHECK-NEXT: %[[R:.*]] = tosa.clamp %[[BN]]
// CHECK-NEXT: %[[RO:.*]] = qnt.observe %[[R]] config <kind = histogram> {name = "relu1"}
// CHECK-NEXT: return %[[RO]]
// OPTS-LABEL: func.func @conv_bn_relu
// OPTS: qnt.observe %{{.*}} config <kind = moving_average_min_max, dtype = qint8, qscheme = symmetric, reduce_range = true> {name = "input"}
// OPTS: qnt.observe %{{.*}} config <kind = min_max, dtype = qint8> {name = "conv1.weight"}
// OPTS: qnt.observe %{{.*}} config <kind = moving_average_min_max, dtype = qint8, qscheme = symmetric, reduce_range = true> {name = "relu1"}
func.func @conv_bn_relu(%x: tensor<1x4x4x2xf32> loc("input"), %p: tensor<3xf32>) -> tensor<1x4x4x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.5> : tensor<3x1x1x2xf32>}> : () -> tensor<3x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<3xf32>}> : () -> tensor<3xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32> loc("conv1")
  %bn = qnt.batch_norm %c, %p, %p, %p, %p : tensor<1x4x4x3xf32>, tensor<3xf32> loc("bn1")
  %r = tosa.clamp %bn {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> loc("relu1")
  return %r : tensor<1x4x4x3xf32>
}

// -----

// Residual block: add then relu is observed once, after the relu; max pooling
// and reshape keep their input's parameters; a conv used twice is observed;
// unnamed ops get <op>_<n> names; matmul + constant bias is one linear layer
// with its weight observed per output feature (axis 2).
// CHECK-LABEL: func.func @residual_pool_linear
// CHECK: %[[XO:.*]] = qnt.observe %{{.*}} {name = "input0"}
// CHECK: %[[C:.*]] = tosa.conv2d %[[XO]]
// CHECK-NEXT: %[[CO:.*]] = qnt.observe %[[C]] config <kind = histogram> {name = "conv2d_0"}
// CHECK-NEXT: %[[A:.*]] = tosa.add %[[CO]], %[[XO]]
// CHECK-NEXT: %[[R:.*]] = tosa.clamp %[[A]]
// CHECK-NEXT: %[[RO:.*]] = qnt.observe %[[R]] config <kind = histogram> {name = "clamp_0"}
// CHECK-NEXT: %[[P:.*]] = tosa.max_pool2d %[[RO]]
// CHECK-NOT: qnt.observe %[[P]]
// CHECK: %[[F:.*]] = tosa.reshape %[[P]]
// CHECK: qnt.observe %{{.*}} config <kind = per_channel_min_max, dtype = qint8, qscheme = symmetric, ch_axis = 2> {name = "fc.weight"}
// CHECK: %[[M:.*]] = tosa.matmul %[[F]]
// CHECK-NOT: qnt.observe %[[M]]
// CHECK: %[[L:.*]] = tosa.add %[[M]]
// CHECK-NEXT: qnt.observe %[[L]] config <kind = histogram> {name = "fc.bias"}
func.func @residual_pool_linear(%x: tensor<1x4x4x2xf32>) -> tensor<1x1x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.5> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %a = tosa.add %c, %x : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %r = tosa.clamp %a {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %p = tosa.max_pool2d %r {kernel = array<i64: 4, 4>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>) -> tensor<1x1x1x2xf32>
  %s = tosa.const_shape {values = dense<[1, 1, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %f = tosa.reshape %p, %s : (tensor<1x1x1x2xf32>, !tosa.shape<3>) -> tensor<1x1x2xf32>
  %fw = "tosa.const"() <{values = dense<0.25> : tensor<1x2x3xf32>}> : () -> tensor<1x2x3xf32> loc("fc.weight")
  %m = tosa.matmul %f, %fw, %zp, %zp : (tensor<1x1x2xf32>, tensor<1x2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x3xf32> loc("fc")
  %fb = "tosa.const"() <{values = dense<0.1> : tensor<1x1x3xf32>}> : () -> tensor<1x1x3xf32>
  %l = tosa.add %m, %fb : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32> loc("fc.bias")
  return %l : tensor<1x1x3xf32>
}

// -----

// A fused float conv (after qnt-fuse): its constant filter is observed per
// output channel (OHWI axis 0) and its output once; the residual input is
// already observed where it was produced.
// CHECK-LABEL: func.func @fused_conv
// CHECK: %[[XO:.*]] = qnt.observe %arg0 {{.*}} {name = "input0"}
// CHECK: %[[WO:.*]] = qnt.observe %{{.*}} config <kind = per_channel_min_max, dtype = qint8, qscheme = symmetric, ch_axis = 0> {name = "layer1.weight"}
// CHECK: %[[C:.*]] = qnt.conv2d %[[XO]], %[[WO]] bias(%{{.*}}) residual(%[[XO]])
// CHECK-NEXT: qnt.observe %[[C]] config <kind = histogram> {name = "layer1"}
func.func @fused_conv(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<0.5> : tensor<2x3x3x2xf32>
  %b = arith.constant dense<0.1> : tensor<2xf32>
  %0 = qnt.conv2d %x, %w bias(%b) residual(%x) {pad = array<i64: 1, 1, 1, 1>, activation = #qnt<activation relu>} : (tensor<1x4x4x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> loc("layer1")
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// reduce_range follows the target: on for x86 without VNNI only.
// RUN: quant-opt %s --split-input-file --qnt-insert-observers="target=x86" | FileCheck %s --check-prefix=X86
// RUN: quant-opt %s --split-input-file --qnt-insert-observers="target=avx2" | FileCheck %s --check-prefix=X86
// RUN: quant-opt %s --split-input-file --qnt-insert-observers="target=x86-vnni" | FileCheck %s --check-prefix=VNNI
// RUN: quant-opt %s --split-input-file --qnt-insert-observers="target=avx-vnni" | FileCheck %s --check-prefix=VNNI
// RUN: not quant-opt %s --split-input-file --qnt-insert-observers="target=sparc" 2>&1 | FileCheck %s --check-prefix=BADTARGET
// X86-LABEL: func.func @target
// X86: qnt.observe %arg0 config <kind = histogram, reduce_range = true>
// X86: config <kind = per_channel_min_max, dtype = qint8, qscheme = symmetric, ch_axis = 0>
// VNNI-LABEL: func.func @target
// VNNI: qnt.observe %arg0 config <kind = histogram> {name = "input0"}
// BADTARGET: qnt-insert-observers: unknown target 'sparc' (amx-int8, avx512-vnni (or x86-vnni), avx-vnni, avx2 (or x86), neon-i8mm, neon-dot (or aarch64), generic)
func.func @target(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<0.5> : tensor<2x3x3x2xf32>
  %0 = qnt.conv2d %x, %w {pad = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x3x3x2xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// The importer's NCHW -> NHWC transpose at the input keeps the values: the
// input observer goes after it.
// CHECK-LABEL: func.func @layout_input
// CHECK: %[[T:.*]] = tosa.transpose %arg0
// CHECK-NEXT: qnt.observe %[[T]] config <kind = histogram> {name = "input0"}
func.func @layout_input(%x: tensor<1x2x4x4xf32>) -> tensor<1x4x4x2xf32> {
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x4x4x2xf32>
  %w = arith.constant dense<0.5> : tensor<2x1x1x2xf32>
  %0 = qnt.conv2d %t, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// Roles come from QuantizableOpInterface: a sigmoid's output has fixed
// parameters (scale 1/256, zero point 0: no observer); a slice keeps its
// input's (no observer); the output of a float island (tosa.exp, not
// quantized) is observed where a quantizable op (the conv) consumes it; a
// softmax has fixed parameters for [0, 1] like a sigmoid (PyTorch's
// nn.Softmax), a log-softmax stays float (no observer: nothing quantized
// consumes it).
// CHECK-LABEL: func.func @roles
// CHECK: %[[S:.*]] = qnt.unary sigmoid
// CHECK-NEXT: qnt.fake_quant %[[S]] to !quant.uniform<u8:f32, 3.906250e-03> {name = "sig", range_max = array<f32: 1.000000e+00>, range_min = array<f32: 0.000000e+00>}
// CHECK: %[[SL:.*]] = tosa.slice
// CHECK-NOT: qnt.observe %[[SL]]
// CHECK: %[[E:.*]] = tosa.exp %[[SL]]
// CHECK-NEXT: qnt.observe %[[E]] config <kind = histogram> {name = "exp"}
// CHECK: qnt.conv2d
// CHECK: qnt.observe {{.*}} {name = "conv"}
// CHECK: %[[SM:.*]] = qnt.softmax
// CHECK-NEXT: qnt.fake_quant %[[SM]] to !quant.uniform<u8:f32, 3.906250e-03> {name = "softmax", range_max = array<f32: 1.000000e+00>, range_min = array<f32: 0.000000e+00>}
// CHECK: %[[LS:.*]] = qnt.softmax %{{.*}} {axis = 3 : i64, log}
// CHECK-NOT: qnt.observe
// CHECK-NOT: qnt.fake_quant
// CHECK: return %[[LS]]
// X86-LABEL: func.func @roles
// X86: qnt.fake_quant %{{.*}} to !quant.uniform<u8<0:127>:f32, 7.812500e-03>
func.func @roles(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %s = qnt.unary sigmoid %x : tensor<1x4x4x2xf32> loc("sig")
  %start = tosa.const_shape {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 4, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %sl = tosa.slice %s, %start, %size : (tensor<1x4x4x2xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x4x2xf32>
  %e = tosa.exp %sl : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> loc("exp")
  %w = arith.constant dense<0.5> : tensor<2x1x1x2xf32>
  %0 = qnt.conv2d %e, %w : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<1x4x4x2xf32> loc("conv")
  %sm = qnt.softmax %0 {axis = 3 : i64} : tensor<1x4x4x2xf32> loc("softmax")
  %ls = qnt.softmax %sm {axis = 3 : i64, log} : tensor<1x4x4x2xf32> loc("log_softmax")
  return %ls : tensor<1x4x4x2xf32>
}

// -----

// Attention: a softmax whose output reaches a matmul's left operand
// (through a reshape) is observed, not fixed: its probabilities lie far
// below 1/256.
// CHECK-LABEL: func.func @attention_softmax
// CHECK: %[[P:.*]] = qnt.softmax
// CHECK-NEXT: qnt.observe %[[P]] config <kind = histogram> {name = "attn"}
// CHECK-NOT: qnt.fake_quant %[[P]]
func.func @attention_softmax(%s: tensor<2x3x3xf32>, %v: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %p = qnt.softmax %s {axis = 2 : i64} : tensor<2x3x3xf32> loc("attn")
  %shape = tosa.const_shape {values = dense<[2, 3, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %p, %shape : (tensor<2x3x3xf32>, !tosa.shape<3>) -> tensor<2x3x3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %o = tosa.matmul %r, %v, %zp, %zp : (tensor<2x3x3xf32>, tensor<2x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x4xf32>
  return %o : tensor<2x3x4xf32>
}

// -----

// A classifier's softmax that is the model's output is not quantized: its
// probabilities stay float (no fake_quant to 1/256, which ties near
// classes). One that also feeds another op keeps its fixed parameters.
// CHECK-LABEL: func.func @output_softmax
// CHECK: %[[P:.*]] = qnt.softmax
// CHECK-NOT: qnt.fake_quant
// CHECK-NOT: qnt.observe
// CHECK: return %[[P]]
func.func @output_softmax(%x: tensor<1x10xf32>) -> tensor<1x10xf32> {
  %p = qnt.softmax %x {axis = 1 : i64} : tensor<1x10xf32> loc("probs")
  return %p : tensor<1x10xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_also_used
// CHECK: %[[P:.*]] = qnt.softmax
// CHECK-NEXT: qnt.fake_quant %[[P]] to !quant.uniform<u8:f32, 3.906250e-03>
func.func @softmax_also_used(%x: tensor<1x10xf32>) -> (tensor<1x10xf32>, tensor<1x10xf32>) {
  %p = qnt.softmax %x {axis = 1 : i64} : tensor<1x10xf32> loc("probs")
  %s = qnt.unary sigmoid %p : tensor<1x10xf32> loc("sig")
  return %p, %s : tensor<1x10xf32>, tensor<1x10xf32>
}
