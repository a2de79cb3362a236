//===- Conv.cpp - Convolutions --------------------------------------------===//
//
// Conv (groups, depthwise, dilations, pads, auto_pad; a zero Pad in front
// folds into the padding), and the pieces ConvTranspose shares (window
// attributes, operands, the conv op). Weights are transposed at import
// time: OIHW -> OHWI (HWCM for depthwise).
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"
#include "Common.h"

#include "dialects/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace quantc::onnx_import;

FailureOr<SmallVector<int64_t>>
quantc::onnx_import::spatialInts(NodeImporter &n, StringRef name,
                                 int64_t spatial, int64_t perDim, int64_t dflt,
                                 int64_t fill) {
  FailureOr<SmallVector<int64_t>> v =
      n.intsAttr(name, SmallVector<int64_t>(spatial * perDim, dflt));
  if (failed(v))
    return failure();
  if (static_cast<int64_t>(v->size()) != spatial * perDim)
    return n.emitError() << "attribute '" << name << "' must have "
                         << spatial * perDim << " value(s) for a " << spatial
                         << "-D window, got " << v->size();
  if (spatial == 2)
    return v;
  // 1-D: [v] -> [fill, v]; pads [b, e] -> [fill, b, fill, e].
  SmallVector<int64_t> wide;
  for (int64_t i = 0; i < perDim; ++i)
    wide.append({fill, (*v)[i]});
  return wide;
}

FailureOr<Window> quantc::onnx_import::readWindow(NodeImporter &n, int64_t h,
                                                  int64_t w,
                                                  ArrayRef<int64_t> kernelIn,
                                                  bool allowDilation) {
  Window win;
  int64_t spatial = kernelIn.size();
  if (spatial != 1 && spatial != 2)
    return n.emitError() << "only 1-D and 2-D windows are supported, got a "
                            "kernel of "
                         << spatial << " dimension(s)";
  SmallVector<int64_t> kernel(kernelIn);
  if (spatial == 1)
    kernel.insert(kernel.begin(), 1);
  FailureOr<SmallVector<int64_t>> strides = spatialInts(n, "strides", spatial,
                                                        1, 1, 1),
                                  dil = spatialInts(n, "dilations", spatial, 1,
                                                    1, 1),
                                  pads =
                                      spatialInts(n, "pads", spatial, 2, 0, 0);
  FailureOr<std::string> autoPad = n.stringAttr("auto_pad", "NOTSET");
  if (failed(strides) || failed(dil) || failed(pads) || failed(autoPad))
    return failure();
  for (int i = 0; i < 2; ++i) {
    if ((*strides)[i] < 1)
      return n.emitError() << "strides must be >= 1";
    if ((*dil)[i] < 1)
      return n.emitError() << "dilations must be >= 1";
    if (kernel[i] < 1)
      return n.emitError() << "kernel sizes must be >= 1";
  }
  for (int64_t p : *pads)
    if (p < 0)
      return n.emitError() << "pads must be >= 0";
  if (!allowDilation && ((*dil)[0] != 1 || (*dil)[1] != 1))
    return n.emitError() << "dilated pooling is not supported";
  int64_t size[2] = {h, w};
  if (*autoPad == "SAME_UPPER" || *autoPad == "SAME_LOWER") {
    for (int i = 0; i < 2; ++i) {
      int64_t s = (*strides)[i];
      int64_t out = (size[i] + s - 1) / s;
      int64_t total = std::max<int64_t>(
          (out - 1) * s + (*dil)[i] * (kernel[i] - 1) + 1 - size[i], 0);
      int64_t small = total / 2;
      (*pads)[i] = *autoPad == "SAME_UPPER" ? small : total - small;
      (*pads)[i + 2] = total - (*pads)[i];
    }
  } else if (*autoPad == "VALID") {
    *pads = {0, 0, 0, 0};
  } else if (*autoPad != "NOTSET") {
    return n.emitError() << "unsupported auto_pad '" << *autoPad << "'";
  }
  win.strides = *strides;
  win.dilations = *dil;
  // ONNX: [top, left, bottom, right]; TOSA / qnt: [top, bottom, left, right].
  win.pad = {(*pads)[0], (*pads)[2], (*pads)[1], (*pads)[3]};
  for (int i = 0; i < 2; ++i)
    if (size[i] + win.pad[2 * i] + win.pad[2 * i + 1] <
        win.dilations[i] * (kernel[i] - 1) + 1)
      return n.emitError() << "window larger than the padded input";
  return win;
}

