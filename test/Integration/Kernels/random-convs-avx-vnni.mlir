// The AVX-VNNI kernels (vpdpbusd on ymm registers, no AVX-512) against the
// int8 reference, JIT and ahead of time (the avx-vnni variant alone), where
// the machine running the tests has AVX-VNNI; and a pinned AVX-VNNI CPU
// (Alder Lake) compiles.
// REQUIRES: avx-vnni
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_convs.py %t 40 4711
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 40 jit-avx-vnni aot-avx-vnni | FileCheck %s
// CHECK: jit-avx-vnni: 40 of 40 models bit-identical to the int8 reference
// CHECK: aot-avx-vnni: 40 of 40 models bit-identical to the int8 reference
//
// RUN: quant-opt %t/conv3.mlir --qnt-lower-quantized=isa=avx-vnni -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: int8 kernel: {{avx-vnni: vpdpbusd ymm, 4 pixels x (8|16) channels|depthwise: 8 channels per vector}}
// RUN: quant-compile %t/conv3.mlir --cpu=alderlake -v -o %t/adl.o 2>&1 | FileCheck %s --check-prefix=ADL
// ADL: int8 kernels avx-vnni (cpu alderlake)
