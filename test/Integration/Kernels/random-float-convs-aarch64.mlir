// The float convolution kernels with NEON's 128-bit vectors (4 lanes,
// blocks of 6 pixels x 4 vectors) on the 40 random layers of
// random-float-convs.mlir: cross compiled, linked with
// aarch64-linux-gnu-gcc, run under qemu-aarch64 -cpu max.
// UNSUPPORTED: no-aarch64-cross
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_float_convs.py %t 40 2026
// RUN: %python %S/Inputs/check_float_convs.py %quantc_tools_dir %quantc_src_root %t 40 aot-a64 | FileCheck %s
// CHECK: aot-a64: 40 of 40 layers within the float32 bound
