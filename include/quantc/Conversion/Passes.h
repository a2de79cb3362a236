//===- Passes.h - Conversion passes of quantc -------------------*- C++ -*-===//
//
// Declarations of the conversion passes (Passes.td): qnt-lower-quantized
// (lib/Conversion/LowerQuantized), quantc-tile-and-vectorize and
// quantc-float-conv-kernels (lib/Conversion/TileAndVectorize).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CONVERSION_PASSES_H
#define QUANTC_CONVERSION_PASSES_H

#include "dialects/Qnt/IR/QntDialect.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace quantc {

#define GEN_PASS_DECL
#include "quantc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "quantc/Conversion/Passes.h.inc"

} // namespace quantc

#endif // QUANTC_CONVERSION_PASSES_H
