// The vision ops of scripts/gen_onnx_vision_tests.py: ConvTranspose
// (PyTorch's forms, and ONNX's auto_pad / output_shape forms against the
// NumPy reference, which ONNX Runtime 1.30 matches), 1-D Conv / pools
// (a PyTorch audio model, and ONNX's global pools and auto_pad forms on
// [N, C, L] against NumPy), DepthToSpace / SpaceToDepth (PixelShuffle and
// ONNX's DCR / CRD modes), imported, compiled (JIT) and run: outputs within
// 1e-4 of the magnitude of PyTorch's / NumPy's (measured: 0 to 2e-7).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for m in conv_transpose conv_transpose_attrs audio1d pools1d pixel_shuffle depth_space; do \
// RUN:   quant-translate --import-onnx %S/Inputs/vision/$m.onnx -o %t/$m.mlir && \
// RUN:   quant-run %t/$m.mlir --input %S/Inputs/vision/$m.input.npy -o %t/$m.npy && \
// RUN:   echo "$m" && %python %S/Inputs/compare.py %t/$m.npy %S/Inputs/vision/$m.output.npy || exit 1; \
// RUN: done | FileCheck %s
// CHECK: conv_transpose
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: conv_transpose_attrs
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: audio1d
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: pools1d
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: pixel_shuffle
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: depth_space
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
//
// A strided ConvTranspose is zero insertion (reshape, a zero pad of a unit
// dimension, reshape) and a stride-1 conv with the flipped kernel: the
// first layer of conv_transpose (4 -> 3, k3, stride 2, padding 1,
// output_padding 1) on [1, 4, 4, 5].
// RUN: FileCheck %s --check-prefix=CT --input-file %t/conv_transpose.mlir
// CT: tosa.reshape {{.*}} -> tensor<1x4x1x5x1x4xf32>
// CT: tosa.pad {{.*}} -> tensor<1x4x2x5x2x4xf32>
// CT: tosa.reshape {{.*}} -> tensor<1x8x10x4xf32>
// CT: tosa.conv2d {{.*}} {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} {{.*}} -> tensor<1x8x10x3xf32>
// Groups (qnt.conv2d) and depthwise (tosa.depthwise_conv2d) keep their
// form; padding beyond dilation * (kernel - 1) crops the input (a slice).
// RUN: FileCheck %s --check-prefix=CTFORMS --input-file %t/conv_transpose.mlir
// CTFORMS-DAG: qnt.conv2d {{.*}}groups = 2
// CTFORMS-DAG: tosa.depthwise_conv2d
// CTFORMS-DAG: tosa.slice
//
// 1-D ops are the 2-D ops with H = 1, in NHWC ([N, 1, L, C]): one
// transpose at the input, none between the layers.
// RUN: FileCheck %s --check-prefix=AUDIO --input-file %t/audio1d.mlir
// AUDIO: tosa.transpose %{{.*}} {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x1x4x32xf32>) -> tensor<1x1x32x4xf32>
// AUDIO-NOT: tosa.transpose
// AUDIO: tosa.conv2d {{.*}} -> tensor<1x1x16x8xf32>
// AUDIO-NOT: tosa.transpose
// AUDIO: tosa.max_pool2d {{.*}} -> tensor<1x1x8x8xf32>
// AUDIO-NOT: tosa.transpose
// AUDIO: qnt.conv2d
// AUDIO-NOT: tosa.transpose
// AUDIO: tosa.avg_pool2d
// RUN: grep -c "tosa.max_pool2d\|tosa.avg_pool2d" %t/audio1d.mlir | FileCheck %s --check-prefix=POOLS
// 2 max pools, 2 average pools, the two adaptive (global) pools.
// POOLS: 6
//
// DepthToSpace / SpaceToDepth: one 6-D transpose each, the rest reshapes
X
// RUN: grep -cE "tosa.transpose.*-> tensor<1(x[0-9]+){5}xf32>" %t/depth_space.mlir | FileCheck %s --check-prefix=SIX
// SIX: 5
