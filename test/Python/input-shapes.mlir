// quantc.compile(..., input_shapes=) (quant-compile --input-shape): a
// PaddlePaddle-style model with free dimensions compiled for two shapes (a
// dict by input name, one shape for the only input), a float16 model and
// float16 / bfloat16 Casts, each run from the shared library against its
// reference; bad shapes are
// refused by quant-compile with its message.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/test_input_shapes.py %quantc_tools_dir %quantc_src_root %t | FileCheck %s
// CHECK: paddle_det paddle_a [1, 3, 24, 24]: max rel. error
// CHECK: paddle_det paddle_b [2, 3, 16, 24]: max rel. error
// CHECK: fp16: max rel. error
// CHECK: fp16 int8: {{[0-9.]+}} dB SQNR
// CHECK: dtypes: bit-exact
// CHECK: refused: quant-compile failed (exit 1): quant-compile: error: '{{.*}}paddle_det.onnx': --input-shape names 'y', which is not a graph input (the inputs: 'x')
// CHECK: refused: quant-compile failed (exit 1): quant-compile: error: bad --input-shape '1x3x0x8': dimension 0: empty tensors are not supported
// CHECK: refused: input_shapes: [1.5, 3] is not a sequence of integers
// CHECK: INPUT SHAPES OK
