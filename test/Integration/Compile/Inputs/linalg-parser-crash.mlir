// A malformed permutation array: MLIR 22's linalg.transpose parser reports it
// and then crashes (docs/hardening.md); the tools must fail cleanly instead.
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) permutation = [1, oops]
  return %0 : tensor<3x2xf32>
}
