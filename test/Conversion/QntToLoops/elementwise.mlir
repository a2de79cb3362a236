// RUN: quant-opt %s --qnt-lower-quantized --split-input-file | FileCheck %s

// Add: 40 elements = 2 vectors of 16 lanes + a scalar tail of 8.
// ma = 0.5 / 0.25 = 2, mb = 0.125 / 0.25 = 0.5; relu with zero point 20:
// the rounded sum is clamped to [zp - zp, 255 - zp] = [0, 235], then 20 is
// added.
// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:.*]]: tensor<2x20xi8>, %[[B:.*]]: tensor<2x20xi8>) -> tensor<2x20xi8>
// CHECK: %[[BA:.*]] = bufferization.to_buffer %[[A]] read_only : tensor<2x20xi8> to memref<2x20xi8>
// CHECK: %[[FA:.*]] = memref.collapse_shape %[[BA]] {{\[\[}}0, 1]] : memref<2x20xi8> into memref<40xi8>
// CHECK: %[[BB:.*]] = bufferization.to_buffer %[[B]] read_only
// CHECK: %[[FB:.*]] = memref.collapse_shape %[[BB]]
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x20xi8>
// CHECK: %[[FO:.*]] = memref.collapse_shape %[[OUT]]
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%{{.*}}) step (%[[C16]]) {
// CHECK:   %[[VA:.*]] = vector.load %[[FA]][%[[I]]] : memref<40xi8>, vector<16xi8>
// CHECK:   %[[VB:.*]] = vector.load %[[FB]][%[[I]]] : memref<40xi8>, vector<16xi8>
// CHECK:   arith.extui %[[VA]] : vector<16xi8> to vector<16xi32>
// CHECK:   arith.constant dense<10> : vector<16xi32>
// CHECK:   %[[MA:.*]] = arith.constant dense<2.000000e+00> : vector<16xf32>
// CHECK:   arith.extsi %[[VB]] : vector<16xi8> to vector<16xi32>
// CHECK:   arith.constant dense<-3> : vector<16xi32>
// CHECK:   %[[MB:.*]] = arith.constant dense<5.000000e-01> : vector<16xf32>
// CHECK:   %[[T1:.*]] = arith.mulf %{{.*}}, %[[MA]]
// CHECK:   %[[T2:.*]] = arith.mulf %{{.*}}, %[[MB]]
// CHECK:   %[[SUM:.*]] = arith.addf %[[T1]], %[[T2]] : vector<16xf32>
// CHECK:   %[[R:.*]] = math.roundeven %[[SUM]] : vector<16xf32>
// CHECK:   %[[LO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK:   %[[MAX:.*]] = arith.maxnumf %[[R]], %[[LO]]
// CHECK:   %[[HI:.*]] = arith.constant dense<2.350000e+02> : vector<16xf32>
// CHECK:   %[[MIN:.*]] = arith.minnumf %[[MAX]], %[[HI]]
// CHECK:   %[[Q:.*]] = arith.fptosi %[[MIN]] : vector<16xf32> to vector<16xi32>
// CHECK:   %[[ZP:.*]] = arith.constant dense<20> : vector<16xi32>
// CHECK:   %[[S:.*]] = arith.addi %[[Q]], %[[ZP]]
// CHECK:   %[[N:.*]] = arith.trunci %[[S]] : vector<16xi32> to vector<16xi8>
// CHECK:   vector.store %[[N]], %[[FO]][%[[I]]] : memref<40xi8>, vector<16xi8>
// CHECK: }
// CHECK: %[[C40:.*]] = arith.constant 40 : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[C40]] step %{{.*}} {
// CHECK:   memref.load %[[FA]][%[[J]]] : memref<40xi8>
// CHECK:   arith.constant 5.000000e-01 : f32
// CHECK:   math.roundeven %{{.*}} : f32
// CHECK:   arith.constant 2.350000e+02 : f32
// CHECK:   memref.store %{{.*}}, %[[FO]][%[[J]]] : memref<40xi8>
// CHECK: }
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[OUT]] restrict writable : memref<2x20xi8> to tensor<2x20xi8>
// CHECK: return %[[T]]
func.func @add(%a: tensor<2x20x!quant.uniform<u8:f32, 0.5:10>>, %b: tensor<2x20x!quant.uniform<i8:f32, 0.125:-3>>) -> tensor<2x20x!quant.uniform<u8:f32, 0.25:20>> {
  %0 = qnt.add %a, %b {activation = #qnt<activation relu>} : (tensor<2x20x!quant.uniform<u8:f32, 0.5:10>>, tensor<2x20x!quant.uniform<i8:f32, 0.125:-3>>) -> tensor<2x20x!quant.uniform<u8:f32, 0.25:20>>
  return %0 : tensor<2x20x!quant.uniform<u8:f32, 0.25:20>>
}

// -----

// Quantize: x * (1 / 0.25) = x * 4, NaN -> 0, clamp to [0 - 10, 255 - 10],
// + 10. 8 elements: no vector part, only the scalar loop.
// CHECK-LABEL: func.func @qcast
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>) -> tensor<8xi8>
// CHECK: %[[BX:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<8xf32> to memref<8xf32>
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xi8>
// CHECK-NOT: vector.load
// CHECK: scf.for %[[I:.*]] =
// CHECK:   %[[V:.*]] = memref.load %[[BX]][%[[I]]] : memref<8xf32>
// CHECK:   %[[INV:.*]] = arith.constant 4.000000e+00 : f32
// CHECK:   %[[M:.*]] = arith.mulf %[[V]], %[[INV]] : f32
// CHECK:   %[[R:.*]] = math.roundeven %[[M]] : f32
// CHECK:   %[[NAN:.*]] = arith.cmpf uno, %[[R]], %[[R]] : f32
// CHECK:   %[[Z:.*]] = arith.select %[[NAN]], %{{.*}}, %[[R]] : f32
// CHECK:   arith.constant -1.000000e+01 : f32
// CHECK:   arith.maxnumf %[[Z]]
// CHECK:   arith.constant 2.450000e+02 : f32
// CHECK:   arith.minnumf
// CHECK:   arith.fptosi
// CHECK:   arith.constant 10 : i32
// CHECK:   arith.trunci
// CHECK:   memref.store %{{.*}}, %[[OUT]][%[[I]]] : memref<8xi8>
func.func @qcast(%x: tensor<8xf32>) -> tensor<8x!quant.uniform<u8:f32, 0.25:10>> {
  %0 = quant.qcast %x : tensor<8xf32> to tensor<8x!quant.uniform<u8:f32, 0.25:10>>
  return %0 : tensor<8x!quant.uniform<u8:f32, 0.25:10>>
}

