//===- Normalization.cpp - Batch, layer and Lp normalization --------------===//
//
// BatchNormalization (inference) becomes one qnt.batch_norm.
// LayerNormalization (opset 17) and the pattern PyTorch exports for
// nn.LayerNorm below opset 17 become one qnt.layer_norm:
//
//   m = ReduceMean(x, trailing axes)     d = Sub(x, m)
//   v = ReduceMean(Pow(d, 2))            s = Sqrt(Add(v, eps))
//   y = Div(d, s)  [ Mul(y, weight) ]  [ Add(., bias) ]
//
// The Div is matched on the IR its inputs were imported as (binary() in
// Elementwise.cpp asks matchLayerNorm), and a Mul or Add by a constant that
// broadcasts along the normalized dimensions only folds into gamma / beta
// (foldIntoLayerNorm), as the GELU pattern is matched at its last Mul.
// LpNormalization is TOSA ops. Group and instance normalization are in
// GroupNorm.cpp (registered with these).
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"
#include "Common.h"

#include "dialects/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"

#include <cfloat>
#include <cmath>

using namespace mlir;
using namespace quantc::onnx_import;

namespace {

bool near(double a, double b) {
  return std::fabs(a - b) <= 1e-6 * std::fabs(b);
}

/// `v` without the tosa.reshapes that only add, drop or move dimensions of
/// size 1 (layout changes around a reduction put them there).
Value skipUnitReshapes(Value v) {
  auto nonUnit = [](Type t) {
    SmallVector<int64_t> dims;
    for (int64_t d : cast<RankedTensorType>(t).getShape())
      if (d != 1)
        dims.push_back(d);
    return dims;
  };
  while (auto r = v.getDefiningOp<tosa::ReshapeOp>()) {
    if (nonUnit(r.getInput1().getType()) != nonUnit(r.getType()))
      break;
    v = r.getInput1();
  }
  return v;
}

/// `x` and the first reduced dimension if `v` is the mean of `x` over its
/// trailing IR dimensions [axis, rank), but for trailing dimensions of size
/// 1: reduce_sums over exactly those dimensions times 1 / count (how
/// ReduceMean is imported).
std::optional<std::pair<Value, int64_t>> meanOf(Value v) {
  auto mul = skipUnitReshapes(v).getDefiningOp<tosa::MulOp>();
  if (!mul)
    return std::nullopt;
  for (auto [sum, k] : {std::pair{mul.getInput1(), mul.getInput2()},
                        std::pair{mul.getInput2(), mul.getInput1()}}) {
    std::optional<double> factor = splatValue(k);
    if (!factor)
      continue;
    SmallVector<int64_t> axes;
    Value x = sum;
    while (auto r = x.getDefiningOp<tosa::ReduceSumOp>()) {
      axes.push_back(r.getAxis());
      x = r.getInput();
    }
    if (axes.empty())
      continue;
    auto type = cast<RankedTensorType>(x.getType());
    llvm::sort(axes);
    int64_t rank = type.getRank(), first = axes.front(), count = 1;
    for (auto [i, a] : llvm::enumerate(axes)) {
      if (a != first + static_cast<int64_t>(i))
        return std::nullopt;
      count *= type.getDimSize(a);
    }
    // Dimensions of size 1 may follow (a layout that puts a unit dimension
    // last, as MaxViT's single-window partitions do).
    for (int64_t d = axes.back() + 1; d < rank; ++d)
      if (type.getDimSize(d) != 1)
        return std::nullopt;
    if (!near(*factor, 1.0 / static_cast<double>(count)))
      return std::nullopt;
    return std::pair{x, first};
  }
  return std::nullopt;
}

/// `d` if `v` is d ^ 2 (Pow by 2 or d * d).
Value squareOf(Value v) {
  v = skipUnitReshapes(v);
  if (auto pow = v.getDefiningOp<tosa::PowOp>()) {
    std::optional<double> e = splatValue(pow.getInput2());
    return e && *e == 2.0 ? pow.getInput1() : Value();
  }
  if (auto mul = v.getDefiningOp<tosa::MulOp>())
    if (mul.getInput1() == mul.getInput2())
      return mul.getInput1();
  return {};
}

/// A constant of the normalized shape filled with `value`.
Value filled(NodeImporter &n, ArrayRef<int64_t> shape, float value) {
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  if (!n.hasRoomInIr(shape)) // the import fails after the node
    return n.constant(shape, {value});
  return n.constant(shape, std::vector<float>(count, value));
}

/// LayerNormalization (opset 17): normalizes ONNX dimensions [axis, rank),
/// with Scale and optional B of their shape (or broadcasting to it); an
/// empty Scale is 1 (PyTorch 1.13 writes one for nn.LayerNorm without
/// elementwise_affine). The Mean and InvStdDev outputs are training
/// outputs and not supported.
LogicalResult layerNormalization(NodeImporter &n) {
  if (failed(n.checkArity(1, 3, 1, 3)))
    return failure();
  for (int i = 1; i < n.node().output_size(); ++i)
    if (!n.node().output(i).empty())
      return n.emitError() << "the Mean and InvStdDev outputs are not "
                              "supported";
  FailureOr<Act> x = n.act(0);
  FailureOr<int64_t> axisAttr = n.intAttr("axis", -1);
  FailureOr<float> eps = n.floatAttr("epsilon", 1e-5f);
  if (failed(x) || failed(axisAttr) || failed(eps))
    return failure();
  if (*eps < 0.0f)
    return n.emitError() << "epsilon must be >= 0";
  FailureOr<int64_t> axis = n.normalizeAxis(*axisAttr, x->rank());
  if (failed(axis))
    return failure();
  // The normalized dimensions trailing in IR, in ONNX order.
  Layout layout = x->layout;
  for (int64_t d = *axis; d < x->rank(); ++d)
    if (layout[d] != d) {
      layout = identityLayout(x->rank());
      break;
    }
  Act in{n.inLayout(*x, layout), layout};
  ArrayRef<int64_t> normalized = in.irShape().drop_front(*axis);
  Value gamma = filled(n, normalized, 1.0f), beta = filled(n, normalized, 0.0f);
  ImplicitLocOpBuilder &b = n.builder();
  Value y = qnt::LayerNormOp::create(b, in.value, gamma, beta,
                                     b.getI64IntegerAttr(*axis),
                                     b.getF32FloatAttr(*eps));
  Act result{y, layout};
  for (int i = 1; i < 3; ++i) {
    FailureOr<const ConstTensor *> p = n.optionalConstant(i);
    if (failed(p))
      return failure();
    if (!*p)
      continue;
    Value folded = foldIntoLayerNorm(n, result, **p, /*isMul=*/i == 1);
    if (!folded)
      return n.emitError() << (i == 1 ? "Scale" : "B")
                           << " must broadcast to the normalized dimensions";
    result.value = folded;
  }
  return n.setOutput(result);
}

//===----------------------------------------------------------------------===//
// LpNormalization
//===----------------------------------------------------------------------===//

/// LpNormalization: x / ||x||_p along `axis` (p 1 or 2), in TOSA ops; the
/// norm is kept >= FLT_MIN, so that an all-zero slice gives zeros (as ONNX
/// Runtime) rather than 0 / 0.
LogicalResult lpNormalization(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<Act> x = n.act(0);
  FailureOr<int64_t> axisAttr = n.intAttr("axis", -1), p = n.intAttr("p", 2);
  if (failed(x) || failed(axisAttr) || failed(p))
    return failure();
  if (*p != 1 && *p != 2)
    return n.emitError() << "p must be 1 or 2, got " << *p;
  FailureOr<int64_t> axis = n.normalizeAxis(*axisAttr, x->rank());
  if (failed(axis))
    return failure();
  ImplicitLocOpBuilder &b = n.builder();
  Value v = x->value;
  auto type = cast<RankedTensorType>(v.getType());
  int64_t irAxis = x->irAxis(*axis), rank = x->rank();
  Value terms =
      *p == 2 ? n.mul(v, v, type) : Value(tosa::AbsOp::create(b, type, v));
  SmallVector<int64_t> reduced(type.getShape());
  reduced[irAxis] = 1;
  Value norm = tosa::ReduceSumOp::create(
      b, n.f32(reduced), terms,
      b.getI32IntegerAttr(static_cast<int32_t>(irAxis)));
  if (*p == 2)
    norm = tosa::PowOp::create(b, norm.getType(), norm, n.splat(0.5f, rank));
  norm =
      tosa::MaximumOp::create(b, norm.getType(), norm, n.splat(FLT_MIN, rank));
  Value inverse = tosa::ReciprocalOp::create(b, norm.getType(), norm);
  return n.setOutput({n.mul(v, inverse, type), x->layout});
}

/// BatchNormalization (inference): one qnt.batch_norm along the channels.
LogicalResult batchNorm(NodeImporter &n) {
  if (failed(n.checkArity(5, 5, 1, 5)))
    return failure();
  // Opsets 7-13 train when the running / saved statistics are asked for.
  for (int i = 1; i < n.node().output_size(); ++i)
    if (!n.node().output(i).empty())
      return n.emitError() << "training mode (the mean / variance outputs) "
                              "is not supported: inference only";
  // Opsets 7-8: spatial=0 normalizes each element with its own statistics.
  FailureOr<bool> spatial = n.boolAttr("spatial", true);
  if (failed(spatial))
    return failure();
  if (n.opset() < 9 && !*spatial)
    return n.emitError() << "spatial=0 (per-element statistics) is not "
                            "supported";
  FailureOr<Act> x = n.act(0);
  if (failed(x))
    return failure();
  if (x->rank() < 2)
    return n.emitError() << "input must have rank >= 2 (channels at axis 1)";
  FailureOr<bool> training = n.boolAttr("training_mode", false);
  if (failed(training))
    return failure();
  if (*training)
    return n.emitError() << "training mode is not supported";
  int64_t channels = x->onnxShape()[1];
  Value params[4];
  for (int i = 0; i < 4; ++i) {
    const ConstTensor *t = n.constant(i + 1);
    if (!t)
      return failure();
    if (t->numElements() != channels)
      return n.emitError() << "parameter " << i + 1
                           << " must have one value per channel (" << channels
                           << ")";
    params[i] = n.constant({channels}, t->floats());
  }
  FailureOr<float> eps = n.floatAttr("epsilon", 1e-5f);
  if (failed(eps))
    return failure();
  if (!(*eps >= 0.0f))
    return n.emitError() << "epsilon must be >= 0";
  int64_t axis = x->irAxis(1);
  if (axis == x->rank() - 1)
    axis = -1;
  ImplicitLocOpBuilder &b = n.builder();
  Value result = qnt::BatchNormOp::create(
      b, x->value.getType(), x->value, params[0], params[1], params[2],
      params[3], b.getF32FloatAttr(*eps), b.getI64IntegerAttr(axis));
  return n.setOutput({result, x->layout});
}

} // namespace

