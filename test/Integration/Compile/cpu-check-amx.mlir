// AMX at run time (lib/Target/CpuCheck.cpp): an object's entry point takes
// its amx-int8 variant only when CPUID (AMX-TILE, AMX-INT8), XCR0 (the tile
// state) and the palette leaf (0x1D) say so and, on Linux, the process is
// granted the tile data state: arch_prctl(ARCH_REQ_XCOMP_PERM = 0x1023,
// XFEATURE_XTILEDATA = 18), then ARCH_GET_XCOMP_PERM (0x1022) reads it
// back. The request comes after every CPUID test passed (a CPU without AMX
// never makes it), in the choice the first run makes, not at load (granting
// it grows every signal frame of the process). Otherwise the next variant,
// avx512-vnni, runs, with the same bits.
//
// The check as compiled, on any machine:
// RUN: rm -rf %t && mkdir -p %t/default %t/pinned
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --calibration-data %quantc_src_root/test/Import/Inputs/resnet_block.input.npy --save-profile %t/profile.json --target x86_64-unknown-linux-gnu --emit=llvm -o %t/model.ll
// RUN: FileCheck %s --check-prefix=IR --input-file %t/model.ll
// IR-LABEL: define internal {{.*}}@torch_jit_run.select()
// IR-NOT: {{^}}define
// IR: asm sideeffect "xgetbv"
// IR-NOT: {{^}}define
// IR: tiledata.request:
// IR-NEXT: call i64 (i64, ...) @syscall(i64 158, i64 4131, i64 18)
// IR-NOT: {{^}}define
// IR: call i64 (i64, ...) @syscall(i64 158, i64 4130, ptr
//
// The header says so.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --profile %t/profile.json --target x86_64-unknown-linux-gnu -o %t/x86.o
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/x86.h
// HEADER: amx-int8 (cpu x86-64-v4 +avx512vnni,+amx-tile,+amx-int8), needs
// HEADER: On a CPU without any of the features above it returns 1 and runs nothing
// HEADER-NEXT: (checked once, at the first call).
// HEADER-NEXT: Before taking a variant with AMX tiles, that call asks Linux for the
// HEADER-NEXT: tile state (arch_prctl ARCH_REQ_XCOMP_PERM: process-wide, signal frames
// HEADER-NEXT: grow to about 12 KB); if refused, the next variant runs.
//
// Only Linux asks; objects without a tile variant never do.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --profile %t/profile.json --target x86_64-unknown-freebsd --emit=llvm -o - | FileCheck %s --check-prefix=NOREQUEST
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --profile %t/profile.json --target x86_64-unknown-linux-gnu --int8-isas=avx512-vnni,avx2 --emit=llvm -o - | FileCheck %s --check-prefix=NOREQUEST
// NOREQUEST-NOT: @syscall
//
// Natively where the host has AMX (lit's amx-int8 feature: LLVM's host
// detection and the same palette and permission tests): the default object
// takes amx-int8, QUANTC_INT8_ISA can still take avx512-vnni, and both
// compute the same bits.
// RUN: %if amx-int8 %{ quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --profile %t/profile.json -o %t/default/model.o %}
// RUN: %if amx-int8 %{ cc -I%t/default -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/default/model.o -lm -o %t/default/run %}
// RUN: %if amx-int8 %{ %t/default/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/amx.npy | FileCheck %s --check-prefix=AMX %}
// AMX: ran 1 samples (int8 kernels: amx-int8)
// RUN: %if amx-int8 %{ env QUANTC_INT8_ISA=amx-int8 %t/default/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/amx.npy | FileCheck %s --check-prefix=AMX %}
// RUN: %if amx-int8 %{ env QUANTC_INT8_ISA=avx512-vnni %t/default/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/vnni.npy | FileCheck %s --check-prefix=VNNI %}
// VNNI: ran 1 samples (int8 kernels: avx512-vnni)
// RUN: %if amx-int8 %{ %python %S/Inputs/compare.py %t/amx.npy %t/vnni.npy | FileCheck %s %}
// CHECK: BIT-IDENTICAL
//
// The request, traced: once, after the driver read its input (at the first
// run), and only when the amx-int8 variant is chosen.
// RUN: %if amx-int8 && strace %{ strace -f -o %t/amx.trace -e trace=arch_prctl,openat %t/default/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/amx.npy %}
// RUN: %if amx-int8 && strace %{ FileCheck %s --check-prefix=TRACE --input-file %t/amx.trace %}
// TRACE: openat({{.*}}resnet_block.input.npy
// TRACE: arch_prctl(ARCH_REQ_XCOMP_PERM, {{.*}}) = 0
// TRACE-NEXT: arch_prctl(ARCH_GET_XCOMP_PERM,
// TRACE-NOT: ARCH_REQ_XCOMP_PERM
// TRACE: +++ exited with 0 +++
// RUN: %if amx-int8 && strace %{ env QUANTC_INT8_ISA=avx512-vnni strace -f -o %t/vnni.trace -e trace=arch_prctl %t/default/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/vnni.npy %}
// RUN: %if amx-int8 && strace %{ FileCheck %s --check-prefix=NOTRACE --input-file %t/vnni.trace %}
// NOTRACE-NOT: XCOMP_PERM
// NOTRACE: +++ exited with 0 +++
//
// Where Linux refuses (here: an alternate signal stack too small for the
// larger frames), the default object runs avx512-vnni, with the same bits.
// RUN: %if amx-int8 %{ cc -I%t/default -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT -Dmain=model_main -c %quantc_src_root/examples/common/run_model.c -o %t/default/run_model.o %}
// RUN: %if amx-int8 %{ cc %S/Inputs/small_sigaltstack.c %t/default/run_model.o %t/default/model.o -lm -o %t/default/refused %}
// RUN: %if amx-int8 %{ %t/default/refused %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/refused.npy | FileCheck %s --check-prefix=VNNI %}
// RUN: %if amx-int8 %{ %python %S/Inputs/compare.py %t/amx.npy %t/refused.npy | FileCheck %s %}
// RUN: %if amx-int8 && strace %{ strace -o %t/refused.trace -e trace=arch_prctl %t/default/refused %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/refused.npy %}
// RUN: %if amx-int8 && strace %{ FileCheck %s --check-prefix=REFUSED --input-file %t/refused.trace %}
// REFUSED: arch_prctl(ARCH_REQ_XCOMP_PERM, {{.*}}) = -1 ENOSPC
//
// An object pinned to an AMX CPU goes through the same check.
// RUN: %if amx-int8 %{ quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --profile %t/profile.json --cpu sapphirerapids -o %t/pinned/model.o %}
// RUN: %if amx-int8 %{ FileCheck %s --check-prefix=PINNED --input-file %t/pinned/model.h %}
// PINNED: cpu sapphirerapids, int8 kernels: amx-int8
// PINNED: amx-tile amx-int8
// PINNED: if refused, it returns 1.
// RUN: %if amx-int8 %{ cc -I%t/pinned -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/pinned/model.o -lm -o %t/pinned/run %}
// RUN: %if amx-int8 %{ %t/pinned/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/pinned.npy | FileCheck %s --check-prefix=AMX %}
// RUN: %if amx-int8 %{ %python %S/Inputs/compare.py %t/amx.npy %t/pinned.npy | FileCheck %s %}
// RUN: %if amx-int8 %{ cc -I%t/pinned -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT -Dmain=model_main -c %quantc_src_root/examples/common/run_model.c -o %t/pinned/run_model.o %}
// RUN: %if amx-int8 %{ cc %S/Inputs/small_sigaltstack.c %t/pinned/run_model.o %t/pinned/model.o -lm -o %t/pinned/refused %}
// RUN: %if amx-int8 %{ not %t/pinned/refused %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/pinned-refused.npy 2>&1 | FileCheck %s --check-prefix=NONE %}
// NONE: the model returned an error (1: this CPU lacks the features the object was compiled for; see the header)
