// Imported models compiled (JIT) and run give the outputs PyTorch computed
// for the exported ONNX models (scripts/gen_onnx_test_models.py), to 1e-4 of
// the output magnitude. Inputs are NCHW float32.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: quant-translate --import-onnx %S/Inputs/resnet_block.onnx -o %t/resnet_block.mlir
// RUN: quant-run %t/resnet_block.mlir --input %S/Inputs/resnet_block.input.npy -o %t/resnet_block.npy
// RUN: %python %S/Inputs/compare.py %t/resnet_block.npy %S/Inputs/resnet_block.output.npy | FileCheck %s
// RUN: quant-translate --import-onnx %S/Inputs/mobile.onnx -o %t/mobile.mlir
// RUN: quant-run %t/mobile.mlir --input %S/Inputs/mobile.input.npy -o %t/mobile.npy
// RUN: %python %S/Inputs/compare.py %t/mobile.npy %S/Inputs/mobile.output.npy | FileCheck %s
// CHECK: MATCH
