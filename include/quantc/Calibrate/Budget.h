//===- Budget.h - Layers returned to float for an accuracy budget -*- C++
//-*-===//
//
// quant-compile --min-output-sqnr: after calibration, the layers whose int8
// form costs the most output accuracy are kept in float, most sensitive
// first, until the int8 model's output SQNR against the float model, on the
// validation data, reaches the budget: every output's (the worst output's
// for one target, or per output).
//
// Sensitivity is measured, not guessed: a simulation of the quantized model
// (the float model with each quantization of the folded model, weights and
// activations, switched on or off at run time by a mask input) is compiled
// once; each candidate layer's sensitivity is the output SQNR the simulation
// gains when that layer alone computes in float (the rest ranked again,
// given the first k, after each doubling step of the search). The number of
// layers kept in float, in that order, is the smallest the real int8 model
// (quantized as the object is, compiled for this machine) accepts, found by
// doubling and bisection. See docs/accuracy.md.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATE_BUDGET_H
#define QUANTC_CALIBRATE_BUDGET_H

#include "quantc/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace quantc {

/// The accuracy budget's targets (--min-output-sqnr): the smallest
/// acceptable SQNR (dB) of the int8 model's outputs against the float
/// model's, each output's over all runs.
struct OutputSqnrBudget {
  /// For every float output without a target of its own; unset: those
  /// outputs are not constrained.
  std::optional<double> all;
  /// Per output, by name (the ONNX graph's, else "output<index>", as the
  /// report names it), in the order given.
  std::vector<std::pair<std::string, double>> outputs;

  bool empty() const { return !all && outputs.empty(); }
  /// The target of output `name`; nullopt: not constrained.
  std::optional<double> of(llvm::StringRef name) const;
  /// Adds the target of every output (`output` empty) or of one; an
  /// error names --min-output-sqnr if that target was given already or is
  /// not finite.
  llvm::Error add(llvm::StringRef output, double db);
  /// "30 dB", "scores 20 dB", "30 dB, scores 20 dB": for messages.
  std::string str() const;
};

struct BudgetOptions {
  /// The model function (default: the public one).
  std::string function;
  /// The data the budget is measured on (.npy / .npz files or directories).
  std::vector<std::string> data;
  /// Use at most this many model runs of `data` (0: all).
  int64_t maxSamples = 0;
  /// The smallest acceptable SQNR (dB) of the int8 model's outputs against
  /// the float model's. The budget holds when every constrained output
  /// meets its target; the search maximizes the smallest margin (SQNR minus
  /// target) over them.
  OutputSqnrBudget minOutputSqnr;
  /// Only rank the candidates (BudgetResult::ranking), keep none in float:
  /// for a search on the user's own metric (the Python package's). Without
  /// targets the ranking is by the worst float output's SQNR.
  bool rankOnly = false;
  /// The quantize stage as the object gets it (reduce_range, the user's
  /// --exclude, which stays excluded).
  QuantizeOptions quantize;
};

/// A candidate layer (an activation observer's name) and what keeping it in
/// float does.
struct LayerSensitivity {
  std::string name;
  /// The simulation's smallest output margin (SQNR minus target over the
  /// constrained outputs: with one target for all, the worst output's SQNR)
  /// with this layer in float, minus that without it, given the layers
  /// ranked before it when it was ranked (dB; the sensitivity ranking).
  double gainDb = 0;
  /// The sum of the constrained outputs' margin gains (dB): breaks ties of
  /// gainDb (a layer that leaves the worst output as it is).
  double totalGainDb = 0;
  /// Multiply-accumulates of its convolutions / matrix products per run.
  int64_t macs = 0;
};

/// A measurement of the real int8 model: the worst float output's SQNR,
/// and each output's (OutputBudget's order), with the first `floatLayers`
/// layers of the ranking in float.
struct BudgetCheck {
  int64_t floatLayers = 0;
  double sqnrDb = 0;
  std::vector<std::optional<double>> outputsDb;
};

/// One float output of the model and the budget: its target and the real
/// int8 model's SQNR before and after (nullopt: a zero float signal, which
/// has no SQNR and is not constrained).
struct OutputBudget {
  std::string name;
  int64_t index = 0;
  std::optional<double> target;
  std::optional<double> sqnrBefore, sqnrAfter;
  bool met() const { return !target || !sqnrAfter || *sqnrAfter >= *target; }
};

struct BudgetResult {
  OutputSqnrBudget minOutputSqnr;
  /// The model's float outputs (integer ones, ArgMax indices, have no
  /// SQNR and are not measured).
  std::vector<OutputBudget> outputs;
  /// The data it was measured on, and how many runs.
  std::vector<std::string> sources;
  int64_t samples = 0;
  /// Whether the calibration data served (no validation data was given).
  bool onCalibrationData = false;
  /// The real int8 model's worst output SQNR with every layer quantized
  /// (but the user's --exclude) and with `floatLayers` in float too.
  double sqnrBefore = 0, sqnrAfter = 0;
  bool met = false;
  std::vector<LayerSensitivity> floatLayers;
  /// The real int8 model's measurements, in the order they were taken.
  std::vector<BudgetCheck> checks;
  /// Every candidate, most sensitive first.
  std::vector<LayerSensitivity> ranking;
  /// Multiply-accumulates of the whole model per run.
  int64_t totalMacs = 0;
  /// Milliseconds per run of the real int8 model compiled for this machine
  /// (`isa`), before and after (median over the data), and the int8 model
  /// checks it took.
  double msBefore = 0, msAfter = 0;
  std::string isa;

  /// The names of `floatLayers`.
  std::vector<std::string> names() const;
};

/// Finds the layers of `calibrated` (a float model whose observers hold
/// their state, as after calibration) to keep in float for the budget.
/// Errors if the model has no float result, a target names no float
/// output, or the data is bad. A
/// budget that cannot be met (every candidate in float and still short) is
/// not an error: `met` says so.
llvm::Expected<BudgetResult> findFloatLayers(mlir::ModuleOp calibrated,
                                             const BudgetOptions &options);

/// The int8 instruction set that JIT-compiled int8 models use on this
/// machine: the first of int8Isas() this CPU has, AMX aside (its tiles need
/// the OS's permission); "generic" if none.
std::string hostInt8Isa();

} // namespace quantc

#endif // QUANTC_CALIBRATE_BUDGET_H
