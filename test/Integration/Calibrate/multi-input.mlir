// A model with two inputs and two outputs: calibration data comes as .npz
// archives keyed by input name (numpy.savez, savez_compressed, positional
// arr_<i>, a directory of them); quant-run reads and writes .npz. Ranges
// are numpy's; the int8 model compiled for the host is bit-identical to the
// int8 reference on both outputs.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_multi_input.py %t
//
// RUN: quant-calibrate %s --activation-observer=min_max --data %t/calib.npz --quiet -o %t/cal.mlir --save-profile %t/cal.json
// RUN: %python %S/Inputs/check_ranges.py %t/cal.json %t/expected.json | FileCheck %s --check-prefix=RANGES
// RANGES-DAG: image: {{.*}} exact
// RANGES-DAG: features: {{.*}} exact
// RANGES-DAG: twice: {{.*}} ok
// RANGES-DAG: twice_features: {{.*}} ok
// RANGES: RANGES MATCH
//
// The compressed, positional and split archives calibrate to the same state.
// RUN: quant-calibrate %s --activation-observer=min_max --data %t/compressed.npz --quiet -o %t/c.mlir
// RUN: quant-calibrate %s --activation-observer=min_max --data %t/positional.npz --quiet -o %t/p.mlir
// RUN: quant-calibrate %s --activation-observer=min_max --data %t/parts --quiet -o %t/d.mlir
// RUN: diff %t/cal.mlir %t/c.mlir
// RUN: diff %t/cal.mlir %t/p.mlir
// RUN: diff %t/cal.mlir %t/d.mlir
//
// One sample without its batch dimension is accepted.
// RUN: quant-calibrate %s --data %t/one.npz --quiet -o %t/one.mlir
//
// quant-run: .npz in, .npz out, keyed by output name.
// RUN: quant-run %s --input %t/calib.npz -o %t/out.npz
// RUN: %python %S/Inputs/check_multi_output.py %t/out.npz %t/calib.npz | FileCheck %s --check-prefix=OUT
// OUT-DAG: twice_out: (64, 4, 4, 2) exact
// OUT-DAG: feat_out: (64, 3) exact
//
// The int8 model: compiled for the host's int8 ISA and on the reference.
// RUN: quant-opt %t/cal.mlir --pass-pipeline='builtin.module(func.func(qnt-fold-observers,qnt-quantize))' -o %t/int8.mlir
// RUN: quant-run %t/int8.mlir --reference --input %t/calib.npz -o %t/ref.npz
// RUN: quant-run %t/int8.mlir --int8-isa=%host_int8_isa --input %t/calib.npz -o %t/jit.npz
// RUN: %python -c "import numpy as np, sys; a, b = np.load('%t/ref.npz'), np.load('%t/jit.npz'); assert a.files == b.files == ['twice_out', 'feat_out'], a.files; [np.testing.assert_array_equal(a[k], b[k]) for k in a.files]; print('bit-identical', a.files)" | FileCheck %s --check-prefix=INT8
// INT8: bit-identical ['twice_out', 'feat_out']
//
// Bad data: a clear error, a non-zero exit, no output.
// RUN: not quant-calibrate %s --data %t/image.npy -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=NPY
// NPY: error: {{.*}}image.npy: the model has 2 inputs ('image', 'features'); give .npz archives with one array per input name (numpy.savez(path, name=array, ...))
// RUN: not quant-calibrate %s --data %t/missing.npz -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: {{.*}}missing.npz: no array for the model input 'features' (the archive's arrays: 'image')
// RUN: not quant-calibrate %s --data %t/extra.npz -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: error: {{.*}}extra.npz: array 'labels' names no model input (the inputs: 'image', 'features'; positional names arr_0, arr_1, ... also work)
// RUN: not quant-calibrate %s --data %t/counts.npz -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=COUNTS
// COUNTS: error: {{.*}}counts.npz: the arrays hold different numbers of samples (64 runs for 'image', 63 for 'features')
// RUN: not quant-calibrate %s --data %t/nan.npz -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: error: {{.*}}nan.npz (input 'features'): sample 5 contains NaN or Inf; model inputs must be finite
// RUN: not quant-calibrate %s --data %t/badcrc.npz -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=CRC
// CRC: error: {{.*}}badcrc.npz: member 'image.npy' fails its CRC-32 check
// RUN: not quant-calibrate %s --data %t/truncated.npz -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: error: {{.*}}truncated.npz: not a .npz archive (no zip end of central directory record)
// RUN: not quant-calibrate %s --data %t/pickled.npz -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=PICKLE
// PICKLE: error: {{.*}}pickled.npz:image.npy: dtype is '|O', expected float32 ('<f4')
// RUN: not quant-run %s --input %t/calib.npz -o %t/bad.npy 2>&1 | FileCheck %s --check-prefix=RUNNPY
// RUNNPY: quant-run: error: the model has 2 outputs: write them to a .npz archive (-o outputs.npz)
// RUN: not ls %t/bad.mlir %t/bad.npy

func.func @two(%img: tensor<1x4x4x2xf32> loc("image"),
               %feat: tensor<1x3xf32> loc("features"))
    -> (tensor<1x4x4x2xf32>, tensor<1x3xf32>)
    attributes {quantc.input_names = ["image", "features"], quantc.output_names = ["twice_out", "feat_out"]} {
  %r = tosa.add %img, %img : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> loc("twice")
  %f = tosa.add %feat, %feat : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32> loc("twice_features")
  return %r, %f : tensor<1x4x4x2xf32>, tensor<1x3xf32>
}
