// Inputs/ops.mlir on a 96x96 image: every op's output has at least 32K
// elements (worthThreads), so each gets parallel loops.
!in = !quant.uniform<u8:f32, 0.02:128>
!avg = !quant.uniform<u8:f32, 0.015:120>
!rq = !quant.uniform<i8<-100:100>:f32, 0.03:-5>
!cat = !quant.uniform<u8:f32, 0.025:100>
!sum = !quant.uniform<i8:f32, 0.04:-10>
func.func @ops_large(%x: tensor<1x96x96x20xf32> loc("image")) -> tensor<1x2304x40xf32> {
  %q = quant.qcast %x : tensor<1x96x96x20xf32> to tensor<1x96x96x20x!in>
  %m = qnt.max_pool2d %q {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>} : (tensor<1x96x96x20x!in>) -> tensor<1x48x48x20x!in>
  %a = qnt.avg_pool2d %q {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>} : (tensor<1x96x96x20x!in>) -> tensor<1x48x48x20x!avg>
  %r = qnt.requantize %m : (tensor<1x48x48x20x!in>) -> tensor<1x48x48x20x!rq>
  %c1 = qnt.concat %a, %r {axis = 3} : (tensor<1x48x48x20x!avg>, tensor<1x48x48x20x!rq>) -> tensor<1x48x48x40x!cat>
  %c2 = qnt.concat %r, %a {axis = 3} : (tensor<1x48x48x20x!rq>, tensor<1x48x48x20x!avg>) -> tensor<1x48x48x40x!avg>
  %s = qnt.add %c1, %c2 {activation = #qnt<activation relu>} : (tensor<1x48x48x40x!cat>, tensor<1x48x48x40x!avg>) -> tensor<1x48x48x40x!sum>
  %shape = tosa.const_shape {values = dense<[1, 2304, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %f = tosa.reshape %s, %shape : (tensor<1x48x48x40x!sum>, !tosa.shape<3>) -> tensor<1x2304x40x!sum>
  %y = quant.dcast %f : tensor<1x2304x40x!sum> to tensor<1x2304x40xf32>
  return %y : tensor<1x2304x40xf32>
}
