//===- Pipelines.h - Named pass pipelines -----------------------*- C++ -*-===//

#ifndef QUANTC_PIPELINES_PIPELINES_H
#define QUANTC_PIPELINES_PIPELINES_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class OpPassManager;
class Operation;
} // namespace mlir

namespace quantc {

/// Lowers a float model (TOSA, qnt.batch_norm, float qnt.conv2d; observers
/// instrumented or absent) on tensors to the LLVM dialect: TOSA -> linalg,
/// one-shot
/// bufferization with results as out-parameters, loops, LLVM. Registered as
/// `quantc-float-to-llvm`.
void buildFloatToLLVMPipeline(mlir::OpPassManager &pm);

/// The calibration build: `qnt-instrument-observers` followed by
/// `quantc-float-to-llvm`. Registered as `quantc-calibration-build`.
void buildCalibrationPipeline(mlir::OpPassManager &pm);

/// Lowers a quantized model (qnt-quantize output) to the LLVM dialect with
/// int8 kernels for `isa` (see quantc::Int8Isa: generic, avx2, avx512-vnni,
/// neon-dot, neon-i8mm): qnt-lower-quantized, then the float pipeline for
/// what stays float, then qnt-lower-pure-intrinsics. Registered as
/// `quantc-int8-to-llvm{isa=...}`.
void buildInt8ToLLVMPipeline(mlir::OpPassManager &pm, llvm::StringRef isa);

/// Removes the `bufferization.*` argument attributes that bufferization
/// hints leave on LLVM functions (LLVM IR translation does not know them).
void stripBufferizationAttrs(mlir::Operation *module);

/// Registers the pipelines above with the pass registry.
void registerPipelines();

} // namespace quantc

#endif // QUANTC_PIPELINES_PIPELINES_H
