// RUN: quant-opt %s --quantc-outline-loop-nests --split-input-file | FileCheck %s
// RUN: quant-opt %s --quantc-outline-loop-nests="min-loops=3" --split-input-file | FileCheck %s --check-prefix=MIN3

// Two top-level loop nests: each becomes a private, non-inlined function.
// Constants and globals are cloned into it (trip counts and weights stay
// visible); the memrefs come in as arguments; loop results are returned.

memref.global "private" constant @w : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>

// CHECK-LABEL: func.func @model(
// CHECK-SAME:    %[[X:.*]]: memref<4xf32>, %[[Y:.*]]: memref<4xf32>) -> f32
// CHECK:         call @model_loop0(%[[X]], %[[Y]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK:         %[[S:.*]] = call @model_loop1(%[[Y]]) : (memref<4xf32>) -> f32
// CHECK:         return %[[S]]
// CHECK:       func.func private @model_loop0(%[[A:.*]]: memref<4xf32>, %[[B:.*]]: memref<4xf32>)
// CHECK-SAME:    attributes {no_inline, passthrough = ["noinline"]}
// CHECK-DAG:     arith.constant 0 : index
// CHECK-DAG:     arith.constant 4 : index
// CHECK-DAG:     arith.constant 1 : index
// CHECK-DAG:     memref.get_global @w : memref<4xf32>
// CHECK:         scf.for
// CHECK:           memref.load %[[A]]
// CHECK:           memref.store {{.*}}, %[[B]]
// CHECK:         return
// CHECK:       func.func private @model_loop1(%[[C:.*]]: memref<4xf32>) -> f32
// CHECK-SAME:    attributes {no_inline, passthrough = ["noinline"]}
// CHECK:         %[[R:.*]] = scf.for {{.*}} iter_args
// CHECK:         return %[[R]] : f32

// MIN3-LABEL: func.func @model(
// MIN3-NOT:     call
// MIN3-NOT:     func.func private
func.func @model(%x: memref<4xf32>, %y: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %x[%i] : memref<4xf32>
    %b = memref.load %w[%i] : memref<4xf32>
    %p = arith.mulf %a, %b : f32
    memref.store %p, %y[%i] : memref<4xf32>
  }
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f32 {
    %a = memref.load %y[%i] : memref<4xf32>
    %n = arith.addf %acc, %a : f32
    scf.yield %n : f32
  }
  return %s : f32
}

// -----

// A name already taken gets a unique suffix; a single loop is left alone.

// CHECK-LABEL: func.func @f(
// CHECK:         call @f_loop0_0()
// CHECK:         call @f_loop1()
// CHECK:       func.func private @f_loop0_0()
// CHECK:       func.func private @f_loop1()
// CHECK-LABEL: func.func @f_loop0()
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    scf.for
func.func @f() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c2 {
  }
  scf.for %i = %c0 to %c2 step %c2 {
  }
  return
}
func.func @f_loop0() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c2 {
  }
  return
}

// -----

// OpenMP parallel regions (the loops of parallel=omp pipelines) are loop
// nests too.

// CHECK-LABEL: func.func @omp(
// CHECK-SAME:    %[[X:.*]]: memref<8xf32>)
// CHECK:         call @omp_loop0(%[[X]])
// CHECK:         call @omp_loop1(%[[X]])
// CHECK:       func.func private @omp_loop0(%[[A:.*]]: memref<8xf32>)
// CHECK:         omp.parallel
// CHECK:           omp.wsloop
// CHECK:             memref.store %{{.*}}, %[[A]]
// CHECK:       func.func private @omp_loop1(
// CHECK:         scf.for
func.func @omp(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        memref.store %one, %x[%i] : memref<8xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %one, %x[%i] : memref<8xf32>
  }
  return
}

// -----

// A loop nest that uses an AMX tile defined outside it (an amx-int8 kernel
// whose outer loops folded away) stays in its function: LLVM cannot pass
// x86_amx to one. The other nest is outlined.
// CHECK-LABEL: func.func @tile(
// CHECK:         %[[Z:.*]] = amx.tile_zero
// CHECK:         scf.for {{.*}} iter_args({{.*}} = %[[Z]])
// CHECK:           amx.tile_muli
// CHECK:         amx.tile_store
// CHECK:         call @tile_loop1(
// CHECK-NOT:   func.func private @tile_loop0
// CHECK:       func.func private @tile_loop1(
func.func @tile(%a: memref<4096xi8>, %c: memref<256xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %z = amx.tile_zero : !amx.tile<16x16xi32>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (!amx.tile<16x16xi32>) {
    %off = arith.muli %k, %c64 : index
    %t = amx.tile_load %a[%off], %c64 : memref<4096xi8> into !amx.tile<16x64xi8>
    %n = amx.tile_muli %t zext, %t, %acc : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
    scf.yield %n : !amx.tile<16x16xi32>
  }
  amx.tile_store %c[%c0], %r, %c16 : memref<256xi32>, !amx.tile<16x16xi32>
  %one = arith.constant 1 : i32
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %one, %c[%i] : memref<256xi32>
  }
  return
}
