// RUN: quant-opt %s --quantc-flatten-constant-globals --split-input-file | FileCheck %s

// Packed weights (arrays of arrays of i8), 16-bit pairs and floats become
// one array of their bytes, little-endian as the data layout says; the
// accesses, which carry their own element type, are unchanged.
// CHECK-LABEL: module
// CHECK: llvm.mlir.global private constant @w8(dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi8>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<6 x i8>
// CHECK: llvm.mlir.global private constant @w16(dense<[1, 0, -1, -1, 0, 1]> : tensor<6xi8>) {{.*}} : !llvm.array<6 x i8>
// CHECK: llvm.mlir.global private constant @f32(dense<[0, 0, -128, 63, 0, 0, 0, -64]> : tensor<8xi8>) {{.*}} : !llvm.array<8 x i8>
// CHECK: llvm.func @use
// CHECK: llvm.getelementptr %{{.*}}[0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<3 x i8>>
module attributes {llvm.data_layout = "e-m:e-i64:64-n8:16:32:64-S128"} {
  llvm.mlir.global private constant @w8(dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x array<3 x i8>>
  llvm.mlir.global private constant @w16(dense<[1, -1, 256]> : tensor<3xi16>) {addr_space = 0 : i32} : !llvm.array<3 x i16>
  llvm.mlir.global private constant @f32(dense<[[1.0], [-2.0]]> : tensor<2x1xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<1 x f32>>
  llvm.func @use() -> !llvm.ptr {
    %0 = llvm.mlir.addressof @w8 : !llvm.ptr
    %1 = llvm.getelementptr %0[0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<3 x i8>>
    llvm.return %1 : !llvm.ptr
  }
}

// -----

// A splat keeps its element (one value, whatever its size), in one array;
// a flat array of bytes, a mutable global, a global with an initializer
// region and a scalar are left alone.
// CHECK-LABEL: module
// CHECK: llvm.mlir.global private constant @splat(dense<7> : tensor<6xi32>) {{.*}} : !llvm.array<6 x i32>
// CHECK: llvm.mlir.global private constant @bytes(dense<[1, 2]> : tensor<2xi8>) {{.*}} : !llvm.array<2 x i8>
// CHECK: llvm.mlir.global private @mutable(dense<{{\[}}[1, 2]]> : tensor<1x2xi16>) {{.*}} : !llvm.array<1 x array<2 x i16>>
// CHECK: llvm.mlir.global private constant @region() {{.*}} : !llvm.array<1 x array<1 x i16>>
// CHECK: llvm.mlir.global private constant @scalar(5 : i32)
module {
  llvm.mlir.global private constant @splat(dense<7> : tensor<2x3xi32>) {addr_space = 0 : i32} : !llvm.array<2 x array<3 x i32>>
  llvm.mlir.global private constant @bytes(dense<[1, 2]> : tensor<2xi8>) {addr_space = 0 : i32} : !llvm.array<2 x i8>
  llvm.mlir.global private @mutable(dense<[[1, 2]]> : tensor<1x2xi16>) {addr_space = 0 : i32} : !llvm.array<1 x array<2 x i16>>
  llvm.mlir.global private constant @region() {addr_space = 0 : i32} : !llvm.array<1 x array<1 x i16>> {
    %0 = llvm.mlir.constant(dense<3> : tensor<1x1xi16>) : !llvm.array<1 x array<1 x i16>>
    llvm.return %0 : !llvm.array<1 x array<1 x i16>>
  }
  llvm.mlir.global private constant @scalar(5 : i32) {addr_space = 0 : i32} : i32
}

// -----

// A big-endian target: the host's bytes would be in the wrong order, so
// the data keeps its element type, in one array.
// CHECK-LABEL: module
// CHECK: llvm.mlir.global private constant @w16(dense<[1, 2, 3, 4]> : tensor<4xi16>) {{.*}} : !llvm.array<4 x i16>
module attributes {llvm.data_layout = "E-m:e-i64:64-n32:64-S128"} {
  llvm.mlir.global private constant @w16(dense<[[1, 2], [3, 4]]> : tensor<2x2xi16>) {addr_space = 0 : i32} : !llvm.array<2 x array<2 x i16>>
}
