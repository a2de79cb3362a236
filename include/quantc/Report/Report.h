//===- Report.h - Per-layer quantization report -----------------*- C++ -*-===//
//
// What post-training quantization did to every quantized activation: the
// FP32 range calibration observed, the clipping range and qparams the
// observer chose, how many calibration values fall outside the quantization
// grid, a histogram of the float activation, and the SQNR of int8 against
// float, for the tensor alone and for the whole int8 model up to that point.
//
// The numbers come from running the model on the calibration data twice:
// the float model (observers removed) and the int8 model (the quantize
// stage's output, on the int8 reference or compiled), each with every observed
// activation returned as an extra result. See docs/report.md.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_REPORT_REPORT_H
#define QUANTC_REPORT_REPORT_H

#include "quantc/Calibrate/Budget.h"
#include "quantc/Calibrate/Profile.h"
#include "quantc/Observers/Observer.h"
#include "quantc/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace quantc {

struct ReportOptions {
  /// The model function (default: the public one).
  std::string function;
  /// Calibration data (.npy files or directories), as calibration used it.
  std::vector<std::string> data;
  /// Use at most this many model runs (0: all), as calibration did.
  int64_t maxSamples = 0;
  /// Histogram bins per activation.
  int64_t bins = 128;
  /// The quantize stage's options (layers kept in float, reduce_range), as
  /// the compiled model gets them (PostTrainingOptions::quantizeOptions).
  QuantizeOptions quantize;
  /// The accuracy budget's result, when one chose layers to keep in float
  /// (shown in the report; not owned).
  const BudgetResult *budget = nullptr;
};

/// The weight of a layer (a constant input of the op producing the
/// activation) and its quantization.
struct WeightReport {
  std::string name;
  obs::ObserverConfig config;
  /// One scale per channel (one for per-tensor weights).
  std::vector<float> scales;
  /// Smallest / largest weight value.
  float min = 0, max = 0;
  /// Sums over all weight values of w^2 and (w - fakequant(w))^2.
  double signal = 0, error = 0;
};

/// One quantized activation (the output of a qnt.observe on a non-constant).
struct LayerReport {
  /// The observer's name (the layer's output name).
  std::string name;
  /// The producing op ("qnt.conv2d relu", "tosa.add", "input" for the
  /// model input) and the source layers fused into it (location names).
  std::string op;
  std::vector<std::string> fusedLayers;
  /// The op of the int8 model that computes the activation ("qnt.conv2d",
  /// "qnt.linear", "quant.qcast" for a quantized float value).
  std::string int8Op;
  /// file:line:col of the observer, if known.
  std::string location;
  std::vector<int64_t> shape;
  obs::ObserverConfig config;
  /// For an observer that was `auto` (--activation-observer=auto): why it
  /// became config.kind, each candidate's score.
  std::optional<ObserverChoice> choice;
  /// Set for an activation whose parameters are fixed by its function's
  /// range (sigmoid-like functions, softmax: PyTorch's fixed-qparams ops),
  /// which has no observer: that range (also clipMin / clipMax).
  std::optional<std::pair<double, double>> fixedRange;
  int64_t qmin = 0, qmax = 0;
  /// The observer's own min/max statistics (running averages for the
  /// moving-average kinds).
  float observerMin = 0, observerMax = 0;
  /// The range the qparams come from (computeRange(): narrower than min/max
  /// for the histogram kinds) and the qparams.
  float clipMin = 0, clipMax = 0;
  float scale = 0;
  int32_t zeroPoint = 0;
  /// Real values of qmin and qmax: the quantization grid's ends.
  float gridMin = 0, gridMax = 0;

  // Measured on the calibration data.
  /// Smallest / largest float activation value.
  float min = 0, max = 0;
  /// Values seen, and those whose code saturates at qmin or qmax
  /// (round(x / scale) + zero_point outside [qmin, qmax]).
  int64_t count = 0, clipped = 0;
  /// `bins` counts over [histMin, histMax] (the union of [min, max] and the
  /// grid's ends); values are counted in bin floor((x - histMin) / width).
  std::vector<int64_t> histogram;
  float histMin = 0, histMax = 0;
  /// Sums of f^2, of (f - fakequant(f))^2 (the tensor alone) and of
  /// (f - int8)^2 (the int8 model's dequantized activation at this point).
  double signal = 0, errorAlone = 0, errorCumulative = 0;
  std::vector<WeightReport> weights;
};

