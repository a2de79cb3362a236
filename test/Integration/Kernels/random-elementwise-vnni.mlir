// The element-wise int8 ops of random-elementwise.mlir compiled for AVX-512
// (16-lane gathers in zmm registers), JIT and ahead of time, where the
// machine running the tests has AVX-512 VNNI.
// REQUIRES: avx512-vnni
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_elementwise.py %t 60 2026
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 60 --prefix=elementwise jit-avx512-vnni aot-vnni | FileCheck %s
// CHECK: jit-avx512-vnni: 60 of 60 models bit-identical to the int8 reference
// CHECK: aot-vnni: 60 of 60 models bit-identical to the int8 reference
