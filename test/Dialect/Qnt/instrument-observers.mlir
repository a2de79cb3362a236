// RUN: quant-opt %s -split-input-file -qnt-instrument-observers -verify-diagnostics | FileCheck %s

// Observers are numbered in walk order and become read-only runtime calls.
// CHECK-LABEL: func.func @two_observers
// CHECK-SAME: (%[[X:.*]]: tensor<1x4xf32>)
// CHECK: %[[ID0:.*]] = arith.constant 0 : i64
// CHECK: %[[U0:.*]] = tensor.cast %[[X]] : tensor<1x4xf32> to tensor<*xf32>
// CHECK: call @qnt_rt_observe(%[[ID0]], %[[U0]]) : (i64, tensor<*xf32>) -> ()
// CHECK: %[[ID1:.*]] = arith.constant 1 : i64
// CHECK: %[[U1:.*]] = tensor.cast %[[X]]
// CHECK: call @qnt_rt_observe(%[[ID1]], %[[U1]])
// CHECK: return %[[X]]
// CHECK-NOT: qnt.observe
// CHECK: func.func private @qnt_rt_observe(i64, tensor<*xf32> {bufferization.access = "read"}) attributes {llvm.emit_c_interface}
func.func @two_observers(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = qnt.observe %x config <kind = min_max> {name = "a"} : tensor<1x4xf32>
  %1 = qnt.observe %0 config <kind = histogram> {name = "b"} : tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}

// -----

// The runtime entry point's name is reserved.
// expected-error @+1 {{'qnt_rt_observe' is reserved for the calibration runtime}}
func.func private @qnt_rt_observe(f32)
func.func @clash(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = qnt.observe %x config <kind = min_max> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