/// One model result (output), int8 against float over all runs. Built in
/// Measure.cpp (measureErrors), written by Report.cpp's toJSON(OutputReport)
/// and Html.cpp's output table: a new per-output field goes in those three.
/// How the int8 model produces one of its outputs
/// (describeOutputProduction).
struct OutputProduction {
  /// "dequantized_accumulator": a layer's int32 accumulator times its
  /// scales, never 8 bits (qnt-float-outputs); "int8": an 8-bit tensor,
  /// dequantized; "float": an op that computes in float (a layer kept in
  /// float, an op without an int8 form); "input": a model input.
  std::string form;
  /// The producing op and its layer name (empty when it has none).
  std::string op, layer;
};

struct OutputReport {
  /// The output's name (the ONNX graph's), else "output<index>" as quant-run
  /// names it.
  std::string name;
  int64_t index = 0;
  std::vector<int64_t> shape;
  /// For an integer output (ArgMax indices), whose SQNR means nothing,
  /// the elements equal in float and int8 (of `elements`) tell.
  std::string dtype = "float32";
  /// Sums of f^2 and (f - int8)^2, and the largest |f - int8|.
  double signal = 0, error = 0, maxAbsError = 0;
  int64_t equal = 0, elements = 0;
  /// Outputs [rows, 1, ..., 1, classes] (classifiers): rows where the arg
  /// max of the int8 output equals the float one.
  bool classifier = false;
  int64_t rows = 0, top1Agree = 0;

  /// How the int8 model computes it.
  OutputProduction produced;

  bool isFloat() const { return dtype == "float32"; }
  /// SQNR in dB (sqnrDb): nullopt for an integer output or a zero signal.
  std::optional<double> sqnr() const;
};

/// An op of the int8 model that computes in float (its layer name, if the
/// location has one).
struct FloatOp {
  std::string op, layer;
};

/// The ops of a quantized function (qnt-quantize's output) that compute on
/// dequantized values: float islands, and the float tail after the last
/// dequantize, in order.
std::vector<FloatOp> findFloatOps(mlir::Operation *function);

/// How a result `result` of a quantized function is produced: from the op
/// that computes it, looking through data movement (reshape, transpose,
/// slice, concat, ...) and a final softmax / sigmoid / argmax / lookup.
OutputProduction describeOutputProduction(mlir::Value result);

struct ModelReport {
  std::string function;
  /// How the int8 activations were computed: "reference" (quantc::ref, op
  /// by op) or "compiled" (generic int8 kernels, when the model keeps float
  /// ops the reference does not run).
  std::string int8Executor;
  /// Model runs (forward passes) and the files they came from.
  int64_t samples = 0;
  std::vector<std::string> sources;
  /// Every model result, in the model's order.
  std::vector<OutputReport> outputs;
  std::vector<LayerReport> layers;
  /// The ops the int8 model computes in float (findFloatOps).
  std::vector<FloatOp> floatOps;
  /// The accuracy budget's layers in float, its ranking and measurements.
  std::optional<BudgetResult> budget;
};

/// SQNR in dB of a signal with `signal` energy and `error` noise energy:
/// +inf for no error, nullopt for a zero signal.
std::optional<double> sqnrDb(double signal, double error);

/// The float output with the lowest SQNR (the first of equals; outputs
/// with a zero signal are skipped); null if none has one.
const OutputReport *worstOutput(const ModelReport &report);

/// The layers by cumulative SQNR, worst first (zero signals last).
std::vector<const LayerReport *> worstLayers(const ModelReport &report);

/// Measures `calibrated` (a float model whose observers hold their state,
/// as after calibration and before qnt-fold-observers) on the calibration
/// data. `calibrated` is not modified.
llvm::Expected<ModelReport> buildReport(mlir::ModuleOp calibrated,
                                        const ReportOptions &options);

/// The report as JSON (docs/report.md describes the fields).
llvm::json::Value toJSON(const ModelReport &report);

/// A self-contained HTML page: summary, layer table, one SVG histogram per
/// layer, and the JSON embedded.
void writeHtml(const ModelReport &report, llvm::raw_ostream &os);

/// Checks the paths writeReport(`dir`) writes as outputs of `outputs`
/// (OutputSet::check), before the work that makes the report.
llvm::Error checkReportOutputs(llvm::StringRef dir, OutputSet &outputs);

/// Writes `dir`/report.json and `dir`/report.html (creating `dir`), both or
/// neither (quantc/Support/OutputFile.h). With `outputs`, they are outputs
/// of that set and appear when the caller commits it.
llvm::Error writeReport(llvm::StringRef dir, const ModelReport &report,
                        OutputSet *outputs = nullptr);

} // namespace quantc

#endif // QUANTC_REPORT_REPORT_H
