// A conv + BatchNorm + ReLU6 whose output feeds a nearest Resize, a Concat,
// or a Resize then a conv, and ReLU6 after an add and a linear layer
// (scripts/gen_relu6_models.py). PyTorch exports F.relu6 as Relu then
// Clip(0, 6); qnt-fuse folds both into the layer's relu6 (they used to leave
// the Clip after a layer with no output parameters: "no quantization
// parameters for its output"). Each model compiles to int8 with no op left
// in float; the float import matches PyTorch within 1e-4 of the magnitude,
// the int8 reference and the generated kernels give the same bits, and the
// object's output is within 25 dB SQNR of PyTorch's float output.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for m in resize_concat concat resize_conv; do \
// RUN:   mkdir -p %t/$m && \
// RUN:   quant-compile %S/Inputs/relu6/$m.onnx --calibration-data %S/Inputs/relu6/$m.calib.npy -o %t/$m/model.o -v 2>&1 | grep "computed in float" && \
// RUN:   quant-translate --import-onnx %S/Inputs/relu6/$m.onnx -o %t/$m/float.mlir && \
// RUN:   quant-run %t/$m/float.mlir --input %S/Inputs/relu6/$m.input.npy -o %t/$m/float.npy && \
// RUN:   %python %quantc_src_root/test/Import/Inputs/compare.py %t/$m/float.npy %S/Inputs/relu6/$m.output.npy && \
// RUN:   quant-opt %t/$m/float.mlir --qnt-fuse --qnt-insert-observers=activation-kind=percentile -o %t/$m/observed.mlir && \
// RUN:   quant-calibrate %t/$m/observed.mlir --data %S/Inputs/relu6/$m.calib.npy --quiet -o %t/$m/calibrated.mlir && \
// RUN:   quant-opt %t/$m/calibrated.mlir --qnt-fold-observers --qnt-float-outputs --qnt-quantize -o %t/$m/int8.mlir && \
// RUN:   quant-run %t/$m/int8.mlir --reference --input %S/Inputs/relu6/$m.input.npy -o %t/$m/ref.npy && \
// RUN:   quant-run %t/$m/int8.mlir --int8-isa=generic --input %S/Inputs/relu6/$m.input.npy -o %t/$m/generic.npy 2>/dev/null && \
// RUN:   cmp %t/$m/ref.npy %t/$m/generic.npy && \
// RUN:   cc -I%t/$m -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/$m/model.o -lm -o %t/$m/run && \
// RUN:   %t/$m/run %S/Inputs/relu6/$m.input.npy %t/$m/out.npy && \
// RUN:   cmp %t/$m/ref.npy %t/$m/out.npy && \
// RUN:   %python %quantc_src_root/scripts/sqnr.py %S/Inputs/relu6/$m.output.npy %t/$m/out.npy 25 || exit 1; \
// RUN: done | FileCheck %s
// CHECK: 0 op(s) computed in float
// CHECK: MATCH
// CHECK: ACCURATE
// CHECK: 0 op(s) computed in float
// CHECK: MATCH
// CHECK: ACCURATE
// CHECK: 0 op(s) computed in float
// CHECK: MATCH
// CHECK: ACCURATE
