//===- Normalization.cpp - Layer, group, instance and Lp normalization ----===//
//
// InstanceNormalization and GroupNormalization (opsets 18 and 21) become
// one qnt.group_norm on the channels-last input; so does PyTorch's export
// of nn.GroupNorm below opset 18 (Reshape to [N, G, -1],
// InstanceNormalization, Reshape back, Mul, Add: the InstanceNormalization
// is matched on the view its input is, and the Mul and Add fold into gamma
// and beta, foldIntoGroupNorm). LpNormalization is TOSA ops.
//
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
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"
#include "Common.h"

#include "dialects/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/IRMapping.h"
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
  return n.constant(shape, std::vector<float>(count, value));
}

/// The float values of a constant tensor (gamma, beta).
std::optional<std::vector<float>> constantValues(Value v) {
  DenseFPElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.getElementType().isF32())
    return std::nullopt;
  auto values = attr.getValues<float>();
  return std::vector<float>(values.begin(), values.end());
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
// Group and instance normalization, LpNormalization
//===----------------------------------------------------------------------===//

/// The largest view (elements) whose index map the group norm patterns
/// compute at import time.
constexpr int64_t kMaxViewElements = int64_t(1) << 23;

/// The tosa.reshape / tosa.transpose ops `v` is a view through, nearest
/// first (the input of the last is the viewed value).
SmallVector<Operation *> viewOps(Value v) {
  SmallVector<Operation *> ops;
  while (Operation *op = v.getDefiningOp()) {
    if (!isa<tosa::ReshapeOp, tosa::TransposeOp>(op))
      break;
    ops.push_back(op);
    v = op->getOperand(0);
  }
  return ops;
}

/// For each element of the result of `ops` (nearest first, non-empty), in
/// its IR order, the flat IR index in the viewed value that it holds; none
/// when the view is too large to map.
std::optional<ConstTensor> viewIndices(ArrayRef<Operation *> ops) {
  auto type = cast<RankedTensorType>(ops.back()->getOperand(0).getType());
  if (type.getNumElements() > kMaxViewElements)
    return std::nullopt;
  ConstTensor t;
  t.dims.assign(type.getShape().begin(), type.getShape().end());
  t.data.resize(type.getNumElements());
  for (size_t i = 0; i < t.data.size(); ++i)
    t.data[i] = static_cast<double>(i);
  for (Operation *op : llvm::reverse(ops)) {
    if (auto transpose = dyn_cast<tosa::TransposeOp>(op)) {
      t = t.permuted(SmallVector<int64_t>(transpose.getPerms()));
    } else {
      ArrayRef<int64_t> shape =
          cast<RankedTensorType>(op->getResult(0).getType()).getShape();
      t.dims.assign(shape.begin(), shape.end());
    }
  }
  return t;
}

/// `ops` (nearest first) rebuilt on `v` in place of the viewed value.
Value replayView(NodeImporter &n, Value v, ArrayRef<Operation *> ops) {
  for (Operation *op : llvm::reverse(ops)) {
    IRMapping map;
    map.map(op->getOperand(0), v);
    v = n.builder().clone(*op, map)->getResult(0);
  }
  return v;
}

/// Calls `fn(multiIndex)` for each index of `shape` in row-major order.
template <typename Fn> void forEachIndex(ArrayRef<int64_t> shape, Fn fn) {
  SmallVector<int64_t> m(shape.size(), 0);
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  for (int64_t e = 0; e < count; ++e) {
    fn(ArrayRef<int64_t>(m));
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++m[d] < shape[d])
        break;
      m[d] = 0;
    }
  }
}

/// `x` in a layout that puts ONNX's channel dimension 1 last: [N, spatial
/// ..., C] (NHWC for an image), as qnt.group_norm takes it.
Act channelsLast(NodeImporter &n, const Act &x) {
  Layout layout{0};
  for (int64_t d = 2; d < x.rank(); ++d)
    layout.push_back(d);
  layout.push_back(1);
  return {n.inLayout(x, layout), layout};
}

