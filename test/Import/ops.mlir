// The ONNX ops real models export, one model per category (and small
// instances of torchvision's ViT, Swin and ConvNeXt)
// (scripts/gen_onnx_op_tests.py: PyTorch modules exported at opset 13, and
// onnx.helper graphs for forms PyTorch does not write), imported, compiled
// (JIT) and run: outputs within 1e-4 of the magnitude of PyTorch's / NumPy's.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for m in pads ceil_pools shuffle reductions activations arithmetic resizes constants upsample gelus \
// RUN:          vit_tiny swin_tiny convnext_tiny logic layer_norms einsums maxvit_tiny; do \
// RUN:   quant-translate --import-onnx %S/Inputs/ops/$m.onnx -o %t/$m.mlir && \
// RUN:   quant-run %t/$m.mlir --input %S/Inputs/ops/$m.input.npy -o %t/$m.npy && \
// RUN:   echo "$m" && %python %S/Inputs/compare.py %t/$m.npy %S/Inputs/ops/$m.output.npy || exit 1; \
// RUN: done | FileCheck %s
// CHECK: pads
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: ceil_pools
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: shuffle
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: reductions
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: activations
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: arithmetic
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: resizes
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: constants
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: upsample
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: gelus
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: vit_tiny
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: swin_tiny
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: convnext_tiny
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: logic
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: layer_norms
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: einsums
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
// CHECK: maxvit_tiny
// CHECK-NEXT: max |y - ref|
// CHECK-NEXT: MATCH
//
// GELU's exported forms (Erf, Tanh, factors in another order) become one op.
// RUN: FileCheck %s --check-prefix=GELU --input-file %t/gelus.mlir
// RUN: grep -c "qnt.unary gelu %%" %t/gelus.mlir | FileCheck %s --check-prefix=TWO
// TWO: 2
// GELU-DAG: qnt.unary gelu_tanh
// GELU-DAG: qnt.unary erf
// RUN: not grep "qnt.unary tanh" %t/gelus.mlir
//
// Attention: Q x K^T and scores x V are matmuls of two activations.
// RUN: grep -c "tosa.matmul" %t/vit_tiny.mlir | FileCheck %s --check-prefix=VIT
// 2 layers x (QKV in-projection, Q x K^T, scores x V, out-projection,
// 2 MLP linears) + the head: 13.
// VIT: 13
//
// Einsum is a matmul: two activations (MaxViT's Q x K^T and scores x V,
// an ellipsis, an implicit output, a subscript summed first) or a constant
// weight, first or second: 7 tosa.matmul. One operand alone is a
// permutation or a sum: no matmul.
// RUN: grep -c "tosa.matmul" %t/einsums.mlir | FileCheck %s --check-prefix=EINSUM
// EINSUM: 7
// RUN: grep "tosa.matmul" %t/einsums.mlir | FileCheck %s --check-prefix=EINSUMW
// EINSUMW-COUNT-2: tosa.matmul %{{[0-9]+}}, %{{[0-9a-z_]+}}, {{.*}} : (tensor<1x8x6xf32>, tensor<1x6x5xf32>
//
// Every LayerNorm is one qnt.layer_norm, whether exported as the opset-13
// pattern (ViT: 2 layers x 2 + the final one; Swin: 2 stages x 2 blocks x 2,
// the patch embedding's, the patch merging's and the final one; ConvNeXt:
// the stem's, one per block, the downsampling's and the head's; MaxViT: 2
// per attention, 2 x 2 attentions and the head's, the last stage's over a
// single window, where a unit dimension follows the normalized one) or as
// LayerNormalization (opset 17), with nn.LayerNorm's weight and bias folded
// in: no reduction, and no Pow / Sqrt, is left.
// RUN: for m in vit_tiny swin_tiny convnext_tiny layer_norms maxvit_tiny; do \
// RUN:   echo "$m $(grep -c qnt.layer_norm %t/$m.mlir) $(grep -c 'tosa.reduce_sum\|tosa.pow' %t/$m.mlir)"; \
// RUN: done | FileCheck %s --check-prefix=LN
// LN: vit_tiny 5 0
// LN: swin_tiny 11 0
// LN: convnext_tiny 5 0
// LN: layer_norms 3 0
// LN: maxvit_tiny 9 0
