// The Python package on hostile files (docs/hardening.md, "Output files"):
// quantc.load checks a private copy of the library before dlopen and loads
// it in a child process first, so a truncated or corrupt file, a damaged
// symbol hash table, a directory, a device or a fifo raises QuantcError (no
// SIGBUS, no SIGSEGV, no hang), and quantc.compile removes its temporary
// directories on success, on a failed compile and on an exception (TMPDIR
// is a fresh directory, empty after every step).
//
// RUN: rm -rf %t && mkdir -p %t/tmp %t/work
// RUN: env TMPDIR=%t/tmp %python %S/Inputs/test_package_files.py %quantc_tools_dir %quantc_src_root %t/work | FileCheck %s
// RUN: ls -A %t/tmp | count 0
// CHECK: compiled without output: <quantc.Model torch_jit((1, 1, 28, 28)) float> - TMPDIR empty, runs: (4, 10)
// CHECK: refused: QuantcError: TMPDIR []
// CHECK: refused: ValueError: TMPDIR []
// CHECK: empty: QuantcError: <work>/empty.so: not a valid shared library (no ELF header); compile it again with quant-compile --emit=shared
// CHECK: 40 bytes: QuantcError: {{.*}}(no ELF header)
// CHECK: header only: QuantcError: {{.*}}(program headers outside the file (truncated?))
// CHECK: half the first segment: QuantcError: {{.*}}(segment {{[0-9]+}} ends at byte {{[0-9]+}}, the file has {{[0-9]+}} (truncated?))
// CHECK: the last segment cut: QuantcError: {{.*}}(segment {{[0-9]+}} ends at byte
// CHECK: section headers cut: QuantcError: {{.*}}(section headers outside the file (truncated?))
// CHECK: program headers past the end: QuantcError: {{.*}}(program headers outside the file
// CHECK: section headers past the end: QuantcError: {{.*}}(section headers outside the file
// CHECK: another machine: QuantcError: <work>/machine.so: a library for ELF machine 21, this machine is
// CHECK: an executable: QuantcError: {{.*}}(ELF type 2, not a shared object)
// CHECK: 32-bit: QuantcError: {{.*}}(not 64-bit little-endian ELF)
// CHECK: not ELF: QuantcError: {{.*}}(no ELF header)
// CHECK: hash table garbage: QuantcError: <work>/hash.so: cannot load: {{.+}}
// CHECK: 2^31-1 hash buckets: QuantcError: <work>/buckets.so: not a valid shared library (the dynamic loader crashed on it: SIG{{[A-Z]+}})
// CHECK: a directory: QuantcError: <work>: not a regular file
// CHECK: missing: QuantcError: <work>/missing.so: cannot open: No such file or directory
// CHECK: a character device: QuantcError: /dev/zero: not a regular file
// CHECK: a fifo: QuantcError: <work>/fifo.so: not a regular file
// CHECK: loaded after the damaged ones; runs after its file is removed
// CHECK: FILES OK