// -----

// Dequantize: float(q - zp) * scale; i8 storage is sign-extended.
// CHECK-LABEL: func.func @dcast
// CHECK-SAME: (%{{.*}}: tensor<1x16xi8>) -> tensor<1x16xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x16xf32>
// CHECK: scf.parallel
// CHECK:   vector.load %{{.*}} : memref<16xi8>, vector<16xi8>
// CHECK:   arith.extsi %{{.*}} : vector<16xi8> to vector<16xi32>
// CHECK:   arith.constant dense<-7> : vector<16xi32>
// CHECK:   arith.subi
// CHECK:   arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK:   arith.constant dense<1.250000e-01> : vector<16xf32>
// CHECK:   arith.mulf
// CHECK:   vector.store %{{.*}} : memref<16xf32>, vector<16xf32>
// CHECK-NOT: scf.for
// CHECK: bufferization.to_tensor %{{.*}} restrict writable : memref<1x16xf32> to tensor<1x16xf32>
func.func @dcast(%q: tensor<1x16x!quant.uniform<i8:f32, 0.125:-7>>) -> tensor<1x16xf32> {
  %0 = quant.dcast %q : tensor<1x16x!quant.uniform<i8:f32, 0.125:-7>> to tensor<1x16xf32>
  return %0 : tensor<1x16xf32>
}

// -----

// Requantize u8 (0.5, 100) -> i8<-100:100> (0.25, 3): (q - 100) * 2, clamp
// to [-100 - 3, 100 - 3], + 3.
// CHECK-LABEL: func.func @requantize
// CHECK: scf.parallel
// CHECK:   arith.extui %{{.*}} : vector<16xi8> to vector<16xi32>
// CHECK:   arith.constant dense<100> : vector<16xi32>
// CHECK:   arith.subi
// CHECK:   arith.constant dense<2.000000e+00> : vector<16xf32>
// CHECK:   arith.mulf
// CHECK:   math.roundeven
// CHECK:   arith.constant dense<-1.030000e+02> : vector<16xf32>
// CHECK:   arith.constant dense<9.700000e+01> : vector<16xf32>
// CHECK:   arith.constant dense<3> : vector<16xi32>
func.func @requantize(%q: tensor<16x!quant.uniform<u8:f32, 0.5:100>>) -> tensor<16x!quant.uniform<i8<-100:100>:f32, 0.25:3>> {
  %0 = qnt.requantize %q : (tensor<16x!quant.uniform<u8:f32, 0.5:100>>) -> tensor<16x!quant.uniform<i8<-100:100>:f32, 0.25:3>>
  return %0 : tensor<16x!quant.uniform<i8<-100:100>:f32, 0.25:3>>
}
