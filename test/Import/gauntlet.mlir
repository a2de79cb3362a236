// Trained-model architectures as other exporters ship them, cut down to a
// few channels (scripts/gen_exporter_gauntlet.py): float within 1e-5 of
// PyTorch for two shapes of the free dimensions (the goldens are within
// 4.2e-7 of ONNX Runtime 1.30, checked once), and int8 in one command.
//
// RUN: rm -rf %t && mkdir -p %t
//
// PicoDet-style head (paddle2onnx, opset 11): the box side distributions
// are integrated by a MatMul with a 1-D weight arange(R + 1), NumPy's
// matrix-vector product ([N, A, 4, R + 1] x [R + 1] -> [N, A, 4]).
// RUN: quant-translate --import-onnx %S/Inputs/gauntlet/pico_head.onnx --input-shape x=1x4x16x24 | FileCheck %s --check-prefix=PICO
// PICO: func.func @"Model from PaddlePaddle."(%{{.*}}: tensor<1x4x16x24xf32>) -> (tensor<1x120x3xf32>, tensor<1x120x4xf32>)
// PICO: tosa.matmul {{.*}} : (tensor<1x384x4xf32>, tensor<1x4x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x384x1xf32>
// PICO: tosa.matmul {{.*}} : (tensor<1x96x4xf32>, tensor<1x4x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x96x1xf32>
// RUN: quant-run %S/Inputs/gauntlet/pico_head.onnx --input-shape x=1x4x16x24 --input %S/Inputs/gauntlet/pico_head.a.x.npy -o %t/pico_a.npz
// RUN: %python %S/Inputs/exporters/compare.py %t/pico_a.npz %S/Inputs/gauntlet/pico_head.a.out.npz 1e-5 | FileCheck %s --check-prefix=MATCH
// RUN: quant-run %S/Inputs/gauntlet/pico_head.onnx --input-shape x=2x4x8x16 --input %S/Inputs/gauntlet/pico_head.b.x.npy -o %t/pico_b.npz
// RUN: %python %S/Inputs/exporters/compare.py %t/pico_b.npz %S/Inputs/gauntlet/pico_head.b.out.npz 1e-5 | FileCheck %s --check-prefix=MATCH
// MATCH: MATCH
// The distributions' softmaxes feed the matmul: observed float islands.
// The score heads end in a sigmoid and reach the output through a reshape
// and the concat: their convolutions produce floats (qnt-float-outputs), so
// the sigmoids, the reshapes after them and the concat compute in float;
// everything else int8. With --int8-outputs only the softmaxes stay float.
// RUN: quant-compile %S/Inputs/gauntlet/pico_head.onnx --input-shape x=1x4x16x24 --calibration-data %S/Inputs/gauntlet/pico_head.a.x.npy -v -o %t/pico_q.o 2>&1 | FileCheck %s --check-prefix=PICOQ
// PICOQ: quant-compile: 7 op(s) computed in float: qnt.unary (/Sigmoid), tosa.reshape (/Reshape), qnt.softmax (/Softmax), qnt.unary (/Sigmoid_1), tosa.reshape (/Reshape_3), qnt.softmax (/Softmax_1), tosa.concat (/Concat_6)
// RUN: quant-compile %S/Inputs/gauntlet/pico_head.onnx --input-shape x=1x4x16x24 --calibration-data %S/Inputs/gauntlet/pico_head.a.x.npy --int8-outputs -v -o %t/pico_q8.o 2>&1 | FileCheck %s --check-prefix=PICOQ8
// PICOQ8: quant-compile: 2 op(s) computed in float: qnt.softmax (/Softmax), qnt.softmax (/Softmax_1)
//
// SVTR/CRNN-style recognizer head [N, 4, 8, W] (opset 11): Squeeze's axes
// attribute, a written-out LayerNorm, Softmax(axis = 2) of [N, T, C].
// RUN: quant-run %S/Inputs/gauntlet/rec_head.onnx --input-shape 1x4x8x20 --input %S/Inputs/gauntlet/rec_head.a.x.npy -o %t/rec_a.npy
// RUN: %python %S/Inputs/exporters/compare.py %t/rec_a.npy %S/Inputs/gauntlet/rec_head.a.out.npy 1e-5 | FileCheck %s --check-prefix=MATCH
// RUN: quant-run %S/Inputs/gauntlet/rec_head.onnx --input-shape 3x4x8x12 --input %S/Inputs/gauntlet/rec_head.b.x.npy -o %t/rec_b.npy
// RUN: %python %S/Inputs/exporters/compare.py %t/rec_b.npy %S/Inputs/gauntlet/rec_head.b.out.npy 1e-5 | FileCheck %s --check-prefix=MATCH
// RUN: quant-compile %S/Inputs/gauntlet/rec_head.onnx --input-shape 1x4x8x20 --calibration-data %S/Inputs/gauntlet/rec_head.a.x.npy -v -o %t/rec_q.o 2>&1 | FileCheck %s --check-prefix=RECQ
// RECQ: quant-compile: 2 op(s) computed in float: qnt.layer_norm (/n/Add_1), qnt.softmax (/Softmax)
//
// Anchor-free detector output (PyTorch opset 13): anchor points from Range
// of the feature size, boxes and scores in one Concat.
// RUN: quant-run %S/Inputs/gauntlet/yolo_head.onnx --input-shape 4x4x16x24 --input %S/Inputs/gauntlet/yolo_head.x.npy -o %t/yolo.npy
// RUN: %python %S/Inputs/exporters/compare.py %t/yolo.npy %S/Inputs/gauntlet/yolo_head.out.npy 1e-5 | FileCheck %s --check-prefix=MATCH
// The same through onnxconverter_common's float16 pass (keep_io_types):
// within 1.6e-4 of PyTorch's float32 (ONNX Runtime 1.30's float16 run is
// 3.3e-4 from it and 3.5e-4 from quant-run, checked once).
// RUN: quant-run %S/Inputs/gauntlet/yolo_head_fp16.onnx --input-shape 4x4x16x24 --input %S/Inputs/gauntlet/yolo_head.x.npy -o %t/yolo16.npy
// RUN: %python %S/Inputs/exporters/compare.py %t/yolo16.npy %S/Inputs/gauntlet/yolo_head.out.npy 1e-3 | FileCheck %s --check-prefix=MATCH
//
// PaddleOCR DB-style detector (paddle2onnx, opset 11): the nearest Resize's
// sizes from paddle's Shape -> Slice -> Cast -> Mul -> Cast -> Concat fold
// for the given shape; ConvTranspose head and Sigmoid. Goldens within
// 1.2e-7 of ONNX Runtime 1.30; int8 without a float op.
// RUN: quant-translate --import-onnx %S/Inputs/gauntlet/db_head.onnx --input-shape x=1x4x16x24 | FileCheck %s --check-prefix=DB
// DB-NOT: Shape
// DB: tosa.resize {{.*}} -> tensor<1x8x12x6xf32>
// DB: -> tensor<1x1x32x48xf32>
// RUN: quant-run %S/Inputs/gauntlet/db_head.onnx --input-shape x=1x4x16x24 --input %S/Inputs/gauntlet/db_head.a.x.npy -o %t/db_a.npy
// RUN: %python %S/Inputs/exporters/compare.py %t/db_a.npy %S/Inputs/gauntlet/db_head.a.out.npy 1e-5 | FileCheck %s --check-prefix=MATCH
// RUN: quant-run %S/Inputs/gauntlet/db_head.onnx --input-shape x=2x4x8x8 --input %S/Inputs/gauntlet/db_head.b.x.npy -o %t/db_b.npy
// RUN: %python %S/Inputs/exporters/compare.py %t/db_b.npy %S/Inputs/gauntlet/db_head.b.out.npy 1e-5 | FileCheck %s --check-prefix=MATCH
// RUN: quant-compile %S/Inputs/gauntlet/db_head.onnx --input-shape x=1x4x16x24 --calibration-data %S/Inputs/gauntlet/db_head.a.x.npy -v -o %t/db_q.o 2>&1 | FileCheck %s --check-prefix=DBQ
// The probability map's last ConvTranspose produces floats (its sigmoid
// ends the model): the sigmoid and the reshape after it run in float.
// DBQ: quant-compile: 2 op(s) computed in float: qnt.unary (/Sigmoid), tosa.reshape (out)
