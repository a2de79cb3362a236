// Every input file goes through quantc::readInputFile
// (quantc/Support/InputFile.h, docs/hardening.md "Limits"): a regular file
// larger than QUANTC_MAX_INPUT_BYTES is refused from its size before it is
// read; an endless character device (/dev/zero) is read up to the limit
// and refused; a named pipe nobody writes to is given up after 10 s instead
// of blocking forever. Every tool, every kind of input: the ONNX model, an
// MLIR model, calibration and run data, a profile. The limits are small
// here (reading 2 GiB of /dev/zero takes seconds: memory-peak.mlir).
//
// RUN: rm -rf %t && mkdir -p %t && mkfifo %t/fifo.onnx
// RUN: %python %S/Inputs/hostile_memory.py %t
//
// /dev/zero as the model.
// RUN: env QUANTC_MAX_INPUT_BYTES=1M not quant-translate --import-onnx /dev/zero 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: env QUANTC_MAX_INPUT_BYTES=1M not quant-compile /dev/zero -o %t/zero.o 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: env QUANTC_MAX_INPUT_BYTES=1M not quant-opt /dev/zero 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: env QUANTC_MAX_INPUT_BYTES=1M not quant-run /dev/zero --input %t/ok.npz -o %t/zero.npz 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: env QUANTC_MAX_INPUT_BYTES=1M not quant-calibrate /dev/zero --data %t/ok.npz -o %t/zero.mlir 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not ls %t/zero.o %t/zero.npz %t/zero.mlir
// ZERO: error: '/dev/zero' (a character device) gives more than the input limit of 1048576 bytes (1 MiB); set QUANTC_MAX_INPUT_BYTES (e.g. QUANTC_MAX_INPUT_BYTES=8G) to raise it
//
// /dev/zero as data and as a profile.
// RUN: env QUANTC_MAX_INPUT_BYTES=1M not quant-calibrate %s --data /dev/zero -o %t/zero.mlir 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: env QUANTC_MAX_INPUT_BYTES=1M not quant-calibrate %s --profile /dev/zero -o %t/zero.mlir 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: env QUANTC_MAX_INPUT_BYTES=1M not quant-run %s --input /dev/zero -o %t/zero.npy 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: env QUANTC_MAX_INPUT_BYTES=1M not quant-compile %s --calibration-data /dev/zero -o %t/zero.o 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not ls %t/zero.o %t/zero.npy %t/zero.mlir
//
// Regular files: refused from their size, before reading.
// RUN: env QUANTC_MAX_INPUT_BYTES=100 not quant-translate --import-onnx %t/const-1048576.onnx 2>&1 | FileCheck %s --check-prefix=SIZE-ONNX
// SIZE-ONNX: error: '{{.*}}const-1048576.onnx' has 154 bytes, more than the input limit of 100 bytes; set QUANTC_MAX_INPUT_BYTES (e.g. QUANTC_MAX_INPUT_BYTES=8G) to raise it
// RUN: env QUANTC_MAX_INPUT_BYTES=1k not quant-compile %s -o %t/size.o 2>&1 | FileCheck %s --check-prefix=SIZE-MLIR
// SIZE-MLIR: quant-compile: error: '{{.*}}memory-input-files.mlir' has {{[0-9]+}} bytes, more than the input limit of 1024 bytes (1 KiB)
// RUN: env QUANTC_MAX_INPUT_BYTES=8k not quant-calibrate %s --data %t/two.npz -o %t/size.mlir 2>&1 | FileCheck %s --check-prefix=SIZE-DATA
// SIZE-DATA: quant-calibrate: error: '{{.*}}two.npz' has 98230 bytes, more than the input limit of 8192 bytes (8 KiB)
//
// A directory is no input file.
// RUN: not quant-translate --import-onnx %t 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: error: '{{.*}}' is a directory, not a file
//
// A named pipe without a writer.
// RUN: not quant-translate --import-onnx %t/fifo.onnx 2>&1 | FileCheck %s --check-prefix=FIFO
// FIFO: error: '{{.*}}fifo.onnx' (a pipe) sent nothing for 10 s (a pipe nobody writes to?); write the input to a regular file
//
// Within the limit, a pipe is read as any file is.
// RUN: cat %t/ok.npy | quant-calibrate %s --data /dev/stdin --quiet -o %t/stdin.mlir

func.func @model(%x: tensor<1x4x4x2xf32> loc("input")) -> tensor<1x4x4x2xf32> {
  %r = tosa.clamp %x {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> loc("relu")
  return %r : tensor<1x4x4x2xf32>
}
