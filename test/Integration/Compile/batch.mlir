// --batch N compiles a model exported at batch 1 (torch.onnx.export's
// default) for batches of N: the inputs' leading 1 becomes N, and a Reshape
// to a constant shape that keeps the exported batch in front (the shuffle
// unit of the mobile example: [1, 2, 8, 14, 14]) follows.
//
// RUN: rm -rf %t && mkdir -p %t/f1 %t/f4 %t/q1 %t/q4
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --name fmnist --batch 4 -o %t/f4/model.o
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/f4/model.h
// HEADER: input0 ("image"): float32[4, 1, 28, 28], NCHW, 3136 floats
// HEADER: output0 ("{{[^"]+}}"): float32[4, 10], row-major, 40 floats
// RUN: cc -I%t/f4 -DMODEL=fmnist -DMODEL_UPPER=FMNIST %quantc_src_root/examples/common/run_model.c %t/f4/model.o -lm -o %t/f4/run
// RUN: %t/f4/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/f4/out.npy 1 | FileCheck %s --check-prefix=RUN4
// RUN4: ran 512 samples
// RUN4: latency {{[0-9.]+}} us per sample, {{[0-9.]+}} us per batch of 4 (best of 1 passes over 128 batches, one thread)
// RUN: %python %quantc_src_root/scripts/sqnr.py %quantc_src_root/examples/fashion-mnist-mobile/calibration_logits.npy %t/f4/out.npy 100 | FileCheck %s --check-prefix=FLOAT
// FLOAT: top-1 agreement 100.0 %
// FLOAT: ACCURATE
//
// int8: calibration gathers statistics over the same groups of samples for
// any batch size, so the batch-4 object computes the batch-1 object's bits.
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --name fmnist --batch 4 --calibration-data %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy -o %t/q4/model.o
// RUN: cc -I%t/q4 -DMODEL=fmnist -DMODEL_UPPER=FMNIST %quantc_src_root/examples/common/run_model.c %t/q4/model.o -lm -o %t/q4/run
// RUN: %t/q4/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q4/out.npy
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --name fmnist --calibration-data %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy -o %t/q1/model.o
// RUN: cc -I%t/q1 -DMODEL=fmnist -DMODEL_UPPER=FMNIST %quantc_src_root/examples/common/run_model.c %t/q1/model.o -lm -o %t/q1/run
// RUN: %t/q1/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q1/out.npy
// RUN: %python %S/Inputs/compare.py %t/q1/out.npy %t/q4/out.npy | FileCheck %s --check-prefix=SAME
// SAME: BIT-IDENTICAL
// RUN: %python %quantc_src_root/scripts/sqnr.py %quantc_src_root/examples/fashion-mnist-mobile/calibration_logits.npy %t/q4/out.npy 20 | FileCheck %s --check-prefix=INT8
// INT8: top-1 agreement {{(9[6-9]\.[0-9]|100\.0)}} %
// INT8: ACCURATE
//
// A symbolic batch gets N too; a static batch other than 1 is an error.
// RUN: quant-translate --import-onnx %quantc_src_root/test/Import/Inputs/resnet_block.onnx --batch 3 | FileCheck %s --check-prefix=IMPORT
// IMPORT: func.func @torch_jit(%{{.*}}: tensor<3x3x16x16xf32>{{.*}}) -> tensor<3x10xf32>
