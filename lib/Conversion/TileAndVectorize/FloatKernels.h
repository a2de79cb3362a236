//===- FloatKernels.h - The float kernels of tile-and-vectorize -*- C++ -*-===//
//
// Private to lib/Conversion/TileAndVectorize: the register-blocked
// kernels quantc-tile-and-vectorize builds for matmuls and innermost
// reductions instead of tiling them, and those quantc-float-conv-kernels
// builds for float convolutions.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_LIB_CONVERSION_TILEANDVECTORIZE_FLOATKERNELS_H
#define QUANTC_LIB_CONVERSION_TILEANDVECTORIZE_FLOATKERNELS_H

#include "dialects/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace quantc::float_codegen {

/// Replaces a static f32 linalg.matmul / batch_matmul on tensors (default
/// indexing maps) by register-blocked loops of vector
/// FMAs (MatmulKernel.cpp), blocked for vector registers of `vectorBits`;
/// fails, leaving `op` alone, otherwise.
mlir::LogicalResult lowerMatmulToKernel(mlir::RewriterBase &rewriter,
                                        mlir::linalg::LinalgOp op,
                                        unsigned vectorBits);

/// Replaces a static f32 linalg op whose only reduction is its innermost
/// loop (read along the innermost dimension of the inputs that use it),
/// with an elementwise body and an add / max / min combiner, by rows of
/// vector<8xf32> accumulation in a parallel loop (ReductionKernel.cpp);
/// fails, leaving `op` alone, otherwise.
mlir::LogicalResult lowerInnermostReduction(mlir::RewriterBase &rewriter,
                                            mlir::linalg::LinalgOp op);

/// Replaces a float qnt.conv2d with static shapes, a constant filter (and
/// bias), one group or depthwise, by the packed register-blocked kernel of
/// ConvKernel.cpp, built for vector registers of `vectorBits`; fails,
/// leaving `op` alone, otherwise.
mlir::LogicalResult lowerFloatConv(mlir::RewriterBase &rewriter,
                                   mlir::qnt::Conv2DOp op, unsigned vectorBits);

} // namespace quantc::float_codegen

#endif // QUANTC_LIB_CONVERSION_TILEANDVECTORIZE_FLOATKERNELS_H
