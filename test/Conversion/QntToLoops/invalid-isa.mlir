// RUN: not quant-opt %s --qnt-lower-quantized=isa=sse9 2>&1 | FileCheck %s

// CHECK: error: qnt-lower-quantized: unknown isa 'sse9' (expected generic, avx2, avx512-vnni, neon-dot or neon-i8mm)
func.func @f() {
  return
}
