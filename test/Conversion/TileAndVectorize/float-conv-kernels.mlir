// RUN: quant-opt %s --split-input-file --quantc-float-conv-kernels=vector-bits=512 --canonicalize | FileCheck %s
// RUN: quant-opt %s --split-input-file --quantc-float-conv-kernels=vector-bits=256 --canonicalize | FileCheck %s --check-prefix=AVX2

// A padded 3x3 convolution, 16 -> 40 channels, bias, residual and relu.
// AVX-512: the 40 channels are 3 vectors of 16, one block of 3 vectors
// whose last is stored masked (8 lanes); 8 pixels per block (24
// accumulators), 81 pixels = 10 full blocks and a short one of 1. The input
// is a zero-padded copy; the weights are packed [KH][KW][C][48] (6912
// floats), the bias padded to 48. Per filter row one loop over KW * C = 48
// contiguous input values: 3 weight vectors, one broadcast per pixel.
// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[MASK:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false]> : vector<16xi1>
// CHECK-DAG: arith.constant dense<{{.*}}> : tensor<6912xf32>
// CHECK-DAG: arith.constant dense<{{.*}}> : tensor<48xf32>
// CHECK: %[[PAD:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: bufferization.to_buffer %[[PAD]] read_only : tensor<1x11x11x16xf32>
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x9x9x40xf32>
// CHECK: scf.parallel (%[[PB:.*]]) = (%c0) to (%c11) step (%c1)
// CHECK: scf.if
// CHECK: scf.for {{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: scf.for {{.*}} = %c0 to %c48 step %c1
// CHECK-COUNT-3: vector.load {{.*}} : memref<6912xf32>, vector<16xf32>
// CHECK: memref.load {{.*}} : memref<1936xf32>
// CHECK: vector.broadcast
// CHECK-COUNT-3: vector.fma
// CHECK: vector.maskedload {{.*}}, %[[MASK]]
// CHECK: arith.cmpf ogt
// CHECK: vector.maskedstore {{.*}}, %[[MASK]]
// CHECK: } else {
// CHECK-COUNT-24: vector.fma
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
// CHECK-NOT: qnt.conv2d
// AVX2-LABEL: func.func @conv
// AVX2: vector.fma {{.*}} : vector<8xf32>
// AVX2-NOT: vector<16xf32>
func.func @conv(%x: tensor<1x9x9x16xf32>, %r: tensor<1x9x9x40xf32>) -> tensor<1x9x9x40xf32> {
  %w = arith.constant dense<0.5> : tensor<40x3x3x16xf32>
  %b = arith.constant dense<0.25> : tensor<40xf32>
  %0 = qnt.conv2d %x, %w bias(%b) residual(%r) {pad = array<i64: 1, 1, 1, 1>, activation = #qnt<activation relu>} : (tensor<1x9x9x16xf32>, tensor<40x3x3x16xf32>, tensor<40xf32>, tensor<1x9x9x40xf32>) -> tensor<1x9x9x40xf32>
  return %0 : tensor<1x9x9x40xf32>
}

// -----

// A 1x1 convolution, 64 -> 128 channels: the input is read in place (no
// pad), blocks of 4 vectors x 6 pixels, two channel blocks (the parallel
// loop's first dimension), 49 pixels = 8 full blocks and a short one;
// relu6 clamps on both sides; no bias: the accumulators start at 0.
// CHECK-LABEL: func.func @pointwise
// CHECK-NOT: tensor.pad
// CHECK: bufferization.to_buffer %arg0 read_only
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%c0, %c0) to (%c2, %c9) step (%c1, %c1)
// CHECK: scf.for {{.*}} = %c0 to %c64 step %c1
// CHECK-COUNT-4: vector.load {{.*}} : memref<8192xf32>, vector<16xf32>
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ogt
// CHECK: vector.store
func.func @pointwise(%x: tensor<1x7x7x64xf32>) -> tensor<1x7x7x128xf32> {
  %w = arith.constant dense<0.5> : tensor<128x1x1x64xf32>
  %0 = qnt.conv2d %x, %w {activation = #qnt<activation relu6>} : (tensor<1x7x7x64xf32>, tensor<128x1x1x64xf32>) -> tensor<1x7x7x128xf32>
  return %0 : tensor<1x7x7x128xf32>
}

// -----

// A depthwise 3x3 stride-2 convolution of 40 channels, batch 2, padding 1:
// the input is read in place (no tensor.pad). The parallel loop runs over
// (output row of every image, channel vector), 2 x 4 rows x 3 vectors, the
// last vector masked. Each row runs the filter rows inside the input
// (bounds clamped to [0, 3]); the left border pixel (column 0) reads filter
// columns 1 and 2 only, the 3 interior pixels are one run that loads each
// of the 7 input columns it reads once per filter row (stride 2: 3 x 3
// taps on columns 0..6) and feeds 9 FMAs.
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT: tensor.pad
// CHECK-DAG: arith.constant dense<{{.*}}> : tensor<432xf32>
// CHECK: bufferization.to_buffer %arg0 read_only : tensor<2x8x8x40xf32>
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%c0, %c0) to (%c8, %c3) step (%c1, %c1)
// CHECK: %[[LO:.*]] = arith.minsi %{{.*}}, %c3 : index
// CHECK: %[[HI:.*]] = arith.minsi %{{.*}}, %c3 : index
// CHECK: scf.if
// CHECK: scf.for {{.*}} = %[[LO]] to %[[HI]] step %c1 iter_args({{.*}}) -> (vector<16xf32>) {
// CHECK-COUNT-2: vector.maskedload {{.*}} : memref<5120xf32>
// CHECK-NOT: vector.maskedload
// CHECK: scf.yield
// CHECK: vector.maskedstore
// CHECK: scf.for {{.*}} = %[[LO]] to %[[HI]] step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-COUNT-7: vector.maskedload {{.*}} : memref<5120xf32>
// CHECK-NOT: vector.maskedload
// CHECK: scf.yield
// CHECK-COUNT-3: vector.maskedstore
// CHECK: } else {
// CHECK: vector.load {{.*}} : memref<5120xf32>, vector<16xf32>
func.func @depthwise(%x: tensor<2x8x8x40xf32>) -> tensor<2x4x4x40xf32> {
  %w = arith.constant dense<0.5> : tensor<40x3x3x1xf32>
  %b = arith.constant dense<1.0> : tensor<40xf32>
  %0 = qnt.conv2d %x, %w bias(%b) {pad = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, groups = 40 : i64} : (tensor<2x8x8x40xf32>, tensor<40x3x3x1xf32>, tensor<40xf32>) -> tensor<2x4x4x40xf32>
  return %0 : tensor<2x4x4x40xf32>
}

