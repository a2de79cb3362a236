// quantc.from_torch (python/quantc) exports a PyTorch module (two inputs and
// outputs, float and int8; a small CNN, int8) with torch.onnx.export and
// compiles it. A test of its own so that it is UNSUPPORTED, not silently
// partial, where PyTorch is absent: .ci/run runs it again after installing
// the reference packages.
//
// REQUIRES: torch
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/test_package.py %quantc_tools_dir %quantc_src_root %t --torch-only | FileCheck %s
// CHECK: from_torch, two inputs and outputs, float: max rel. error {{[0-9.]+e-(0[5-9]|[1-9][0-9])}}
// CHECK: from_torch int8, two inputs and outputs: worst output {{[0-9.]+}} dB SQNR over 16 samples
// CHECK: from_torch int8: {{[0-9.]+}} dB SQNR over 64 images
// CHECK: PACKAGE OK
