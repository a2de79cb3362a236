// RUN: quant-opt %s --split-input-file --quantc-tile-and-vectorize | FileCheck %s
// RUN: quant-opt %s --split-input-file --quantc-tile-and-vectorize \
// RUN:   --loop-invariant-subset-hoisting --canonicalize | FileCheck %s --check-prefix=HOIST
// RUN: quant-opt %s --split-input-file --quantc-tile-and-vectorize=vector-bits=512 | FileCheck %s --check-prefix=AVX512

// A 3x3 convolution, 16 -> 32 channels, 7x7 outputs: register blocks of 7
// pixels x 16 channels (14 ymm accumulators), one filter tap and 8 input
// channels per step; the constant FHWC filter is transposed to HWCF at
// compile time (no linalg.transpose left).
// CHECK-LABEL: func.func @conv
// CHECK-NOT: linalg.
// CHECK: scf.forall (%[[OH:.*]]) in (7)
// CHECK: scf.for %[[F:.*]] = %c0 to %c32 step %c16
// CHECK: scf.for %[[KH:.*]] = %c0 to %c3 step %c1
// CHECK: scf.for %[[KW:.*]] = %c0 to %c3 step %c1
// CHECK: scf.for %[[C:.*]] = %c0 to %c16 step %c8
// CHECK: vector.transfer_read %arg0[%c0, %{{.*}}, %[[KW]], %[[C]]]{{.*}} : tensor<1x9x9x16xf32>, vector<7x8xf32>
// CHECK: vector.transfer_read %{{.*}} : tensor<{{.*}}xf32>, vector<8x16xf32>
// CHECK: vector.contract {{.*}} : vector<7x8xf32>, vector<8x16xf32> into vector<7x16xf32>
// CHECK-NOT: linalg.
// CHECK: return
// HOIST-LABEL: func.func @conv
// HOIST: scf.for
// HOIST: scf.for
// HOIST: %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<1x1x7x32xf32>, vector<7x16xf32>
// HOIST: scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<7x16xf32>)
// HOIST: vector.contract
// HOIST: vector.transfer_write {{.*}} : vector<7x16xf32>, tensor<1x1x7x32xf32>
func.func @conv(%in: tensor<1x9x9x16xf32>, %w: tensor<32x3x3x16xf32>, %out: tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32> {
  %cw = arith.constant dense<0.5> : tensor<32x3x3x16xf32>
  %0 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%in, %cw : tensor<1x9x9x16xf32>, tensor<32x3x3x16xf32>) outs(%out : tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32>
  return %0 : tensor<1x7x7x32xf32>
}

// -----

// The transpose of a non-splat constant filter: (f, h, w, c) = (2, 1, 1, 2)
// [[1, 2], [3, 4]] becomes (h, w, c, f) [[1, 3], [2, 4]].
// CHECK-LABEL: func.func @constant_filter
// CHECK: arith.constant dense<{{\[\[\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]]]> : tensor<1x1x2x2xf32>
// CHECK-NOT: linalg.
// CHECK: vector.contract
func.func @constant_filter(%in: tensor<1x1x4x2xf32>, %out: tensor<1x1x4x2xf32>) -> tensor<1x1x4x2xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>
  %0 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%in, %w : tensor<1x1x4x2xf32>, tensor<2x1x1x2xf32>) outs(%out : tensor<1x1x4x2xf32>) -> tensor<1x1x4x2xf32>
  return %0 : tensor<1x1x4x2xf32>
}

// -----

