// The amx-int8 tile kernel through its portable twin (quantc-amx-to-vector:
// the same tile loads, products and stores as ordinary vector code), so its
// tiling, packing, edges and epilogue are checked against the int8
// reference on machines without AMX: the same 50 random layers as
// random-convs-amx.mlir (virtual pixels, stride phases, im2col stems, the
// overlapping last block, channel tails, groups, residuals), JIT and ahead
// of time. The rest of the amx-int8 variant is the zmm kernels, so the
// machine needs AVX-512 VNNI.
// REQUIRES: avx512-vnni
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_convs.py %t 50 35 tile
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 50 jit-amx-int8-twin aot-amx-int8-twin | FileCheck %s
// CHECK: jit-amx-int8-twin: 50 of 50 models bit-identical to the int8 reference
// CHECK: aot-amx-int8-twin: 50 of 50 models bit-identical to the int8 reference
