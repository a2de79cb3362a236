//===- Shape.cpp - Data movement: reshapes, transposes, slices, pads ------===//
//
// Reshape (0 and -1), Flatten, Squeeze / Unsqueeze, Transpose, Concat,
// Split, Slice, Gather with constant indices, Pad (constant / reflect /
// edge), Expand, Tile, DepthToSpace and SpaceToDepth. On activations a
// Transpose only changes the layout and a reshape keeps it where it can
// (NodeImporter::reshapeAct), so NHWC permutes and channel shuffles cost no
// copies of their own. On constants every op folds, which is how shape
// sub-graphs (Shape -> Gather -> Unsqueeze -> Concat -> Reshape) become
// static shapes.
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

using namespace mlir;
using namespace quantc::onnx_import;

namespace {

/// The shape of input 0 (activation or constant).
FailureOr<SmallVector<int64_t>> inputShape(NodeImporter &n) {
  if (n.isActivation(0))
    return n.act(0)->onnxShape();
  if (const ConstTensor *c = n.constant(0))
    return SmallVector<int64_t>(c->dims);
  return failure();
}

/// Input 0 reshaped to `shape` (element count checked by the caller).
LogicalResult setReshaped(NodeImporter &n, ArrayRef<int64_t> shape) {
  if (n.isActivation(0))
    return n.setOutput(n.reshapeAct(*n.act(0), shape));
  FailureOr<ConstTensor> t = n.copyConstant(0);
  if (failed(t))
    return failure();
  t->dims.assign(shape.begin(), shape.end());
  return n.setOutput(std::move(*t));
}

LogicalResult reshapeOp(NodeImporter &n) {
  if (failed(n.checkArity(2, 2)))
    return failure();
  FailureOr<SmallVector<int64_t>> in = inputShape(n);
  FailureOr<SmallVector<int64_t>> target = n.intsInput(1);
  FailureOr<bool> allowZero = n.boolAttr("allowzero", false);
  if (failed(in) || failed(target) || failed(allowZero))
    return failure();
  int64_t total = computeProduct(*in), known = 1, inferred = -1;
  // A model exported at batch 1 and rebatched (--batch N): a constant shape
  // that keeps the exported batch in front keeps the new one.
  int64_t batch = n.graph().rebatched;
  if (batch > 1 && !target->empty() && (*target)[0] == 1 && !in->empty() &&
      (*in)[0] == batch && n.isConstant(1))
    (*target)[0] = batch;
  for (size_t i = 0; i < target->size(); ++i) {
    int64_t &d = (*target)[i];
    if (d == 0 && !*allowZero) {
      if (i >= in->size())
        return n.emitError() << "shape 0 refers to a missing dimension";
      d = (*in)[i];
    }
    if (d == -1) {
      if (inferred >= 0)
        return n.emitError() << "more than one -1 in the shape";
      inferred = i;
    } else if (d < 0) {
      return n.emitError() << "invalid dimension " << d;
    } else {
      known *= d;
    }
  }
  if (inferred >= 0) {
    if (known == 0 || total % known)
      return n.emitError() << "cannot infer the -1 dimension";
    (*target)[inferred] = total / known;
  } else if (known != total) {
    return n.emitError() << "shape does not match the element count";
  }
  return setReshaped(n, *target);
}

LogicalResult flatten(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<SmallVector<int64_t>> in = inputShape(n);
  FailureOr<int64_t> axisAttr = n.intAttr("axis", 1);
  if (failed(in) || failed(axisAttr))
    return failure();
  int64_t rank = in->size();
  // Axis may equal the rank (everything in the outer dimension).
  if (*axisAttr < -rank || *axisAttr > rank)
    return n.emitError() << "axis " << *axisAttr << " is out of range for rank "
                         << rank;
  int64_t axis = *axisAttr < 0 ? *axisAttr + rank : *axisAttr;
  int64_t outer = computeProduct(ArrayRef<int64_t>(*in).take_front(axis));
  return setReshaped(
      n, {outer, computeProduct(*in) / std::max<int64_t>(outer, 1)});
}

/// Squeeze / Unsqueeze: axes from the attribute (opsets < 13) or input 1.
template <bool unsqueeze> LogicalResult squeezeOp(NodeImporter &n) {
  bool axesInput = n.opset() >= 13;
  if (failed(n.checkArity(1, axesInput ? 2 : 1)))
    return failure();
  FailureOr<SmallVector<int64_t>> in = inputShape(n);
  if (failed(in))
    return failure();
  FailureOr<SmallVector<int64_t>> raw =
      axesInput ? n.optionalIntsInput(1) : n.intsAttr("axes", {});
  if (failed(raw))
    return failure();
  SmallVector<int64_t> shape;
  if (unsqueeze) {
    int64_t rank = in->size() + raw->size();
    FailureOr<SmallVector<int64_t>> axes = n.normalizeAxes(*raw, rank);
    if (failed(axes))
      return failure();
    for (int64_t d = 0, next = 0; d < rank; ++d)
      shape.push_back(llvm::is_contained(*axes, d) ? 1 : (*in)[next++]);
  } else {
    FailureOr<SmallVector<int64_t>> axes = n.normalizeAxes(*raw, in->size());
    if (failed(axes))
      return failure();
    for (int64_t a : *axes)
      if ((*in)[a] != 1)
        return n.emitError()
               << "cannot squeeze axis " << a << " of size " << (*in)[a];
    for (int64_t d = 0; d < static_cast<int64_t>(in->size()); ++d)
      if (axes->empty() ? (*in)[d] != 1 : !llvm::is_contained(*axes, d))
        shape.push_back((*in)[d]);
  }
  return setReshaped(n, shape);
}

LogicalResult transposeOp(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<SmallVector<int64_t>> in = inputShape(n);
  if (failed(in))
    return failure();
  int64_t rank = in->size();
  SmallVector<int64_t> reversed;
  for (int64_t d = rank - 1; d >= 0; --d)
    reversed.push_back(d);
  FailureOr<SmallVector<int64_t>> perm = n.intsAttr("perm", reversed);
  if (failed(perm))
    return failure();
  SmallVector<int64_t> sorted = *perm;
  llvm::sort(sorted);
  if (static_cast<int64_t>(perm->size()) != rank ||
      sorted != ArrayRef<int64_t>(identityLayout(rank)))
    return n.emitError() << "perm is not a permutation of the " << rank
                         << " dimensions";
  if (!n.isActivation(0)) {
    if (failed(n.checkConstantShape(n.constant(0)->dims, "the result")))
      return failure();
    return n.setOutput(n.constant(0)->permuted(*perm));
  }
  // Only the layout changes: ONNX input dimension perm[j] becomes output
  // dimension j.
  Act x = *n.act(0);
  SmallVector<int64_t> inverse(rank);
  for (int64_t j = 0; j < rank; ++j)
    inverse[(*perm)[j]] = j;
  for (int64_t &d : x.layout)
    d = inverse[d];
  return n.setOutput(std::move(x));
}

LogicalResult concatOp(NodeImporter &n) {
  if (failed(n.checkArity(1, INT_MAX)))
    return failure();
  FailureOr<int64_t> axisAttr = n.intAttr("axis", 0);
  if (failed(axisAttr))
    return failure();
  SmallVector<SmallVector<int64_t>> shapes;
  int base = -1;
  for (int i = 0; i < n.numInputs(); ++i) {
    if (n.isActivation(i)) {
      shapes.push_back(n.act(i)->onnxShape());
      if (base < 0)
        base = i;
    } else if (const ConstTensor *c = n.constant(i)) {
      shapes.push_back(SmallVector<int64_t>(c->dims));
    } else {
      return failure();
    }
  }
  int64_t rank = shapes.front().size();
  FailureOr<int64_t> axis = n.normalizeAxis(*axisAttr, rank);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> outShape = shapes.front();
  outShape[*axis] = 0;
  for (ArrayRef<int64_t> s : shapes) {
    if (static_cast<int64_t>(s.size()) != rank)
      return n.emitError() << "inputs have different ranks";
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis && s[d] != outShape[d])
        return n.emitError() << "input shapes differ outside axis " << *axis;
    outShape[*axis] += s[*axis];
  }
  if (base < 0) {
    if (failed(n.checkConstantShape(outShape, "the result")))
      return failure();
    SmallVector<const ConstTensor *> parts;
    for (int i = 0; i < n.numInputs(); ++i)
      parts.push_back(n.constant(i));
    return n.setOutput(concat(parts, *axis));
  }
  // Every input in the first activation's layout.
  Layout layout = n.act(base)->layout;
  SmallVector<Value> values;
  for (int i = 0; i < n.numInputs(); ++i) {
    if (n.isActivation(i))
      values.push_back(n.inLayout(*n.act(i), layout));
    else if (n.constant(i)->numElements() > 0) // an empty one adds nothing
      values.push_back(n.constantInLayout(*n.constant(i), layout));
  }
  Act first = *n.act(base);
  int64_t irAxis = first.irAxis(*axis);
  Value result = values.size() == 1
                     ? values.front()
                     : tosa::ConcatOp::create(
                           n.builder(), n.f32(toIrShape(outShape, layout)),
                           values, n.builder().getI32IntegerAttr(irAxis));
  return n.setOutput({result, layout});
}

