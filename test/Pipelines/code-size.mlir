// Code size of the float pipeline does not grow with what a model repeats:
// a grouped convolution is one loop over the groups around one register-
// tiled convolution body, so 8 and 32 groups of 4 -> 4 channels emit the
// same 32 fused multiply-adds (a 8 pixel x 4 channel tile, 4 input
// channels per step), not one body per group.
//
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-float-to-llvm)' | FileCheck %s

// CHECK-LABEL: llvm.func @groups8(
// CHECK-COUNT-32: llvm.intr.fmuladd
// CHECK-NOT: llvm.intr.fmuladd
func.func @groups8(%x: tensor<1x8x8x32xf32>, %w: tensor<32x3x3x4xf32>, %b: tensor<32xf32>) -> tensor<1x8x8x32xf32> {
  %0 = qnt.conv2d %x, %w bias(%b) {groups = 8, pad = array<i64: 1, 1, 1, 1>, activation = #qnt<activation relu>} : (tensor<1x8x8x32xf32>, tensor<32x3x3x4xf32>, tensor<32xf32>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}

// -----

// CHECK-LABEL: llvm.func @groups32(
// CHECK-COUNT-32: llvm.intr.fmuladd
// CHECK-NOT: llvm.intr.fmuladd
func.func @groups32(%x: tensor<1x8x8x128xf32>, %w: tensor<128x3x3x4xf32>, %b: tensor<128xf32>) -> tensor<1x8x8x128xf32> {
  %0 = qnt.conv2d %x, %w bias(%b) {groups = 32, pad = array<i64: 1, 1, 1, 1>, activation = #qnt<activation relu>} : (tensor<1x8x8x128xf32>, tensor<128x3x3x4xf32>, tensor<128xf32>) -> tensor<1x8x8x128xf32>
  return %0 : tensor<1x8x8x128xf32>
}
