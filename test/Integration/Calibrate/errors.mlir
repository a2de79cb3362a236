// Bad calibration input gets a clear message, a non-zero exit and no output.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_data.py %t
//
// RUN: not quant-calibrate %s --data %t/nan.npy -o %t/out.mlir --save-profile %t/out.json 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: quant-calibrate: error: {{.*}}nan.npy: sample 2 contains NaN or Inf; model inputs must be finite
// RUN: not ls %t/out.mlir %t/out.json
//
// RUN: not quant-calibrate %s --data %t/f64.npy -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: quant-calibrate: error: {{.*}}f64.npy: dtype is '<f8', expected float32 ('<f4'); convert with array.astype(numpy.float32)
//
// RUN: not quant-calibrate %s --data %t/shape.npy -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: quant-calibrate: error: {{.*}}shape.npy: shape 4x2x8x2 does not match the model input 1x4x4x2 (expected N samples stacked along the first dimension)
//
// RUN: not quant-calibrate %s --data %t/empty.npy -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: quant-calibrate: error: {{.*}}empty.npy: no samples (empty array)
//
// RUN: not quant-calibrate %s --data %t/truncated.npy -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: quant-calibrate: error: {{.*}}truncated.npy: truncated data: expected 12288 bytes, found 6080
//
// RUN: not quant-calibrate %s --data %t/overflow.npy -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: quant-calibrate: error: {{.*}}overflow.npy: shape '(4294967296, 4294967296, 4)' has more elements than memory can hold
//
// RUN: not quant-calibrate %s --data %t/data.npy --max-samples -5 -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: quant-calibrate: error: the maximum number of samples must be >= 0 (0: all)
//
// Calibration leaves no perf jitdump directory behind (JITDUMPDIR is where
// LLVM's perf listener would write one per compiled model).
// RUN: env JITDUMPDIR=%t/dump quant-calibrate %s --data %t/data.npy --quiet -o %t/ok.mlir
// RUN: not ls %t/dump/.debug
//
// RUN: not quant-calibrate %s --data %t/missing.npy -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: quant-calibrate: error: cannot read '{{.*}}missing.npy': No such file or directory
//
// RUN: not quant-calibrate %s --data %S/Inputs/make_data.py -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=NOTNPY
// NOTNPY: quant-calibrate: error: {{.*}}make_data.py: not a .npy file (bad magic)
//
// RUN: not quant-calibrate %s -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=NODATA
// NODATA: quant-calibrate: error: nothing to calibrate with: give --data and/or --profile
//
// A profile is refused by a model it was not made for (here: other observers).
// RUN: quant-calibrate %s --data %t/part1.npy --quiet -o %t/hist.mlir --save-profile %t/hist.json
// RUN: not quant-calibrate %s --activation-observer=min_max --profile %t/hist.json -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: quant-calibrate: error: the profile was made for a different model
// RUN: not quant-calibrate %s --profile %S/Inputs/make_data.py -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=BADJSON
// BADJSON: quant-calibrate: error: {{.*}}make_data.py: invalid JSON
// RUN: not quant-calibrate --merge %t/hist.json -o %t/m.json 2>&1 | FileCheck %s --check-prefix=MERGEONE
// MERGEONE: quant-calibrate: error: --merge needs at least two profiles
//
// RUN: not quant-calibrate %S/Inputs/never_run.mlir --data %t/part1.npy -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=NEVER
// NEVER: quant-calibrate: error: observer 'dead' ({{.*}}never_run.mlir:7:8) never ran: no calibration sample reached it
//
// RUN: not quant-calibrate %S/Inputs/broken.mlir --data %t/part1.npy -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: bins does not apply to observer kind 'min_max'
// BROKEN: quant-calibrate: error: cannot parse
//
// RUN: not ls %t/out.mlir

func.func @model(%x: tensor<1x4x4x2xf32> loc("input")) -> tensor<1x4x4x2xf32> {
  %r = tosa.clamp %x {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> loc("relu")
  return %r : tensor<1x4x4x2xf32>
}