// A filter that is not a constant is transposed at run time (the transpose
// is tiled and vectorized too: 4x8 tiles).
// CHECK-DAG: #[[PERM:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d0)>
// CHECK-LABEL: func.func @runtime_filter
// CHECK: scf.forall (%[[KW:.*]]) in (3)
// CHECK: scf.for %[[KH:.*]] = %c0 to %c3 step %c1
// CHECK: vector.transfer_read %arg1[%c0, %[[KH]], %[[KW]], %c0]{{.*}} permutation_map = #[[PERM]]} : tensor<8x3x3x4xf32>, vector<4x8xf32>
// CHECK: vector.contract {{.*}} : vector<6x4xf32>, vector<4x8xf32> into vector<6x8xf32>
func.func @runtime_filter(%in: tensor<1x8x8x4xf32>, %w: tensor<8x3x3x4xf32>, %out: tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32> {
  %0 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%in, %w : tensor<1x8x8x4xf32>, tensor<8x3x3x4xf32>) outs(%out : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

// Depthwise: channels in vectors, 7 pixels per block, one tap per step.
// HOIST-LABEL: func.func @depthwise
// HOIST: %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<1x1x7x16xf32>, vector<7x16xf32>
// HOIST: scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<7x16xf32>)
// HOIST: vector.transfer_read %arg0{{.*}} : tensor<1x9x9x16xf32>, vector<7x16xf32>
// HOIST: vector.fma {{.*}} : vector<7x16xf32>
func.func @depthwise(%in: tensor<1x9x9x16xf32>, %w: tensor<3x3x16xf32>, %out: tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32> {
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%in, %w : tensor<1x9x9x16xf32>, tensor<3x3x16xf32>) outs(%out : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  return %0 : tensor<1x7x7x16xf32>
}

// -----

// Max pooling 2x2 / 2: a row of 4 output pixels x 16 channels per step.
// CHECK-LABEL: func.func @max_pool
// CHECK-NOT: linalg.pooling
// CHECK: vector.transfer_read %arg0{{.*}} : tensor<1x8x8x16xf32>, vector<7x16xf32>
// CHECK: arith.maximumf {{.*}} : vector<16xf32>
func.func @max_pool(%in: tensor<1x8x8x16xf32>, %out: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %k = tensor.empty() : tensor<2x2xf32>
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%in, %k : tensor<1x8x8x16xf32>, tensor<2x2xf32>) outs(%out : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %0 : tensor<1x4x4x16xf32>
}

// -----

// Matmuls are register-blocked FMA loops: 6 rows x 16 columns per block
// (12 x 32 with vector-bits=512), one B vector and one broadcast A element
// per FMA, the 6 accumulators carried through the reduction loop. 197 rows
// and 40 columns: 2 blocks of 16 columns in parallel (scf.forall over batch
// and column block, each iteration on its own slice of C), in each 32 rows
// of full blocks, then 5 rows; then the last 8 columns.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.batch_matmul
// (The batch of 1 folds away.)
// CHECK: scf.forall (%[[J:.*]]) in (2) shared_outs(%[[O:.*]] = %arg2)
// CHECK: %[[N:.*]] = arith.muli %[[J]], %c16
// CHECK: %[[S:.*]] = tensor.extract_slice %[[O]][0, 0, %[[N]]] [1, 197, 16] [1, 1, 1]
// CHECK: scf.for %[[M:.*]] = %c0 to %c192 step %c6 iter_args(%{{.*}} = %[[S]])
// CHECK-COUNT-6: vector.transfer_read %{{.*}} : tensor<1x197x16xf32>, vector<16xf32>
// CHECK: scf.for %[[K:.*]] = %c0 to %c64 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: %[[W:.*]] = vector.transfer_read %arg1[%c0, %[[K]], %[[N]]], %{{.*}} {in_bounds = [true]} : tensor<1x64x40xf32>, vector<16xf32>
// CHECK: %[[X:.*]] = tensor.extract %arg0[%c0, %[[M]], %[[K]]]
// CHECK: %[[XS:.*]] = vector.broadcast %[[X]] : f32 to vector<16xf32>
// CHECK: vector.fma %[[XS]], %[[W]], %{{.*}} : vector<16xf32>
// CHECK-COUNT-5: vector.fma
// CHECK: scf.yield
// CHECK-COUNT-6: vector.transfer_write
// Rows 192 to 196 of the full column blocks.
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %{{.*}} into %[[O]][0, 0, %[[N]]] [1, 197, 16] [1, 1, 1]
// The last 8 columns, in vector<8xf32>.
// CHECK: scf.for %{{.*}} = %c0 to %c192 step %c6
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// AVX512-LABEL: func.func @matmul
// AVX512: scf.for %{{.*}} = %c0 to %c192 step %c12
// AVX512: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args({{.*}}) -> (vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>)
func.func @matmul(%a: tensor<1x197x64xf32>, %b: tensor<1x64x40xf32>, %c: tensor<1x197x40xf32>) -> tensor<1x197x40xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<1x197x64xf32>, tensor<1x64x40xf32>) outs(%c : tensor<1x197x40xf32>) -> tensor<1x197x40xf32>
  return %0 : tensor<1x197x40xf32>
}

// -----

// Constant weights are packed at compile time into contiguous column
// panels: [batch, N / 16, K, 16] and [batch, K, N % 16].
// CHECK-LABEL: func.func @matmul_constant
// CHECK-DAG: %[[P:.*]] = arith.constant dense<{{.*}}> : tensor<1x2x4x16xf32>
// CHECK-DAG: %[[T:.*]] = arith.constant dense<{{.*}}> : tensor<1x4x8xf32>
// CHECK: scf.forall (%[[J0:.*]]) in (2)
// CHECK: %[[N:.*]] = arith.muli %[[J0]], %c16
// CHECK: scf.for %[[K:.*]] = %c0 to %c4 step %c1
// CHECK: %[[J:.*]] = arith.divui %[[N]], %c16
// CHECK: vector.transfer_read %[[P]][%c0, %[[J]], %[[K]], %c0]{{.*}} : tensor<1x2x4x16xf32>, vector<16xf32>
// CHECK: scf.for %[[K2:.*]] = %c0 to %c4 step %c1
// CHECK: vector.transfer_read %[[T]][%c0, %[[K2]], %c0]{{.*}} : tensor<1x4x8xf32>, vector<8xf32>
func.func @matmul_constant(%a: tensor<1x6x4xf32>, %c: tensor<1x6x40xf32>) -> tensor<1x6x40xf32> {
  %b = arith.constant dense<[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0],
    [40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0],
    [80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0, 88.0, 89.0, 90.0, 91.0, 92.0, 93.0, 94.0, 95.0, 96.0, 97.0, 98.0, 99.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0],
    [120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0, 140.0, 141.0, 142.0, 143.0, 144.0, 145.0, 146.0, 147.0, 148.0, 149.0, 150.0, 151.0, 152.0, 153.0, 154.0, 155.0, 156.0, 157.0, 158.0, 159.0]]]> : tensor<1x4x40xf32>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<1x6x4xf32>, tensor<1x4x40xf32>) outs(%c : tensor<1x6x40xf32>) -> tensor<1x6x40xf32>
  return %0 : tensor<1x6x40xf32>
}

