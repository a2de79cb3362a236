// The portable twin of the AMX tile ops (quantc-amx-to-vector) against the
// definition of tdpb[su][su]d, on any machine: Inputs/amx_tiles.mlir (full
// and partial tiles, odd strides, the four sign combinations, int32
// wrap-around, tiles in scf.for iter_args and scf.if results) lowered with
// the twin, compiled for the host with llc and run on random bytes by
// Inputs/amx_tiles.c, which computes every int32 of the result itself.
// amx-twin-native.mlir compares it with the tile unit where the CPU has AMX.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: quant-opt %S/Inputs/amx_tiles.mlir --quantc-amx-to-vector --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm=use-bare-ptr-memref-call-conv --convert-cf-to-llvm --reconcile-unrealized-casts -o %t/twin.mlir
// RUN: mlir-translate --mlir-to-llvmir %t/twin.mlir -o %t/twin.ll
// RUN: llc -O2 -filetype=obj %t/twin.ll -o %t/twin.o
// RUN: cc %S/Inputs/amx_tiles.c %t/twin.o -o %t/twin
// RUN: %t/twin 1 1 %t/out1 | FileCheck %s
// RUN: %t/twin 2 0 %t/out2 | FileCheck %s
// RUN: %t/twin 3 1 %t/out3 | FileCheck %s
// CHECK: amx_tiles: 0 of 4096 int32 differ from the definition
