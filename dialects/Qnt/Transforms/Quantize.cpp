//===- Quantize.cpp - Float model with fake_quant to quantized ops --------===//
//
// QDQ form first (fake_quant -> qcast + dcast, weights quantized now), then
// each float op between dcasts and a qcast becomes its quantized form, then
// qcast(dcast(x)) pairs cancel. All arithmetic on numbers (weight and bias
// quantization, requantization multipliers) is the int8 reference's.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantParams.h"
#include "dialects/Qnt/IR/UnaryFunctions.h"
#include "dialects/Qnt/Transforms/Passes.h"
#include "quantc/Reference/Reference.h"
#include "quantc/Reference/Requantize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringSet.h"
#include <cfloat>

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTQUANTIZE
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;
using quant::QuantizedType;
using quant::UniformQuantizedPerAxisType;
using quant::UniformQuantizedType;

namespace {

Type elementOf(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}

/// `q` for a value `dcast(q)`.
Value quantizedSource(Value v) {
  if (auto d = v.getDefiningOp<quant::DequantizeCastOp>())
    return d.getInput();
  return {};
}

/// The qcast that is the only user of `v`.
quant::QuantizeCastOp quantizedSink(Value v) {
  if (!v.hasOneUse())
    return {};
  return dyn_cast<quant::QuantizeCastOp>(*v.getUsers().begin());
}

/// The raw storage values of a quantized constant `scast(arith.constant)`.
std::optional<SmallVector<int32_t>> constantStorage(Value q) {
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

std::optional<SmallVector<float>> floatConstant(Value v) {
  DenseElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)) ||
      !attr.getElementType().isF32())
    return std::nullopt;
  return SmallVector<float>(attr.getValues<float>());
}

