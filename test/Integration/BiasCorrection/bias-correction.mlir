// Bias correction (quant-compile --bias-correction) against NumPy, on a
// model built to show the output shift of weight quantization
// (Inputs/make_model.py: per-tensor weights with an outlier, 3 to 9 input
// values per output, inputs with mean 2; a conv with stride and padding, a
// depthwise conv with dilation, a conv without bias, a linear layer).
//
// REQUIRES: avx2
// RUN: rm -rf %t && mkdir -p %t/oneshot %t/corrected
// RUN: %python %S/Inputs/make_model.py %t > %t/model.mlir
// RUN: quant-opt %t/model.mlir --qnt-fuse --qnt-insert-observers=weight-kind=min_max -o %t/observed.mlir
// RUN: quant-calibrate %t/observed.mlir --data %t/data.npy --input-means --save-profile %t/profile.json --quiet -o %t/calibrated.mlir
//
// The statistics: each layer's qnt.input_mean is the mean of what each
// filter tap reads, from NumPy's float64 activations.
// RUN: %python %S/Inputs/check.py means %t/calibrated.mlir %t | FileCheck %s --check-prefix=MEANS
// MEANS: MEANS CHECKED
//
// The correction: every int32 bias (one created for the conv without) is
// the float bias minus E[conv(x, dq(q(W)) - W)], computed by NumPy as a
// convolution of the float64 activations with the weight error of the int8
// weights; without correction they miss it.
// RUN: quant-opt %t/calibrated.mlir --pass-pipeline='builtin.module(quantc-quantize{correct-bias=true})' -o %t/corrected.mlir
// RUN: quant-opt %t/calibrated.mlir --pass-pipeline='builtin.module(quantc-quantize)' -o %t/plain.mlir
// RUN: %python %S/Inputs/check.py bias %t/corrected.mlir %t | FileCheck %s --check-prefix=BIAS
// RUN: %python %S/Inputs/check.py bias %t/plain.mlir %t --uncorrected | FileCheck %s --check-prefix=PLAIN
// BIAS: BIASES CHECKED
// PLAIN: UNCORRECTED BIASES MISS
//
// The effect: the int8 outputs' mean error against float shrinks (to 0.065x
// here; the check asks for 0.25x) and their MSE does not grow.
// RUN: quant-run %t/plain.mlir --reference --input %t/data.npy -o %t/plain.npy
// RUN: quant-run %t/corrected.mlir --reference --input %t/data.npy -o %t/corrected.npy
// RUN: %python %S/Inputs/check.py error %t/reference.npy %t/plain.npy %t/corrected.npy | FileCheck %s --check-prefix=ERROR
// ERROR: MEAN ERROR SHRINKS
//
// The bias is just another constant: the compiled object is bit-identical
// to the int8 reference, and the one-command path (the statistics inside
// quant-compile, with the observers the steps above inserted) builds the
// same model.
// RUN: quant-compile %t/corrected.mlir --name bc -o %t/corrected/model.o
// RUN: cc -I%t/corrected -DMODEL=bc -DMODEL_UPPER=BC %quantc_src_root/examples/common/run_model.c %t/corrected/model.o -lm -o %t/corrected/run
// RUN: %t/corrected/run %t/data.npy %t/corrected/out.npy
// RUN: %python %S/../Compile/Inputs/compare.py %t/corrected.npy %t/corrected/out.npy | FileCheck %s --check-prefix=IDENTICAL
// RUN: quant-compile %t/model.mlir --name bc --calibration-data %t/data.npy --activation-observer=histogram --weight-observer=min_max --bias-correction -o %t/oneshot/model.o
// RUN: cc -I%t/oneshot -DMODEL=bc -DMODEL_UPPER=BC %quantc_src_root/examples/common/run_model.c %t/oneshot/model.o -lm -o %t/oneshot/run
// RUN: %t/oneshot/run %t/data.npy %t/oneshot/out.npy
// RUN: %python %S/../Compile/Inputs/compare.py %t/corrected.npy %t/oneshot/out.npy | FileCheck %s --check-prefix=IDENTICAL
// IDENTICAL: BIT-IDENTICAL
//
// A profile without calibration data leaves nothing to measure.
// RUN: not quant-compile %t/model.mlir --profile %t/profile.json --activation-observer=histogram --weight-observer=min_max --bias-correction -o %t/x.o 2>&1 | FileCheck %s --check-prefix=NODATA
// RUN: not quant-calibrate %t/observed.mlir --profile %t/profile.json --input-means -o %t/x.mlir 2>&1 | FileCheck %s --check-prefix=NODATA-CAL
// NODATA: error: bias correction needs calibration data (the layers' input means), not only a profile
// NODATA-CAL: error: --input-means needs --data (the float model runs on it)