// -----

// A zero-filled matmul followed by a bias add broadcast along the rows (an
// ONNX MatMul + Add): the accumulators start from the bias row at the
// block's columns, the kernel writes a fresh tensor and replaces the add;
// the fill and the matmul are gone.
// CHECK-LABEL: func.func @matmul_bias
// CHECK-NOT: linalg.fill
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x6x32xf32>
// CHECK: scf.forall (%[[J0:.*]]) in (2) shared_outs(%{{.*}} = %[[E]])
// CHECK: %[[N:.*]] = arith.muli %[[J0]], %c16
// CHECK: %[[B:.*]] = vector.transfer_read %{{.*}}[%c0, %c0, %[[N]]]{{.*}} : tensor<1x1x32xf32>, vector<16xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[B]], %{{.*}} = %[[B]], %{{.*}} = %[[B]], %{{.*}} = %[[B]], %{{.*}} = %[[B]], %{{.*}} = %[[B]])
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.batch_matmul
// A zero fill alone (no bias add): the accumulators start from zero
// vectors, C is not read.
// CHECK-LABEL: func.func @matmul_zero
// CHECK-NOT: linalg.fill
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[Z]],
#bmap = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#brow = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
func.func @matmul_bias(%a: tensor<1x6x4xf32>, %b: tensor<1x4x32xf32>, %bias: tensor<1x1x32xf32>) -> tensor<1x6x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x32xf32>) -> tensor<1x6x32xf32>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<1x6x4xf32>, tensor<1x4x32xf32>) outs(%c : tensor<1x6x32xf32>) -> tensor<1x6x32xf32>
  %e2 = tensor.empty() : tensor<1x6x32xf32>
  %1 = linalg.generic {indexing_maps = [#bmap, #brow, #bmap], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0, %bias : tensor<1x6x32xf32>, tensor<1x1x32xf32>) outs(%e2 : tensor<1x6x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<1x6x32xf32>
  return %1 : tensor<1x6x32xf32>
}
func.func @matmul_zero(%a: tensor<1x6x4xf32>, %b: tensor<1x4x16xf32>) -> tensor<1x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x16xf32>) -> tensor<1x6x16xf32>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<1x6x4xf32>, tensor<1x4x16xf32>) outs(%c : tensor<1x6x16xf32>) -> tensor<1x6x16xf32>
  return %0 : tensor<1x6x16xf32>
}

