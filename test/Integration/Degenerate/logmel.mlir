// A log-mel front end with a scalar (rank 0) activation compiles in float
// and int8 (Inputs/make_logmel.py): STFT as a 1-D conv, square, mel matmul,
// 10 log10, ReduceMax over everything with keepdims = 0 (the peak, a second
// model output of rank 0), Clip(dB, peak - 80, +inf) (max(dB, peak - 80)
// then min(., +inf): a Clip bound the graph computes). The scalar is a
// tensor<f32> in the IR; in int8 it is quantized per tensor (a rank-0
// !quant.uniform reshaped to and from its 1x1x1 reduction), and a rank-0
// output is one value per run in the header (rank 0, 1 float) and in the
// .npy files the C driver and quant-run write (shape (runs,)).
//
// REQUIRES: avx2
// RUN: rm -rf %t && mkdir -p %t/float %t/int8 %t/budget
// RUN: %python %S/Inputs/make_logmel.py %t
//
// Float: NumPy's float64 model to 146 dB (the spectrogram) and 150 dB (the
// peak).
// RUN: quant-compile %t/logmel.onnx --name lm -o %t/float/model.o
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/float/model.h
// HEADER: output1 ("peak"): float32[], row-major, 1 floats
// HEADER: #define LM_OUTPUT1_RANK 0
// RUN: cc -I%t/float -DMODEL=lm -DMODEL_UPPER=LM %quantc_src_root/examples/common/run_model.c %t/float/model.o -lm -o %t/float/run
// RUN: %t/float/run %t/input.npy %t/float/logmel.npy %t/float/peak.npy
// RUN: %python %S/Inputs/check.py sqnr %t/reference.npy %t/float/logmel.npy 100 | FileCheck %s --check-prefix=OK
// RUN: %python %S/Inputs/check.py sqnr %t/peak.npy %t/float/peak.npy 100 | FileCheck %s --check-prefix=OK
// OK: SQNR OK
//
// int8 with the defaults compiles; the object is bit-identical to the same
// int8 IR run by quant-run on the portable kernels (the reference executor
// has no float log). Its accuracy is that of 8-bit linear power spectra
// under a log: 8.1 dB (spectrogram), 2.3 dB (peak), printed here.
// RUN: quant-compile %t/logmel.onnx --name lm --calibration-data %t/calib.npy -o %t/int8/model.o
// RUN: cc -I%t/int8 -DMODEL=lm -DMODEL_UPPER=LM %quantc_src_root/examples/common/run_model.c %t/int8/model.o -lm -o %t/int8/run
// RUN: %t/int8/run %t/input.npy %t/int8/logmel.npy %t/int8/peak.npy
// RUN: quant-translate --import-onnx %t/logmel.onnx -o %t/int8/float.mlir
// RUN: quant-opt %t/int8/float.mlir --qnt-fuse --qnt-insert-observers=activation-kind=percentile -o %t/int8/observed.mlir
// RUN: quant-calibrate %t/int8/observed.mlir --data %t/calib.npy --quiet -o %t/int8/calibrated.mlir
// RUN: quant-opt %t/int8/calibrated.mlir --pass-pipeline='builtin.module(quantc-quantize)' -o %t/int8/int8.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=SCALAR --input-file %t/int8/int8.mlir
// SCALAR: tosa.reshape {{.*}} -> tensor<!quant.uniform<u8:f32, {{.*}}>>
// RUN: quant-run %t/int8/int8.mlir --int8-isa=generic --input %t/input.npy -o %t/int8/jit.npz 2>/dev/null
// RUN: %python %S/Inputs/check.py identical %t/int8/jit.npz logmel=%t/int8/logmel.npy peak=%t/int8/peak.npy | FileCheck %s --check-prefix=IDENTICAL
// IDENTICAL: BIT-IDENTICAL
// RUN: %python %S/Inputs/check.py sqnr %t/reference.npy %t/int8/logmel.npy 5 | FileCheck %s --check-prefix=DEFAULT
// RUN: %python %S/Inputs/check.py sqnr %t/peak.npy %t/int8/peak.npy 0 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: SQNR {{[0-9.]+}} dB
//
// With the accuracy budget (--min-output-sqnr=25) the peak, its
// subtraction and the clamp stay float: 54.0 dB and 52.1 dB.
// RUN: quant-compile %t/logmel.onnx --name lm --calibration-data %t/calib.npy --min-output-sqnr=25 -o %t/budget/model.o 2>/dev/null
// RUN: cc -I%t/budget -DMODEL=lm -DMODEL_UPPER=LM %quantc_src_root/examples/common/run_model.c %t/budget/model.o -lm -o %t/budget/run
// RUN: %t/budget/run %t/input.npy %t/budget/logmel.npy %t/budget/peak.npy
// RUN: %python %S/Inputs/check.py sqnr %t/reference.npy %t/budget/logmel.npy 25 | FileCheck %s --check-prefix=OK
// RUN: %python %S/Inputs/check.py sqnr %t/peak.npy %t/budget/peak.npy 25 | FileCheck %s --check-prefix=OK
