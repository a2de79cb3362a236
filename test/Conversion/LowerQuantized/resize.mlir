// qnt.resize_bilinear (Resize.cpp): the same code on every instruction set
// (no kernel family is asked), checked on two of them.
// RUN: quant-opt %s --qnt-lower-quantized=isa=generic | FileCheck %s
// RUN: quant-opt %s --qnt-lower-quantized=isa=avx512-vnni | FileCheck %s
// Numerics: test/Integration/Kernels/random-movement*.mlir (bit-identical
// to the int8 reference).

// 2x up, half-pixel centres (offset 0, border 1): per output row, then per
// output column, the taps [i0, i1, w0, w1] of quantc::ref::bilinearTaps
// (row 1 reads rows 0 and 1 with weights 1, 1; the weights of a tap sum to
// the scale 2, so a pixel's four sum to N = 4).
// CHECK: memref.global "private" constant @__qnt_bilinear_taps_0 : memref<40xi32> = dense<[0, 1, 2, 0, 0, 1, 1, 1, 1, 1, 2, 0, 1, 1, 1, 1, 0, 1, 2, 0, 0, 1, 1, 1, 1, 2, 2, 0, 1, 2, 1, 1, 2, 2, 2, 0, 2, 2, 1, 1]>
// CHECK-LABEL: func.func @resize_2x
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x6x20xi8>
// CHECK: scf.parallel (%[[N:.*]], %[[Y:.*]], %[[X:.*]]) =
// The column taps start after the 4 x 4 row taps.
// CHECK: arith.constant 16 : index
// CHECK: %[[W00:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// Channels in vectors of 16 (one here), then a scalar tail of 4: four
// neighbours widened to i32 and weighted, the reference's rounding
// floor((acc + N / 2) / N) and the clamp to the i8 range.
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: vector.load %{{.*}}[%[[N]], %{{.*}}, %{{.*}}, %[[C]]] : memref<1x2x3x20xi8>, vector<16xi8>
// CHECK: arith.extsi %{{.*}} : vector<16xi8> to vector<16xi32>
// CHECK: vector.broadcast %[[W00]] : i32 to vector<16xi32>
// CHECK-COUNT-3: vector.load %{{.*}} : memref<1x2x3x20xi8>, vector<16xi8>
// CHECK: arith.constant dense<2> : vector<16xi32>
// CHECK: arith.constant dense<4> : vector<16xi32>
// CHECK: arith.floordivsi
// CHECK: arith.constant dense<-128> : vector<16xi32>
// CHECK: arith.maxsi
// CHECK: arith.constant dense<127> : vector<16xi32>
// CHECK: arith.minsi
// CHECK: vector.store %{{.*}}, %[[OUT]][%[[N]], %[[Y]], %[[X]], %[[C]]] : memref<1x4x6x20xi8>, vector<16xi8>
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[C20:.*]] = arith.constant 20 : index
// CHECK: scf.for %[[T:.*]] = %[[C16]] to %[[C20]] step
// CHECK: arith.floordivsi {{.*}} : i32
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[N]], %[[Y]], %[[X]], %[[T]]] : memref<1x4x6x20xi8>
!q = !quant.uniform<i8:f32, 0.05:-3>
func.func @resize_2x(%x: tensor<1x2x3x20x!q>) -> tensor<1x4x6x20x!q> {
  %0 = qnt.resize_bilinear %x {scale = array<i64: 2, 1, 2, 1>, offset = array<i64: 0, 0>, border = array<i64: 1, 1>} : (tensor<1x2x3x20x!q>) -> tensor<1x4x6x20x!q>
  return %0 : tensor<1x4x6x20x!q>
}
