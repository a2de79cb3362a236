//===- QuantizeUtils.cpp - Pieces of QuantizableOpInterface::quantize -----===//
//
// Reading the QDQ form, quantized constants, and the role same_as_input
// (the default `quantize` of QuantizableOpInterface).
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QuantizeUtils.h"
#include "dialects/Qnt/IR/QuantParams.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include <cfloat>

using namespace mlir;
using namespace mlir::qnt;
using quant::QuantizedType;

Type mlir::qnt::elementOf(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}

Value mlir::qnt::quantizedSource(Value v) {
  if (auto d = v.getDefiningOp<quant::DequantizeCastOp>())
    return d.getInput();
  return {};
}

quant::QuantizeCastOp mlir::qnt::quantizedSink(Value v) {
  if (!v.hasOneUse())
    return {};
  return dyn_cast<quant::QuantizeCastOp>(*v.getUsers().begin());
}

std::optional<SmallVector<int32_t>> mlir::qnt::constantStorage(Value q) {
  auto scast = q.getDefiningOp<quant::StorageCastOp>();
  DenseIntElementsAttr attr;
  if (!scast || !matchPattern(scast.getInput(), m_Constant(&attr)))
    return std::nullopt;
  bool isSigned = cast<QuantizedType>(elementOf(q)).isSigned();
  SmallVector<int32_t> values;
  for (const APInt &v : attr.getValues<APInt>())
    values.push_back(isSigned ? static_cast<int32_t>(v.getSExtValue())
                              : static_cast<int32_t>(v.getZExtValue()));
  return values;
}

std::optional<SmallVector<float>> mlir::qnt::floatConstant(Value v) {
  DenseElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)) ||
      !attr.getElementType().isF32())
    return std::nullopt;
  return SmallVector<float>(attr.getValues<float>());
}

Value mlir::qnt::makeQuantizedConstant(OpBuilder &b, Location loc,
                                       RankedTensorType type,
                                       ArrayRef<int32_t> values) {
  auto q = cast<QuantizedType>(type.getElementType());
  unsigned width = q.getStorageTypeIntegralWidth();
  auto storageType =
      RankedTensorType::get(type.getShape(), b.getIntegerType(width));
  DenseElementsAttr data;
  if (width == 8) {
    // The common case (weights), from raw bytes: an APInt per element
    // took seconds for VGG-sized models.
    SmallVector<int8_t> bytes(values.begin(), values.end());
    data = DenseElementsAttr::get(storageType, ArrayRef<int8_t>(bytes));
  } else if (width == 32) {
    data = DenseElementsAttr::get(storageType, values);
  } else {
    SmallVector<APInt> bits;
    for (int32_t v : values)
      bits.push_back(APInt(width, static_cast<uint64_t>(int64_t(v)),
                           /*isSigned=*/true, /*implicitTrunc=*/true));
    data = DenseElementsAttr::get(storageType, bits);
  }
  Value raw = arith::ConstantOp::create(b, loc, data);
  return quant::StorageCastOp::create(b, loc, type, raw);
}

bool mlir::qnt::isRelu(tosa::ClampOp clamp) {
  auto lo = dyn_cast<FloatAttr>(clamp.getMinValAttr());
  auto hi = dyn_cast<FloatAttr>(clamp.getMaxValAttr());
  return lo && hi && lo.getValueAsDouble() == 0.0 &&
         hi.getValueAsDouble() >= FLT_MAX;
}

std::pair<Operation *, std::optional<FusedClamp>>
mlir::qnt::clampAfter(Value &result) {
  if (!result.hasOneUse())
    return {nullptr, std::nullopt};
  Operation *user = *result.getUsers().begin();
  std::optional<FusedClamp> act = fusedClamp(user);
  if (!act)
    return {nullptr, std::nullopt};
  result = user->getResult(0);
  return {user, act};
}

/// The int8 reference's view of a per-tensor 8-bit quantized element type
/// (no data: scale, zero point, range), or nullopt.
static std::optional<quantc::ref::QTensor> refView(Type elementType) {
  std::optional<QuantParams> p = quantParams(elementType);
  if (!p || p->axis || p->storageWidth != 8)
    return std::nullopt;
  return p->refView();
}

std::optional<std::pair<quantc::ref::QTensor, quantc::ref::QTensor>>
mlir::qnt::elementwiseViews(Value q, quant::QuantizeCastOp sink) {
  if (!q || !sink)
    return std::nullopt;
  std::optional<quantc::ref::QTensor> in = refView(elementOf(q)),
                                      out =
                                          refView(elementOf(sink.getResult()));
  if (!in || !out)
    return std::nullopt;
  return std::make_pair(*in, *out);
}

/// `diag` at `op`, starting with its layer's name and op.
static InFlightDiagnostic layerDiagnostic(Operation *op,
                                          InFlightDiagnostic diag) {
  SmallVector<std::string> names = getLayerNames(op->getLoc());
  std::string name =
      names.empty() || names.front().empty() ? "?" : names.front();
  return std::move(diag << "layer '" << name << "' (" << op->getName()
                        << "): ");
}

InFlightDiagnostic mlir::qnt::layerError(Operation *op) {
  return layerDiagnostic(op, op->emitError());
}