// -----

// What the kernels do not take stays for qnt-lower-float: grouped
// convolutions (1 < groups < C), a filter that is not a constant, dynamic
// shapes, quantized convolutions.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: qnt.conv2d
func.func @left_alone(%x: tensor<1x8x8x8xf32>, %wv: tensor<8x3x3x8xf32>, %xd: tensor<?x8x8x8xf32>) -> (tensor<1x6x6x8xf32>, tensor<1x6x6x8xf32>, tensor<?x6x6x8xf32>) {
  %w = arith.constant dense<0.5> : tensor<8x3x3x4xf32>
  %wd = arith.constant dense<0.5> : tensor<8x3x3x8xf32>
  %0 = qnt.conv2d %x, %w {groups = 2 : i64} : (tensor<1x8x8x8xf32>, tensor<8x3x3x4xf32>) -> tensor<1x6x6x8xf32>
  %1 = qnt.conv2d %x, %wv : (tensor<1x8x8x8xf32>, tensor<8x3x3x8xf32>) -> tensor<1x6x6x8xf32>
  %2 = qnt.conv2d %xd, %wd : (tensor<?x8x8x8xf32>, tensor<8x3x3x8xf32>) -> tensor<?x6x6x8xf32>
  return %0, %1, %2 : tensor<1x6x6x8xf32>, tensor<1x6x6x8xf32>, tensor<?x6x6x8xf32>
}

// -----

// A qnt.unary that is the convolution's only use is applied in the
// epilogue (SiLU: x / (1 + exp(-x)) per accumulator) and replaced; one
// whose input has another use stays.
// CHECK-LABEL: func.func @silu
// CHECK-NOT: qnt.unary
// CHECK: scf.for
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: vector.store
// CHECK-NOT: qnt.unary
// CHECK: return
// CHECK-LABEL: func.func @shared
// CHECK-NOT: math.exp
// CHECK: qnt.unary silu
func.func @silu(%x: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %w = arith.constant dense<0.5> : tensor<16x1x1x16xf32>
  %0 = qnt.conv2d %x, %w : (tensor<1x4x4x16xf32>, tensor<16x1x1x16xf32>) -> tensor<1x4x4x16xf32>
  %1 = qnt.unary silu %0 : tensor<1x4x4x16xf32>
  return %1 : tensor<1x4x4x16xf32>
}
func.func @shared(%x: tensor<1x4x4x16xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) {
  %w = arith.constant dense<0.5> : tensor<16x1x1x16xf32>
  %0 = qnt.conv2d %x, %w : (tensor<1x4x4x16xf32>, tensor<16x1x1x16xf32>) -> tensor<1x4x4x16xf32>
  %1 = qnt.unary silu %0 : tensor<1x4x4x16xf32>
  return %0, %1 : tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>
}
