// RUN: quant-opt %s -qnt-lower-pure-intrinsics | FileCheck %s

// CHECK-LABEL: func.func @dot
// CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pmadd.ub.sw"(%arg0, %arg1) : (vector<32xi8>, vector<32xi8>) -> vector<16xi16>
// CHECK: return %[[R]]
// CHECK-NOT: qnt.pure_intrinsic
func.func @dot(%x: vector<32xi8>, %w: vector<32xi8>) -> vector<16xi16> {
  %0 = qnt.pure_intrinsic "llvm.x86.avx2.pmadd.ub.sw"(%x, %w) : (vector<32xi8>, vector<32xi8>) -> vector<16xi16>
  return %0 : vector<16xi16>
}
