//===- QntAttrs.cpp - Attributes of the qnt dialect -----------------------===//
//
// Parsing/printing helpers and verifiers of the observer attributes. The
// quantized-range rules are PyTorch's and live in the calibration library.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntAttrs.h"
#include "dialects/Qnt/IR/QntDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"
#include <charconv>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::qnt;

#include "dialects/Qnt/IR/QntEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "dialects/Qnt/IR/QntAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// Exact float parameters
//===----------------------------------------------------------------------===//

FailureOr<FloatAttr> mlir::qnt::parseFloatParameter(AsmParser &parser,
                                                    unsigned width) {
  double value;
  if (parser.parseFloat(value))
    return failure();
  Builder builder(parser.getContext());
  if (width == 32)
    return builder.getF32FloatAttr(static_cast<float>(value));
  return builder.getF64FloatAttr(value);
}

/// Writes the shortest decimal that parses back to exactly `value` (of type
/// T), with the '.' that MLIR's float literal grammar requires.
template <typename T> static void printExact(AsmPrinter &printer, T value) {
  char buf[64];
  std::to_chars_result result = std::to_chars(buf, buf + sizeof(buf), value);
  std::string text(buf, result.ptr);
  if (text.find_first_of(".ni") == std::string::npos) {
    size_t e = text.find('e');
    text.insert(e == std::string::npos ? text.size() : e, ".0");
  }
  printer << text;
}

void mlir::qnt::printFloatParameter(AsmPrinter &printer, FloatAttr value) {
  if (value.getType().isF32())
    printExact(printer, static_cast<float>(value.getValueAsDouble()));
  else
    printExact(printer, value.getValueAsDouble());
}

void mlir::qnt::printF32Array(AsmPrinter &printer, DenseF32ArrayAttr values) {
  // DenseArrayAttr's own short form prints 7 significant digits, which does
  // not round-trip float32; calibrated ranges must survive print/parse.
  printer << '[';
  llvm::interleaveComma(values.asArrayRef(), printer,
                        [&](float v) { printExact(printer, v); });
  printer << ']';
}

void QntDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Qnt/IR/QntAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// ObserverConfigAttr
//===----------------------------------------------------------------------===//

namespace obs = quantc::obs;

static bool isMovingAverage(ObserverKind kind);
static bool keepsHistogram(ObserverKind kind);

static obs::Dtype toCalibDtype(QuantDtype dtype) {
  return dtype == QuantDtype::quint8 ? obs::Dtype::QUInt8 : obs::Dtype::QInt8;
}

/// Our enum and the library's list the kinds in the same order.
static obs::QScheme toCalibQScheme(QScheme qscheme) {
  return qscheme == QScheme::affine ? obs::QScheme::Affine
                                    : obs::QScheme::Symmetric;
}

static obs::ObserverKind toCalibKind(ObserverKind kind) {
  return static_cast<obs::ObserverKind>(static_cast<int>(kind));
}
static_assert(static_cast<int>(ObserverKind::mse) ==
              static_cast<int>(obs::ObserverKind::MSE));
static_assert(static_cast<int>(ObserverKind::automatic) ==
              static_cast<int>(obs::ObserverKind::Auto));

obs::ObserverConfig mlir::qnt::toObserverConfig(ObserverConfigAttr attr) {
  obs::ObserverConfig config;
  config.kind = toCalibKind(attr.getKind());
  config.dtype = toCalibDtype(attr.getDtype());
  config.qscheme = toCalibQScheme(attr.getQscheme());
  config.quantMin = attr.getQuantMin();
  config.quantMax = attr.getQuantMax();
  config.reduceRange = attr.getReduceRange();
  config.chAxis = attr.getChAxis().value_or(0);
  config.averagingConstant = attr.getAveragingConstantOrDefault();
  config.bins = attr.getBinsOrDefault();
  config.upsampleRate = attr.getUpsampleRateOrDefault();
  config.percentile = attr.getPercentileOrDefault();
  config.eps = attr.getEpsOrDefault();
  return config;
}

