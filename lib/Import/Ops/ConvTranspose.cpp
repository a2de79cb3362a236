//===- ConvTranspose.cpp - Transposed convolutions ------------------------===//
//
// ConvTranspose (opsets 1 and 11: groups, strides, dilations, pads,
// auto_pad, output_padding, output_shape; 2-D, and 1-D as H = 1) as a
// stride-1 convolution: the input with stride - 1 zeros inserted between
// its pixels (a reshape that adds a unit dimension after H and W, a zero
// tosa.pad of that dimension and a reshape back: data movement, which the
// quantizer keeps int8 with the zero point as the inserted value), padded
// by dilation * (kernel - 1) - pad (or cropped where that is negative),
// convolved with the kernel flipped in H and W and its input and output
// channels swapped per group. The int8 model is then a qnt.conv2d with
// per-channel weights like any other. The cost: stride^2 times the MACs of
// a direct transposed convolution (most of them on inserted zeros).
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"
#include "Common.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

using namespace mlir;
using namespace quantc::onnx_import;

namespace {

int64_t floorDiv2(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

/// The weight [Cin, Cout / group, kh, kw] of a transposed convolution as
/// the OIHW weight [Cout, Cin / group, kh, kw] of the equivalent direct
/// convolution: channels swapped within each group, kernel flipped.
ConstTensor directWeight(const ConstTensor &w, int64_t group) {
  int64_t cin = w.dims[0], cog = w.dims[1], kh = w.dims[2], kw = w.dims[3];
  int64_t cig = cin / group;
  ConstTensor d;
  d.dims = {cog * group, cig, kh, kw};
  d.data.resize(w.data.size());
  for (int64_t g = 0; g < group; ++g)
    for (int64_t i = 0; i < cig; ++i)
      for (int64_t o = 0; o < cog; ++o)
        for (int64_t a = 0; a < kh; ++a)
          for (int64_t c = 0; c < kw; ++c)
            d.data[(((g * cog + o) * cig + i) * kh + a) * kw + c] =
                w.data[(((g * cig + i) * cog + o) * kh + (kh - 1 - a)) * kw +
                       (kw - 1 - c)];
  return d;
}

/// The NHWC `x` with stride - 1 zeros after each pixel in H and W
/// ([N, H * sh, W * sw, C]; the trailing zeros are cropped by the caller).
Value insertZeros(NodeImporter &n, Value x, ArrayRef<int64_t> strides) {
  auto s = cast<RankedTensorType>(x.getType()).getShape();
  int64_t batch = s[0], h = s[1], w = s[2], c = s[3];
  int64_t sh = strides[0], sw = strides[1];
  ImplicitLocOpBuilder &b = n.builder();
  Value v = n.reshape(x, {batch, h, 1, w, 1, c});
  v = tosa::PadOp::create(b, n.f32({batch, h, sh, w, sw, c}), v,
                          tosa::getTosaConstShape(b, {0, 0, 0, 0, 0, sh - 1, 0,
                                                      0, 0, sw - 1, 0, 0}),
                          n.constant({1}, {0.0f}));
  return n.reshape(v, {batch, h * sh, w * sw, c});
}

/// ConvTranspose's window attributes, in 2-D (1-D: H = 1).
struct TransposeWindow {
  SmallVector<int64_t> strides, dilations, pads, outputPadding, outputShape;
  std::string autoPad;
};

/// Reads and checks the window attributes of a transposed convolution with
/// `spatial` dimensions and the ONNX kernel `onnxKernel`.
FailureOr<TransposeWindow> readTransposeWindow(NodeImporter &n, int64_t spatial,
                                               ArrayRef<int64_t> onnxKernel) {
  FailureOr<SmallVector<int64_t>> kernelShape =
      n.intsAttr("kernel_shape", onnxKernel);
  FailureOr<SmallVector<int64_t>> strides = spatialInts(n, "strides", spatial,
                                                        1, 1, 1),
                                  dil = spatialInts(n, "dilations", spatial, 1,
                                                    1, 1),
                                  pads =
                                      spatialInts(n, "pads", spatial, 2, 0, 0),
                                  outPad = spatialInts(n, "output_padding",
                                                       spatial, 1, 0, 0);
  FailureOr<std::string> autoPad = n.stringAttr("auto_pad", "NOTSET");
  FailureOr<SmallVector<int64_t>> outShapeAttr = n.intsAttr("output_shape", {});
  if (failed(kernelShape) || failed(strides) || failed(dil) || failed(pads) ||
      failed(outPad) || failed(autoPad) || failed(outShapeAttr))
    return failure();
  if (*kernelShape != onnxKernel)
    return n.emitError() << "kernel_shape does not match the weight";
  for (int i = 0; i < 2; ++i) {
    if ((*strides)[i] < 1)
      return n.emitError() << "strides must be >= 1";
    if ((*dil)[i] < 1)
      return n.emitError() << "dilations must be >= 1";
    if ((*outPad)[i] < 0)
      return n.emitError() << "output_padding must be >= 0";
    if ((*outPad)[i] >= std::max((*strides)[i], (*dil)[i]))
      return n.emitError() << "output_padding must be smaller than the stride "
                              "or the dilation";
  }
  if (llvm::any_of(*pads, [](int64_t p) { return p < 0; }))
    return n.emitError() << "pads must be >= 0";
  if (*autoPad != "NOTSET" && *autoPad != "SAME_UPPER" &&
      *autoPad != "SAME_LOWER" && *autoPad != "VALID")
    return n.emitError() << "unsupported auto_pad '" << *autoPad << "'";
  return TransposeWindow{std::move(*strides),      std::move(*dil),
                         std::move(*pads),         std::move(*outPad),
                         std::move(*outShapeAttr), std::move(*autoPad)};
}

/// The output size of a transposed convolution, and the padding cropped from
/// the full output (begin, end per dimension; negative: zeros (plus bias)
/// added).
struct TransposeCrop {
  int64_t begin[2], end[2], outSize[2];
};

/// The crop of a transposed convolution of the input's spatial sizes `hw`
/// and `kernel` (2-D), from output_shape, auto_pad or pads.
FailureOr<TransposeCrop> cropOf(NodeImporter &n, const TransposeWindow &win,
                                ArrayRef<int64_t> hw, ArrayRef<int64_t> kernel,
                                int64_t spatial, bool oneD) {
  const SmallVector<int64_t> &strides = win.strides, &dil = win.dilations;
  SmallVector<int64_t> target;
  if (!win.outputShape.empty()) {
    // Spatial sizes, or (as some exporters write it) the whole shape.
    size_t k = win.outputShape.size();
    if (k != static_cast<size_t>(spatial) &&
        k != static_cast<size_t>(spatial + 2))
      return n.emitError() << "output_shape must have " << spatial << " (or "
                           << spatial + 2 << ") values, got " << k;
    target.assign(win.outputShape.end() - spatial, win.outputShape.end());
    if (oneD)
      target.insert(target.begin(), 1);
  } else if (win.autoPad == "SAME_UPPER" || win.autoPad == "SAME_LOWER") {
    target = {hw[0] * strides[0], hw[1] * strides[1]};
  }
  TransposeCrop crop;
  for (int i = 0; i < 2; ++i) {
    int64_t full = (hw[i] - 1) * strides[i] + win.outputPadding[i] +
                   (kernel[i] - 1) * dil[i] + 1;
    if (!target.empty()) {
      if (target[i] < 1)
        return n.emitError() << "output_shape must be positive";
      int64_t total = full - target[i];
      // auto_pad SAME asks for in * stride and never adds zeros: a kernel
      // smaller than the stride gives a smaller output (ONNX Runtime's
      // rule); output_shape may extend the output.
      if (win.outputShape.empty())
        total = std::max<int64_t>(total, 0);
      // ONNX's (and ONNX Runtime's) split: the odd one at the end for
      // SAME_UPPER, at the beginning otherwise.
      if (win.autoPad == "SAME_UPPER") {
        crop.begin[i] = floorDiv2(total);
        crop.end[i] = total - crop.begin[i];
      } else {
        crop.end[i] = floorDiv2(total);
        crop.begin[i] = total - crop.end[i];
      }
    } else if (win.autoPad == "VALID") {
      crop.begin[i] = crop.end[i] = 0;
    } else {
      // pads: ONNX [top, left, bottom, right] (widened for 1-D).
      crop.begin[i] = win.pads[i];
      crop.end[i] = win.pads[i + 2];
    }
    crop.outSize[i] = full - crop.begin[i] - crop.end[i];
    if (crop.outSize[i] < 1)
      return n.emitError() << "the output would be empty (size "
                           << crop.outSize[i] << " along spatial dimension "
                           << i << "): pads or output_shape too large";
  }
  return crop;
}

/// The input of the equivalent direct convolution over the zero-inserted
/// input U (length (in - 1) * s + 1 of data, then zeros): output o reads U
/// from o + begin - d * (k - 1), so the window starts at `start` and the conv
/// input spans [start, start + outSize + d * (k - 1)). Sets `convPad` to the
/// convolution's padding.
FailureOr<Value> directInput(NodeImporter &n, Value input,
                             const TransposeWindow &win,
                             const TransposeCrop &crop,
                             ArrayRef<int64_t> kernel,
                             SmallVectorImpl<int64_t> &convPad) {
  auto s = cast<RankedTensorType>(input.getType()).getShape();
  int64_t batch = s[0], c = s[3];
  int64_t hw[2] = {s[1], s[2]};
  const SmallVector<int64_t> &strides = win.strides, &dil = win.dilations;
  ImplicitLocOpBuilder &b = n.builder();
  if (strides[0] > 1 || strides[1] > 1)
    input = insertZeros(n, input, strides);
  int64_t len[2] = {hw[0] * strides[0], hw[1] * strides[1]};
  convPad.assign(4, 0);
  SmallVector<int64_t> sliceStart(4, 0), sliceSize = {batch, 0, 0, c};
  bool slice = false;
  for (int i = 0; i < 2; ++i) {
    int64_t span = (kernel[i] - 1) * dil[i];
    int64_t start = crop.begin[i] - span, stop = start + crop.outSize[i] + span;
    convPad[2 * i] = std::max<int64_t>(0, -start);
    convPad[2 * i + 1] = std::max<int64_t>(0, stop - len[i]);
    int64_t lo = std::max<int64_t>(0, start),
            hi = std::min<int64_t>(len[i], stop);
    if (hi <= lo)
      return n.emitError() << "pads crop every output that reads the input "
                              "(along spatial dimension "
                           << i << ")";
    sliceStart[1 + i] = lo;
    sliceSize[1 + i] = hi - lo;
    slice |= lo != 0 || hi != len[i];
  }
  if (slice)
    input = tosa::SliceOp::create(b, n.f32(sliceSize), input,
                                  tosa::getTosaConstShape(b, sliceStart),
                                  tosa::getTosaConstShape(b, sliceSize));
  return input;
}

/// The weight's quantization (ONNX axis 1, Cout / group values) as that of
/// the direct weight: axis 0, repeated per group.
FailureOr<PendingQuant> directQuant(NodeImporter &n, const PendingQuant &qdq,
                                    int64_t group) {
  PendingQuant direct = qdq;
  if (qdq.scales.size() > 1) {
    if (qdq.axis != 1)
      return n.emitError() << "per-axis weight quantization of a "
                              "ConvTranspose must be along its output "
                              "channels (axis 1)";
    direct.scales.clear();
    direct.zeroPoints.clear();
    for (int64_t g = 0; g < group; ++g) {
      direct.scales.insert(direct.scales.end(), qdq.scales.begin(),
                           qdq.scales.end());
      direct.zeroPoints.insert(direct.zeroPoints.end(), qdq.zeroPoints.begin(),
                               qdq.zeroPoints.end());
    }
  }
  direct.axis = 0;
  return direct;
}

LogicalResult convTransposeImpl(NodeImporter &n) {
  FailureOr<ConvOperands> ops = readConvOperands(n, "transposed convolutions");
  if (failed(ops))
    return failure();
  const Act *x = &ops->x;
  bool oneD = ops->oneD;
  int64_t spatial = oneD ? 1 : 2;
  const SmallVector<int64_t> &in = ops->inShape;
  const ConstTensor &w = ops->w;
  const PendingQuant *qdq = ops->qdq;
  const ConstTensor *bias = ops->bias;
  int64_t batch = in[0], c = in[1];
  int64_t cin = w.dims[0], cog = w.dims[1];
  FailureOr<int64_t> group = n.intAttr("group", 1);
  if (failed(group))
    return failure();
  if (*group < 1 || c % *group || cin != c)
    return n.emitError() << "weight of " << cin << " input channels does not "
                         << "match the input's " << c << " channels and group "
                         << *group;
  int64_t cout = cog * *group;
  if (bias && bias->numElements() != cout)
    return n.emitError() << "bias must have one value per output channel ("
                         << cout << ")";
  SmallVector<int64_t> kernel = {w.dims[2], w.dims[3]};
  SmallVector<int64_t> onnxKernel(kernel.end() - spatial, kernel.end());
  FailureOr<TransposeWindow> win = readTransposeWindow(n, spatial, onnxKernel);
  if (failed(win))
    return failure();
  int64_t hw[2] = {in[2], in[3]};
  FailureOr<TransposeCrop> crop = cropOf(n, *win, hw, kernel, spatial, oneD);
  if (failed(crop))
    return failure();
  const int64_t *outSize = crop->outSize;
  const SmallVector<int64_t> &strides = win->strides, &dil = win->dilations;

  // The zero-inserted input, the convolution's padded input and the output
  // must be activations the importer accepts (in double: the sizes come
  // from attributes up to 2^30 each).
  double spans[2] = {double(kernel[0] - 1) * dil[0],
                     double(kernel[1] - 1) * dil[1]};
  double sizes[3] = {double(hw[0]) * strides[0] * double(hw[1]) * strides[1] *
                         c,
                     (outSize[0] + spans[0]) * (outSize[1] + spans[1]) * c,
                     double(outSize[0]) * outSize[1] * cout};
  for (double size : sizes)
    if (size * batch > double(kMaxActivationElements))
      return n.emitError() << "strides, dilations or output_shape make a "
                              "tensor of more than "
                           << kMaxActivationElements << " elements";

  SmallVector<int64_t> convPad;
  FailureOr<Value> input =
      directInput(n, n.nhwc(oneD ? n.reshapeAct(*x, in) : *x), *win, *crop,
                  kernel, convPad);
  if (failed(input))
    return failure();
  std::optional<PendingQuant> directQdq;
  if (qdq) {
    FailureOr<PendingQuant> q = directQuant(n, *qdq, *group);
    if (failed(q))
      return failure();
    directQdq = std::move(*q);
  }
  FailureOr<Value> result = buildConv2d(n, *input, directWeight(w, *group),
                                        directQdq ? &*directQdq : nullptr, bias,
                                        *group, {1, 1}, convPad, dil);
  if (failed(result))
    return failure();
  Act out{*result, preferredLayout(4)};
  if (!oneD)
    return n.setOutput(out);
  return n.setOutput(n.reshapeAct(out, {batch, cout, outSize[1]}));
}

} // namespace

LogicalResult quantc::onnx_import::convTranspose(NodeImporter &n) {
  return convTransposeImpl(n);
}
