// qnt.matmul on amx-int8's tiles (Matmul.cpp's tile kernel: both operands
// packed at run time to whole 64-byte tile rows, 2x2 accumulator tiles
// started at the compensation, the row terms and requantization of the
// register-block kernel) against the int8 reference: 24 random matmuls it
// takes (M 16-80, K 48-200, N 16-100, six of them ViT-B/16's attention
// shapes), natively where the machine has AMX and through the portable twin
// where it has AVX-512 VNNI.
// REQUIRES: avx512-vnni
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_matmuls.py %t 24 41 tile
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 24 --prefix=matmul jit-amx-int8-twin | FileCheck %s --check-prefix=TWIN
// TWIN: jit-amx-int8-twin: 24 of 24 models bit-identical to the int8 reference
// RUN: %if amx-int8 %{ %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 24 --prefix=matmul jit-amx-int8 aot-amx-int8 | FileCheck %s --check-prefix=NATIVE %}
// NATIVE: jit-amx-int8: 24 of 24 models bit-identical to the int8 reference
// NATIVE: aot-amx-int8: 24 of 24 models bit-identical to the int8 reference
//
// RUN: quant-opt %t/matmul0.mlir --qnt-lower-quantized=isa=amx-int8 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: int8 kernel: matmul: amx-int8: tdpbusd tiles, 32 rows x 32 columns per step, both operands packed at run time to whole 64-byte tile rows