// -----

// Elementwise (bias + relu, the bias broadcast along channels): one row of
// 2 pixels x 32 channels per step.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @bias_relu
// CHECK-NOT: linalg.generic
// CHECK: scf.forall (%{{.*}}) in (7)
// CHECK: vector.transfer_read %arg1{{.*}} : tensor<32xf32>, vector<32xf32>
// CHECK: arith.addf {{.*}} : vector<32xf32>
// CHECK: arith.maximumf {{.*}} : vector<32xf32>
func.func @bias_relu(%x: tensor<1x7x7x32xf32>, %b: tensor<32xf32>) -> tensor<1x7x7x32xf32> {
  %e = tensor.empty() : tensor<1x7x7x32xf32>
  %0 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<1x7x7x32xf32>, tensor<32xf32>) outs(%e : tensor<1x7x7x32xf32>) {
  ^bb0(%v: f32, %bb: f32, %o: f32):
    %s = arith.addf %v, %bb : f32
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %s, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x7x7x32xf32>
  return %0 : tensor<1x7x7x32xf32>
}

// -----

// Dynamic shapes and integer ops keep their plain lowering.
// CHECK-LABEL: func.func @dynamic
// CHECK: linalg.conv_2d_nhwc_fhwc
// CHECK-LABEL: func.func @integer
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @dynamic(%in: tensor<?x9x9x16xf32>, %w: tensor<32x3x3x16xf32>, %out: tensor<?x7x7x32xf32>) -> tensor<?x7x7x32xf32> {
  %0 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%in, %w : tensor<?x9x9x16xf32>, tensor<32x3x3x16xf32>) outs(%out : tensor<?x7x7x32xf32>) -> tensor<?x7x7x32xf32>
  return %0 : tensor<?x7x7x32xf32>
}
func.func @integer(%in: tensor<1x9x9x16xi32>, %w: tensor<3x3x16x32xi32>, %out: tensor<1x7x7x32xi32>) -> tensor<1x7x7x32xi32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%in, %w : tensor<1x9x9x16xi32>, tensor<3x3x16x32xi32>) outs(%out : tensor<1x7x7x32xi32>) -> tensor<1x7x7x32xi32>
  return %0 : tensor<1x7x7x32xi32>
}

// -----

// A large transpose (NHWC -> NCHW before a flatten) is tiled like an
// elementwise op: one 6x6 tile per channel in a loop, not one vector of all
// 9216 elements (which the vector lowering unrolls element by element).
// CHECK-LABEL: func.func @large_transpose
// CHECK: scf.forall (%[[C:.*]]) in (256)
// CHECK: vector.transfer_read %arg0[%c0, %c0, %c0, %[[C]]]{{.*}} : tensor<1x6x6x256xf32>, vector<6x6xf32>
// CHECK: vector.transfer_write {{.*}} : vector<6x6xf32>, tensor<1x1x6x6xf32>
// CHECK-NOT: vector<1x256x6x6xf32>
func.func @large_transpose(%in: tensor<1x6x6x256xf32>) -> tensor<1x256x6x6xf32> {
  %init = tensor.empty() : tensor<1x256x6x6xf32>
  %0 = linalg.transpose ins(%in : tensor<1x6x6x256xf32>) outs(%init : tensor<1x256x6x6xf32>) permutation = [0, 3, 1, 2]
  return %0 : tensor<1x256x6x6xf32>
}

