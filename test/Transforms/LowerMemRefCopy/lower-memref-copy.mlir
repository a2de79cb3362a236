// RUN: quant-opt %s --quantc-lower-memref-copy --split-input-file | FileCheck %s
// RUN: quant-opt %s --quantc-lower-memref-copy=min-row-bytes=4096 --split-input-file | FileCheck %s --check-prefix=BIGROWS

// Rows of 336 floats (1344 bytes) out of a wider buffer: one memcpy-able
// copy per row, in a parallel loop over the other dimensions.
// CHECK-LABEL: func.func @rows
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[C0]], %[[C0]]) to (%[[C2]], %[[C7]]) step (%[[C1]], %[[C1]])
// CHECK: %[[S:.*]] = memref.subview %arg0[%[[I]], %[[J]], 0] [1, 1, 336] [1, 1, 1] : memref<2x7x336xf32, strided<[4704, 672, 1], offset: 336>> to memref<336xf32, strided<[1], offset: ?>>
// CHECK: %[[D:.*]] = memref.subview %arg1[%[[I]], %[[J]], 0] [1, 1, 336] [1, 1, 1] : memref<2x7x336xf32> to memref<336xf32, strided<[1], offset: ?>>
// CHECK: memref.copy %[[S]], %[[D]] : memref<336xf32, strided<[1], offset: ?>> to memref<336xf32, strided<[1], offset: ?>>
// CHECK-NOT: linalg.copy
// BIGROWS-LABEL: func.func @rows
// BIGROWS: linalg.copy
func.func @rows(%src: memref<2x7x336xf32, strided<[4704, 672, 1], offset: 336>>, %dst: memref<2x7x336xf32>) {
  memref.copy %src, %dst : memref<2x7x336xf32, strided<[4704, 672, 1], offset: 336>> to memref<2x7x336xf32>
  return
}

// -----

// A row spans every innermost dimension whose stride is row-major's, unit
// dimensions included: [1, 4, 1, 384] with an outer stride copies rows of
// 4 x 384 bytes; with an odd stride on the unit dimension, rows of 384.
// CHECK-LABEL: func.func @unit_dims
// CHECK: scf.parallel
// CHECK: memref.subview %arg0[%{{.*}}, 0, 0, 0] [1, 4, 1, 384] [1, 1, 1, 1] : memref<3x4x1x384xi8, strided<[4000, 384, 384, 1]>> to memref<4x1x384xi8, strided<[384, 384, 1], offset: ?>>
// CHECK: memref.copy
// CHECK: scf.parallel
// CHECK: memref.subview %arg2[%{{.*}}, %{{.*}}, %{{.*}}, 0] [1, 1, 1, 384] [1, 1, 1, 1] : memref<3x4x1x384xi8, strided<[4000, 384, 7, 1]>> to memref<384xi8, strided<[1], offset: ?>>
// CHECK: memref.copy
func.func @unit_dims(%src: memref<3x4x1x384xi8, strided<[4000, 384, 384, 1]>>, %dst: memref<3x4x1x384xi8>,
                     %odd: memref<3x4x1x384xi8, strided<[4000, 384, 7, 1]>>) {
  memref.copy %src, %dst : memref<3x4x1x384xi8, strided<[4000, 384, 384, 1]>> to memref<3x4x1x384xi8>
  memref.copy %odd, %dst : memref<3x4x1x384xi8, strided<[4000, 384, 7, 1]>> to memref<3x4x1x384xi8>
  return
}

// -----

// Contiguous on both sides: left to finalize-memref-to-llvm's memcpy.
// Short rows, a strided innermost dimension and dynamic shapes: loops.
// CHECK-LABEL: func.func @others
// CHECK: memref.copy %arg0, %arg1 : memref<4x8xf32> to memref<4x8xf32>
// CHECK: linalg.copy ins(%arg2 : memref<4x8xf32, strided<[16, 1]>>) outs(%arg1 : memref<4x8xf32>)
// CHECK: linalg.copy ins(%arg3 : memref<4x8xf32, strided<[1, 4]>>) outs(%arg1 : memref<4x8xf32>)
// CHECK: linalg.copy ins(%arg4 : memref<?x512xf32, strided<[1024, 1]>>) outs(%arg5 : memref<?x512xf32>)
func.func @others(%a: memref<4x8xf32>, %b: memref<4x8xf32>,
                  %short: memref<4x8xf32, strided<[16, 1]>>,
                  %transposed: memref<4x8xf32, strided<[1, 4]>>,
                  %dyn: memref<?x512xf32, strided<[1024, 1]>>,
                  %dyndst: memref<?x512xf32>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  memref.copy %short, %b : memref<4x8xf32, strided<[16, 1]>> to memref<4x8xf32>
  memref.copy %transposed, %b : memref<4x8xf32, strided<[1, 4]>> to memref<4x8xf32>
  memref.copy %dyn, %dyndst : memref<?x512xf32, strided<[1024, 1]>> to memref<?x512xf32>
  return
}
