// Every built-in pipeline string of lib/Pipelines/Pipelines.cpp parses: each
// registered pipeline, with each of its option values that changes the
// string it parses (threading, vector width, each ISA), runs on a module.
// A string that does not parse fails the run with "<pipeline>: invalid
// built-in pipeline: <the parser's message>" (not an abort).
//
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-prepare)' | FileCheck %s
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-quantize)' | FileCheck %s
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-float-to-llvm)' | FileCheck %s
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-float-to-llvm{vector-bits=512})' | FileCheck %s
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-float-to-llvm{vector-bits=128})' | FileCheck %s
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-float-to-llvm{parallel=omp num-threads=2})' | FileCheck %s
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-calibration-build)' | FileCheck %s
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-int8-to-llvm{isa=avx512-vnni})' | FileCheck %s
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-int8-to-llvm{isa=avx-vnni})' | FileCheck %s
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-int8-to-llvm{isa=avx2})' | FileCheck %s
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-int8-to-llvm{isa=neon-i8mm})' | FileCheck %s
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-int8-to-llvm{isa=neon-dot})' | FileCheck %s
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-int8-to-llvm{isa=generic parallel=omp})' | FileCheck %s
// RUN: quant-opt %s --pass-pipeline='builtin.module(quantc-int8-to-llvm{isa=amx-int8 amx-portable-twin})' | FileCheck %s

// CHECK-LABEL: func @identity
func.func @identity(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  return %x : tensor<1x4xf32>
}
