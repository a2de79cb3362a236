// RUN: quant-opt %s --pass-pipeline='builtin.module(func.func(quantc-distinct-results))' | FileCheck %s

// A value returned twice: the second result is a copy in its own buffer.
// CHECK-LABEL: func.func @twice
// CHECK:         %[[A:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK:         %[[B:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK:         memref.copy %[[A]], %[[B]]
// CHECK:         return %[[A]], %[[B]], %arg0
func.func @twice(%arg0: memref<4xf32>) -> (memref<2x3xf32>, memref<2x3xf32>, memref<4xf32>) {
  %0 = memref.alloc() : memref<2x3xf32>
  return %0, %0, %arg0 : memref<2x3xf32>, memref<2x3xf32>, memref<4xf32>
}

// Distinct results and tensors are left alone.
// CHECK-LABEL: func.func @distinct
// CHECK-NOT:     memref.copy
// CHECK:         return %arg0, %arg1
func.func @distinct(%arg0: memref<4xf32>, %arg1: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  return %arg0, %arg1 : memref<4xf32>, memref<4xf32>
}
// CHECK-LABEL: func.func @tensors
// CHECK-NOT:     memref.copy
func.func @tensors(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %arg0, %arg0 : tensor<4xf32>, tensor<4xf32>
}
