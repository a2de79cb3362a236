// A model with two inputs and two outputs (ONNX: a conv tower and a linear
// tower, concatenated into scores, added into an embedding), float and int8,
// through the C driver's loop over the tensors (<name>_runv). Calibration
// data is one .npz archive keyed by input name. The int8 object computes the
// int8 reference's bits on both outputs.
//
// RUN: rm -rf %t && mkdir -p %t/f %t/q
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/two_tower.onnx -o %t/f/model.o
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/f/model.h
// HEADER: input0 ("image"): float32[1, 3, 12, 12], NCHW, 432 floats
// HEADER: input1 ("features"): float32[1, 6], row-major, 6 floats
// HEADER: output0 ("scores"): float32[1, 10], row-major, 10 floats
// HEADER: output1 ("embedding"): float32[1, 8], row-major, 8 floats
// HEADER: #define TORCH_JIT_INPUT_SIZES {432, 6}
// HEADER-NEXT: #define TORCH_JIT_INPUT_RANKS {4, 2}
// HEADER-NEXT: #define TORCH_JIT_INPUT_SHAPES {1, 3, 12, 12, 1, 6}
// HEADER-NEXT: #define TORCH_JIT_OUTPUT_SIZES {10, 8}
// HEADER-NEXT: #define TORCH_JIT_OUTPUT_RANKS {2, 2}
// HEADER-NEXT: #define TORCH_JIT_OUTPUT_SHAPES {1, 10, 1, 8}
// HEADER: int torch_jit_run(const float *input0, const float *input1, float *output0, float *output1);
// HEADER-NEXT: int torch_jit_runv(const float *const inputs[], float *const outputs[]);
// RUN: cc -I%t/f -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/f/model.o -lm -o %t/f/run
// RUN: %t/f/run %quantc_src_root/test/Import/Inputs/two_tower.image.npy %quantc_src_root/test/Import/Inputs/two_tower.features.npy %t/f/scores.npy %t/f/embedding.npy | FileCheck %s --check-prefix=RAN
// RAN: ran 32 samples
// Float against PyTorch: within 1e-5 of each output's magnitude.
// RUN: %python -c "import numpy as np; d = '%quantc_src_root/test/Import/Inputs/two_tower'; e = [float(np.abs(np.load(f'%t/f/{n}.npy') - np.load(f'{d}.{n}.npy')).max() / np.abs(np.load(f'{d}.{n}.npy')).max()) for n in ('scores', 'embedding')]; print('FLOAT', 'OK' if max(e) < 1e-5 else e)" | FileCheck %s --check-prefix=FLOAT
// FLOAT: FLOAT OK
//
// int8, 8-bit activations (so that the tools below fold the same way) and
// min/max ranges: 32 samples are too few for the histogram observer's range
// search (20 dB on the scores).
// RUN: quant-compile %quantc_src_root/test/Import/Inputs/two_tower.onnx --calibration-data %quantc_src_root/test/Import/Inputs/two_tower.calib.npz --reduce-range=off --activation-observer=min_max --save-profile %t/q/profile.json -o %t/q/model.o
// RUN: cc -I%t/q -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/q/model.o -lm -o %t/q/run
// RUN: %t/q/run %quantc_src_root/test/Import/Inputs/two_tower.image.npy %quantc_src_root/test/Import/Inputs/two_tower.features.npy %t/q/scores.npy %t/q/embedding.npy
// RUN: %python %quantc_src_root/scripts/sqnr.py %quantc_src_root/test/Import/Inputs/two_tower.scores.npy %t/q/scores.npy 25 | FileCheck %s --check-prefix=ACC
// RUN: %python %quantc_src_root/scripts/sqnr.py %quantc_src_root/test/Import/Inputs/two_tower.embedding.npy %t/q/embedding.npy 25 | FileCheck %s --check-prefix=ACC
// ACC: ACCURATE
//
// The same quantization step by step with the tools (the compile's profile
// loads into them: --mlir-print-debuginfo keeps the ONNX names, which name
// the observers), run on the int8 reference: the same bits.
// RUN: quant-translate --import-onnx %quantc_src_root/test/Import/Inputs/two_tower.onnx --mlir-print-debuginfo -o %t/float.mlir
// RUN: quant-opt %t/float.mlir --pass-pipeline='builtin.module(func.func(qnt-fuse,qnt-insert-observers{activation-kind=min_max}))' --mlir-print-debuginfo -o %t/observed.mlir
// RUN: quant-calibrate %t/observed.mlir --profile %t/q/profile.json --quiet -o %t/calibrated.mlir
// RUN: quant-opt %t/calibrated.mlir --pass-pipeline='builtin.module(func.func(qnt-fold-observers,qnt-float-outputs,qnt-quantize))' -o %t/int8.mlir
// RUN: quant-run %t/int8.mlir --reference --input %quantc_src_root/test/Import/Inputs/two_tower.calib.npz -o %t/reference.npz
// RUN: %python -c "import numpy as np; r = np.load('%t/reference.npz'); [np.testing.assert_array_equal(r[n], np.load(f'%t/q/{n}.npy')) for n in ('scores', 'embedding')]; print('BIT-IDENTICAL', r.files)" | FileCheck %s --check-prefix=BITS
// BITS: BIT-IDENTICAL ['scores', 'embedding']
//
// The per-layer report runs on the two inputs too.
// RUN: quant-calibrate %t/observed.mlir --data %quantc_src_root/test/Import/Inputs/two_tower.calib.npz --quiet -o %t/r.mlir --report %t/report
// RUN: %python -c "import json; r = json.load(open('%t/report/report.json')); print('REPORT', r['samples'], len(r['layers']) > 4)" | FileCheck %s --check-prefix=REPORT
// REPORT: REPORT 32 True
//
// Bad data: a .npy for a two-input model, inputs of different lengths.
// RUN: not quant-compile %quantc_src_root/test/Import/Inputs/two_tower.onnx --calibration-data %quantc_src_root/test/Import/Inputs/two_tower.image.npy -o %t/bad.o 2>&1 | FileCheck %s --check-prefix=NPY
// NPY: quant-compile: error: {{.*}}two_tower.image.npy: the model has 2 inputs ('image', 'features'); give .npz archives with one array per input name
// RUN: not ls %t/bad.o %t/bad.h
// RUN: %python -c "import numpy as np; np.save('%t/short.npy', np.zeros((31, 6), np.float32))"
// RUN: not %t/q/run %quantc_src_root/test/Import/Inputs/two_tower.image.npy %t/short.npy %t/a.npy %t/b.npy 2>&1 | FileCheck %s --check-prefix=COUNTS
// COUNTS: driver: the inputs hold different numbers of samples
// RUN: not %t/q/run %quantc_src_root/test/Import/Inputs/two_tower.image.npy %t/a.npy 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: usage: run <2 input .npy> <2 output .npy> [repeats [threads]]