/// Elements [start, start + count * step) of ONNX dimension `axis` of `x`.
Act sliceAct(NodeImporter &n, const Act &x, int64_t axis, int64_t start,
             int64_t count, int64_t step) {
  ImplicitLocOpBuilder &b = n.builder();
  int64_t irAxis = x.irAxis(axis);
  SmallVector<int64_t> shape(x.irShape());
  int64_t size = shape[irAxis];
  if (start == 0 && count == size && step == 1)
    return x;
  SmallVector<int64_t> starts(x.rank(), 0), sizes = shape;
  // Strided: slice [start, start + count * step), view it as [count, step]
  // and keep index 0 of the second dimension.
  int64_t span = step == 1 ? count : std::min(count * step, size - start);
  starts[irAxis] = start;
  sizes[irAxis] = span;
  Value v = tosa::SliceOp::create(b, n.f32(sizes), x.value,
                                  tosa::getTosaConstShape(b, starts),
                                  tosa::getTosaConstShape(b, sizes));
  if (step != 1) {
    if (span < count * step) {
      // Pad the tail so that it splits evenly (the padding is dropped).
      SmallVector<int64_t> padding(2 * x.rank(), 0);
      padding[2 * irAxis + 1] = count * step - span;
      sizes[irAxis] = count * step;
      v = tosa::PadOp::create(b, n.f32(sizes), v,
                              tosa::getTosaConstShape(b, padding),
                              n.constant({1}, {0.0f}));
    }
    SmallVector<int64_t> split(sizes.begin(), sizes.begin() + irAxis);
    split.push_back(count);
    split.push_back(step);
    split.append(sizes.begin() + irAxis + 1, sizes.end());
    v = n.reshape(v, split);
    SmallVector<int64_t> first(split.size(), 0), firstSizes = split;
    firstSizes[irAxis + 1] = 1;
    v = tosa::SliceOp::create(b, n.f32(firstSizes), v,
                              tosa::getTosaConstShape(b, first),
                              tosa::getTosaConstShape(b, firstSizes));
    sizes[irAxis] = count;
    v = n.reshape(v, sizes);
  }
  return {v, x.layout};
}

