// An object compiled for a feature this CPU lacks (AVX-512 FP16) refuses to
// run: its entry point returns 1, which the example driver reports.
//
// REQUIRES: avx2
// UNSUPPORTED: avx512fp16
// RUN: rm -rf %t && mkdir -p %t/a64
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --mattr=+avx512fp16 -o %t/model.o
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/model.h
// HEADER: Needs CPU features: {{.*}}
// HEADER-NEXT: avx512fp16
// RUN: cc -I%t -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/model.o -lm -o %t/run
// RUN: not %t/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/out.npy 2>&1 | FileCheck %s
// CHECK: the model returned an error (1: this CPU lacks the features the object was compiled for; see the header)
// RUN: not test -e %t/out.npy
//
// On AArch64 (qemu's Cortex-A53 has neither dot product nor i8mm) the same.
// RUN: %if !no-aarch64-cross %{ quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --target aarch64-linux-gnu --mattr=+dotprod,+i8mm -o %t/a64/model.o %}
// RUN: %if !no-aarch64-cross %{ FileCheck %s --check-prefix=A64 --input-file %t/a64/model.h %}
// A64: Needs CPU features: dotprod i8mm
// RUN: %if !no-aarch64-cross %{ aarch64-linux-gnu-gcc -I%t/a64 -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/a64/model.o -lm -o %t/a64run %}
// RUN: %if !no-aarch64-cross %{ not qemu-aarch64 -cpu cortex-a53 -L /usr/aarch64-linux-gnu %t/a64run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/a64.npy 2>&1 | FileCheck %s %}
// RUN: %if !no-aarch64-cross %{ qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu %t/a64run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/a64.npy | FileCheck %s --check-prefix=RUNS %}
// RUNS: ran 1 samples
