// A small ResNet block exported by PyTorch (opset 13): conv-bn-relu, residual
// conv-bn + add + relu, max pooling, a stride-2 conv whose bottom/right
// padding TOSA needs trimmed, global average pooling, flatten and Gemm.
//
// RUN: quant-translate --import-onnx %S/Inputs/resnet_block.onnx | FileCheck %s
// RUN: quant-translate --import-onnx %S/Inputs/resnet_block.onnx --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// NCHW at the boundary, NHWC inside.
// CHECK-LABEL: func.func @torch_jit(%{{.*}}: tensor<1x3x16x16xf32>) -> tensor<1x10xf32>
// CHECK: %[[X:.*]] = tosa.transpose %{{.*}} {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x16x16xf32>) -> tensor<1x16x16x3xf32>
// OIHW weights become OHWI constants.
// CHECK: %[[C1:.*]] = tosa.conv2d %[[X]], %{{.*}} {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
// CHECK: %[[B1:.*]] = qnt.batch_norm %[[C1]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x16x16x8xf32>, tensor<8xf32>
// CHECK: %[[R1:.*]] = tosa.clamp %[[B1]] {max_val = 0x7F800000 : f32, min_val = 0.000000e+00 : f32}
// CHECK: %[[P:.*]] = tosa.max_pool2d %[[R1]] {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x16x16x8xf32>) -> tensor<1x8x8x8xf32>
// conv2 has no bias in ONNX: a zero bias.
// CHECK: tosa.const{{.*}}dense<0.000000e+00> : tensor<8xf32>
// CHECK: tosa.conv2d %[[P]]
// CHECK: qnt.batch_norm
// CHECK: tosa.clamp
// CHECK: tosa.conv2d
// CHECK: %[[B3:.*]] = qnt.batch_norm
// CHECK: %[[ADD:.*]] = tosa.add %[[P]], %[[B3]] : (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
// CHECK: %[[R3:.*]] = tosa.clamp %[[ADD]]
// Stride 2 over 8 rows with pads 1/1: the bottom/right pad is never read.
// CHECK: tosa.conv2d %[[R3]], {{.*}}pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>{{.*}} -> tensor<1x4x4x16xf32>
// CHECK: %[[GAP:.*]] = tosa.avg_pool2d {{.*}}kernel = array<i64: 4, 4>{{.*}} -> tensor<1x1x1x16xf32>
// 1x1 spatial: NHWC and NCHW agree, flatten is a plain reshape.
// CHECK-NOT: tosa.transpose
// CHECK: %[[FLAT:.*]] = tosa.reshape %[[GAP]], %{{.*}} : (tensor<1x1x1x16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
// Gemm with transB: [1, M, K] x [1, K, N] + bias.
// CHECK: %[[A:.*]] = tosa.reshape %[[FLAT]], %{{.*}} -> tensor<1x1x16xf32>
// CHECK: %[[MM:.*]] = tosa.matmul %[[A]], %{{.*}} : (tensor<1x1x16xf32>, tensor<1x16x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x10xf32>
// CHECK: %[[FC:.*]] = tosa.add %[[MM]], %{{.*}} : (tensor<1x1x10xf32>, tensor<1x1x10xf32>) -> tensor<1x1x10xf32>
// CHECK: %[[OUT:.*]] = tosa.reshape %[[FC]], %{{.*}} -> tensor<1x10xf32>
// CHECK: return %[[OUT]] : tensor<1x10xf32>

// Layer names survive as NameLocs.
// LOC-DAG: tosa.conv2d {{.*}} loc("/conv1/Conv")
// LOC-DAG: qnt.batch_norm {{.*}} loc("/bn1/BatchNormalization")
// LOC-DAG: tosa.max_pool2d {{.*}} loc("/pool/MaxPool")
// LOC-DAG: tosa.add {{.*}} loc("/Add")
// LOC-DAG: tosa.matmul {{.*}} loc("/fc/Gemm")
// LOC-DAG: tosa.avg_pool2d {{.*}} loc("/gap/GlobalAveragePool")