/// A zero tosa.pad of only H and W in front of a convolution: the unpadded
/// input, with its pads added to `pad` ([top, bottom, left, right]).
Value quantc::onnx_import::foldZeroPad(Value input,
                                       SmallVectorImpl<int64_t> &pad) {
  auto padOp = input.getDefiningOp<tosa::PadOp>();
  DenseElementsAttr value, padding;
  if (!padOp || !matchPattern(padOp.getPadConst(), m_Constant(&value)) ||
      !value.getElementType().isF32() || value.getSplatValue<float>() != 0.0f)
    return input;
  SmallVector<int64_t> p;
  if (!tosa::getConstShapeValues(padOp.getPadding().getDefiningOp(), p) ||
      p.size() != 8)
    return input;
  // NHWC: [n0, n1, h0, h1, w0, w1, c0, c1].
  if (p[0] || p[1] || p[6] || p[7] ||
      llvm::any_of(p, [](int64_t v) { return v < 0; }))
    return input;
  for (int i = 0; i < 4; ++i)
    pad[i] += p[2 + i];
  return padOp.getInput1();
}

FailureOr<Value> quantc::onnx_import::buildConv2d(
    NodeImporter &n, Value input, const ConstTensor &w, const PendingQuant *qdq,
    const ConstTensor *bias, int64_t group, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> pad, ArrayRef<int64_t> dil) {
  auto inShape = cast<RankedTensorType>(input.getType()).getShape();
  int64_t batch = inShape[0], h = inShape[1], wd = inShape[2], c = inShape[3];
  int64_t o = w.dims[0], ci = w.dims[1], kh = w.dims[2], kw = w.dims[3];
  int64_t oh = windowOutSize(h, pad[0], pad[1], kh, strides[0], dil[0]);
  int64_t ow = windowOutSize(wd, pad[2], pad[3], kw, strides[1], dil[1]);
  ImplicitLocOpBuilder &b = n.builder();
  auto outType = n.f32({batch, oh, ow, o});
  // TOSA wants exact sizes: drop bottom/right padding a floor-mode conv never
  // reads; when that is not enough, use the float qnt.conv2d (floor mode).
  SmallVector<int64_t> tosaPad(pad);
  bool exact = true;
  int64_t sizes[2] = {h, wd}, ks[2] = {kh, kw};
  for (int i = 0; i < 2; ++i) {
    int64_t rem =
        (sizes[i] - 1 + pad[2 * i] + pad[2 * i + 1] - (ks[i] - 1) * dil[i]) %
        strides[i];
    if (rem > tosaPad[2 * i + 1])
      exact = false;
    else
      tosaPad[2 * i + 1] -= rem;
  }
  Value biasValue = bias ? n.constant({o}, bias->floats())
                         : n.constant({o}, std::vector<float>(o, 0.0f));
  bool depthwise = group == c && ci == 1 && group > 1;
  if (exact && depthwise) {
    int64_t m = o / c;
    ConstTensor hwcm = w;
    hwcm.dims = {c, m, kh, kw};
    hwcm = hwcm.permuted({2, 3, 0, 1});
    Value filter = n.constant(hwcm);
    if (qdq) {
      if (qdq->scales.size() > 1 && (m != 1 || qdq->axis != 0))
        return n.emitError() << "per-axis weight quantization of a depthwise "
                                "conv needs multiplier 1 and axis 0";
      filter = fakeQuant(n, filter, quantType(n, *qdq, 2), n.inputName(1));
    }
    Value zp = n.constant({1}, {0.0f});
    return Value(tosa::DepthwiseConv2DOp::create(
        b, outType, input, filter, biasValue, zp, zp,
        b.getDenseI64ArrayAttr(tosaPad), b.getDenseI64ArrayAttr(strides),
        b.getDenseI64ArrayAttr(dil), TypeAttr::get(b.getF32Type())));
  }
  Value filter = n.constant(w.permuted({0, 2, 3, 1}));
  if (qdq) {
    if (qdq->scales.size() > 1 && qdq->axis != 0)
      return n.emitError() << "per-axis weight quantization must be along "
                              "the output channels (axis 0)";
    filter = fakeQuant(n, filter, quantType(n, *qdq, 0), n.inputName(1));
  }
  if (exact && group == 1) {
    Value zp = n.constant({1}, {0.0f});
    return Value(tosa::Conv2DOp::create(
        b, outType, input, filter, biasValue, zp, zp,
        b.getDenseI64ArrayAttr(tosaPad), b.getDenseI64ArrayAttr(strides),
        b.getDenseI64ArrayAttr(dil), TypeAttr::get(b.getF32Type())));
  }
  return Value(qnt::Conv2DOp::create(
      b, outType, input, filter, biasValue, /*residual=*/Value(),
      b.getDenseI64ArrayAttr(strides), b.getDenseI64ArrayAttr(pad),
      b.getDenseI64ArrayAttr(dil), b.getI64IntegerAttr(group),
      qnt::ActivationAttr::get(n.context(), qnt::Activation::none), FloatAttr(),
      FloatAttr(), DenseF32ArrayAttr()));
}

