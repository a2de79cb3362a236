// The per-tensor lookups of random-lookups.mlir cross compiled for AArch64
// (tbl4 over four 64-byte slices of the table), linked with
// aarch64-linux-gnu-gcc, run under qemu-aarch64 -cpu max: bit-identical to
// the int8 reference.
// UNSUPPORTED: no-aarch64-cross
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_elementwise.py %t 24 7 --lookups
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 24 --prefix=elementwise aot-a64-dot | FileCheck %s
// CHECK: aot-a64-dot: 24 of 24 models bit-identical to the int8 reference