/// Slice: starts / ends / axes / steps from inputs (opsets >= 10) or
/// attributes (opset 9). Positive steps only.
LogicalResult sliceOp(NodeImporter &n) {
  bool fromInputs = n.opset() >= 10;
  if (failed(n.checkArity(fromInputs ? 3 : 1, fromInputs ? 5 : 1)))
    return failure();
  FailureOr<SmallVector<int64_t>> in = inputShape(n);
  if (failed(in))
    return failure();
  int64_t rank = in->size();
  FailureOr<SmallVector<int64_t>> starts, ends, axes, steps;
  auto optionalInts =
      [&](int i, SmallVector<int64_t> dflt) -> FailureOr<SmallVector<int64_t>> {
    return n.hasInput(i) ? n.intsInput(i)
                         : FailureOr<SmallVector<int64_t>>(dflt);
  };
  SmallVector<int64_t> allAxes = identityLayout(rank);
  if (fromInputs) {
    starts = n.intsInput(1, OutOfRange::Clamp);
    ends = n.intsInput(2, OutOfRange::Clamp);
    if (failed(starts) || failed(ends))
      return failure();
    axes = optionalInts(
        3, SmallVector<int64_t>(allAxes.begin(),
                                allAxes.begin() +
                                    std::min<int64_t>(rank, starts->size())));
    steps = optionalInts(4, SmallVector<int64_t>(starts->size(), 1));
  } else {
    starts = n.intsAttr("starts", {}, OutOfRange::Clamp);
    ends = n.intsAttr("ends", {}, OutOfRange::Clamp);
    if (failed(starts) || failed(ends))
      return failure();
    axes = n.intsAttr(
        "axes", SmallVector<int64_t>(
                    allAxes.begin(),
                    allAxes.begin() + std::min<int64_t>(rank, starts->size())));
    steps = SmallVector<int64_t>(starts->size(), 1);
  }
  if (failed(axes) || failed(steps))
    return failure();
  if (starts->size() != ends->size() || starts->size() != axes->size() ||
      starts->size() != steps->size())
    return n.emitError() << "starts, ends, axes and steps differ in length";
  FailureOr<SmallVector<int64_t>> normAxes = n.normalizeAxes(*axes, rank);
  if (failed(normAxes))
    return failure();
  std::optional<Act> x;
  std::optional<ConstTensor> c;
  if (n.isActivation(0)) {
    x = *n.act(0);
  } else {
    FailureOr<ConstTensor> copy = n.copyConstant(0);
    if (failed(copy))
      return failure();
    c = std::move(*copy);
  }
  for (size_t k = 0; k < starts->size(); ++k) {
    int64_t axis = (*normAxes)[k], dim = (*in)[axis], step = (*steps)[k];
    if (step == 0)
      return n.emitError() << "steps must not be 0";
    // ONNX: negative indices count from the end; clamped to [0, dim] for
    // positive steps, to [-1, dim - 1] (start: [0, dim - 1]) for negative
    // ones.
    auto index = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0 && v != INT64_MIN)
        v += dim;
      return std::clamp<int64_t>(v, lo, hi);
    };
    int64_t start, count;
    if (step > 0) {
      start = index((*starts)[k], 0, dim);
      int64_t end = index((*ends)[k], 0, dim);
      count = end > start ? (end - start + step - 1) / step : 0;
    } else {
      start = index((*starts)[k], 0, dim - 1);
      int64_t end = index((*ends)[k], -1, dim - 1);
      count = start > end ? (start - end - step - 1) / -step : 0;
    }
    if (count == 0 && !c) // empty constants are fine (index computations)
      return n.emitError() << "the slice of axis " << axis << " is empty";
    if (c) {
      c = c->sliced(axis, start, count, step);
      continue;
    }
    if (step < 0) {
      // Reverse the axis, then slice forward.
      int64_t irAxis = x->irAxis(axis);
      x->value =
          tosa::ReverseOp::create(n.builder(), x->value.getType(), x->value,
                                  n.builder().getI32IntegerAttr(irAxis));
      start = dim - 1 - start;
      step = -step;
    }
    x = sliceAct(n, *x, axis, start, count, step);
  }
  return x ? n.setOutput(*x) : n.setOutput(*c);
}

