// Products by a zero constant are computed, never folded to zero: x * 0 is
// NaN for an infinite or NaN x and -0 for a negative x, as IEEE and ONNX
// Runtime give. Upstream TOSA folds tosa.mul by a splat zero (in the greedy
// rewriter and in tosa-to-linalg); quantc builds every product through
// qnt::createExactMul, which writes x * 0 as x * (x - x). Relu keeps an
// infinity (its clamp is unbounded above), Neg(0) is -0, and Sqrt is IEEE's
// (sqrt(-inf) is NaN, sqrt(-0) -0: its pow(x, 0.5) is marked quantc.sqrt
// and lowered to math.sqrt; pow gave +inf and +0).
//
// x = [1, -2, 100, 0]: exp(x) is inf at 100, log(x) NaN at -2 and -inf at 0.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/numerics_checks.py %t
//
// Imported: x - x, then the product.
// RUN: quant-translate --import-onnx %t/mul_zero.onnx | FileCheck %s --check-prefix=IMPORT
// IMPORT: %[[D:.*]] = tosa.sub %arg0, %arg0
// IMPORT: tosa.mul %arg0, %[[D]]
//
// Compiled (JIT, the lowering quant-compile runs). A plain tosa.mul by a
// splat zero gave 0 0 0 0 for x * 0 and for exp(x) * 0.
// RUN: quant-run %t/mul_zero.onnx --input %t/x.npy -o %t/y.npz
// RUN: %python %S/Inputs/print_arrays.py %t/y.npz | FileCheck %s
// CHECK-DAG: x_times_0: 0.0 -0.0 0.0 0.0
// CHECK-DAG: 0_times_x: 0.0 -0.0 0.0 0.0
// CHECK-DAG: x_times_neg0: -0.0 0.0 -0.0 -0.0
// CHECK-DAG: x_times_zeros: 0.0 -0.0 0.0 0.0
// CHECK-DAG: exp_times_0: 0.0 0.0 nan 0.0
// CHECK-DAG: log_times_0: 0.0 nan 0.0 nan
// CHECK-DAG: relu_exp: 2.71828{{[0-9]*}} 0.1353{{[0-9]*}} inf 1.0
// CHECK-DAG: neg: -1.0 2.0 -100.0 -0.0
// CHECK-DAG: sqrt_log: 0.0 nan 2.14596{{[0-9]*}} nan
// CHECK-DAG: sqrt_neg: nan 1.41421{{[0-9]*}} nan -0.0
