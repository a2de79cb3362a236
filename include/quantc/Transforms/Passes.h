//===- Passes.h - Transforms of quantc's lowered code -----------*- C++ -*-===//
//
// Declarations of the passes that run on the bufferized code (Passes.td):
// quantc-distinct-results, quantc-static-memory-plan,
// quantc-lower-memref-copy, quantc-serialize-small-parallel-loops,
// quantc-openmp-nowait, quantc-outline-loop-nests, quantc-merge-functions,
// quantc-flatten-constant-globals, and the test-only quantc-amx-to-vector;
// and of quantc-batch-as-images, which runs on the tensor model before
// them. Each is in lib/Transforms/<Name>/.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_TRANSFORMS_PASSES_H
#define QUANTC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace quantc {

/// Rows of at least this many contiguous bytes are copied with memcpy:
/// quantc-lower-memref-copy's `min-row-bytes` and the transposes that
/// quantc-tile-and-vectorize turns into row copies.
inline constexpr int64_t kMemcpyRowBytes = 256;

#define GEN_PASS_DECL
#include "quantc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "quantc/Transforms/Passes.h.inc"

} // namespace quantc

#endif // QUANTC_TRANSFORMS_PASSES_H