/// Split into outputs along `axis`: sizes from the `split` attribute
/// (opsets < 13), input 1, or equal parts.
LogicalResult splitOp(NodeImporter &n) {
  bool splitInput = n.opset() >= 13;
  if (failed(n.checkArity(1, splitInput ? 2 : 1, 1, INT_MAX)))
    return failure();
  FailureOr<SmallVector<int64_t>> in = inputShape(n);
  FailureOr<int64_t> axisAttr = n.intAttr("axis", 0);
  if (failed(in) || failed(axisAttr))
    return failure();
  FailureOr<int64_t> axis = n.normalizeAxis(*axisAttr, in->size());
  if (failed(axis))
    return failure();
  int outputs = n.node().output_size();
  FailureOr<SmallVector<int64_t>> sizes =
      splitInput ? n.optionalIntsInput(1) : n.intsAttr("split", {});
  if (failed(sizes))
    return failure();
  int64_t dim = (*in)[*axis];
  if (n.opset() >= 18 && n.attr("num_outputs")) {
    // Opset 18: num_outputs parts of ceil(dim / num_outputs), the last one
    // smaller when the dimension does not divide.
    FailureOr<int64_t> num = n.intAttr("num_outputs", 0);
    if (failed(num))
      return failure();
    if (!sizes->empty())
      return n.emitError() << "'split' and 'num_outputs' are both given";
    if (*num != outputs)
      return n.emitError() << "num_outputs is " << *num << " but the node has "
                           << outputs << " outputs";
    int64_t part = (dim + outputs - 1) / outputs;
    for (int i = 0; i < outputs; ++i)
      sizes->push_back(std::clamp<int64_t>(dim - i * part, 0, part));
  }
  if (sizes->empty()) {
    if (dim % outputs)
      return n.emitError() << "dimension " << dim << " does not split into "
                           << outputs << " equal parts";
    sizes->assign(outputs, dim / outputs);
  }
  if (static_cast<int>(sizes->size()) != outputs ||
      llvm::any_of(*sizes, [](int64_t s) { return s < 0; }))
    return n.emitError() << "split sizes do not match the outputs";
  int64_t sum = 0;
  for (int64_t s : *sizes)
    sum += s;
  if (sum != dim)
    return n.emitError() << "split sizes add up to " << sum
                         << ", the dimension is " << dim;
  int64_t start = 0;
  for (int i = 0; i < outputs; ++i) {
    int64_t count = (*sizes)[i];
    if (count == 0)
      return n.emitError() << "empty split outputs are not supported";
    LogicalResult r =
        n.isActivation(0)
            ? n.setOutput(i, sliceAct(n, *n.act(0), *axis, start, count, 1))
            : n.setOutput(i, n.constant(0)->sliced(*axis, start, count, 1));
    if (failed(r))
      return failure();
    start += count;
  }
  return success();
}