/// A quantized constant: raw `values` stored as the storage type, cast to
/// `type` (whose element type is quantized).
Value makeQuantizedConstant(OpBuilder &b, Location loc, RankedTensorType type,
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

/// A float clamp to [0, +inf): relu.
bool isRelu(tosa::ClampOp clamp) {
  auto lo = dyn_cast<FloatAttr>(clamp.getMinValAttr());
  auto hi = dyn_cast<FloatAttr>(clamp.getMaxValAttr());
  return lo && hi && lo.getValueAsDouble() == 0.0 &&
         hi.getValueAsDouble() >= FLT_MAX;
}

/// The clamp that is the only user of `result`, with its fused activation;
/// `result` moves to the clamp's result. {nullptr, nullopt} otherwise.
std::pair<Operation *, std::optional<FusedClamp>> clampAfter(Value &result) {
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
std::optional<quantc::ref::QTensor> refView(Type elementType) {
  std::optional<QuantParams> p = quantParams(elementType);
  if (!p || p->axis || p->storageWidth != 8)
    return std::nullopt;
  return p->refView();
}

/// The reference views of an element-wise op's quantized input `q` and of
/// the qcast `sink` of its result, when both are per-tensor 8-bit; nullopt
/// otherwise (or when either is missing).
std::optional<std::pair<quantc::ref::QTensor, quantc::ref::QTensor>>
elementwiseViews(Value q, quant::QuantizeCastOp sink) {
  if (!q || !sink)
    return std::nullopt;
  std::optional<quantc::ref::QTensor> in = refView(elementOf(q)),
                                      out =
                                          refView(elementOf(sink.getResult()));
  if (!in || !out)
    return std::nullopt;
  return std::make_pair(*in, *out);
}

/// The layer name of `op` for messages: its first name.
std::string layerName(Operation *op) {
  SmallVector<std::string> names = getLayerNames(op->getLoc());
  return names.empty() ? std::string() : names.front();
}

struct QntQuantizePass
    : public mlir::qnt::impl::QntQuantizeBase<QntQuantizePass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Excluded by op name, by any name of the (fused) layer's location, or
  /// by the name of the observer of its output (which survives printing
  /// IR without debug info).
  bool isExcluded(Operation *op) const {
    if (excluded.contains(op->getName().getStringRef()))
      return true;
    if (op->getNumResults() == 1)
      if (quant::QuantizeCastOp sink = quantizedSink(op->getResult(0)))
        if (auto name = sink->getAttrOfType<StringAttr>("qnt.name"))
          if (excluded.contains(name.getValue()))
            return true;
    return llvm::any_of(getLayerNames(op->getLoc()), [&](const std::string &n) {
      return excluded.contains(n);
    });
  }
  LogicalResult toQDQ(FakeQuantOp op);
  LogicalResult convertConv(Conv2DOp op);
  LogicalResult convertMatmul(tosa::MatMulOp op);
  LogicalResult convertActivationMatmul(tosa::MatMulOp op, Value qa, Value qb);
  template <typename QntOp> void convertBinary(Operation *op);
  void convertConstantBinary(Operation *op);
  void convertUnary(UnaryOp op);
  void convertAvgPool(tosa::AvgPool2dOp op);
  void convertBatchNorm(BatchNormOp op);
  void convertConcat(tosa::ConcatOp op);
  /// With `keepFloat` (an excluded layer), the op stays float and only its
  /// result is quantized with the input's parameters.
  void keepParams(Operation *op, bool keepFloat = false);
  void fuseQuantizedRelu();
  void cleanup();

  llvm::StringSet<> excluded;
  /// Ops absorbed into a converted op (a linear layer's bias add).
  llvm::DenseSet<Operation *> consumed;
};

InFlightDiagnostic layerError(Operation *op) {
  std::string name = layerName(op);
  return op->emitError() << "layer '" << (name.empty() ? "?" : name) << "' ("
                         << op->getName() << "): ";
}

LogicalResult QntQuantizePass::toQDQ(FakeQuantOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto floatType = op.getInput().getType();
  auto qType = RankedTensorType::get(floatType.getShape(), op.getQtype());
  Value q;
  if (std::optional<SmallVector<float>> w = floatConstant(op.getInput())) {
    // A weight: quantize it now, exactly as the reference quantizes.
    QuantParams p = *quantParams(op.getQtype());
    int64_t inner = 1;
    if (p.axis)
      for (int64_t d = *p.axis + 1; d < floatType.getRank(); ++d)
        inner *= floatType.getDimSize(d);
    SmallVector<int32_t> values(w->size());
    for (size_t i = 0; i < w->size(); ++i) {
      size_t c = p.axis ? (i / inner) % p.scales.size() : 0;
      values[i] = quantc::ref::quantize((*w)[i], p.scale(c), p.zeroPoint(c),
                                        p.qmin, p.qmax);
    }
    q = makeQuantizedConstant(b, loc, qType, values);
  } else {
    q = quant::QuantizeCastOp::create(b, loc, qType, op.getInput());
  }
  // Keep the FP32 range and the observer's name next to the quantized type.
  Operation *def = q.getDefiningOp();
  if (op.getRangeMinAttr()) {
    def->setAttr("qnt.range_min", op.getRangeMinAttr());
    def->setAttr("qnt.range_max", op.getRangeMaxAttr());
  }
  if (op.getNameAttr())
    def->setAttr("qnt.name", op.getNameAttr());
  Value d = quant::DequantizeCastOp::create(b, loc, floatType, q);
  op.replaceAllUsesWith(d);
  op.erase();
  return success();
}

LogicalResult QntQuantizePass::convertConv(Conv2DOp op) {
  Value qi = quantizedSource(op.getInput());
  quant::QuantizeCastOp sink = quantizedSink(op.getOutput());
  if (!qi || !sink)
    return layerError(op)
           << "no quantization parameters for its "
           << (!qi ? "input" : "output")
           << "; calibrate the model and run qnt-fold-observers first, or "
              "exclude the layer";
  Value qw = quantizedSource(op.getFilter());
  std::optional<SmallVector<int32_t>> w =
      qw ? constantStorage(qw) : std::nullopt;
  if (!w)
    return layerError(op) << "the filter is not a quantized constant (its "
                             "weight observer is missing)";
  Value qr;
  if (op.getResidual() && !(qr = quantizedSource(op.getResidual())))
    return layerError(op) << "no quantization parameters for the residual";

  QuantParams in = *quantParams(elementOf(qi)),
              wp = *quantParams(elementOf(qw)),
              out = *quantParams(elementOf(sink.getResult()));
  int64_t channels = op.getFilter().getType().getDimSize(0);
  auto wScale = [&](int64_t o) { return wp.scale(o); };
  OpBuilder b(sink);
  Value bias;
  if (op.getBias()) {
    std::optional<SmallVector<float>> fb = floatConstant(op.getBias());
    if (!fb)
      return layerError(op) << "the bias is not a constant";
    SmallVector<int32_t> qb;
    SmallVector<double> biasScales;
    for (int64_t o = 0; o < channels; ++o) {
      std::optional<int32_t> v =
          quantc::ref::quantizeBias((*fb)[o], in.scale(), wScale(o));
      if (!v)
        return layerError(op)
               << "bias " << (*fb)[o] << " of output channel " << o
               << " does not fit int32 at scale input_scale * filter_scale = "
               << double(in.scale()) * double(wScale(o));
      qb.push_back(*v);
      biasScales.push_back(double(in.scale()) * double(wScale(o)));
    }
    SmallVector<int64_t> zeros(channels, 0);
    auto biasElt = UniformQuantizedPerAxisType::get(
        quant::QuantizationFlags::Signed, b.getI32Type(), b.getF32Type(),
        biasScales, zeros, 0, INT32_MIN, INT32_MAX);
    bias = makeQuantizedConstant(
        b, op.getLoc(), RankedTensorType::get({channels}, biasElt), qb);
  }
  SmallVector<float> multipliers;
  for (int64_t o = 0; o < channels; ++o)
    multipliers.push_back(
        quantc::ref::requantMultiplier(in.scale(), wScale(o), out.scale()));
  auto conv = Conv2DOp::create(
      b, op.getLoc(), sink.getType(), qi, qw, bias, qr, op.getStridesAttr(),
      op.getPadAttr(), op.getDilationsAttr(), op.getGroupsAttr(),
      op.getActivationAttr(), op.getClampMinAttr(), op.getClampMaxAttr(),
      b.getDenseF32ArrayAttr(multipliers));
  sink.replaceAllUsesWith(conv.getOutput());
  sink.erase();
  op.erase();
  return success();
}

LogicalResult QntQuantizePass::convertMatmul(tosa::MatMulOp op) {
  Value qa = quantizedSource(op.getA()), qw = quantizedSource(op.getB());
  std::optional<SmallVector<int32_t>> w =
      qw ? constantStorage(qw) : std::nullopt;
  auto wType = cast<RankedTensorType>(op.getB().getType());
  if (qa && qw && !w)
    return convertActivationMatmul(op, qa, qw);
  if (!qa || !w || wType.getDimSize(0) != 1)
    return success(); // A batched constant operand stays float.
  // Optional bias: matmul -> add(constant) -> qcast.
  Value result = op.getResult();
  std::optional<SmallVector<float>> fb;
  Operation *biasAdd = nullptr;
  if (result.hasOneUse())
    if (auto add = dyn_cast<tosa::AddOp>(*result.getUsers().begin())) {
      Value other =
          add.getInput1() == result ? add.getInput2() : add.getInput1();
      if ((fb = floatConstant(other)) &&
          static_cast<int64_t>(fb->size()) == wType.getDimSize(2)) {
        biasAdd = add;
        result = add.getResult();
      } else {
        fb.reset();
      }
    }
  // A fused activation (qnt-fuse moves a Gemm's relu before the reshape).
  auto [clamp, act] = clampAfter(result);
  quant::QuantizeCastOp sink = quantizedSink(result);
  // A QDQ model (ONNX Gemm) quantizes the output after the reshape back to
  // 2-D: the layer computes in that quantized type and is reshaped.
  tosa::ReshapeOp reshape;
  if (!sink && result.hasOneUse())
    if ((reshape = dyn_cast<tosa::ReshapeOp>(*result.getUsers().begin())))
      sink = quantizedSink(reshape.getResult());
  if (!sink)
    return layerError(op) << "no quantization parameters for its output; "
                             "calibrate the model and run qnt-fold-observers "
                             "first, or exclude the layer";
  // [1, K, N] quantized along N -> [N, K] quantized along dimension 0.
  int64_t k = wType.getDimSize(1), n = wType.getDimSize(2);
  QuantParams wp = *quantParams(elementOf(qw)),
              in = *quantParams(elementOf(qa)),
              out = *quantParams(elementOf(sink.getResult()));
  SmallVector<int32_t> transposed(n * k);
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j)
      transposed[j * k + i] = (*w)[i * n + j];
  OpBuilder b(sink);
  Type wElt = elementOf(qw);
  if (auto perAxis = dyn_cast<UniformQuantizedPerAxisType>(wElt))
    wElt = UniformQuantizedPerAxisType::get(
        perAxis.getFlags(), perAxis.getStorageType(),
        perAxis.getExpressedType(), perAxis.getScales(),
        perAxis.getZeroPoints(), 0, perAxis.getStorageTypeMin(),
        perAxis.getStorageTypeMax());
  Value weight = makeQuantizedConstant(
      b, op.getLoc(), RankedTensorType::get({n, k}, wElt), transposed);
  for (NamedAttribute attr : qw.getDefiningOp()->getDiscardableAttrs())
    weight.getDefiningOp()->setAttr(attr.getName(), attr.getValue());
  auto wScale = [&](int64_t o) { return wp.scale(o); };
  Value bias;
  if (fb) {
    SmallVector<int32_t> qb;
    SmallVector<double> scales;
    for (int64_t o = 0; o < n; ++o) {
      std::optional<int32_t> v =
          quantc::ref::quantizeBias((*fb)[o], in.scale(), wScale(o));
      if (!v)
        return layerError(op) << "bias " << (*fb)[o] << " of output " << o
                              << " does not fit int32";
      qb.push_back(*v);
      scales.push_back(double(in.scale()) * double(wScale(o)));
    }
    auto biasElt = UniformQuantizedPerAxisType::get(
        quant::QuantizationFlags::Signed, b.getI32Type(), b.getF32Type(),
        scales, SmallVector<int64_t>(n, 0), 0, INT32_MIN, INT32_MAX);
    bias = makeQuantizedConstant(b, op.getLoc(),
                                 RankedTensorType::get({n}, biasElt), qb);
  }
  SmallVector<float> multipliers;
  for (int64_t o = 0; o < n; ++o)
    multipliers.push_back(
        quantc::ref::requantMultiplier(in.scale(), wScale(o), out.scale()));
  SmallVector<Location> locs{op.getLoc()};
  if (biasAdd)
    locs.insert(locs.begin(), biasAdd->getLoc());
  if (clamp)
    locs.insert(locs.begin(), clamp->getLoc());
  Location loc = FusedLoc::get(&getContext(), locs);
  Type outType =
      reshape
          ? RankedTensorType::get(cast<ShapedType>(result.getType()).getShape(),
                                  elementOf(sink.getResult()))
          : sink.getType();
  auto linear = LinearOp::create(
      b, loc, outType, qa, weight, bias,
      ActivationAttr::get(&getContext(),
                          act ? act->activation : Activation::none),
      act ? act->min : FloatAttr(), act ? act->max : FloatAttr(),
      b.getDenseF32ArrayAttr(multipliers));
  Value output = linear.getOutput();
  if (reshape)
    output = tosa::ReshapeOp::create(b, reshape.getLoc(), sink.getType(),
                                     output, reshape.getShape());
  sink.replaceAllUsesWith(output);
  sink.erase();
  if (reshape) {
    consumed.insert(reshape);
    reshape->erase();
  }
  if (clamp) {
    consumed.insert(clamp);
    clamp->erase();
  }
  if (biasAdd) {
    consumed.insert(biasAdd);
    biasAdd->erase();
  }
  op.erase();
  return success();
}

