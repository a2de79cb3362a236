// The limits are checked before memory is allocated: under an address
// space of 1 GiB (ulimit -v; a tool needs about 300 MiB of its own),
// hostile inputs that would take gigabytes fail with the limit's message,
// not with "out of memory", and with the default limit (2 GiB) too where
// the check comes from a size or a shape. Peaks without ulimit, measured
// with /usr/bin/time -v: docs/hardening.md, "Limits".
//
// UNSUPPORTED: asan
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/hostile_memory.py %t
//
// A 160-byte model with a constant of 2^28 elements (2 GiB as the importer
// holds it): refused before it is computed.
// RUN: not bash -c 'ulimit -v 1048576 && exec quant-translate --import-onnx %t/const-268435456.onnx' 2>&1 | FileCheck %s --check-prefix=AT
// AT: node 'c' (ConstantOfShape): the shape: a constant of 268435456 elements would take the model's constants to 2147483656 bytes {{.*}} more than the input limit of 2147483648 bytes (2 GiB)
// RUN: not bash -c 'ulimit -v 1048576 && exec quant-translate --import-onnx %t/expand.onnx' 2>&1 | FileCheck %s --check-prefix=EXPAND
// EXPAND: node 'expand' (Expand): the shape: a constant of 268435456 elements would take
//
// A member declaring 3 GiB: refused before it is inflated.
// RUN: not bash -c 'ulimit -v 1048576 && exec quant-calibrate %s --data %t/declared.npz -o %t/out.mlir' 2>&1 | FileCheck %s --check-prefix=DECLARED
// DECLARED: member 'input.npy' declares 3221225472 bytes, more than the input limit of 2147483648 bytes (2 GiB)
//
// Streams are read up to the limit, then refused.
// RUN: not bash -c 'ulimit -v 1048576 && QUANTC_MAX_INPUT_BYTES=256M exec quant-translate --import-onnx /dev/zero' 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: '/dev/zero' (a character device) gives more than the input limit of 268435456 bytes (256 MiB)
// With the default limit the address space runs out first: still an
// error, not a crash.
// RUN: not bash -c 'ulimit -v 1048576 && exec quant-translate --import-onnx /dev/zero' 2>&1 | FileCheck %s --check-prefix=ZERO-OOM
// ZERO-OOM: error: '/dev/zero' (a character device) cannot be read: out of memory after {{[0-9]+}} bytes
// RUN: not ls %t/out.mlir

func.func @model(%x: tensor<1x4x4x2xf32> loc("input")) -> tensor<1x4x4x2xf32> {
  %r = tosa.clamp %x {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> loc("relu")
  return %r : tensor<1x4x4x2xf32>
}
