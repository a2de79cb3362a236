//===- Pool.cpp - Pooling and reductions ----------------------------------===//
//
// MaxPool / AveragePool (pads, auto_pad, ceil_mode, count_include_pad;
// dilations as the maximum or mean of strided slices), GlobalAveragePool /
// GlobalMaxPool (2-D, and 1-D as H = 1), and ReduceMean / Max / Min / Sum. A
// mean or max over H and W of an image is a global pool (how `x.mean([2, 3])`
// reaches the same op as AdaptiveAvgPool2d(1)).
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"
#include "Common.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

#include <cfloat>
#include <cmath>

using namespace mlir;
using namespace quantc::onnx_import;

namespace {

/// A 2-D pool of the NHWC `input` ([top, bottom, left, right] padding, which
/// does not count in an average), sized exactly as TOSA requires: bottom /
/// right padding and input rows / columns that no window reaches are
/// trimmed.
Value pool2d(NodeImporter &n, Value input, bool isMax, ArrayRef<int64_t> kernel,
             ArrayRef<int64_t> strides, SmallVector<int64_t> pad) {
  ImplicitLocOpBuilder &b = n.builder();
  auto inShape = cast<RankedTensorType>(input.getType()).getShape();
  int64_t batch = inShape[0], h = inShape[1], w = inShape[2], c = inShape[3];
  int64_t oh = windowOutSize(h, pad[0], pad[1], kernel[0], strides[0]);
  int64_t ow = windowOutSize(w, pad[2], pad[3], kernel[1], strides[1]);
  int64_t trim[2] = {0, 0}, sizes[2] = {h, w};
  for (int i = 0; i < 2; ++i) {
    int64_t rem =
        (sizes[i] - 1 + pad[2 * i] + pad[2 * i + 1] - (kernel[i] - 1)) %
        strides[i];
    int64_t fromPad = std::min(rem, pad[2 * i + 1]);
    pad[2 * i + 1] -= fromPad;
    trim[i] = rem - fromPad;
  }
  if (trim[0] || trim[1]) {
    SmallVector<int64_t> size = {batch, h - trim[0], w - trim[1], c};
    input = tosa::SliceOp::create(b, n.f32(size), input,
                                  tosa::getTosaConstShape(b, {0, 0, 0, 0}),
                                  tosa::getTosaConstShape(b, size));
  }
  auto outType = n.f32({batch, oh, ow, c});
  if (isMax)
    return tosa::MaxPool2dOp::create(
        b, outType, input, b.getDenseI64ArrayAttr(kernel),
        b.getDenseI64ArrayAttr(strides), b.getDenseI64ArrayAttr(pad));
  Value zp = n.constant({1}, {0.0f});
  return tosa::AvgPool2dOp::create(b, outType, input, zp, zp, kernel, strides,
                                   pad, b.getF32Type());
}

/// Input 0, an image (4-D, NCHW in ONNX) or a sequence ([N, C, L], read
/// as the image [N, C, 1, L]: a 1-D pool is the 2-D pool with H = 1).
FailureOr<Act> imageInput(NodeImporter &n) {
  FailureOr<Act> x = n.act(0);
  if (failed(x))
    return failure();
  if (x->rank() != 4 && x->rank() != 3)
    return n.emitError() << "only 1-D and 2-D pooling (3-D or 4-D input) is "
                            "supported";
  if (x->rank() == 3) {
    SmallVector<int64_t> shape = x->onnxShape();
    shape.insert(shape.begin() + 2, 1);
    return n.reshapeAct(*x, shape);
  }
  return x;
}

/// The NHWC pool `result` as the output of the node: [N, C, L] for a 1-D
/// pool (input 0 of rank 3).
LogicalResult setPoolOutput(NodeImporter &n, Value result) {
  Act out{result, preferredLayout(4)};
  if (n.act(0)->rank() == 4)
    return n.setOutput(out);
  SmallVector<int64_t> shape = out.onnxShape();
  shape.erase(shape.begin() + 2);
  return n.setOutput(n.reshapeAct(out, shape));
}

/// Zero padding of an NHWC tensor ([top, bottom, left, right]).
Value zeroPad(NodeImporter &n, Value input, ArrayRef<int64_t> pad) {
  ImplicitLocOpBuilder &b = n.builder();
  auto shape = cast<RankedTensorType>(input.getType()).getShape();
  SmallVector<int64_t> padded = {shape[0], shape[1] + pad[0] + pad[1],
                                 shape[2] + pad[2] + pad[3], shape[3]};
  Value padding =
      tosa::getTosaConstShape(b, {0, 0, pad[0], pad[1], pad[2], pad[3], 0, 0});
  return tosa::PadOp::create(b, n.f32(padded), input, padding,
                             n.constant({1}, {0.0f}));
}

/// Every `step`-th of `count` rows (IR dimension `dim`, 1 or 2) of the
/// NHWC `v` from `start`; `v` must hold start + count * step rows.
Value stridedRows(NodeImporter &n, Value v, int dim, int64_t start,
                  int64_t count, int64_t step) {
  ImplicitLocOpBuilder &b = n.builder();
  SmallVector<int64_t> shape(cast<RankedTensorType>(v.getType()).getShape());
  SmallVector<int64_t> begin(4, 0), size(shape);
  begin[dim] = start;
  size[dim] = count * step;
  v = tosa::SliceOp::create(b, n.f32(size), v,
                            tosa::getTosaConstShape(b, begin),
                            tosa::getTosaConstShape(b, size));
  if (step == 1)
    return v;
  // [.., count, step, ..]: the first of each step.
  SmallVector<int64_t> split(size);
  split[dim] = count;
  split.insert(split.begin() + dim + 1, step);
  v = n.reshape(v, split);
  SmallVector<int64_t> first(split), zeros(5, 0);
  first[dim + 1] = 1;
  v = tosa::SliceOp::create(b, n.f32(first), v,
                            tosa::getTosaConstShape(b, zeros),
                            tosa::getTosaConstShape(b, first));
  size[dim] = count;
  return n.reshape(v, size);
}

/// A dilated pool (MaxPool from opset 10, AveragePool from 19), which TOSA's
/// pools lack: the maximum or the mean of the kernel's taps, each a strided
/// slice of the NHWC `input` padded with -FLT_MAX or zeros. `pad` ([top,
/// bottom, left, right]) holds the declared `declared` padding and any ceil
/// mode extension; a mean divides by the taps in the input (`countPad`: in
/// the declared padding too), never in the extension.
Value dilatedPool(NodeImporter &n, Value input, bool isMax, bool countPad,
                  ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                  ArrayRef<int64_t> dilations, ArrayRef<int64_t> declared,
                  ArrayRef<int64_t> pad) {
  ImplicitLocOpBuilder &b = n.builder();
  auto shape = cast<RankedTensorType>(input.getType()).getShape();
  int64_t out[2];
  SmallVector<int64_t> padded(shape);
  for (int i = 0; i < 2; ++i) {
    int64_t span = shape[1 + i] + pad[2 * i] + pad[2 * i + 1];
    out[i] = (span - dilations[i] * (kernel[i] - 1) - 1) / strides[i] + 1;
    // Room for the last tap's count * step rows.
    padded[1 + i] = span + strides[i] - 1;
  }
  Value padding =
      tosa::getTosaConstShape(b, {0, 0, pad[0], pad[1] + strides[0] - 1, pad[2],
                                  pad[3] + strides[1] - 1, 0, 0});
  Value x = tosa::PadOp::create(b, n.f32(padded), input, padding,
                                n.constant({1}, {isMax ? -INFINITY : 0.0f}));
  Value result;
  for (int64_t a = 0; a < kernel[0]; ++a) {
    Value rows = stridedRows(n, x, 1, a * dilations[0], out[0], strides[0]);
    for (int64_t c = 0; c < kernel[1]; ++c) {
      Value tap = stridedRows(n, rows, 2, c * dilations[1], out[1], strides[1]);
      if (!result)
        result = tap;
      else if (isMax)
        result = tosa::MaximumOp::create(b, tap.getType(), result, tap);
      else
        result = tosa::AddOp::create(b, tap.getType(), result, tap);
    }
  }
  if (isMax)
    return result;
  // The taps of each output row / column that count (separable).
  SmallVector<int64_t> counts[2];
  for (int i = 0; i < 2; ++i) {
    int64_t lo = countPad ? 0 : declared[2 * i],
            hi = countPad ? shape[1 + i] + declared[2 * i] + declared[2 * i + 1]
                          : shape[1 + i] + declared[2 * i];
    for (int64_t o = 0; o < out[i]; ++o) {
      int64_t count = 0;
      for (int64_t k = 0; k < kernel[i]; ++k) {
        int64_t r = o * strides[i] + k * dilations[i];
        count += r >= lo && r < hi;
      }
      counts[i].push_back(std::max<int64_t>(count, 1));
    }
  }
  if (!n.hasRoomInIr({1, out[0], out[1], 1}))
    return result; // the import fails after the node
  std::vector<float> scale(out[0] * out[1]);
  for (int64_t r = 0; r < out[0]; ++r)
    for (int64_t c = 0; c < out[1]; ++c)
      scale[r * out[1] + c] = 1.0f / float(counts[0][r] * counts[1][c]);
  return n.mul(result, n.constant({1, out[0], out[1], 1}, scale),
               result.getType());
}

template <bool isMax> LogicalResult pool(NodeImporter &n) {
  if (failed(n.checkArity(1, 1, 1, isMax ? 2 : 1)))
    return failure();
  if (isMax && n.node().output_size() > 1 && !n.node().output(1).empty())
    return n.emitError() << "the Indices output is not supported";
  FailureOr<Act> x = imageInput(n);
  if (failed(x))
    return failure();
  SmallVector<int64_t> shape = x->onnxShape();
  int64_t h = shape[2], w = shape[3];
  FailureOr<SmallVector<int64_t>> kernel = n.intsAttr("kernel_shape", {});
  FailureOr<bool> ceilMode = n.boolAttr("ceil_mode", false),
                  storage = n.boolAttr("storage_order", false),
                  countPad = n.boolAttr("count_include_pad", false);
  if (failed(kernel) || failed(ceilMode) || failed(storage) || failed(countPad))
    return failure();
  if (!n.attr("kernel_shape"))
    return n.emitError() << "attribute 'kernel_shape' is required";
  // Dilations: MaxPool from opset 10, AveragePool from 19.
  FailureOr<Window> win = readWindow(n, h, w, *kernel);
  if (failed(win))
    return failure();
  if (kernel->size() == 1)
    kernel->insert(kernel->begin(), 1);
  if (*storage)
    return n.emitError() << "storage_order=1 is not supported";
  for (int i = 0; i < 2; ++i)
    if (win->pad[2 * i] >= (*kernel)[i] || win->pad[2 * i + 1] >= (*kernel)[i])
      return n.emitError() << "pads must be smaller than the kernel";
  Value input = n.nhwc(*x);
  if (win->dilations[0] != 1 || win->dilations[1] != 1) {
    SmallVector<int64_t> pad = win->pad;
    for (int i = 0; *ceilMode && i < 2; ++i) {
      // Ceil mode as below, with the dilated kernel's extent.
      int64_t size = i ? w : h, s = win->strides[i],
              k = win->dilations[i] * ((*kernel)[i] - 1) + 1;
      int64_t span = size + pad[2 * i] + pad[2 * i + 1] - k;
      int64_t out = (span + s - 1) / s + 1;
      if ((out - 1) * s >= size + pad[2 * i])
        --out;
      pad[2 * i + 1] += std::max<int64_t>((out - 1) * s - span, 0);
    }
    return setPoolOutput(n, dilatedPool(n, input, isMax, *countPad, *kernel,
                                        win->strides, win->dilations, win->pad,
                                        pad));
  }
  if (!isMax && llvm::all_of(win->pad, [](int64_t p) { return p == 0; })) {
    // Zero Pad + AveragePool is PyTorch's export of count_include_pad=True:
    // it is the pool's own padding (which matters for ceil mode).
    SmallVector<int64_t> folded(4, 0);
    Value unpadded = foldZeroPad(input, folded);
    auto shape = cast<RankedTensorType>(unpadded.getType()).getShape();
    bool fits = true;
    for (int i = 0; i < 2; ++i)
      fits &= folded[2 * i] < (*kernel)[i] && folded[2 * i + 1] < (*kernel)[i];
    if (unpadded != input && fits) {
      input = unpadded;
      win->pad.assign(folded.begin(), folded.end());
      h = shape[1];
      w = shape[2];
      *countPad = true;
    }
  }
  SmallVector<int64_t> pad = win->pad;
  if (*ceilMode) {
    // Ceil mode: extra bottom / right padding (never counted) for the last
    // window, unless it would start in the padding (PyTorch's rule, which
    // ONNX Runtime follows).
    int64_t sizes[2] = {h, w};
    for (int i = 0; i < 2; ++i) {
      int64_t k = (*kernel)[i], s = win->strides[i];
      int64_t span = sizes[i] + pad[2 * i] + pad[2 * i + 1] - k;
      int64_t out = (span + s - 1) / s + 1;
      if ((out - 1) * s >= sizes[i] + pad[2 * i])
        --out;
      int64_t extra = (out - 1) * s - span;
      if (extra > 0)
        pad[2 * i + 1] += extra;
      if (pad[2 * i + 1] >= k)
        return n.emitError() << "ceil_mode with this kernel, stride and "
                                "padding is not supported";
    }
  }
  if (!isMax && *countPad &&
      llvm::any_of(win->pad, [](int64_t p) { return p; })) {
    // The declared padding counts in the average: explicit zeros; only the
    // ceil-mode extension stays a (not counted) pool padding.
    input = zeroPad(n, input, win->pad);
    for (int i = 0; i < 4; ++i)
      pad[i] -= win->pad[i];
  }
  return setPoolOutput(n, pool2d(n, input, isMax, *kernel, win->strides, pad));
}

template <bool isMax> LogicalResult globalPool(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<Act> x = imageInput(n);
  if (failed(x))
    return failure();
  SmallVector<int64_t> shape = x->onnxShape();
  return setPoolOutput(n, pool2d(n, n.nhwc(*x), isMax, {shape[2], shape[3]},
                                 {1, 1}, {0, 0, 0, 0}));
}

/// ReduceMean / Max / Min / Sum, ReduceL1 (the sum of magnitudes), ReduceL2
/// (the square root of the sum of squares) and ReduceSumSquare.
enum class Reduce { mean, max, min, sum, l1, l2, sumSquare };

/// Reduce* with axes from the `axes` attribute (`axesFromInput`: from input
/// 1, as ReduceSum has it from opset 13 on and the others from 18).
template <Reduce kind, bool axesFromInput = false>
LogicalResult reduce(NodeImporter &n) {
  if (failed(n.checkArity(1, axesFromInput ? 2 : 1)))
    return failure();
  FailureOr<Act> x = n.act(0);
  FailureOr<bool> keepDims = n.boolAttr("keepdims", true),
                  noopEmpty = n.boolAttr("noop_with_empty_axes", false);
  if (failed(x) || failed(keepDims) || failed(noopEmpty))
    return failure();
  FailureOr<SmallVector<int64_t>> rawAxes =
      axesFromInput ? n.optionalIntsInput(1) : n.intsAttr("axes", {});
  if (failed(rawAxes))
    return failure();
  ImplicitLocOpBuilder &b = n.builder();
  if (kind == Reduce::sumSquare || kind == Reduce::l2)
    x->value = n.mul(x->value, x->value, x->value.getType());
  if (kind == Reduce::l1)
    x->value = tosa::AbsOp::create(b, x->value.getType(), x->value);
  if (rawAxes->empty() && *noopEmpty)
    // Nothing reduced: ReduceSumSquare squares, ReduceL1 / L2 pass their
    // input through (as ONNX's reference implementation does).
    return n.setOutput(kind == Reduce::sumSquare ? *x : *n.act(0));
  FailureOr<SmallVector<int64_t>> axes = n.normalizeAxes(*rawAxes, x->rank());
  if (failed(axes))
    return failure();
  if (axes->empty())
    for (int64_t d = 0; d < x->rank(); ++d)
      axes->push_back(d);
  llvm::sort(*axes);
  SmallVector<int64_t> shape = x->onnxShape(), reduced = shape;
  int64_t count = 1;
  for (int64_t a : *axes) {
    count *= shape[a];
    reduced[a] = 1;
  }
  SmallVector<int64_t> outShape;
  for (int64_t d = 0; d < x->rank(); ++d)
    if (*keepDims || !llvm::is_contained(*axes, d))
      outShape.push_back(reduced[d]);
  Act result;
  if (x->rank() == 4 && *axes == ArrayRef<int64_t>{2, 3} &&
      (kind == Reduce::mean || kind == Reduce::max)) {
    // Over H and W of an image: a global pool.
    result = {pool2d(n, n.nhwc(*x), kind == Reduce::max, {shape[2], shape[3]},
                     {1, 1}, {0, 0, 0, 0}),
              preferredLayout(4)};
  } else {
    Value v = x->value;
    SmallVector<int64_t> irShape(x->irShape());
    for (int64_t a : *axes) {
      int64_t irAxis = x->irAxis(a);
      irShape[irAxis] = 1;
      auto type = n.f32(irShape);
      IntegerAttr axisAttr = b.getI32IntegerAttr(static_cast<int32_t>(irAxis));
      switch (kind) {
      case Reduce::max:
        v = tosa::ReduceMaxOp::create(b, type, v, axisAttr);
        break;
      case Reduce::min:
        v = tosa::ReduceMinOp::create(b, type, v, axisAttr);
        break;
      case Reduce::mean:
      case Reduce::sum:
      case Reduce::l1:
      case Reduce::l2:
      case Reduce::sumSquare:
        v = tosa::ReduceSumOp::create(b, type, v, axisAttr);
        break;
      }
    }
    if (kind == Reduce::mean)
      v = n.mul(v, n.splat(1.0f / count, irShape.size()), v.getType());
    if (kind == Reduce::l2)
      v = tosa::PowOp::create(b, v.getType(), v, n.splat(0.5f, irShape.size()));
    result = {v, x->layout};
  }
  return n.setOutput(n.reshapeAct(result, outShape));
}

/// ArgMax / ArgMin along `axis` (keepdims, select_last_index): tosa.argmax
/// (of -x for ArgMin; of x reversed along the axis for the last index),
/// whose i32 indices are cast to f32: the index is a float activation, as
/// every activation the importer represents (exact below 2^24), which feeds
/// a Cast or is a graph output. In an int8 model it runs on the dequantized
/// input.
template <bool isMin> LogicalResult argExtremum(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<Act> x = n.act(0);
  FailureOr<int64_t> axisAttr = n.intAttr("axis", 0);
  FailureOr<bool> keepDims = n.boolAttr("keepdims", true),
                  selectLast = n.boolAttr("select_last_index", false);
  if (failed(x) || failed(axisAttr) || failed(keepDims) || failed(selectLast))
    return failure();
  FailureOr<int64_t> axis = n.normalizeAxis(*axisAttr, x->rank());
  if (failed(axis))
    return failure();
  ImplicitLocOpBuilder &b = n.builder();
  int64_t irAxis = x->irAxis(*axis);
  SmallVector<int64_t> irShape(x->irShape());
  int64_t size = irShape[irAxis];
  Value v = x->value;
  if (isMin)
    v = tosa::SubOp::create(b, v.getType(), n.splat(0.0f, x->rank()), v);
  if (*selectLast)
    v = tosa::ReverseOp::create(
        b, v.getType(), v, b.getI32IntegerAttr(static_cast<int32_t>(irAxis)));
  irShape.erase(irShape.begin() + irAxis);
  Value index = tosa::ArgMaxOp::create(
      b, RankedTensorType::get(irShape, b.getI32Type()), v,
      b.getI32IntegerAttr(static_cast<int32_t>(irAxis)));
  Value y = tosa::CastOp::create(b, n.f32(irShape), index);
  if (*selectLast)
    y = tosa::SubOp::create(b, y.getType(),
                            n.splat(static_cast<float>(size - 1),
                                    static_cast<int64_t>(irShape.size())),
                            y);
  // The reduced dimension leaves the layout; ONNX dimensions after it move
  // down by one.
  Layout layout;
  for (int64_t d : x->layout)
    if (d != *axis)
      layout.push_back(d > *axis ? d - 1 : d);
  // ONNX's indices are int64: a graph output of them is an i64 result.
  Act result{y, layout, onnx::TensorProto::INT64};
  if (!*keepDims)
    return n.setOutput(result);
  SmallVector<int64_t> shape = x->onnxShape();
  shape[*axis] = 1;
  Act kept = n.reshapeAct(result, shape);
  kept.dtype = onnx::TensorProto::INT64;
  return n.setOutput(std::move(kept));
}

} // namespace

