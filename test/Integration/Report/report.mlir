// The per-layer quantization report (quant-calibrate --report, quant-compile
// --report), checked against numpy on activations that quant-run dumps
// independently: the float model's, and the int8 reference's dequantized
// activations of a copy of the model that returns the layer
// (Inputs/truncate.py).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy; numpy.save('%t/data.npy', numpy.load('%quantc_src_root/examples/small-cnn/calibration.npy')[:48])"
// RUN: quant-opt %quantc_src_root/examples/small-cnn/model.mlir --qnt-fuse --qnt-insert-observers -o %t/observed.mlir
// RUN: quant-calibrate %t/observed.mlir --data %t/data.npy --batch-size 16 --quiet -o %t/calibrated.mlir --report %t/r
// RUN: FileCheck %s --input-file %t/r/report.json
// RUN: %python %S/Inputs/check_html.py %t/r | FileCheck %s --check-prefix=HTML
// HTML: HTML OK: 10 layers
//
// The model input: the float activation is the data itself.
// RUN: %python %S/Inputs/check_report.py %t/r/report.json input %t/data.npy | FileCheck %s --check-prefix=OK
//
// The summary against the float model and the int8 model run apart.
// RUN: quant-run %t/calibrated.mlir --input %t/data.npy -o %t/float.npy
// RUN: quant-opt %t/calibrated.mlir --qnt-fold-observers --qnt-quantize -o %t/int8.mlir
// RUN: quant-run %t/int8.mlir --reference --input %t/data.npy -o %t/int8.npy
// RUN: %python %S/Inputs/check_report.py %t/r/report.json output %t/float.npy %t/int8.npy | FileCheck %s --check-prefix=OK
//
// Layers deep in the model (after a pool, the residual add, the classifier).
// RUN: %python %S/Inputs/truncate.py %t/calibrated.mlir relu2 %t/relu2.mlir
// RUN: quant-run %t/relu2.mlir --input %t/data.npy -o %t/relu2.float.npy
// RUN: quant-opt %t/relu2.mlir --qnt-fold-observers --qnt-quantize -o %t/relu2.int8.mlir
// RUN: quant-run %t/relu2.int8.mlir --reference --input %t/data.npy -o %t/relu2.int8.npy
// RUN: %python %S/Inputs/check_report.py %t/r/report.json layer relu2 %t/relu2.float.npy %t/relu2.int8.npy | FileCheck %s --check-prefix=OK
// RUN: %python %S/Inputs/truncate.py %t/calibrated.mlir add1 %t/add1.mlir
// RUN: quant-run %t/add1.mlir --input %t/data.npy -o %t/add1.float.npy
// RUN: quant-opt %t/add1.mlir --qnt-fold-observers --qnt-quantize -o %t/add1.int8.mlir
// RUN: quant-run %t/add1.int8.mlir --reference --input %t/data.npy -o %t/add1.int8.npy
// RUN: %python %S/Inputs/check_report.py %t/r/report.json layer add1 %t/add1.float.npy %t/add1.int8.npy | FileCheck %s --check-prefix=OK
// RUN: %python %S/Inputs/check_report.py %t/r/report.json layer fc %t/float.npy %t/int8.npy | FileCheck %s --check-prefix=OK
// OK: REPORT CHECKED
//
// A min/max observer: the clipping range is the observed range.
// RUN: quant-opt %quantc_src_root/examples/small-cnn/model.mlir --qnt-fuse --qnt-insert-observers="activation-kind=min_max" -o %t/minmax.mlir
// RUN: quant-calibrate %t/minmax.mlir --data %t/data.npy --quiet -o %t/minmax.calibrated.mlir --report %t/m
// RUN: %python %S/Inputs/check_report.py %t/m/report.json input %t/data.npy | FileCheck %s --check-prefix=OK
// RUN: %python -c "import json; [print(l['name'], l['clip_min'] == min(l['observed_min'], 0), l['clip_max'] == max(l['observed_max'], 0), l['clipped']) for l in json.load(open('%t/m/report.json'))['layers']]" | FileCheck %s --check-prefix=MINMAX
// MINMAX: relu1 True True 0
// MINMAX: fc True True 0
//
// The one-command path from ONNX: layer names are the ONNX node names.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --calibration-data %quantc_src_root/test/Import/Inputs/resnet_block.input.npy -o %t/resnet.o --report %t/onnx
// RUN: %python %S/Inputs/check_html.py %t/onnx | FileCheck %s --check-prefix=ONNX-HTML
// ONNX-HTML: HTML OK: {{[0-9]+}} layers
// RUN: %python %S/Inputs/check_report.py %t/onnx/report.json input %quantc_src_root/test/Import/Inputs/resnet_block.input.npy | FileCheck %s --check-prefix=OK
// RUN: FileCheck %s --check-prefix=ONNX --input-file %t/onnx/report.json
// ONNX: "int8_executor": "reference"
// ONNX: "name": "{{/[^"]*}}Relu{{[^"]*}}"
// ONNX: "op": "qnt.conv2d relu"
// ONNX: "kind": "histogram"
// ONNX: "kind": "per_channel_min_max"
// RUN: test -f %t/resnet.o
//
// CHECK: "format": "quantc-quantization-report"
// CHECK: "int8_executor": "reference"
// CHECK: "samples": 48
// CHECK: "summary": {
// CHECK: "classifier": true
// CHECK: "layers": 10
// CHECK: "top1_agreement":
// CHECK: "worst_layers": [
// CHECK: "layers": [
// CHECK: "name": "input"
// CHECK: "op": "input"
// CHECK: "dtype": "quint8"
// CHECK: "name": "relu1"
// CHECK: "fused_layers": [
// CHECK-NEXT: "conv1",
// CHECK-NEXT: "bn1",
// CHECK-NEXT: "relu1"
// CHECK: "kind": "histogram"
// CHECK: "op": "qnt.conv2d relu"
// CHECK: "weights": [
// CHECK: "channels": 16
// CHECK: "kind": "per_channel_min_max"
// CHECK: "name": "conv1.weight"
