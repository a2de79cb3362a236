// The bundled trained example (examples/fashion-mnist, made by train.py):
// the float ONNX model compiled ahead of time reproduces PyTorch's float
// outputs, and the one-command int8 compile stays close to them.
//
// RUN: rm -rf %t && mkdir -p %t/f %t/q
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist/model.onnx --name fmnist -o %t/f/model.o
// RUN: cc -I%t/f -DMODEL=fmnist -DMODEL_UPPER=FMNIST %quantc_src_root/examples/common/run_model.c %t/f/model.o -lm -o %t/f/run
// RUN: %t/f/run %quantc_src_root/examples/fashion-mnist/calibration.npy %t/f/out.npy
//
// Float: the vectorized float code sums in a different order than PyTorch
// (fused batch norm, blocked reductions): ~1e-6 relative error, > 100 dB.
// RUN: %python %quantc_src_root/scripts/sqnr.py %quantc_src_root/examples/fashion-mnist/calibration_logits.npy %t/f/out.npy 100 | FileCheck %s --check-prefix=FLOAT
// FLOAT: top-1 agreement 100.0 %
// FLOAT: ACCURATE
//
// Int8 (the default object: 8 bits on both sides, as PyTorch's onednn) on
// the 512 calibration images: >= 25 dB SQNR of the logits and >= 97 % of
// PyTorch's float predictions.
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist/model.onnx --name fmnist --calibration-data %quantc_src_root/examples/fashion-mnist/calibration.npy -o %t/q/model.o
// RUN: cc -I%t/q -DMODEL=fmnist -DMODEL_UPPER=FMNIST %quantc_src_root/examples/common/run_model.c %t/q/model.o -lm -o %t/q/run
// RUN: %t/q/run %quantc_src_root/examples/fashion-mnist/calibration.npy %t/q/out.npy
// RUN: %python %quantc_src_root/scripts/sqnr.py %quantc_src_root/examples/fashion-mnist/calibration_logits.npy %t/q/out.npy 25 | FileCheck %s --check-prefix=INT8
// INT8: top-1 agreement {{(9[7-9]\.[0-9]|100\.0)}} %
// INT8: ACCURATE