/// A matmul of two quantized activations (attention's Q x K^T, scores x V)
/// with per-tensor parameters: qnt.matmul. Without parameters for its
/// output, or when the int32 accumulator could overflow, it stays float.
LogicalResult QntQuantizePass::convertActivationMatmul(tosa::MatMulOp op,
                                                       Value qa, Value qb) {
  quant::QuantizeCastOp sink = quantizedSink(op.getResult());
  auto perTensor = [](Value v) {
    auto t = dyn_cast<quant::UniformQuantizedType>(elementOf(v));
    return t && t.getStorageTypeIntegralWidth() == 8 ? t
                                                     : UniformQuantizedType();
  };
  UniformQuantizedType a = perTensor(qa), b = perTensor(qb);
  if (!sink || !a || !b || !perTensor(sink.getResult()))
    return success();
  auto centered = [](UniformQuantizedType t) {
    return std::max(t.getZeroPoint() - t.getStorageTypeMin(),
                    t.getStorageTypeMax() - t.getZeroPoint());
  };
  int64_t k = cast<ShapedType>(op.getA().getType()).getDimSize(2);
  if (static_cast<double>(k) * centered(a) * centered(b) > INT32_MAX)
    return success();
  OpBuilder builder(sink);
  auto mm = MatMulOp::create(builder, op.getLoc(), sink.getType(), qa, qb);
  sink.replaceAllUsesWith(mm.getOutput());
  sink.erase();
  op.erase();
  return success();
}

