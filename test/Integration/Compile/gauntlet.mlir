// An anchor-free detector's decoded output (scripts/gen_exporter_gauntlet.py
// yolo_head.onnx, PyTorch opset 13 with free H, W): box coordinates in
// pixels (up to 100) and sigmoid class scores (0..1) concatenated into one
// graph output. Compiled to int8 in one command, the Concat at the output
// stays a float concat of its dequantized inputs, each on its own grid (a
// shared scale, about 0.49 here, would leave the scores one step: off by up
// to 0.25); measured 0.055 on the scores and 7.4 px on the boxes.
//
// RUN: rm -rf %t && mkdir -p %t/q
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/gauntlet/yolo_head.onnx --input-shape 1x4x16x24 --calibration-data %quantc_src_root/test/Import/Inputs/gauntlet/yolo_head.x.npy --name yolo -v -o %t/q/model.o 2>&1 | FileCheck %s --check-prefix=INT8
// INT8: quant-compile: 4 op(s) computed in float: tosa.exp (/Exp), tosa.sub (/Sub), tosa.add (/Add_1), tosa.concat (/Concat_7)
// RUN: cc -I%t/q -DMODEL=yolo -DMODEL_UPPER=YOLO %quantc_src_root/examples/common/run_model.c %t/q/model.o -lm -o %t/q/run
// RUN: %t/q/run %quantc_src_root/test/Import/Inputs/gauntlet/yolo_head.x.npy %t/q/out.npy
// RUN: %python -c "import numpy as np; r = np.load('%quantc_src_root/test/Import/Inputs/gauntlet/yolo_head.out.npy'); y = np.load('%t/q/out.npy').reshape(r.shape); e = np.abs(y - r); print('SCORES', e[..., 4:].max() < 0.1, 'BOXES', e[..., :4].max() < 0.1 * np.abs(r[..., :4]).max())" | FileCheck %s --check-prefix=ERR
// ERR: SCORES True BOXES True
//
// The float16 model (yolo_head_fp16.onnx): the same int8 object but for
// the input's float16 rounding (a float Cast pair).
// RUN: mkdir -p %t/h && quant-compile %quantc_src_root/test/Import/Inputs/gauntlet/yolo_head_fp16.onnx --input-shape 1x4x16x24 --calibration-data %quantc_src_root/test/Import/Inputs/gauntlet/yolo_head.x.npy --name yolo -v -o %t/h/model.o 2>&1 | FileCheck %s --check-prefix=INT8FP16
// INT8FP16: quant-compile: 6 op(s) computed in float: tosa.cast (graph_input_cast0), tosa.cast (graph_input_cast0), tosa.exp (/Exp), tosa.sub (/Sub), tosa.add (/Add_1), tosa.concat (/Concat_7)
// RUN: cc -I%t/h -DMODEL=yolo -DMODEL_UPPER=YOLO %quantc_src_root/examples/common/run_model.c %t/h/model.o -lm -o %t/h/run
// RUN: %t/h/run %quantc_src_root/test/Import/Inputs/gauntlet/yolo_head.x.npy %t/h/out.npy
// RUN: %python -c "import numpy as np; r = np.load('%quantc_src_root/test/Import/Inputs/gauntlet/yolo_head.out.npy'); y = np.load('%t/h/out.npy').reshape(r.shape); e = np.abs(y - r); print('SCORES', e[..., 4:].max() < 0.1, 'BOXES', e[..., :4].max() < 0.1 * np.abs(r[..., :4]).max())" | FileCheck %s --check-prefix=ERR
