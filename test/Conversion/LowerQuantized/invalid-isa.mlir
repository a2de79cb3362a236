// RUN: not quant-opt %s --qnt-lower-quantized=isa=sse9 2>&1 | FileCheck %s

// CHECK: error: qnt-lower-quantized: unknown isa 'sse9' (expected one of amx-int8, avx512-vnni, avx-vnni, avx2, neon-i8mm, neon-dot, generic)
func.func @f() {
  return
}
