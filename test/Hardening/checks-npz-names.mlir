// Calibration and run data in an .npz archive name their model inputs: an
// array under a name that names no input is an error naming it and the
// inputs, also where it is the only array of a one-input model (once
// taken for that input whatever its name). The input's name and the
// positional arr_0 work (readModelSamples).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/numerics_checks.py %t
// RUN: not quant-run %t/relu.onnx --input %t/data_unknown.npz -o %t/y.npy 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not test -e %t/y.npy
// RUN: not quant-calibrate %t/relu.onnx --data %t/data_unknown.npz -o %t/p.json 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not quant-compile %t/relu.onnx --calibration-data %t/data_unknown.npz -o %t/m.o 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not test -e %t/p.json
// RUN: not test -e %t/m.o
// UNKNOWN: error: {{.*}}data_unknown.npz: array 'wrong' names no model input (the inputs: 'x'; positional names arr_0, arr_1, ... also work)
// RUN: quant-run %t/relu.onnx --input %t/data_named.npz -o %t/named.npy
// RUN: quant-run %t/relu.onnx --input %t/data_positional.npz -o %t/positional.npy
// RUN: %python %S/Inputs/print_arrays.py %t/named.npy | FileCheck %s --check-prefix=RELU
// RUN: %python %S/Inputs/print_arrays.py %t/positional.npy | FileCheck %s --check-prefix=RELU
// RELU: output: 1.0 0.0 100.0 0.0
