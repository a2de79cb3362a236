// Fusion is exact in float: the fused model's outputs equal the unfused
// model's, computed by NumPy layer by layer in float64 (make_model.py), to
// 1e-5 of the output magnitude, compiled and run. (The float pipeline
// starts with qnt-fuse, so the unfused model compiled is fused too: it is
// checked against NumPy the same way.)
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_model.py %t > %t/model.mlir
// RUN: quant-opt %t/model.mlir --qnt-fuse -o %t/fused.mlir
// RUN: FileCheck %s --check-prefix=FUSED < %t/fused.mlir
// RUN: quant-run %t/model.mlir --input %t/input.npy -o %t/unfused.npy
// RUN: quant-run %t/fused.mlir --input %t/input.npy -o %t/fused.npy
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/fused.npy | FileCheck %s
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/unfused.npy | FileCheck %s
// CHECK: EQUIVALENT
//
// Every batch norm, clamp and add was fused: six convolution layers remain.
// FUSED-NOT: qnt.batch_norm
// FUSED-NOT: tosa.clamp
// FUSED-NOT: tosa.add
// FUSED-COUNT-6: qnt.conv2d
// FUSED-NOT: qnt.conv2d
//
// The bundled example: fused before compiling and fused by the pipeline
// alone agree (qnt-fuse finds nothing left to fuse the second time).
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.random.default_rng(3).standard_normal((16, 28, 28, 1)).astype(np.float32))"
// RUN: quant-opt %quantc_src_root/examples/small-cnn/model.mlir --qnt-fuse -o %t/example-fused.mlir
// RUN: quant-run %quantc_src_root/examples/small-cnn/model.mlir --input %t/x.npy -o %t/example.npy
// RUN: quant-run %t/example-fused.mlir --input %t/x.npy -o %t/example-fused.npy
// RUN: %python %S/Inputs/compare.py %t/example.npy %t/example-fused.npy | FileCheck %s
