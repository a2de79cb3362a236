// The second trained example (examples/fashion-mnist-mobile, made by
// examples/fashion-mnist/train.py --net mobile): ceil-mode pools, a
// ShuffleNetV2 unit (slices, Concat, channel shuffle), squeeze-excitation,
// HardSwish, SiLU, nearest upsampling with a skip Concat, a final Softmax.
// Float reproduces PyTorch's probabilities; the one-command int8 compile
// (the default object: 8 bits on both sides) stays
// close to them, and its quantized IR is int8 from the input's quantize to
// the softmax, which computes in float on the dequantized logits; as the
// model's output its probabilities stay float (quantized to 1/256, as
// PyTorch's, they would tie near classes and round small ones to 0).
//
// RUN: rm -rf %t && mkdir -p %t/f %t/q
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --name fmnist -o %t/f/model.o
// RUN: cc -I%t/f -DMODEL=fmnist -DMODEL_UPPER=FMNIST %quantc_src_root/examples/common/run_model.c %t/f/model.o -lm -o %t/f/run
// RUN: %t/f/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/f/out.npy
// RUN: %python %quantc_src_root/scripts/sqnr.py %quantc_src_root/examples/fashion-mnist-mobile/calibration_logits.npy %t/f/out.npy 100 | FileCheck %s --check-prefix=FLOAT
// FLOAT: top-1 agreement 100.0 %
// FLOAT: ACCURATE
//
// On the 512 calibration images: >= 20 dB SQNR of the probabilities and
// >= 96 % of PyTorch's float predictions.
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --name fmnist --calibration-data %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy -o %t/q/model.o -v 2>&1 | FileCheck %s --check-prefix=VERBOSE
// VERBOSE: quant-compile: 1 op(s) computed in float: qnt.softmax (/softmax/Softmax)
// The report has a line for each fixed-parameter activation too (the
// squeeze-excitation's HardSigmoid: no observer); the output softmax has
// none (not quantized).
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --calibration-data %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy --max-samples 64 -o %t/q/r.o --report %t/q/report
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t/q/report/report.json
// REPORT: "name": "/se/gate/HardSigmoid"
// REPORT: "kind": "fixed"
// REPORT-NOT: "name": "/softmax/Softmax"
// RUN: cc -I%t/q -DMODEL=fmnist -DMODEL_UPPER=FMNIST %quantc_src_root/examples/common/run_model.c %t/q/model.o -lm -o %t/q/run
// RUN: %t/q/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q/out.npy
// RUN: %python %quantc_src_root/scripts/sqnr.py %quantc_src_root/examples/fashion-mnist-mobile/calibration_logits.npy %t/q/out.npy 20 | FileCheck %s --check-prefix=INT8
// INT8: top-1 agreement {{(9[6-9]\.[0-9]|100\.0)}} %
// INT8: ACCURATE
//
// One float island in the quantized IR: the softmax.
// RUN: quant-translate --import-onnx %quantc_src_root/examples/fashion-mnist-mobile/model.onnx -o %t/f.mlir
// RUN: quant-opt --qnt-fuse --qnt-insert-observers %t/f.mlir -o %t/obs.mlir
// RUN: quant-calibrate %t/obs.mlir --data %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy -o %t/cal.mlir
// RUN: quant-opt --qnt-fold-observers --qnt-quantize %t/cal.mlir | FileCheck %s --check-prefix=QIR
// QIR: quant.qcast %{{.*}} {qnt.name = "input0"
// QIR-NOT: quant.dcast
// QIR-NOT: quant.qcast
// QIR: %[[D:.*]] = quant.dcast
// QIR-NEXT: %[[S:.*]] = qnt.softmax %[[D]]
// QIR-NEXT: return %[[S]]