/// Gather with constant indices (any rank: a gather of the flattened indices,
/// reshaped).
LogicalResult gatherOp(NodeImporter &n) {
  if (failed(n.checkArity(2, 2)))
    return failure();
  FailureOr<SmallVector<int64_t>> in = inputShape(n);
  FailureOr<int64_t> axisAttr = n.intAttr("axis", 0);
  const ConstTensor *indices = n.constant(1);
  if (failed(in) || failed(axisAttr) || !indices)
    return failure();
  if (!indices->isInteger())
    return n.emitError() << "indices must be integers";
  FailureOr<int64_t> axis = n.normalizeAxis(*axisAttr, in->size());
  if (failed(axis))
    return failure();
  int64_t dim = (*in)[*axis];
  if (indices->data.empty())
    return n.emitError() << "empty indices (an empty result) are not "
                            "supported";
  SmallVector<int64_t> idx;
  for (double v : indices->data) {
    int64_t i = saturatingInt64(v);
    if (i < -dim || i >= dim)
      return n.emitError() << "index " << i << " is out of range for a "
                           << "dimension of " << dim;
    idx.push_back(i < 0 ? i + dim : i);
  }
  if (!n.isActivation(0)) {
    SmallVector<int64_t> outShape(in->begin(), in->begin() + *axis);
    llvm::append_range(outShape, indices->dims);
    outShape.append(in->begin() + *axis + 1, in->end());
    if (failed(n.checkConstantShape(outShape, "the result")))
      return failure();
    return n.setOutput(n.constant(0)->gathered(*axis, idx, indices->dims));
  }
  Act x = *n.act(0);
  // Runs of consecutive indices are slices, concatenated.
  SmallVector<Act> parts;
  for (size_t k = 0; k < idx.size();) {
    size_t end = k + 1;
    while (end < idx.size() && idx[end] == idx[end - 1] + 1)
      ++end;
    parts.push_back(sliceAct(n, x, *axis, idx[k], end - k, 1));
    k = end;
  }
  Act result = parts.front();
  if (parts.size() > 1) {
    SmallVector<Value> values;
    for (const Act &p : parts)
      values.push_back(p.value);
    SmallVector<int64_t> shape(x.irShape());
    int64_t irAxis = x.irAxis(*axis);
    shape[irAxis] = idx.size();
    result = {tosa::ConcatOp::create(n.builder(), n.f32(shape), values,
                                     n.builder().getI32IntegerAttr(irAxis)),
              x.layout};
  }
  // The gathered axis becomes the indices' dimensions (none for a scalar).
  SmallVector<int64_t> outShape = result.onnxShape();
  outShape.erase(outShape.begin() + *axis);
  outShape.insert(outShape.begin() + *axis, indices->dims.begin(),
                  indices->dims.end());
  return n.setOutput(n.reshapeAct(result, outShape));
}

