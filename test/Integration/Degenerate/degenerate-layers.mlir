// Degenerate layers of trained models compile in int8 (docs/accuracy.md,
// "Degenerate layers"), on a model built to have them
// (Inputs/make_layers.py): dead channels (weights about 1e-20 after
// batch-norm folding, or exactly 0) with biases, a constant channel, a
// whole tensor of zeros (a zero-range activation) and the layer reading it,
// a linear layer with a dead output.
//
// REQUIRES: avx2
// RUN: rm -rf %t && mkdir -p %t/step %t/oneshot %t/pt
// RUN: %python %S/Inputs/make_layers.py %t > %t/model.mlir
//
// One command, default observers (per-channel weights): each channel whose
// int32 accumulator cannot hold its bias at input_scale * weight_scale gets
// a raised weight scale, with a warning naming the layer and channel.
// RUN: quant-compile %t/model.mlir --name deg --calibration-data %t/data.npy -o %t/oneshot/model.o 2> %t/oneshot/log.txt
// RUN: FileCheck %s --check-prefix=RAISED --input-file %t/oneshot/log.txt
// RAISED-DAG: warning: {{.*}}layer 'relu0' (qnt.conv2d): the int32 accumulator cannot hold the bias: weight scale raised (weights requantized) for output channel 7 (bias 2.540000e+00 at input_scale * weight_scale = {{.*}}): 1.192093e-07 -> {{.*}}
// RAISED-DAG: warning: {{.*}}layer 'add' (qnt.conv2d): {{.*}} for output channel 3 (bias 4.000000e+00 {{.*}}): 1.192093e-07 -> {{.*}}
// RAISED-DAG: warning: {{.*}}layer 'conv3' (qnt.conv2d): {{.*}} for output channel 1 (bias -3.000000e+00 {{.*}}
// RAISED-DAG: warning: {{.*}}layer 'fc4' (tosa.matmul): {{.*}} for output channel 5 (bias 1.200000e+01 {{.*}}): 1.192093e-07 -> {{.*}}
// Each raise is the smallest that fits: the bias then takes (almost) all of
// int32.
// RUN: %python %S/Inputs/check.py scales %t/oneshot/log.txt | FileCheck %s --check-prefix=SCALES4
// SCALES4: SCALES CHECKED: 4
//
// Against NumPy's float64 model: the constant output (column 5, 12 + 1e-20
// terms) is exact, the SQNR is 36.1 dB (limit 30).
// RUN: cc -I%t/oneshot -DMODEL=deg -DMODEL_UPPER=DEG %quantc_src_root/examples/common/run_model.c %t/oneshot/model.o -lm -o %t/oneshot/run
// RUN: %t/oneshot/run %t/data.npy %t/oneshot/out.npy
// RUN: %python %S/Inputs/check.py sqnr %t/reference.npy %t/oneshot/out.npy 30 5=12 | FileCheck %s --check-prefix=FLOAT
// FLOAT: SQNR OK
// FLOAT: COLUMN 5 EXACT
//
// Step by step: the int8 reference computes from the same raised scales and
// requantized weights, and the object is bit-identical to it.
// RUN: quant-opt %t/model.mlir --qnt-fuse --qnt-insert-observers=activation-kind=percentile -o %t/step/observed.mlir
// RUN: quant-calibrate %t/step/observed.mlir --data %t/data.npy --quiet -o %t/step/calibrated.mlir
// RUN: quant-opt %t/step/calibrated.mlir --pass-pipeline='builtin.module(quantc-quantize)' -o %t/step/int8.mlir 2>/dev/null
// RUN: quant-run %t/step/int8.mlir --reference --input %t/data.npy -o %t/step/reference.npy
// RUN: quant-compile %t/step/int8.mlir --name deg -o %t/step/model.o
// RUN: cc -I%t/step -DMODEL=deg -DMODEL_UPPER=DEG %quantc_src_root/examples/common/run_model.c %t/step/model.o -lm -o %t/step/run
// RUN: %t/step/run %t/data.npy %t/step/out.npy
// RUN: %python %S/../Compile/Inputs/compare.py %t/step/reference.npy %t/step/out.npy | FileCheck %s --check-prefix=IDENTICAL
// RUN: %python %S/../Compile/Inputs/compare.py %t/step/reference.npy %t/oneshot/out.npy | FileCheck %s --check-prefix=IDENTICAL
// IDENTICAL: BIT-IDENTICAL
//
// Per-tensor weights (min_max): only conv3 (reading the zero tensor, input
// scale 2^-23) needs more; its whole tensor's scale rises. Bit-identical to
// the reference too.
// RUN: quant-compile %t/model.mlir --name deg --calibration-data %t/data.npy --weight-observer=min_max -o %t/pt/model.o 2> %t/pt/log.txt
// RUN: FileCheck %s --check-prefix=PER-TENSOR --input-file %t/pt/log.txt
// PER-TENSOR: warning: {{.*}}layer 'conv3' (qnt.conv2d): the int32 accumulator cannot hold the bias: per-tensor weight scale raised (weights requantized) for output channel 1 (bias -3.000000e+00 {{.*}}
// PER-TENSOR-NOT: warning
// RUN: %python %S/Inputs/check.py scales %t/pt/log.txt | FileCheck %s --check-prefix=SCALES1
// SCALES1: SCALES CHECKED: 1
// RUN: quant-opt %t/model.mlir --qnt-fuse --qnt-insert-observers="weight-kind=min_max activation-kind=percentile" -o %t/pt/observed.mlir
// RUN: quant-calibrate %t/pt/observed.mlir --data %t/data.npy --quiet -o %t/pt/calibrated.mlir
// RUN: quant-opt %t/pt/calibrated.mlir --pass-pipeline='builtin.module(quantc-quantize)' -o %t/pt/int8.mlir 2>/dev/null
// RUN: quant-run %t/pt/int8.mlir --reference --input %t/data.npy -o %t/pt/reference.npy
// RUN: cc -I%t/pt -DMODEL=deg -DMODEL_UPPER=DEG %quantc_src_root/examples/common/run_model.c %t/pt/model.o -lm -o %t/pt/run
// RUN: %t/pt/run %t/data.npy %t/pt/out.npy
// RUN: %python %S/../Compile/Inputs/compare.py %t/pt/reference.npy %t/pt/out.npy | FileCheck %s --check-prefix=IDENTICAL
// RUN: %python %S/Inputs/check.py sqnr %t/reference.npy %t/pt/out.npy 30 5=12 | FileCheck %s --check-prefix=FLOAT
//
// The zero-range activation (conv2's zeros, observed as [0, 0]) through
// every activation observer: scale 2^-23 (the observers' eps, never 0),
// finite multipliers, the same constant output; and with bias correction
// and cross-layer equalization. SQNR 36 to 55 dB, except entropy's 20.9 dB:
// its KL threshold clips relu0 at 0.3, below the constant channel 7 (2.54),
// which is an eighth of relu0's values (limit 20 here).
// RUN: for o in "--activation-observer=min_max" "--activation-observer=percentile" \
// RUN:          "--activation-observer=entropy" "--activation-observer=mse" \
// RUN:          "--activation-observer=auto" "--bias-correction" "--equalize"; do \
// RUN:   rm -rf %t/o && mkdir %t/o && \
// RUN:   quant-compile %t/model.mlir --name deg --calibration-data %t/data.npy $o -o %t/o/model.o 2>/dev/null && \
// RUN:   cc -I%t/o -DMODEL=deg -DMODEL_UPPER=DEG %quantc_src_root/examples/common/run_model.c %t/o/model.o -lm -o %t/o/run && \
// RUN:   %t/o/run %t/data.npy %t/o/out.npy > /dev/null && \
// RUN:   %python %S/Inputs/check.py sqnr %t/reference.npy %t/o/out.npy 20 5=12 > %t/o/check.txt && \
// RUN:   echo "$o:" $(cat %t/o/check.txt) || exit 1; \
// RUN: done | FileCheck %s --check-prefix=OBSERVERS
// OBSERVERS-COUNT-7: {{.*}}: SQNR {{.*}} SQNR OK COLUMN 5 EXACT