std::optional<std::vector<float>> quantc::onnx_import::constantValues(Value v) {
  DenseFPElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.getElementType().isF32())
    return std::nullopt;
  auto values = attr.getValues<float>();
  return std::vector<float>(values.begin(), values.end());
}

Value quantc::onnx_import::matchLayerNorm(NodeImporter &n, const Act &numerator,
                                          const Act &denominator) {
  // The two may have different layouts (the denominator's reshapes move
  // unit dimensions): only values are compared, both reduce over the same
  // IR dimensions of the same tensor, and the result has the numerator's
  // layout.
  // numerator = x - mean(x)
  auto sub = numerator.value.getDefiningOp<tosa::SubOp>();
  if (!sub)
    return {};
  std::optional<std::pair<Value, int64_t>> mean = meanOf(sub.getInput2());
  if (!mean || mean->first != sub.getInput1())
    return {};
  // denominator = (mean(numerator ^ 2) + eps) ^ 0.5
  auto sqrt = skipUnitReshapes(denominator.value).getDefiningOp<tosa::PowOp>();
  std::optional<double> half =
      sqrt ? splatValue(sqrt.getInput2()) : std::nullopt;
  if (!half || *half != 0.5)
    return {};
  auto add = skipUnitReshapes(sqrt.getInput1()).getDefiningOp<tosa::AddOp>();
  if (!add)
    return {};
  for (auto [var, e] : {std::pair{add.getInput1(), add.getInput2()},
                        std::pair{add.getInput2(), add.getInput1()}}) {
    std::optional<double> eps = splatValue(e);
    std::optional<std::pair<Value, int64_t>> variance = meanOf(var);
    if (!eps || *eps < 0.0 || !std::isfinite(*eps) || !variance ||
        variance->second != mean->second ||
        squareOf(variance->first) != numerator.value)
      continue;
    Value x = mean->first;
    ArrayRef<int64_t> normalized =
        cast<RankedTensorType>(x.getType()).getShape().drop_front(mean->second);
    ImplicitLocOpBuilder &b = n.builder();
    return qnt::LayerNormOp::create(
        b, x, filled(n, normalized, 1.0f), filled(n, normalized, 0.0f),
        b.getI64IntegerAttr(mean->second),
        b.getF32FloatAttr(static_cast<float>(*eps)));
  }
  return {};
}

