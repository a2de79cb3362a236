// Int8 data movement against the int8 reference on 60 random chains
// (Inputs/random_movement.py: slice, zero-point pad, tile, transpose,
// nearest resize with random rational maps, ceil-mode max pool, concat
// along any axis of inputs with different parameters; u8 / i8, narrowed
// ranges): JIT-compiled for the portable and AVX2 code and ahead of time
// through the C driver. AVX-512 and AArch64: random-movement-*.mlir.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_movement.py %t 60 2026
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 60 --prefix=movement jit-generic jit-avx2 aot-avx2 aot | FileCheck %s
// CHECK: jit-generic: 60 of 60 models bit-identical to the int8 reference
// CHECK: jit-avx2: 60 of 60 models bit-identical to the int8 reference
// CHECK: aot-avx2: 60 of 60 models bit-identical to the int8 reference
// CHECK: aot: 60 of 60 models bit-identical to the int8 reference
