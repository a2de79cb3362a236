// The AVX-512 VNNI kernels (vpdpbusd) against the int8 reference, where the
// machine running the tests has AVX-512 VNNI.
// REQUIRES: avx512-vnni
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_convs.py %t 50 2024
// RUN: %python %S/Inputs/check_kernels.py quant-run %t 50 avx512-vnni | FileCheck %s
// CHECK: avx512-vnni: 50 of 50 models bit-identical to the int8 reference
