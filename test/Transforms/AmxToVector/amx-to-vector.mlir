// RUN: quant-opt %s --quantc-amx-to-vector --split-input-file | FileCheck %s

// tile_zero is a zero vector; tile_load and tile_store access one row per
// vector.load / vector.store, `stride` elements apart.
// CHECK-LABEL: func.func @load_store
// CHECK-SAME: (%[[A:.*]]: memref<?xi8>, %[[C:.*]]: memref<?xi32>, %[[I:.*]]: index, %[[S:.*]]: index)
// CHECK: %[[ZERO:.*]] = arith.constant dense<0> : vector<2x3xi32>
// CHECK: %[[TILE:.*]] = arith.constant dense<0> : vector<3x8xi8>
// CHECK: %[[R0:.*]] = vector.load %[[A]][%[[I]]] : memref<?xi8>, vector<8xi8>
// CHECK: %[[T0:.*]] = vector.insert %[[R0]], %[[TILE]] [0] : vector<8xi8> into vector<3x8xi8>
// CHECK: %[[I1:.*]] = arith.addi %[[I]], %[[S]] : index
// CHECK: %[[R1:.*]] = vector.load %[[A]][%[[I1]]] : memref<?xi8>, vector<8xi8>
// CHECK: %[[T1:.*]] = vector.insert %[[R1]], %[[T0]] [1] : vector<8xi8> into vector<3x8xi8>
// CHECK: %[[I2:.*]] = arith.addi %[[I1]], %[[S]] : index
// CHECK: %[[R2:.*]] = vector.load %[[A]][%[[I2]]] : memref<?xi8>, vector<8xi8>
// CHECK: vector.insert %[[R2]], %[[T1]] [2] : vector<8xi8> into vector<3x8xi8>
// CHECK-NOT: vector.load
// CHECK: %[[W0:.*]] = vector.extract %[[ZERO]][0] : vector<3xi32> from vector<2x3xi32>
// CHECK: vector.store %[[W0]], %[[C]][%[[I]]] : memref<?xi32>, vector<3xi32>
// CHECK: %[[J1:.*]] = arith.addi %[[I]], %[[S]] : index
// CHECK: %[[W1:.*]] = vector.extract %[[ZERO]][1] : vector<3xi32> from vector<2x3xi32>
// CHECK: vector.store %[[W1]], %[[C]][%[[J1]]] : memref<?xi32>, vector<3xi32>
// CHECK-NOT: amx.
func.func @load_store(%a: memref<?xi8>, %c: memref<?xi32>, %i: index, %s: index) {
  %z = amx.tile_zero : !amx.tile<2x3xi32>
  %t = amx.tile_load %a[%i], %s : memref<?xi8> into !amx.tile<3x8xi8>
  amx.tile_store %c[%i], %z, %s : memref<?xi32>, !amx.tile<2x3xi32>
  return
}

// -----

// Without a stride, the rows of a 2-D memref: its second innermost index
// moves by one.
// CHECK-LABEL: func.func @implicit_stride
// CHECK-SAME: (%[[B:.*]]: memref<4x64xi8>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK: vector.load %[[B]][%[[I]], %[[J]]] : memref<4x64xi8>, vector<16xi8>
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[I1:.*]] = arith.addi %[[I]], %[[ONE]] : index
// CHECK: vector.load %[[B]][%[[I1]], %[[J]]] : memref<4x64xi8>, vector<16xi8>
// CHECK: vector.store %{{.*}}, %[[B]][%[[J]], %[[I]]] : memref<4x64xi8>, vector<16xi8>
// CHECK: %[[J1:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK: vector.store %{{.*}}, %[[B]][%[[J1]], %[[I]]] : memref<4x64xi8>, vector<16xi8>
func.func @implicit_stride(%b: memref<4x64xi8>, %i: index, %j: index) {
  %t = amx.tile_load %b[%i, %j] : memref<4x64xi8> into !amx.tile<2x16xi8>
  amx.tile_store %b[%j, %i], %t : memref<4x64xi8>, !amx.tile<2x16xi8>
  return
}

// -----

