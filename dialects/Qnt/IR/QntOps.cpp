//===- QntOps.cpp - Operations of the qnt dialect -------------------------===//
//
// Verifiers: everything the operand types cannot say on their own.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/UnaryFunctions.h"
#include "quantc/Reference/Reference.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include <cfloat>
#include <cmath>

using namespace mlir;
using namespace mlir::qnt;
using quant::QuantizedType;
using quant::UniformQuantizedPerAxisType;
using quant::UniformQuantizedType;

#define GET_OP_CLASSES
#include "dialects/Qnt/IR/QntInterfaces.cpp.inc"
#include "dialects/Qnt/IR/QntOps.cpp.inc"

std::optional<FusedClamp> mlir::qnt::fusedClamp(Operation *op) {
  auto clamp = dyn_cast_or_null<tosa::ClampOp>(op);
  if (!clamp)
    return std::nullopt;
  auto lo = dyn_cast<FloatAttr>(clamp.getMinValAttr());
  auto hi = dyn_cast<FloatAttr>(clamp.getMaxValAttr());
  if (!lo || !hi)
    return std::nullopt;
  return fusedClamp(op->getContext(), lo.getValueAsDouble(),
                    hi.getValueAsDouble());
}

FusedClamp mlir::qnt::fusedClamp(MLIRContext *ctx, double min, double max) {
  if (min == 0.0 && max >= FLT_MAX)
    return FusedClamp{Activation::relu, {}, {}};
  if (min == 0.0 && max == 6.0)
    return FusedClamp{Activation::relu6, {}, {}};
  Builder b(ctx);
  return FusedClamp{Activation::clamp, b.getF32FloatAttr(min),
                    b.getF32FloatAttr(max)};
}

bool mlir::qnt::movesStorage(Operation *op) {
  auto q = dyn_cast<QuantizableOpInterface>(op);
  return q && q.getQuantRole() == QuantRole::same_as_input && q.movesStorage();
}

SmallVector<std::string> mlir::qnt::getLayerNames(Location loc) {
  SmallVector<std::string> names;
  if (auto name = dyn_cast<NameLoc>(loc)) {
    names.push_back(name.getName().str());
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations())
      names.append(getLayerNames(inner));
  } else if (auto callSite = dyn_cast<CallSiteLoc>(loc)) {
    names.append(getLayerNames(callSite.getCallee()));
  }
  return names;
}

/// Returns `axis` in [0, rank) or nullopt when it is outside [-rank, rank).
static std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// ObserveOp
//===----------------------------------------------------------------------===//

std::optional<int64_t> ObserveOp::getNormalizedChannelAxis() {
  std::optional<int64_t> axis = getConfig().getChAxis();
  if (!axis)
    return std::nullopt;
  return normalizeAxis(*axis, getInput().getType().getRank());
}

quantc::StatusOr<quantc::obs::Observer>
ObserveOp::loadObserver(quantc::obs::RangeReduction reduction) {
  using quantc::Status;
  namespace obs = quantc::obs;
  obs::ObserverConfig config = toObserverConfig(getConfig());
  DenseElementsAttr constant;
  bool isConstant = matchPattern(getInput(), m_Constant(&constant));
  // Statistics do not depend on reduce_range; the parameters do. A config
  // that cannot be reduced (symmetric quint8) keeps its range: the int8
  // kernels then take their exact path where the range needs it.
  if (reduction == (isConstant ? obs::RangeReduction::Weights
                               : obs::RangeReduction::Activations)) {
    obs::ObserverConfig reduced = config;
    reduced.reduceRange = true;
    if (reduced.validate().ok())
      config = reduced;
  }
  quantc::StatusOr<obs::Observer> observer = obs::Observer::create(config);
  if (observer.failed())
    return observer.status();
  if (ObserverStateAttr state = getStateAttr()) {
    if (Status s = observer->setState(toObserverState(state)); s.failed())
      return Status::failure("invalid state: " + s.message());
    return std::move(*observer);
  }
  if (!isConstant)
    return Status::failure(
        "observer '" + getName().value_or("").str() +
        "' has no calibrated state: calibrate the model first");
  SmallVector<float> values(constant.getValues<float>());
  std::vector<int64_t> shape(getInput().getType().getShape());
  if (Status s = observer->observe(values.data(), shape); s.failed())
    return Status::failure("cannot observe constant: " + s.message());
  return std::move(*observer);
}

