// Integer arithmetic on constants (shape sub-graphs) is exact in int64 or
// refused, naming the node: a division by zero (which once gave 0), INT64_MIN
// / -1, and a result beyond int64 (foldInteger in lib/Import/Ops/
// Elementwise.cpp). Division truncates toward zero, as ONNX Runtime's:
// Shape(x) / [1, -3] is [1, -1] (floor division would give the invalid
// [1, -2]).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/numerics_checks.py %t
// RUN: not quant-translate --import-onnx %t/shape_div_zero.onnx -o %t/a.mlir 2>&1 | FileCheck %s --check-prefix=DIV0
// RUN: not test -e %t/a.mlir
// DIV0: error: '{{.*}}shape_div_zero.onnx': node 'arith' (Div): integer division by zero (4 / 0)
// RUN: not quant-translate --import-onnx %t/shape_div_overflow.onnx 2>&1 | FileCheck %s --check-prefix=DIVOVF
// DIVOVF: error: '{{.*}}shape_div_overflow.onnx': node 'arith' (Div): integer overflow: -9223372036854775808 and -1 give a result beyond int64
// RUN: not quant-translate --import-onnx %t/shape_mul_overflow.onnx 2>&1 | FileCheck %s --check-prefix=MULOVF
// MULOVF: error: '{{.*}}shape_mul_overflow.onnx': node 'arith' (Mul): integer overflow: 4 and 4611686018427387904 give a result beyond int64
// RUN: quant-translate --import-onnx %t/shape_div_ok.onnx | FileCheck %s --check-prefix=OK
// OK: tensor<1x4xf32>) -> tensor<1x4xf32>
