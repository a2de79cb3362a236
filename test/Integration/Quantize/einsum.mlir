// Einsum in int8: a small instance of torchvision's MaxViT
// (scripts/gen_onnx_op_tests.py), whose attention products are Einsums of
// two activations, through observe, calibrate, fold and quantize. Each
// Einsum becomes a qnt.matmul with per-tensor parameters, as MatMul's; the
// compiled int8 model computes the same bits with the generic and the avx2
// kernels, and its SQNR against PyTorch's float output is above 25 dB (31.0
// on a Zen 3; a wrong transpose of an operand gives below 5; one
// calibration sample, random weights).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: quant-translate --import-onnx %quantc_src_root/test/Import/Inputs/ops/maxvit_tiny.onnx -o %t/float.mlir
// RUN: quant-opt %t/float.mlir --qnt-fuse --qnt-insert-observers -o %t/observed.mlir
// RUN: quant-calibrate %t/observed.mlir --data %quantc_src_root/test/Import/Inputs/ops/maxvit_tiny.input.npy --quiet -o %t/calibrated.mlir
// RUN: quant-opt %t/calibrated.mlir --qnt-fold-observers --qnt-quantize -o %t/int8.mlir
// RUN: grep -c "qnt.matmul" %t/int8.mlir | FileCheck %s --check-prefix=MATMULS
// 2 blocks x 2 attentions (window, grid) x 2 products.
// MATMULS: 8
// RUN: not grep "tosa.matmul" %t/int8.mlir
// RUN: quant-run %t/int8.mlir --int8-isa=generic --input %quantc_src_root/test/Import/Inputs/ops/maxvit_tiny.input.npy -o %t/generic.npy 2>/dev/null
// RUN: quant-run %t/int8.mlir --int8-isa=avx2 --input %quantc_src_root/test/Import/Inputs/ops/maxvit_tiny.input.npy -o %t/avx2.npy 2>/dev/null
// RUN: cmp %t/generic.npy %t/avx2.npy
// RUN: %python %quantc_src_root/scripts/sqnr.py %quantc_src_root/test/Import/Inputs/ops/maxvit_tiny.output.npy %t/avx2.npy 25 | FileCheck %s
// CHECK: ACCURATE