// -----

// A transpose that keeps its innermost dimensions in place (Swin's window
// partition, rows of 7 x 192 floats) copies whole rows: one extract_slice /
// parallel_insert_slice per row, which bufferize to a memcpy each. With
// rows under 256 bytes (attention heads of 32 floats), it is tiled instead.
// CHECK-LABEL: func.func @row_transpose
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]], %[[K:.*]]) in (4, 4, 7) shared_outs(%[[O:.*]] = %{{.*}})
// CHECK: %[[ROW:.*]] = tensor.extract_slice %arg0[0, %[[I]], %[[K]], %[[J]], 0, 0] [1, 1, 1, 1, 7, 192] [1, 1, 1, 1, 1, 1] : tensor<1x4x7x4x7x192xf32> to tensor<7x192xf32>
// CHECK: tensor.parallel_insert_slice %[[ROW]] into %[[O]][0, %[[I]], %[[J]], %[[K]], 0, 0] [1, 1, 1, 1, 7, 192] [1, 1, 1, 1, 1, 1] : tensor<7x192xf32> into tensor<1x4x4x7x7x192xf32>
// CHECK-NOT: vector.transfer_read
// CHECK-LABEL: func.func @head_transpose
// CHECK: vector.transfer_read
func.func @row_transpose(%in: tensor<1x4x7x4x7x192xf32>) -> tensor<1x4x4x7x7x192xf32> {
  %init = tensor.empty() : tensor<1x4x4x7x7x192xf32>
  %0 = linalg.transpose ins(%in : tensor<1x4x7x4x7x192xf32>) outs(%init : tensor<1x4x4x7x7x192xf32>) permutation = [0, 1, 3, 2, 4, 5]
  return %0 : tensor<1x4x4x7x7x192xf32>
}
func.func @head_transpose(%in: tensor<4x49x12x32xf32>) -> tensor<4x12x49x32xf32> {
  %init = tensor.empty() : tensor<4x12x49x32xf32>
  %0 = linalg.transpose ins(%in : tensor<4x49x12x32xf32>) outs(%init : tensor<4x12x49x32xf32>) permutation = [0, 2, 1, 3]
  return %0 : tensor<4x12x49x32xf32>
}

// -----

// An innermost dimension with no vector-sized divisor (67, a prime; ViT's
// 197 tokens) is split at the last multiple of 8 vectors: 64 columns in
// vector<64xf32> tiles, the other 3 in vector<3xf32>, instead of scalars.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @exp_prime
// CHECK-NOT: linalg.generic
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0] [2, 3, 64] [1, 1, 1]
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK: vector.transfer_read {{.*}} : tensor<2x3x67xf32>, vector<64xf32>
// CHECK: arith.bitcast %{{.*}} : vector<64xi32> to vector<64xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 64] [2, 3, 3] [1, 1, 1]
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK: vector.transfer_read {{.*}} vector<3x3xf32>
// CHECK: arith.bitcast %{{.*}} : vector<3x3xi32> to vector<3x3xf32>
func.func @exp_prime(%x: tensor<2x3x67xf32>) -> tensor<2x3x67xf32> {
  %e = tensor.empty() : tensor<2x3x67xf32>
  %0 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x3x67xf32>) outs(%e : tensor<2x3x67xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<2x3x67xf32>
  return %0 : tensor<2x3x67xf32>
}

// -----

