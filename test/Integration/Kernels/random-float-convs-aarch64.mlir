// The float convolution kernels with NEON's 128-bit vectors (4 lanes,
// blocks of 6 pixels x 4 vectors) on the 30 random layers of
// random-float-convs.mlir: cross compiled, linked with
// aarch64-linux-gnu-gcc, run under qemu-aarch64 -cpu max.
// UNSUPPORTED: no-aarch64-cross
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_float_convs.py %t 30 2026
// RUN: %python %S/Inputs/check_float_convs.py %quantc_tools_dir %quantc_src_root %t 30 aot-a64 | FileCheck %s
// CHECK: aot-a64: 30 of 30 layers within the float32 bound
