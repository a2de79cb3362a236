// RUN: quant-opt %s -split-input-file -qnt-lower-float | FileCheck %s
// Numerics (against numpy and ONNX's QuantizeLinear / DequantizeLinear) are
// checked end to end in test/Integration/Compile/qdq.mlir.

// Per tensor: the parameters are scalar constants (hoisted out of the
// body); 1 / 0.05 rounded to f32, bounds qmin - zp = -128, qmax - zp = 127.
// CHECK-LABEL: func.func @per_tensor
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x3xf32>)
// CHECK-DAG: %[[INV:.*]] = arith.constant 2.000000e+01 : f32
// CHECK-DAG: %[[LO:.*]] = arith.constant -1.280000e+02 : f32
// CHECK-DAG: %[[HI:.*]] = arith.constant 1.270000e+02 : f32
// CHECK-DAG: %[[S:.*]] = arith.constant 5.000000e-02 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[X]] : tensor<1x4x4x3xf32>)
// CHECK: ^bb0(%[[x:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[T:.*]] = arith.mulf %[[x]], %[[INV]]
// CHECK-NEXT: %[[R:.*]] = math.roundeven %[[T]]
// CHECK-NEXT: %[[NAN:.*]] = arith.cmpf uno, %[[R]], %[[R]]
// CHECK-NEXT: %[[R0:.*]] = arith.select %[[NAN]], %[[ZERO]], %[[R]]
// CHECK-NEXT: %[[R1:.*]] = arith.maximumf %[[R0]], %[[LO]]
// CHECK-NEXT: %[[R2:.*]] = arith.minimumf %[[R1]], %[[HI]]
// CHECK-NEXT: %[[R3:.*]] = arith.addf %[[R2]], %[[ZERO]]
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[R3]], %[[S]]
// CHECK-NEXT: linalg.yield %[[Y]]
// CHECK-NOT: qnt.fake_quant
func.func @per_tensor(%x: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %0 = qnt.fake_quant %x to !quant.uniform<u8:f32, 0.05:128> : tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

// Per axis (dimension 0 of an OHWI weight, 7-bit storage range): one
// parameter tensor each for 1 / scale, qmin - zp, qmax - zp and scale,
// indexed by the quantized dimension.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0)>
// CHECK-LABEL: func.func @per_axis
// CHECK-DAG: %[[INV:.*]] = arith.constant dense<[2.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[LO:.*]] = arith.constant dense<[-6.300000e+01, -6.200000e+01]> : tensor<2xf32>
// CHECK-DAG: %[[HI:.*]] = arith.constant dense<[6.300000e+01, 6.400000e+01]> : tensor<2xf32>
// CHECK-DAG: %[[S:.*]] = arith.constant dense<[5.000000e-01, 2.500000e-01]> : tensor<2xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[C]], #[[C]], #[[C]], #[[C]], #[[ID]]]
// CHECK-SAME: ins(%{{.*}}, %[[INV]], %[[LO]], %[[HI]], %[[S]] :
// CHECK: ^bb0(%[[x:.*]]: f32, %[[inv:.*]]: f32, %[[lo:.*]]: f32, %[[hi:.*]]: f32, %[[s:.*]]: f32, %{{.*}}: f32):
// CHECK: arith.mulf %[[x]], %[[inv]]
// CHECK: arith.maximumf %{{.*}}, %[[lo]]
// CHECK: arith.minimumf %{{.*}}, %[[hi]]
// CHECK: arith.mulf %{{.*}}, %[[s]]
func.func @per_axis(%x: tensor<2x3x3x4xf32>) -> tensor<2x3x3x4xf32> {
  %0 = qnt.fake_quant %x to !quant.uniform<i8<-63:63>:f32:0, {0.5, 0.25:-1}> : tensor<2x3x3x4xf32>
  return %0 : tensor<2x3x3x4xf32>
}

// -----

// Any storage type: i16 with the last dimension as axis, i32 per tensor
// (bounds rounded to f32 once).
// CHECK-LABEL: func.func @wide
// CHECK-DAG: arith.constant 2.14748365E+9 : f32
// CHECK-DAG: arith.constant -2.14748365E+9 : f32
// CHECK-DAG: arith.constant dense<[999.999938, 499.999969]> : tensor<2xf32>
// CHECK-DAG: arith.constant dense<-3.276800e+04> : tensor<2xf32>
// CHECK-DAG: arith.constant dense<3.276700e+04> : tensor<2xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[AX:.*]], #[[AX]], #[[AX]], #[[AX]], #{{.*}}]
// CHECK: linalg.generic
// CHECK-NOT: qnt.fake_quant
func.func @wide(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = qnt.fake_quant %x to !quant.uniform<i16:f32:1, {0.001, 0.002}> : tensor<4x2xf32>
  %1 = qnt.fake_quant %0 to !quant.uniform<i32:f32, 1.0e-6> : tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}
