// qnt.matmul on AVX-512 VNNI (vpdpbusd zmm, 6 rows x 64 columns) against
// the int8 reference, JIT and ahead of time, where the machine running the
// tests has it.
// REQUIRES: avx512-vnni
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_matmuls.py %t 40 32
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 40 --prefix=matmul jit-avx512-vnni aot-vnni | FileCheck %s
// CHECK: jit-avx512-vnni: 40 of 40 models bit-identical to the int8 reference
// CHECK: aot-vnni: 40 of 40 models bit-identical to the int8 reference
// RUN: quant-opt %t/matmul0.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: int8 kernel: matmul: avx512-vnni: vpdpbusd zmm, 6 rows x 64 columns, both operands packed at run time