// tdpbusd on a 2 x 8 lhs (u8, K = 2) and a 2 x 8 rhs (s8, N = 2): the rhs
// rows sign-extended once; a loop over the 2 rows carries the rows of lhs
// and acc, repeats group k of lhs row 0 (zero-extended) over 4N lanes, times
// rhs row k, sums over k, adds lanes i, 4 + i of the sum (i < 4) to acc row
// 0, and yields the rows rotated by one; the result is the loop's acc rows.
// CHECK-LABEL: func.func @muli
// CHECK: %[[LHS:.*]] = vector.insert {{.*}} [1] : vector<8xi8> into vector<2x8xi8>
// CHECK: %[[RHS:.*]] = vector.insert {{.*}} [1] : vector<8xi8> into vector<2x8xi8>
// CHECK: %[[ACC:.*]] = vector.insert {{.*}} [1] : vector<2xi32> into vector<2x2xi32>
// CHECK: %[[B0:.*]] = vector.extract %[[RHS]][0] : vector<8xi8> from vector<2x8xi8>
// CHECK: %[[W0:.*]] = arith.extsi %[[B0]] : vector<8xi8> to vector<8xi32>
// CHECK: %[[B1:.*]] = vector.extract %[[RHS]][1] : vector<8xi8> from vector<2x8xi8>
// CHECK: %[[W1:.*]] = arith.extsi %[[B1]] : vector<8xi8> to vector<8xi32>
// CHECK: %[[L0:.*]] = vector.extract %[[LHS]][0] : vector<8xi8> from vector<2x8xi8>
// CHECK: %[[L1:.*]] = vector.extract %[[LHS]][1] : vector<8xi8> from vector<2x8xi8>
// CHECK: %[[C0:.*]] = vector.extract %[[ACC]][0] : vector<2xi32> from vector<2x2xi32>
// CHECK: %[[C1:.*]] = vector.extract %[[ACC]][1] : vector<2xi32> from vector<2x2xi32>
// CHECK: %[[ROWS:.*]] = arith.constant 2 : index
// CHECK: %[[LOOP:.*]]:4 = scf.for %{{.*}} = %{{.*}} to %[[ROWS]] step %{{.*}} iter_args(%[[A:.*]] = %[[L0]], %[[A1:.*]] = %[[L1]], %[[C:.*]] = %[[C0]], %[[CN:.*]] = %[[C1]]) -> (vector<8xi8>, vector<8xi8>, vector<2xi32>, vector<2xi32>) {
// CHECK:   %[[AW:.*]] = arith.extui %[[A]] : vector<8xi8> to vector<8xi32>
// CHECK:   %[[G0:.*]] = vector.shuffle %[[AW]], %[[AW]] [0, 1, 2, 3, 0, 1, 2, 3]
// CHECK:   %[[P0:.*]] = arith.muli %[[G0]], %[[W0]] : vector<8xi32>
// CHECK:   %[[G1:.*]] = vector.shuffle %[[AW]], %[[AW]] [4, 5, 6, 7, 4, 5, 6, 7]
// CHECK:   %[[P1:.*]] = arith.muli %[[G1]], %[[W1]] : vector<8xi32>
// CHECK:   %[[SUM:.*]] = arith.addi %[[P0]], %[[P1]] : vector<8xi32>
// CHECK:   %[[S0:.*]] = vector.shuffle %[[SUM]], %[[SUM]] [0, 4]
// CHECK:   %[[R0:.*]] = arith.addi %[[C]], %[[S0]] : vector<2xi32>
// CHECK:   vector.shuffle %[[SUM]], %[[SUM]] [1, 5]
// CHECK:   vector.shuffle %[[SUM]], %[[SUM]] [2, 6]
// CHECK:   vector.shuffle %[[SUM]], %[[SUM]] [3, 7]
// CHECK:   %[[R3:.*]] = arith.addi %{{.*}}, %{{.*}} : vector<2xi32>
// CHECK:   scf.yield %[[A1]], %[[A]], %[[CN]], %[[R3]] : vector<8xi8>, vector<8xi8>, vector<2xi32>, vector<2xi32>
// CHECK: %[[T0:.*]] = vector.insert %[[LOOP]]#2, %[[ACC]] [0] : vector<2xi32> into vector<2x2xi32>
// CHECK: %[[T1:.*]] = vector.insert %[[LOOP]]#3, %[[T0]] [1] : vector<2xi32> into vector<2x2xi32>
// CHECK: vector.extract %[[T1]][0] : vector<2xi32> from vector<2x2xi32>
func.func @muli(%p: memref<?xi8>, %q: memref<?xi32>, %i: index, %s: index) {
  %a = amx.tile_load %p[%i], %s : memref<?xi8> into !amx.tile<2x8xi8>
  %b = amx.tile_load %p[%s], %s : memref<?xi8> into !amx.tile<2x8xi8>
  %c = amx.tile_load %q[%i], %s : memref<?xi32> into !amx.tile<2x2xi32>
  %r = amx.tile_muli %a zext, %b, %c : !amx.tile<2x8xi8>, !amx.tile<2x8xi8>, !amx.tile<2x2xi32>
  amx.tile_store %q[%i], %r, %s : memref<?xi32>, !amx.tile<2x2xi32>
  return
}

