// Narrowing that would change a value is refused: quantc computes in
// float32, and a double constant beyond float32's range (which would become
// inf) or so small that it would become 0 is an error naming the tensor
// (decodeTensor, checkFloat32Range); values inside the range round to
// float32 (1e-45 to the smallest subnormal), infinities stay. An int64
// constant the importer's doubles cannot hold exactly (beyond 2^53) is
// refused too (checkInt64Values), sentinels of at least 2^62 in magnitude
// (INT64_MAX, -INT64_MAX, INT64_MIN: "to the end") aside.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/numerics_checks.py %t
// RUN: not quant-translate --import-onnx %t/double_big.onnx -o %t/big.mlir 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not test -e %t/big.mlir
// BIG: error: '{{.*}}double_big.onnx': {{.*}}tensor 'c' holds 1.0000000000000001e+300 (element 0), which float32 cannot represent (beyond +-3.4028235e38); quantc computes in float32
// RUN: not quant-translate --import-onnx %t/double_tiny.onnx -o %t/tiny.mlir 2>&1 | FileCheck %s --check-prefix=TINY
// TINY: error: '{{.*}}double_tiny.onnx': {{.*}}tensor 'c' holds 1e-300 (element 0), which float32 cannot represent (it would become 0)
// RUN: quant-translate --import-onnx %t/double_ok.onnx | FileCheck %s --check-prefix=OK
// OK: dense<{{\[}}[3.40282347E+38, 1.401300e-45, 0x7F800000, 1.000000e-01]]>
// RUN: not quant-translate --import-onnx %t/int64_inexact.onnx 2>&1 | FileCheck %s --check-prefix=INT64
// INT64: error: '{{.*}}int64_inexact.onnx': {{.*}}tensor 's' holds 9007199254740993 (element 0), which the importer cannot hold exactly
