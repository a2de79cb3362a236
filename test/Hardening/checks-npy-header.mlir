// An .npy header is parsed as numpy reads it (a Python dict literal with
// exactly the keys 'descr', 'fortran_order' and 'shape'), strictly: a key
// given twice (numpy keeps the last, a text search the first) is refused,
// and so are unknown and missing keys, values of the wrong type (a shape
// (4) is an int, not a tuple; fortran_order 0 is not a bool), text after
// the dictionary, a header longer than numpy's 10000-byte limit and a
// version other than 1.0 / 2.0 / 3.0 (parseNpyHeader, parseNpy). Another
// key order and double quotes are fine.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/numerics_checks.py %t
// RUN: not quant-run %t/relu.onnx --input %t/npy_duplicate.npy -o %t/y.npy 2>&1 | FileCheck %s --check-prefix=DUPLICATE
// RUN: not test -e %t/y.npy
// DUPLICATE: error: {{.*}}npy_duplicate.npy: header key 'shape' appears twice
// RUN: not quant-run %t/relu.onnx --input %t/npy_unknown.npy -o %t/y.npy 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: {{.*}}npy_unknown.npy: unknown header key 'extra' (a .npy header has exactly 'descr', 'fortran_order' and 'shape')
// RUN: not quant-run %t/relu.onnx --input %t/npy_nested_key.npy -o %t/y.npy 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: error: {{.*}}npy_nested_key.npy: unknown header key 'x'
// RUN: not quant-run %t/relu.onnx --input %t/npy_missing.npy -o %t/y.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: {{.*}}npy_missing.npy: header has no 'fortran_order' key
// RUN: not quant-run %t/relu.onnx --input %t/npy_trailing.npy -o %t/y.npy 2>&1 | FileCheck %s --check-prefix=TRAILING
// TRAILING: error: {{.*}}npy_trailing.npy: malformed header: text after the dictionary ('x = 1
// RUN: not quant-run %t/relu.onnx --input %t/npy_not_tuple.npy -o %t/y.npy 2>&1 | FileCheck %s --check-prefix=NOTTUPLE
// NOTTUPLE: error: {{.*}}npy_not_tuple.npy: malformed header: shape (4) is not a tuple; a 1-D shape is written (4,)
// RUN: not quant-run %t/relu.onnx --input %t/npy_fortran_int.npy -o %t/y.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// FORTRAN: error: {{.*}}npy_fortran_int.npy: malformed header: expected True or False at '0,
// RUN: not quant-run %t/relu.onnx --input %t/npy_long.npy -o %t/y.npy 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: error: {{.*}}npy_long.npy: header of 10{{[0-9]*}} bytes is longer than 10000 (numpy.load's max_header_size refuses it too)
// RUN: not quant-run %t/relu.onnx --input %t/npy_version.npy -o %t/y.npy 2>&1 | FileCheck %s --check-prefix=VERSION
// VERSION: error: {{.*}}npy_version.npy: unsupported .npy version 1.1 (numpy writes 1.0, 2.0 and 3.0)
// RUN: quant-run %t/relu.onnx --input %t/npy_reordered.npy -o %t/reordered.npy
// RUN: %python %S/Inputs/print_arrays.py %t/reordered.npy | FileCheck %s --check-prefix=RELU
// RELU: output: 1.0 0.0 100.0 0.0
