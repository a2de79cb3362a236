// The prepare stage, quantc-prepare: qnt-fuse, then qnt-insert-observers,
// the IR of the two passes run one by one, with either pass's options;
// fuse=false and insert-observers=false leave out one of them (quant-calibrate
// observes a model as given; a QDQ model needs no observers).
//
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-prepare)' -o %t.stage.mlir
// RUN: quant-opt %s --split-input-file --qnt-fuse --qnt-insert-observers -o %t.passes.mlir
// RUN: diff %t.stage.mlir %t.passes.mlir
// RUN: FileCheck %s < %t.stage.mlir
//
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-prepare{activation-kind=min_max activation-dtype=qint8 activation-qscheme=symmetric reduce-range=true weight-kind=min_max weight-qscheme=affine})' -o %t.opts-stage.mlir
// RUN: quant-opt %s --split-input-file --qnt-fuse --qnt-insert-observers="activation-kind=min_max activation-dtype=qint8 activation-qscheme=symmetric reduce-range=true weight-kind=min_max weight-qscheme=affine" -o %t.opts-passes.mlir
// RUN: diff %t.opts-stage.mlir %t.opts-passes.mlir
// RUN: FileCheck %s --check-prefix=OPTS < %t.opts-stage.mlir
//
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-prepare{target=x86})' -o %t.x86-stage.mlir
// RUN: quant-opt %s --split-input-file --qnt-fuse --qnt-insert-observers="target=x86" -o %t.x86-passes.mlir
// RUN: diff %t.x86-stage.mlir %t.x86-passes.mlir
//
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-prepare{fuse=false})' -o %t.observe-stage.mlir
// RUN: quant-opt %s --split-input-file --qnt-insert-observers -o %t.observe-pass.mlir
// RUN: diff %t.observe-stage.mlir %t.observe-pass.mlir
//
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-prepare{insert-observers=false})' -o %t.fuse-stage.mlir
// RUN: quant-opt %s --split-input-file --qnt-fuse -o %t.fuse-pass.mlir
// RUN: diff %t.fuse-stage.mlir %t.fuse-pass.mlir
//
// equalize=true runs qnt-equalize between the two (on qnt-equalize's own
// test, whose pairs it rescales; its remarks dropped here).
// RUN: quant-opt %S/../Dialect/Qnt/equalize.mlir --split-input-file --pass-pipeline='builtin.module(quantc-prepare{equalize=true})' -o %t.equalize-stage.mlir 2>/dev/null
// RUN: quant-opt %S/../Dialect/Qnt/equalize.mlir --split-input-file --qnt-fuse --qnt-equalize --qnt-insert-observers -o %t.equalize-passes.mlir 2>/dev/null
// RUN: quant-opt %S/../Dialect/Qnt/equalize.mlir --split-input-file --qnt-fuse --qnt-insert-observers -o %t.unequalized.mlir
// RUN: diff %t.equalize-stage.mlir %t.equalize-passes.mlir
// RUN: not diff %t.equalize-stage.mlir %t.unequalized.mlir > /dev/null
//
// RUN: not quant-opt %s --pass-pipeline='builtin.module(quantc-prepare{activation-kind=minmax})' 2>&1 | FileCheck %s --check-prefix=BADKIND
// BADKIND: qnt-insert-observers: unknown observer kind 'minmax'

// conv -> bn -> relu is one fused float qnt.conv2d (the batch norm folded
// into its weight and bias), observed at its input, weight and output.
// CHECK-LABEL: func.func @conv_bn_relu
// CHECK: %[[XO:.*]] = qnt.observe %{{.*}} config <kind = histogram> {name = "input"}
// CHECK: %[[WO:.*]] = qnt.observe %{{.*}} config <kind = per_channel_min_max, dtype = qint8, qscheme = symmetric, ch_axis = 0> {name = "conv1.weight"}
// CHECK: %[[C:.*]] = qnt.conv2d %[[XO]], %[[WO]] bias(%{{.*}}) {activation = #qnt<activation relu>}
// CHECK-NEXT: %[[CO:.*]] = qnt.observe %[[C]] config <kind = histogram> {name = "relu1"}
// CHECK-NEXT: return %[[CO]]
// OPTS-LABEL: func.func @conv_bn_relu
// OPTS: qnt.observe %{{.*}} config <kind = min_max, dtype = qint8, qscheme = symmetric, reduce_range = true> {name = "input"}
// OPTS: qnt.observe %{{.*}} config <kind = min_max, dtype = qint8> {name = "conv1.weight"}
// OPTS: qnt.conv2d
// OPTS-NEXT: qnt.observe %{{.*}} config <kind = min_max, dtype = qint8, qscheme = symmetric, reduce_range = true> {name = "relu1"}
func.func @conv_bn_relu(%x: tensor<1x4x4x2xf32> loc("input")) -> tensor<1x4x4x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.5> : tensor<3x1x1x2xf32>}> : () -> tensor<3x1x1x2xf32> loc("conv1.weight")
  %b = "tosa.const"() <{values = dense<0.0> : tensor<3xf32>}> : () -> tensor<3xf32>
  %gamma = "tosa.const"() <{values = dense<[1.5, 0.5, 1.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %beta = "tosa.const"() <{values = dense<[0.1, 0.0, -0.1]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %mean = "tosa.const"() <{values = dense<[0.2, -0.1, 0.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %var = "tosa.const"() <{values = dense<[4.0, 0.25, 1.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32> loc("conv1")
  %bn = qnt.batch_norm %c, %gamma, %beta, %mean, %var : tensor<1x4x4x3xf32>, tensor<3xf32> loc("bn1")
  %r = tosa.clamp %bn {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> loc("relu1")
  return %r : tensor<1x4x4x3xf32>
}

// -----

// conv + add + relu is one fused float qnt.conv2d with a residual input,
// observed once, after the relu.
// CHECK-LABEL: func.func @residual
// CHECK: %[[XO:.*]] = qnt.observe %{{.*}} {name = "input"}
// CHECK: %[[C:.*]] = qnt.conv2d %[[XO]], %{{.*}} bias(%{{.*}}) residual(%[[XO]]) {activation = #qnt<activation relu6>}
// CHECK-NEXT: %[[CO:.*]] = qnt.observe %[[C]] config <kind = histogram> {name = "relu2"}
// CHECK-NEXT: return %[[CO]]
func.func @residual(%x: tensor<1x4x4x2xf32> loc("input")) -> tensor<1x4x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.5> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32> loc("conv2.weight")
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32> loc("conv2")
  %a = tosa.add %c, %x : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> loc("add2")
  %r = tosa.clamp %a {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> loc("relu2")
  return %r : tensor<1x4x4x2xf32>
}
