// The int8 data movement of random-movement.mlir cross compiled for
// AArch64, linked with aarch64-linux-gnu-gcc, run under qemu-aarch64 -cpu
// max: bit-identical to the int8 reference.
// UNSUPPORTED: no-aarch64-cross
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_movement.py %t 60 2026
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 60 --prefix=movement aot-a64-dot | FileCheck %s
// CHECK: aot-a64-dot: 60 of 60 models bit-identical to the int8 reference