Value groupNorm(NodeImporter &n, Value x, int64_t groups, ArrayRef<float> gamma,
                ArrayRef<float> beta, float eps) {
  ImplicitLocOpBuilder &b = n.builder();
  int64_t channels = static_cast<int64_t>(gamma.size());
  return qnt::GroupNormOp::create(
      b, x, n.constant({channels}, gamma), n.constant({channels}, beta),
      b.getI64IntegerAttr(groups), b.getF32FloatAttr(eps));
}

/// PyTorch's export of nn.GroupNorm below opset 18: InstanceNormalization
/// of `x` = Reshape(y, [N, G, -1]) with one scale and bias per group. When
/// `x` is a view (reshapes, transposes) of a channels-last value whose
/// groups of C / G channels are exactly x's rows [n, g, :], the result is
/// one qnt.group_norm of that value (scale and bias repeated over each
/// group's channels), viewed as `x` is. Null otherwise.
Value fuseGroupedInstanceNorm(NodeImporter &n, const Act &x,
                              ArrayRef<float> scale, ArrayRef<float> bias,
                              float eps) {
  if (x.rank() != 3)
    return {};
  SmallVector<int64_t> shape = x.onnxShape();
  int64_t batch = shape[0], groups = shape[1];
  SmallVector<Operation *> ops = viewOps(x.value);
  // The ONNX dimensions 0 and 1 of x in IR.
  int64_t irBatch = x.irAxis(0), irGroup = x.irAxis(1);
  for (size_t k = 1; k <= ops.size(); ++k) {
    ArrayRef<Operation *> chain = ArrayRef<Operation *>(ops).take_front(k);
    Value src = chain.back()->getOperand(0);
    ArrayRef<int64_t> srcShape =
        cast<RankedTensorType>(src.getType()).getShape();
    if (srcShape.size() < 2 || srcShape[0] != batch ||
        srcShape.back() % groups != 0)
      continue;
    int64_t channels = srcShape.back(), perGroup = channels / groups;
    int64_t perSample =
        cast<RankedTensorType>(src.getType()).getNumElements() / batch;
    std::optional<ConstTensor> idx = viewIndices(chain);
    if (!idx)
      return {};
    bool matches = true;
    size_t e = 0;
    forEachIndex(idx->dims, [&](ArrayRef<int64_t> m) {
      auto p = static_cast<int64_t>(idx->data[e++]);
      matches &= p / perSample == m[irBatch] &&
                 (p % channels) / perGroup == m[irGroup];
    });
    if (!matches)
      continue;
    SmallVector<float> gamma, beta;
    for (int64_t c = 0; c < channels; ++c) {
      gamma.push_back(scale[c / perGroup]);
      beta.push_back(bias[c / perGroup]);
    }
    return replayView(n, groupNorm(n, src, groups, gamma, beta, eps), chain);
  }
  return {};
}

/// The float values of a 1-D constant input of `count` elements.
FailureOr<SmallVector<float>> vectorInput(NodeImporter &n, int i, int64_t count,
                                          StringRef what) {
  const ConstTensor *t = n.constant(i);
  if (!t)
    return failure();
  if (t->dims.size() != 1 || t->dims[0] != count)
    return n.emitError() << what << " must have shape [" << count << "]";
  if (t->dtype != onnx::TensorProto::FLOAT)
    return n.emitError() << what << " must be float";
  return SmallVector<float>(t->data.begin(), t->data.end());
}