/// Pad: pads from the attribute (opsets < 11) or input 1 (for the axes of
/// input 3 from opset 18), constant value from the attribute or input 2;
/// modes constant, reflect, edge and wrap (19); negative pads crop.
LogicalResult padOp(NodeImporter &n) {
  bool fromInputs = n.opset() >= 11;
  if (failed(n.checkArity(1, fromInputs ? (n.opset() >= 18 ? 4 : 3) : 1)))
    return failure();
  FailureOr<Act> xr = n.act(0);
  FailureOr<std::string> mode = n.stringAttr("mode", "constant");
  if (failed(xr) || failed(mode))
    return failure();
  Act x = *xr;
  int64_t rank = x.rank();
  FailureOr<SmallVector<int64_t>> pads =
      fromInputs ? n.intsInput(1) : n.intsAttr("pads", {});
  if (failed(pads))
    return failure();
  float value = 0.0f;
  if (fromInputs) {
    FailureOr<const ConstTensor *> v = n.optionalConstant(2);
    if (failed(v))
      return failure();
    if (*v && (*v)->data.size() != 1)
      return n.emitError() << "constant_value must be a scalar";
    if (*v)
      value = static_cast<float>((*v)->data[0]);
    // Opset 18: pads for the listed axes only.
    FailureOr<SmallVector<int64_t>> axes = n.optionalIntsInput(3);
    if (failed(axes))
      return failure();
    if (n.hasInput(3)) {
      FailureOr<SmallVector<int64_t>> normalized = n.normalizeAxes(*axes, rank);
      if (failed(normalized))
        return failure();
      int64_t count = static_cast<int64_t>(normalized->size());
      if (static_cast<int64_t>(pads->size()) != 2 * count)
        return n.emitError()
               << "pads must have " << 2 * count << " values (two per axis)";
      SmallVector<int64_t> full(2 * rank, 0);
      for (int64_t i = 0; i < count; ++i) {
        full[(*normalized)[i]] = (*pads)[i];
        full[(*normalized)[i] + rank] = (*pads)[i + count];
      }
      *pads = full;
    }
  } else {
    FailureOr<float> v = n.floatAttr("value", 0.0f);
    if (failed(v))
      return failure();
    value = *v;
  }
  if (static_cast<int64_t>(pads->size()) != 2 * rank)
    return n.emitError() << "pads must have " << 2 * rank << " values";
  if (*mode != "constant" && *mode != "reflect" && *mode != "edge" &&
      !(*mode == "wrap" && n.opset() >= 19))
    return n.emitError() << "unsupported mode '" << *mode << "'";
  SmallVector<int64_t> shape = x.onnxShape();
  // Crop first (negative pads), then pad each dimension.
  for (int64_t d = 0; d < rank; ++d) {
    int64_t lo = (*pads)[d], hi = (*pads)[d + rank];
    if (lo < 0 || hi < 0) {
      int64_t cropLo = std::max<int64_t>(-lo, 0),
              cropHi = std::max<int64_t>(-hi, 0);
      if (cropLo + cropHi >= shape[d])
        return n.emitError() << "negative pads remove all of axis " << d;
      x = sliceAct(n, x, d, cropLo, shape[d] - cropLo - cropHi, 1);
      shape[d] -= cropLo + cropHi;
    }
  }
  ImplicitLocOpBuilder &b = n.builder();
  if (*mode == "constant") {
    SmallVector<int64_t> padding(2 * rank, 0), outShape(x.irShape());
    bool any = false;
    for (int64_t i = 0; i < rank; ++i) {
      int64_t d = x.layout[i];
      padding[2 * i] = std::max<int64_t>((*pads)[d], 0);
      padding[2 * i + 1] = std::max<int64_t>((*pads)[d + rank], 0);
      outShape[i] += padding[2 * i] + padding[2 * i + 1];
      any |= padding[2 * i] || padding[2 * i + 1];
    }
    if (!any)
      return n.setOutput(x);
    Value v = tosa::PadOp::create(b, n.f32(outShape), x.value,
                                  tosa::getTosaConstShape(b, padding),
                                  n.constant({1}, {value}));
    return n.setOutput({v, x.layout});
  }
  // reflect / edge / wrap: concatenate slices of the borders, one axis at a
  // time.
  for (int64_t d = 0; d < rank; ++d) {
    int64_t lo = std::max<int64_t>((*pads)[d], 0),
            hi = std::max<int64_t>((*pads)[d + rank], 0);
    if (!lo && !hi)
      continue;
    int64_t size = shape[d];
    if (*mode == "reflect" && (lo >= size || hi >= size))
      return n.emitError() << "reflect pads must be smaller than the "
                              "dimension";
    SmallVector<Act> parts;
    // Index i of the padded axis reads input index src(i).
    auto src = [&](int64_t i) {
      if (*mode == "edge")
        return std::clamp<int64_t>(i, 0, size - 1);
      if (*mode == "wrap")
        return ((i % size) + size) % size;
      return i < 0 ? -i : (i >= size ? 2 * (size - 1) - i : i);
    };
    for (int64_t i = -lo; i < 0; ++i)
      parts.push_back(sliceAct(n, x, d, src(i), 1, 1));
    parts.push_back(x);
    for (int64_t i = size; i < size + hi; ++i)
      parts.push_back(sliceAct(n, x, d, src(i), 1, 1));
    SmallVector<Value> values;
    for (const Act &p : parts)
      values.push_back(p.value);
    SmallVector<int64_t> irShape(x.irShape());
    int64_t irAxis = x.irAxis(d);
    irShape[irAxis] += lo + hi;
    x = {tosa::ConcatOp::create(b, n.f32(irShape), values,
                                b.getI32IntegerAttr(irAxis)),
         x.layout};
    shape[d] += lo + hi;
  }
  return n.setOutput(x);
}

