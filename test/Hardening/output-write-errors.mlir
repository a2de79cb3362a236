// Write errors (docs/hardening.md, "Output files"): a write, fsync or close
// that fails is a diagnosed error naming the path and the OS's reason, never
// LLVM's "IO failure on output stream"; and the outputs of one command
// appear together or not at all, with no temporary left behind.
//
// RUN: rm -rf %t && mkdir -p %t
//
// A file size limit makes the kernel refuse the object's writes (EFBIG, as
// a full disk gives ENOSPC; the tools ignore SIGXFSZ, which would kill
// them): an error, no object, no header, no temporary, and the directory
// quant-compile created for them removed again.
// RUN: not sh -c "ulimit -f 4; exec quant-compile %S/../Integration/Compile/Inputs/ops.mlir -o %t/big/m.o" 2>&1 | FileCheck %s --check-prefix=FSIZE --implicit-check-not="LLVM ERROR" --implicit-check-not="Stack dump"
// FSIZE: quant-compile: error: cannot write '{{.*}}/big/m.o' (-o): File too large
// RUN: test ! -e %t/big
//
// An existing output survives a failed write unchanged.
// RUN: echo old > %t/m.o
// RUN: not sh -c "ulimit -f 4; exec quant-compile %S/../Integration/Compile/Inputs/ops.mlir -o %t/m.o" 2>&1 | FileCheck %s --check-prefix=FSIZE-OLD --implicit-check-not="Stack dump"
// FSIZE-OLD: quant-compile: error: cannot write '{{.*}}/m.o' (-o): File too large
// RUN: FileCheck %s --check-prefix=OLD < %t/m.o
// OLD: old
//
// The header fails after the object was written (a character device with
// no space: /dev/full, which nothing changes): neither appears.
// RUN: not quant-compile %S/../Integration/Compile/Inputs/ops.mlir -o %t/h.o --header /dev/full 2>&1 | FileCheck %s --check-prefix=HEADER --implicit-check-not="LLVM ERROR"
// HEADER: quant-compile: error: cannot write '/dev/full' (--header): No space left on device
// RUN: test ! -e %t/h.o
//
// Text written through a device, and standard output, report their errors.
// RUN: not quant-opt %S/../Integration/Compile/Inputs/ops.mlir -o /dev/full 2>&1 | FileCheck %s --check-prefix=OPT --implicit-check-not="LLVM ERROR"
// OPT: quant-opt: error: cannot write '/dev/full' (-o): No space left on device
// RUN: not quant-opt %S/../Integration/Compile/Inputs/ops.mlir 2>&1 >/dev/full | FileCheck %s --check-prefix=OPT-STDOUT --implicit-check-not="LLVM ERROR"
// OPT-STDOUT: quant-opt: error: cannot write '-' (-o): standard output: No space left on device
// RUN: not quant-translate --import-onnx %quantc_src_root/examples/fashion-mnist/model.onnx -o /dev/full 2>&1 | FileCheck %s --check-prefix=TRANSLATE --implicit-check-not="LLVM ERROR"
// TRANSLATE: quant-translate: error: cannot write '/dev/full' (-o): No space left on device
// Anything else a tool prints to standard output (listings, help,
// summaries): a diagnosed error and exit code 1 when it cannot be written.
// RUN: not quant-compile --list-isas 2>&1 >/dev/full | FileCheck %s --check-prefix=LIST --implicit-check-not="LLVM ERROR"
// RUN: not quant-translate --list-onnx-ops 2>&1 >/dev/full | FileCheck %s --check-prefix=LIST-ONNX --implicit-check-not="LLVM ERROR"
// LIST: quant-compile: error: cannot write to standard output: No space left on device
// LIST-ONNX: quant-translate: error: cannot write to standard output: No space left on device
//
// Nothing but the kept m.o is left.
// RUN: ls -A %t | count 1
