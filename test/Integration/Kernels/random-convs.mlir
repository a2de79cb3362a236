// int8 kernels against the int8 reference on 50 random convolution / linear
// configurations (strides, padding, dilation, groups, depthwise, u8/i8 and
// 7-bit activations, per-channel/per-tensor, bias, residual, activations):
// JIT-compiled for the x86 instruction sets every x86-64-v3 machine runs,
// and compiled ahead of time to object files linked with a C driver.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_convs.py %t 50 2024
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 50 jit-generic jit-avx2 aot-avx2 aot | FileCheck %s
// CHECK: jit-generic: 50 of 50 models bit-identical to the int8 reference
// CHECK: jit-avx2: 50 of 50 models bit-identical to the int8 reference
// CHECK: aot-avx2: 50 of 50 models bit-identical to the int8 reference
// CHECK: aot: 50 of 50 models bit-identical to the int8 reference
//
// Which avx2 kernel each convolution gets is decided from its weights and
// input range, and said in a remark: 30 of the 50 take vpmaddubsw, 14 (the
// full-range ones) vpmaddwd on widened inputs, 6 are depthwise.
// RUN: quant-opt %t/conv1.mlir --qnt-lower-quantized=isa=avx2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: int8 kernel: avx2: vpmaddubsw + vpmaddwd
// RUN: grep "conv10 .* in=u8 w=full" %t/manifest.txt
// RUN: quant-opt %t/conv10.mlir --qnt-lower-quantized=isa=avx2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: remark: int8 kernel: avx2: vpmaddwd on inputs widened to 16 bits
