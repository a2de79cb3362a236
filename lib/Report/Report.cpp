//===- Report.cpp - The report as JSON, and writing it --------------------===//

#include "quantc/Report/Report.h"
// The one error helper of lib/Calibrate, whose library this one extends.
#include "quantc/Support/Fail.h"
#include "quantc/Support/OutputFile.h"

#include "quantc/Calibrate/Profile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <cmath>

using namespace quantc;
using llvm::Error;
using quantc::fail;
namespace json = llvm::json;

static constexpr llvm::StringLiteral kFormat = "quantc-quantization-report";
static constexpr int64_t kVersion = 1;

/// A SQNR for JSON: a number, "inf" for an exact tensor, null for a zero
/// signal (JSON has no infinity).
static json::Value sqnrValue(double signal, double error) {
  std::optional<double> db = sqnrDb(signal, error);
  if (!db)
    return nullptr;
  if (std::isinf(*db))
    return "inf";
  return *db;
}

/// A dB figure for JSON: "inf" / "-inf" where infinite.
static json::Value dbValue(double db) {
  if (std::isinf(db))
    return db > 0 ? "inf" : "-inf";
  return db;
}

template <typename T> static json::Array toArray(const std::vector<T> &values) {
  json::Array array;
  for (const T &v : values)
    array.push_back(v);
  return array;
}

static json::Value toJSON(const WeightReport &w) {
  auto [lo, hi] = std::minmax_element(w.scales.begin(), w.scales.end());
  return json::Object{
      {"name", w.name},
      {"observer", toJSON(w.config)},
      {"channels", static_cast<int64_t>(w.scales.size())},
      {"scale_min", *lo},
      {"scale_max", *hi},
      {"min", w.min},
      {"max", w.max},
      {"sqnr_db", sqnrValue(w.signal, w.error)},
  };
}

static json::Value toJSON(const LayerReport &l) {
  json::Array weights;
  for (const WeightReport &w : l.weights)
    weights.push_back(toJSON(w));
  return json::Object{
      {"name", l.name},
      {"op", l.op},
      {"int8_op", l.int8Op},
      {"fused_layers", toArray(l.fusedLayers)},
      {"location", l.location},
      {"shape", toArray(l.shape)},
      {"observer", l.fixedRange
                       ? json::Value(json::Object{
                             {"kind", "fixed"},
                             {"range", json::Array{l.fixedRange->first,
                                                   l.fixedRange->second}}})
                       : toJSON(l.config)},
      {"observer_choice", l.choice ? toJSON(*l.choice) : json::Value(nullptr)},
      {"dtype", obs::toString(l.config.dtype)},
      {"quant_min", l.qmin},
      {"quant_max", l.qmax},
      {"observed_min", l.min},
      {"observed_max", l.max},
      {"observer_min", l.observerMin},
      {"observer_max", l.observerMax},
      {"clip_min", l.clipMin},
      {"clip_max", l.clipMax},
      {"scale", l.scale},
      {"zero_point", l.zeroPoint},
      {"grid_min", l.gridMin},
      {"grid_max", l.gridMax},
      {"values", l.count},
      {"clipped", l.clipped},
      {"clipped_fraction",
       l.count ? static_cast<double>(l.clipped) / l.count : 0.0},
      {"sqnr_alone_db", sqnrValue(l.signal, l.errorAlone)},
      {"sqnr_cumulative_db", sqnrValue(l.signal, l.errorCumulative)},
      {"sums", json::Object{{"signal", l.signal},
                            {"error_alone", l.errorAlone},
                            {"error_cumulative", l.errorCumulative}}},
      {"histogram", json::Object{{"min", l.histMin},
                                 {"max", l.histMax},
                                 {"counts", toArray(l.histogram)}}},
      {"weights", std::move(weights)},
  };
}

/// One model output: int8 against float (see OutputReport).
static json::Value toJSON(const OutputReport &o) {
  json::Object out{
      {"name", o.name},
      {"index", o.index},
      {"shape", toArray(o.shape)},
      {"dtype", o.dtype},
      {"sqnr_db",
       o.isFloat() ? sqnrValue(o.signal, o.error) : json::Value(nullptr)},
      {"max_abs_error", o.maxAbsError},
      {"elements", o.elements},
      {"classifier", o.classifier},
      {"sums", json::Object{{"signal", o.signal}, {"error", o.error}}},
      {"produced", json::Object{{"form", o.produced.form},
                                {"op", o.produced.op},
                                {"layer", o.produced.layer}}},
  };
  if (!o.isFloat())
    out["agreement"] =
        o.elements ? json::Value(static_cast<double>(o.equal) / o.elements)
                   : json::Value(nullptr);
  if (o.classifier) {
    out["rows"] = o.rows;
    out["top1_agreement"] =
        o.rows ? json::Value(static_cast<double>(o.top1Agree) / o.rows)
               : json::Value(nullptr);
  }
  return out;
}

