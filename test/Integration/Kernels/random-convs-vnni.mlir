// The AVX-512 VNNI kernels (vpdpbusd) against the int8 reference, JIT and
// ahead of time, where the machine running the tests has AVX-512 VNNI.
// REQUIRES: avx512-vnni
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_convs.py %t 50 2024
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 50 jit-avx512-vnni aot-vnni | FileCheck %s
// CHECK: jit-avx512-vnni: 50 of 50 models bit-identical to the int8 reference
// CHECK: aot-vnni: 50 of 50 models bit-identical to the int8 reference
