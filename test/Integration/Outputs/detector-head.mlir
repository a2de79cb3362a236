// Model outputs come out right: a detector whose score logits span about
// [-2300, +3] and decide by their sign reaches its outputs through Transpose
// + Reshape (Inputs/detector_head.py). By default the two head convolutions
// produce the outputs in float from their int32 accumulators
// (qnt-float-outputs); the object keeps the sign of 99.8 % of the positive
// float scores (those it misses lie within the int8 input's noise of 0). With --int8-outputs the scores pass through one 8-bit tensor (a
// zero point of 255: nothing above 0 survives) and every positive score is
// lost. The int8 object computes the int8 reference's bits.
//
// RUN: rm -rf %t && mkdir -p %t/f %t/q %t/q8
// RUN: %python %S/Inputs/detector_head.py %t
// RUN: quant-compile %t/model.onnx -o %t/f/model.o
// RUN: quant-compile %t/model.onnx --calibration-data %t/calib.npy --save-profile %t/profile.json -o %t/q/model.o --remarks 2>&1 | FileCheck %s --check-prefix=REMARKS
// REMARKS-DAG: loc("score_head"): model output produced in float by this layer
// REMARKS-DAG: loc("box_head"): model output produced in float by this layer
// REMARKS-DAG: loc("score_head"): int8 kernel: generic: exact 32-bit vector path (dequantized float output)
// RUN: quant-compile %t/model.onnx --calibration-data %t/calib.npy --int8-outputs -o %t/q8/model.o --report %t/q8/report
//
// The report says per output how it is produced.
// RUN: quant-compile %t/model.onnx --calibration-data %t/calib.npy -o %t/q/report.o --report %t/q/report
// RUN: %python -c "import json; [print(d, [(o['name'], o['produced']['form'], o['produced']['layer']) for o in json.load(open(f'%t/{d}/report/report.json'))['summary']['outputs']]) for d in ('q', 'q8')]" | FileCheck %s --check-prefix=PRODUCED
// PRODUCED: q [('scores', 'dequantized_accumulator', 'score_head'), ('boxes', 'dequantized_accumulator', 'box_head')]
// PRODUCED: q8 [('scores', 'int8', 'score_head'), ('boxes', 'int8', 'box_head')]
// RUN: for m in f q q8; do cc -I%t/$m -DMODEL=detector -DMODEL_UPPER=DETECTOR %quantc_src_root/examples/common/run_model.c %t/$m/model.o -lm -o %t/$m/run && %t/$m/run %t/test.npy %t/$m/scores.npy %t/$m/boxes.npy; done
// RUN: %python %S/Inputs/check_outputs.py %t | FileCheck %s
// CHECK: float outputs: {{99|100}}.{{[0-9]}} % of the positive scores kept, boxes SQNR {{[0-9.]+}} dB: OK
// CHECK: --int8-outputs: none of the positive scores kept: OK
//
// Step by step with the tools (quantc-quantize runs qnt-float-outputs by
// default), on the int8 reference and JIT-compiled for the portable and the
// avx2 kernels: the object's bits.
// RUN: quant-translate --import-onnx %t/model.onnx --mlir-print-debuginfo -o %t/float.mlir
// RUN: quant-opt %t/float.mlir --pass-pipeline='builtin.module(func.func(qnt-fuse,qnt-insert-observers{activation-kind=percentile}))' --mlir-print-debuginfo -o %t/observed.mlir
// RUN: quant-calibrate %t/observed.mlir --profile %t/profile.json --quiet -o %t/calibrated.mlir
// RUN: quant-opt %t/calibrated.mlir --pass-pipeline='builtin.module(quantc-quantize)' -o %t/int8.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR --input-file %t/int8.mlir
// IR-COUNT-2: qnt.conv2d {{.*}} -> tensor<1x16x16x{{[24]}}xf32>{{$}}
// RUN: quant-run %t/int8.mlir --reference --input %t/test.npy -o %t/reference.npz
// RUN: quant-run %t/int8.mlir --int8-isa=generic --input %t/test.npy -o %t/generic.npz 2>/dev/null
// RUN: quant-run %t/int8.mlir --int8-isa=avx2 --input %t/test.npy -o %t/avx2.npz 2>/dev/null
// RUN: %python -c "import numpy as np; r = np.load('%t/reference.npz'); [np.testing.assert_array_equal(r[n], x) for n in ('scores', 'boxes') for x in (np.load(f'%t/q/{n}.npy'), np.load('%t/generic.npz')[n], np.load('%t/avx2.npz')[n])]; print('BIT-IDENTICAL', r.files)" | FileCheck %s --check-prefix=BITS
// BITS: BIT-IDENTICAL ['scores', 'boxes']