Value quantc::onnx_import::foldIntoLayerNorm(NodeImporter &n, const Act &a,
                                             const ConstTensor &c, bool isMul) {
  auto ln = a.value.getDefiningOp<qnt::LayerNormOp>();
  if (!ln || static_cast<int64_t>(c.dims.size()) > a.rank() ||
      c.dtype != onnx::TensorProto::FLOAT)
    return {};
  // `c` in the activation's layout (leading ones added), broadcast to the
  // normalized dimensions; it may not extend the leading ones.
  ConstTensor full = c;
  full.dims.insert(full.dims.begin(), a.rank() - c.dims.size(), 1);
  full = full.permuted(a.layout);
  int64_t axis = ln.getAxis();
  ArrayRef<int64_t> irShape = a.irShape();
  for (int64_t d = 0; d < a.rank(); ++d)
    if (d < axis ? full.dims[d] != 1
                 : full.dims[d] != 1 && full.dims[d] != irShape[d])
      return {};
  ConstTensor shape;
  shape.dims.assign(irShape.begin(), irShape.end());
  for (int64_t d = 0; d < axis; ++d)
    shape.dims[d] = 1;
  shape.data.assign(shape.numElements(), 0.0);
  ConstTensor bcast;
  if (llvm::errorToBool(
          broadcastElementwise({&full, &shape}, full.dtype, bcast,
                               [](ArrayRef<double> v) { return v[0]; })))
    return {};
  std::optional<std::vector<float>> gamma = constantValues(ln.getGamma()),
                                    beta = constantValues(ln.getBeta());
  if (!gamma || !beta || gamma->size() != bcast.data.size())
    return {};
  for (size_t i = 0; i < gamma->size(); ++i) {
    float k = static_cast<float>(bcast.data[i]);
    if (isMul) {
      (*gamma)[i] *= k;
      (*beta)[i] *= k;
    } else {
      (*beta)[i] += k;
    }
  }
  ArrayRef<int64_t> normalized = irShape.drop_front(axis);
  ImplicitLocOpBuilder &b = n.builder();
  return qnt::LayerNormOp::create(
      b, ln.getInput(), n.constant(normalized, *gamma),
      n.constant(normalized, *beta), ln.getAxisAttr(), ln.getEpsilonAttr());
}

void quantc::onnx_import::registerNormalizationOps(OpRegistry &r) {
  r.add("BatchNormalization", batchNorm);
  r.add("LayerNormalization", layerNormalization, 17);
  r.add("LpNormalization", lpNormalization);
  registerGroupNormOps(r);
}
