// QuantizeLinear/DequantizeLinear pairs become qnt.fake_quant with the
// !quant.uniform type: per tensor on activations (uint8 and int8 zero
// points), per axis on the conv weight (axis 0 = output channels, still
// dimension 0 of the OHWI weight).
//
// RUN: quant-translate --import-onnx %S/Inputs/qdq.onnx | FileCheck %s

// CHECK-LABEL: func.func @qdq(%{{.*}}: tensor<1x2x6x6xf32>) -> tensor<1x3x6x6xf32>
// The interface keeps ONNX's order, which the function states.
// CHECK-SAME:    attributes {quantc.input_layouts = ["NCHW"], quantc.input_names = ["x"], quantc.output_layouts = ["NCHW"], quantc.output_names = ["y"]}
// CHECK: %[[X:.*]] = tosa.transpose
// CHECK: %[[XQ:.*]] = qnt.fake_quant %[[X]] to !quant.uniform<u8:f32, 0.05000000074505806:128> {name = "x_dequant"} : tensor<1x6x6x2xf32>
// CHECK: %[[W:.*]] = "tosa.const"() {{.*}} -> tensor<3x3x3x2xf32>
// CHECK: %[[WQ:.*]] = qnt.fake_quant %[[W]] to !quant.uniform<i8:f32:0, {{.*}}> {name = "wdq"} : tensor<3x3x3x2xf32>
// CHECK: %[[C:.*]] = tosa.conv2d %[[XQ]], %[[WQ]], {{.*}} -> tensor<1x6x6x3xf32>
// CHECK: %[[R:.*]] = tosa.clamp %[[C]]
// CHECK: %[[RQ:.*]] = qnt.fake_quant %[[R]] to !quant.uniform<i8:f32, 0.10000000149011612:-3> {name = "r_dequant"}
// CHECK: %[[Y:.*]] = tosa.transpose %[[RQ]] {perms = array<i32: 0, 3, 1, 2>}
// CHECK: return %[[Y]] : tensor<1x3x6x6xf32>
