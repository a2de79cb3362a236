// The int8 data movement of random-movement.mlir compiled for AVX-512 VNNI,
// JIT and ahead of time, where the machine running the tests has it.
// REQUIRES: avx512-vnni
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_movement.py %t 60 2026
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 60 --prefix=movement jit-avx512-vnni aot-vnni | FileCheck %s
// CHECK: jit-avx512-vnni: 60 of 60 models bit-identical to the int8 reference
// CHECK: aot-vnni: 60 of 60 models bit-identical to the int8 reference
