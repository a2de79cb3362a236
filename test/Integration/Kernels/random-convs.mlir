// int8 kernels against the int8 reference on 50 random convolution / linear
// configurations (strides, padding, dilation, groups, depthwise, u8/i8 and
// 7-bit activations, per-channel/per-tensor, bias, residual, activations),
// compiled (JIT) for every instruction set this machine can run.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_convs.py %t 50 2024
// RUN: %python %S/Inputs/check_kernels.py quant-run %t 50 generic avx2 | FileCheck %s
// CHECK: generic: 50 of 50 models bit-identical to the int8 reference
// CHECK: avx2: 50 of 50 models bit-identical to the int8 reference
//
// Which avx2 kernel each convolution gets is decided from its weights and
// input range, and said in a remark.
// RUN: quant-opt %t/conv1.mlir --qnt-lower-quantized=isa=avx2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: int8 kernel: avx2: {{vpmaddubsw \+ vpmaddwd|exact 32-bit path}}
