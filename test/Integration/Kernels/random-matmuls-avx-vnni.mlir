// qnt.matmul on AVX-VNNI (vpdpbusd ymm, 4 rows x 16 columns) against the
// int8 reference, JIT and ahead of time (the avx-vnni variant alone), where
// the machine running the tests has AVX-VNNI.
// REQUIRES: avx-vnni
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_matmuls.py %t 40 34
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 40 --prefix=matmul jit-avx-vnni aot-avx-vnni | FileCheck %s
// CHECK: jit-avx-vnni: 40 of 40 models bit-identical to the int8 reference
// CHECK: aot-avx-vnni: 40 of 40 models bit-identical to the int8 reference
// RUN: quant-opt %t/matmul0.mlir --qnt-lower-quantized=isa=avx-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: int8 kernel: matmul: avx-vnni: vpdpbusd ymm, 4 rows x 16 columns, both operands packed at run time