/// The summary's figures over several outputs, each the worst output's:
/// top-1 agreement of the classifier outputs, and for integer outputs
/// (ArgMax indices) the fraction of equal elements.
static void addWorstAgreements(const ModelReport &r, json::Object &summary) {
  const OutputReport *classifier = nullptr, *integer = nullptr;
  auto fraction = [](int64_t part, int64_t whole) {
    return whole ? static_cast<double>(part) / whole : 1.0;
  };
  for (const OutputReport &o : r.outputs) {
    if (o.classifier &&
        (!classifier || fraction(o.top1Agree, o.rows) <
                            fraction(classifier->top1Agree, classifier->rows)))
      classifier = &o;
    if (!o.isFloat() &&
        (!integer || fraction(o.equal, o.elements) <
                         fraction(integer->equal, integer->elements)))
      integer = &o;
  }
  summary["classifier"] = classifier != nullptr;
  summary["rows"] = classifier ? classifier->rows : 0;
  summary["top1_agreement"] =
      classifier && classifier->rows
          ? json::Value(fraction(classifier->top1Agree, classifier->rows))
          : json::Value(nullptr);
  if (integer) {
    summary["output_dtype"] = integer->dtype;
    summary["output_agreement"] =
        integer->elements
            ? json::Value(fraction(integer->equal, integer->elements))
            : json::Value(nullptr);
  }
}

std::vector<const LayerReport *> quantc::worstLayers(const ModelReport &r) {
  std::vector<const LayerReport *> order;
  for (const LayerReport &l : r.layers)
    order.push_back(&l);
  auto key = [](const LayerReport *l) {
    return sqnrDb(l->signal, l->errorCumulative).value_or(INFINITY);
  };
  llvm::stable_sort(order, [&](const LayerReport *a, const LayerReport *b) {
    return key(a) < key(b);
  });
  return order;
}

/// A candidate of the accuracy budget: its measured sensitivity and MACs.
static json::Object toJSON(const LayerSensitivity &l, int64_t totalMacs) {
  return json::Object{
      {"name", l.name},
      {"sensitivity_db", dbValue(l.gainDb)},
      {"macs", l.macs},
      {"macs_fraction",
       totalMacs ? static_cast<double>(l.macs) / totalMacs : 0.0}};
}

/// An optional SQNR (dB) for JSON: null for none.
static json::Value dbValue(std::optional<double> db) {
  return db ? dbValue(*db) : json::Value(nullptr);
}

/// The accuracy budget's float outputs: each one's target (null: not
/// constrained) and the real int8 model's SQNR before and after.
static json::Array budgetOutputs(const BudgetResult &b) {
  json::Array outputs;
  for (const OutputBudget &o : b.outputs)
    outputs.push_back(json::Object{{"name", o.name},
                                   {"index", o.index},
                                   {"min_sqnr_db", dbValue(o.target)},
                                   {"sqnr_before_db", dbValue(o.sqnrBefore)},
                                   {"sqnr_after_db", dbValue(o.sqnrAfter)},
                                   {"met", o.met()}});
  return outputs;
}

/// The accuracy budget: what it asked, the layers it keeps in float (most
/// sensitive first), the real int8 model's SQNR (the worst output's, and
/// per output) and speed before and after and at each number of float
/// layers it tried, every candidate.
static json::Object budgetToJSON(const BudgetResult &b) {
  json::Array floats, ranking;
  for (const LayerSensitivity &l : b.floatLayers)
    floats.push_back(toJSON(l, b.totalMacs));
  json::Array checks;
  for (const BudgetCheck &c : b.checks) {
    json::Array outputs;
    for (std::optional<double> db : c.outputsDb)
      outputs.push_back(dbValue(db));
    checks.push_back(json::Object{{"float_layers", c.floatLayers},
                                  {"output_sqnr_db", dbValue(c.sqnrDb)},
                                  {"outputs_sqnr_db", std::move(outputs)}});
  }
  for (const LayerSensitivity &l : b.ranking)
    ranking.push_back(toJSON(l, b.totalMacs));
  return json::Object{{"min_output_sqnr_db", dbValue(b.minOutputSqnr.all)},
                      {"met", b.met},
                      {"data", toArray(b.sources)},
                      {"on_calibration_data", b.onCalibrationData},
                      {"samples", b.samples},
                      {"outputs", budgetOutputs(b)},
                      {"output_sqnr_before_db", dbValue(b.sqnrBefore)},
                      {"output_sqnr_after_db", dbValue(b.sqnrAfter)},
                      {"float_layers", std::move(floats)},
                      {"total_macs", b.totalMacs},
                      {"int8_isa", b.isa},
                      {"ms_per_run_before", b.msBefore},
                      {"ms_per_run_after", b.msAfter},
                      {"int8_checks", std::move(checks)},
                      {"ranking", std::move(ranking)}};
}