// -----

// The zext flags choose each side's extension.
// CHECK-LABEL: func.func @signs
// CHECK: arith.extui {{.*}} : vector<8xi8> to vector<8xi32>
// CHECK: arith.extui {{.*}} : vector<8xi8> to vector<8xi32>
// CHECK: scf.for
// CHECK: arith.extsi {{.*}} : vector<8xi8> to vector<8xi32>
func.func @signs(%p: memref<?xi8>, %q: memref<?xi32>, %i: index, %s: index) {
  %a = amx.tile_load %p[%i], %s : memref<?xi8> into !amx.tile<2x8xi8>
  %b = amx.tile_load %p[%s], %s : memref<?xi8> into !amx.tile<2x8xi8>
  %c = amx.tile_load %q[%i], %s : memref<?xi32> into !amx.tile<2x2xi32>
  %r = amx.tile_muli %a, %b zext, %c : !amx.tile<2x8xi8>, !amx.tile<2x8xi8>, !amx.tile<2x2xi32>
  amx.tile_store %q[%i], %r, %s : memref<?xi32>, !amx.tile<2x2xi32>
  return
}

// -----

// Tiles carried by a reduction loop and chosen by scf.if become vectors in
// the loop's iter_args and the if's results.
// CHECK-LABEL: func.func @structural
// CHECK: %[[ZERO:.*]] = arith.constant dense<0> : vector<16x16xi32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<16x16xi32>)
// CHECK: vector.load {{.*}} : memref<4096xi8>, vector<64xi8>
// CHECK: scf.yield {{.*}} : vector<16x16xi32>
// CHECK: %[[PICK:.*]] = scf.if %{{.*}} -> (vector<16x16xi32>)
// CHECK-NEXT: scf.yield %[[SUM]] : vector<16x16xi32>
// CHECK: scf.yield %[[ZERO]] : vector<16x16xi32>
// CHECK: vector.extract %[[PICK]][15] : vector<16xi32> from vector<16x16xi32>
// CHECK-NOT: amx.
func.func @structural(%a: memref<4096xi8>, %b: memref<4096xi8>, %c: memref<?xi32>, %n: index, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %z = amx.tile_zero : !amx.tile<16x16xi32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%t = %z) -> (!amx.tile<16x16xi32>) {
    %ta = amx.tile_load %a[%k], %c64 : memref<4096xi8> into !amx.tile<16x64xi8>
    %tb = amx.tile_load %b[%k], %c64 : memref<4096xi8> into !amx.tile<16x64xi8>
    %t2 = amx.tile_muli %ta zext, %tb, %t : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
    scf.yield %t2 : !amx.tile<16x16xi32>
  }
  %sel = scf.if %cond -> !amx.tile<16x16xi32> {
    scf.yield %acc : !amx.tile<16x16xi32>
  } else {
    scf.yield %z : !amx.tile<16x16xi32>
  }
  amx.tile_store %c[%c0], %sel, %c64 : memref<?xi32>, !amx.tile<16x16xi32>
  return
}

