// Depthwise and grouped convolutions, Clip(0, 6), average pooling with
// padding (count_include_pad=0), a 1x1 stride-2 conv TOSA cannot size
// exactly, concat on channels, flatten of a 5x5 map and Gemm.
//
// RUN: quant-translate --import-onnx %S/Inputs/mobile.onnx | FileCheck %s

// CHECK-LABEL: func.func @torch_jit(%{{.*}}: tensor<1x4x10x10xf32>) -> tensor<1x6xf32>
// group = C, one input channel per group: depthwise with HWCM weights.
// CHECK: tosa.depthwise_conv2d {{.*}} : (tensor<1x10x10x4xf32>, tensor<3x3x4x1xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x10x10x4xf32>
// CHECK: qnt.batch_norm
// Clip's min / max come from constant inputs (opset 13).
// CHECK: %[[CLIP:.*]] = tosa.clamp {{.*}} {max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32}
// Other groups: the float qnt.conv2d with OHWI weights.
// CHECK: %[[G:.*]] = qnt.conv2d %[[CLIP]], %{{.*}} bias(%{{.*}}) {groups = 2 : i64, pad = array<i64: 1, 1, 1, 1>} : (tensor<1x10x10x4xf32>, tensor<8x3x3x2xf32>, tensor<8xf32>) -> tensor<1x10x10x8xf32>
// CHECK: %[[POOL:.*]] = tosa.avg_pool2d %[[G]], {{.*}}kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>{{.*}} -> tensor<1x5x5x8xf32>
// (10 - 1) % 2 != 0 and no padding to trim: floor-mode qnt.conv2d.
// CHECK: %[[SIDE:.*]] = qnt.conv2d %[[CLIP]], %{{.*}} bias(%{{.*}}) {strides = array<i64: 2, 2>} : (tensor<1x10x10x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>) -> tensor<1x5x5x4xf32>
// CHECK: %[[CAT:.*]] = tosa.concat %[[POOL]], %[[SIDE]] {axis = 3 : i32} : (tensor<1x5x5x8xf32>, tensor<1x5x5x4xf32>) -> tensor<1x5x5x12xf32>
// Flatten of a 5x5 map: back to NCHW so the element order matches ONNX.
// CHECK: %[[NCHW:.*]] = tosa.transpose %[[CAT]] {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x5x5x12xf32>) -> tensor<1x12x5x5xf32>
// CHECK: tosa.reshape %[[NCHW]], %{{.*}} -> tensor<1x300xf32>
// CHECK: tosa.matmul {{.*}} : (tensor<1x1x300xf32>, tensor<1x300x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x6xf32>
// CHECK: return {{.*}} : tensor<1x6xf32>
