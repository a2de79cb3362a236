// The AVX-512 VNNI kernels' whole 64-channel blocks (stored in the packed
// channel order by saturating packs) against the int8 reference: 32 random
// depthwise, dense and linear layers with 16-259 channels (dense: or 16-48,
// stored 64 bytes of a pixel run at a time), a quarter of them
// with requantization multipliers large enough that the kernel must clamp in
// float before converting (vcvtps2dq would overflow int32 otherwise).
// REQUIRES: avx512-vnni
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_convs.py %t 32 77 wide
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 32 jit-avx512-vnni aot-vnni | FileCheck %s
// CHECK: jit-avx512-vnni: 32 of 32 models bit-identical to the int8 reference
// CHECK: aot-vnni: 32 of 32 models bit-identical to the int8 reference
//
// Both epilogues occur, and the remark says which one a layer gets.
// RUN: quant-opt %t/conv3.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=PACKS
// PACKS: remark: int8 kernel: avx512-vnni: vpdpbusd zmm, 6 pixels x 64 channels, padded input copy, 64-channel blocks stored by saturating packs{{$}}
// RUN: quant-opt %t/conv30.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLAMP
// CLAMP: remark: int8 kernel: avx512-vnni: vpdpbusd zmm, 6 pixels x 64 channels, padded input copy, 64-channel blocks stored by saturating packs after a float clamp
// RUN: quant-opt %t/conv20.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=RUNS
// RUNS: remark: int8 kernel: avx512-vnni: vpdpbusd zmm, 12 pixels x 32 channels, padded input copy, pixel runs stored by saturating packs{{$}}
// RUN: quant-opt %t/conv1.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=DW
// DW: remark: int8 kernel: depthwise: 64-channel blocks by vpdpbusd (4 kernel rows per dword), a window sliding along the row, stored by saturating packs; the last block overlaps the one before
// RUN: quant-opt %t/conv10.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=DW-CLAMP
// DW-CLAMP: remark: int8 kernel: depthwise: 64-channel blocks by vpdpbusd (4 kernel rows per dword), a window sliding along the row, stored by saturating packs after a float clamp; the last block overlaps the one before
