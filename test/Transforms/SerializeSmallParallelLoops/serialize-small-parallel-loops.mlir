// RUN: quant-opt %s --quantc-serialize-small-parallel-loops --split-input-file | FileCheck %s
// RUN: quant-opt %s --quantc-serialize-small-parallel-loops=min-work=100 --split-input-file | FileCheck %s --check-prefix=LOW

// 8 x 4 iterations of a 4-op body (load, mulf, store, reduce): work
// 8 * 4 * 4 = 128, below the default 32768: a nest of scf.for in the same
// order; above min-work=100: stays parallel.
// CHECK-LABEL: func.func @small
// CHECK-NOT: scf.parallel
// CHECK: scf.for %[[I:.*]] = %[[C0:.*]] to %[[C8:.*]] step %[[C1:.*]] {
// CHECK-NEXT: scf.for %[[J:.*]] = %[[C0]] to %{{.*}} step %[[C1]] {
// CHECK-NEXT: %[[V:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT: %[[W:.*]] = arith.mulf %[[V]], %{{.*}}
// CHECK-NEXT: memref.store %[[W]], %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return
// LOW-LABEL: func.func @small
// LOW: scf.parallel
func.func @small(%in: memref<8x4xf32>, %out: memref<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c4) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<8x4xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %out[%i, %j] : memref<8x4xf32>
  }
  return
}

// -----

// 64 rows, each a sequential loop of 256 x (load, mulf, store, yield):
// 64 * (1 + 256 * 4 + 1) = 65,664 >= 32768: stays parallel.
// CHECK-LABEL: func.func @large
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK: scf.for
func.func @large(%in: memref<64x256xf32>, %out: memref<64x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %j = %c0 to %c256 step %c1 {
      %v = memref.load %in[%i, %j] : memref<64x256xf32>
      %w = arith.mulf %v, %two : f32
      memref.store %w, %out[%i, %j] : memref<64x256xf32>
    }
  }
  return
}

// -----

// A dynamic trip count: the work is unknown, the loop stays parallel.
// CHECK-LABEL: func.func @dynamic
// CHECK: scf.parallel
func.func @dynamic(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %two, %out[%i] : memref<?xf32>
  }
  return
}

// -----

// Reductions are left alone.
// CHECK-LABEL: func.func @reduction
// CHECK: scf.parallel
// CHECK: scf.reduce
func.func @reduction(%in: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.parallel (%i) = (%c0) to (%c8) step (%c1) init (%zero) -> f32 {
    %v = memref.load %in[%i] : memref<8xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %sum : f32
}
