// What the importer makes of patterns PyTorch exports
// (scripts/gen_onnx_op_tests.py models).
//
// A channel shuffle (view [N, g, C/g, H, W], transpose(1, 2), view back) is
// one transpose of the last two dimensions of the NHWC tensor; x.permute
// only relabels dimensions; x.view(x.size(0), -1) folds its shape
// sub-graph.
// RUN: quant-translate --import-onnx %S/Inputs/ops/shuffle.onnx | FileCheck %s --check-prefix=SHUFFLE
// SHUFFLE: tosa.reshape {{.*}} -> tensor<1x5x6x2x6xf32>
// SHUFFLE-NEXT: tosa.transpose {{.*}} {perms = array<i32: 0, 1, 2, 4, 3>} : (tensor<1x5x6x2x6xf32>) -> tensor<1x5x6x6x2xf32>
// SHUFFLE-NOT: = tosa.shape 
//
// A zero Pad in front of a convolution is its padding; Pad + AveragePool
// (count_include_pad=True) pads explicitly and pools without padding.
// RUN: quant-translate --import-onnx %S/Inputs/ops/pads.onnx | FileCheck %s --check-prefix=PADS
// PADS: tosa.conv2d %0, {{.*}} pad = array<i64: 1, 1, 1, 1>
// PADS: tosa.pad %0, {{.*}} -> tensor<1x8x9x3xf32>
// PADS: tosa.avg_pool2d {{.*}} kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>
//
// Activations are qnt.unary; x * sigmoid(x) is SiLU and x * hardsigmoid(x)
// (alpha 1/6) HardSwish; a mean over H and W is a global average pool.
// RUN: quant-translate --import-onnx %S/Inputs/ops/activations.onnx | FileCheck %s --check-prefix=ACT
// ACT: tosa.avg_pool2d {{.*}} kernel = array<i64: 4, 5>
// ACT: qnt.unary sigmoid
// ACT: qnt.unary hard_sigmoid {{.*}} {alpha = 0.166666672 : f32, beta = 5.000000e-01 : f32}
// ACT: qnt.unary hard_swish
// ACT: qnt.unary silu
// ACT: qnt.unary tanh
// ACT: qnt.unary leaky_relu {{.*}} {alpha = 1.000000e-01 : f32}
