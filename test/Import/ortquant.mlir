// ONNX Runtime's operator-format (QOperator) and dynamically quantized
// models (scripts/gen_ort_quant_models.py): each QLinear op imports as its
// QDQ form (qnt.fake_quant of the inputs with the op's own scales and zero
// points, the float op, qnt.fake_quant of the output); ops that only move
// values (MaxPool, Reshape) run on the dequantized 8-bit tensor, which is
// quantized again with the same parameters; a dynamic model becomes the
// float model its weights dequantize to. Numbers: Integration/Compile/ortquant.mlir.
//
// RUN: quant-translate --import-onnx %S/Inputs/ortquant/qlinear_conv_u8.onnx | FileCheck %s --check-prefix=CONV
// CONV-LABEL: func.func @qlinear_conv_u8
// CONV: %[[X:.*]] = qnt.fake_quant %{{.*}} to !quant.uniform<u8:f32, 0.027608945965766907:125>
// The int32 bias, dequantized with x_scale * w_scale.
// CONV: %[[B:.*]] = "tosa.const"() <{values = dense<[-0.315733552, {{.*}}]> : tensor<8xf32>}>
// CONV: %[[W:.*]] = qnt.fake_quant %{{.*}} to !quant.uniform<i8:f32:0, {0.0057786325924098492,{{.*}}}> {name = "c2_y#w"} : tensor<8x3x3x3xf32>
// CONV: %[[C:.*]] = tosa.conv2d %[[X]], %[[W]], %[[B]]
// CONV: %[[Y:.*]] = qnt.fake_quant %[[C]] to !quant.uniform<u8:f32, 0.018200140446424484>
// A per-tensor depthwise weight.
// CONV: qnt.fake_quant %{{.*}} to !quant.uniform<i8:f32, 0.0071682538837194443> {{.*}} : tensor<3x3x8x1xf32>
// CONV: tosa.depthwise_conv2d %[[Y]]
// CONV: qnt.fake_quant %{{.*}} to !quant.uniform<u8:f32, 0.037154905498027802:97>
// CONV-NOT: qnt.fake_quant
// CONV: return
//
// RUN: quant-translate --import-onnx %S/Inputs/ortquant/qcnn.onnx | FileCheck %s --check-prefix=CNN
// CNN: %[[A:.*]] = qnt.fake_quant %{{.*}} to !quant.uniform<u8:f32, 0.025334319099783897> {name = "qlinearadd4"}
// CNN: %[[B:.*]] = qnt.fake_quant %{{.*}} to !quant.uniform<u8:f32, 0.05860794335603714:147> {name = "qlinearadd4"}
// CNN: %[[S:.*]] = tosa.add %[[A]], %[[B]]
// MaxPool on the uint8 tensor: the same parameters before and after.
// CNN: %[[P:.*]] = qnt.fake_quant %[[S]] to !quant.uniform<u8:f32, 0.068001791834831238:117> {name = "maxpool5"}
// CNN: %[[M:.*]] = tosa.max_pool2d %[[P]]
// CNN: qnt.fake_quant %[[M]] to !quant.uniform<u8:f32, 0.068001791834831238:117>
// CNN: tosa.avg_pool2d
// CNN: qnt.fake_quant {{.*}}0.015711525455117226:30> {name = "reshape7"}
// CNN: tosa.reshape
// CNN: qnt.fake_quant {{.*}}0.015711525455117226:30> {name = "qgemm8"}
// QGemm's weight per column (the last dimension of [1, K, N]).
// CNN: qnt.fake_quant %{{.*}} to !quant.uniform<i8:f32:2, {{.*}} : tensor<1x8x10xf32>
// CNN: tosa.matmul
// CNN: qnt.fake_quant {{.*}}0.028254285454750061:146>
//
// QGemm's alpha (0.5) goes into its weight's scales.
// RUN: quant-translate --import-onnx %S/Inputs/ortquant/qgemm.onnx | FileCheck %s --check-prefix=GEMM
// GEMM: qnt.fake_quant %{{.*}} to !quant.uniform<i8:f32:2, {0.0018259221687912941,{{.*}}}> {name = "g2_y#b"} : tensor<1x12x7xf32>
// GEMM: tosa.matmul
// GEMM: qnt.fake_quant %{{.*}} to !quant.uniform<i8:f32, 0.0089518018066883087> {name = "g3_y#b"} : tensor<1x7x5xf32>
//
// channels_last: the pool runs on [N, C, H, W], between transposes (layout
// changes here: the input is already NHWC in IR).
// RUN: quant-translate --import-onnx %S/Inputs/ortquant/qlinear_gap_nhwc.onnx | FileCheck %s --check-prefix=NHWC
// NHWC: qnt.fake_quant %{{.*}} : tensor<1x5x6x5xf32>
// NHWC: tosa.avg_pool2d %{{.*}} {{.*}}kernel = array<i64: 5, 5>{{.*}} -> tensor<1x1x1x6xf32>
// NHWC: return %{{.*}} : tensor<1x1x1x6xf32>
//
// Dynamic: no quantization left, the function says it was dynamic, and the
// Mul by x_scale * w_scale folded into the weights.
// RUN: quant-translate --import-onnx %S/Inputs/ortquant/dynamic_s8.onnx | FileCheck %s --check-prefix=DYN
// DYN: func.func @dynamic_s8({{.*}}attributes {quantc.dynamic_quantization,
// DYN-NOT: qnt.fake_quant
// DYN: tosa.conv2d
// DYN-NEXT: "tosa.const"() {{.*}} : () -> tensor<1x1x1x4xf32>
// DYN-NEXT: tosa.add
// DYN-NEXT: tosa.clamp
// DYN: tosa.matmul
// DYN-NOT: tosa.mul
// DYN: return
//
// Invalid models: one error naming the node, and no output.
// RUN: not quant-translate --import-onnx %S/Inputs/ortquant/invalid_qconv_zero_scale.onnx -o %t.1.mlir 2>&1 | FileCheck %s --check-prefix=ZERO_SCALE
// RUN: not test -e %t.1.mlir
// ZERO_SCALE: node 'qconv' (QLinearConv): the scale 'ws' holds 0.000000e+00, out of range (a finite float32 >= 1.175494e-38)
// RUN: not quant-translate --import-onnx %S/Inputs/ortquant/invalid_qconv_zp_dtype.onnx 2>&1 | FileCheck %s --check-prefix=ZP_DTYPE
// ZP_DTYPE: node 'qconv' (QLinearConv): the zero point 'wz' is uint8 but input 'w' is int8
// RUN: not quant-translate --import-onnx %S/Inputs/ortquant/invalid_qconv_channels.onnx 2>&1 | FileCheck %s --check-prefix=CHANNELS
// CHANNELS: node 'qconv' (QLinearConv): the scale 'ws' has 3 values; input 'w' needs 1 or one per channel (2 along axis 0)
// RUN: not quant-translate --import-onnx %S/Inputs/ortquant/invalid_qconv_missing.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: node 'qconv' (QLinearConv): expected 8 to 9 inputs, got 6
// RUN: not quant-translate --import-onnx %S/Inputs/ortquant/invalid_qconv_x_scale.onnx 2>&1 | FileCheck %s --check-prefix=X_SCALE
// X_SCALE: node 'qconv' (QLinearConv): the scale 'xs2' differs from the scale input 'xq' was quantized with
// RUN: not quant-translate --import-onnx %S/Inputs/ortquant/invalid_qconv_bias.onnx 2>&1 | FileCheck %s --check-prefix=BIAS
// BIAS: node 'qconv' (QLinearConv): the bias 'b' must be int32, not float32
// RUN: not quant-translate --import-onnx %S/Inputs/ortquant/invalid_qconv_float_input.onnx 2>&1 | FileCheck %s --check-prefix=FLOAT_INPUT
// FLOAT_INPUT: node 'qconv' (QLinearConv): input 'x' is float; QLinearConv reads an 8-bit tensor (from QuantizeLinear or a QLinear op)
// RUN: not quant-translate --import-onnx %S/Inputs/ortquant/invalid_unknown_ms_op.onnx 2>&1 | FileCheck %s --check-prefix=MS_OP
// MS_OP: node 'qwhere' (QLinearWhere): unsupported op 'QLinearWhere' of domain 'com.microsoft'
// RUN: not quant-translate --import-onnx %S/Inputs/ortquant/invalid_unknown_domain.onnx 2>&1 | FileCheck %s --check-prefix=DOMAIN
// DOMAIN: node 'relu' (Relu): unsupported op 'Relu' of domain 'org.example'
// RUN: not quant-translate --import-onnx %S/Inputs/ortquant/invalid_dynamic_relu.onnx 2>&1 | FileCheck %s --check-prefix=DYN_RELU
// DYN_RELU: node 'relu' (Relu): input 'ci' is the int32 result of ConvInteger; it must be cast to float and multiplied by its scales (x_scale * w_scale), as ONNX Runtime's quantize_dynamic writes it
// RUN: not quant-translate --import-onnx %S/Inputs/ortquant/invalid_dynamic_scale.onnx 2>&1 | FileCheck %s --check-prefix=DYN_SCALE
// DYN_SCALE: node 'scale' (Mul): the scale 'ws' is not the product of the dynamic scales of the inputs of 'cf'
// RUN: not quant-translate --import-onnx %S/Inputs/ortquant/invalid_dynamic_zp.onnx 2>&1 | FileCheck %s --check-prefix=DYN_ZP
// DYN_ZP: node 'convint' (ConvInteger): the zero point of 'xq' must be the zero point its DynamicQuantizeLinear computes
