// Models as exporters other than PyTorch 1.13 write them
// (scripts/gen_exporter_models.py): free input dimensions fixed with
// --input-shape (shape sub-graphs fold for the given shape), the symbol
// prefix of a graph whose name is not a C identifier, nodes out of
// topological order, float16 / bfloat16 / double tensors and Casts.
//
// RUN: rm -rf %t && mkdir -p %t
//
// PaddlePaddle-style detector, x [N, 3, H, W]: every free dimension must be
// given.
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/paddle_det.onnx -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=FREE
// FREE: quant-translate: error: '{{.*}}paddle_det.onnx': graph input 'x' [N, 3, H, W] has a dynamic dimension (use --batch N for a symbolic batch dimension, or --input-shape x=DxDx... for the whole shape)
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/paddle_det.onnx --batch 2 -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=FREEHW
// FREEHW: error: '{{.*}}paddle_det.onnx': graph input 'x' [N, 3, H, W] has a dynamic dimension (fix the free dimensions with --input-shape x=DxDx...)
//
// The Resize sizes (Shape -> Slice -> Cast -> Mul -> Floor -> Cast ->
// Concat: unary ops on constants fold too), the
// Reshape shapes (Shape -> Gather -> Concat), Range and ConstantOfShape
// fold: no shape arithmetic is left, only the model's ops.
// RUN: quant-translate --import-onnx %S/Inputs/exporters/paddle_det.onnx --input-shape x=1x3x24x24 -o %t/paddle_a.mlir
// RUN: FileCheck %s --check-prefix=PADDLE < %t/paddle_a.mlir
// RUN: quant-translate --import-onnx %S/Inputs/exporters/paddle_det.onnx --input-shape 1x3x24x24 | diff - %t/paddle_a.mlir
// PADDLE: func.func @"Model from PaddlePaddle."(%{{.*}}: tensor<1x3x24x24xf32>) -> (tensor<1x144x4xf32>, tensor<1x144x2xf32>)
// PADDLE-COUNT-2: tosa.conv2d
// PADDLE: tosa.resize {{.*}} -> tensor<1x12x12x16xf32>
// PADDLE: tosa.concat {{.*}} -> tensor<1x12x12x24xf32>
// PADDLE: tosa.conv2d
// PADDLE-NOT: tosa.cast
// PADDLE: return
//
// Float outputs against PyTorch's for two shapes (batch 1 and 2, W != H),
// to 1e-5 of their magnitude (measured: 1e-7; 1.5e-7 from ONNX Runtime
// 1.30's outputs, measured once with onnxruntime-node).
// RUN: quant-run %t/paddle_a.mlir --input %S/Inputs/exporters/paddle_det.a.x.npy -o %t/paddle_a.npz
// RUN: %python %S/Inputs/exporters/compare.py %t/paddle_a.npz %S/Inputs/exporters/paddle_det.a.out.npz 1e-5 | FileCheck %s --check-prefix=MATCH
// RUN: quant-run %S/Inputs/exporters/paddle_det.onnx --input-shape x=2x3x16x24 --input %S/Inputs/exporters/paddle_det.b.x.npy -o %t/paddle_b.npz
// RUN: %python %S/Inputs/exporters/compare.py %t/paddle_b.npz %S/Inputs/exporters/paddle_det.b.out.npz 1e-5 | FileCheck %s --check-prefix=MATCH
// MATCH: MATCH
//
// Unary ops and Clip of constants fold: sqrt(|-[N, 2, 3, 4]|) clipped to
// [1.2, 2.6] and rounded.
// RUN: quant-translate --import-onnx %S/Inputs/exporters/fold_unary.onnx --input-shape 5x2x3x4 | FileCheck %s --check-prefix=FOLD
// FOLD: tosa.const"() <{values = dense<{{\[\[\[\[}}2.000000e+00], [1.000000e+00], [2.000000e+00], [2.000000e+00]]]]>
// FOLD-NOT: tosa.sqrt
//
// --batch applies to the inputs --input-shape does not name, and must agree
// with it.
// RUN: quant-translate --import-onnx %S/Inputs/exporters/paddle_det.onnx --input-shape x=2x3x16x24 --batch 2 | FileCheck %s --check-prefix=BOTH
// BOTH: tensor<2x3x16x24xf32>) -> (tensor<2x96x4xf32>, tensor<2x96x2xf32>)
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/paddle_det.onnx --input-shape x=1x3x16x24 --batch 2 2>&1 | FileCheck %s --check-prefix=BATCHDIFF
// BATCHDIFF: error: '{{.*}}paddle_det.onnx': --input-shape x=1x3x16x24 for graph input 'x' [N, 3, H, W]: its first dimension differs from --batch 2
//
// quant-compile: the graph's name is not a C identifier, so the symbols
// are named after the output file; calibration data of another shape is
// refused naming both shapes.
// RUN: quant-compile %S/Inputs/exporters/paddle_det.onnx --input-shape x=1x3x24x24 -o %t/det-v2.o
// RUN: FileCheck %s --check-prefix=SYMBOL < %t/det-v2.h
// SYMBOL: int det_v2_run(
// RUN: not quant-compile %S/Inputs/exporters/paddle_det.onnx --input-shape x=1x3x24x24 --calibration-data %S/Inputs/exporters/paddle_det.b.x.npy -o %t/none.o 2>&1 | FileCheck %s --check-prefix=CALIB
// RUN: not quant-calibrate %S/Inputs/exporters/paddle_det.onnx --input-shape x=1x3x24x24 --data %S/Inputs/exporters/paddle_det.b.x.npy -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=CALIB
// CALIB: error: {{.*}}paddle_det.b.x.npy: shape 2x3x16x24 does not match the model input 1x3x24x24
// int8 from the ONNX file in one command, for the given shape.
// RUN: quant-compile %S/Inputs/exporters/paddle_det.onnx --input-shape x=1x3x24x24 --calibration-data %S/Inputs/exporters/paddle_det.a.x.npy -o %t/det_q.o
// RUN: FileCheck %s --check-prefix=INT8 < %t/det_q.h
// INT8: int det_q_run(
// INT8: Inputs are quantized inside; outputs are dequantized from 8 bits
// RUN: quant-calibrate %S/Inputs/exporters/paddle_det.onnx --input-shape x=1x3x24x24 --data %S/Inputs/exporters/paddle_det.a.x.npy --quiet -o %t/paddle_cal.mlir
// RUN: FileCheck %s --check-prefix=CALIBRATED < %t/paddle_cal.mlir
// CALIBRATED: qnt.observe
//
// float16 model (onnxconverter_common's pass, keep_io_types): the input's
// Cast, the last node in the file, is imported first; the float16 weights
// (raw_data and int32_data), Constant and InstanceNormalization scale and
// bias are float32 constants; the Cast to float16 rounds (tosa.cast there
// and back), the Cast to float is the identity.
// RUN: quant-translate --import-onnx %S/Inputs/exporters/fp16.onnx -o %t/fp16.mlir
// RUN: FileCheck %s --check-prefix=FP16 < %t/fp16.mlir
// FP16: func.func @torch_jit(%[[X:.*]]: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32>
// FP16: %[[T:.*]] = tosa.transpose %[[X]]
// FP16: %[[H:.*]] = tosa.cast %[[T]] : (tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf16>
// FP16: %[[R:.*]] = tosa.cast %[[H]] : (tensor<1x8x8x3xf16>) -> tensor<1x8x8x3xf32>
// FP16: tosa.conv2d %[[R]]
// FP16-NOT: tosa.cast
// Against the float16 model evaluated in NumPy as ONNX Runtime's float16
// kernels do (float16 after every op), to 1e-2 of the output's magnitude
// (measured: 8e-4; 2.4e-4 from ONNX Runtime 1.30's own outputs).
// RUN: quant-run %t/fp16.mlir --input %S/Inputs/exporters/fp16.x.npy -o %t/fp16.npy
// RUN: %python %S/Inputs/exporters/compare.py %t/fp16.npy %S/Inputs/exporters/fp16.out.npy 1e-2 | FileCheck %s --check-prefix=MATCH
// In the int8 pipeline the rounding stays a float op.
// RUN: quant-compile %S/Inputs/exporters/fp16.onnx --calibration-data %S/Inputs/exporters/fp16.x.npy -v -o %t/fp16_q.o 2>&1 | FileCheck %s --check-prefix=FP16INT8
// FP16INT8: computed in float: tosa.cast (graph_input_cast0), tosa.cast (graph_input_cast0)
// The same without keep_io_types: float16 graph input and output are float32
// at the compiled interface.
// RUN: quant-translate --import-onnx %S/Inputs/exporters/fp16_io.onnx | FileCheck %s --check-prefix=FP16IO
// FP16IO: func.func @torch_jit(%{{.*}}: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32>
// FP16IO-NOT: tosa.cast
// RUN: quant-run %S/Inputs/exporters/fp16_io.onnx --input %S/Inputs/exporters/fp16_io.x.npy -o %t/fp16_io.npy
// RUN: %python %S/Inputs/exporters/compare.py %t/fp16_io.npy %S/Inputs/exporters/fp16.out.npy 1e-2 | FileCheck %s --check-prefix=MATCH
//
// DOUBLE and BFLOAT16 initializers, a FLOAT16 Constant in int32_data, Casts
// to bfloat16 and float16 of an activation: bit-exact with NumPy's rounding
// (round to nearest even) and with ONNX Runtime 1.30's outputs (measured
// once).
// RUN: quant-translate --import-onnx %S/Inputs/exporters/dtypes.onnx | FileCheck %s --check-prefix=DTYPES
// DTYPES: tosa.cast {{.*}} -> tensor<2x3x3x4xbf16>
// DTYPES: tosa.cast {{.*}} -> tensor<2x3x3x4xf16>
// RUN: quant-compile %S/Inputs/exporters/dtypes.onnx --calibration-data %S/Inputs/exporters/dtypes.x.npy -v -o %t/dtypes_q.o 2>&1 | FileCheck %s --check-prefix=DTYPESINT8
// DTYPESINT8: 4 op(s) computed in float: tosa.cast (to_bf16), tosa.cast (to_bf16), tosa.cast (to_fp16), tosa.cast (to_fp16)
// RUN: quant-run %S/Inputs/exporters/dtypes.onnx --input %S/Inputs/exporters/dtypes.x.npy -o %t/dtypes.npy
// RUN: %python %S/Inputs/exporters/compare.py %t/dtypes.npy %S/Inputs/exporters/dtypes.out.npy 0 | FileCheck %s --check-prefix=MATCH
//
// Malformed models and options: a message naming the problem, a non-zero
// exit status and no output file.
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/cycle.onnx -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=CYCLE
// CYCLE: error: '{{.*}}cycle.onnx': the graph has a cycle: node 'add_a' (Add) -> node 'relu_b' (Relu) -> node 'relu_c' (Relu) -> node 'add_a' (Add)
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/bad_dtype.onnx -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: error: '{{.*}}bad_dtype.onnx': initializer: tensor 'names' has unsupported data type 8 (string; supported: float32, float16, bfloat16, double, int64, int32, int8, uint8, bool)
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/bad_constant.onnx -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=CONSTTYPE
// CONSTTYPE: error: '{{.*}}bad_constant.onnx': node 'k' (Constant): tensor 'kv' has unsupported data type 14 (complex64; supported: float32, float16, bfloat16, double, int64, int32, int8, uint8, bool)
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/int_input.onnx -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=INTINPUT
// INTINPUT: error: '{{.*}}int_input.onnx': graph input 'x' is not a float tensor (float32, float16, bfloat16 or double)
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/no_shape.onnx -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=NOSHAPE
// NOSHAPE: error: '{{.*}}no_shape.onnx': graph input 'x' has no declared shape; give it with --input-shape x=DxDx...
// RUN: quant-translate --import-onnx %S/Inputs/exporters/no_shape.onnx --input-shape 1x2x4x4 | FileCheck %s --check-prefix=GIVEN
// GIVEN: (%{{.*}}: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/two_inputs.onnx --input-shape 1x2x4x4 -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=NONAME
// NONAME: error: '{{.*}}two_inputs.onnx': --input-shape 1x2x4x4 names no input, and the model has 2 inputs ('x1', 'x2'): use --input-shape NAME=1x2x4x4
// RUN: quant-translate --import-onnx %S/Inputs/exporters/two_inputs.onnx --input-shape x2=3x2x5x5 --input-shape x1=3x2x5x5 | FileCheck %s --check-prefix=TWO
// TWO: (%{{.*}}: tensor<3x2x5x5xf32>, %{{.*}}: tensor<3x2x5x5xf32>) -> tensor<3x2x5x5xf32>
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/two_inputs.onnx --input-shape x1=3x2x5x5 --input-shape y=3x2x5x5 -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: '{{.*}}two_inputs.onnx': --input-shape names 'y', which is not a graph input (the inputs: 'x1', 'x2')
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/paddle_det.onnx --input-shape x=1x4x24x24 -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: error: '{{.*}}paddle_det.onnx': --input-shape x=1x4x24x24 for graph input 'x' [N, 3, H, W]: dimension 1 is static (3), the given shape has 4
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/paddle_det.onnx --input-shape x=1x3x24 -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: error: '{{.*}}paddle_det.onnx': --input-shape x=1x3x24 for graph input 'x' [N, 3, H, W]: the input has rank 4, the given shape 3
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/paddle_det.onnx --input-shape x=1x-3 -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: quant-translate: error: bad --input-shape 'x=1x-3': dimension '-3' is not a positive integer (expected e.g. 1x3x224x224)
// RUN: not quant-compile %S/Inputs/exporters/paddle_det.onnx --input-shape=x=1x3x0x24 -o %t/none.o 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: quant-compile: error: bad --input-shape 'x=1x3x0x24': dimension 0: empty tensors are not supported
// RUN: not quant-run %S/Inputs/exporters/paddle_det.onnx --input-shape x=1024x3x1024x1024 --input %S/Inputs/exporters/paddle_det.a.x.npy -o %t/none.npz 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: quant-run: error: bad --input-shape 'x=1024x3x1024x1024': the shape has more than 2147483648 elements
// RUN: not quant-calibrate %S/Inputs/exporters/paddle_det.onnx --input-shape =1x3 --data %S/Inputs/exporters/paddle_det.a.x.npy -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=EMPTYNAME
// EMPTYNAME: quant-calibrate: error: bad --input-shape '=1x3': the input name before '=' is empty
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/paddle_det.onnx --input-shape x=1x3x8x8 --input-shape x=1x3x8x8 -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: bad --input-shape 'x=1x3x8x8': input 'x' is given twice
// RUN: not quant-translate --import-onnx %S/Inputs/exporters/paddle_det.onnx --input-shape x= -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=NODIMS
// NODIMS: error: bad --input-shape 'x=': no dimensions (expected e.g. 1x3x224x224)
// RUN: not quant-compile %t/paddle_a.mlir --input-shape x=1x3x8x8 -o %t/none.o 2>&1 | FileCheck %s --check-prefix=NOTONNX
// NOTONNX: quant-compile: error: --input-shape and --batch apply to ONNX models (.onnx)
// RUN: not ls %t/none.mlir %t/none.o %t/none.h %t/none.npz
