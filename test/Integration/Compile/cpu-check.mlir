// An object states the CPU features it was compiled for, and its entry point
// checks them once, at the first call: on a CPU without them it returns 1
// and runs nothing, instead of dying of SIGILL inside the model.
//
// REQUIRES: avx2
// RUN: rm -rf %t && mkdir -p %t/v3 %t/base
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx -o %t/v3/model.o
// RUN: FileCheck %s --check-prefix=V3 --input-file %t/v3/model.h
// V3: Target: x86_64-pc-linux-gnu, cpu x86-64-v3
// V3-NEXT: Needs CPU features: sse3 ssse3 fma cx16 sse4.1 sse4.2 movbe popcnt
// V3-NEXT: xsave avx f16c bmi avx2 bmi2 lzcnt
// V3: On a CPU without the features above it returns 1 and runs nothing
// RUN: cc -I%t/v3 -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/v3/model.o -lm -o %t/v3/run
// RUN: %t/v3/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/v3/out.npy | FileCheck %s --check-prefix=RUNS
// RUNS: ran 1 samples
//
// The exported entry point itself is baseline x86-64 code: no AVX in it.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --mattr=+avx512f --emit=asm -o %t/model.s
// RUN: awk '/^torch_jit_run:/,/retq/' %t/model.s | FileCheck %s --check-prefix=ASM
// ASM: torch_jit_run:
// ASM-NOT: {{%[xyz]mm|^\s+v[a-z]}}
// ASM: callq torch_jit_run.unchecked
//
// Portable code (--cpu x86-64) needs nothing beyond the baseline.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --cpu x86-64 -o %t/base/model.o
// RUN: FileCheck %s --check-prefix=BASE --input-file %t/base/model.h
// BASE-NOT: Needs CPU features
// BASE: Reentrant: no global mutable state.
