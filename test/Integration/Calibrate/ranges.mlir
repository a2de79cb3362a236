// Calibration runs the compiled model (conv, batch norm, relu, add): observed ranges equal numpy's min/max
// of the same data and the same computation; profiles from split runs merge
// to the single run's result in either order.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_data.py %t
// RUN: quant-calibrate %s --data %t/data.npy --activation-observer=min_max --batch-size 8 --quiet -o %t/cal.mlir --save-profile %t/full.json
// RUN: %python %S/Inputs/check_ranges.py %t/full.json %t/expected.json | FileCheck %s --check-prefix=RANGES
// RANGES: input: {{.*}} exact
// RANGES: relu: {{.*}} ok
// RANGES: add: {{.*}} ok
// RANGES: conv.weight: {{.*}} exact
// RANGES: RANGES MATCH
//
// The calibrated IR keeps every observer's state and parses again.
// RUN: FileCheck %s --check-prefix=IR < %t/cal.mlir
// RUN: quant-opt %t/cal.mlir --qnt-fold-observers | FileCheck %s --check-prefix=FOLD
// IR: qnt.observe %{{.*}} config <kind = min_max> state <batches = 12, min = [{{.*}}], max = [{{.*}}]> {name = "input"}
// IR: qnt.observe %{{.*}} config <kind = per_channel_min_max, dtype = qint8, qscheme = symmetric, ch_axis = 0> state <batches = 1, min = [-0.25, 0.75], max = [0.5, 1.0]> {name = "conv.weight"}
// FOLD-COUNT-4: qnt.fake_quant
//
// Split calibration: two runs, merged in both orders, equal the single run.
// RUN: quant-calibrate %s --data %t/part1.npy --activation-observer=min_max --batch-size 8 --quiet -o %t/p1.mlir --save-profile %t/p1.json
// RUN: quant-calibrate %s --data %t/part2.npy --activation-observer=min_max --batch-size 8 --quiet -o %t/p2.mlir --save-profile %t/p2.json
// RUN: quant-calibrate --merge %t/p1.json %t/p2.json -o %t/m12.json --quiet
// RUN: quant-calibrate --merge %t/p2.json %t/p1.json -o %t/m21.json --quiet
// RUN: cmp %t/m12.json %t/m21.json
// RUN: %python %S/Inputs/check_ranges.py %t/m12.json %t/expected.json | FileCheck %s --check-prefix=RANGES
//
// Histogram observers: merging in either order gives the same profile.
// RUN: quant-calibrate %s --data %t/part1.npy --quiet -o %t/h1.mlir --save-profile %t/h1.json
// RUN: quant-calibrate %s --data %t/part2.npy --quiet -o %t/h2.mlir --save-profile %t/h2.json
// RUN: quant-calibrate --merge %t/h1.json %t/h2.json -o %t/h12.json --quiet
// RUN: quant-calibrate --merge %t/h2.json %t/h1.json -o %t/h21.json --quiet
// RUN: cmp %t/h12.json %t/h21.json
//
// A profile reloads into the model: same states as the calibration that made it.
// RUN: quant-calibrate %s --activation-observer=min_max --profile %t/full.json --quiet -o %t/reloaded.mlir
// RUN: cmp %t/cal.mlir %t/reloaded.mlir
//
// reduce_range (target=x86: 7-bit activations) changes the parameters made
// from the statistics, not the statistics: a profile calibrated for x86
// merges with the generic one and loads into the generic model, whose states
// are then the generic calibration's own.
// RUN: quant-calibrate %s --target x86 --data %t/data.npy --activation-observer=min_max --batch-size 8 --quiet -o %t/x86.mlir --save-profile %t/x86.json
// RUN: FileCheck %s --check-prefix=X86 < %t/x86.mlir
// X86: config <kind = min_max, reduce_range = true> state <batches = 12,
// RUN: quant-calibrate --merge %t/full.json %t/x86.json -o %t/mixed.json --quiet
// RUN: quant-calibrate %s --activation-observer=min_max --profile %t/x86.json --quiet -o %t/from-x86.mlir
// RUN: cmp %t/cal.mlir %t/from-x86.mlir

func.func @model(%x: tensor<1x4x4x2xf32> loc("input")) -> tensor<1x4x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<[[[[0.5, -0.25]]], [[[1.0, 0.75]]]]> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32> loc("conv.weight")
  %b = "tosa.const"() <{values = dense<[0.1, -0.2]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32> loc("conv")
  %gamma = "tosa.const"() <{values = dense<[1.5, 0.5]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %beta = "tosa.const"() <{values = dense<[0.1, 0.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %mean = "tosa.const"() <{values = dense<[0.2, -0.1]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %var = "tosa.const"() <{values = dense<[4.0, 0.25]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %bn = qnt.batch_norm %c, %gamma, %beta, %mean, %var {epsilon = 1.0e-05 : f32} : tensor<1x4x4x2xf32>, tensor<2xf32> loc("bn")
  %r = tosa.clamp %bn {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> loc("relu")
  %a = tosa.add %r, %x : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> loc("add")
  return %a : tensor<1x4x4x2xf32>
}
