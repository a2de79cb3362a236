// Per-tensor qnt.lookup against the int8 reference on 24 random tables and
// shapes (Inputs/random_elementwise.py --lookups: up to 102,400 elements,
// inputs over the whole storage range and past it, half the tables clipped
// ramps with runs of equal entries): the portable code's gather and x86's
// byte shuffles (vpshufb ymm, 32 lanes), JIT and ahead of time. AArch64's
// tbl4: random-lookups-aarch64.mlir.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_elementwise.py %t 24 7 --lookups
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 24 --prefix=elementwise jit-generic jit-avx2 aot-avx2 aot | FileCheck %s
// CHECK: jit-generic: 24 of 24 models bit-identical to the int8 reference
// CHECK: jit-avx2: 24 of 24 models bit-identical to the int8 reference
// CHECK: aot-avx2: 24 of 24 models bit-identical to the int8 reference
// CHECK: aot: 24 of 24 models bit-identical to the int8 reference
