// Numeric options take a value a user means, or the tool stops with an
// error naming the option (quantc/Tools/OptionParsers.h): llvm::cl's own
// parsers read an empty value as 0 ("--min-output-sqnr=" was a 0 dB
// budget), accept nan and inf, and guess the radix of integers
// ("--batch=010" was 8).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/numerics_checks.py %t
// RUN: not quant-compile %t/relu.onnx --calibration-data %t/x.npy --min-output-sqnr= -o %t/m.o 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not test -e %t/m.o
// EMPTY: for the --min-output-sqnr option: needs a number (the value is empty)
// RUN: not quant-compile %t/relu.onnx --calibration-data %t/x.npy --min-output-sqnr=nan -o %t/m.o 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: for the --min-output-sqnr option: 'nan' is not a finite number
// RUN: not quant-compile %t/relu.onnx --calibration-data %t/x.npy --min-output-sqnr=1e999 -o %t/m.o 2>&1 | FileCheck %s --check-prefix=INF
// INF: for the --min-output-sqnr option: '1e999' is not a finite number
// RUN: not quant-compile %t/relu.onnx --calibration-data %t/x.npy --smooth-alpha=0.5x -o %t/m.o 2>&1 | FileCheck %s --check-prefix=ALPHA
// ALPHA: for the --smooth-alpha option: '0.5x' is not a finite number
// RUN: not quant-compile %t/relu.onnx --batch=010 -o %t/m.o 2>&1 | FileCheck %s --check-prefix=OCTAL
// OCTAL: for the --batch option: '010' is not a decimal integer
// RUN: not quant-compile %t/relu.onnx --calibration-data %t/x.npy --max-samples= -o %t/m.o 2>&1 | FileCheck %s --check-prefix=SAMPLES
// SAMPLES: for the --max-samples option: '' is not a decimal integer
// RUN: not quant-calibrate %t/relu.onnx --data %t/x.npy --batch-size=0x10 -o %t/p.json 2>&1 | FileCheck %s --check-prefix=HEX
// HEX: for the --batch-size option: '0x10' is not a decimal integer
// RUN: not quant-run %t/relu.onnx --input %t/x.npy --num-threads=-1 -o %t/y.npy 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: for the --num-threads option: '-1' is not a decimal integer
// RUN: not quant-run %t/relu.onnx --input %t/x.npy --batch=99999999999999999999 -o %t/y.npy 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: for the --batch option: '99999999999999999999' is out of range
// RUN: not quant-translate --import-onnx %t/relu.onnx --batch= -o %t/r.mlir 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// TRANSLATE: for the --batch option: '' is not a decimal integer
// RUN: not test -e %t/p.json
// RUN: not test -e %t/y.npy
// RUN: not test -e %t/r.mlir
//
// Values in range still work.
// RUN: quant-run %t/relu.onnx --input %t/x.npy --batch=1 --num-threads=1 -o %t/ok.npy
