// The Python package returns integer outputs (ArgMax indices and their
// Casts) as NumPy arrays of the dtype the library's metadata names: int64,
// int32, uint8; float equal to PyTorch, int8 agreeing on >= 95% of pixels
// (test/Integration/Compile/int-outputs.mlir explains the bound).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/test_int_outputs.py %quantc_tools_dir %quantc_src_root %t | FileCheck %s
// CHECK: dtypes: ['int64', 'int32', 'uint8']
// CHECK: float: int64, int32, uint8 equal to PyTorch
// CHECK: single sample: ok
// CHECK: int8: {{[0-9.]+}} of the pixels agree with PyTorch
// CHECK: INT OUTPUTS OK