ObserverConfigAttr
mlir::qnt::getObserverConfigAttr(MLIRContext *ctx,
                                 const obs::ObserverConfig &config) {
  const obs::ObserverConfig defaults;
  Builder b(ctx);
  auto kind = static_cast<ObserverKind>(static_cast<int>(config.kind));
  bool movingAverage = isMovingAverage(kind), histogram = keepsHistogram(kind);
  auto f64If = [&](bool keep, double value, double dflt) {
    return keep && value != dflt ? b.getF64FloatAttr(value) : FloatAttr();
  };
  auto i64If = [&](bool keep, int64_t value, int64_t dflt) {
    return keep && value != dflt ? std::optional<int64_t>(value) : std::nullopt;
  };
  return ObserverConfigAttr::get(
      ctx, kind,
      config.dtype == obs::Dtype::QUInt8 ? QuantDtype::quint8
                                         : QuantDtype::qint8,
      config.qscheme == obs::QScheme::Affine ? QScheme::affine
                                             : QScheme::symmetric,
      config.quantMin, config.quantMax, config.reduceRange,
      obs::isPerChannel(config.kind) ? std::optional<int64_t>(config.chAxis)
                                     : std::nullopt,
      f64If(movingAverage, config.averagingConstant,
            defaults.averagingConstant),
      i64If(histogram, config.bins, defaults.bins),
      i64If(kind == ObserverKind::histogram, config.upsampleRate,
            defaults.upsampleRate),
      f64If(kind == ObserverKind::percentile, config.percentile,
            defaults.percentile),
      config.eps != defaults.eps ? b.getF32FloatAttr(config.eps) : FloatAttr());
}

quant::QuantizedType mlir::qnt::getQuantizedType(ObserverConfigAttr config,
                                                 const obs::QParams &qparams,
                                                 const obs::QuantRange &range,
                                                 std::optional<int64_t> axis) {
  MLIRContext *ctx = config.getContext();
  unsigned flags = config.getDtype() == QuantDtype::qint8
                       ? quant::QuantizationFlags::Signed
                       : 0;
  Type storage = IntegerType::get(ctx, 8);
  Type expressed = Float32Type::get(ctx);
  if (axis) {
    SmallVector<double> scales(qparams.scale.begin(), qparams.scale.end());
    SmallVector<int64_t> zeroPoints(qparams.zeroPoint.begin(),
                                    qparams.zeroPoint.end());
    return quant::UniformQuantizedPerAxisType::get(flags, storage, expressed,
                                                   scales, zeroPoints, *axis,
                                                   range.qmin, range.qmax);
  }
  return quant::UniformQuantizedType::get(
      flags, storage, expressed, qparams.scale[0], qparams.zeroPoint[0],
      range.qmin, range.qmax);
}

obs::ObserverState mlir::qnt::toObserverState(ObserverStateAttr attr) {
  obs::ObserverState state;
  state.batches = attr.getBatches();
  state.min.assign(attr.getMin().asArrayRef().begin(),
                   attr.getMin().asArrayRef().end());
  state.max.assign(attr.getMax().asArrayRef().begin(),
                   attr.getMax().asArrayRef().end());
  if (attr.getHistogram()) {
    state.histogram.assign(attr.getHistogram().asArrayRef().begin(),
                           attr.getHistogram().asArrayRef().end());
    state.histMin = attr.getHistMin().getValueAsDouble();
    state.histMax = attr.getHistMax().getValueAsDouble();
  }
  return state;
}

ObserverStateAttr
mlir::qnt::getObserverStateAttr(MLIRContext *ctx,
                                const obs::ObserverState &state) {
  Builder b(ctx);
  bool hist = !state.histogram.empty();
  return ObserverStateAttr::get(
      ctx, state.batches, DenseF32ArrayAttr::get(ctx, state.min),
      DenseF32ArrayAttr::get(ctx, state.max),
      hist ? DenseF32ArrayAttr::get(ctx, state.histogram) : DenseF32ArrayAttr(),
      hist ? b.getF32FloatAttr(state.histMin) : FloatAttr(),
      hist ? b.getF32FloatAttr(state.histMax) : FloatAttr());
}

bool ObserverConfigAttr::isPerChannel() const {
  return getKind() == ObserverKind::per_channel_min_max ||
         getKind() == ObserverKind::per_channel_moving_average_min_max;
}

static bool isMovingAverage(ObserverKind kind) {
  return kind == ObserverKind::moving_average_min_max ||
         kind == ObserverKind::per_channel_moving_average_min_max;
}

static bool keepsHistogram(ObserverKind kind) {
  return kind == ObserverKind::histogram || kind == ObserverKind::percentile ||
         kind == ObserverKind::entropy || kind == ObserverKind::mse ||
         kind == ObserverKind::automatic;
}

bool ObserverConfigAttr::hasHistogram() const {
  return keepsHistogram(getKind());
}

double ObserverConfigAttr::getAveragingConstantOrDefault() const {
  return getAveragingConstant() ? getAveragingConstant().getValueAsDouble()
                                : 0.01;
}
int64_t ObserverConfigAttr::getBinsOrDefault() const {
  return getBins().value_or(2048);
}
int64_t ObserverConfigAttr::getUpsampleRateOrDefault() const {
  return getUpsampleRate().value_or(128);
}
double ObserverConfigAttr::getPercentileOrDefault() const {
  return getPercentile() ? getPercentile().getValueAsDouble() : 99.99;
}
float ObserverConfigAttr::getEpsOrDefault() const {
  return getEps() ? static_cast<float>(getEps().getValueAsDouble())
                  : std::numeric_limits<float>::epsilon();
}

