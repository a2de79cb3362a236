// The normalization, activation and index ops of issue 33
// (scripts/gen_onnx_norm_act_tests.py: onnx.helper graphs at the opset each
// op starts at, and PyTorch modules exported at opset 13), imported,
// compiled (JIT) and run: outputs within 1e-4 of the magnitude of
// PyTorch's / NumPy's.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for m in activations group_norm18 group_norm21 norms reductions13 reductions18 fnormalize argmax seg_head; do \
// RUN:   quant-translate --import-onnx %S/Inputs/normact/$m.onnx -o %t/$m.mlir && \
// RUN:   quant-run %t/$m.mlir --input %S/Inputs/normact/$m.input.npy -o %t/$m.npy && \
// RUN:   echo "$m" && %python %S/Inputs/compare.py %t/$m.npy %S/Inputs/normact/$m.output.npy || exit 1; \
// RUN: done | FileCheck %s
// CHECK: activations
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: group_norm18
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: group_norm21
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: norms
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: reductions13
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: reductions18
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: fnormalize
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: argmax
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: seg_head
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
//
// Each activation is one qnt.unary (Selu's gamma is its beta).
// RUN: FileCheck %s --check-prefix=ACT --input-file %t/activations.mlir
// ACT-DAG: qnt.unary mish %0
// ACT-DAG: qnt.unary selu %0 {alpha = 1.67326319 : f32, beta = 1.05070102 : f32}
// ACT-DAG: qnt.unary selu %0 {alpha = 1.500000e+00 : f32, beta = 7.500000e-01 : f32}
// ACT-DAG: qnt.unary celu %0 {alpha = 5.000000e-01 : f32}
// ACT-DAG: qnt.unary thresholded_relu %0 {alpha = 2.500000e-01 : f32}
// ACT-DAG: qnt.unary gelu %0
// ACT-DAG: qnt.unary gelu_tanh %0
// ACT-DAG: qnt.unary round %0
// ACT-DAG: qnt.unary sign %0
//
// GroupNormalization (per-group scale at opset 18, per-channel at 21) is
// one qnt.group_norm on the NHWC input, scale and bias per channel.
// RUN: FileCheck %s --check-prefix=GN18 --input-file %t/group_norm18.mlir
// GN18: qnt.group_norm %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} {epsilon = 1.000000e-03 : f32, groups = 3 : i64} : tensor<2x3x4x6xf32>, tensor<6xf32>
// RUN: FileCheck %s --check-prefix=GN21 --input-file %t/group_norm21.mlir
// GN21: qnt.group_norm %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} {groups = 2 : i64} : tensor<2x3x4x6xf32>, tensor<6xf32>
//
// PyTorch's exports at opset 13: nn.GroupNorm's Reshape ->
// InstanceNormalization -> Reshape -> Mul -> Add and nn.InstanceNorm2d / 1d
// are each one qnt.group_norm (weight and bias folded in: no tosa.mul or
// tosa.add is left), on the channels-last tensor (the image's NHWC, the
// sequence's [N, L, C]); nn.Mish (Softplus -> Tanh -> Mul) is one qnt.unary.
// RUN: FileCheck %s --check-prefix=NORMS --input-file %t/norms.mlir
// NORMS: qnt.group_norm {{.*}} {groups = 4 : i64} : tensor<1x8x8x16xf32>, tensor<16xf32>
// NORMS-NEXT: qnt.unary mish
// NORMS: qnt.group_norm {{.*}} {groups = 16 : i64} : tensor<1x8x8x16xf32>, tensor<16xf32>
// NORMS-NEXT: qnt.unary selu
// NORMS: qnt.group_norm {{.*}} {groups = 8 : i64} : tensor<1x8x8x8xf32>, tensor<8xf32>
// NORMS: qnt.group_norm {{.*}} {groups = 2 : i64} : tensor<1x64x8xf32>, tensor<8xf32>
// NORMS-NEXT: qnt.unary gelu
// NORMS: qnt.group_norm {{.*}} {groups = 8 : i64} : tensor<1x64x8xf32>, tensor<8xf32>
// RUN: not grep "tosa.mul\|tosa.add\|qnt.unary tanh\|qnt.unary softplus" %t/norms.mlir
//
// ArgMax / ArgMin are tosa.argmax (of the negation for ArgMin, of the
// reversed input for select_last_index), cast to f32.
// RUN: FileCheck %s --check-prefix=ARG --input-file %t/argmax.mlir
// ARG-COUNT-5: tosa.argmax
// RUN: grep -c "tosa.reverse" %t/argmax.mlir | FileCheck %s --check-prefix=TWO
// TWO: 2
// ArgMax over the classes of an NHWC segmentation head (ONNX axis 1 is IR
// axis 3), its indices cast to f32 inside the graph.
// RUN: FileCheck %s --check-prefix=SEG --input-file %t/seg_head.mlir
// SEG: tosa.argmax {{.*}} {axis = 3 : i32} : (tensor<1x16x16x5xf32>) -> tensor<1x16x16xi32>
// SEG-NEXT: tosa.cast {{.*}} -> tensor<1x16x16xf32>
// The graph output is ArgMax's int64 (quant-run writes an int64 .npy).
// SEG-NEXT: tosa.cast {{.*}} -> tensor<1x16x16xi64>
// SEG-NEXT: return {{.*}} : tensor<1x16x16xi64>
// RUN: %python -c "import numpy as np; print(np.load('%t/seg_head.npy').dtype)" | FileCheck %s --check-prefix=I64
// I64: int64
//
// Invalid attributes and inputs are errors naming the node.
// RUN: for m in group_norm_groups group_norm_scale instance_norm_rank instance_norm_scale lp_norm_p gelu_approximate celu_alpha argmax_axis mish_opset; do \
// RUN:   not quant-translate --import-onnx %S/Inputs/normact/invalid/$m.onnx -o %t/invalid.mlir 2>&1; \
// RUN: done | FileCheck %s --check-prefix=INVALID
// INVALID: node 'gn' (GroupNormalization): num_groups must be given and divide the 6 channels, got 4
// INVALID: node 'gn' (GroupNormalization): scale must have shape [2]
// INVALID: node 'in' (InstanceNormalization): input must be [N, C, D1, ...] (rank >= 3), got rank 2
// INVALID: node 'in' (InstanceNormalization): scale must have shape [6]
// INVALID: node 'lp' (LpNormalization): p must be 1 or 2, got 3
// INVALID: node 'gelu' (Gelu): approximate must be "none" or "tanh", got "fast"
// INVALID: node 'celu' (Celu): alpha must not be 0
// INVALID: node 'am' (ArgMax): axis 2 is out of range for rank 2
// INVALID: node 'mish' (Mish): unsupported ONNX op 'Mish'
