// One command from a float ONNX model to an object file: import, fuse,
// observe, calibrate (compiled), fold, quantize, generate int8 code.
//
// RUN: rm -rf %t && mkdir -p %t/a %t/b %t/m
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --calibration-data %quantc_src_root/test/Import/Inputs/resnet_block.input.npy --save-profile %t/profile.json -o %t/a/model.o --remarks 2>&1 | FileCheck %s --check-prefix=REMARK
// The default object keeps 8 bits on both sides (its avx512-vnni variant's
// dot products are exact), so its avx2 variant widens the inputs to 16 bits;
// an object of avx2 kernels alone folds 7-bit weights and takes vpmaddubsw.
// REMARK: remark: {{.*}}"/conv1/Conv"]): int8 kernel: avx512-vnni: vpdpbusd zmm
// REMARK: remark: {{.*}}"/conv1/Conv"]): int8 kernel: avx2: vpmaddwd on inputs widened to 16 bits
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --profile %t/profile.json --int8-isas=avx2 -o %t/avx2.o --remarks 2>&1 | FileCheck %s --check-prefix=AVX2ONLY
// AVX2ONLY-NOT: widened
// AVX2ONLY: remark: {{.*}}"/conv1/Conv"]): int8 kernel: avx2: vpmaddubsw + vpmaddwd (every 16-bit pair sum is provably within int16)
// AVX2ONLY-NOT: widened
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/a/model.h
// An imported model keeps ONNX's order at its interface; the header says so.
// HEADER: input0 ("input"): float32[1, 3, 16, 16], NCHW, 768 floats
// HEADER: output0 ("{{[^"]+}}"): float32[1, 10], row-major, 10 floats
// HEADER: int torch_jit_run(const float *input0, float *output0);
// RUN: cc -I%t/a -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/a/model.o -lm -o %t/a/run
// RUN: %t/a/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/a/out.npy
// int8 against PyTorch's float output of the same ONNX model.
// RUN: %python %quantc_src_root/scripts/sqnr.py %quantc_src_root/test/Import/Inputs/resnet_block.output.npy %t/a/out.npy 25 | FileCheck %s --check-prefix=ACC
// ACC: ACCURATE
//
// The saved profile replaces the calibration data: the same object.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --profile %t/profile.json -o %t/b/model.o
// RUN: cc -I%t/b -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/b/model.o -lm -o %t/b/run
// RUN: %t/b/run %quantc_src_root/test/Import/Inputs/resnet_block.input.npy %t/b/out.npy
// RUN: cmp %t/a/out.npy %t/b/out.npy
//
// Depthwise, grouped, relu6, padded average pool, concat, Gemm.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/mobile.onnx --calibration-data %quantc_src_root/test/Import/Inputs/mobile.input.npy -o %t/m/model.o
// RUN: cc -I%t/m -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/m/model.o -lm -o %t/m/run
// RUN: %t/m/run %quantc_src_root/test/Import/Inputs/mobile.input.npy %t/m/out.npy
// RUN: %python %quantc_src_root/scripts/sqnr.py %quantc_src_root/test/Import/Inputs/mobile.output.npy %t/m/out.npy 25 | FileCheck %s --check-prefix=ACC
//
// Bad calibration input fails the compile with the calibrator's message.
// RUN: not quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --calibration-data %quantc_src_root/test/Import/Inputs/mobile.input.npy -o %t/bad.o 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: quant-compile: error: {{.*}}mobile.input.npy: shape {{.*}} does not match the model input
