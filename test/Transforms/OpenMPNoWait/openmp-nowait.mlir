// RUN: quant-opt %s --quantc-openmp-nowait --split-input-file | FileCheck %s

// A worksharing loop that ends its parallel region: its barrier would only
// precede the region's join, so it becomes nowait.
// CHECK-LABEL: func.func @last
// CHECK: omp.parallel {
// CHECK-NEXT: omp.wsloop nowait {
func.func @last(%out: memref<16xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        memref.store %v, %out[%i] : memref<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Work after the loop inside the region may read what other threads wrote
// in the loop: the barrier stays.
// CHECK-LABEL: func.func @not_last
// CHECK: omp.wsloop {
// CHECK-NOT: nowait
func.func @not_last(%out: memref<16xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        memref.store %v, %out[%i] : memref<16xf32>
        omp.yield
      }
    }
    %x = memref.load %out[%c0] : memref<16xf32>
    memref.store %x, %out[%c1] : memref<16xf32>
    omp.terminator
  }
  return
}
