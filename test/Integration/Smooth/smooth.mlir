// SmoothQuant (quant-compile --smooth-alpha) on a LayerNorm read by two
// linear layers whose activation has four outlier channels (x100; the
// weight rows reading them /100): Inputs/make_model.py.
//
// RUN: rm -rf %t && mkdir -p %t/plain %t/smooth %t/ref
// RUN: %python %S/Inputs/make_model.py %t | FileCheck %s --check-prefix=DATA
// DATA: channel max|x| max/median 83.7
//
// Exact in float: the model with the LayerNorm's max |x| (NumPy's) smoothed
// by qnt-smooth computes the same outputs, to 1e-5 of their magnitude
// (check.py says why that bound), compiled and run.
// RUN: quant-opt %t/absmax.mlir --qnt-smooth=alpha=0.5 -o %t/smoothed.mlir
// RUN: quant-run %t/model.mlir --input %t/calib.npy -o %t/float.npy
// RUN: quant-run %t/smoothed.mlir --input %t/calib.npy -o %t/smoothed.npy
// RUN: %python %S/Inputs/check.py float %t/reference.npy %t/float.npy %t/smoothed.npy | FileCheck %s --check-prefix=FLOAT
// FLOAT: FLOAT UNCHANGED
//
// Int8 through quant-compile, the statistics measured on the calibration
// data by the compiler: the remark gives the same channel spread as NumPy,
// and the output SQNR against float gains at least 15 dB (measured: 7.7 ->
// 33.6 dB).
// RUN: quant-compile %t/model.mlir --name smooth_test --calibration-data %t/calib.npy -o %t/plain/model.o
// RUN: quant-compile %t/model.mlir --name smooth_test --calibration-data %t/calib.npy --smooth-alpha 0.5 --remarks -o %t/smooth/model.o 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: smoothed into 2 layer(s), alpha 0.5: channel max|x| max/median 83.7 -> 1.71
// RUN: cc -I%t/plain -DMODEL=smooth_test -DMODEL_UPPER=SMOOTH_TEST %quantc_src_root/examples/common/run_model.c %t/plain/model.o -lm -o %t/plain/run
// RUN: cc -I%t/smooth -DMODEL=smooth_test -DMODEL_UPPER=SMOOTH_TEST %quantc_src_root/examples/common/run_model.c %t/smooth/model.o -lm -o %t/smooth/run
// RUN: %t/plain/run %t/calib.npy %t/plain/out.npy
// RUN: %t/smooth/run %t/calib.npy %t/smooth/out.npy
// RUN: %python %S/Inputs/check.py sqnr %t/reference.npy %t/plain/out.npy %t/smooth/out.npy 15 | FileCheck %s --check-prefix=SQNR
// SQNR: SMOOTHING GAINS
//
// (No bit-identity check against quant-run --reference here: the int8
// reference does not run the LayerNorm, a float island in the int8 model.)
//
// Out of range: a clear error.
// RUN: not quant-compile %t/model.mlir --calibration-data %t/calib.npy --smooth-alpha 1.5 -o %t/bad.o 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: the smoothing alpha must lie in (0, 1), got 1.5
