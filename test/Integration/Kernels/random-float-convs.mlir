// The float convolution kernels (quantc-float-conv-kernels) on 30 random
// layers (1x1 and KxK, padding, strides, dilations, batch 2, channel tails,
// stems, depthwise 3x3 / 5x5 / 7x7, bias, residual, the four activations;
// grouped layers through the TOSA path) against float64 NumPy results,
// each output within the float32 rounding bound of its sum
// (random_float_convs.py): JIT, and ahead of time for the 512-bit and
// 256-bit x86 variants.
// REQUIRES: avx512-vnni
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_float_convs.py %t 30 2026
// RUN: %python %S/Inputs/check_float_convs.py %quantc_tools_dir %quantc_src_root %t 30 jit aot-avx512-vnni aot-avx2 | FileCheck %s
// CHECK: jit: 30 of 30 layers within the float32 bound
// CHECK: aot-avx512-vnni: 30 of 30 layers within the float32 bound
// CHECK: aot-avx2: 30 of 30 layers within the float32 bound