/// add / sub / mul of two quantized activations (broadcasting), with a
/// following relu fused.
template <typename QntOp> void QntQuantizePass::convertBinary(Operation *op) {
  Value qa = quantizedSource(op->getOperand(0)),
        qb = quantizedSource(op->getOperand(1));
  if (!qa && !qb)
    return;
  if (!qa || !qb)
    return convertConstantBinary(op);
  Value result = op->getResult(0);
  Operation *relu = nullptr;
  if (result.hasOneUse())
    if (auto clamp = dyn_cast<tosa::ClampOp>(*result.getUsers().begin())) {
      if (isRelu(clamp)) {
        relu = clamp;
        result = clamp.getResult();
      }
    }
  quant::QuantizeCastOp sink = quantizedSink(result);
  if (!sink)
    return;
  OpBuilder b(sink);
  auto binary = QntOp::create(
      b, op->getLoc(), sink.getType(), qa, qb,
      ActivationAttr::get(&getContext(),
                          relu ? Activation::relu : Activation::none));
  sink.replaceAllUsesWith(binary.getOutput());
  sink.erase();
  if (relu)
    relu->erase();
  op->erase();
}

/// `x op k` (or `k op x`) with `x` quantized and `k` a float constant that
/// is one number or one per channel of the last dimension (x * 0.5, a
/// per-channel scale or shift, a division by a constant as the importer's
/// multiplication by its reciprocal), with a clamp after it: an
/// element-wise function of x, i.e. one lookup table per distinct constant
/// (UnaryFunctions' tables, evaluated in double).
void QntQuantizePass::convertConstantBinary(Operation *op) {
  bool xFirst = static_cast<bool>(quantizedSource(op->getOperand(0)));
  Value q = quantizedSource(op->getOperand(xFirst ? 0 : 1));
  Value other = op->getOperand(xFirst ? 1 : 0);
  std::optional<SmallVector<float>> k = floatConstant(other);
  if (!k)
    if (auto recip = other.getDefiningOp<tosa::ReciprocalOp>())
      if ((k = floatConstant(recip.getInput1())))
        for (float &v : *k)
          v = 1.0f / v;
  auto xType = cast<RankedTensorType>(q.getType());
  auto kType = cast<RankedTensorType>(other.getType());
  Value result = op->getResult(0);
  if (!k || xType.getRank() < 1 || kType.getRank() != xType.getRank() ||
      cast<ShapedType>(result.getType()).getShape() != xType.getShape() ||
      !llvm::all_of(kType.getShape().drop_back(),
                    [](int64_t d) { return d == 1; }) ||
      (k->size() != 1 &&
       static_cast<int64_t>(k->size()) != xType.getShape().back()))
    return;
  auto [clamp, act] = clampAfter(result);
  quant::QuantizeCastOp sink = quantizedSink(result);
  auto views = elementwiseViews(q, sink);
  if (!views)
    return;
  double lo = -INFINITY, hi = INFINITY;
  if (act) {
    lo = act->activation == Activation::clamp ? act->min.getValueAsDouble()
                                              : 0.0;
    hi = act->activation == Activation::relu6   ? 6.0
         : act->activation == Activation::clamp ? act->max.getValueAsDouble()
                                                : INFINITY;
  }
  std::vector<int32_t> table;
  for (float c : *k) {
    auto f = [&](double x) {
      double y = isa<tosa::MulOp>(op)   ? x * double(c)
                 : isa<tosa::AddOp>(op) ? x + double(c)
                 : xFirst               ? x - double(c)
                                        : double(c) - x;
      return std::clamp(y, lo, hi);
    };
    std::vector<int32_t> t =
        quantc::ref::lookupTable(f, views->first, views->second);
    table.insert(table.end(), t.begin(), t.end());
  }
  OpBuilder b(sink);
  SmallVector<Location> locs{op->getLoc()};
  if (clamp)
    locs.insert(locs.begin(), clamp->getLoc());
  auto lookup =
      LookupOp::create(b, FusedLoc::get(&getContext(), locs), sink.getType(), q,
                       b.getDenseI32ArrayAttr(table));
  sink.replaceAllUsesWith(lookup.getOutput());
  sink.erase();
  if (clamp)
    clamp->erase();
  op->erase();
}

