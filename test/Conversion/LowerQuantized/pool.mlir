// RUN: quant-opt %s --qnt-lower-quantized --split-input-file | FileCheck %s

// Average pool with padding: the multiplier depends on how many elements of
// the window are inside the input, so it comes from a table indexed by that
// count: 0.5 / (0.25 * count) for count = 1..4. The window is clipped once
// per output position; 4 channels: scalar loop only.
// CHECK-LABEL: func.func @avg_padded
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x3x4xi8>) -> tensor<1x2x2x4xi8>
// CHECK: %[[IN:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<1x3x3x4xi8> to memref<1x3x3x4xi8>
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x2x2x4xi8>
// CHECK: %[[TABLE:.*]] = arith.constant dense<[0.000000e+00, 2.000000e+00, 1.000000e+00, 0.666666686, 5.000000e-01]> : tensor<5xf32>
// CHECK: %[[TB:.*]] = bufferization.to_buffer %[[TABLE]] read_only : tensor<5xf32> to memref<5xf32>
// CHECK: scf.parallel (%[[N:.*]], %[[Y:.*]], %[[XX:.*]]) = (%{{.*}}, %{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}, %{{.*}}) step (%{{.*}}, %{{.*}}, %{{.*}}) {
// CHECK-DAG: %[[KYLO:.*]] = arith.maxsi
// CHECK-DAG: %[[KYHI:.*]] = arith.minsi
// CHECK: %[[COUNT32:.*]] = arith.index_cast %[[COUNT:.*]] : index to i32
// CHECK: %[[M:.*]] = memref.load %[[TB]][%[[COUNT]]] : memref<5xf32>
// CHECK: scf.for %[[C:.*]] =
// CHECK:   %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:   %[[SUM:.*]] = scf.for %{{.*}} = %[[KYLO]] to %[[KYHI]] step %{{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (i32) {
// CHECK:     scf.for {{.*}} iter_args
// CHECK:       %[[V:.*]] = memref.load %[[IN]][%[[N]], %{{.*}}, %{{.*}}, %[[C]]] : memref<1x3x3x4xi8>
// CHECK:       arith.extui %[[V]] : i8 to i32
// CHECK:       arith.addi
// CHECK:   arith.constant 10 : i32
// CHECK:   %[[ZPS:.*]] = arith.muli %[[COUNT32]], %{{.*}} : i32
// CHECK:   %[[CENTERED:.*]] = arith.subi %[[SUM]], %[[ZPS]] : i32
// CHECK:   %[[F:.*]] = arith.sitofp %[[CENTERED]] : i32 to f32
// CHECK:   arith.mulf %[[F]], %[[M]] : f32
// CHECK:   math.roundeven
// CHECK:   arith.constant -3.000000e+00 : f32
// CHECK:   arith.constant 2.520000e+02 : f32
// CHECK:   arith.constant 3 : i32
// CHECK:   memref.store %{{.*}}, %[[OUT]][%[[N]], %[[Y]], %[[XX]], %[[C]]] : memref<1x2x2x4xi8>
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
func.func @avg_padded(%x: tensor<1x3x3x4x!quant.uniform<u8:f32, 0.5:10>>) -> tensor<1x2x2x4x!quant.uniform<u8:f32, 0.25:3>> {
  %0 = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>} : (tensor<1x3x3x4x!quant.uniform<u8:f32, 0.5:10>>) -> tensor<1x2x2x4x!quant.uniform<u8:f32, 0.25:3>>
  return %0 : tensor<1x2x2x4x!quant.uniform<u8:f32, 0.25:3>>
}

// -----

// Without padding the count is the kernel size: one multiplier,
// 0.5 / (0.25 * 4) = 0.5; a global pool over 2x2 with 16 channels is one
// vector of 16 lanes.
// CHECK-LABEL: func.func @avg_global
// CHECK-NOT: memref<5xf32>
// CHECK: %[[M:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   %[[ZERO:.*]] = arith.constant dense<0> : vector<16xi32>
// CHECK:   scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<16xi32>)
// CHECK:     vector.load %{{.*}} : memref<1x2x2x16xi8>, vector<16xi8>
// CHECK:     arith.extui %{{.*}} : vector<16xi8> to vector<16xi32>
// CHECK:   vector.broadcast %{{.*}} : i32 to vector<16xi32>
// CHECK:   vector.broadcast %[[M]] : f32 to vector<16xf32>
// CHECK:   vector.store %{{.*}} : memref<1x1x1x16xi8>, vector<16xi8>
// CHECK-NOT: memref.store
func.func @avg_global(%x: tensor<1x2x2x16x!quant.uniform<u8:f32, 0.5:10>>) -> tensor<1x1x1x16x!quant.uniform<u8:f32, 0.25:3>> {
  %0 = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x2x2x16x!quant.uniform<u8:f32, 0.5:10>>) -> tensor<1x1x1x16x!quant.uniform<u8:f32, 0.25:3>>
  return %0 : tensor<1x1x1x16x!quant.uniform<u8:f32, 0.25:3>>
}

// -----

// Max pool: signed maximum of the extended values from the reference's
// initial -256; same parameters in and out and the full i8 range: no
// requantization, no clamp. 18 channels: one vector and a tail of 2.
// CHECK-LABEL: func.func @max
// CHECK: scf.for
// CHECK:   %[[INIT:.*]] = arith.constant dense<-256> : vector<16xi32>
// CHECK:   scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (vector<16xi32>)
// CHECK:     vector.load %{{.*}} : memref<1x4x4x18xi8>, vector<16xi8>
// CHECK:     arith.extsi %{{.*}} : vector<16xi8> to vector<16xi32>
// CHECK:     arith.maxsi %{{.*}} : vector<16xi32>
// CHECK-NOT: math.roundeven
// CHECK:   arith.trunci %{{.*}} : vector<16xi32> to vector<16xi8>
// CHECK:   vector.store
// CHECK: scf.for
// CHECK:   arith.constant -256 : i32
// CHECK:   memref.load %{{.*}} : memref<1x4x4x18xi8>
// CHECK:   arith.maxsi %{{.*}} : i32
// CHECK:   memref.store
func.func @max(%x: tensor<1x4x4x18x!quant.uniform<i8:f32, 0.5:-4>>) -> tensor<1x2x2x18x!quant.uniform<i8:f32, 0.5:-4>> {
  %0 = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x18x!quant.uniform<i8:f32, 0.5:-4>>) -> tensor<1x2x2x18x!quant.uniform<i8:f32, 0.5:-4>>
  return %0 : tensor<1x2x2x18x!quant.uniform<i8:f32, 0.5:-4>>
}

// -----

// A narrowed range (reduce_range: u8<0:127>) is clamped even when the
// parameters agree.
// CHECK-LABEL: func.func @max_narrow
// CHECK: arith.maxsi %{{.*}} : vector<16xi32>
// CHECK: arith.constant dense<0> : vector<16xi32>
// CHECK: arith.maxsi
// CHECK: arith.constant dense<127> : vector<16xi32>
// CHECK: arith.minsi
func.func @max_narrow(%x: tensor<1x2x2x16x!quant.uniform<u8<0:127>:f32, 0.5:4>>) -> tensor<1x1x1x16x!quant.uniform<u8<0:127>:f32, 0.5:4>> {
  %0 = qnt.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x2x2x16x!quant.uniform<u8<0:127>:f32, 0.5:4>>) -> tensor<1x1x1x16x!quant.uniform<u8<0:127>:f32, 0.5:4>>
  return %0 : tensor<1x1x1x16x!quant.uniform<u8<0:127>:f32, 0.5:4>>
}
