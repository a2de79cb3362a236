// qnt.matmul on AArch64 (sdot; the i8mm variant uses sdot too) on 40
// random configurations: cross compiled, linked with aarch64-linux-gnu-gcc,
// run under qemu-aarch64 -cpu max; bit-identical to the int8 reference.
// UNSUPPORTED: no-aarch64-cross
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_matmuls.py %t 40 33
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 40 --prefix=matmul aot-a64-dot aot-a64-i8mm | FileCheck %s
// CHECK: aot-a64-dot: 40 of 40 models bit-identical to the int8 reference
// CHECK: aot-a64-i8mm: 40 of 40 models bit-identical to the int8 reference