LogicalResult ObserveOp::verify() {
  ObserverConfigAttr config = getConfig();
  RankedTensorType type = getInput().getType();
  int64_t channels = 1;
  if (config.isPerChannel()) {
    std::optional<int64_t> axis = getNormalizedChannelAxis();
    if (!axis)
      return emitOpError() << "ch_axis " << *config.getChAxis()
                           << " is out of range for a tensor of rank "
                           << type.getRank();
    channels = type.getDimSize(*axis);
  }

  ObserverStateAttr state = getStateAttr();
  if (!state)
    return success();
  StringRef kindName = stringifyObserverKind(config.getKind());
  if (!ShapedType::isDynamic(channels) && state.getMin().size() != channels)
    return emitOpError() << "state has " << state.getMin().size()
                         << " min/max values but the observer has " << channels
                         << (config.isPerChannel() ? " channels along ch_axis"
                                                   : " (one per tensor)");
  if (config.hasHistogram() && !state.getHistogram())
    return emitOpError() << "observer kind '" << kindName
                         << "' needs a histogram in its state";
  if (!config.hasHistogram() && state.getHistogram())
    return emitOpError() << "observer kind '" << kindName
                         << "' keeps no histogram";
  if (state.getHistogram() &&
      state.getHistogram().size() != config.getBinsOrDefault())
    return emitOpError() << "state histogram has "
                         << state.getHistogram().size()
                         << " bins but the observer has "
                         << config.getBinsOrDefault();
  return success();
}

//===----------------------------------------------------------------------===//
// QuantizedTypesInRange
//===----------------------------------------------------------------------===//

LogicalResult mlir::qnt::verifyQuantizedType(Operation *op, Type type) {
  auto quantized = dyn_cast<QuantizedType>(type);
  if (!quantized)
    return success();
  SmallVector<int64_t> zeroPoints;
  if (auto perTensor = dyn_cast<UniformQuantizedType>(type))
    zeroPoints.push_back(perTensor.getZeroPoint());
  else if (auto perAxis = dyn_cast<UniformQuantizedPerAxisType>(type))
    llvm::append_range(zeroPoints, perAxis.getZeroPoints());
  for (int64_t zp : zeroPoints)
    if (zp < quantized.getStorageTypeMin() ||
        zp > quantized.getStorageTypeMax())
      return op->emitOpError() << "zero point " << zp << " of " << type
                               << " is outside its storage range ["
                               << quantized.getStorageTypeMin() << ", "
                               << quantized.getStorageTypeMax() << "]";
  return success();
}

//===----------------------------------------------------------------------===//
// FakeQuantOp
//===----------------------------------------------------------------------===//

LogicalResult FakeQuantOp::verify() {
  RankedTensorType type = getInput().getType();
  Type qtype = getQtype();
  if (!isa<UniformQuantizedType, UniformQuantizedPerAxisType>(qtype))
    return emitOpError() << "qtype must be a !quant.uniform type, got "
                         << qtype;
  if (failed(verifyQuantizedType(*this, qtype)))
    return failure();
  auto quantized = cast<QuantizedType>(qtype);
  if (quantized.getExpressedType() != type.getElementType())
    return emitOpError() << "expressed type " << quantized.getExpressedType()
                         << " of qtype does not match the element type "
                         << type.getElementType();

  int64_t numScales = 1;
  if (auto perAxis = dyn_cast<UniformQuantizedPerAxisType>(qtype)) {
    int64_t dim = perAxis.getQuantizedDimension();
    if (dim >= type.getRank())
      return emitOpError() << "quantized dimension " << dim
                           << " is out of range for a tensor of rank "
                           << type.getRank();
    numScales = perAxis.getScales().size();
    if (!type.isDynamicDim(dim) && type.getDimSize(dim) != numScales)
      return emitOpError() << "qtype has " << numScales
                           << " scales but dimension " << dim << " has size "
                           << type.getDimSize(dim);
  }

  DenseF32ArrayAttr lo = getRangeMinAttr(), hi = getRangeMaxAttr();
  if (bool(lo) != bool(hi))
    return emitOpError() << "range_min and range_max must be given together";
  if (!lo)
    return success();
  if (lo.size() != numScales || hi.size() != numScales)
    return emitOpError() << "range_min/range_max must have one value per "
                            "scale ("
                         << numScales << "), got " << lo.size() << " and "
                         << hi.size();
  for (int64_t i = 0; i < numScales; ++i)
    if (!(lo[i] <= hi[i]))
      return emitOpError() << "range_min must not exceed range_max, got ["
                           << lo[i] << ", " << hi[i] << "] at index " << i;
  return success();
}

//===----------------------------------------------------------------------===//
// BatchNormOp
//===----------------------------------------------------------------------===//

QuantRole BatchNormOp::getQuantRole() { return QuantRole::observed; }

bool BatchNormOp::fusesIntoProducer(Operation *producer) {
  auto conv = dyn_cast<Conv2DOp>(producer);
  return (conv && !conv.isQuantized()) ||
         isa<tosa::Conv2DOp, tosa::DepthwiseConv2DOp>(producer);
}

LogicalResult BatchNormOp::verify() {
  RankedTensorType type = getInput().getType();
  std::optional<int64_t> axis = normalizeAxis(getAxis(), type.getRank());
  if (!axis)
    return emitOpError() << "axis " << getAxis()
                         << " is out of range for a tensor of rank "
                         << type.getRank();
  int64_t channels = type.getDimSize(*axis);
  int64_t params = getGamma().getType().getDimSize(0);
  if (!ShapedType::isDynamic(channels) && !ShapedType::isDynamic(params) &&
      channels != params)
    return emitOpError() << "parameters have " << params
                         << " elements but the input has " << channels
                         << " channels along axis " << *axis;
  float eps = getEpsilon().convertToFloat();
  if (!(eps >= 0.0f && std::isfinite(eps)))
    return emitOpError() << "epsilon must be finite and non-negative, got "
                         << eps;
  return success();
}