/// Expand (broadcast to a shape) and Tile (repeat); constants are expanded
/// here.
LogicalResult expandOp(NodeImporter &n) {
  if (failed(n.checkArity(2, 2)))
    return failure();
  FailureOr<SmallVector<int64_t>> target = n.intsInput(1);
  if (failed(target))
    return failure();
  if (n.isConstant(0)) {
    if (llvm::any_of(*target, [](int64_t d) { return d < 0; }))
      return n.emitError() << "shape values must not be negative";
    if (failed(n.checkConstantShape(*target, "the shape")))
      return failure();
    // The target shape as a one-value tensor: broadcastElementwise
    // broadcasts it whole.
    ConstTensor shape;
    shape.dims.assign(target->begin(), target->end());
    shape.data = {0.0};
    const ConstTensor *x = n.constant(0);
    ConstTensor out;
    if (llvm::Error err = broadcastElementwise(
            {x, &shape}, x->dtype, out, [](ArrayRef<double> v) { return v[0]; },
            [&](ArrayRef<int64_t> d) { return n.checkBudget(d); }))
      return n.emitError() << toString(std::move(err));
    return n.setOutput(std::move(out));
  }
  FailureOr<Act> x = n.act(0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> in = x->onnxShape();
  int64_t rank = std::max<int64_t>(in.size(), target->size());
  SmallVector<int64_t> a(rank - in.size(), 1), t(rank - target->size(), 1);
  a.append(in);
  t.append(*target);
  SmallVector<int64_t> multiples;
  for (int64_t d = 0; d < rank; ++d) {
    if (t[d] < 1)
      return n.emitError() << "shape value " << t[d]
                           << " is not supported (at least 1)";
    if (a[d] != 1 && t[d] != 1 && a[d] != t[d])
      return n.emitError() << "shape does not broadcast";
    multiples.push_back(a[d] == 1 ? t[d] : 1);
  }
  Act base = n.reshapeAct(*x, a);
  SmallVector<int64_t> irMultiples = toIrShape(multiples, base.layout);
  SmallVector<int64_t> irShape(base.irShape());
  for (auto [s, m] : llvm::zip(irShape, irMultiples))
    s *= m;
  ImplicitLocOpBuilder &b = n.builder();
  Value v = tosa::TileOp::create(b, n.f32(irShape), base.value,
                                 tosa::getTosaConstShape(b, irMultiples));
  return n.setOutput({v, base.layout});
}

LogicalResult tileOp(NodeImporter &n) {
  if (failed(n.checkArity(2, 2)))
    return failure();
  FailureOr<Act> x = n.act(0);
  FailureOr<SmallVector<int64_t>> repeats = n.intsInput(1);
  if (failed(x) || failed(repeats))
    return failure();
  if (static_cast<int64_t>(repeats->size()) != x->rank() ||
      llvm::any_of(*repeats, [](int64_t r) { return r < 1; }))
    return n.emitError() << "repeats must hold one value >= 1 per dimension";
  SmallVector<int64_t> irRepeats = toIrShape(*repeats, x->layout);
  SmallVector<int64_t> irShape(x->irShape());
  for (auto [s, m] : llvm::zip(irShape, irRepeats))
    s *= m;
  ImplicitLocOpBuilder &b = n.builder();
  Value v = tosa::TileOp::create(b, n.f32(irShape), x->value,
                                 tosa::getTosaConstShape(b, irRepeats));
  return n.setOutput({v, x->layout});
}

/// DepthToSpace (`toSpace`: DCR and CRD modes, PixelShuffle) and
/// SpaceToDepth (PixelUnshuffle) of an NCHW tensor: a reshape to 6-D, a
/// permutation and a reshape back, as the ONNX spec defines them. On an
/// activation the permutation is a layout change, so the whole op is at
/// most one transpose (data movement, int8 end to end).
template <bool toSpace> LogicalResult spaceDepthOp(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<SmallVector<int64_t>> in = inputShape(n);
  FailureOr<int64_t> blocksize = n.intAttr("blocksize", 0);
  FailureOr<std::string> mode = n.stringAttr("mode", "DCR");
  if (failed(in) || failed(blocksize) || failed(mode))
    return failure();
  if (!n.attr("blocksize"))
    return n.emitError() << "attribute 'blocksize' is required";
  int64_t b = *blocksize;
  if (b < 1)
    return n.emitError() << "blocksize must be >= 1, got " << b;
  if (in->size() != 4)
    return n.emitError() << "input must be 4-D (NCHW), got rank " << in->size();
  int64_t batch = (*in)[0], c = (*in)[1], h = (*in)[2], w = (*in)[3];
  SmallVector<int64_t> six, perm, out;
  if (toSpace) {
    if (*mode != "DCR" && *mode != "CRD")
      return n.emitError() << "mode must be DCR or CRD, got '" << *mode << "'";
    if (c % (b * b))
      return n.emitError() << "channels (" << c
                           << ") must be a multiple of blocksize^2 (" << b * b
                           << ")";
    int64_t cOut = c / (b * b);
    if (*mode == "DCR") {
      six = {batch, b, b, cOut, h, w};
      perm = {0, 3, 4, 1, 5, 2};
    } else {
      six = {batch, cOut, b, b, h, w};
      perm = {0, 1, 4, 2, 5, 3};
    }
    out = {batch, cOut, h * b, w * b};
  } else {
    if (h % b || w % b)
      return n.emitError() << "height and width (" << h << ", " << w
                           << ") must be multiples of blocksize (" << b << ")";
    six = {batch, c, h / b, b, w / b, b};
    perm = {0, 3, 5, 1, 2, 4};
    out = {batch, c * b * b, h / b, w / b};
  }
  if (!n.isActivation(0)) {
    FailureOr<ConstTensor> copy = n.copyConstant(0);
    if (failed(copy))
      return failure();
    ConstTensor t = std::move(*copy);
    t.dims.assign(six.begin(), six.end());
    t = t.permuted(perm);
    t.dims.assign(out.begin(), out.end());
    return n.setOutput(std::move(t));
  }
  Act x = n.reshapeAct(*n.act(0), six);
  SmallVector<int64_t> inverse(6);
  for (int64_t j = 0; j < 6; ++j)
    inverse[perm[j]] = j;
  for (int64_t &d : x.layout)
    d = inverse[d];
  return n.setOutput(n.reshapeAct(x, out));
}

} // namespace

void quantc::onnx_import::registerShapeOps(OpRegistry &r) {
  r.add("Reshape", reshapeOp);
  r.add("Flatten", flatten);
  r.add("Squeeze", squeezeOp</*unsqueeze=*/false>);
  r.add("Unsqueeze", squeezeOp</*unsqueeze=*/true>);
  r.add("Transpose", transposeOp);
  r.add("Concat", concatOp);
  r.add("Slice", sliceOp);
  r.add("Split", splitOp);
  r.add("Gather", gatherOp);
  r.add("Pad", padOp);
  r.add("Expand", expandOp);
  r.add("Tile", tileOp);
  r.add("DepthToSpace", spaceDepthOp</*toSpace=*/true>);
  r.add("SpaceToDepth", spaceDepthOp</*toSpace=*/false>);
}
