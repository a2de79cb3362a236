//===- PostTraining.h - Post-training quantization in one call --*- C++ -*-===//
//
// The path from a float model to a quantized one, as quant-compile runs it
// for `--calibration-data`: the prepare stage (fuse, insert observers),
// calibration (compiled), the quantize stage (fold, quantize). The stages are
// the named pipelines of quantc/Pipelines/Pipelines.h, which the individual
// tools and the per-layer report run too.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATE_POSTTRAINING_H
#define QUANTC_CALIBRATE_POSTTRAINING_H

#include "quantc/Calibrate/Budget.h"
#include "quantc/Calibrate/Profile.h"
#include "quantc/Isa/Int8Isa.h"
#include "quantc/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace quantc {

/// Reads profiles and merges them (order-independent).
llvm::Expected<Profile> readMergedProfiles(llvm::ArrayRef<std::string> paths);

struct PostTrainingOptions {
  /// Calibration data (.npy / .npz files or directories of them).
  std::vector<std::string> data;
  /// Profiles to start from (merged).
  std::vector<std::string> profiles;
  /// Where to write the resulting profile ("" = nowhere).
  std::string saveProfile;
  /// The command's outputs, which the saved profile joins (committed by the
  /// caller); null: the profile is written on its own.
  OutputSet *outputs = nullptr;
  std::string activationKind = "percentile";
  std::string weightKind = "per_channel_min_max";
  /// Fold one side of the int8 dot products with 7-bit ranges
  /// (reduce_range), for int8 kernels whose dot instruction can saturate
  /// (Int8IsaInfo::saturatingPairs); unset: chosen from `int8Isas` (see
  /// rangeReduction()). Observers are inserted without it, so the
  /// calibration (and a saved profile) is the same for every target.
  std::optional<obs::RangeReduction> reduceRange;
  /// The int8 instruction sets the quantized model is compiled for (every
  /// variant of a dispatching object), from which an unset `reduceRange` is
  /// chosen.
  std::vector<Int8Isa> int8Isas;
  /// Layer / op names kept in float.
  std::vector<std::string> exclude;
  /// Model outputs quantized like any activation (through 8 bits) instead
  /// of produced in float by their layers (qnt-float-outputs).
  bool int8Outputs = false;
  /// Cross-layer equalization of the fused float model before observers
  /// are inserted (qnt-equalize).
  bool equalize = false;
  /// Empirical bias correction: the means of each conv / linear layer's
  /// float input on the calibration data (attachInputMeans) let the quantize
  /// stage fold the output shift of weight quantization into the bias
  /// (qnt-correct-bias). Needs calibration data.
  bool biasCorrection = false;
  /// SmoothQuant's migration strength in (0, 1), 0: off. The fused float
  /// model's layer norm outputs are measured on the calibration data
  /// (attachActivationAbsMax) and qnt-smooth moves their outlier channels
  /// into the weights of the layers reading them, before observers are
  /// inserted. Needs calibration data.
  double smoothAlpha = 0;
  int64_t batchSize = 32;
  int64_t maxSamples = 0;
  bool progress = false;
  /// Verify the calibration build after every pass, not only at its end.
  bool verifyEachPass = false;
  /// Where to time the steps (fusion, calibration build and run, folding
  /// and quantization, with their passes); null = not timed.
  mlir::TimingScope *timing = nullptr;
  /// The accuracy budget (--min-output-sqnr, dB, for every output or per
  /// output): layers are kept in float, most sensitive first, until every
  /// constrained output's SQNR (int8 against float) reaches its target
  /// (findFloatLayers); empty: no budget.
  OutputSqnrBudget minOutputSqnr;
  /// Measure the layers' sensitivity ranking (into the report) without
  /// keeping any in float (--rank-layers).
  bool rankLayers = false;
  /// The data the budget is measured on (files or directories, as `data`);
  /// empty: the calibration data, with a warning.
  std::vector<std::string> validationData;
  /// Called with the calibrated model (every observer holds its state)
  /// before folding, e.g. to build a per-layer report, with the quantize
  /// stage's options as the model gets them (the budget's layers excluded)
  /// and the budget's result (null without a budget); an error stops.
  std::function<llvm::Error(mlir::ModuleOp, const QuantizeOptions &,
                            const BudgetResult *)>
      onCalibrated;

  /// The reduce_range folding uses: `reduceRange` if set, else 7-bit
  /// weights where every one of `int8Isas` saturates pair sums (an
  /// avx2-only object: its fast path needs them), else 8 bits (the avx2
  /// variant of a dispatching object widens to 16 bits where a pair sum
  /// could saturate).
  obs::RangeReduction rangeReduction() const;
  /// The options of the quantize stage (fold + quantize) as this
  /// quantization runs it; the per-layer report measures the same.
  QuantizeOptions quantizeOptions() const;
};

/// Quantizes the float model `module` in place (function `function`, or the
/// public one). Errors name the step that failed.
llvm::Error quantizePostTraining(mlir::ModuleOp module,
                                 llvm::StringRef function,
                                 const PostTrainingOptions &options);

/// True when a function of `module` has `qnt.fake_quant` ops: the model
/// carries its own quantization parameters (a QDQ ONNX model, or a folded
/// model).
bool hasFakeQuant(mlir::ModuleOp module);

/// Quantizes a model that carries its quantization parameters in
/// `qnt.fake_quant` ops (QuantizeLinear / DequantizeLinear pairs) in place:
/// the prepare stage without observers (qnt-fuse), then the quantize stage
/// (qnt-quantize with those scales and zero points, weights quantized by
/// their own fake_quant; no observer to fold), layers in `exclude` kept in
/// float.
llvm::Error quantizeFakeQuantModel(mlir::ModuleOp module,
                                   llvm::ArrayRef<std::string> exclude);

} // namespace quantc

#endif // QUANTC_CALIBRATE_POSTTRAINING_H
