// An observer in a function the calibrated function never calls.
func.func @model(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %0 = qnt.observe %x config <kind = min_max> {name = "input"} : tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}
func.func private @unused(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %0 = qnt.observe %x config <kind = min_max> {name = "dead"} : tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}
