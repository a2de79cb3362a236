// RUN: quant-opt %s --qnt-lower-quantized --split-input-file | FileCheck %s

// Channel concat: each input is `rows` runs copied to its column offset in
// the output's rows (2 * 3 = 6 rows of 20 + 4 = 24 output columns). The
// first input has the output's parameters and full range: a plain copy
// (16 lanes + a tail of 4); the second is requantized with 0.5 / 0.25 = 2.
// CHECK-LABEL: func.func @channels
// CHECK-SAME: (%[[A:.*]]: tensor<1x2x3x20xi8>, %[[B:.*]]: tensor<1x2x3x4xi8>) -> tensor<1x2x3x24xi8>
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x2x3x24xi8>
// CHECK: %[[FO:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1, 2, 3]] : memref<1x2x3x24xi8> into memref<144xi8>
// CHECK: %[[FA:.*]] = memref.collapse_shape %{{.*}} : memref<1x2x3x20xi8> into memref<120xi8>
// CHECK: scf.parallel (%[[R:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK:   %[[C20:.*]] = arith.constant 20 : index
// CHECK:   %[[SRC:.*]] = arith.muli %[[R]], %[[C20]] : index
// CHECK:   %[[C24:.*]] = arith.constant 24 : index
// CHECK:   %[[ROW:.*]] = arith.muli %[[R]], %[[C24]] : index
// CHECK:   %[[DST:.*]] = arith.addi %[[ROW]], %{{.*}} : index
// CHECK:   scf.for %[[J:.*]] =
// CHECK:     %[[S:.*]] = arith.addi %[[SRC]], %[[J]] : index
// CHECK:     %[[D:.*]] = arith.addi %[[DST]], %[[J]] : index
// CHECK:     %[[V:.*]] = vector.load %[[FA]][%[[S]]] : memref<120xi8>, vector<16xi8>
// CHECK:     %[[E:.*]] = arith.extui %[[V]]
// CHECK-NEXT: %[[T:.*]] = arith.trunci %[[E]] : vector<16xi32> to vector<16xi8>
// CHECK-NEXT: vector.store %[[T]], %[[FO]][%[[D]]] : memref<144xi8>, vector<16xi8>
// CHECK:   scf.for
// CHECK:     memref.load %[[FA]]
// CHECK:     memref.store %{{.*}}, %[[FO]]
// CHECK: %[[FB:.*]] = memref.collapse_shape %{{.*}} : memref<1x2x3x4xi8> into memref<24xi8>
// CHECK: scf.parallel
// CHECK:   arith.constant 20 : index
// CHECK:   scf.for
// CHECK:     memref.load %[[FB]]
// CHECK:     arith.extsi
// CHECK:     arith.constant 2.000000e+00 : f32
// CHECK:     math.roundeven
// CHECK:     memref.store %{{.*}}, %[[FO]]
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
func.func @channels(%a: tensor<1x2x3x20x!quant.uniform<u8:f32, 0.25:8>>, %b: tensor<1x2x3x4x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<1x2x3x24x!quant.uniform<u8:f32, 0.25:8>> {
  %0 = qnt.concat %a, %b {axis = 3} : (tensor<1x2x3x20x!quant.uniform<u8:f32, 0.25:8>>, tensor<1x2x3x4x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<1x2x3x24x!quant.uniform<u8:f32, 0.25:8>>
  return %0 : tensor<1x2x3x24x!quant.uniform<u8:f32, 0.25:8>>
}

// -----

// Another axis: rows = 2 (the dimensions before axis 1), runs of 3 * 4 and
// 1 * 4 elements at column offsets 0 and 12 of 16.
// CHECK-LABEL: func.func @rows
// CHECK: scf.parallel (%[[R:.*]]) =
// CHECK:   %[[C12:.*]] = arith.constant 12 : index
// CHECK:   arith.muli %[[R]], %[[C12]] : index
// CHECK:   %[[C16:.*]] = arith.constant 16 : index
// CHECK:   %[[ROW:.*]] = arith.muli %[[R]], %[[C16]] : index
// CHECK:   %[[C0:.*]] = arith.constant 0 : index
// CHECK:   arith.addi %[[ROW]], %[[C0]] : index
// CHECK: memref.collapse_shape %{{.*}} : memref<2x1x4xi8> into memref<8xi8>
// CHECK: scf.parallel (%[[R2:.*]]) =
// CHECK:   %[[C4:.*]] = arith.constant 4 : index
// CHECK:   arith.muli %[[R2]], %[[C4]] : index
// CHECK:   %[[C16B:.*]] = arith.constant 16 : index
// CHECK:   %[[ROW2:.*]] = arith.muli %[[R2]], %[[C16B]] : index
// CHECK:   %[[C12B:.*]] = arith.constant 12 : index
// CHECK:   arith.addi %[[ROW2]], %[[C12B]] : index
func.func @rows(%a: tensor<2x3x4x!quant.uniform<u8:f32, 0.25:8>>, %b: tensor<2x1x4x!quant.uniform<u8:f32, 0.25:8>>) -> tensor<2x4x4x!quant.uniform<u8:f32, 0.25:8>> {
  %0 = qnt.concat %a, %b {axis = 1} : (tensor<2x3x4x!quant.uniform<u8:f32, 0.25:8>>, tensor<2x1x4x!quant.uniform<u8:f32, 0.25:8>>) -> tensor<2x4x4x!quant.uniform<u8:f32, 0.25:8>>
  return %0 : tensor<2x4x4x!quant.uniform<u8:f32, 0.25:8>>
}