/// An element-wise function between quantized tensors: its lookup table,
/// evaluated once per input value in double (UnaryFunctions.h); one table
/// per channel for per-channel alphas (PReLU).
void QntQuantizePass::convertUnary(UnaryOp op) {
  Value q = quantizedSource(op.getInput());
  quant::QuantizeCastOp sink = quantizedSink(op.getOutput());
  auto views = elementwiseViews(q, sink);
  if (!views)
    return;
  UnaryFn fn = op.getFn();
  double beta = op.getBetaOrDefault();
  // One table, or one per channel of the last dimension (per-channel alphas).
  SmallVector<double> alphas{op.getAlphaOrDefault()};
  if (std::optional<ArrayRef<float>> perChannel = op.getAlphas())
    alphas.assign(perChannel->begin(), perChannel->end());
  std::vector<int32_t> table;
  for (double alpha : alphas) {
    std::vector<int32_t> t = quantc::ref::lookupTable(
        [&](double x) { return evalUnary(fn, x, alpha, beta); }, views->first,
        views->second);
    table.insert(table.end(), t.begin(), t.end());
  }
  OpBuilder b(sink);
  auto lookup = LookupOp::create(b, op.getLoc(), sink.getType(), q,
                                 b.getDenseI32ArrayAttr(table));
  sink.replaceAllUsesWith(lookup.getOutput());
  sink.erase();
  op.erase();
}

/// A batch norm between quantized tensors (one that follows no
/// convolution), with the clamp after it: qnt.channel_affine with
/// quantc::ref::batchNormAffine's parameters.
void QntQuantizePass::convertBatchNorm(BatchNormOp op) {
  Value q = quantizedSource(op.getInput());
  RankedTensorType type = op.getInput().getType();
  auto axis = static_cast<int64_t>(op.getAxis());
  if (!q || type.getRank() < 1 || (axis != -1 && axis != type.getRank() - 1))
    return;
  Value result = op.getOutput();
  auto [clamp, act] = clampAfter(result);
  quant::QuantizeCastOp sink = quantizedSink(result);
  auto views = elementwiseViews(q, sink);
  std::optional<SmallVector<float>> gamma = floatConstant(op.getGamma()),
                                    beta = floatConstant(op.getBeta()),
                                    mean = floatConstant(op.getMean()),
                                    var = floatConstant(op.getVar());
  if (!views || !gamma || !beta || !mean || !var)
    return;
  std::vector<float> multipliers, offsets;
  if (quantc::ref::batchNormAffine(
          {gamma->begin(), gamma->end()}, {beta->begin(), beta->end()},
          {mean->begin(), mean->end()}, {var->begin(), var->end()},
          op.getEpsilon().convertToDouble(), views->first.scale,
          views->second.scale, multipliers, offsets)
          .failed())
    return;
  OpBuilder b(sink);
  SmallVector<Location> locs{op.getLoc()};
  if (clamp)
    locs.insert(locs.begin(), clamp->getLoc());
  auto affine = ChannelAffineOp::create(
      b, FusedLoc::get(&getContext(), locs), sink.getType(), q,
      b.getDenseF32ArrayAttr(multipliers), b.getDenseF32ArrayAttr(offsets),
      ActivationAttr::get(&getContext(),
                          act ? act->activation : Activation::none),
      act ? act->min : FloatAttr(), act ? act->max : FloatAttr());
  sink.replaceAllUsesWith(affine.getOutput());
  sink.erase();
  if (clamp) {
    consumed.insert(clamp);
    clamp->erase();
  }
  op.erase();
}

