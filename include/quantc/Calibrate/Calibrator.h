//===- Calibrator.h - Calibration by running compiled code ------*- C++ -*-===//
//
// Compiles a model with observers to native code (MLIR ExecutionEngine JIT),
// feeds it calibration samples, and collects each observer's statistics with
// the observer library. The statistics go back into the IR (the observers'
// `state`) and into a profile.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATE_CALIBRATOR_H
#define QUANTC_CALIBRATE_CALIBRATOR_H

#include "quantc/Calibrate/Profile.h"
#include "quantc/Runtime/Samples.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/Error.h"
#include <memory>

namespace quantc {

/// SHA-256 (hex) of `module` with every observer's calibrated state removed:
/// the identity of a model for calibration profiles.
std::string modelHash(mlir::ModuleOp module);

struct CalibrationOptions {
  /// Samples per observer batch: observers see the activations of this many
  /// samples at once, as PyTorch's observers see one DataLoader batch.
  int64_t batchSize = 32;
  /// Stop after this many samples (0: all).
  int64_t maxSamples = 0;
  /// Print progress to stderr.
  bool progress = true;
  /// Verify the calibration build after every pass, not only at its end.
  bool verifyEachPass = false;
  /// Where to time the calibration build's passes and JIT compilation
  /// (null: not timed).
  mlir::TimingScope *timing = nullptr;
};

/// One calibration session over one function of a module.
class Calibrator {
public:
  ~Calibrator();

  /// Prepares calibration of `function` (default: the only public function)
  /// in `module`, whose observers keep their current state (so calibration
  /// can resume). Compiles the calibration build; errors if the model cannot
  /// be compiled or has no observers.
  static llvm::Expected<std::unique_ptr<Calibrator>>
  create(mlir::ModuleOp module, llvm::StringRef function,
         const CalibrationOptions &options);

  /// The model's inputs (for readModelSamples).
  const std::vector<ModelTensor> &inputs() const;

  /// Runs every sample of `samples` (read for inputs()), up to the maximum
  /// number of samples. Its source names the data in messages and the
  /// profile.
  llvm::Error run(const ModelSamples &samples);

  /// Reads the data files of the --data arguments `paths` (.npy, .npz or
  /// directories of them) and runs them, until done().
  llvm::Error runFiles(llvm::ArrayRef<std::string> paths);

  /// Observes the last, partial batch. Call once after the last run().
  llvm::Error finish();

  /// True once `maxSamples` samples have run.
  bool done() const;

  /// Replaces the observers' state with `profile`'s (which must describe this
  /// model: same hash, observers and configurations).
  llvm::Error loadProfile(const Profile &profile);

  /// Writes every observer's state into its op. Fails if an observer has no
  /// data (it was never executed).
  llvm::Error writeStates();

  /// The profile of what has been observed so far.
  Profile profile() const;

  /// Number of samples run so far.
  int64_t samples() const;

  /// Called by the compiled model (through the runtime entry point).
  void record(int64_t id, const float *data, llvm::ArrayRef<int64_t> sizes,
              llvm::ArrayRef<int64_t> strides);

private:
  struct Impl;
  explicit Calibrator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace quantc

#endif // QUANTC_CALIBRATE_CALIBRATOR_H
