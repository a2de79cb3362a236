// The AVX-512 VNNI kernels' whole 64-channel blocks (stored in the packed
// channel order by saturating packs) against the int8 reference: 30 random
// depthwise, dense and linear layers with 64-259 channels (dense: or 16-48,
// stored 64 bytes of a pixel run at a time), a quarter of them
// with requantization multipliers large enough that the kernel must clamp in
// float before converting (vcvtps2dq would overflow int32 otherwise).
// REQUIRES: avx512-vnni
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_convs.py %t 30 77 wide
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 30 jit-avx512-vnni aot-vnni | FileCheck %s
// CHECK: jit-avx512-vnni: 30 of 30 models bit-identical to the int8 reference
// CHECK: aot-vnni: 30 of 30 models bit-identical to the int8 reference
//
// Both epilogues occur, and the remark says which one a layer gets.
// RUN: quant-opt %t/conv7.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=PACKS
// PACKS: remark: int8 kernel: avx512-vnni: vpdpbusd zmm, 6 pixels x 64 channels, padded input copy, 64-channel blocks stored by saturating packs{{$}}
// RUN: quant-opt %t/conv3.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLAMP
// CLAMP: remark: int8 kernel: avx512-vnni: vpdpbusd zmm, 6 pixels x 64 channels, padded input copy, 64-channel blocks stored by saturating packs after a float clamp
// RUN: quant-opt %t/conv2.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=RUNS
// RUNS: remark: int8 kernel: avx512-vnni: vpdpbusd zmm, 8 pixels x 48 channels, padded input copy, pixel runs stored by saturating packs{{$}}
// RUN: quant-opt %t/conv4.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=DW
// DW: remark: int8 kernel: depthwise: 64-channel blocks by vpdpbusd (4 kernel rows per dword), stored by saturating packs; 16-channel blocks by vpdpwssd
// RUN: quant-opt %t/conv5.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=DW-CLAMP
// DW-CLAMP: remark: int8 kernel: depthwise: 64-channel blocks by vpdpbusd (4 kernel rows per dword), stored by saturating packs after a float clamp; 16-channel blocks by vpdpwssd
