// A pre-quantized (QDQ) ONNX model in ONNX Runtime's format
// (scripts/gen_qdq_test_model.py: conv-relu, residual add-relu, depthwise,
// max pool, global average pool, Gemm; uint8 activations, int8 per-channel
// weights, int32 biases), compiled without calibration data.
//
// REQUIRES: avx2
// RUN: rm -rf %t && mkdir -p %t/f %t/q
// RUN: quant-translate --import-onnx %S/Inputs/qdq_resnet.onnx -o %t/qdq.mlir
//
// In float (--keep-qdq-float, qnt-lower-float): the quantization
// simulated as the int8 reference quantizes. Against the outputs under
// ONNX semantics (numpy, x / scale, torch's float convolutions): the output
// lies on the grid of its scale (0.0365929976); differences in
// summation order and x * (1 / scale) vs x / scale move a rounding at most
// rarely, by one step of some layer's scale.
// RUN: quant-compile %S/Inputs/qdq_resnet.onnx --keep-qdq-float -o %t/f/model.o
// RUN: cc -I%t/f -DMODEL=qdq_resnet -DMODEL_UPPER=QDQ_RESNET %quantc_src_root/examples/common/run_model.c %t/f/model.o -lm -o %t/f/run
// RUN: %t/f/run %S/Inputs/qdq_resnet.input.npy %t/f/out.npy
// RUN: %python %S/Inputs/compare_lsb.py %S/Inputs/qdq_resnet.output.npy %t/f/out.npy 0.0365929976 1 | FileCheck %s --check-prefix=LSB
// LSB: WITHIN 1 LSB
// quant-run (JIT) runs the imported model with the same lowering.
// RUN: quant-run %t/qdq.mlir --input %S/Inputs/qdq_resnet.input.npy -o %t/f/run.npy
// RUN: %python %S/Inputs/compare.py %t/f/out.npy %t/f/run.npy | FileCheck %s --check-prefix=EXACT
// EXACT: BIT-IDENTICAL
//
// int8: the Q/DQ parameters become the quantized ops' types.
// RUN: quant-opt %t/qdq.mlir --qnt-fuse --qnt-quantize -o %t/int8.mlir
// RUN: FileCheck %s --check-prefix=INT8 --input-file %t/int8.mlir
// INT8: quant.qcast {{.*}} to tensor<1x8x8x3x!quant.uniform<u8:f32, 0.033001821488142014:144>>
// INT8: qnt.conv2d {{.*}}activation = #qnt<activation relu>{{.*}} -> tensor<1x8x8x8x!quant.uniform<u8:f32, 0.026023417711257935>>
// INT8: qnt.conv2d {{.*}} -> tensor<1x8x8x8x!quant.uniform<u8:f32, 0.055253483355045319:144>>
// INT8: qnt.add {{.*}}activation = #qnt<activation relu>{{.*}} -> tensor<1x8x8x8x!quant.uniform<u8:f32, 0.029987499117851257>>
// INT8: qnt.conv2d {{.*}}activation = #qnt<activation relu>{{.*}}groups = 8
// INT8: qnt.max_pool2d
// INT8: qnt.avg_pool2d
// INT8: qnt.linear {{.*}} -> tensor<1x1x10x!quant.uniform<u8:f32, 0.036592997610569:82>>
// INT8: tosa.reshape
// INT8: quant.dcast
// INT8-NOT: qnt.fake_quant
// RUN: quant-compile %S/Inputs/qdq_resnet.onnx -o %t/q/model.o
// RUN: cc -I%t/q -DMODEL=qdq_resnet -DMODEL_UPPER=QDQ_RESNET %quantc_src_root/examples/common/run_model.c %t/q/model.o -lm -o %t/q/run
// RUN: %t/q/run %S/Inputs/qdq_resnet.input.npy %t/q/out.npy
// Bit-identical to the int8 reference on the quantized IR.
// RUN: quant-run %t/int8.mlir --reference --input %S/Inputs/qdq_resnet.input.npy -o %t/q/ref.npy
// RUN: %python %S/Inputs/compare.py %t/q/ref.npy %t/q/out.npy | FileCheck %s --check-prefix=EXACT
// Within 1 LSB of the output scale of the float simulation.
// RUN: %python %S/Inputs/compare_lsb.py %t/f/out.npy %t/q/out.npy 0.0365929976 1 | FileCheck %s --check-prefix=LSB
//
// An excluded layer stays float between dcast and qcast (its weight
// dequantized back to a float constant): it computes what the float
// simulation computes, so the outputs stay within 1 LSB of it.
// RUN: mkdir -p %t/x
// RUN: quant-translate --import-onnx %S/Inputs/qdq_resnet.onnx --mlir-print-debuginfo -o %t/x/qdq.mlir
// RUN: quant-opt %t/x/qdq.mlir --qnt-fuse --qnt-quantize=exclude=conv2 | FileCheck %s --check-prefix=EXCLUDE
// EXCLUDE: %[[X:.*]] = quant.dcast %{{.*}} : tensor<1x8x8x8x!quant.uniform<u8:f32, 0.026023417711257935>> to tensor<1x8x8x8xf32>
// EXCLUDE: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<8x3x3x8xf32>
// EXCLUDE: %[[Y:.*]] = qnt.conv2d %[[X]], %[[W]] bias({{.*}}) -> tensor<1x8x8x8xf32>
// EXCLUDE: quant.qcast %[[Y]] {{.*}} to tensor<1x8x8x8x!quant.uniform<u8:f32, 0.055253483355045319:144>>
// RUN: quant-compile %S/Inputs/qdq_resnet.onnx --exclude conv2 -o %t/x/model.o
// RUN: cc -I%t/x -DMODEL=qdq_resnet -DMODEL_UPPER=QDQ_RESNET %quantc_src_root/examples/common/run_model.c %t/x/model.o -lm -o %t/x/run
// RUN: %t/x/run %S/Inputs/qdq_resnet.input.npy %t/x/out.npy
// RUN: %python %S/Inputs/compare_lsb.py %t/f/out.npy %t/x/out.npy 0.0365929976 1 | FileCheck %s --check-prefix=LSB
//
// test/Import/Inputs/qdq.onnx: weights as float initializers with
// QuantizeLinear + DequantizeLinear, an int8 output with zero point -3
// (scale 0.1). Float simulation against ONNX semantics, int8 against the
// reference and the float simulation.
// RUN: mkdir -p %t/sf %t/sq
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/qdq.onnx --keep-qdq-float -o %t/sf/model.o
// RUN: cc -I%t/sf -DMODEL=qdq -DMODEL_UPPER=QDQ %quantc_src_root/examples/common/run_model.c %t/sf/model.o -lm -o %t/sf/run
// RUN: %t/sf/run %S/Inputs/qdq.input.npy %t/sf/out.npy
// RUN: %python %S/Inputs/compare_lsb.py %S/Inputs/qdq.output.npy %t/sf/out.npy 0.1 1 | FileCheck %s --check-prefix=LSB
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/qdq.onnx -o %t/sq/model.o
// RUN: cc -I%t/sq -DMODEL=qdq -DMODEL_UPPER=QDQ %quantc_src_root/examples/common/run_model.c %t/sq/model.o -lm -o %t/sq/run
// RUN: %t/sq/run %S/Inputs/qdq.input.npy %t/sq/out.npy
// RUN: quant-translate --import-onnx %quantc_src_root/test/Import/Inputs/qdq.onnx | quant-opt --qnt-fuse --qnt-quantize -o %t/sq/int8.mlir
// RUN: quant-run %t/sq/int8.mlir --reference --input %S/Inputs/qdq.input.npy -o %t/sq/ref.npy
// RUN: %python %S/Inputs/compare.py %t/sq/ref.npy %t/sq/out.npy | FileCheck %s --check-prefix=EXACT
// RUN: %python %S/Inputs/compare_lsb.py %t/sf/out.npy %t/sq/out.npy 0.1 1 | FileCheck %s --check-prefix=LSB
//
// PyTorch 1.13's own QDQ export (prepare_fx / convert_fx, onednn, then
// torch.onnx.export: Q -> Cast -> DQ, one DQ per use, conv -> Q/DQ -> relu
// -> Q/DQ): every layer becomes int8 (the relu between Q/DQ pairs is the
// conv's fused relu plus a requantization). Against PyTorch's own int8
// outputs (output scale 0.00402841205): within 1 LSB (measured: 1 of 320
// values; PyTorch requantizes the relu output in float as dequantize ->
// relu -> quantize, the int8 model with one float32 multiplier).
// RUN: mkdir -p %t/fx
// RUN: quant-translate --import-onnx %S/Inputs/qdq_fx.onnx | quant-opt --qnt-fuse --qnt-quantize -o %t/fx/int8.mlir
// RUN: FileCheck %s --check-prefix=FX --input-file %t/fx/int8.mlir
// FX: quant.qcast
// FX: qnt.conv2d {{.*}}activation = #qnt<activation relu>
// FX: qnt.requantize
// FX: qnt.conv2d
// FX: qnt.add {{.*}}activation = #qnt<activation relu>
// FX: qnt.avg_pool2d
// FX: qnt.linear
// FX-NOT: tosa.clamp
// RUN: quant-compile %S/Inputs/qdq_fx.onnx -o %t/fx/model.o
// RUN: cc -I%t/fx -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/fx/model.o -lm -o %t/fx/run
// RUN: %t/fx/run %S/Inputs/qdq_fx.input.npy %t/fx/out.npy
// RUN: quant-run %t/fx/int8.mlir --reference --input %S/Inputs/qdq_fx.input.npy -o %t/fx/ref.npy
// RUN: %python %S/Inputs/compare.py %t/fx/ref.npy %t/fx/out.npy | FileCheck %s --check-prefix=EXACT
// RUN: %python %S/Inputs/compare_lsb.py %S/Inputs/qdq_fx.output.npy %t/fx/out.npy 0.00402841205 1 | FileCheck %s --check-prefix=LSB
//
// Calibration does not apply to a model that carries its parameters.
// RUN: not quant-compile %S/Inputs/qdq_resnet.onnx --calibration-data %S/Inputs/qdq_resnet.input.npy -o %t/bad.o 2>&1 | FileCheck %s --check-prefix=CALIB
// CALIB: quant-compile: error: {{.*}}qdq_resnet.onnx already carries quantization parameters (QuantizeLinear / DequantizeLinear or qnt.fake_quant); --calibration-data and --profile do not apply to it
//
// An arrangement without an int8 form (per-channel activation
// quantization) is an error naming the op; --keep-qdq-float compiles it.
// RUN: not quant-compile %S/Inputs/qdq_per_axis_activation.mlir -o %t/pa.o 2>&1 | FileCheck %s --check-prefix=PERAXIS
// PERAXIS: qdq_per_axis_activation.mlir:3:8: error: 'quant.qcast': the int8 lowering needs per-tensor !quant.uniform types with 8-bit storage and f32 expressed type
// PERAXIS: quant-compile: error: cannot compile
// RUN: quant-compile %S/Inputs/qdq_per_axis_activation.mlir --keep-qdq-float -o %t/pa.o
