// The portable twin as a test-only option: `quant-run --amx-portable-twin`,
// `quant-compile --amx-portable-twin` and quantc-int8-to-llvm's
// `amx-portable-twin` lower the amx-int8 tile kernels with
// quantc-amx-to-vector, and quant-compile builds that variant without the
// AMX features, so that it runs (and its tiling, packing, edges and
// epilogue are checked against the int8 reference) on any CPU with AVX-512
// VNNI. check_kernels.py's modes ending in -twin pass the option.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/amx_twin_convs.py %t 35
// Both layers take the tile kernel:
// RUN: quant-opt %t/tile0.mlir --qnt-lower-quantized=isa=amx-int8 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: quant-opt %t/tile1.mlir --qnt-lower-quantized=isa=amx-int8 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: int8 kernel: amx-int8: tdpbusd tiles
//
// On any machine: the twin's variant neither needs AMX nor asks Linux for
// the tile state, and its code has no tile instruction.
// RUN: quant-compile %t/tile0.mlir --name qconv --int8-isas=amx-int8 --amx-portable-twin -o %t/twin.o
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/twin.h
// HEADER: features +avx512vnni,-amx-tile, int8 kernels: amx-int8
// HEADER: Needs CPU features:
// HEADER-NOT: amx
// HEADER: int qconv_run(
// RUN: llvm-objdump -d %t/twin.o | FileCheck %s --check-prefix=ASM
// ASM-NOT: {{tdpb|tileloadd|tilestored|tilezero|ldtilecfg}}
// RUN: llvm-objdump -d %t/twin.o | FileCheck %s --check-prefix=MUL
// (LLVM turns the exact products of widened bytes into vpmaddwd.)
// MUL: {{vpmaddwd|vpmulld}}
// RUN: quant-compile %t/tile0.mlir --name qconv --int8-isas=amx-int8 --amx-portable-twin --emit=llvm -o - | FileCheck %s --check-prefix=NOREQUEST
// NOREQUEST-NOT: @syscall
// RUN: quant-opt %t/tile1.mlir --pass-pipeline="builtin.module(quantc-int8-to-llvm{isa=amx-int8 amx-portable-twin})" | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: llvm.func
// PIPELINE-NOT: amx
//
// Where the CPU has AVX-512 VNNI: bit-identical to the int8 reference,
// JIT-compiled and ahead of time.
// RUN: %if avx512-vnni %{ %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 2 --prefix=tile jit-amx-int8-twin aot-amx-int8-twin | FileCheck %s %}
// CHECK: jit-amx-int8-twin: 2 of 2 models bit-identical to the int8 reference
// CHECK: aot-amx-int8-twin: 2 of 2 models bit-identical to the int8 reference
