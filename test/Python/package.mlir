// The Python package (python/quantc): quantc.compile builds a shared library
// (quant-compile --emit=shared) that quantc.load runs on NumPy arrays,
// bit-identical to the C driver on the same object, with batches split into
// calls and inputs checked against the library's metadata;
// quantc.from_torch is tested in from-torch.mlir (it needs PyTorch).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/test_package.py %quantc_tools_dir %quantc_src_root %t | FileCheck %s
// CHECK: loaded: <quantc.Model torch_jit((1, 1, 28, 28)) int8
// CHECK: batch of 512: bit-identical to the C driver
// CHECK: single sample, float64 input: ok
// CHECK: refused: ValueError: input 0 (image): shape (512, 1, 27, 28), expected (1, 1, 28, 28)
// CHECK: refused: TypeError: input 0 (image): dtype int32, expected float32
// CHECK: refused: TypeError: torch_jit takes 1 input(s), got 2
// CHECK: refused: QuantcError: quant-compile failed
// CHECK: PACKAGE OK
//
// The shared library exports the model's symbols only.
// RUN: nm -D --defined-only %t/fmnist.so | FileCheck %s --check-prefix=SYMBOLS
// SYMBOLS: T torch_jit_int8_isa
// SYMBOLS: T torch_jit_metadata
// SYMBOLS: T torch_jit_run
// SYMBOLS: T torch_jit_runv
//
// --emit=shared needs an output file.
// RUN: not quant-compile %quantc_src_root/examples/fashion-mnist/model.onnx --emit=shared 2>&1 | FileCheck %s --check-prefix=STDOUT
// STDOUT: error: --emit=shared needs an output file (-o model.so)