/// InstanceNormalization: x [N, C, D1, ...] normalized over D1, ... for
/// each sample and channel, scale and B of shape [C]: qnt.group_norm with
/// C groups (or PyTorch's GroupNorm pattern, fuseGroupedInstanceNorm).
LogicalResult instanceNormalization(NodeImporter &n) {
  if (failed(n.checkArity(3, 3)))
    return failure();
  FailureOr<Act> x = n.act(0);
  FailureOr<float> eps = n.floatAttr("epsilon", 1e-5f);
  if (failed(x) || failed(eps))
    return failure();
  if (x->rank() < 3)
    return n.emitError() << "input must be [N, C, D1, ...] (rank >= 3), got "
                            "rank "
                         << x->rank();
  if (*eps < 0.0f)
    return n.emitError() << "epsilon must be >= 0";
  int64_t channels = x->onnxShape()[1];
  FailureOr<SmallVector<float>> scale = vectorInput(n, 1, channels, "scale");
  if (failed(scale))
    return failure();
  FailureOr<SmallVector<float>> bias = vectorInput(n, 2, channels, "B");
  if (failed(bias))
    return failure();
  if (Value fused = fuseGroupedInstanceNorm(n, *x, *scale, *bias, *eps))
    return n.setOutput({fused, x->layout});
  Act in = channelsLast(n, *x);
  return n.setOutput(
      {groupNorm(n, in.value, channels, *scale, *bias, *eps), in.layout});
}

/// GroupNormalization: `num_groups` groups of channels; scale and bias per
/// group (opset 18) or per channel (`perChannel`, opset 21).
template <bool perChannel> LogicalResult groupNormalization(NodeImporter &n) {
  if (failed(n.checkArity(3, 3)))
    return failure();
  FailureOr<Act> x = n.act(0);
  FailureOr<float> eps = n.floatAttr("epsilon", 1e-5f);
  FailureOr<int64_t> groups = n.intAttr("num_groups", 0);
  if (failed(x) || failed(eps) || failed(groups))
    return failure();
  if (x->rank() < 3)
    return n.emitError() << "input must be [N, C, D1, ...] (rank >= 3), got "
                            "rank "
                         << x->rank();
  if (*eps < 0.0f)
    return n.emitError() << "epsilon must be >= 0";
  int64_t channels = x->onnxShape()[1];
  if (*groups < 1 || channels % *groups != 0)
    return n.emitError() << "num_groups must be given and divide the "
                         << channels << " channels, got " << *groups;
  int64_t perGroup = channels / *groups;
  int64_t count = perChannel ? channels : *groups;
  FailureOr<SmallVector<float>> scale = vectorInput(n, 1, count, "scale");
  if (failed(scale))
    return failure();
  FailureOr<SmallVector<float>> bias = vectorInput(n, 2, count, "bias");
  if (failed(bias))
    return failure();
  SmallVector<float> gamma, beta;
  for (int64_t c = 0; c < channels; ++c) {
    int64_t i = perChannel ? c : c / perGroup;
    gamma.push_back((*scale)[i]);
    beta.push_back((*bias)[i]);
  }
  Act in = channelsLast(n, *x);
  return n.setOutput(
      {groupNorm(n, in.value, *groups, gamma, beta, *eps), in.layout});
}

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

} // namespace

