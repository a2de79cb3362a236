// qnt.matmul of two activations (Matmul.cpp): the remark naming the kernel
// each instruction set's family picks, and the kernel's key vector ops.
// IR (stdout) and remarks (stderr) are checked separately: the streams
// interleave unpredictably.
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=avx512-vnni 2>/dev/null | FileCheck %s --check-prefix=ZMM
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=avx512-vnni --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZMM-REMARK
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=avx-vnni 2>/dev/null | FileCheck %s --check-prefix=YMM
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=avx-vnni --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=YMM-REMARK
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=avx2 2>/dev/null | FileCheck %s --check-prefix=AVX2
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=avx2 --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX2-REMARK
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=neon-dot 2>/dev/null | FileCheck %s --check-prefix=SDOT
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=neon-dot --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=SDOT-REMARK
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=neon-i8mm --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=I8MM-REMARK
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=generic 2>/dev/null | FileCheck %s --check-prefix=GENERIC
// RUN: quant-opt %s -split-input-file --qnt-lower-quantized=isa=generic --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=GENERIC-REMARK
// Numerics: test/Integration/Kernels/random-matmuls*.mlir (bit-identical to
// the int8 reference).

// A 7-bit lhs keeps avx2's 16-bit pair sums within int16 (vpmaddubsw).
// Both operands are packed at run time: the lhs rows to a stride of 32
// bytes (rowterm = -zb' * rowsum: the rhs zero point -3 is not 0), the rhs
// in panels of W columns x quads of K (W = 16 on zmm, else 8).
// ZMM-REMARK: remark: int8 kernel: matmul: avx512-vnni: vpdpbusd zmm, 6 rows x 64 columns, both operands packed at run time
// YMM-REMARK: remark: int8 kernel: matmul: avx-vnni: vpdpbusd ymm, 4 rows x 16 columns, both operands packed at run time
// AVX2-REMARK: remark: int8 kernel: matmul: avx2: vpmaddubsw + vpmaddwd (every 16-bit pair sum is provably within int16), 4 rows x 16 columns, both operands packed at run time
// SDOT-REMARK: remark: int8 kernel: matmul: neon-dot: sdot, 4 rows x 16 columns, both operands packed at run time
// I8MM-REMARK: remark: int8 kernel: matmul: neon-i8mm: exact 32-bit vector path, 4 rows x 16 columns, both operands packed at run time
// GENERIC-REMARK: remark: int8 kernel: matmul: generic: exact 32-bit vector path, 4 rows x 16 columns, both operands packed at run time
// ZMM-LABEL: func.func @matmul_7bit
// ZMM: memref.alloc() {alignment = 64 : i64} : memref<2x5x32xi8>
// ZMM: memref.alloc() {alignment = 64 : i64} : memref<2x2x2x64xi8>
// ZMM: memref.alloc() {alignment = 64 : i64} : memref<2x32xi32>
// ZMM: memref.alloc() {alignment = 64 : i64} : memref<2x5xi32>
// ZMM: scf.parallel
// ZMM: vector.reduction <add>
// ZMM: vector.shuffle {{.*}} [0, 16, 1, 17, 2, 18
// The kernel: 6 rows x 2 vectors (the 20 columns) = 12 accumulators, one
// dword broadcast per row feeding 2 vpdpbusd, vcvtps2dq rounding.
// ZMM: scf.parallel
// ZMM: scf.for {{.*}} iter_args({{.*}}) -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// ZMM-COUNT-12: qnt.pure_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// ZMM: qnt.pure_intrinsic "llvm.x86.avx512.mask.cvtps2dq.512"
// YMM-LABEL: func.func @matmul_7bit
// YMM: memref.alloc() {alignment = 64 : i64} : memref<2x3x2x32xi8>
// YMM: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>)
// YMM-COUNT-8: qnt.pure_intrinsic "llvm.x86.avx512.vpdpbusd.256"
// YMM: math.roundeven
// AVX2-LABEL: func.func @matmul_7bit
// AVX2: memref.alloc() {alignment = 64 : i64} : memref<2x3x2x32xi8>
// AVX2: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>)
// AVX2: qnt.pure_intrinsic "llvm.x86.avx2.pmadd.ub.sw"
// AVX2: qnt.pure_intrinsic "llvm.x86.avx2.pmadd.wd"
// SDOT-LABEL: func.func @matmul_7bit
// SDOT: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>)
// SDOT: qnt.pure_intrinsic "llvm.aarch64.neon.sdot.v4i32.v16i8"({{.*}}) : (vector<4xi32>, vector<16xi8>, vector<16xi8>) -> vector<4xi32>
// SDOT: qnt.pure_intrinsic "llvm.aarch64.neon.sdot.v4i32.v16i8"
// The exact path: the rhs as [K / 4][4][W] columns, each lhs byte widened
// and broadcast.
// GENERIC-LABEL: func.func @matmul_7bit
// GENERIC: memref.alloc() {alignment = 64 : i64} : memref<2x3x2x32xi8>
// GENERIC-NOT: qnt.pure_intrinsic
// GENERIC: arith.extui {{.*}} : i8 to i32
// GENERIC: arith.muli {{.*}} : vector<8xi32>
// GENERIC-NOT: qnt.pure_intrinsic
// GENERIC: return
func.func @matmul_7bit(%a: tensor<2x5x8x!quant.uniform<u8<0:127>:f32, 0.05:10>>, %b: tensor<2x8x20x!quant.uniform<i8:f32, 0.04:-3>>) -> tensor<2x5x20x!quant.uniform<u8:f32, 0.1:140>> {
  %0 = qnt.matmul %a, %b : (tensor<2x5x8x!quant.uniform<u8<0:127>:f32, 0.05:10>>, tensor<2x8x20x!quant.uniform<i8:f32, 0.04:-3>>) -> tensor<2x5x20x!quant.uniform<u8:f32, 0.1:140>>
  return %0 : tensor<2x5x20x!quant.uniform<u8:f32, 0.1:140>>
}

