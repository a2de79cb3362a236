// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(quantc-static-memory-plan))" | FileCheck %s
// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(quantc-static-memory-plan{alignment=128}))" | FileCheck %s --check-prefix=A128

// A chain of three 256-byte buffers: %a and %b are live together (%b is
// written from %a), %c is allocated after the last use of %a and takes its
// bytes. The deallocs at the end of the body do not count as uses.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<512xi8>
// CHECK-NEXT: %[[OA:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %[[ARENA]][%[[OA]]][] : memref<512xi8> to memref<64xf32>
// CHECK-NEXT: memref.copy %{{.*}}, %[[A]]
// CHECK-NEXT: %[[OB:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %[[ARENA]][%[[OB]]][] : memref<512xi8> to memref<64xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[B]]
// CHECK-NEXT: %[[OC:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C:.*]] = memref.view %[[ARENA]][%[[OC]]][] : memref<512xi8> to memref<64xf32>
// CHECK-NEXT: memref.copy %[[B]], %[[C]]
// CHECK-NEXT: memref.copy %[[C]], %{{.*}}
// CHECK-NEXT: memref.dealloc %[[ARENA]] : memref<512xi8>
// CHECK-NEXT: return
// A128-LABEL: func.func @chain
// A128: memref.alloc() {alignment = 128 : i64} : memref<512xi8>
func.func @chain(%in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  memref.copy %in, %a : memref<64xf32> to memref<64xf32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  memref.copy %a, %b : memref<64xf32> to memref<64xf32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  memref.copy %b, %c : memref<64xf32> to memref<64xf32>
  memref.copy %c, %out : memref<64xf32> to memref<64xf32>
  memref.dealloc %a : memref<64xf32>
  memref.dealloc %b : memref<64xf32>
  memref.dealloc %c : memref<64xf32>
  return
}

// -----

// Overlapping lifetimes get disjoint ranges, each starting at a multiple of
// the alignment (64 by default, 128 with the option, 256 for an alloc that
// asks for it; the arena takes the largest). Largest buffers are placed
// first: %big (40 bytes) at 0, %huge-aligned %w (8 bytes) at 256, %small
// (3 bytes) at 64 (128 with alignment=128).
// CHECK-LABEL: func.func @overlap
// CHECK-NEXT: %[[ARENA:.*]] = memref.alloc() {alignment = 256 : i64} : memref<264xi8>
// CHECK: arith.constant 64 : index
// CHECK-NEXT: memref.view %[[ARENA]][%{{.*}}][] : memref<264xi8> to memref<3xi8>
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: memref.view %[[ARENA]][%{{.*}}][] : memref<264xi8> to memref<10xf32>
// CHECK-NEXT: arith.constant 256 : index
// CHECK-NEXT: memref.view %[[ARENA]][%{{.*}}][] : memref<264xi8> to memref<2xi32>
// CHECK-NOT: memref.dealloc %{{.*}} : memref<
// CHECK: memref.dealloc %[[ARENA]] : memref<264xi8>
// CHECK-NEXT: return
// A128-LABEL: func.func @overlap
// A128-NEXT: %[[ARENA:.*]] = memref.alloc() {alignment = 256 : i64} : memref<264xi8>
// A128: arith.constant 128 : index
// A128-NEXT: memref.view %[[ARENA]][%{{.*}}][] : memref<264xi8> to memref<3xi8>
// A128-NEXT: arith.constant 0 : index
// A128-NEXT: memref.view %[[ARENA]][%{{.*}}][] : memref<264xi8> to memref<10xf32>
// A128-NEXT: arith.constant 256 : index
func.func @overlap(%x: i8, %y: f32, %z: i32, %out: memref<i8>) {
  %c0 = arith.constant 0 : index
  %small = memref.alloc() : memref<3xi8>
  %big = memref.alloc() : memref<10xf32>
  %w = memref.alloc() {alignment = 256 : i64} : memref<2xi32>
  memref.store %x, %small[%c0] : memref<3xi8>
  memref.store %y, %big[%c0] : memref<10xf32>
  memref.store %z, %w[%c0] : memref<2xi32>
  %v = memref.load %small[%c0] : memref<3xi8>
  memref.store %v, %out[] : memref<i8>
  memref.dealloc %small : memref<3xi8>
  memref.dealloc %big : memref<10xf32>
  memref.dealloc %w : memref<2xi32>
  return
}

// -----

// A use through a view or inside a loop keeps the buffer alive up to the
// top-level op holding it: %b is allocated while %a is still read through
// %flat in the loop, so they do not share bytes; %c comes after the loop
// and reuses %a's. The alloc inside the loop (freed there) is left alone.
// CHECK-LABEL: func.func @aliases_and_loops
// CHECK-NEXT: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK: %[[A:.*]] = memref.view %[[ARENA]]{{.*}} to memref<4x4xf32>
// CHECK-NEXT: %[[FLAT:.*]] = memref.collapse_shape %[[A]]
// CHECK-NEXT: memref.copy %{{.*}}, %[[A]]
// CHECK-NEXT: arith.constant 64 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %[[ARENA]]{{.*}} to memref<16xf32>
// CHECK: scf.for
// CHECK-NEXT: %[[T:.*]] = memref.alloc() : memref<16xf32>
// CHECK: memref.dealloc %[[T]] : memref<16xf32>
// CHECK: }
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[C:.*]] = memref.view %[[ARENA]]{{.*}} to memref<16xf32>
// CHECK-NEXT: memref.copy %[[B]], %[[C]]
// CHECK: memref.dealloc %[[ARENA]] : memref<128xi8>
// CHECK-NEXT: return
func.func @aliases_and_loops(%in: memref<4x4xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloc() : memref<4x4xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  memref.copy %in, %a : memref<4x4xf32> to memref<4x4xf32>
  %b = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %t = memref.alloc() : memref<16xf32>
    %v = memref.load %flat[%i] : memref<16xf32>
    memref.store %v, %t[%i] : memref<16xf32>
    %w = memref.load %t[%i] : memref<16xf32>
    memref.store %w, %b[%i] : memref<16xf32>
    memref.dealloc %t : memref<16xf32>
  }
  %c = memref.alloc() : memref<16xf32>
  memref.copy %b, %c : memref<16xf32> to memref<16xf32>
  memref.copy %c, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<4x4xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %c : memref<16xf32>
  return
}

// -----

// Left alone: a function without allocs, a dynamic shape, a non-identity
// layout, an alloc without dealloc (returned), an index element type.
// CHECK-LABEL: func.func @no_allocs
// CHECK-NEXT: memref.copy
// CHECK-NEXT: return
func.func @no_allocs(%in: memref<4xf32>, %out: memref<4xf32>) {
  memref.copy %in, %out : memref<4xf32> to memref<4xf32>
  return
}
// CHECK-LABEL: func.func @not_planned
// CHECK-NOT: memref.view
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK-NEXT: memref.alloc() : memref<4xf32, strided<[2]>>
// CHECK-NEXT: memref.alloc() : memref<4xindex>
// CHECK-NEXT: memref.alloc() : memref<4xf32>
// CHECK-NOT: memref.view
func.func @not_planned(%n: index) -> memref<4xf32> {
  %d = memref.alloc(%n) : memref<?xf32>
  %s = memref.alloc() : memref<4xf32, strided<[2]>>
  %i = memref.alloc() : memref<4xindex>
  %r = memref.alloc() : memref<4xf32>
  memref.dealloc %d : memref<?xf32>
  memref.dealloc %s : memref<4xf32, strided<[2]>>
  memref.dealloc %i : memref<4xindex>
  return %r : memref<4xf32>
}
