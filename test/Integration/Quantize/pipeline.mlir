// The whole float -> int8 path on the bundled example: fuse, observe,
// calibrate (compiled), fold, quantize, then run the quantized model on the
// int8 reference and compare with the float model on the same images.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: quant-opt %quantc_src_root/examples/small-cnn/model.mlir --qnt-fuse --qnt-insert-observers -o %t/observed.mlir
// RUN: quant-calibrate %t/observed.mlir --data %quantc_src_root/examples/small-cnn/calibration.npy --max-samples 128 --quiet -o %t/calibrated.mlir
// RUN: quant-opt %t/calibrated.mlir --qnt-fold-observers --qnt-quantize -o %t/int8.mlir
// RUN: FileCheck %s --input-file %t/int8.mlir
// RUN: quant-run %quantc_src_root/examples/small-cnn/model.mlir --input %quantc_src_root/examples/small-cnn/calibration.npy -o %t/float.npy
// RUN: quant-run %t/int8.mlir --reference --input %quantc_src_root/examples/small-cnn/calibration.npy -o %t/int8.npy
// RUN: %python %quantc_src_root/scripts/sqnr.py %t/float.npy %t/int8.npy 30 | FileCheck %s --check-prefix=ACC
// ACC: ACCURATE
//
// Quantized at the input, dequantized at the output, int8 in between.
// CHECK: quant.qcast %arg0 {qnt.name = "input"
// CHECK: qnt.conv2d
// CHECK: qnt.max_pool2d
// CHECK-COUNT-3: qnt.conv2d
// CHECK: qnt.avg_pool2d
// CHECK: qnt.linear
// CHECK: quant.dcast
// CHECK-NOT: tosa.conv2d
// CHECK-NOT: tosa.matmul
//
// A layer kept in float by name.
// RUN: quant-opt %t/calibrated.mlir --qnt-fold-observers --qnt-quantize="exclude=relu2" | FileCheck %s --check-prefix=EXCL
// EXCL: %[[D:.*]] = quant.dcast {{.*}} to tensor<1x14x14x16xf32>
// EXCL-NEXT: qnt.conv2d %[[D]], {{.*}} : (tensor<1x14x14x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>) -> tensor<1x14x14x16xf32>
// EXCL-NEXT: quant.qcast {{.*}} {qnt.name = "relu2"
//
// The int8 model compiled with int8 kernels is bit-identical to the int8
// reference, for every instruction set this machine runs.
// RUN: quant-run %t/int8.mlir --int8-isa=generic --input %quantc_src_root/examples/small-cnn/calibration.npy -o %t/int8-generic.npy
// RUN: cmp %t/int8.npy %t/int8-generic.npy
// RUN: quant-run %t/int8.mlir --int8-isa=avx2 --input %quantc_src_root/examples/small-cnn/calibration.npy -o %t/int8-avx2.npy
// RUN: cmp %t/int8.npy %t/int8-avx2.npy