//===----------------------------------------------------------------------===//
// UnaryOp
//===----------------------------------------------------------------------===//

double UnaryOp::getAlphaOrDefault() {
  if (std::optional<APFloat> a = getAlpha())
    return a->convertToDouble();
  return unaryInfo(getFn()).alpha;
}

double UnaryOp::getBetaOrDefault() {
  if (std::optional<APFloat> b = getBeta())
    return b->convertToDouble();
  return unaryInfo(getFn()).beta;
}

std::optional<std::pair<double, double>> UnaryOp::getFixedRange() {
  return unaryInfo(getFn()).fixedRange;
}

QuantRole UnaryOp::getQuantRole() {
  return getFixedRange() ? QuantRole::fixed : QuantRole::observed;
}

std::optional<std::pair<double, double>> SoftmaxOp::getFixedRange() {
  if (getLog())
    return std::nullopt;
  return std::pair<double, double>{0.0, 1.0};
}

/// True when `v` reaches the left operand of a matmul, directly or through
/// reshapes and transposes (and the observers, fake_quants and casts that
/// quantization puts between): attention's scores x V.
static bool feedsMatmul(Value v) {
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (isa<tosa::MatMulOp>(user) && use.getOperandNumber() == 0)
      return true;
    if (isa<tosa::ReshapeOp, tosa::TransposeOp, ObserveOp, FakeQuantOp,
            quant::QuantizeCastOp, quant::DequantizeCastOp>(user) &&
        feedsMatmul(user->getResult(0)))
      return true;
  }
  return false;
}

/// True when every use of `v` is the function's return (the casts that
/// quantization puts between aside): a model output.
static bool onlyReachesReturn(Value v) {
  for (Operation *user : v.getUsers()) {
    if (user->hasTrait<OpTrait::ReturnLike>())
      continue;
    if (isa<quant::QuantizeCastOp, quant::DequantizeCastOp>(user) &&
        onlyReachesReturn(user->getResult(0)))
      continue;
    return false;
  }
  return !v.use_empty();
}

QuantRole SoftmaxOp::getQuantRole() {
  // A softmax computes in float between a dequantize and a quantize; as a
  // model's output (a classifier's probabilities) the quantize would only
  // round them to 1/256, ties among near classes and small probabilities
  // to 0 (a 1000-class output), so there it stays float.
  if (getLog() || onlyReachesReturn(getOutput()))
    return QuantRole::not_quantized;
  // Attention probabilities are observed: most are far below 1/256 (about
  // 1/197 over ViT-B/16's tokens), where the fixed grid keeps one or two
  // levels (scores x V in int8: 17.5 dB against 24.0 dB observed, ViT-B/16,
  // 8-bit). A softmax elsewhere (a classifier's output) keeps PyTorch's
  // fixed [0, 1], which no input can leave.
  return feedsMatmul(getOutput()) ? QuantRole::observed : QuantRole::fixed;
}

QuantRole LayerNormOp::getQuantRole() { return QuantRole::observed; }

LogicalResult LayerNormOp::verify() {
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  int64_t rank = shape.size();
  // The attribute is an I64Attr read as uint64_t: -1 must print as -1.
  auto axis = static_cast<int64_t>(getAxis());
  if (axis < 0 || axis >= rank)
    return emitOpError() << "axis " << axis << " outside [0, " << rank << ")";
  if (getGamma().getType().getShape() != shape.drop_front(getAxis()))
    return emitOpError() << "gamma and beta must have the shape of the "
                            "normalized dimensions [axis, rank)";
  float eps = getEpsilon().convertToFloat();
  if (!std::isfinite(eps) || eps < 0.0f)
    return emitOpError() << "epsilon must be finite and >= 0";
  return success();
}

QuantRole GroupNormOp::getQuantRole() { return QuantRole::observed; }

LogicalResult GroupNormOp::verify() {
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  if (shape.size() < 2)
    return emitOpError() << "input must be [N, ..., C] (rank >= 2)";
  int64_t channels = shape.back();
  // The attribute is an I64Attr read as uint64_t: -1 must print as -1.
  auto groups = static_cast<int64_t>(getGroups());
  if (groups < 1 || channels % groups != 0)
    return emitOpError() << "groups " << groups
                         << " must be positive and divide the " << channels
                         << " channels";
  if (getGamma().getType().getShape() != ArrayRef<int64_t>{channels})
    return emitOpError() << "gamma and beta must have shape [" << channels
                         << "] (one per channel)";
  float eps = getEpsilon().convertToFloat();
  if (!std::isfinite(eps) || eps < 0.0f)
    return emitOpError() << "epsilon must be finite and >= 0";
  return success();
}

