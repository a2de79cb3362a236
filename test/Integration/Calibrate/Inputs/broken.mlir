func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = qnt.observe %x config <kind = min_max, bins = 4> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
