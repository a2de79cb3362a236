// .npz archives decode within QUANTC_MAX_INPUT_BYTES (docs/hardening.md,
// "Limits"): the sizes the members declare are added up and checked against
// the limit before each member is inflated, and inflating stops at the
// declared size: a member whose stream goes on past it, or ends before it,
// is refused. Archives from Inputs/hostile_memory.py: a 64 KiB zip bomb of
// 64 MiB, a member declaring 3 GiB, two of 48 MiB, and two that lie.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/hostile_memory.py %t
//
// RUN: quant-calibrate %s --data %t/ok.npz --quiet -o %t/ok.mlir
//
// RUN: env QUANTC_MAX_INPUT_BYTES=16M not quant-calibrate %s --data %t/bomb.npz -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=BOMB
// BOMB: quant-calibrate: error: {{.*}}bomb.npz: member 'input.npy' declares 67108992 bytes, more than the input limit of 16777216 bytes (16 MiB); set QUANTC_MAX_INPUT_BYTES (e.g. QUANTC_MAX_INPUT_BYTES=8G) to raise it
// RUN: env QUANTC_MAX_INPUT_BYTES=16M not quant-run %s --input %t/bomb.npz -o %t/out.npz 2>&1 | FileCheck %s --check-prefix=BOMB2
// BOMB2: quant-run: error: {{.*}}bomb.npz: member 'input.npy' declares 67108992 bytes, more than the input limit
//
// With the default limit (2 GiB), refused before anything is allocated.
// RUN: not quant-calibrate %s --data %t/declared.npz -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=DECLARED
// DECLARED: quant-calibrate: error: {{.*}}declared.npz: member 'input.npy' declares 3221225472 bytes, more than the input limit of 2147483648 bytes (2 GiB)
//
// RUN: env QUANTC_MAX_INPUT_BYTES=64M not quant-calibrate %s --data %t/two.npz -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: quant-calibrate: error: {{.*}}two.npz: member 'other.npy' declares 50331776 bytes (100663552 with the members before it), more than the input limit of 67108864 bytes (64 MiB)
//
// RUN: not quant-calibrate %s --data %t/lie-short.npz -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: quant-calibrate: error: {{.*}}lie-short.npz: member 'input.npy': inflates to more than the 576 bytes its header declares
// RUN: not quant-calibrate %s --data %t/lie-long.npz -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: quant-calibrate: error: {{.*}}lie-long.npz: member 'input.npy': inflates to 640 bytes, not the 704 its header declares
// RUN: not ls %t/out.mlir %t/out.npz

func.func @model(%x: tensor<1x4x4x2xf32> loc("input")) -> tensor<1x4x4x2xf32> {
  %r = tosa.clamp %x {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> loc("relu")
  return %r : tensor<1x4x4x2xf32>
}
