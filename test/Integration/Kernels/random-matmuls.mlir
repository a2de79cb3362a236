// qnt.matmul (two activations, both packed at run time) against the int8
// reference on 40 random configurations (Inputs/random_matmuls.py: batch
// 1-3, M 1-20, K 1-80, N 1-80 and attention-sized ones; 7-bit operands or
// random u8 / i8 types with narrowed ranges): JIT-compiled for the portable
// and AVX2 code and ahead of time through the C driver. AVX-512 and AArch64:
// random-matmuls-*.mlir.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_matmuls.py %t 40 31
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 40 --prefix=matmul jit-generic jit-avx2 aot-avx2 aot | FileCheck %s
// CHECK: jit-generic: 40 of 40 models bit-identical to the int8 reference
// CHECK: jit-avx2: 40 of 40 models bit-identical to the int8 reference
// CHECK: aot-avx2: 40 of 40 models bit-identical to the int8 reference
// CHECK: aot: 40 of 40 models bit-identical to the int8 reference
//
// avx2 takes vpmaddubsw where the operand ranges prove that its 16-bit pair
// sums cannot saturate (7-bit operands), vpmaddwd on operands widened to
// 16 bits otherwise.
// RUN: grep "matmul1 .* 7-bit" %t/manifest.txt
// RUN: quant-opt %t/matmul1.mlir --qnt-lower-quantized=isa=avx2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAST
// FAST: remark: int8 kernel: matmul: avx2: vpmaddubsw + vpmaddwd (every 16-bit pair sum is provably within int16), 4 rows x 16 columns, both operands packed at run time
// RUN: quant-opt %t/matmul0.mlir --qnt-lower-quantized=isa=avx2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXACT
// EXACT: remark: int8 kernel: matmul: avx2: vpmaddwd on operands widened to 16 bits (vpmaddubsw could saturate 16-bit pair sums for these operand ranges), 4 rows x 16 columns
// RUN: quant-opt %t/matmul0.mlir --qnt-lower-quantized=isa=generic -o /dev/null 2>&1 | FileCheck %s --check-prefix=GENERIC
// GENERIC: remark: int8 kernel: matmul: generic: exact 32-bit vector path, 4 rows x 16 columns