// -----

// Full-range u8 x u8: vpmaddubsw could saturate, so avx2 widens both
// operands to 16 bits while packing (lhs zero-extended, rhs sign-extended
// after its move into s8) and runs vpmaddwd.
// ZMM-REMARK: remark: int8 kernel: matmul: avx512-vnni: vpdpbusd zmm, 6 rows x 64 columns, both operands packed at run time
// YMM-REMARK: remark: int8 kernel: matmul: avx-vnni: vpdpbusd ymm, 4 rows x 16 columns, both operands packed at run time
// AVX2-REMARK: remark: int8 kernel: matmul: avx2: vpmaddwd on operands widened to 16 bits (vpmaddubsw could saturate 16-bit pair sums for these operand ranges), 4 rows x 16 columns, both operands packed at run time
// SDOT-REMARK: remark: int8 kernel: matmul: neon-dot: sdot, 4 rows x 16 columns, both operands packed at run time
// I8MM-REMARK: remark: int8 kernel: matmul: neon-i8mm: exact 32-bit vector path, 4 rows x 16 columns, both operands packed at run time
// GENERIC-REMARK: remark: int8 kernel: matmul: generic: exact 32-bit vector path, 4 rows x 16 columns, both operands packed at run time
// AVX2-LABEL: func.func @matmul_fullrange
// AVX2: memref.alloc() {alignment = 64 : i64} : memref<1x3x32xi16>
// AVX2: memref.alloc() {alignment = 64 : i64} : memref<1x1x2x32xi16>
// AVX2: arith.extui {{.*}} : vector<32xi8> to vector<32xi16>
// AVX2: arith.extsi {{.*}} : vector<16xi8> to vector<16xi16>
// AVX2: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>)
// AVX2-NOT: pmadd.ub.sw
// AVX2: qnt.pure_intrinsic "llvm.x86.avx2.pmadd.wd"
// AVX2-NOT: pmadd.ub.sw
// AVX2: return
func.func @matmul_fullrange(%a: tensor<1x3x6x!quant.uniform<u8:f32, 0.05:128>>, %b: tensor<1x6x7x!quant.uniform<u8:f32, 0.04:120>>) -> tensor<1x3x7x!quant.uniform<i8:f32, 0.1:-4>> {
  %0 = qnt.matmul %a, %b : (tensor<1x3x6x!quant.uniform<u8:f32, 0.05:128>>, tensor<1x6x7x!quant.uniform<u8:f32, 0.04:120>>) -> tensor<1x3x7x!quant.uniform<i8:f32, 0.1:-4>>
  return %0 : tensor<1x3x7x!quant.uniform<i8:f32, 0.1:-4>>
}
