// IR (stdout) and remarks (stderr) are checked separately: the streams
// interleave unpredictably.
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=avx2 2>/dev/null | FileCheck %s --check-prefix=AVX2
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=avx2 --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=avx512-vnni 2>/dev/null | FileCheck %s --check-prefix=VNNIISA
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=avx512-vnni --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=VNNI-REMARK
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=neon-dot 2>/dev/null | FileCheck %s --check-prefix=SDOT
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=neon-i8mm 2>/dev/null | FileCheck %s --check-prefix=I8MM
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=generic 2>/dev/null | FileCheck %s --check-prefix=GENERIC
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=generic --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=GENERIC-REMARK
// Numerics: test/Integration/Kernels (bit-identical to the int8 reference).
//
// By hand: input scale 0.5 zp 5, filter scales {0.25, 0.5}, output 0.125 zp 3.
//   multiplier = 0.5 * 0.25 / 0.125 = 1, 0.5 * 0.5 / 0.125 = 2
//   comp = bias - zp * sum(w) = 10 - 5 * 3 = -5, 20 - 5 * 7 = -15
//   relu bounds: [max(0, zp), 255] - zp = [0, 252]
// Packed weights: 16 output channels x 4 input channels per 64 bytes, the
// zmm kernel's layout (and tables), whose 32-byte halves are the ymm dot
// operands: a dispatching object stores them once for every x86 variant.
// REMARK: remark: int8 kernel: avx2: vpmaddubsw + vpmaddwd (every 16-bit pair sum is provably within int16)
// AVX2-DAG: memref.global "private" constant @__qnt_mult_0 : memref<1x16xf32> = dense<{{\[\[}}1.000000e+00, 2.000000e+00, 1.000000e+00
// AVX2-DAG: memref.global "private" constant @__qnt_comp_0 : memref<1x16xi32> = dense<{{\[\[}}-5, -15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]>
// AVX2-DAG: memref.global "private" constant @__qnt_weights_0 : memref<64xi8> = dense<[1, 2, 0, 0, 3, 4, 0, 0, 0,
// The 8-lane x86 kernels: scf.parallel over (chunk of output rows, group,
// 64-channel block), then the block's register blocks of up to 16
// channels (here one, of the 2 channels), then the chunk's rows (image and
// row from the flat row index); the row's 3 pixels are one register block
// of 3 (3 accumulators carried through the reduction loops), not 3 blocks
// of 1.
// AVX2: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = {{.*}} {
// AVX2: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// AVX2: arith.divui %[[ROW]]
// AVX2: arith.remui %[[ROW]]
// AVX2: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xi32>, vector<8xi32>, vector<8xi32>)
// AVX2: qnt.pure_intrinsic "llvm.x86.avx2.pmadd.ub.sw"
// AVX2: qnt.pure_intrinsic "llvm.x86.avx2.pmadd.wd"
// AVX2: arith.constant dense<[true, true, false, false, false, false, false, false]> : vector<8xi1>
// AVX2: arith.constant dense<0.000000e+00> : vector<8xf32>
// AVX2: arith.maximumf {{.*}} fastmath<nnan>
// AVX2: arith.constant dense<2.520000e+02> : vector<8xf32>
// AVX2: math.roundeven
// AVX2: vector.maskedstore
// avx512-vnni: 16 channels per zmm, pixels flat across rows, packed weights
// [KH][KW][Q][vectors][16][4] (64 bytes per 16 channels), the input copied
// with its 2 channels padded to 4, blocks of pixels in an scf.parallel.
// VNNI-REMARK: remark: int8 kernel: avx512-vnni: vpdpbusd zmm, 12 pixels x 16 channels, padded input copy
// VNNIISA-DAG: @__qnt_comp_0 : memref<1x16xi32> = dense<{{\[\[}}-5, -15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]>
// VNNIISA-DAG: @__qnt_weights_0 : memref<64xi8> = dense<[1, 2, 0, 0, 3, 4, 0, 0, 0,
// VNNIISA: memref.alloc() : memref<1x1x3x4xi8>
// VNNIISA: scf.parallel
// VNNIISA: qnt.pure_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// VNNIISA: qnt.pure_intrinsic "llvm.x86.avx512.mask.cvtps2dq.512"
// VNNIISA: vector.create_mask %{{.*}} : vector<16xi1>
// VNNIISA: vector.maskedstore
// The s8 domain of sdot: the zero point becomes 5 - 128 = -123, so
// comp = 10 + 123 * 3 = 379, 20 + 123 * 7 = 881.
// SDOT: @__qnt_comp_0 : memref<1x8xi32> = dense<{{\[\[}}379, 881, 0
// SDOT: qnt.pure_intrinsic "llvm.aarch64.neon.sdot.v4i32.v16i8"
// I8MM: qnt.pure_intrinsic "llvm.aarch64.neon.smmla.v4i32.v16i8"
// GENERIC-REMARK: remark: int8 kernel: generic: exact 32-bit vector path
// GENERIC-NOT: qnt.pure_intrinsic
func.func @conv(%x: tensor<1x1x3x2x!quant.uniform<u8:f32, 0.5:5>>) -> tensor<1x1x3x2x!quant.uniform<u8:f32, 0.125:3>> {
  %wr = arith.constant dense<[[[[1, 2]]], [[[3, 4]]]]> : tensor<2x1x1x2xi8>
  %w = quant.scast %wr : tensor<2x1x1x2xi8> to tensor<2x1x1x2x!quant.uniform<i8:f32:0, {0.25, 0.5}>>
  %br = arith.constant dense<[10, 20]> : tensor<2xi32>
  %b = quant.scast %br : tensor<2xi32> to tensor<2x!quant.uniform<i32:f32:0, {0.125, 0.25}>>
  %y = qnt.conv2d %x, %w bias(%b) {activation = #qnt<activation relu>} : (tensor<1x1x3x2x!quant.uniform<u8:f32, 0.5:5>>, tensor<2x1x1x2x!quant.uniform<i8:f32:0, {0.25, 0.5}>>, tensor<2x!quant.uniform<i32:f32:0, {0.125, 0.25}>>) -> tensor<1x1x3x2x!quant.uniform<u8:f32, 0.125:3>>
  return %y : tensor<1x1x3x2x!quant.uniform<u8:f32, 0.125:3>>
}

// -----

// Full-range u8 input and weights up to 127: a pair could reach
// 2 * 255 * 127 > 32767, so avx2 widens the input to 16 bits in the padded
// copy and multiplies 16-bit pairs with vpmaddwd.
// REMARK: remark: int8 kernel: avx2: vpmaddwd on inputs widened to 16 bits (vpmaddubsw could saturate 16-bit pair sums for this input range and weights)
// The same bytes as the other x86 kernels, sign-extended to 16-bit pairs
// in the kernel: output channel 0's (127, 127).
// AVX2: memref.global "private" constant @__qnt_weights_0 : memref<64xi8> = dense<[127, 127, 0, 0,
// AVX2-LABEL: func.func @saturating
// AVX2-NOT: pmadd.ub.sw
// AVX2: memref.alloc() : memref<1x1x1x4xi16>
// AVX2-NOT: pmadd.ub.sw
// AVX2: qnt.pure_intrinsic "llvm.x86.avx2.pmadd.wd"{{.*}}vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// AVX2-NOT: pmadd.ub.sw
// AVX2-LABEL: func.func @depthwise
func.func @saturating(%x: tensor<1x1x1x2x!quant.uniform<u8:f32, 0.5:5>>) -> tensor<1x1x1x1x!quant.uniform<u8:f32, 0.125>> {
  %wr = arith.constant dense<[[[[127, 127]]]]> : tensor<1x1x1x2xi8>
  %w = quant.scast %wr : tensor<1x1x1x2xi8> to tensor<1x1x1x2x!quant.uniform<i8:f32, 0.25>>
  %y = qnt.conv2d %x, %w : (tensor<1x1x1x2x!quant.uniform<u8:f32, 0.5:5>>, tensor<1x1x1x2x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x1x1x1x!quant.uniform<u8:f32, 0.125>>
  return %y : tensor<1x1x1x1x!quant.uniform<u8:f32, 0.125>>
}

// -----

// Depthwise (one output channel per input channel): channels in vectors.
// REMARK: remark: int8 kernel: depthwise: 8 channels per vector, int32 multiply-add
// VNNI-REMARK: remark: int8 kernel: depthwise: 16 channels per zmm, vpdpwssd
// VNNIISA: @__qnt_weights_{{[0-9]+}} : memref<144xi32>
// VNNIISA: qnt.pure_intrinsic "llvm.x86.avx512.vpdpwssd.512"
// AVX2-DAG: @__qnt_weights_0 : memref<3x3x8xi8>
// After the padded copy (and the weights' get_global), the kernel:
// parallel over (image, output row).
// AVX2: scf.parallel (%{{.*}}, %{{.*}}) = {{.*}} {
// AVX2: arith.muli {{.*}} : vector<8xi32>
func.func @depthwise(%x: tensor<1x4x4x3x!quant.uniform<u8:f32, 0.5:5>>) -> tensor<1x2x2x3x!quant.uniform<u8:f32, 0.125>> {
  %wr = arith.constant dense<1> : tensor<3x3x3x1xi8>
  %w = quant.scast %wr : tensor<3x3x3x1xi8> to tensor<3x3x3x1x!quant.uniform<i8:f32, 0.25>>
  %y = qnt.conv2d %x, %w {groups = 3 : i64} : (tensor<1x4x4x3x!quant.uniform<u8:f32, 0.5:5>>, tensor<3x3x3x1x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x2x2x3x!quant.uniform<u8:f32, 0.125>>
  return %y : tensor<1x2x2x3x!quant.uniform<u8:f32, 0.125>>
}

// -----

// 16 output channels on avx2's vpmaddubsw path: register blocks of 4
// pixels x 2 8-channel blocks (8 accumulators), two weight loads (the
// halves of a 64-byte row) and one broadcast per pixel per channel quad,
// each broadcast feeding both blocks.
// AVX2-LABEL: func.func @two_blocks
// AVX2: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>)
// AVX2: vector.load {{.*}} : memref<64xi8>, vector<32xi8>
// AVX2: vector.load {{.*}} : memref<64xi8>, vector<32xi8>
// AVX2: vector.broadcast {{.*}} : i32 to vector<8xi32>
// AVX2: qnt.pure_intrinsic "llvm.x86.avx2.pmadd.ub.sw"
// AVX2: qnt.pure_intrinsic "llvm.x86.avx2.pmadd.ub.sw"
// AVX2: vector.broadcast {{.*}} : i32 to vector<8xi32>
func.func @two_blocks(%x: tensor<1x1x4x4x!quant.uniform<u8:f32, 0.5:5>>) -> tensor<1x1x4x16x!quant.uniform<u8:f32, 0.125:3>> {
  %wr = arith.constant dense<3> : tensor<16x1x1x4xi8>
  %w = quant.scast %wr : tensor<16x1x1x4xi8> to tensor<16x1x1x4x!quant.uniform<i8:f32, 0.25>>
  %y = qnt.conv2d %x, %w : (tensor<1x1x4x4x!quant.uniform<u8:f32, 0.5:5>>, tensor<16x1x1x4x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x1x4x16x!quant.uniform<u8:f32, 0.125:3>>
  return %y : tensor<1x1x4x16x!quant.uniform<u8:f32, 0.125:3>>
}