FailureOr<ConvOperands> quantc::onnx_import::readConvOperands(NodeImporter &n,
                                                              StringRef what) {
  if (failed(n.checkArity(2, 3)))
    return failure();
  FailureOr<Act> x = n.act(0);
  if (failed(x))
    return failure();
  if (x->rank() != 4 && x->rank() != 3)
    return n.emitError() << "only 1-D and 2-D " << what
                         << " (3-D or 4-D input) are supported";
  const PendingQuant *qdq;
  const ConstTensor *wp = weight(n, 1, qdq);
  if (!wp)
    return failure();
  FailureOr<const ConstTensor *> bias = n.optionalConstant(2);
  if (failed(bias))
    return failure();
  if (static_cast<int64_t>(wp->dims.size()) != x->rank())
    return n.emitError() << "weight must be " << x->rank() << "-D";
  ConvOperands ops{*x, x->rank() == 3, x->onnxShape(), *wp, qdq, *bias};
  if (ops.oneD) {
    ops.w.dims.insert(ops.w.dims.begin() + 2, 1);
    ops.inShape.insert(ops.inShape.begin() + 2, 1);
  }
  return ops;
}

namespace {

/// Conv, 2-D ([N, C, H, W]) or 1-D ([N, C, L], the 2-D conv with H = 1).
LogicalResult conv(NodeImporter &n) {
  FailureOr<ConvOperands> ops = readConvOperands(n, "convolutions");
  if (failed(ops))
    return failure();
  const Act *x = &ops->x;
  bool oneD = ops->oneD;
  const SmallVector<int64_t> &in = ops->inShape;
  const ConstTensor &w = ops->w;
  const PendingQuant *qdq = ops->qdq;
  const ConstTensor *bias = ops->bias;
  int64_t c = in[1], h = in[2], wd = in[3];
  int64_t o = w.dims[0], ci = w.dims[1], kh = w.dims[2], kw = w.dims[3];
  FailureOr<int64_t> group = n.intAttr("group", 1);
  if (failed(group))
    return failure();
  if (*group < 1 || ci * *group != c || o % *group)
    return n.emitError() << "weight shape does not match input channels and "
                            "group "
                         << *group;
  if (bias && bias->numElements() != o)
    return n.emitError() << "bias must have one value per output channel";
  SmallVector<int64_t> kernel = {kh, kw};
  if (oneD)
    kernel.erase(kernel.begin());
  FailureOr<SmallVector<int64_t>> kernelShape =
      n.intsAttr("kernel_shape", kernel);
  if (failed(kernelShape))
    return failure();
  if (*kernelShape != ArrayRef<int64_t>(kernel))
    return n.emitError() << "kernel_shape does not match the weight";
  FailureOr<Window> win = readWindow(n, h, wd, kernel);
  if (failed(win))
    return failure();
  SmallVector<int64_t> pad = win->pad;
  Value input =
      oneD ? n.nhwc(n.reshapeAct(*x, in)) : foldZeroPad(n.nhwc(*x), pad);
  FailureOr<Value> result = buildConv2d(n, input, w, qdq, bias, *group,
                                        win->strides, pad, win->dilations);
  if (failed(result))
    return failure();
  Act out{*result, preferredLayout(4)};
  if (!oneD)
    return n.setOutput(out);
  SmallVector<int64_t> outShape = out.onnxShape();
  outShape.erase(outShape.begin() + 2);
  return n.setOutput(n.reshapeAct(out, outShape));
}

} // namespace

void quantc::onnx_import::registerConvOps(OpRegistry &r) {
  r.add("Conv", conv);
  r.add("ConvTranspose", convTranspose);
}
