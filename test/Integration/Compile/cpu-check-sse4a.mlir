// An object pinned to an AMD CPU runs AMD's instructions: --cpu znver4 emits
// SSE4a's insertq / extrq. Its entry point tests every ISA feature the CPU
// enables (lib/Target/CpuCheck.cpp, checked against LLVM's CPU table by
// quantc-target-tests), so on a CPU without SSE4a (any Intel CPU) it
// returns 1 instead of dying of SIGILL.
//
// REQUIRES: avx2
// UNSUPPORTED: sse4a
// RUN: rm -rf %t && mkdir -p %t
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --calibration-data %quantc_src_root/test/Import/Inputs/resnet_block.input.npy --cpu znver4 -o %t/model.o
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/model.h
// HEADER: Target: x86_64-pc-linux-gnu, cpu znver4, int8 kernels: avx512-vnni
// HEADER: Needs CPU features:
// HEADER-SAME: sse3
// HEADER: sahf lzcnt sse4a prfchw
// RUN: llvm-objdump -d %t/model.o | FileCheck %s --check-prefix=SSE4A
// SSE4A: {{insertq|extrq}}
// RUN: cc -I%t -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/model.o -lm -o %t/run
// RUN: not %t/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/out.npy 2>&1 | FileCheck %s
// CHECK: the model returned an error (1: this CPU lacks the features the object was compiled for; see the header)
// RUN: not test -e %t/out.npy
