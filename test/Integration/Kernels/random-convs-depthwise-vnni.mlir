// The AVX-512 VNNI depthwise kernel against the int8 reference: 32 random
// depthwise layers 3-30 pixels wide with 16, 32, 48, 64, 96, 144, 160 or 192
// channels in turn (vectors of 4 or 2 pixels, 64-channel blocks with and
// without an overlapping last block, 16-channel blocks), random kernel sizes,
// strides, dilations and padding, a quarter with multipliers large enough to
// need the float clamp. 144 channels: two 64-channel blocks and a 16-channel
// tail, copied out and run 4 pixels per vector at stride 1 along rows.
// REQUIRES: avx512-vnni
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_convs.py %t 32 5 depthwise
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 32 jit-avx512-vnni aot-vnni | FileCheck %s
// CHECK: jit-avx512-vnni: 32 of 32 models bit-identical to the int8 reference
// CHECK: aot-vnni: 32 of 32 models bit-identical to the int8 reference
//
// The remark names the block kind.
// RUN: quant-opt %t/conv0.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIX4
// PIX4: remark: int8 kernel: depthwise: 4 pixels x 16 channels per 64 lanes by vpdpbusd (4 kernel rows per dword), a window sliding along the row, stored by saturating packs
// RUN: quant-opt %t/conv9.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIX2
// PIX2: remark: int8 kernel: depthwise: 2 pixels x 32 channels per 64 lanes by vpdpbusd (4 kernel rows per dword), a window sliding along the row, stored by saturating packs{{$}}
// RUN: quant-opt %t/conv17.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIX2-CLAMP
// PIX2-CLAMP: remark: int8 kernel: depthwise: 2 pixels x 32 channels per 64 lanes by vpdpbusd (4 kernel rows per dword), a window sliding along the row, stored by saturating packs after a float clamp{{$}}
// RUN: quant-opt %t/conv2.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=DW16
// DW16: remark: int8 kernel: depthwise: 16 channels per zmm, vpdpwssd
// RUN: quant-opt %t/conv27.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=DW64
// DW64: remark: int8 kernel: depthwise: 64-channel blocks by vpdpbusd (4 kernel rows per dword), a window sliding along the row, stored by saturating packs{{$}}
// RUN: quant-opt %t/conv22.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVERLAP
// OVERLAP: remark: int8 kernel: depthwise: 64-channel blocks by vpdpbusd (4 kernel rows per dword), a window sliding along the row, stored by saturating packs; the last block overlaps the one before
// RUN: quant-opt %t/conv21.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=TAIL16
// TAIL16: remark: int8 kernel: depthwise: 64-channel blocks by vpdpbusd (4 kernel rows per dword), a window sliding along the row, stored by saturating packs; the last 16 channels copied out, 4 pixels per vector
// RUN: quant-opt %t/conv5.mlir --qnt-lower-quantized=isa=avx512-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=TAIL16-S2
// TAIL16-S2: remark: int8 kernel: depthwise: 64-channel blocks by vpdpbusd (4 kernel rows per dword), a window sliding along the row, stored by saturating packs; 16-channel blocks by vpdpwssd
