// The `parallel` option of the model pipelines: with parallel=omp every
// scf.parallel (hand-written here, as the quantized lowerings emit them) and
// the outer parallel loops of every linalg op (the float path) become an
// OpenMP parallel loop whose region captures the memref descriptors; by
// default all loops are sequential and nothing of OpenMP is left. A
// worksharing loop that ends its region is nowait (the join is its barrier).
//
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-int8-to-llvm{parallel=omp})' | FileCheck %s --check-prefix=OMP
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-float-to-llvm{parallel=omp})' | FileCheck %s --check-prefix=OMP
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-float-to-llvm{parallel=omp num-threads=2})' | FileCheck %s --check-prefix=NUM
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-int8-to-llvm)' | FileCheck %s --check-prefix=SEQ
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-float-to-llvm{parallel=none})' | FileCheck %s --check-prefix=SEQ
//
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(quantc-float-to-llvm{parallel=omp})' | FileCheck %s --check-prefix=SMALL
//
// RUN: not quant-opt %s --pass-pipeline='builtin.module(quantc-float-to-llvm{parallel=threads})' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: Cannot find option named 'threads'!

// OMP-LABEL: llvm.func @scale(
// OMP: omp.parallel {
// OMP-NEXT: omp.wsloop nowait {
// OMP-NEXT: omp.loop_nest (%[[I:.*]], %[[J:.*]]) : i64 = ({{.*}}) to ({{.*}}) step ({{.*}}) collapse(2) {
// OMP: llvm.load %{{.*}} : !llvm.ptr -> f32
// OMP: llvm.fmul
// OMP: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr
// OMP: omp.yield
// OMP: omp.terminator
//
// NUM-LABEL: llvm.func @scale(
// NUM: %[[N:.*]] = llvm.mlir.constant(2 : i32) : i32
// NUM: omp.parallel num_threads(%[[N]] : i32) {
//
// SEQ-LABEL: llvm.func @scale(
// SEQ-NOT: omp.
// SEQ: llvm.fmul
// SEQ-NOT: omp.
// SEQ: llvm.return
func.func @scale(%in: memref<256x128xf32>, %out: memref<256x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c256, %c128) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<256x128xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %out[%i, %j] : memref<256x128xf32>
  }
  return
}

// -----

// A float model: TOSA -> linalg on tensors -> vectorized tiles
// (quantc-tile-and-vectorize) whose loop over rows is an scf.forall ->
// buffers -> scf.parallel: one OpenMP loop over the 256 rows, sequential
// vector code over columns and channels inside.
// OMP-LABEL: llvm.func @relu(
// OMP: %[[ROWS:.*]] = llvm.mlir.constant(256 : index) : i64
// OMP: omp.parallel {
// OMP: omp.wsloop nowait {
// OMP: omp.loop_nest (%{{.*}}) : i64 = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// OMP: llvm.cond_br
// OMP: llvm.intr.minimum
// OMP: llvm.intr.maximum
// OMP: omp.yield
//
// NUM-LABEL: llvm.func @relu(
// NUM: omp.parallel num_threads(
//
// SEQ-LABEL: llvm.func @relu(
// SEQ-NOT: omp.
// SEQ: llvm.return
func.func @relu(%x: tensor<1x256x64x16xf32>) -> tensor<1x256x64x16xf32> {
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x256x64x16xf32>) -> tensor<1x256x64x16xf32>
  return %0 : tensor<1x256x64x16xf32>
}

// -----

// Too little work for a fork and join (quantc-serialize-small-parallel-loops):
// sequential even with parallel=omp.
// SMALL-LABEL: llvm.func @tiny(
// SMALL-NOT: omp.
// SMALL: llvm.return
func.func @tiny(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}
