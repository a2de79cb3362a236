//===- Passes.h - Passes of the qnt dialect ---------------------*- C++ -*-===//

#ifndef QNT_TRANSFORMS_PASSES_H
#define QNT_TRANSFORMS_PASSES_H

#include "dialects/Qnt/IR/QntDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "quantc/Observers/QParams.h"

namespace mlir::qnt {

#define GEN_PASS_DECL
#include "dialects/Qnt/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/Qnt/Transforms/Passes.h.inc"

/// The lowerings of qnt-lower-float, one pattern set per float qnt op
/// (Lower<Op>.cpp), and all of them.
void populateLowerFakeQuantPatterns(RewritePatternSet &patterns);
void populateLowerFloatConvPatterns(RewritePatternSet &patterns);
void populateLowerBatchNormPatterns(RewritePatternSet &patterns);
void populateLowerFloatUnaryPatterns(RewritePatternSet &patterns);
void populateLowerSoftmaxPatterns(RewritePatternSet &patterns);
void populateLowerLayerNormPatterns(RewritePatternSet &patterns);
void populateLowerFloatPatterns(RewritePatternSet &patterns);

} // namespace mlir::qnt

#endif // QNT_TRANSFORMS_PASSES_H
