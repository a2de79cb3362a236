//===- Pipelines.h - Named pass pipelines -----------------------*- C++ -*-===//
//
// The stages of the compiler as named pipelines: the front end (prepare:
// fuse + observe; quantize: fold + quantize) and the back end (a float or
// quantized model to the LLVM dialect). Each is a C++ builder with an options
// struct, registered for quant-opt as `quantc-<stage>{...}`; every tool and
// library that runs a stage builds it here, so they run the same passes.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_PIPELINES_PIPELINES_H
#define QUANTC_PIPELINES_PIPELINES_H

#include "dialects/Qnt/Transforms/Passes.h"

#include "llvm/ADT/StringRef.h"

namespace mlir {
class OpPassManager;
class Operation;
} // namespace mlir

namespace quantc {

/// The prepare stage's options.
struct PrepareOptions {
  /// Run qnt-fuse first, so that observers see fused layers (conv + batch
  /// norm + activation). quant-calibrate observes a model as it is given.
  bool fuse = true;
  /// Run qnt-smooth with this alpha after fusion (0: not): the layer norms'
  /// `qnt.smooth_absmax`, e.g. from attachActivationAbsMax.
  double smoothAlpha = 0;
  /// Run qnt-equalize after fusion (cross-layer equalization).
  bool equalize = false;
  /// Run qnt-insert-observers. A QDQ model is prepared without: its
  /// qnt.fake_quant ops carry its parameters.
  bool insertObservers = true;
  /// qnt-insert-observers' options (observer kinds, dtypes, schemes).
  mlir::qnt::QntInsertObserversOptions observers;
};

/// Prepare (PyTorch's fuse_modules + prepare): qnt-fuse, with `smoothAlpha`
/// qnt-smooth, then qnt-insert-observers, on every function. Registered as
/// `quantc-prepare{fuse=... smooth-alpha=... insert-observers=...
/// activation-kind=...}`, with qnt-insert-observers' options.
void buildPreparePipeline(mlir::OpPassManager &pm,
                          const PrepareOptions &options = {});

/// The quantize stage's options.
struct QuantizeOptions {
  /// qnt-fold-observers' options (reduce-range).
  mlir::qnt::QntFoldObserversOptions fold;
  /// qnt-quantize's options (layers kept in float).
  mlir::qnt::QntQuantizeOptions quantize;
  /// Run qnt-correct-bias between folding and quantization (the layers'
  /// `qnt.input_mean`, e.g. from attachInputMeans), with `quantize.exclude`.
  bool correctBias = false;
  /// Run qnt-float-outputs after folding: the layers that compute model
  /// outputs (through data movement or a final softmax / sigmoid / argmax)
  /// produce them in float from their int32 accumulators.
  bool floatOutputs = true;
};

/// Quantize (PyTorch's convert): qnt-fold-observers (calibrated observers
/// become constant qnt.fake_quant), with `floatOutputs` qnt-float-outputs,
/// with `correctBias` qnt-correct-bias, then qnt-quantize (int8 qnt ops), on
/// every function. Registered as `quantc-quantize{reduce-range=...
/// exclude=... correct-bias float-outputs=...}`. A model
/// without observers (a QDQ model) is only quantized.
void buildQuantizePipeline(mlir::OpPassManager &pm,
                           const QuantizeOptions &options = {});

/// How generated code uses threads.
enum class Parallelism {
  None,   ///< Sequential loops (scf.parallel lowered to scf.for).
  OpenMP, ///< scf.parallel -> omp.parallel + omp.wsloop: __kmpc_* calls of
          ///< LLVM's OpenMP runtime (libomp).
};

/// Threading of the lowering pipelines.
struct ParallelOptions {
  Parallelism parallelism = Parallelism::None;
  /// With OpenMP: the num_threads clause of every parallel region (0: none,
  /// i.e. the runtime's choice: omp_set_num_threads, OMP_NUM_THREADS, or
  /// the number of CPUs).
  unsigned numThreads = 0;
};

/// Lowers a float model (TOSA, qnt.batch_norm, float qnt.conv2d; observers
/// instrumented or absent) on tensors to the LLVM dialect: TOSA -> linalg,
/// one-shot
/// bufferization with results as out-parameters, loops, LLVM. Registered as
/// `quantc-float-to-llvm{parallel=none|omp num-threads=N}`. With OpenMP,
/// the outer loops of linalg ops become scf.parallel (affine-parallelize),
/// loops with too little work turn sequential
/// (quantc-serialize-small-parallel-loops) and every remaining scf.parallel,
/// these and those of earlier lowerings, becomes an OpenMP parallel loop
/// (convert-scf-to-openmp); otherwise all loops are sequential.
/// `vectorBits` is the target's vector register width
/// (quantc-tile-and-vectorize's register blocks).
void buildFloatToLLVMPipeline(mlir::OpPassManager &pm,
                              const ParallelOptions &parallel = {},
                              unsigned vectorBits = 256);

/// The calibration build: `qnt-instrument-observers` followed by
/// `quantc-float-to-llvm` with `parallel`. Registered (sequential) as
/// `quantc-calibration-build`. The observers' calls stay outside the
/// parallel regions, and every parallel loop writes its own elements, so
/// the statistics are the same with any number of threads. `vectorBits`
/// as for buildFloatToLLVMPipeline (the JIT passes hostVectorBits()).
void buildCalibrationPipeline(mlir::OpPassManager &pm,
                              const ParallelOptions &parallel = {},
                              unsigned vectorBits = 256);

/// Lowers a quantized model (qnt-quantize output) to the LLVM dialect with
/// int8 kernels for `isa` (a name of quantc::int8Isas()):
/// qnt-lower-quantized, then the float pipeline for
/// what stays float (register blocks for the ISA's vector width), then
/// qnt-lower-pure-intrinsics. Registered as
/// `quantc-int8-to-llvm{isa=... parallel=none|omp num-threads=N
/// amx-portable-twin}`; the threading is the float pipeline's. With
/// `amxPortableTwin` (test-only), quantc-amx-to-vector runs right before the
/// LLVM lowering: the amx-int8 tile kernels become ordinary vector code, bit
/// for bit the same, that runs without AMX.
void buildInt8ToLLVMPipeline(mlir::OpPassManager &pm, llvm::StringRef isa,
                             const ParallelOptions &parallel = {},
                             bool amxPortableTwin = false);

/// "none" or "omp".
llvm::StringRef toString(Parallelism parallelism);

/// Removes the `bufferization.*` argument attributes that bufferization
/// hints leave on LLVM functions (LLVM IR translation does not know them).
void stripBufferizationAttrs(mlir::Operation *module);

/// Registers the pipelines above with the pass registry.
void registerPipelines();

} // namespace quantc

#endif // QUANTC_PIPELINES_PIPELINES_H
