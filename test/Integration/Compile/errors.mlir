// Bad targets and bad models: an error message and a non-zero exit, no
// output file.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: not quant-compile %S/Inputs/ops.mlir --target riscv128-foo-bar -o %t/a.o 2>&1 | FileCheck %s --check-prefix=TRIPLE
// TRIPLE: quant-compile: error: unknown target triple 'riscv128-foo-bar'
// RUN: not quant-compile %S/Inputs/ops.mlir --cpu=pentium9 -o %t/a.o 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: quant-compile: error: unknown CPU 'pentium9' for target 'x86_64-
// CPU-NOT: not a recognized processor
// RUN: not quant-compile %S/Inputs/ops.mlir --target aarch64-linux-gnu --cpu=cascadelake -o %t/a.o 2>&1 | FileCheck %s --check-prefix=CPU2
// CPU2: quant-compile: error: unknown CPU 'cascadelake' for target 'aarch64-unknown-linux-gnu'
// RUN: not quant-compile %S/Inputs/ops.mlir --target aarch64-linux-gnu --cpu=native -o %t/a.o 2>&1 | FileCheck %s --check-prefix=NATIVE
// NATIVE: quant-compile: error: --cpu=native compiles for this machine; it cannot be combined with the target 'aarch64-linux-gnu'
// RUN: not quant-compile %S/Inputs/ops.mlir --target aarch64-linux-gnu --mattr=+dotprod,+avx2 -o %t/a.o 2>&1 | FileCheck %s --check-prefix=FEATURE
// FEATURE: quant-compile: error: unknown feature 'avx2' for target 'aarch64-unknown-linux-gnu'
// RUN: not quant-compile %S/Inputs/ops.mlir --mattr=avx2 -o %t/a.o 2>&1 | FileCheck %s --check-prefix=SIGN
// SIGN: quant-compile: error: feature 'avx2' must start with '+' (enable) or '-' (disable)
// RUN: not quant-compile %S/Inputs/malformed.mlir -o %t/a.o 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: malformed.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// PARSE: quant-compile: error: cannot parse
// RUN: not quant-compile %S/Inputs/linalg-parser-crash.mlir -o %t/a.o 2>&1 | FileCheck %s --check-prefix=PARSECRASH
// RUN: not quant-run %S/Inputs/linalg-parser-crash.mlir --input %t/in.npy -o %t/a.npy 2>&1 | FileCheck %s --check-prefix=PARSECRASH
// PARSECRASH: linalg-parser-crash.mlir:4:{{[0-9]+}}: error: custom op 'linalg.transpose' expected integer value
// PARSECRASH: error: cannot parse '{{.*}}linalg-parser-crash.mlir': MLIR's parser crashed after the error above (a known MLIR 22 defect, see docs/hardening.md)
// PARSECRASH-NOT: Stack dump
// RUN: not quant-compile %S/Inputs/no-lowering.mlir -o %t/a.o 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER: no-lowering.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'tensor.collapse_shape' on quantized tensors has no int8 lowering
// LOWER: quant-compile: error: cannot compile
// RUN: not quant-compile %S/Inputs/ops.mlir --name=3d -o %t/a.o 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: quant-compile: error: '3d' is not a C identifier; choose a symbol prefix with --name
// RUN: not quant-compile %S/Inputs/ops.mlir --parallel=threads -o %t/a.o 2>&1 | FileCheck %s --check-prefix=PARALLEL
// PARALLEL: quant-compile: for the --parallel option: Cannot find option named 'threads'!
// RUN: not quant-run %S/Inputs/ops.mlir --num-threads=0 --input %t/in.npy -o %t/a.npy 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: quant-run: error: --num-threads must be at least 1
// RUN: not quant-run %S/Inputs/ops.mlir --reference --num-threads=2 --input %t/in.npy -o %t/a.npy 2>&1 | FileCheck %s --check-prefix=REFTHREADS
// REFTHREADS: quant-run: error: --num-threads applies to compiled models, not to --reference
// RUN: not ls %t/a.o %t/a.h %t/a.npy
//
// Every output creates its parent directories (-o, the header beside it,
// quant-translate's -o, a profile); a path that cannot be a directory is a
// clear error.
// RUN: quant-compile %S/Inputs/ops.mlir -o %t/new/obj/a.o
// RUN: ls %t/new/obj/a.o %t/new/obj/a.h
// RUN: quant-translate --import-onnx %quantc_src_root/examples/fashion-mnist/model.onnx -o %t/new/mlir/a.mlir
// RUN: ls %t/new/mlir/a.mlir
// RUN: not quant-compile %S/Inputs/ops.mlir -o %t/new/obj/a.o/b.o 2>&1 | FileCheck %s --check-prefix=NOTDIR
// NOTDIR: quant-compile: error: cannot write '{{.*}}a.o/b.o' (-o): '{{.*}}a.o' is not a directory
