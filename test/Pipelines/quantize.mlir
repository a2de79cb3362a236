// The quantize stage, quantc-quantize: qnt-fold-observers,
// qnt-float-outputs (unless float-outputs=false), then qnt-quantize, the IR
// of the passes run one by one, with each pass's options. A model without
// observers (a QDQ model's fake_quants) is only quantized.
//
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-quantize)' -o %t.stage.mlir 2>/dev/null
// RUN: quant-opt %s --split-input-file --qnt-fold-observers --qnt-float-outputs --qnt-quantize -o %t.passes.mlir 2>/dev/null
// RUN: diff %t.stage.mlir %t.passes.mlir
// RUN: FileCheck %s < %t.stage.mlir
//
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-quantize{float-outputs=false})' -o %t.int8-stage.mlir
// RUN: quant-opt %s --split-input-file --qnt-fold-observers --qnt-quantize -o %t.int8-passes.mlir
// RUN: diff %t.int8-stage.mlir %t.int8-passes.mlir
// RUN: FileCheck %s --check-prefix=INT8OUT < %t.int8-stage.mlir
//
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-quantize{reduce-range=weights exclude=conv2})' -o %t.opts-stage.mlir 2>/dev/null
// RUN: quant-opt %s --split-input-file --qnt-fold-observers=reduce-range=weights --qnt-float-outputs --qnt-quantize=exclude=conv2 -o %t.opts-passes.mlir 2>/dev/null
// RUN: diff %t.opts-stage.mlir %t.opts-passes.mlir
// RUN: FileCheck %s --check-prefix=OPTS < %t.opts-stage.mlir
//
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-quantize{reduce-range=activations})' -o %t.act-stage.mlir 2>/dev/null
// RUN: quant-opt %s --split-input-file --qnt-fold-observers=reduce-range=activations --qnt-float-outputs --qnt-quantize -o %t.act-passes.mlir 2>/dev/null
// RUN: diff %t.act-stage.mlir %t.act-passes.mlir
//
// RUN: not quant-opt %s --pass-pipeline='builtin.module(quantc-quantize{reduce-range=on})' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: for the --reduce-range option: Cannot find option named 'on'!

// Calibrated observers (the weight's is folded from the constant itself)
// become the parameters of a quantized conv. The conv computes the model
// output: by default in float from its accumulator, with float-outputs=false
// through the output observer's 8-bit type.
// CHECK-LABEL: func.func @conv
// CHECK: quant.qcast %{{.*}} to tensor<1x4x4x2x!quant.uniform<u8:f32, 0.0500{{[0-9]*}}:128>>
// CHECK: qnt.conv2d %{{.*}} {activation = #qnt<activation relu>, multiplier = {{.*}}} : ({{.*}}) -> tensor<1x4x4x2xf32>
// CHECK-NOT: quant.dcast
// CHECK: return
// INT8OUT-LABEL: func.func @conv
// INT8OUT: quant.qcast %{{.*}} to tensor<1x4x4x2x!quant.uniform<u8:f32, 0.0500{{[0-9]*}}:128>>
// INT8OUT: qnt.conv2d %{{.*}} {activation = #qnt<activation relu>, multiplier = {{.*}}} : ({{.*}}) -> tensor<1x4x4x2x!quant.uniform<u8:f32, 0.1000{{[0-9]*}}>>
// INT8OUT: quant.dcast
// OPTS-LABEL: func.func @conv
// OPTS: quant.scast %{{.*}} : tensor<2x1x1x2xi8> to tensor<2x1x1x2x!quant.uniform<i8<-64:63>:f32:0,
func.func @conv(%x: tensor<1x4x4x2xf32> loc("input")) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<[[[[0.5, -0.25]]], [[[0.3, 2.0]]]]> : tensor<2x1x1x2xf32> loc("conv1.weight")
  %b = arith.constant dense<[0.1, -0.1]> : tensor<2xf32>
  %xo = qnt.observe %x config <kind = min_max> state <batches = 1, min = [-6.4], max = [6.35]> {name = "input"} : tensor<1x4x4x2xf32>
  %wo = qnt.observe %w config <kind = per_channel_min_max, dtype = qint8, qscheme = symmetric, ch_axis = 0> {name = "conv1.weight"} : tensor<2x1x1x2xf32>
  %c = qnt.conv2d %xo, %wo bias(%b) {activation = #qnt<activation relu>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32> loc("conv1")
  %co = qnt.observe %c config <kind = min_max> state <batches = 1, min = [0.0], max = [25.5]> {name = "conv1"} : tensor<1x4x4x2xf32>
  return %co : tensor<1x4x4x2xf32>
}

// -----

// An excluded layer stays float; reading the model input and writing the
// model result, nothing around it is quantized.
// CHECK-LABEL: func.func @excluded
// CHECK: qnt.conv2d %{{.*}} -> tensor<1x4x4x2xf32>
// INT8OUT-LABEL: func.func @excluded
// INT8OUT: qnt.conv2d %{{.*}} -> tensor<1x4x4x2x!quant.uniform
// OPTS-LABEL: func.func @excluded
// OPTS-NOT: quant.qcast
// OPTS: qnt.conv2d %arg0, {{.*}} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
// OPTS-NOT: quant.
// OPTS: return
func.func @excluded(%x: tensor<1x4x4x2xf32> loc("input")) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<[[[[0.5, -0.25]]], [[[0.3, 2.0]]]]> : tensor<2x1x1x2xf32> loc("conv2.weight")
  %b = arith.constant dense<[0.1, -0.1]> : tensor<2xf32>
  %xo = qnt.observe %x config <kind = min_max> state <batches = 1, min = [-6.4], max = [6.35]> {name = "input"} : tensor<1x4x4x2xf32>
  %wo = qnt.observe %w config <kind = per_channel_min_max, dtype = qint8, qscheme = symmetric, ch_axis = 0> {name = "conv2.weight"} : tensor<2x1x1x2xf32>
  %c = qnt.conv2d %xo, %wo bias(%b) {activation = #qnt<activation relu>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32> loc("conv2")
  %co = qnt.observe %c config <kind = min_max> state <batches = 1, min = [0.0], max = [25.5]> {name = "conv2"} : tensor<1x4x4x2xf32>
  return %co : tensor<1x4x4x2xf32>
}

// -----

// A QDQ model: no observer to fold, its fake_quants are quantized.
// CHECK-LABEL: func.func @qdq
// CHECK: quant.qcast %{{.*}} to tensor<4x!quant.uniform<u8:f32, 5.000000e-02:128>>
// CHECK-NOT: qnt.fake_quant
func.func @qdq(%x: tensor<4xf32>) -> tensor<4xf32> {
  %xq = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> {name = "input"} : tensor<4xf32>
  %r = tosa.clamp %xq {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %rq = qnt.fake_quant %r to !quant.uniform<u8:f32, 0.05:0> {name = "relu"} : tensor<4xf32>
  return %rq : tensor<4xf32>
}
