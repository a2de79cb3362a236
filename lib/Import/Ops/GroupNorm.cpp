//===- GroupNorm.cpp - Group and instance normalization -------------------===//
//
// InstanceNormalization and GroupNormalization (opsets 18 and 21) become
// one qnt.group_norm on the channels-last input; so does PyTorch's export
// of nn.GroupNorm below opset 18:
//
//   r = Reshape(x, [N, G, -1])   i = InstanceNormalization(r, ones, zeros)
//   y = Reshape(i, shape(x))     Add(Mul(y, weight[C, 1, 1]), bias[C, 1, 1])
//
// The InstanceNormalization is matched on the view (tosa.reshape /
// transpose ops) its input is of a channels-last tensor, checked element by
// element (each row [n, g, :] must be group g's channels of sample n), and
// the Mul and Add fold into gamma and beta (foldIntoGroupNorm, asked by
// binary() in Elementwise.cpp), whose result is the group norm itself in
// its channels-last layout when the view is the Reshape back.
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"
#include "Common.h"

#include "dialects/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/IRMapping.h"

#include <cmath>

using namespace mlir;
using namespace quantc::onnx_import;

namespace {

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

void quantc::onnx_import::registerGroupNormOps(OpRegistry &r) {
  r.add("InstanceNormalization", instanceNormalization, 6);
  r.add("GroupNormalization", groupNormalization</*perChannel=*/false>, 18);
  r.add("GroupNormalization", groupNormalization</*perChannel=*/true>, 21);
}