// A sum along the innermost dimension (tosa.reduce_sum: softmax, LayerNorm):
// one row per iteration of an scf.forall, four vector<8xf32> accumulators
// over 32 elements per step (192 of 197), the last 5 elements from a
// re-read of the last 8 with the 3 lanes already counted masked out, then
// a fixed tree: (a0 . a1) . (a2 . a3), halves of the vector, the init last.
// CHECK-LABEL: func.func @sum_rows
// CHECK-NOT: linalg.reduce
// CHECK: scf.forall (%[[R:.*]]) in (3)
// CHECK: scf.for %[[K:.*]] = %c0 to %c192 step %c32 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-COUNT-4: vector.transfer_read %arg0[%[[R]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<3x197xf32>, vector<8xf32>
// CHECK: scf.yield
// CHECK: %[[LAST:.*]] = vector.transfer_read %arg0[%[[R]], %c189]{{.*}}{in_bounds = [true]} : tensor<3x197xf32>, vector<8xf32>
// CHECK: arith.select %{{.*}}, %[[LAST]], %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK: vector.extract_strided_slice {{.*}} : vector<8xf32> to vector<4xf32>
// CHECK: vector.extract_strided_slice {{.*}} : vector<4xf32> to vector<2xf32>
// CHECK: %[[INIT:.*]] = tensor.extract %{{.*}}[%[[R]]] : tensor<3xf32>
// CHECK: %[[OUT:.*]] = arith.addf %[[INIT]], %{{.*}} : f32
// CHECK: tensor.from_elements %[[OUT]] : tensor<1xf32>
// CHECK: tensor.parallel_insert_slice
func.func @sum_rows(%x: tensor<3x197xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.reduce ins(%x : tensor<3x197xf32>) outs(%i : tensor<3xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<3xf32>
}

// -----

// Fewer than 8 elements: one padded read, the lanes past the end replaced
// by max's neutral -inf.
// CHECK-LABEL: func.func @max_short
// CHECK-DAG: %[[NEG:.*]] = arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK-DAG: %[[MASK:.*]] = arith.constant dense<[true, true, true, true, true, false, false, false]> : vector<8xi1>
// CHECK: %[[V:.*]] = vector.transfer_read %arg0[%{{.*}}, %c0], %{{.*}} : tensor<4x5xf32>, vector<8xf32>
// CHECK: arith.select %[[MASK]], %[[V]], %[[NEG]]
// CHECK: arith.maximumf {{.*}} : vector<4xf32>
func.func @max_short(%x: tensor<4x5xf32>) -> tensor<4xf32> {
  %z = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%x : tensor<4x5xf32>) outs(%i : tensor<4xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %s = arith.maximumf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}

// -----

// An elementwise body before the combiner, with an input broadcast along
// the reduced dimension (a variance: sum((x - m)^2)) runs on vectors; the
// input that does not use the reduced dimension is read once per vector
// and broadcast.
// CHECK-LABEL: func.func @variance
// CHECK: scf.forall (%[[R:.*]]) in (2)
// CHECK: %[[X:.*]] = vector.transfer_read %arg0[%[[R]], %c0]
// CHECK: %[[M:.*]] = tensor.extract %arg1[%[[R]]] : tensor<2xf32>
// CHECK: %[[MV:.*]] = vector.broadcast %[[M]] : f32 to vector<8xf32>
// CHECK: %[[D:.*]] = arith.subf %[[X]], %[[MV]] : vector<8xf32>
// CHECK: arith.mulf %[[D]], %[[D]] : vector<8xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @variance(%x: tensor<2x20xf32>, %m: tensor<2xf32>, %init: tensor<2xf32>) -> tensor<2xf32> {
  %r = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<2x20xf32>, tensor<2xf32>) outs(%init : tensor<2xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %d = arith.subf %a, %b : f32
      %s = arith.mulf %d, %d : f32
      %t = arith.addf %acc, %s : f32
      linalg.yield %t : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// A reduction over an outer dimension keeps its linalg form (its loops).
// CHECK-LABEL: func.func @outer_reduction
// CHECK: linalg.reduce
func.func @outer_reduction(%x: tensor<8x16xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.reduce ins(%x : tensor<8x16xf32>) outs(%init : tensor<16xf32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<16xf32>
}
