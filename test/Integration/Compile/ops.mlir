// Every non-convolution quantized op (Inputs/ops.mlir: max / average pools
// with padding, requantize, concat with copied and requantized inputs, add
// with relu, reshape, u8 / i8 / narrowed ranges, vector bodies and scalar
// tails) compiled ahead of time and run on random inputs with values far
// outside the quantized ranges and exact rounding midpoints: bit-identical
// to the int8 reference.
//
// REQUIRES: avx2
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_input.py %t/in.npy 64 7 7 20
// RUN: quant-run %S/Inputs/ops.mlir --reference --input %t/in.npy -o %t/reference.npy
// RUN: quant-compile %S/Inputs/ops.mlir -o %t/model.o
// RUN: cc -I%t -DMODEL=ops -DMODEL_UPPER=OPS %quantc_src_root/examples/common/run_model.c %t/model.o -lm -o %t/run
// RUN: %t/run %t/in.npy %t/compiled.npy
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/compiled.npy | FileCheck %s
// Portable vector code (baseline x86-64: roundeven is a libm call) too.
// RUN: mkdir -p %t/generic
// RUN: quant-compile %S/Inputs/ops.mlir --cpu=x86-64 -o %t/generic/model.o
// RUN: cc -I%t/generic -DMODEL=ops -DMODEL_UPPER=OPS %quantc_src_root/examples/common/run_model.c %t/generic/model.o -lm -o %t/generic/run
// RUN: %t/generic/run %t/in.npy %t/generic/compiled.npy
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/generic/compiled.npy | FileCheck %s
// This machine's CPU and features (--cpu=native), whatever they are.
// RUN: mkdir -p %t/native
// RUN: quant-compile %S/Inputs/ops.mlir --cpu=native -v -o %t/native/model.o 2>&1 | FileCheck %s --check-prefix=NATIVE
// NATIVE-NOT: cpu native
// NATIVE: quant-compile: target x86_64-{{.*}}, int8 kernels {{[a-z0-9-]+}} (cpu {{.*}})
// RUN: cc -I%t/native -DMODEL=ops -DMODEL_UPPER=OPS %quantc_src_root/examples/common/run_model.c %t/native/model.o -lm -o %t/native/run
// RUN: %t/native/run %t/in.npy %t/native/compiled.npy
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/native/compiled.npy | FileCheck %s
//
// CHECK: exact samples: 64/64, exact values: 40960/40960
// CHECK: BIT-IDENTICAL
