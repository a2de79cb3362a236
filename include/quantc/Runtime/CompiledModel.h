//===- CompiledModel.h - A model JIT-compiled to native code ----*- C++ -*-===//
//
// Lowers one function of a module with a pass pipeline to the LLVM dialect,
// JIT-compiles it at -O3 with MLIR's ExecutionEngine and runs it on float32
// buffers. Used by calibration (with observers instrumented) and to run the
// float model itself (benchmarks, reference outputs).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATE_COMPILEDMODEL_H
#define QUANTC_CALIBRATE_COMPILEDMODEL_H

#include "quantc/Runtime/Samples.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <vector>

namespace mlir {
class ExecutionEngine;
class OpPassManager;
} // namespace mlir

namespace quantc {

/// The vector register width, in bits, of this machine's widest float
/// vectors the JIT may use (512 with AVX-512, 128 on AArch64, else 256):
/// the float pipelines' `vectorBits` for code compiled for this machine.
/// The float kernels sum in the same order at every width, so results do
/// not depend on it.
unsigned hostVectorBits();

/// Entry point of the calibration runtime that instrumented code calls
/// (`_mlir_ciface_qnt_rt_observe`); set by the Calibrator.
using ObserveCallback = void (*)(int64_t id, const float *data,
                                 llvm::ArrayRef<int64_t> sizes,
                                 llvm::ArrayRef<int64_t> strides);

class CompiledModel {
public:
  ~CompiledModel();

  /// Compiles `function` of `module` (which is not modified) with
  /// `pipeline`. The function must take statically shaped f32 tensors and
  /// return f32 or integer ones (modelSignature). When the lowered module has
  /// OpenMP parallel regions (a pipeline with parallel=omp), LLVM's OpenMP
  /// runtime (libomp) is loaded for them. Large constants (weights) are not
  /// copied into the compiled code: it reads them where `module`'s context
  /// stores them, so the context must outlive the compiled model. The
  /// lowered IR is verified once, after the pipeline, or after every pass
  /// with `verifyEachPass` (slower: for debugging passes). The machine code
  /// is generated here, not at the first run; with `timing`, the pipeline's
  /// passes and LLVM's part are timed in it.
  static llvm::Expected<std::unique_ptr<CompiledModel>>
  create(mlir::ModuleOp module, llvm::StringRef function,
         llvm::function_ref<void(mlir::OpPassManager &)> pipeline,
         bool verifyEachPass = false, mlir::TimingScope *timing = nullptr);

  /// The inputs and outputs (names and shapes).
  const ModelSignature &signature() const { return interface; }
  const std::vector<ModelTensor> &inputs() const { return interface.inputs; }
  const std::vector<ModelTensor> &outputs() const { return interface.outputs; }

  /// Runs the model on `inputData[i]` (inputs()[i].numElements() floats
  /// each), writing each output into `outputData[i]`
  /// (outputs()[i].numElements() floats; an integer output converted to
  /// float, exact below 2^24 in magnitude: use runTyped for its bits).
  llvm::Error run(llvm::ArrayRef<const float *> inputData,
                  llvm::ArrayRef<float *> outputData) const;
  /// As run, with each output in its own dtype (outputs()[i].elementBytes()
  /// * numElements() bytes at `outputData[i]`).
  llvm::Error runTyped(llvm::ArrayRef<const float *> inputData,
                       llvm::ArrayRef<void *> outputData) const;

  /// Routes qnt_rt_observe calls of instrumented code to `callback` on the
  /// calling thread (nullptr: ignore them).
  static void setObserveCallback(ObserveCallback callback);

private:
  CompiledModel() = default;
  std::string name;
  ModelSignature interface;
  std::unique_ptr<mlir::ExecutionEngine> engine;
};

} // namespace quantc

#endif // QUANTC_CALIBRATE_COMPILEDMODEL_H