Value quantc::onnx_import::foldIntoGroupNorm(NodeImporter &n, const Act &a,
                                             const ConstTensor &c, bool isMul,
                                             Layout &layout) {
  if (c.dtype != onnx::TensorProto::FLOAT ||
      static_cast<int64_t>(c.dims.size()) > a.rank())
    return {};
  // a = view(group_norm) through the nearest `k` view ops.
  SmallVector<Operation *> ops = viewOps(a.value);
  qnt::GroupNormOp gn = a.value.getDefiningOp<qnt::GroupNormOp>();
  size_t k = 0;
  for (; !gn && k < ops.size(); ++k)
    gn = ops[k]->getOperand(0).getDefiningOp<qnt::GroupNormOp>();
  if (!gn)
    return {};
  ArrayRef<Operation *> chain = ArrayRef<Operation *>(ops).take_front(k);
  ArrayRef<int64_t> gnShape = gn.getInput().getType().getShape();
  int64_t channels = gnShape.back();
  // `c` in the activation's layout, broadcasting to it without growing it.
  ConstTensor full = c;
  full.dims.insert(full.dims.begin(), a.rank() - c.dims.size(), 1);
  full = full.permuted(a.layout);
  ArrayRef<int64_t> irShape = a.irShape();
  for (int64_t d = 0; d < a.rank(); ++d)
    if (full.dims[d] != 1 && full.dims[d] != irShape[d])
      return {};
  std::optional<ConstTensor> idx;
  if (!chain.empty()) {
    idx = viewIndices(chain);
    if (!idx)
      return {};
  } else if (cast<RankedTensorType>(a.value.getType()).getNumElements() >
             kMaxViewElements) {
    return {};
  }
  // The constant's value for each channel of the group norm, which must
  // not vary within a channel.
  SmallVector<double> perChannel(channels, std::nan(""));
  bool uniform = true;
  int64_t e = 0;
  forEachIndex(irShape, [&](ArrayRef<int64_t> m) {
    int64_t flat = 0;
    for (int64_t d = 0; d < a.rank(); ++d)
      flat = flat * full.dims[d] + (full.dims[d] == 1 ? 0 : m[d]);
    double value = full.data[flat];
    int64_t p = idx ? static_cast<int64_t>(idx->data[e]) : e;
    ++e;
    double &slot = perChannel[p % channels];
    if (std::isnan(slot))
      slot = value;
    else
      uniform &= slot == value;
  });
  if (!uniform)
    return {};
  std::optional<std::vector<float>> gamma = constantValues(gn.getGamma()),
                                    beta = constantValues(gn.getBeta());
  if (!gamma || !beta)
    return {};
  for (int64_t ch = 0; ch < channels; ++ch) {
    auto k = static_cast<float>(perChannel[ch]);
    if (isMul) {
      (*gamma)[ch] *= k;
      (*beta)[ch] *= k;
    } else {
      (*beta)[ch] += k;
    }
  }
  Value folded = groupNorm(n, gn.getInput(), gn.getGroups(), *gamma, *beta,
                           gn.getEpsilon().convertToFloat());
  // When `a` holds the group norm's elements in ONNX order (the Reshape
  // back of PyTorch's export), the result is the group norm itself in its
  // channels-last layout: no transposes.
  Layout gnLayout{0};
  for (int64_t d = 2; d < a.rank(); ++d)
    gnLayout.push_back(d);
  gnLayout.push_back(1);
  SmallVector<int64_t> onnxShape = a.onnxShape();
  if (idx && static_cast<int64_t>(gnShape.size()) == a.rank() &&
      toIrShape(onnxShape, gnLayout) == gnShape) {
    bool inOrder = true;
    int64_t e = 0;
    SmallVector<int64_t> o(a.rank());
    forEachIndex(irShape, [&](ArrayRef<int64_t> m) {
      for (int64_t i = 0; i < a.rank(); ++i)
        o[a.layout[i]] = m[i];
      int64_t flat = 0;
      for (int64_t d : gnLayout)
        flat = flat * onnxShape[d] + o[d];
      inOrder &= static_cast<int64_t>(idx->data[e++]) == flat;
    });
    if (inOrder) {
      layout = gnLayout;
      return folded;
    }
  }
  layout = a.layout;
  return replayView(n, folded, chain);
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
  if (broadcastElementwise({&full, &shape}, full.dtype, bcast,
                           [](ArrayRef<double> v) { return v[0]; }))
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
  r.add("LayerNormalization", layerNormalization, 17);
  r.add("InstanceNormalization", instanceNormalization, 6);
  r.add("GroupNormalization", groupNormalization</*perChannel=*/false>, 18);
  r.add("GroupNormalization", groupNormalization</*perChannel=*/true>, 21);
  r.add("LpNormalization", lpNormalization);
}
