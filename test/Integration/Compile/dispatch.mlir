// Without --cpu / --mattr an object carries a variant of the model per x86
// int8 instruction set and its entry point picks one at the first call:
// the best this CPU has. All variants share one quantization (8 bits on
// both sides; the avx2 variant widens inputs to 16 bits where vpmaddubsw
// could saturate), so every CPU computes the same bits. A pinned object checks its CPU features and returns 1 without them.
//
// REQUIRES: avx2
// RUN: rm -rf %t && mkdir -p %t/default %t/base %t/pinned %t/float %t/vnni %t/all
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --calibration-data %quantc_src_root/test/Import/Inputs/resnet_block.input.npy --save-profile %t/profile.json -o %t/default/model.o
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/default/model.h
// HEADER: Target: x86_64-pc-linux-gnu
// HEADER-NEXT: Variants for 4 instruction sets; the first call chooses the first one
// HEADER-NEXT: whose CPU features the CPU has:
// HEADER-NEXT: amx-int8 (cpu x86-64-v4 +avx512vnni,+amx-tile,+amx-int8), needs sse3
// HEADER: amx-tile amx-int8 sahf lzcnt
// HEADER-NEXT: avx512-vnni (cpu x86-64-v4 +avx512vnni), needs sse3 ssse3 fma
// HEADER: avx512vl avx512vnni sahf lzcnt
// HEADER-NEXT: avx-vnni (cpu x86-64-v3 +avxvnni), needs sse3 ssse3 fma cx16
// HEADER: avxvnni sahf
// HEADER-NEXT: lzcnt
// HEADER-NEXT: avx2 (cpu x86-64-v3), needs sse3 ssse3 fma cx16 sse4.1 sse4.2
// HEADER: On a CPU without any of the features above it returns 1 and runs nothing
// HEADER: const char *torch_jit_int8_isa(void) names the int8 kernels this CPU runs
// HEADER-NEXT: (NULL when it returns 1). QUANTC_INT8_ISA=<name> in the environment takes that variant
// HEADER: output0 ("output"): float32[1, 10], row-major, 10 floats
// HEADER-NEXT: */
// HEADER: const char *torch_jit_int8_isa(void);
//
// Natively: the first instruction set of the table this machine has.
// RUN: cc -I%t/default -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/default/model.o -lm -o %t/default/run
// RUN: %t/default/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/native.npy | FileCheck %s --check-prefix=NATIVE -DISA=%host_int8_isa
// NATIVE: ran 1 samples (int8 kernels: [[ISA]])
//
// QUANTC_INT8_ISA takes a variant by name when the CPU can run it (what an
// AVX2-only CPU gets), and is ignored otherwise.
// RUN: env QUANTC_INT8_ISA=avx2 %t/default/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/env.npy | FileCheck %s --check-prefix=ENV
// ENV: ran 1 samples (int8 kernels: avx2)
// RUN: %python %S/Inputs/compare.py %t/native.npy %t/env.npy | FileCheck %s
// RUN: env QUANTC_INT8_ISA=neon-dot %t/default/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/env.npy | FileCheck %s --check-prefix=NATIVE -DISA=%host_int8_isa
//
// Under qemu's Haswell (AVX2) the same object picks the avx2 kernels, with
// the same bits; under its Nehalem (SSE4.2) it has no variant and returns 1.
// An object that also carries the portable kernels (--int8-isas) runs them
// there, with the same bits again.
// RUN: %if qemu-x86_64 %{ qemu-x86_64 -cpu Haswell %t/default/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/haswell.npy 2>/dev/null | FileCheck %s --check-prefix=HASWELL %}
// HASWELL: ran 1 samples (int8 kernels: avx2)
// RUN: %if qemu-x86_64 %{ %python %S/Inputs/compare.py %t/native.npy %t/haswell.npy | FileCheck %s %}
// RUN: %if qemu-x86_64 %{ not qemu-x86_64 -cpu Nehalem %t/default/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/none.npy 2>&1 | FileCheck %s --check-prefix=NONE %}
// NONE: the model returned an error (1: this CPU lacks the features the object was compiled for; see the header)
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --profile %t/profile.json --int8-isas=avx512-vnni,avx-vnni,avx2,generic -o %t/all/model.o
// RUN: FileCheck %s --check-prefix=ALL --input-file %t/all/model.h
// ALL: Variants for 4 instruction sets
// ALL: generic (cpu x86-64): any CPU
// ALL-NOT: returns 1 and runs nothing
// RUN: cc -I%t/all -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/all/model.o -lm -o %t/all/run
// RUN: %if qemu-x86_64 %{ qemu-x86_64 -cpu Nehalem %t/all/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/nehalem.npy | FileCheck %s --check-prefix=NEHALEM %}
// NEHALEM: ran 1 samples (int8 kernels: generic)
// RUN: %if qemu-x86_64 %{ %python %S/Inputs/compare.py %t/native.npy %t/nehalem.npy | FileCheck %s %}
// CHECK: BIT-IDENTICAL
//
// Calibrate once, compile for every target: the profile of the default
// compile serves a pinned AVX-512 VNNI compile, and an object of
// avx512-vnni kernels alone computes the default object's bits.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --profile %t/profile.json --cpu cascadelake -o %t/pinned/model.o
// RUN: FileCheck %s --check-prefix=PINNED --input-file %t/pinned/model.h
// PINNED: Target: x86_64-pc-linux-gnu, cpu cascadelake, int8 kernels: avx512-vnni
// PINNED: output0 ("output"): float32[1, 10], row-major, 10 floats
// PINNED-NEXT: */
// RUN: %if avx512-vnni %{ quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --profile %t/profile.json --int8-isas=avx512-vnni -o %t/vnni/model.o %}
// RUN: %if avx512-vnni %{ cc -I%t/vnni -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/vnni/model.o -lm -o %t/vnni/run %}
// RUN: %if avx512-vnni %{ %t/vnni/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/vnni.npy | FileCheck %s --check-prefix=VNNI %}
// VNNI: int8 kernels: avx512-vnni
// RUN: %if avx512-vnni %{ %python %S/Inputs/compare.py %t/native.npy %t/vnni.npy | FileCheck %s %}
//
// The exported entry point itself is baseline x86-64 code: no AVX in it.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --mattr=+avx512f --emit=asm -o %t/model.s
// RUN: awk '/^torch_jit_run:/,/retq/' %t/model.s | FileCheck %s --check-prefix=ASM
// ASM: torch_jit_run:
// ASM-NOT: {{%[xyz]mm|^\s+v[a-z]}}
// ASM: {{callq|jmp}} torch_jit_run.avx2
//
// A float model: one variant per CPU (int8 instructions do not matter).
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx -o %t/float/model.o
// RUN: FileCheck %s --check-prefix=FLOAT --input-file %t/float/model.h
// FLOAT: Variants for 2 instruction sets
// FLOAT-NEXT: whose CPU features
// FLOAT-NEXT: avx512-vnni (cpu x86-64-v4 +avx512vnni)
// FLOAT: avx2 (cpu x86-64-v3)
// FLOAT-NOT: avx-vnni
//
// Portable code (--cpu x86-64) needs nothing beyond the baseline.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --cpu x86-64 -o %t/base/model.o
// RUN: FileCheck %s --check-prefix=BASE --input-file %t/base/model.h
// BASE: Target: x86_64-pc-linux-gnu, cpu x86-64, int8 kernels: generic
// BASE-NOT: Needs CPU features
// BASE-NOT: On a CPU without
// BASE: Reentrant: the kernels' choice (an atomic int) is the only global
//
// The variants to carry, chosen by name; --cpu pins one instead.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --int8-isas=avx2,generic -v -o %t/two.o 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: int8 kernels avx2 (cpu x86-64-v3), generic (cpu x86-64) chosen at run time
// RUN: not quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --int8-isas=avx2 --cpu=haswell -o %t/bad.o 2>&1 | FileCheck %s --check-prefix=PINNED-ERR
// PINNED-ERR: error: --int8-isas chooses the variants of an object that selects its int8 kernels at run time; --cpu and --mattr pin one target instead
// RUN: not quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --int8-isas=sse9 -o %t/bad.o 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown int8 instruction set 'sse9' (amx-int8, avx512-vnni, avx-vnni, avx2, neon-i8mm, neon-dot, generic)
// RUN: not quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --int8-isas=neon-dot -o %t/bad.o 2>&1 | FileCheck %s --check-prefix=ARCH
// ARCH: error: int8 instruction set 'neon-dot' is not for 'x86_64-
// RUN: not test -e %t/bad.o
//
// The table, with this machine's instruction sets marked.
// RUN: quant-compile --list-isas | FileCheck %s --check-prefix=LIST
// LIST: {{^[* ]+}}amx-int8 x86 +amx-int8,+amx-tile,+avx512vnni,+avx512bw,+avx512vl: AMX-INT8
// LIST: {{^[* ]+}}avx512-vnni x86 +avx512vnni,+avx512bw,+avx512vl: AVX-512 VNNI
// LIST: * avx2 x86 +avx2: AVX2: {{.*}}; 7-bit weights when it is the object's only variant; default on x86
// LIST: * generic any -: portable vectors{{.*}}; default on aarch64{{$}}