/// An average pool quantizes to the parameters of the qcast after it (a
/// QDQ model's), else it keeps its input's (its role, as in PyTorch).
void QntQuantizePass::convertAvgPool(tosa::AvgPool2dOp op) {
  Value q = quantizedSource(op.getInput());
  if (!q)
    return;
  quant::QuantizeCastOp sink = quantizedSink(op.getResult());
  if (!sink)
    return keepParams(op);
  OpBuilder b(sink);
  auto pool =
      AvgPool2DOp::create(b, op.getLoc(), sink.getType(), q, op.getKernelAttr(),
                          op.getStrideAttr(), op.getPadAttr());
  sink.replaceAllUsesWith(pool.getOutput());
  sink.erase();
  op.erase();
}

/// True when every use of `v` is the function's return, directly or through
/// dequantizes, reshapes and transposes: a graph output.
static bool onlyReturned(Value v) {
  if (v.use_empty())
    return false;
  for (Operation *user : v.getUsers()) {
    if (isa<func::ReturnOp>(user))
      continue;
    if (isa<quant::DequantizeCastOp, tosa::ReshapeOp, tosa::TransposeOp>(
            user) &&
        onlyReturned(user->getResult(0)))
      continue;
    return false;
  }
  return true;
}

void QntQuantizePass::convertConcat(tosa::ConcatOp op) {
  SmallVector<Value> inputs;
  for (Value v : op.getInput1()) {
    Value q = quantizedSource(v);
    if (!q)
      return;
    inputs.push_back(q);
  }
  quant::QuantizeCastOp sink = quantizedSink(op.getResult());
  if (!sink)
    return;
  // A Concat that is a graph output of inputs on very different grids (a
  // detector's box coordinates and class probabilities in one tensor): one
  // shared scale would keep less than 4 of an input's 8 bits (the scores a
  // step or two), so the output is the float concat of the dequantized
  // inputs, each on its own grid.
  double outScale = quantParams(elementOf(sink.getResult()))->scale();
  bool coarse = llvm::any_of(inputs, [&](Value q) {
    QuantParams p = *quantParams(elementOf(q));
    return p.scales.size() == 1 && outScale > 16.0 * p.scale();
  });
  if (coarse && onlyReturned(sink.getResult())) {
    for (Operation *user : llvm::make_early_inc_range(sink->getUsers()))
      if (auto dc = dyn_cast<quant::DequantizeCastOp>(user)) {
        dc.replaceAllUsesWith(op.getResult());
        dc.erase();
      }
    if (sink->use_empty())
      sink.erase();
    return;
  }
  OpBuilder b(sink);
  auto concat = ConcatOp::create(b, op.getLoc(), sink.getType(), inputs,
                                 b.getI64IntegerAttr(op.getAxis()));
  sink.replaceAllUsesWith(concat.getOutput());
  sink.erase();
  op.erase();
}

/// A bilinear tosa.resize with constant parameters as qnt.resize_bilinear
/// on `q` (result type `qType`), or nullopt.
std::optional<ResizeBilinearOp> bilinearResize(OpBuilder &b, Operation *op,
                                               Type qType, Value q) {
  auto resize = dyn_cast<tosa::ResizeOp>(op);
  SmallVector<int64_t> scale, offset, border;
  if (!resize || resize.getMode() != tosa::ResizeMode::BILINEAR ||
      !resize.getScale().getDefiningOp() ||
      !tosa::getConstShapeValues(resize.getScale().getDefiningOp(), scale) ||
      !resize.getOffset().getDefiningOp() ||
      !tosa::getConstShapeValues(resize.getOffset().getDefiningOp(), offset) ||
      !resize.getBorder().getDefiningOp() ||
      !tosa::getConstShapeValues(resize.getBorder().getDefiningOp(), border))
    return std::nullopt;
  return ResizeBilinearOp::create(
      b, op->getLoc(), qType, q, b.getDenseI64ArrayAttr(scale),
      b.getDenseI64ArrayAttr(offset), b.getDenseI64ArrayAttr(border));
}

