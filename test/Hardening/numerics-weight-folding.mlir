// Gemm's alpha folds into the constant weight (one rounding instead of two)
// only where no product leaves float32's range: alpha * w can overflow where
// alpha * (A w) does not. Here alpha * w = 1e40 is inf, and folded, every
// output was inf or NaN; ONNX Runtime gives about 9.9e16.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/numerics_checks.py %t
// RUN: quant-run %t/gemm_alpha.onnx --input %t/x.npy -o %t/y.npy
// RUN: %python %S/Inputs/print_arrays.py %t/y.npy | FileCheck %s
// CHECK: output: [[V:9\.[89][0-9]*e\+16]] [[V]] [[V]] [[V]]
