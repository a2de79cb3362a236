// The tile unit itself against the definition of tdpb[su][su]d and against
// the portable twin (amx-twin.mlir), where the CPU has AMX-INT8:
// Inputs/amx_tiles.mlir lowered natively (convert-vector-to-llvm
// enable-amx, llc +amx-tile,+amx-int8) and with quantc-amx-to-vector, run on
// the same random bytes; the outputs must be the same bytes. The driver
// asks Linux for the tile state first (--amx).
// REQUIRES: amx-int8
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: quant-opt %S/Inputs/amx_tiles.mlir --convert-scf-to-cf --convert-vector-to-llvm=enable-amx --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm=use-bare-ptr-memref-call-conv --convert-to-llvm --reconcile-unrealized-casts -o %t/native.mlir
// RUN: mlir-translate --mlir-to-llvmir %t/native.mlir -o %t/native.ll
// RUN: llc -O2 -mattr=+amx-tile,+amx-int8 -filetype=obj %t/native.ll -o %t/native.o
// RUN: cc %S/Inputs/amx_tiles.c %t/native.o -o %t/native
// RUN: quant-opt %S/Inputs/amx_tiles.mlir --quantc-amx-to-vector --convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm=use-bare-ptr-memref-call-conv --convert-cf-to-llvm --reconcile-unrealized-casts -o %t/twin.mlir
// RUN: mlir-translate --mlir-to-llvmir %t/twin.mlir -o %t/twin.ll
// RUN: llc -O2 -filetype=obj %t/twin.ll -o %t/twin.o
// RUN: cc %S/Inputs/amx_tiles.c %t/twin.o -o %t/twin
// RUN: %t/native 11 1 %t/native11 --amx | FileCheck %s
// RUN: %t/twin 11 1 %t/twin11 | FileCheck %s
// RUN: cmp %t/native11 %t/twin11
// RUN: %t/native 12 0 %t/native12 --amx | FileCheck %s
// RUN: %t/twin 12 0 %t/twin12 | FileCheck %s
// RUN: cmp %t/native12 %t/twin12
// CHECK: amx_tiles: 0 of 4096 int32 differ from the definition
//
// The native object runs tdpbusd and its three sign variants.
// RUN: llvm-objdump -d %t/native.o | FileCheck %s --check-prefix=ASM
// ASM-DAG: tdpbusd
// ASM-DAG: tdpbssd
// ASM-DAG: tdpbsud
// ASM-DAG: tdpbuud
// ASM-DAG: tileloadd
// ASM-DAG: tilestored