/// An op whose result keeps its input's parameters (role same_as_input).
/// Pooling and bilinear resizes have int8 ops; data movement
/// (QuantizableOpInterface:: movesStorage: reshapes, transposes, slices, tiles,
/// zero padding, nearest resize) is the same op on the quantized tensor, a zero
/// pad padding with the zero point; the others stay float between a dequantize
/// and a quantize with the input's parameters (exact: their values lie on
/// the input's grid).
void QntQuantizePass::keepParams(Operation *op, bool keepFloat) {
  Value q = quantizedSource(op->getOperand(0));
  if (!q)
    return;
  auto floatType = cast<RankedTensorType>(op->getResult(0).getType());
  auto qType = RankedTensorType::get(floatType.getShape(), elementOf(q));
  OpBuilder b(op);
  Value result;
  if (keepFloat) {
    // Excluded: computed in float (below), its result still carries the
    // input's parameters for the quantized ops after it.
  } else if (auto pool = dyn_cast<tosa::MaxPool2dOp>(op)) {
    result =
        MaxPool2DOp::create(b, op->getLoc(), qType, q, pool.getKernelAttr(),
                            pool.getStrideAttr(), pool.getPadAttr());
  } else if (auto avg = dyn_cast<tosa::AvgPool2dOp>(op)) {
    result = AvgPool2DOp::create(b, op->getLoc(), qType, q, avg.getKernelAttr(),
                                 avg.getStrideAttr(), avg.getPadAttr());
  } else if (std::optional<ResizeBilinearOp> bilinear =
                 bilinearResize(b, op, qType, q)) {
    result = *bilinear;
  } else if (movesStorage(op)) {
    Value padValue;
    if (isa<tosa::PadOp>(op))
      padValue = makeQuantizedConstant(
          b, op->getLoc(), RankedTensorType::get({1}, elementOf(q)),
          {quantParams(elementOf(q))->zeroPoint()});
    Operation *moved = b.clone(*op);
    moved->setOperand(0, q);
    moved->getResult(0).setType(qType);
    if (auto pad = dyn_cast<tosa::PadOp>(moved))
      pad.getPadConstMutable().assign(padValue);
    result = moved->getResult(0);
  }
  if (!result) {
    b.setInsertionPointAfter(op);
    Value qc =
        quant::QuantizeCastOp::create(b, op->getLoc(), qType, op->getResult(0));
    Value d = quant::DequantizeCastOp::create(b, op->getLoc(), floatType, qc);
    op->getResult(0).replaceAllUsesExcept(d, qc.getDefiningOp());
    return;
  }
  Value d = quant::DequantizeCastOp::create(b, op->getLoc(), floatType, result);
  op->getResult(0).replaceAllUsesWith(d);
  op->erase();
}

/// A relu between two quantized tensors (PyTorch's FX export quantizes a
/// conv's output, dequantizes it, applies relu and quantizes again): relu
/// of `dequantize(q)` is `dequantize(max(q, zp))` exactly, which is the
/// producer's fused relu; the dcast -> qcast left behind becomes a
/// requantization (or nothing) in cleanup. Other clamps stay float: their
/// bounds need not lie on the producer's grid.
void QntQuantizePass::fuseQuantizedRelu() {
  SmallVector<tosa::ClampOp> clamps;
  getOperation().walk([&](tosa::ClampOp op) { clamps.push_back(op); });
  for (tosa::ClampOp clamp : clamps) {
    if (!isRelu(clamp) || isExcluded(clamp) ||
        !quantizedSink(clamp.getResult()))
      continue;
    auto dc = clamp.getInput().getDefiningOp<quant::DequantizeCastOp>();
    if (!dc || !dc->hasOneUse() || !dc.getInput().hasOneUse())
      continue;
    Operation *producer = dc.getInput().getDefiningOp();
    if (!isa_and_present<Conv2DOp, LinearOp, AddOp>(producer))
      continue;
    auto act = producer->getAttrOfType<ActivationAttr>("activation");
    if (act && act.getValue() != Activation::none)
      continue;
    producer->setAttr("activation",
                      ActivationAttr::get(&getContext(), Activation::relu));
    producer->setLoc(
        FusedLoc::get(&getContext(), {clamp.getLoc(), producer->getLoc()}));
    clamp.replaceAllUsesWith(dc.getResult());
    clamp.erase();
  }
}

