// amx-int8's tile kernel (ConvTile.cpp): which layers it takes (input
// channels per group a multiple of 64; not depthwise; 16 or more virtual
// pixels per image), how it reads their input, and that it emits tdpbusd
// on 16x64-byte tiles (amx.tile_muli, lhs zero-extended) with 2x2 or 1x2
// accumulator tiles; other layers keep the zmm kernels.
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=amx-int8 --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=amx-int8 2>/dev/null | FileCheck %s

!u8 = !quant.uniform<u8:f32, 0.5:5>
!o8 = !quant.uniform<u8:f32, 0.125:3>
!w = !quant.uniform<i8:f32, 0.25>

// REMARK: remark: int8 kernel: amx-int8: tdpbusd tiles, 32 pixels x 32 channels per step (2x2 accumulator tiles), input read in place, zmm requantization
// CHECK-LABEL: func.func @pointwise
// The accumulators start at the compensation: row stride 0.
// CHECK-COUNT-4: amx.tile_load {{%.*}}[{{%.*}}], %c0{{(_[0-9]+)?}} : memref<64xi32> into !amx.tile<16x16xi32>
// CHECK: scf.for
// CHECK-COUNT-4: amx.tile_load {{.*}} into !amx.tile<16x64xi8>
// CHECK-COUNT-4: amx.tile_muli {{%.*}} zext, {{%.*}}, {{%.*}} : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// CHECK-COUNT-4: amx.tile_store
func.func @pointwise(%x: tensor<1x4x8x64x!u8>) -> tensor<1x4x8x64x!o8> {
  %wr = arith.constant dense<3> : tensor<64x1x1x64xi8>
  %w = quant.scast %wr : tensor<64x1x1x64xi8> to tensor<64x1x1x64x!w>
  %y = qnt.conv2d %x, %w {activation = #qnt<activation relu>} : (tensor<1x4x8x64x!u8>, tensor<64x1x1x64x!w>) -> tensor<1x4x8x64x!o8>
  return %y : tensor<1x4x8x64x!o8>
}

// -----

!u8 = !quant.uniform<u8:f32, 0.5:5>
!o8 = !quant.uniform<u8:f32, 0.125:3>
!w = !quant.uniform<i8:f32, 0.25>

// REMARK: remark: int8 kernel: amx-int8: tdpbusd tiles, 16 pixels x 32 channels per step (1x2 accumulator tiles), padded input copy, zmm requantization
// CHECK-LABEL: func.func @padded
// CHECK-COUNT-2: amx.tile_load {{.*}} into !amx.tile<16x16xi32>
// CHECK: scf.for
func.func @padded(%x: tensor<1x4x4x128x!u8>) -> tensor<1x4x4x40x!o8> {
  %wr = arith.constant dense<-2> : tensor<40x3x3x128xi8>
  %w = quant.scast %wr : tensor<40x3x3x128xi8> to tensor<40x3x3x128x!w>
  %y = qnt.conv2d %x, %w {activation = #qnt<activation none>, pad = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x128x!u8>, tensor<40x3x3x128x!w>) -> tensor<1x4x4x40x!o8>
  return %y : tensor<1x4x4x40x!o8>
}

// -----

!u8 = !quant.uniform<u8:f32, 0.5:5>
!o8 = !quant.uniform<u8:f32, 0.125:3>
!w = !quant.uniform<i8:f32, 0.25>

// REMARK: remark: int8 kernel: amx-int8: tdpbusd tiles, 32 pixels x 32 channels per step (2x2 accumulator tiles), padded input copy split into 4 stride phases, zmm requantization
// CHECK-LABEL: func.func @strided
// CHECK: amx.tile_muli
func.func @strided(%x: tensor<1x16x16x64x!u8>) -> tensor<1x8x8x64x!o8> {
  %wr = arith.constant dense<1> : tensor<64x3x3x64xi8>
  %w = quant.scast %wr : tensor<64x3x3x64xi8> to tensor<64x3x3x64x!w>
  %y = qnt.conv2d %x, %w {activation = #qnt<activation none>, pad = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x16x64x!u8>, tensor<64x3x3x64x!w>) -> tensor<1x8x8x64x!o8>
  return %y : tensor<1x8x8x64x!o8>
}

// -----

!u8 = !quant.uniform<u8:f32, 0.5:5>
!o8 = !quant.uniform<u8:f32, 0.125:3>
!w = !quant.uniform<i8:f32, 0.25>

// 48 input channels: not whole tile rows, the zmm kernel.
// REMARK: remark: int8 kernel: amx-int8: vpdpbusd zmm
// CHECK-LABEL: func.func @narrow
// CHECK-NOT: amx.
// CHECK: return
func.func @narrow(%x: tensor<1x4x8x48x!u8>) -> tensor<1x4x8x64x!o8> {
  %wr = arith.constant dense<3> : tensor<64x1x1x48xi8>
  %w = quant.scast %wr : tensor<64x1x1x48xi8> to tensor<64x1x1x48x!w>
  %y = qnt.conv2d %x, %w {activation = #qnt<activation relu>} : (tensor<1x4x8x48x!u8>, tensor<64x1x1x48x!w>) -> tensor<1x4x8x64x!o8>
  return %y : tensor<1x4x8x64x!o8>
}