LogicalResult ObserverConfigAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, ObserverKind kind,
    QuantDtype dtype, QScheme qscheme, std::optional<int64_t> quantMin,
    std::optional<int64_t> quantMax, bool reduceRange,
    std::optional<int64_t> chAxis, FloatAttr averagingConstant,
    std::optional<int64_t> bins, std::optional<int64_t> upsampleRate,
    FloatAttr percentile, FloatAttr eps) {
  // Which options a kind takes is a property of the attribute syntax; the
  // values themselves are checked by the observer library below.
  StringRef kindName = stringifyObserverKind(kind);
  auto notApplicable = [&](StringRef option) {
    return emitError() << option << " does not apply to observer kind '"
                       << kindName << "'";
  };
  bool perChannel = kind == ObserverKind::per_channel_min_max ||
                    kind == ObserverKind::per_channel_moving_average_min_max;
  if (perChannel && !chAxis)
    return emitError() << "observer kind '" << kindName << "' requires ch_axis";
  if (!perChannel && chAxis)
    return notApplicable("ch_axis");
  if (averagingConstant && !isMovingAverage(kind))
    return notApplicable("averaging_constant");
  if (bins && !keepsHistogram(kind))
    return notApplicable("bins");
  if (upsampleRate && kind != ObserverKind::histogram)
    return notApplicable("upsample_rate");
  if (percentile && kind != ObserverKind::percentile)
    return notApplicable("percentile");

  obs::ObserverConfig config;
  config.kind = toCalibKind(kind);
  config.dtype = toCalibDtype(dtype);
  config.qscheme = toCalibQScheme(qscheme);
  config.quantMin = quantMin;
  config.quantMax = quantMax;
  config.reduceRange = reduceRange;
  if (averagingConstant)
    config.averagingConstant = averagingConstant.getValueAsDouble();
  config.bins = bins.value_or(config.bins);
  config.upsampleRate = upsampleRate.value_or(config.upsampleRate);
  if (percentile)
    config.percentile = percentile.getValueAsDouble();
  if (eps)
    config.eps = eps.getValueAsDouble();
  if (quantc::Status s = config.validate(); s.failed())
    return emitError() << s.message();
  return success();
}

//===----------------------------------------------------------------------===//
// ObserverStateAttr
//===----------------------------------------------------------------------===//

LogicalResult
ObserverStateAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          int64_t batches, DenseF32ArrayAttr min,
                          DenseF32ArrayAttr max, DenseF32ArrayAttr histogram,
                          FloatAttr histMinAttr, FloatAttr histMaxAttr) {
  std::optional<float> histMin, histMax;
  if (histMinAttr)
    histMin = histMinAttr.getValueAsDouble();
  if (histMaxAttr)
    histMax = histMaxAttr.getValueAsDouble();
  if (batches < 1)
    return emitError() << "batches must be positive, got " << batches;
  if (min.empty() || min.size() != max.size())
    return emitError() << "min and max must have the same non-zero number of "
                          "values, got "
                       << min.size() << " and " << max.size();
  for (int64_t i = 0, e = min.size(); i < e; ++i) {
    float lo = min[i], hi = max[i];
    if (!std::isfinite(lo) || !std::isfinite(hi))
      return emitError() << "min/max must be finite, got [" << lo << ", " << hi
                         << "] at channel " << i;
    if (lo > hi)
      return emitError() << "min must not exceed max, got [" << lo << ", " << hi
                         << "] at channel " << i;
  }
  if (bool(histogram) != (histMin.has_value() && histMax.has_value()) ||
      histMin.has_value() != histMax.has_value())
    return emitError()
           << "histogram, hist_min and hist_max must be given together";
  if (histogram) {
    if (histogram.empty())
      return emitError() << "histogram must have at least one bin";
    // PyTorch's histogram combining can leave tiny negative counts, so only
    // finiteness is a property of every state; the observer library checks
    // the rest per kind.
    for (float count : histogram.asArrayRef())
      if (!std::isfinite(count))
        return emitError() << "histogram counts must be finite, got " << count;
    if (!std::isfinite(*histMin) || !std::isfinite(*histMax) ||
        *histMin > *histMax)
      return emitError() << "histogram range [" << *histMin << ", " << *histMax
                         << "] is not a finite, ordered range";
  }
  return success();
}