void QntQuantizePass::cleanup() {
  SmallVector<quant::QuantizeCastOp> qcasts;
  getOperation().walk([&](quant::QuantizeCastOp op) { qcasts.push_back(op); });
  for (quant::QuantizeCastOp qc : qcasts) {
    Value q = quantizedSource(qc.getInput());
    if (!q)
      continue;
    if (q.getType() == qc.getType()) {
      qc.replaceAllUsesWith(q);
    } else {
      OpBuilder b(qc);
      qc.replaceAllUsesWith(
          RequantizeOp::create(b, qc.getLoc(), qc.getType(), q).getOutput());
    }
    qc.erase();
  }
  // A quantized constant still dequantized for a float op (an excluded or
  // unquantizable layer's weight) becomes the float constant of its
  // dequantized values, which is what the float op computed with before:
  // the lowering of quantized casts handles activations only.
  SmallVector<quant::DequantizeCastOp> dcasts;
  getOperation().walk([&](quant::DequantizeCastOp op) {
    if (!op->use_empty() && constantStorage(op.getInput()))
      dcasts.push_back(op);
  });
  for (quant::DequantizeCastOp dc : dcasts) {
    SmallVector<int32_t> q = *constantStorage(dc.getInput());
    auto type = cast<RankedTensorType>(dc.getType());
    QuantParams p = *quantParams(elementOf(dc.getInput()));
    int64_t inner = 1;
    if (p.axis)
      for (int64_t d = *p.axis + 1; d < type.getRank(); ++d)
        inner *= type.getDimSize(d);
    SmallVector<float> values(q.size());
    for (size_t i = 0; i < q.size(); ++i) {
      size_t c = p.axis ? (i / inner) % p.scales.size() : 0;
      values[i] = quantc::ref::dequantize(q[i], p.scale(c), p.zeroPoint(c));
    }
    OpBuilder b(dc);
    dc.replaceAllUsesWith(
        arith::ConstantOp::create(
            b, dc.getLoc(),
            DenseElementsAttr::get(type, ArrayRef<float>(values)))
            .getResult());
    dc.erase();
  }
  // Drop what no longer has users (dcasts, unused constants).
  IRRewriter rewriter(&getContext());
  (void)runRegionDCE(rewriter, getOperation()->getRegions());
}

void QntQuantizePass::runOnOperation() {
  excluded.clear();
  for (const std::string &e : exclude)
    excluded.insert(e);
  SmallVector<FakeQuantOp> fakeQuants;
  // Identical fake_quants of one value (PyTorch's exporter writes one
  // DequantizeLinear per use) are one quantized tensor: keep the first.
  llvm::DenseMap<std::pair<Value, Type>, FakeQuantOp> firstOf;
  getOperation().walk([&](FakeQuantOp op) {
    auto [it, inserted] =
        firstOf.try_emplace({op.getInput(), op.getQtype()}, op);
    if (!inserted && it->second->getBlock() == op->getBlock()) {
      op.replaceAllUsesWith(it->second.getOutput());
      op.erase();
      return;
    }
    fakeQuants.push_back(op);
  });
  for (FakeQuantOp op : fakeQuants)
    if (failed(toQDQ(op)))
      return signalPassFailure();

  // The ops with an int8 form of their own, and every op that keeps its
  // input's parameters (QuantizableOpInterface).
  SmallVector<Operation *> ops;
  getOperation().walk([&](Operation *op) {
    auto q = dyn_cast<QuantizableOpInterface>(op);
    if (isa<Conv2DOp, UnaryOp, BatchNormOp, tosa::MatMulOp, tosa::AddOp,
            tosa::SubOp, tosa::MulOp, tosa::AvgPool2dOp, tosa::ConcatOp>(op) ||
        (q && q.getQuantRole() == QuantRole::same_as_input))
      ops.push_back(op);
  });
  consumed.clear();
  for (Operation *op : ops) {
    if (consumed.contains(op))
      continue;
    if (isExcluded(op)) {
      auto q = dyn_cast<QuantizableOpInterface>(op);
      if (q && q.getQuantRole() == QuantRole::same_as_input)
        keepParams(op, /*keepFloat=*/true);
      continue;
    }
    LogicalResult result = success();
    if (auto conv = dyn_cast<Conv2DOp>(op)) {
      if (!conv.isQuantized())
        result = convertConv(conv);
    } else if (auto mm = dyn_cast<tosa::MatMulOp>(op)) {
      result = convertMatmul(mm);
    } else if (isa<tosa::AddOp>(op)) {
      convertBinary<AddOp>(op);
    } else if (isa<tosa::SubOp>(op)) {
      convertBinary<SubOp>(op);
    } else if (isa<tosa::MulOp>(op)) {
      convertBinary<MulOp>(op);
    } else if (auto unary = dyn_cast<UnaryOp>(op)) {
      convertUnary(unary);
    } else if (auto pool = dyn_cast<tosa::AvgPool2dOp>(op)) {
      convertAvgPool(pool);
    } else if (auto bn = dyn_cast<BatchNormOp>(op)) {
      convertBatchNorm(bn);
    } else if (auto concat = dyn_cast<tosa::ConcatOp>(op)) {
      convertConcat(concat);
    } else {
      keepParams(op);
    }
    if (failed(result))
      return signalPassFailure();
  }
  fuseQuantizedRelu();
  cleanup();
}

} // namespace