LogicalResult SoftmaxOp::verify() {
  int64_t rank = getInput().getType().getRank();
  // The attribute is an I64Attr read as uint64_t: -1 must print as -1.
  auto axis = static_cast<int64_t>(getAxis());
  if (axis < 0 || axis >= rank)
    return emitOpError() << "axis " << axis << " outside [0, " << rank << ")";
  return success();
}

LogicalResult UnaryOp::verify() {
  UnaryInfo info = unaryInfo(getFn());
  bool takesAlpha = info.takesAlpha, takesBeta = info.takesBeta;
  if ((getAlpha() && !takesAlpha) || (getBeta() && !takesBeta))
    return emitOpError() << "'" << stringifyUnaryFn(getFn()) << "' takes no "
                         << (getAlpha() && !takesAlpha ? "alpha" : "beta");
  for (std::optional<APFloat> p : {getAlpha(), getBeta()})
    if (p && !p->isFinite())
      return emitOpError() << "alpha and beta must be finite";
  if (getFn() == UnaryFn::celu && getAlphaOrDefault() == 0.0)
    return emitOpError() << "celu's alpha must not be 0";
  if (std::optional<ArrayRef<float>> alphas = getAlphas()) {
    if (getFn() != UnaryFn::leaky_relu || getAlpha())
      return emitOpError()
             << "alphas (one per channel) are for leaky_relu without alpha";
    int64_t channels = getInput().getType().getRank() == 0
                           ? 1
                           : getInput().getType().getShape().back();
    if (static_cast<int64_t>(alphas->size()) != channels)
      return emitOpError() << "expected " << channels
                           << " alphas (the last dimension), got "
                           << alphas->size();
    if (llvm::any_of(*alphas, [](float a) { return !std::isfinite(a); }))
      return emitOpError() << "alphas must be finite";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Conv2DOp
//===----------------------------------------------------------------------===//

QuantRole Conv2DOp::getQuantRole() { return QuantRole::observed; }

SmallVector<std::pair<unsigned, int64_t>> Conv2DOp::getObservedWeights() {
  return {{1, 0}}; // OHWI: one range per output channel
}

/// The bias operand (float before qnt-quantize), if any.
Value Conv2DOp::getFloatBias() { return getBias(); }

/// The per-tensor 8-bit f32 quantized element type of `value`, or null.
static UniformQuantizedType getActivationType(Value value) {
  auto type = dyn_cast<UniformQuantizedType>(
      cast<ShapedType>(value.getType()).getElementType());
  if (!type || type.getStorageTypeIntegralWidth() != 8 ||
      !type.getExpressedType().isF32())
    return nullptr;
  return type;
}

/// Scales and zero points of a per-tensor or per-axis quantized type.
static void getScalesAndZeroPoints(QuantizedType type,
                                   SmallVectorImpl<double> &scales,
                                   SmallVectorImpl<int64_t> &zeroPoints) {
  if (auto perTensor = dyn_cast<UniformQuantizedType>(type)) {
    scales.assign(1, perTensor.getScale());
    zeroPoints.assign(1, perTensor.getZeroPoint());
    return;
  }
  auto perAxis = cast<UniformQuantizedPerAxisType>(type);
  scales.assign(perAxis.getScales().begin(), perAxis.getScales().end());
  zeroPoints.assign(perAxis.getZeroPoints().begin(),
                    perAxis.getZeroPoints().end());
}

/// Checks that `value` has a signed `width`-bit f32 !quant.uniform element
/// type, per tensor or along dimension 0 with one scale per `channels`.
static LogicalResult verifyPerChannelOperand(Operation *op, Value value,
                                             StringRef what, unsigned width,
                                             int64_t channels,
                                             SmallVectorImpl<double> &scales,
                                             SmallVectorImpl<int64_t> &zps) {
  auto type = dyn_cast<QuantizedType>(
      cast<ShapedType>(value.getType()).getElementType());
  if (!type || !isa<UniformQuantizedType, UniformQuantizedPerAxisType>(type) ||
      !type.isSigned() || type.getStorageTypeIntegralWidth() != width ||
      !type.getExpressedType().isF32())
    return op->emitOpError() << what << " element type must be a "
                             << "!quant.uniform type with i" << width
                             << " storage and f32 expressed type";
  if (auto perAxis = dyn_cast<UniformQuantizedPerAxisType>(type))
    if (perAxis.getQuantizedDimension() != 0)
      return op->emitOpError()
             << what << " must be quantized per output channel (dimension 0), "
             << "got dimension " << perAxis.getQuantizedDimension();
  getScalesAndZeroPoints(type, scales, zps);
  if (scales.size() != 1 && (int64_t)scales.size() != channels)
    return op->emitOpError()
           << what << " has " << scales.size() << " scales but " << channels
           << " output channels";
  if (llvm::any_of(zps, [](int64_t zp) { return zp != 0; }))
    return op->emitOpError() << what << " zero points must be 0";
  return success();
}

/// Checks the fused-activation attributes shared by conv2d and linear.
static LogicalResult verifyActivation(Operation *op, Activation activation,
                                      std::optional<APFloat> lo,
                                      std::optional<APFloat> hi) {
  if (activation == Activation::clamp) {
    if (!lo || !hi)
      return op->emitOpError() << "activation 'clamp' requires clamp_min and "
                                  "clamp_max";
    if (lo->convertToFloat() > hi->convertToFloat())
      return op->emitOpError() << "clamp_min must not exceed clamp_max";
  } else if (lo || hi) {
    return op->emitOpError() << "clamp_min/clamp_max apply only to "
                                "activation 'clamp'";
  }
  return success();
}

/// Checks a per-channel bias and its scales `input_scale * weight_scale[o]`.
static LogicalResult verifyQuantizedBias(Operation *op, Value bias,
                                         int64_t channels, double inputScale,
                                         ArrayRef<double> weightScales) {
  int64_t biasSize = cast<ShapedType>(bias.getType()).getDimSize(0);
  if (biasSize != channels)
    return op->emitOpError()
           << "bias has " << biasSize << " elements but the filter has "
           << channels << " output channels";
  SmallVector<double> scales;
  SmallVector<int64_t> zps;
  if (failed(
          verifyPerChannelOperand(op, bias, "bias", 32, channels, scales, zps)))
    return failure();
  for (int64_t o = 0; o < channels; ++o) {
    double want = inputScale * weightScales[weightScales.size() == 1 ? 0 : o];
    double got = scales[scales.size() == 1 ? 0 : o];
    // Scales are products of f32 values: allow a few f32 roundings.
    if (std::abs(got - want) > 1e-6 * std::abs(want))
      return op->emitOpError()
             << "bias scale " << got << " at output channel " << o
             << " does not equal input scale * filter scale = " << want;
  }
  return success();
}

/// Checks an optional per-output-channel requantization multiplier.
static LogicalResult verifyMultiplier(Operation *op,
                                      std::optional<ArrayRef<float>> m,
                                      int64_t channels, bool quantized) {
  if (!m)
    return success();
  if (!quantized)
    return op->emitOpError() << "multiplier applies only to the quantized "
                                "form";
  if ((int64_t)m->size() != channels)
    return op->emitOpError()
           << "multiplier has " << m->size() << " values but there are "
           << channels << " output channels";
  for (float v : *m)
    if (!(v > 0.0f && std::isfinite(v)))
      return op->emitOpError() << "multiplier values must be positive and "
                                  "finite, got "
                               << v;
  return success();
}

bool Conv2DOp::isQuantized() {
  return !getInput().getType().getElementType().isF32();
}

/// The padded size `in + padLo + padHi`, or none when it overflows int64
/// (sizes and pads come from the IR, which may say anything).
static std::optional<int64_t> paddedSize(int64_t in, int64_t padLo,
                                         int64_t padHi) {
  std::optional<int64_t> sum = llvm::checkedAdd(in, padLo);
  return sum ? llvm::checkedAdd(*sum, padHi) : std::nullopt;
}

LogicalResult Conv2DOp::verify() {
  bool quantized = isQuantized();
  auto isF32 = [](Value v) {
    return cast<ShapedType>(v.getType()).getElementType().isF32();
  };
  UniformQuantizedType inType, outType;
  if (!quantized) {
    for (Value v : getOperands())
      if (!isF32(v))
        return emitOpError() << "float form: every operand must be f32 (the "
                                "input is f32)";
    if (!isF32(getOutput()))
      return emitOpError() << "float form: the result must be f32";
  } else {
    inType = getActivationType(getInput());
    if (!inType)
      return emitOpError() << "input element type must be a per-tensor "
                              "!quant.uniform type with 8-bit storage and f32 "
                              "expressed type";
    outType = getActivationType(getOutput());
    if (!outType && !isF32(getOutput()))
      return emitOpError() << "result element type must be a per-tensor "
                              "!quant.uniform type with 8-bit storage and f32 "
                              "expressed type, or f32 (dequantized output)";
    if (!outType && getResidual())
      return emitOpError() << "the dequantized-output form (f32 result) has "
                              "no residual";
  }

  ArrayRef<int64_t> strides = getStrides(), dilations = getDilations(),
                    pad = getPad();
  auto positive = [](int64_t v) { return v > 0; };
  if (strides.size() != 2 || !llvm::all_of(strides, positive))
    return emitOpError() << "strides must be 2 positive values";
  if (dilations.size() != 2 || !llvm::all_of(dilations, positive))
    return emitOpError() << "dilations must be 2 positive values";
  if (pad.size() != 4 || llvm::any_of(pad, [](int64_t v) { return v < 0; }))
    return emitOpError()
           << "pad must be 4 non-negative values [top, bottom, left, right]";
  int64_t groups = getGroups();
  if (groups < 1)
    return emitOpError() << "groups must be positive, got " << groups;

  auto inShape = getInput().getType().getShape();
  auto filterShape = getFilter().getType().getShape();
  auto outShape = getOutput().getType().getShape();
  int64_t outChannels = filterShape[0];
  if (ShapedType::isDynamicShape(filterShape))
    return emitOpError() << "filter shape must be static";

  SmallVector<double> filterScales;
  SmallVector<int64_t> filterZps;
  if (quantized &&
      failed(verifyPerChannelOperand(*this, getFilter(), "filter", 8,
                                     outChannels, filterScales, filterZps)))
    return failure();

  std::optional<int64_t> groupChannels =
      llvm::checkedMul(filterShape[3], groups);
  if (!ShapedType::isDynamic(inShape[3]) && inShape[3] != groupChannels)
    return emitOpError() << "input has " << inShape[3]
                         << " channels but filter input channels ("
                         << filterShape[3] << ") * groups (" << groups << ") = "
                         << (groupChannels ? std::to_string(*groupChannels)
                                           : std::string("overflow"));
  if (outChannels % groups != 0)
    return emitOpError() << "output channels (" << outChannels
                         << ") must be divisible by groups (" << groups << ")";

  SmallVector<int64_t> expected{inShape[0], ShapedType::kDynamic,
                                ShapedType::kDynamic, outChannels};
  for (int i = 0; i < 2; ++i) {
    if (ShapedType::isDynamic(inShape[1 + i]))
      continue;
    std::optional<int64_t> padded =
        paddedSize(inShape[1 + i], pad[2 * i], pad[2 * i + 1]);
    std::optional<int64_t> span =
        llvm::checkedMul(dilations[i], filterShape[1 + i] - 1);
    if (!padded || !span || *span == INT64_MAX)
      return emitOpError() << "padded input or dilated kernel size overflows "
                           << "along " << (i == 0 ? "height" : "width");
    int64_t kernel = *span + 1;
    if (kernel > *padded)
      return emitOpError() << "dilated kernel (" << kernel
                           << ") is larger than the padded input (" << *padded
                           << ") along " << (i == 0 ? "height" : "width");
    expected[1 + i] = (*padded - kernel) / strides[i] + 1;
  }
  for (int i = 0; i < 4; ++i)
    if (!ShapedType::isDynamic(expected[i]) &&
        !ShapedType::isDynamic(outShape[i]) && expected[i] != outShape[i]) {
      InFlightDiagnostic diag = emitOpError() << "result shape [";
      llvm::interleaveComma(outShape, diag);
      diag << "] does not match the expected [";
      llvm::interleaveComma(expected, diag, [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          diag << "?";
        else
          diag << d;
      });
      return diag << "]";
    }

  if (Value bias = getBias()) {
    if (!quantized) {
      int64_t biasSize = getBias().getType().getDimSize(0);
      if (biasSize != outChannels)
        return emitOpError()
               << "bias has " << biasSize << " elements but the filter has "
               << outChannels << " output channels";
    } else if (failed(verifyQuantizedBias(*this, bias, outChannels,
                                          inType.getScale(), filterScales))) {
      return failure();
    }
  }
  if (Value residual = getResidual()) {
    if (cast<ShapedType>(residual.getType()).getShape() != outShape)
      return emitOpError() << "residual must have the result's shape";
    if (quantized && !getActivationType(residual))
      return emitOpError() << "residual element type must be a per-tensor "
                              "!quant.uniform type with 8-bit storage and f32 "
                              "expressed type";
  }
  if (failed(verifyMultiplier(*this, getMultiplier(), outChannels, quantized)))
    return failure();
  return verifyActivation(*this, getActivation(), getClampMin(), getClampMax());
}

//===----------------------------------------------------------------------===//
// LinearOp
//===----------------------------------------------------------------------===//

LogicalResult LinearOp::verify() {
  UniformQuantizedType inType = getActivationType(getInput());
  if (!inType)
    return emitOpError() << "input element type must be a per-tensor "
                            "!quant.uniform type with 8-bit storage and f32 "
                            "expressed type";
  if (!getActivationType(getOutput()) &&
      !getOutput().getType().getElementType().isF32())
    return emitOpError() << "result element type must be a per-tensor "
                            "!quant.uniform type with 8-bit storage and f32 "
                            "expressed type, or f32 (dequantized output)";
  auto inShape = getInput().getType().getShape();
  auto wShape = getWeight().getType().getShape();
  auto outShape = getOutput().getType().getShape();
  if (inShape.empty() || inShape.size() != outShape.size())
    return emitOpError() << "input and result must have the same rank >= 1";
  if (inShape.back() != wShape[1])
    return emitOpError() << "input has " << inShape.back()
                         << " features but the weight expects " << wShape[1];
  if (outShape.back() != wShape[0] ||
      inShape.drop_back() != outShape.drop_back())
    return emitOpError() << "result shape must be the input's with the last "
                            "dimension "
                         << wShape[0];
  SmallVector<double> scales;
  SmallVector<int64_t> zps;
  if (failed(verifyPerChannelOperand(*this, getWeight(), "weight", 8, wShape[0],
                                     scales, zps)))
    return failure();
  if (Value bias = getBias())
    if (failed(verifyQuantizedBias(*this, bias, wShape[0], inType.getScale(),
                                   scales)))
      return failure();
  if (failed(verifyMultiplier(*this, getMultiplier(), wShape[0], true)))
    return failure();
  return verifyActivation(*this, getActivation(), getClampMin(), getClampMax());
}

//===----------------------------------------------------------------------===//
// AddOp, pooling, concat, requantize
//===----------------------------------------------------------------------===//

/// Every value must have a per-tensor 8-bit f32 quantized element type.
static LogicalResult verifyActivations(Operation *op) {
  for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
    if (!getActivationType(v))
      return op->emitOpError() << "operands and result must have per-tensor "
                                  "!quant.uniform types with 8-bit storage "
                                  "and f32 expressed type";
  return success();
}

/// Shapes and activation of qnt.add / qnt.sub / qnt.mul: each operand has
/// the result's rank, each dimension the result's or 1.
static LogicalResult verifyBinary(Operation *op, Activation activation) {
  if (failed(verifyActivations(op)))
    return failure();
  auto out = cast<ShapedType>(op->getResult(0).getType());
  for (Value v : op->getOperands()) {
    auto shape = cast<ShapedType>(v.getType()).getShape();
    bool ok = shape.size() == out.getShape().size();
    for (size_t d = 0; ok && d < shape.size(); ++d)
      ok = shape[d] == out.getDimSize(d) || shape[d] == 1;
    if (!ok)
      return op->emitOpError()
             << "operand of shape " << v.getType()
             << " does not broadcast to the result: each dimension must be "
                "the result's or 1";
  }
  if (activation != Activation::none && activation != Activation::relu)
    return op->emitOpError() << "supports activation none or relu";
  return success();
}

LogicalResult AddOp::verify() { return verifyBinary(*this, getActivation()); }
LogicalResult SubOp::verify() { return verifyBinary(*this, getActivation()); }
LogicalResult MulOp::verify() { return verifyBinary(*this, getActivation()); }

LogicalResult MatMulOp::verify() {
  if (failed(verifyActivations(*this)))
    return failure();
  auto a = getLhs().getType().getShape(), b = getRhs().getType().getShape(),
       out = getOutput().getType().getShape();
  if (a[0] != b[0] || a[2] != b[1] || out[0] != a[0] || out[1] != a[1] ||
      out[2] != b[2])
    return emitOpError() << "expects [B, M, K] x [B, K, N] -> [B, M, N], got "
                         << getLhs().getType() << " x " << getRhs().getType()
                         << " -> " << getOutput().getType();
  // Every product of centered values and their sum over K must fit the
  // int32 accumulator.
  auto centered = [](Value v) {
    auto q = getActivationType(v);
    return std::max(q.getZeroPoint() - q.getStorageTypeMin(),
                    q.getStorageTypeMax() - q.getZeroPoint());
  };
  if (static_cast<double>(a[2]) * centered(getLhs()) * centered(getRhs()) >
      static_cast<double>(INT32_MAX))
    return emitOpError() << "the int32 accumulator could overflow: K = " << a[2]
                         << " products of 8-bit values";
  return success();
}

LogicalResult LookupOp::verify() {
  if (failed(verifyActivations(*this)))
    return failure();
  if (getInput().getType().getShape() != getOutput().getType().getShape())
    return emitOpError() << "input and result must have the same shape";
  int64_t size = static_cast<int64_t>(getTable().size());
  ArrayRef<int64_t> shape = getOutput().getType().getShape();
  int64_t channels = shape.empty() ? 1 : shape.back();
  if (size != 256 &&
      (size != channels * 256 || ShapedType::isDynamic(channels)))
    return emitOpError() << "table must have 256 entries (one table) or "
                         << "256 per channel of the last dimension, got "
                         << size;
  auto q = cast<quant::QuantizedType>(getOutput().getType().getElementType());
  for (int32_t v : getTable())
    if (v < q.getStorageTypeMin() || v > q.getStorageTypeMax())
      return emitOpError() << "table entry " << v
                           << " is outside the result's storage range ["
                           << q.getStorageTypeMin() << ", "
                           << q.getStorageTypeMax() << "]";
  return success();
}

LogicalResult ChannelAffineOp::verify() {
  if (failed(verifyActivations(*this)))
    return failure();
  if (getInput().getType().getShape() != getOutput().getType().getShape())
    return emitOpError() << "input and result must have the same shape";
  ArrayRef<int64_t> shape = getOutput().getType().getShape();
  int64_t channels = shape.empty() ? 1 : shape.back();
  if (static_cast<int64_t>(getMultiplier().size()) != channels ||
      static_cast<int64_t>(getOffset().size()) != channels)
    return emitOpError() << "expected " << channels
                         << " multipliers and offsets (the last dimension)";
  for (float v : llvm::concat<const float>(getMultiplier(), getOffset()))
    if (!std::isfinite(v))
      return emitOpError() << "multipliers and offsets must be finite";
  return verifyActivation(*this, getActivation(), getClampMin(), getClampMax());
}

/// Checks kernel / strides / pad and the NHWC result shape of a pooling op.
static LogicalResult verifyPool(Operation *op, ShapedType in, ShapedType out,
                                ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> pad) {
  auto positive = [](int64_t v) { return v > 0; };
  if (kernel.size() != 2 || !llvm::all_of(kernel, positive))
    return op->emitOpError() << "kernel must be 2 positive values";
  if (strides.size() != 2 || !llvm::all_of(strides, positive))
    return op->emitOpError() << "strides must be 2 positive values";
  if (pad.size() != 4 || llvm::any_of(pad, [](int64_t v) { return v < 0; }))
    return op->emitOpError()
           << "pad must be 4 non-negative values [top, bottom, left, right]";
  if (pad[0] >= kernel[0] || pad[1] >= kernel[0] || pad[2] >= kernel[1] ||
      pad[3] >= kernel[1])
    return op->emitOpError() << "padding must be smaller than the kernel";
  for (int i = 0; i < 2; ++i) {
    std::optional<int64_t> padded =
        paddedSize(in.getDimSize(1 + i), pad[2 * i], pad[2 * i + 1]);
    if (!padded)
      return op->emitOpError() << "padded input size overflows";
    if (*padded < kernel[i])
      return op->emitOpError() << "kernel is larger than the padded input";
    int64_t expected = (*padded - kernel[i]) / strides[i] + 1;
    if (out.getDimSize(1 + i) != expected)
      return op->emitOpError()
             << "result " << (i == 0 ? "height" : "width") << " is "
             << out.getDimSize(1 + i) << ", expected " << expected;
  }
  if (in.getDimSize(0) != out.getDimSize(0) ||
      in.getDimSize(3) != out.getDimSize(3))
    return op->emitOpError() << "batch and channels of input and result must "
                                "agree";
  return success();
}

LogicalResult MaxPool2DOp::verify() {
  if (failed(verifyActivations(*this)))
    return failure();
  if (getInput().getType().getElementType() !=
      getOutput().getType().getElementType())
    return emitOpError() << "result must have the input's quantized type";
  return verifyPool(*this, getInput().getType(), getOutput().getType(),
                    getKernel(), getStrides(), getPad());
}

LogicalResult AvgPool2DOp::verify() {
  if (failed(verifyActivations(*this)))
    return failure();
  return verifyPool(*this, getInput().getType(), getOutput().getType(),
                    getKernel(), getStrides(), getPad());
}

LogicalResult ResizeBilinearOp::verify() {
  if (failed(verifyActivations(*this)))
    return failure();
  if (getInput().getType().getElementType() !=
      getOutput().getType().getElementType())
    return emitOpError() << "result must keep the input's quantized type";
  // The parameter and shape checks are the reference's.
  if (!getInput().getType().hasStaticShape() ||
      !getOutput().getType().hasStaticShape())
    return emitOpError() << "needs static shapes";
  std::vector<int64_t> in(getInput().getType().getShape().begin(),
                          getInput().getType().getShape().end());
  std::vector<int64_t> scale(getScale().begin(), getScale().end()),
      offset(getOffset().begin(), getOffset().end()),
      border(getBorder().begin(), getBorder().end()), out;
  if (quantc::Status s =
          quantc::ref::resizeOutputShape(in, scale, offset, border, out);
      s.failed())
    return emitOpError() << s.message();
  if (ArrayRef<int64_t>(out) != getOutput().getType().getShape())
    return emitOpError() << "result shape must be [" << out[0] << ", " << out[1]
                         << ", " << out[2] << ", " << out[3] << "]";
  return success();
}

LogicalResult ConcatOp::verify() {
  if (failed(verifyActivations(*this)))
    return failure();
  if (getInputs().empty())
    return emitOpError() << "needs at least one input";
  auto outType = cast<ShapedType>(getOutput().getType());
  int64_t rank = outType.getRank();
  int64_t axis = static_cast<int64_t>(getAxis());
  if (axis < 0 || axis >= rank)
    return emitOpError() << "axis " << axis << " is out of range for rank "
                         << rank;
  int64_t total = 0;
  for (Value in : getInputs()) {
    auto t = cast<ShapedType>(in.getType());
    if (t.getRank() != rank)
      return emitOpError() << "inputs must have the result's rank";
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && t.getDimSize(d) != outType.getDimSize(d))
        return emitOpError() << "inputs must match the result outside the "
                                "concatenation axis";
    total += t.getDimSize(axis);
  }
  if (total != outType.getDimSize(axis))
    return emitOpError() << "result has " << outType.getDimSize(axis)
                         << " elements along the axis, the inputs " << total;
  return success();
}

LogicalResult RequantizeOp::verify() {
  if (failed(verifyActivations(*this)))
    return failure();
  if (getInput().getType().getShape() != getOutput().getType().getShape())
    return emitOpError() << "input and result must have the same shape";
  return success();
}

//===----------------------------------------------------------------------===//
// PureIntrinsicOp
//===----------------------------------------------------------------------===//

LogicalResult PureIntrinsicOp::verify() {
  if (!getIntrin().starts_with("llvm."))
    return emitOpError() << "intrinsic name must start with 'llvm.', got '"
                         << getIntrin() << "'";
  return success();
}
