// AArch64 kernels (sdot, smmla) on the 50 random configurations: cross
// compiled, linked with aarch64-linux-gnu-gcc, run under qemu-aarch64 -cpu
// max; bit-identical to the int8 reference (and so to the x86 builds).
// UNSUPPORTED: no-aarch64-cross
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_convs.py %t 50 2024
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 50 aot-a64-dot aot-a64-i8mm | FileCheck %s
// CHECK: aot-a64-dot: 50 of 50 models bit-identical to the int8 reference
// CHECK: aot-a64-i8mm: 50 of 50 models bit-identical to the int8 reference