void quantc::onnx_import::registerPoolOps(OpRegistry &r) {
  r.add("MaxPool", pool</*isMax=*/true>);
  r.add("AveragePool", pool</*isMax=*/false>);
  r.add("GlobalMaxPool", globalPool</*isMax=*/true>);
  r.add("GlobalAveragePool", globalPool</*isMax=*/false>);
  r.add("ReduceMean", reduce<Reduce::mean>);
  r.add("ReduceMax", reduce<Reduce::max>);
  r.add("ReduceMin", reduce<Reduce::min>);
  r.add("ReduceSum", reduce<Reduce::sum>);
  r.add("ReduceSum", reduce<Reduce::sum, /*axesFromInput=*/true>, 13);
  r.add("ArgMax", argExtremum</*isMin=*/false>);
  r.add("ArgMin", argExtremum</*isMin=*/true>);
  r.add("ReduceL1", reduce<Reduce::l1>);
  r.add("ReduceL1", reduce<Reduce::l1, /*axesFromInput=*/true>, 18);
  r.add("ReduceL2", reduce<Reduce::l2>);
  r.add("ReduceL2", reduce<Reduce::l2, /*axesFromInput=*/true>, 18);
  r.add("ReduceSumSquare", reduce<Reduce::sumSquare>);
  r.add("ReduceSumSquare", reduce<Reduce::sumSquare, /*axesFromInput=*/true>,
        18);
  // Opset 18 moves the other reductions' axes to an input.
  r.add("ReduceMean", reduce<Reduce::mean, /*axesFromInput=*/true>, 18);
  r.add("ReduceMax", reduce<Reduce::max, /*axesFromInput=*/true>, 18);
  r.add("ReduceMin", reduce<Reduce::min, /*axesFromInput=*/true>, 18);
}
