// Import errors: a message on stderr naming the problem, a non-zero exit
// status and no output.
//
// RUN: not quant-translate --import-onnx %S/Inputs/bad_op.onnx -o %t.mlir 2>&1 | FileCheck %s --check-prefix=BADOP
// BADOP: quant-translate: error: '{{.*}}bad_op.onnx': node 'hardmax' (Hardmax): unsupported ONNX op 'Hardmax'
//
// RUN: head -c 3000 %S/Inputs/resnet_block.onnx > %t.truncated.onnx
// RUN: not quant-translate --import-onnx %t.truncated.onnx 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: error: '{{.*}}truncated.onnx': cannot parse the ONNX protobuf (corrupt or truncated file)
//
// RUN: not quant-translate --import-onnx %S/Inputs/missing_init.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: '{{.*}}missing_init.onnx': node 'add_bias' (Add): input 'bias' is not a graph input, an initializer or an earlier node's output (missing initializer?)
//
// RUN: not quant-translate --import-onnx %S/Inputs/dynamic.onnx 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: error: '{{.*}}dynamic.onnx': graph input 'x' [N, 2, 4, 4] has a dynamic dimension (use --batch N for a symbolic batch dimension, or --input-shape x=DxDx... for the whole shape)
//
// RUN: not quant-translate --import-onnx %t.does-not-exist.onnx 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: cannot read '{{.*}}does-not-exist.onnx'
//
// With --batch the symbolic batch dimension gets a size.
// RUN: quant-translate --import-onnx %S/Inputs/dynamic.onnx --batch 4 | FileCheck %s --check-prefix=BATCH
// BATCH: func.func @dynamic(%{{.*}}: tensor<4x2x4x4xf32>) -> tensor<4x2x4x4xf32>
//
// DequantizeLinear of an initializer (scripts/gen_qdq_test_model.py).
// RUN: not quant-translate --import-onnx %S/Inputs/qdq_bad_dtype.onnx 2>&1 | FileCheck %s --check-prefix=DQTYPE
// DQTYPE: error: '{{.*}}qdq_bad_dtype.onnx': node 'w_dequant' (DequantizeLinear): only int8, uint8 and int32 initializers can be dequantized
// RUN: not quant-translate --import-onnx %S/Inputs/qdq_bad_zp.onnx 2>&1 | FileCheck %s --check-prefix=DQZP
// DQZP: error: '{{.*}}qdq_bad_zp.onnx': node 'w_dequant' (DequantizeLinear): zero point type differs from the input's
// RUN: not quant-translate --import-onnx %S/Inputs/qdq_bad_axis.onnx 2>&1 | FileCheck %s --check-prefix=DQAXIS
// DQAXIS: error: '{{.*}}qdq_bad_axis.onnx': node 'w_dequant' (DequantizeLinear): per-axis scale does not match the input's axis 0
//
// Cast and ConstantOfShape (as PyTorch's QDQ export uses them) beyond what
// the importer represents.
// RUN: not quant-translate --import-onnx %S/Inputs/cast_quantized.onnx 2>&1 | FileCheck %s --check-prefix=CASTQ
// CASTQ: error: '{{.*}}cast_quantized.onnx': node 'to_int8' (Cast): a quantized value can only be cast to its own type
// A Cast of an activation to an integer type imports (its graph output is
// an integer result, see test/Import/int-outputs.mlir).
// RUN: quant-translate --import-onnx %S/Inputs/cast_activation.onnx 2>&1 | FileCheck %s --check-prefix=CASTA
// CASTA: quantc.output_dtypes = ["int32"]
// RUN: not quant-translate --import-onnx %S/Inputs/cast_constant.onnx 2>&1 | FileCheck %s --check-prefix=CASTC
// CASTC: error: '{{.*}}cast_constant.onnx': node 'to_string' (Cast): unsupported target type 8 (string)
// RUN: not quant-translate --import-onnx %S/Inputs/cast_undefined.onnx 2>&1 | FileCheck %s --check-prefix=CASTU
// CASTU: error: '{{.*}}cast_undefined.onnx': node 'cast' (Cast): input 'nope' is not defined
// RUN: not quant-translate --import-onnx %S/Inputs/constant_of_shape_negative.onnx 2>&1 | FileCheck %s --check-prefix=COSN
// COSN: error: '{{.*}}constant_of_shape_negative.onnx': node 'fill' (ConstantOfShape): the shape: negative dimension -1
// RUN: not quant-translate --import-onnx %S/Inputs/constant_of_shape_value.onnx 2>&1 | FileCheck %s --check-prefix=COSV
// COSV: error: '{{.*}}constant_of_shape_value.onnx': node 'fill' (ConstantOfShape): value must have one element