json::Value quantc::toJSON(const ModelReport &r) {
  json::Array layers, worst;
  for (const LayerReport &l : r.layers)
    layers.push_back(::toJSON(l));
  std::vector<const LayerReport *> order = worstLayers(r);
  for (const LayerReport *l : llvm::ArrayRef(order).take_front(5))
    worst.push_back(json::Object{
        {"name", l->name},
        {"sqnr_cumulative_db", sqnrValue(l->signal, l->errorCumulative)},
        {"sqnr_alone_db", sqnrValue(l->signal, l->errorAlone)}});
  json::Array floatOps;
  for (const FloatOp &f : r.floatOps)
    floatOps.push_back(json::Object{{"op", f.op}, {"layer", f.layer}});
  json::Array outputs;
  for (const OutputReport &o : r.outputs)
    outputs.push_back(::toJSON(o));
  const OutputReport *worstOut = worstOutput(r);
  const OutputReport *first = r.outputs.empty() ? nullptr : &r.outputs[0];
  json::Object summary{
      {"output_shape", first ? toArray(first->shape) : json::Array()},
      {"output_sqnr_db", worstOut ? sqnrValue(worstOut->signal, worstOut->error)
                                  : json::Value(nullptr)},
      {"worst_output",
       worstOut ? json::Value(worstOut->name) : json::Value(nullptr)},
      {"outputs", std::move(outputs)},
      {"layers", static_cast<int64_t>(r.layers.size())},
      {"worst_layers", std::move(worst)},
  };
  addWorstAgreements(r, summary);
  json::Object out{
      {"format", kFormat},
      {"version", kVersion},
      {"tool", kToolVersion},
      {"function", r.function},
      {"samples", r.samples},
      {"sources", toArray(r.sources)},
      {"int8_executor", r.int8Executor},
      {"summary", std::move(summary)},
      {"layers", std::move(layers)},
      {"float_ops", std::move(floatOps)},
  };
  if (r.budget)
    out["accuracy_budget"] = budgetToJSON(*r.budget);
  return out;
}

namespace {
/// The files of a report in `dir`: report.json, report.html.
struct ReportPaths {
  explicit ReportPaths(llvm::StringRef dir) : json(dir), html(dir) {
    llvm::sys::path::append(json, "report.json");
    llvm::sys::path::append(html, "report.html");
  }
  llvm::SmallString<256> json, html;
};

/// How a report file may be written: a new name or a regular file (no
/// standard output, no device).
OutputOptions reportOptions() {
  OutputOptions options;
  options.option = "--report";
  options.allowStdout = false;
  return options;
}
} // namespace

Error quantc::checkReportOutputs(llvm::StringRef dir, OutputSet &outputs) {
  ReportPaths paths(dir);
  if (Error e = outputs.check(paths.json, reportOptions()))
    return e;
  return outputs.check(paths.html, reportOptions());
}

Error quantc::writeReport(llvm::StringRef dir, const ModelReport &report,
                          OutputSet *outputs) {
  OutputSet own;
  OutputSet &set = outputs ? *outputs : own;
  OutputOptions options = reportOptions();
  ReportPaths paths(dir);
  const llvm::SmallString<256> &json = paths.json, &html = paths.html;
  llvm::Expected<llvm::raw_pwrite_stream &> jsonFile = set.open(json, options);
  if (!jsonFile)
    return jsonFile.takeError();
  *jsonFile << llvm::formatv("{0:2}", toJSON(report)) << "\n";
  llvm::Expected<llvm::raw_pwrite_stream &> htmlFile = set.open(html, options);
  if (!htmlFile)
    return htmlFile.takeError();
  writeHtml(report, *htmlFile);
  return outputs ? Error::success() : own.commit();
}