InFlightDiagnostic mlir::qnt::layerWarning(Operation *op) {
  return layerDiagnostic(op, op->emitWarning());
}

bool mlir::qnt::isExcludedLayer(Operation *op,
                                const llvm::StringSet<> &excluded) {
  if (excluded.empty())
    return false;
  if (excluded.contains(op->getName().getStringRef()))
    return true;
  // The observer of the layer's output, through single uses (a linear layer
  // is add(reshape(matmul(x, w)), b): its observer names the add).
  Operation *cur = op;
  for (int depth = 0;
       depth < 3 && cur->getNumResults() == 1 && cur->getResult(0).hasOneUse();
       ++depth) {
    Operation *user = *cur->getResult(0).getUsers().begin();
    StringAttr name;
    if (auto fq = dyn_cast<FakeQuantOp>(user))
      name = fq.getNameAttr();
    else if (isa<quant::QuantizeCastOp>(user))
      name = user->getAttrOfType<StringAttr>("qnt.name");
    if (name && excluded.contains(name.getValue()))
      return true;
    if (isa<FakeQuantOp, quant::QuantizeCastOp>(user) ||
        user->getNumRegions() != 0)
      break;
    cur = user;
  }
  return llvm::any_of(getLayerNames(op->getLoc()), [&](const std::string &n) {
    return excluded.contains(n);
  });
}

/// The number of elements of `shape` after dimension `axis` (the distance
/// between consecutive channels of a per-axis constant); 1 per tensor.
static int64_t innerSize(ArrayRef<int64_t> shape, const QuantParams &p) {
  int64_t inner = 1;
  if (p.axis)
    for (size_t d = *p.axis + 1; d < shape.size(); ++d)
      inner *= shape[d];
  return inner;
}

/// The channel of element `i` of a constant with `inner` elements per
/// channel step.
static size_t channelOf(size_t i, int64_t inner, const QuantParams &p) {
  return p.axis ? (i / inner) % p.scales.size() : 0;
}

SmallVector<int32_t> mlir::qnt::quantizeValues(ArrayRef<float> values,
                                               ArrayRef<int64_t> shape,
                                               const QuantParams &p) {
  int64_t inner = innerSize(shape, p);
  SmallVector<int32_t> q(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    size_t c = channelOf(i, inner, p);
    q[i] = quantc::ref::quantize(values[i], p.scale(c), p.zeroPoint(c), p.qmin,
                                 p.qmax);
  }
  return q;
}

SmallVector<float> mlir::qnt::dequantizeValues(ArrayRef<int32_t> q,
                                               ArrayRef<int64_t> shape,
                                               const QuantParams &p) {
  int64_t inner = innerSize(shape, p);
  SmallVector<float> values(q.size());
  for (size_t i = 0; i < q.size(); ++i) {
    size_t c = channelOf(i, inner, p);
    values[i] = quantc::ref::dequantize(q[i], p.scale(c), p.zeroPoint(c));
  }
  return values;
}

/// `op` stays float; its result (`floatType`) goes through a quantize to
/// `qType` and a dequantize for the ops after it.
static void keepFloat(Operation *op, RewriterBase &rewriter,
                      RankedTensorType floatType, RankedTensorType qType) {
  rewriter.setInsertionPointAfter(op);
  Value qc = quant::QuantizeCastOp::create(rewriter, op->getLoc(), qType,
                                           op->getResult(0));
  Value d =
      quant::DequantizeCastOp::create(rewriter, op->getLoc(), floatType, qc);
  rewriter.replaceAllUsesExcept(op->getResult(0), d, qc.getDefiningOp());
}

/// The float type of `op`'s result and its type with the element type of
/// `q`.
static std::pair<RankedTensorType, RankedTensorType> resultTypes(Operation *op,
                                                                 Value q) {
  auto floatType = cast<RankedTensorType>(op->getResult(0).getType());
  return {floatType, RankedTensorType::get(floatType.getShape(), elementOf(q))};
}

void mlir::qnt::keepInputParams(Operation *op, RewriterBase &rewriter,
                                Int8Form int8Form) {
  Value q = quantizedSource(op->getOperand(0));
  if (!q)
    return;
  auto [floatType, qType] = resultTypes(op, q);
  rewriter.setInsertionPoint(op);
  Value result = int8Form ? int8Form(q, qType) : Value();
  if (!result && movesStorage(op)) {
    Operation *moved = rewriter.clone(*op);
    moved->setOperand(0, q);
    moved->getResult(0).setType(qType);
    result = moved->getResult(0);
  }
  if (!result)
    return keepFloat(op, rewriter, floatType, qType);
  Value d = quant::DequantizeCastOp::create(rewriter, op->getLoc(), floatType,
                                            result);
  rewriter.replaceOp(op, d);
}

void mlir::qnt::keepInputParamsInFloat(Operation *op, RewriterBase &rewriter) {
  Value q = quantizedSource(op->getOperand(0));
  if (!q)
    return;
  auto [floatType, qType] = resultTypes(op, q);
  keepFloat(op, rewriter, floatType, qType);
}

LogicalResult mlir::qnt::quantizeByRole(Operation *op, RewriterBase &rewriter) {
  if (cast<QuantizableOpInterface>(op).getQuantRole() ==
      QuantRole::same_as_input)
    keepInputParams(op, rewriter);
  return success();
}
