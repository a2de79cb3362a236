// MLIR 22's linalg.transpose / broadcast / reduce parsers report a malformed
// permutation or dimensions array and then crash (docs/hardening.md).
// quant-opt parses each split under crash recovery first: the parser's error,
// exit code 1, no stack dump and no output file.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: not quant-opt %s -split-input-file -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: not ls %t/out.mlir
// CHECK: within split at {{.*}}quant-opt-parser-crash.mlir:23 offset :4:{{[0-9]+}}: error: expected ']'
// CHECK: quant-opt: error: MLIR's parser crashed after the error above (a known MLIR 22 defect, see docs/hardening.md)
// CHECK-NOT: Stack dump
//
// The same ops, well formed, parse and print (stdin input, as well).
// RUN: sed 's/dimensions = \[0 1\]/dimensions = [0]/' %s | quant-opt -split-input-file --mlir-print-op-generic 2>&1 | FileCheck %s --check-prefix=GOOD --implicit-check-not=error
// GOOD: "linalg.transpose"
// GOOD: "linalg.broadcast"

func.func @good(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) permutation = [1, 0]
  return %0 : tensor<3x2xf32>
}

// -----

func.func @bad(%a: tensor<3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = linalg.broadcast ins(%a : tensor<3xf32>) outs(%b : tensor<2x3xf32>) dimensions = [0 1]
  return %0 : tensor<2x3xf32>
}
