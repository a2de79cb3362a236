// Output paths (docs/hardening.md, "Output files"): every tool checks its
// output paths before reading the model, writes each output to a temporary
// beside it and renames it only onto a new name or a regular file. A
// directory, a fifo, a device (for objects and shared libraries), a path
// below a regular file, a dangling symbolic link and one file given as two
// outputs are refused with the path and the reason; nothing is created,
// replaced or left behind. The model is a missing file where the refusal
// must come first: the tools fail before they read it.
//
// RUN: rm -rf %t && mkdir -p %t/d && touch %t/file && mkfifo %t/fifo
// RUN: ln -s %t/nowhere.o %t/dangling.o
//
// RUN: not quant-compile %t/missing.mlir -o %t/d 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: not quant-compile %t/missing.mlir -o %t/d/ 2>&1 | FileCheck %s --check-prefix=DIR-SLASH
// RUN: not quant-compile %t/missing.mlir -o %t/new/ 2>&1 | FileCheck %s --check-prefix=NEW-SLASH
// RUN: not quant-translate --import-onnx %t/missing.onnx -o %t/d 2>&1 | FileCheck %s --check-prefix=DIR-TRANSLATE
// RUN: not quant-run %t/missing.mlir --input %t/in.npy -o %t/d 2>&1 | FileCheck %s --check-prefix=DIR-QRUNTOOL
// RUN: not quant-opt %S/../Integration/Compile/Inputs/ops.mlir -o %t/d 2>&1 | FileCheck %s --check-prefix=DIR-OPT
// RUN: not quant-calibrate --merge %t/missing1.json %t/missing2.json -o %t/d 2>&1 | FileCheck %s --check-prefix=DIR-MERGE
// DIR: quant-compile: error: cannot write '{{.*}}/d' (-o): it is a directory; name a file in it
// DIR-SLASH: quant-compile: error: cannot write '{{.*}}/d/' (-o): it names a directory; name a file
// NEW-SLASH: quant-compile: error: cannot write '{{.*}}/new/' (-o): it names a directory; name a file
// DIR-TRANSLATE: quant-translate: error: cannot write '{{.*}}/d' (-o): it is a directory
// DIR-QRUNTOOL: quant-run: error: cannot write '{{.*}}/d' (-o): it is a directory
// DIR-OPT: quant-opt: error: cannot write '{{.*}}/d' (-o): it is a directory
// DIR-MERGE: quant-calibrate: error: cannot write '{{.*}}/d' (-o): it is a directory
//
// A fifo is never opened (no hang) nor replaced, whatever --emit.
// RUN: not quant-compile %t/missing.mlir -o %t/fifo 2>&1 | FileCheck %s --check-prefix=FIFO
// RUN: not quant-compile %t/missing.mlir --emit=shared -o %t/fifo 2>&1 | FileCheck %s --check-prefix=FIFO-SHARED
// RUN: not quant-compile %t/missing.mlir --emit=llvm -o %t/fifo 2>&1 | FileCheck %s --check-prefix=FIFO
// RUN: not quant-opt %S/../Integration/Compile/Inputs/ops.mlir -o %t/fifo 2>&1 | FileCheck %s --check-prefix=FIFO-OPT
// RUN: not quant-calibrate %t/missing.mlir --data %t/in.npy -o %t/fifo 2>&1 | FileCheck %s --check-prefix=FIFO-CAL
// RUN: not quant-calibrate %t/missing.mlir --data %t/in.npy -o %t/c.mlir --save-profile %t/fifo 2>&1 | FileCheck %s --check-prefix=FIFO-PROFILE
// RUN: test -p %t/fifo
// FIFO: quant-compile: error: cannot write '{{.*}}/fifo' (-o): it is a fifo (named pipe), not a regular file; use '-' for standard output
// FIFO-SHARED: quant-compile: error: cannot write '{{.*}}/fifo' (-o): it is a fifo (named pipe), not a regular file{{$}}
// FIFO-OPT: quant-opt: error: cannot write '{{.*}}/fifo' (-o): it is a fifo
// FIFO-CAL: quant-calibrate: error: cannot write '{{.*}}/fifo' (-o): it is a fifo
// FIFO-PROFILE: quant-calibrate: error: cannot write '{{.*}}/fifo' (--save-profile): it is a fifo
//
// Objects and shared libraries go to files: a character device is refused
// (checked only: nothing opens /dev/null here). Text (-o of quant-opt,
// quant-translate, quant-compile --emit=mlir/llvm/asm) is written through a
// character device, never replacing it (test/Dialect and
// test/Integration/Kernels write -o /dev/null).
// RUN: not quant-compile %t/missing.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not quant-compile %t/missing.mlir --emit=shared -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEVICE-SHARED
// RUN: test -c /dev/null
// DEVICE: quant-compile: error: cannot write '/dev/null' (-o): it is a character device, not a regular file; this output is written to files only; use '-' for standard output
// DEVICE-SHARED: quant-compile: error: cannot write '/dev/null' (-o): it is a character device, not a regular file; this output is written to files only{{$}}
//
// A path below a regular file: refused, however deep.
// RUN: not quant-compile %t/missing.mlir -o %t/file/x.o 2>&1 | FileCheck %s --check-prefix=NOTDIR
// RUN: not quant-compile %t/missing.mlir -o %t/file/deep/er/x.o 2>&1 | FileCheck %s --check-prefix=NOTDIR
// RUN: not quant-compile %t/missing.mlir -o %t/ok.o --header %t/file/x.h 2>&1 | FileCheck %s --check-prefix=NOTDIR-HEADER
// RUN: not quant-compile %t/missing.mlir -o %t/ok.o --calibration-data %t/in.npy --report %t/file 2>&1 | FileCheck %s --check-prefix=NOTDIR-REPORT
// RUN: test -f %t/file && test ! -s %t/file
// NOTDIR: quant-compile: error: cannot write '{{.*}}/file/{{.*}}x.o' (-o): '{{.*}}/file' is not a directory
// NOTDIR-HEADER: quant-compile: error: cannot write '{{.*}}/file/x.h' (--header): '{{.*}}/file' is not a directory
// NOTDIR-REPORT: quant-compile: error: cannot write '{{.*}}/file/report.json' (--report): '{{.*}}/file' is not a directory
//
// Symbolic links: a dangling one is refused (nothing is created where it
// points); one to a regular file replaces that file and stays a link.
// RUN: not quant-compile %t/missing.mlir -o %t/dangling.o 2>&1 | FileCheck %s --check-prefix=DANGLING
// RUN: test ! -e %t/nowhere.o && test -L %t/dangling.o
// DANGLING: quant-compile: error: cannot write '{{.*}}/dangling.o' (-o): it is a symbolic link to a missing file (outputs are not created through links)
// RUN: echo old > %t/real.o && ln -s real.o %t/link.o
// RUN: quant-compile %S/../Integration/Compile/Inputs/ops.mlir -o %t/link.o
// RUN: test -L %t/link.o && nm %t/real.o | FileCheck %s --check-prefix=LINKED
// LINKED: T ops_run
//
// One file as two outputs.
// RUN: not quant-compile %t/missing.mlir -o %t/same.o --header %t/./same.o 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not quant-compile %t/missing.mlir -o - --header - 2>&1 | FileCheck %s --check-prefix=TWICE-STDOUT
// TWICE: quant-compile: error: cannot write '{{.*}}/./same.o' (--header): it is also given as another output
// TWICE-STDOUT: quant-compile: error: cannot write '-' (--header): it is also given as another output
//
// A regular file is replaced whole, keeping its permission bits.
// RUN: echo old > %t/kept.o && chmod 640 %t/kept.o
// RUN: quant-compile %S/../Integration/Compile/Inputs/ops.mlir -o %t/kept.o
// RUN: stat -c %%a %t/kept.o | FileCheck %s --check-prefix=MODE
// MODE: 640
//
// Nothing else was created, and no temporary is left.
// RUN: env LC_ALL=C ls -A %t | FileCheck %s --check-prefix=LEFT --match-full-lines
// RUN: ls -A %t | count 9
// LEFT: d
// LEFT-NEXT: dangling.o
// LEFT-NEXT: fifo
// LEFT-NEXT: file
// LEFT-NEXT: kept.h
// LEFT-NEXT: kept.o
// LEFT-NEXT: link.h
// LEFT-NEXT: link.o
// LEFT-NEXT: real.o
// RUN: ls -A %t/d | count 0
