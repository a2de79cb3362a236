//===- Html.cpp - The report as a self-contained HTML page ----------------===//
//
// One page, no network: a summary, a table of every layer (click a header
// to sort), and per layer its numbers and an inline SVG histogram of the
// float activation with the observed range, the clipping range and the
// quantization grid's ends marked. The page is well-formed XML (closed
// tags, escaped text, scripts in CDATA) so tests can parse it; the JSON
// report is embedded for scripts.
//
//===----------------------------------------------------------------------===//

#include "quantc/Report/Report.h"
#include "quantc/Support/Text.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>

using namespace quantc;
using llvm::raw_ostream;

namespace {

/// `text` escaped for XML/HTML text and attribute values. Names come from
/// models: invalid UTF-8 becomes U+FFFD and control characters, which XML
/// allows in no form, the text \xNN, so that the page stays well-formed.
std::string escape(llvm::StringRef raw) {
  std::string out;
  for (char c : quantc::validUtf8(raw)) {
    auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\t' && c != '\n' && c != '\r') || byte == 0x7f) {
      out += "\\x";
      out += llvm::hexdigit(byte >> 4);
      out += llvm::hexdigit(byte & 15);
      continue;
    }
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string num(double v) {
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  return llvm::formatv("{0}", llvm::format("%.4g", v)).str();
}

/// An auto observer's candidates and scores, the chosen one in bold, and
/// the consumers the score measures (HTML).
std::string choiceScores(const quantc::ObserverChoice &choice) {
  std::string out;
  for (const auto &[kind, score] : choice.scores) {
    bool chosen = kind == choice.kind;
    out += std::string(out.empty() ? "" : ", ") + (chosen ? "<b>" : "") +
           quantc::obs::toString(kind) + " " + num(score) +
           (chosen ? "</b>" : "");
  }
  return out + " (output MSE of " + escape(choice.consumers) + ")";
}

std::string db(std::optional<double> v) {
  if (!v)
    return "n/a";
  return std::isinf(*v) ? "exact" : llvm::formatv("{0:f1}", *v).str();
}

/// A CSS class for a SQNR cell: good (>= 30 dB), fair (>= 20), poor.
const char *grade(std::optional<double> v) {
  if (!v || *v >= 30)
    return "good";
  return *v >= 20 ? "fair" : "poor";
}

/// Sort key of a SQNR cell (exact and n/a sort last).
std::string sortKey(std::optional<double> v) {
  return v && !std::isinf(*v) ? num(*v) : "1e9";
}

constexpr const char *kStyle = R"(
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { background: #eee; cursor: pointer; }
td.name, th.name { text-align: left; }
td.good { background: #dfd; } td.fair { background: #ffd; }
td.poor { background: #fdd; }
section.layer { border-top: 1px solid #999; margin-top: 1.5em; }
code { background: #f4f4f4; }
svg text { font-size: 11px; font-family: sans-serif; }
svg .bars { fill: #4a7ab5; }
body.linear svg .log, body:not(.linear) svg .lin { display: none; }
.legend span { margin-right: 1.2em; }
)";

constexpr const char *kScript = R"(
function sortTable(th) {
  var table = th.closest('table'), col = th.cellIndex;
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var up = th.dataset.up !== '1';
  th.dataset.up = up ? '1' : '0';
  rows.sort(function (a, b) {
    var x = a.cells[col].dataset.key || a.cells[col].textContent;
    var y = b.cells[col].dataset.key || b.cells[col].textContent;
    var nx = parseFloat(x), ny = parseFloat(y);
    var r = isNaN(nx) || isNaN(ny) ? x.localeCompare(y) : nx - ny;
    return up ? r : -r;
  });
  rows.forEach(function (r) { table.tBodies[0].appendChild(r); });
}
document.querySelectorAll('table.sortable th').forEach(function (th) {
  th.addEventListener('click', function () { sortTable(th); });
});
document.getElementById('linear').addEventListener('change', function (e) {
  document.body.classList.toggle('linear', e.target.checked);
});
var report = JSON.parse(document.getElementById('report-data').textContent);
)";

/// The histogram of `l` with its ranges marked.
void writeHistogram(const LayerReport &l, raw_ostream &os) {
  const double width = 720, height = 220, left = 50, right = 20, top = 24,
               bottom = 40;
  const double plotW = width - left - right, plotH = height - top - bottom;
  auto x = [&](double v) {
    return left + (v - l.histMin) /
                      (static_cast<double>(l.histMax) - l.histMin) * plotW;
  };
  int64_t peak = 1;
  for (int64_t c : l.histogram)
    peak = std::max(peak, c);
  double barW = plotW / static_cast<double>(l.histogram.size());
  os << llvm::formatv("<svg class=\"histogram\" width=\"{0}\" height=\"{1}\" "
                      "viewBox=\"0 0 {0} {1}\" role=\"img\">\n",
                      width, height);
  os << "<title>" << escape(l.name) << ": float activation histogram</title>\n";
  // Values the grid clips: shaded.
  double gx0 = x(l.gridMin), gx1 = x(l.gridMax);
  if (gx0 > left)
    os << llvm::formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" "
                        "height=\"{3}\" fill=\"#fbe3e3\"/>\n",
                        left, top, gx0 - left, plotH);
  if (gx1 < left + plotW)
    os << llvm::formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" "
                        "height=\"{3}\" fill=\"#fbe3e3\"/>\n",
                        gx1, top, left + plotW - gx1, plotH);
  // Bars, on a log and a linear count scale.
  for (bool log : {true, false}) {
    os << "<path class=\"bars " << (log ? "log" : "lin") << "\" d=\"";
    for (size_t i = 0; i < l.histogram.size(); ++i) {
      int64_t c = l.histogram[i];
      if (c == 0)
        continue;
      double h = log ? std::log1p(static_cast<double>(c)) /
                           std::log1p(static_cast<double>(peak))
                     : static_cast<double>(c) / peak;
      h = std::max(h * plotH, 1.0);
      os << llvm::formatv(
          "M{0:f2} {1:f2}h{2:f2}v{3:f2}h{4:f2}z", left + i * barW, top + plotH,
          std::max(barW - 0.3, 0.3), -h, -std::max(barW - 0.3, 0.3));
    }
    os << "\"/>\n";
  }
  auto line = [&](double v, const char *color, const char *dash,
                  const std::string &label, double labelY) {
    double px = x(v);
    os << llvm::formatv(
        "<line x1=\"{0:f2}\" y1=\"{1}\" x2=\"{0:f2}\" "
        "y2=\"{2}\" stroke=\"{3}\" stroke-width=\"1.5\"{4}/>\n",
        px, top - 4, top + plotH, color,
        dash[0] ? llvm::formatv(" stroke-dasharray=\"{0}\"", dash).str()
                : std::string());
    os << llvm::formatv("<text x=\"{0:f2}\" y=\"{1}\" fill=\"{2}\" "
                        "text-anchor=\"middle\">{3}</text>\n",
                        px, labelY, color, escape(label));
  };
  line(l.min, "#777", "2,2", "min", top - 8);
  line(l.max, "#777", "2,2", "max", top - 8);
  line(l.gridMin, "#1f5fbf", "6,3", "qmin", height - 6);
  line(l.gridMax, "#1f5fbf", "6,3", "qmax", height - 6);
  line(l.clipMin, "#c0392b", "", "clip", top + 10);
  line(l.clipMax, "#c0392b", "", "clip", top + 10);
  // Axes with the ends and zero.
  os << llvm::formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" "
                      "stroke=\"#333\"/>\n",
                      left, top + plotH, left + plotW);
  auto tick = [&](double v, const char *anchor) {
    os << llvm::formatv("<text x=\"{0:f2}\" y=\"{1}\" text-anchor=\"{2}\">"
                        "{3}</text>\n",
                        x(v), top + plotH + 14, anchor, escape(num(v)));
  };
  tick(l.histMin, "start");
  tick(l.histMax, "end");
  if (l.histMin < 0 && l.histMax > 0 && x(0) - left > 40 &&
      left + plotW - x(0) > 40)
    tick(0, "middle");
  os << llvm::formatv("<text x=\"4\" y=\"{0}\" class=\"log\">log</text>\n"
                      "<text x=\"4\" y=\"{0}\" class=\"lin\">linear</text>\n"
                      "<text x=\"4\" y=\"{1}\">{2}</text>\n",
                      top + plotH / 2, top + 8, peak);
  os << "</svg>\n";
}

void writeLayer(const LayerReport &l, size_t index, raw_ostream &os) {
  std::optional<double> alone = sqnrDb(l.signal, l.errorAlone);
  std::optional<double> cumulative = sqnrDb(l.signal, l.errorCumulative);
  os << "<section class=\"layer\" id=\"layer-" << index << "\">\n";
  os << "<h2>" << escape(l.name) << "</h2>\n<p><code>" << escape(l.op)
     << "</code> (int8: <code>" << escape(l.int8Op) << "</code>)";
  if (!l.fusedLayers.empty())
    os << " fusing " << escape(llvm::join(l.fusedLayers, ", "));
  os << "; shape "
     << escape(llvm::join(
            llvm::map_range(l.shape,
                            [](int64_t d) { return std::to_string(d); }),
            "x"));
  if (l.fixedRange)
    os << "; no observer: parameters fixed by the function's range ["
       << num(l.fixedRange->first) << ", " << num(l.fixedRange->second) << "] ("
       << obs::toString(l.config.dtype) << ", [" << l.qmin << ", " << l.qmax
       << "])";
  else {
    os << "; observer <code>" << obs::toString(l.config.kind) << "</code> ("
       << obs::toString(l.config.dtype) << ", "
       << obs::toString(l.config.qscheme) << ", [" << l.qmin << ", " << l.qmax
       << "]";
    if (obs::usesHistogram(l.config.kind))
      os << ", " << l.config.bins << " bins";
    os << ")";
    if (l.choice)
      os << ", chosen by --activation-observer=auto: "
         << choiceScores(*l.choice);
  }
  os << "</p>\n<table>\n<tbody>\n";
  auto row = [&](const char *what, const std::string &value) {
    os << "<tr><td class=\"name\">" << what << "</td><td>" << value
       << "</td></tr>\n";
  };
  row("observed FP32 range", "[" + num(l.min) + ", " + num(l.max) + "]");
  row("observer min / max",
      "[" + num(l.observerMin) + ", " + num(l.observerMax) + "]");
  row("clipping range", "[" + num(l.clipMin) + ", " + num(l.clipMax) + "]");
  row("scale / zero point", num(l.scale) + " / " + std::to_string(l.zeroPoint));
  row("grid [qmin, qmax] in FP32",
      "[" + num(l.gridMin) + ", " + num(l.gridMax) + "]");
  row("values clipped",
      std::to_string(l.clipped) + " of " + std::to_string(l.count) + " (" +
          num(l.count ? 100.0 * l.clipped / l.count : 0.0) + " %)");
  row("SQNR, tensor alone", db(alone) + " dB");
  row("SQNR, int8 model up to here", db(cumulative) + " dB");
  for (const WeightReport &w : l.weights) {
    auto [lo, hi] = std::minmax_element(w.scales.begin(), w.scales.end());
    row(("weight " + escape(w.name)).c_str(),
        std::string(obs::toString(w.config.kind)) + ", " +
            std::to_string(w.scales.size()) + " scale(s) in [" + num(*lo) +
            ", " + num(*hi) + "], range [" + num(w.min) + ", " + num(w.max) +
            "], SQNR " + db(sqnrDb(w.signal, w.error)) + " dB");
  }
  os << "</tbody>\n</table>\n";
  writeHistogram(l, os);
  os << "</section>\n";
}

/// The accuracy budget's outputs: SQNR before -> after, and the target.
std::string budgetOutputs(const BudgetResult &b) {
  std::string out;
  for (const OutputBudget &o : b.outputs)
    out += escape(o.name) + " " + db(o.sqnrBefore) + " -> " + db(o.sqnrAfter) +
           (o.target ? std::string(o.met() ? " &gt;= " : " <b>&lt;</b> ") +
                           num(*o.target)
                     : std::string(" (no target)")) +
           "; ";
  return out;
}

/// How an output is produced, in words.
std::string productionText(const OutputProduction &p) {
  std::string by = p.layer.empty() ? p.op : p.layer + " (" + p.op + ")";
  if (p.form == "dequantized_accumulator")
    return "float, from the int32 accumulator of " + by;
  if (p.form == "int8")
    return "8-bit tensor of " + by + ", dequantized";
  if (p.form == "float")
    return "float, computed by " + by;
  return p.form;
}

/// The table of the model's outputs, each int8 against float.
void writeOutputs(const ModelReport &r, raw_ostream &os) {
  os << "<table id=\"outputs\">\n<thead><tr><th>#</th>"
        "<th class=\"name\">output</th><th class=\"name\">shape</th>"
        "<th class=\"name\">dtype</th><th>SQNR (dB)</th>"
        "<th>max |float - int8|</th><th class=\"name\">agreement</th>"
        "<th class=\"name\">produced</th></tr></thead>\n<tbody>\n";
  for (const OutputReport &o : r.outputs) {
    std::optional<double> sqnr = o.sqnr();
    std::string shape;
    for (int64_t d : o.shape)
      shape += (shape.empty() ? "" : "x") + std::to_string(d);
    std::string agreement;
    if (o.classifier && o.rows)
      agreement = "top-1 " + num(100.0 * o.top1Agree / o.rows) + " % of " +
                  std::to_string(o.rows) + " rows";
    else if (!o.isFloat() && o.elements)
      agreement = num(100.0 * o.equal / o.elements) + " % of " +
                  std::to_string(o.elements) + " elements equal";
    os << "<tr><td>" << o.index << "</td><td class=\"name\">" << escape(o.name)
       << "</td><td class=\"name\">" << shape << "</td><td class=\"name\">"
       << escape(o.dtype) << "</td><td class=\""
       << (o.isFloat() ? grade(sqnr) : "") << "\">"
       << (o.isFloat() ? db(sqnr) : "") << "</td><td>" << num(o.maxAbsError)
       << "</td><td class=\"name\">" << agreement << "</td><td class=\"name\">"
       << escape(productionText(o.produced)) << "</td></tr>\n";
  }
  os << "</tbody>\n</table>\n";
}

/// The JSON for a <script> element: no '<', '>' or '&' (so neither HTML nor
/// XML parsing sees markup), still valid JSON.
std::string scriptJson(const ModelReport &report) {
  std::string text = llvm::formatv("{0}", toJSON(report)).str();
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else
      out += c;
  }
  return out;
}

} // namespace

void quantc::writeHtml(const ModelReport &r, raw_ostream &os) {
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\"/>\n<title>Quantization report: "
     << escape(r.function) << "</title>\n<style>" << kStyle
     << "</style>\n</head>\n<body>\n";
  os << "<h1>Quantization report: <code>" << escape(r.function)
     << "</code></h1>\n";
  os << "<section id=\"summary\">\n<table>\n<tbody>\n";
  auto row = [&](const char *what, const std::string &value,
                 const char *cls = "") {
    os << "<tr><td class=\"name\">" << what << "</td><td class=\"" << cls
       << "\">" << value << "</td></tr>\n";
  };
  row("calibration samples (model runs)", std::to_string(r.samples));
  row("int8 activations from", escape(r.int8Executor));
  if (const OutputReport *worst = worstOutput(r)) {
    std::optional<double> out = worst->sqnr();
    row("output SQNR, int8 vs float (the worst output)",
        db(out) + " dB (" + escape(worst->name) + ")", grade(out));
  }
  row("model outputs (table below)", std::to_string(r.outputs.size()));
  row("quantized activations", std::to_string(r.layers.size()));
  std::string floats = r.floatOps.empty() ? "none" : "";
  for (const FloatOp &f : r.floatOps)
    floats += escape(f.op) +
              (f.layer.empty() ? "" : " (" + escape(f.layer) + ")") + " ";
  row("ops computed in float", floats);
  if (r.budget) {
    const BudgetResult &b = *r.budget;
    std::string kept = b.floatLayers.empty() ? "none" : "";
    int64_t macs = 0;
    for (const LayerSensitivity &l : b.floatLayers) {
      kept += escape(l.name) + " (+" + num(l.gainDb) + " dB, " +
              num(100.0 * l.macs / std::max<int64_t>(b.totalMacs, 1)) +
              " % of MACs) ";
      macs += l.macs;
    }
    std::string asked = b.minOutputSqnr.empty()
                            ? std::string("accuracy budget: ranking alone")
                            : "accuracy budget: output SQNR >= " +
                                  escape(b.minOutputSqnr.str());
    row(asked.c_str(),
        std::string(b.met ? "met" : "<b>not met</b>") + ": " +
            num(b.sqnrBefore) + " dB all int8, " + num(b.sqnrAfter) +
            " dB with " + std::to_string(b.floatLayers.size()) +
            " layer(s) in float (" +
            num(100.0 * macs / std::max<int64_t>(b.totalMacs, 1)) +
            " % of the MACs; " + num(b.msBefore) + " -> " + num(b.msAfter) +
            " ms per run, " + escape(b.isa) + ", " + std::to_string(b.samples) +
            " runs of " +
            (b.onCalibrationData ? "the calibration data" : "validation data") +
            ")");
    row("layers in float for the budget (sensitivity: simulated output SQNR "
        "gained alone, the worst output's)",
        kept);
    row("budget per output: SQNR all int8 -> as built (dB)", budgetOutputs(b));
  }
  std::vector<const LayerReport *> worst = worstLayers(r);
  std::string names;
  for (const LayerReport *l : llvm::ArrayRef(worst).take_front(5)) {
    size_t index = l - r.layers.data();
    names += "<a href=\"#layer-" + std::to_string(index) + "\">" +
             escape(l->name) + "</a> (" +
             db(sqnrDb(l->signal, l->errorCumulative)) + " dB) ";
  }
  row("worst layers (cumulative SQNR)", names);
  os << "</tbody>\n</table>\n";
  writeOutputs(r, os);
  os << "<p><label><input type=\"checkbox\" id=\"linear\"/> linear count "
        "scale in the histograms (default: log)</label></p>\n";
  os << "<p class=\"legend\"><span style=\"color:#777\">dotted grey: "
        "observed min / max</span><span style=\"color:#c0392b\">red: "
        "clipping range the observer chose</span><span "
        "style=\"color:#1f5fbf\">dashed blue: quantization grid ends "
        "(qmin, qmax)</span><span style=\"background:#fbe3e3\">shaded: values "
        "the grid clips</span></p>\n";
  os << "</section>\n";

  os << "<section id=\"layers\">\n<table class=\"sortable\">\n<thead><tr>"
        "<th>#</th><th class=\"name\">layer</th><th class=\"name\">op</th>"
        "<th class=\"name\">int8 op</th>"
        "<th class=\"name\">observer</th>"
        "<th class=\"name\">auto: score per candidate</th>"
        "<th>observed min</th>"
        "<th>observed max</th><th>clip min</th><th>clip max</th>"
        "<th>scale</th><th>zero point</th><th>clipped %</th>"
        "<th>SQNR alone (dB)</th><th>SQNR cumulative (dB)</th></tr></thead>\n"
        "<tbody>\n";
  for (auto [i, l] : llvm::enumerate(r.layers)) {
    std::optional<double> alone = sqnrDb(l.signal, l.errorAlone);
    std::optional<double> cumulative = sqnrDb(l.signal, l.errorCumulative);
    os << "<tr><td>" << i << "</td><td class=\"name\"><a href=\"#layer-" << i
       << "\">" << escape(l.name) << "</a></td><td class=\"name\">"
       << escape(l.op) << "</td><td class=\"name\">" << escape(l.int8Op)
       << "</td><td class=\"name\">"
       << (l.fixedRange ? "fixed" : obs::toString(l.config.kind))
       << "</td><td class=\"name\">"
       << (l.choice ? choiceScores(*l.choice) : std::string()) << "</td><td>"
       << num(l.min) << "</td><td>" << num(l.max) << "</td><td>"
       << num(l.clipMin) << "</td><td>" << num(l.clipMax) << "</td><td>"
       << num(l.scale) << "</td><td>" << l.zeroPoint << "</td><td>"
       << num(l.count ? 100.0 * l.clipped / l.count : 0.0)
       << "</td><td class=\"" << grade(alone) << "\" data-key=\""
       << sortKey(alone) << "\">" << db(alone) << "</td><td class=\""
       << grade(cumulative) << "\" data-key=\"" << sortKey(cumulative) << "\">"
       << db(cumulative) << "</td></tr>\n";
  }
  os << "</tbody>\n</table>\n</section>\n";
  for (auto [i, l] : llvm::enumerate(r.layers))
    writeLayer(l, i, os);
  os << "<script type=\"application/json\" id=\"report-data\">" << scriptJson(r)
     << "</script>\n";
  os << "<script>//<![CDATA[" << kScript << "//]]></script>\n";
  os << "</body>\n</html>\n";
}
