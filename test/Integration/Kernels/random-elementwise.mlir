// Element-wise int8 ops against the int8 reference on 60 random
// configurations (Inputs/random_elementwise.py: qnt.lookup with random
// per-tensor and per-channel tables; qnt.channel_affine with random
// per-channel multipliers, offsets and activations; qnt.add / qnt.sub /
// qnt.mul with every broadcast pattern on either side, relu; u8 / i8, narrowed ranges, 16-lane
// bodies and scalar tails): JIT-compiled for the portable and AVX2 code and
// ahead of time through the C driver. AVX-512 and AArch64: the
// random-elementwise-*.mlir tests.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_elementwise.py %t 60 2026
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 60 --prefix=elementwise jit-generic jit-avx2 aot-avx2 aot | FileCheck %s
// CHECK: jit-generic: 60 of 60 models bit-identical to the int8 reference
// CHECK: jit-avx2: 60 of 60 models bit-identical to the int8 reference
// CHECK: aot-avx2: 60 of 60 models bit-identical to the int8 reference
// CHECK: aot: 60 of 60 models bit-identical to the int8 reference
