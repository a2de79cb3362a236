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
// HTML: HTML OK: 6 layers
//
// The model input: the float activation is the data itself.
// RUN: %python %S/Inputs/check_report.py %t/r/report.json input %t/data.npy | FileCheck %s --check-prefix=CHECKED
//
// The summary against the float model and the int8 model run apart.
// RUN: quant-run %t/calibrated.mlir --input %t/data.npy -o %t/float.npy
// The int8 model is the quantize stage as post-training quantization runs
// it (quantc-quantize: the model output produced in float by its layer).
// RUN: quant-opt %t/calibrated.mlir --quantc-quantize -o %t/int8.mlir
// RUN: quant-run %t/int8.mlir --reference --input %t/data.npy -o %t/int8.npy
// RUN: %python %S/Inputs/check_report.py %t/r/report.json output %t/float.npy %t/int8.npy | FileCheck %s --check-prefix=CHECKED
//
// Layers deep in the model: after a pool, after the residual add (fused into
// conv3: relu3), the classifier (the model output).
// RUN: %python %S/Inputs/truncate.py %t/calibrated.mlir relu2 %t/relu2.mlir
// RUN: quant-run %t/relu2.mlir --input %t/data.npy -o %t/relu2.float.npy
// RUN: quant-opt %t/relu2.mlir --qnt-fold-observers --qnt-quantize -o %t/relu2.int8.mlir
// RUN: quant-run %t/relu2.int8.mlir --reference --input %t/data.npy -o %t/relu2.int8.npy
// RUN: %python %S/Inputs/check_report.py %t/r/report.json layer relu2 %t/relu2.float.npy %t/relu2.int8.npy | FileCheck %s --check-prefix=CHECKED
// RUN: %python %S/Inputs/truncate.py %t/calibrated.mlir relu3 %t/relu3.mlir
// RUN: quant-run %t/relu3.mlir --input %t/data.npy -o %t/relu3.float.npy
// RUN: quant-opt %t/relu3.mlir --qnt-fold-observers --qnt-quantize -o %t/relu3.int8.mlir
// RUN: quant-run %t/relu3.int8.mlir --reference --input %t/data.npy -o %t/relu3.int8.npy
// RUN: %python %S/Inputs/check_report.py %t/r/report.json layer relu3 %t/relu3.float.npy %t/relu3.int8.npy | FileCheck %s --check-prefix=CHECKED
// RUN: %python %S/Inputs/check_report.py %t/r/report.json layer fc.add %t/float.npy %t/int8.npy | FileCheck %s --check-prefix=CHECKED
// CHECKED: REPORT CHECKED
//
// A min/max observer: the clipping range is the observed range.
// RUN: quant-opt %quantc_src_root/examples/small-cnn/model.mlir --qnt-fuse --qnt-insert-observers="activation-kind=min_max" -o %t/minmax.mlir
// RUN: quant-calibrate %t/minmax.mlir --data %t/data.npy --quiet -o %t/minmax.calibrated.mlir --report %t/m
// RUN: %python %S/Inputs/check_report.py %t/m/report.json input %t/data.npy | FileCheck %s --check-prefix=CHECKED
// RUN: %python -c "import json; [print(l['name'], l['clip_min'] == min(l['observed_min'], 0), l['clip_max'] == max(l['observed_max'], 0), l['clipped']) for l in json.load(open('%t/m/report.json'))['layers']]" | FileCheck %s --check-prefix=MINMAX
// MINMAX: input True True 0
// MINMAX: relu1 True True 0
// MINMAX: fc.add True True 0
//
// Names with markup characters are escaped in the HTML.
// RUN: sed -e 's/name = "relu1"/name = "relu1 <\&> '"'"'q'"'"'"/' %t/observed.mlir > %t/escaped.mlir
// RUN: quant-calibrate %t/escaped.mlir --data %t/data.npy --quiet -o %t/escaped.calibrated.mlir --report %t/e
// RUN: %python %S/Inputs/check_html.py %t/e | FileCheck %s --check-prefix=HTML
// RUN: FileCheck %s --check-prefix=ESCAPED --input-file %t/e/report.html
// ESCAPED: <h2>relu1 &lt;&amp;&gt; &#39;q&#39;</h2>
//
// The one-command path from an ONNX file; layer names are the node names.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --calibration-data %quantc_src_root/test/Import/Inputs/resnet_block.input.npy -o %t/resnet.o --report %t/onnx
// RUN: %python %S/Inputs/check_html.py %t/onnx | FileCheck %s --check-prefix=ONNX-HTML
// ONNX-HTML: HTML OK: {{[0-9]+}} layers
// RUN: %python %S/Inputs/check_report.py %t/onnx/report.json input %quantc_src_root/test/Import/Inputs/resnet_block.input.npy | FileCheck %s --check-prefix=CHECKED
// RUN: FileCheck %s --check-prefix=ONNX --input-file %t/onnx/report.json
// The Gemm weight against PyTorch's per-channel observer and fake quant
// (goldens from scripts/gen_report_goldens.py):
// 8 bits in the default object; 7 bits in an object of avx2 kernels alone,
// as it folds them.
// RUN: %python %S/Inputs/check_report.py %t/onnx/report.json weight /fc/Gemm /fc/Gemm.weight %S/Inputs/weight_goldens.json | FileCheck %s --check-prefixes=CHECKED,WEIGHT8
// WEIGHT8: weight range: [-128, 127]
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --calibration-data %quantc_src_root/test/Import/Inputs/resnet_block.input.npy --int8-isas=avx2 -o %t/resnet7.o --report %t/onnx7
// RUN: %python %S/Inputs/check_report.py %t/onnx7/report.json weight /fc/Gemm /fc/Gemm.weight %S/Inputs/weight_goldens.json | FileCheck %s --check-prefixes=CHECKED,WEIGHT7
// WEIGHT7: weight range: [-64, 63]
// ONNX: "int8_executor": "reference"
// ONNX: "name": "input"
// ONNX: "op": "tosa.transpose"
// ONNX: "fused_layers": [
// ONNX-NEXT: "/Relu",
// ONNX-NEXT: "/bn1/BatchNormalization",
// ONNX-NEXT: "/conv1/Conv"
// ONNX: "name": "/Relu"
// ONNX: "kind": "percentile"
// ONNX: "op": "qnt.conv2d relu"
// ONNX: "channels": 8
// ONNX: "name": "/conv1/Conv.weight"
// ONNX: "kind": "per_channel_min_max"
// ONNX: "name": "/fc/Gemm"
// ONNX: "channels": 10
// ONNX: "name": "/fc/Gemm.weight"
// RUN: test -f %t/resnet.o
//
// A layer kept in float (--exclude): the reference does not run float
// pooling, the int8 model runs compiled with the generic kernels; up to
// the excluded layer, it agrees with the reference bit for bit. The pool
// keeps its input's parameters (no observer of its own), so the float
// pool's result is quantized with /Relu_3's and the classifier stays int8.
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/resnet_block.onnx --calibration-data %quantc_src_root/test/Import/Inputs/resnet_block.input.npy -o %t/excluded.o --exclude /gap/GlobalAveragePool --report %t/ex
// RUN: FileCheck %s --check-prefix=EXCLUDED --input-file %t/ex/report.json
// EXCLUDED: "int8_executor": "compiled"
// EXCLUDED: "name": "/Relu_3"
// EXCLUDED: "int8_op": "qnt.linear"
// EXCLUDED: "name": "/fc/Gemm"
// RUN: %python %S/Inputs/check_report.py %t/ex/report.json input %quantc_src_root/test/Import/Inputs/resnet_block.input.npy | FileCheck %s --check-prefix=CHECKED
// RUN: %python -c "import json; a, b = (json.load(open(f'%t/{d}/report.json'))['layers'] for d in ('onnx', 'ex')); print([x['sqnr_cumulative_db'] == y['sqnr_cumulative_db'] for x, y in zip(a[:5], b[:5])])" | FileCheck %s --check-prefix=SAME
// SAME: [True, True, True, True, True]
//
// JSON objects list their keys in sorted order.
// The small CNN is int8 throughout: no op computed in float.
// CHECK: "float_ops": []
// CHECK: "format": "quantc-quantization-report"
// CHECK: "int8_executor": "reference"
// CHECK: "layers": [
// CHECK: "dtype": "quint8"
// CHECK: "name": "input"
// CHECK: "op": "input"
// CHECK: "int8_op": "qnt.conv2d"
// CHECK: "name": "relu1"
// CHECK: "kind": "histogram"
// CHECK: "op": "qnt.conv2d relu"
// CHECK: "weights": [
// CHECK: "channels": 16
// CHECK: "name": "conv1.weight"
// CHECK: "kind": "per_channel_min_max"
// CHECK: "samples": 48
// CHECK: "summary": {
// CHECK: "classifier": true
// CHECK: "layers": 6
// CHECK: "top1_agreement":
// CHECK: "worst_layers": [
