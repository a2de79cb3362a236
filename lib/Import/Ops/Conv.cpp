//===- Conv.cpp - Convolutions, fully connected layers, batch norm --------===//
//
// Conv (groups, depthwise, dilations, pads, auto_pad; a zero Pad in front
// folds into the padding), Gemm and MatMul with a constant weight, MatMul
// of two activations, Einsum as a matmul, and BatchNormalization. Weights
// are transposed at import time: OIHW -> OHWI (HWCM for depthwise), [K, N]
// matmul weights.
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"
#include "Common.h"

#include "dialects/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Matchers.h"

#include <cfloat>
#include <map>
#include <optional>

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

/// tosa.matmul of f32 `lhs` [B, M, K] and `rhs` [B, K, N] (zero points 0),
/// of type [B, M, N]: what MatMul, Gemm and Einsum all become.
Value matMul(NodeImporter &n, Value lhs, Value rhs) {
  ArrayRef<int64_t> l = cast<RankedTensorType>(lhs.getType()).getShape(),
                    r = cast<RankedTensorType>(rhs.getType()).getShape();
  Value zp = n.constant({1}, {0.0f});
  return tosa::MatMulOp::create(n.builder(), n.f32({l[0], l[1], r[2]}), lhs,
                                rhs, zp, zp);
}

/// `a [..., M, K] x b [..., K, N]` of two activations (attention's Q x K^T
/// and scores x V) as tosa.matmul on [B, M, K] x [B, K, N], the leading
/// dimensions broadcast (NumPy's matmul) and flattened into B.
FailureOr<Act> batchMatMul(NodeImporter &n, const Act &a, const Act &bAct) {
  SmallVector<int64_t> aShape = a.onnxShape(), bShape = bAct.onnxShape();
  if (aShape.size() < 2 || bShape.size() < 2)
    return n.emitError() << "a matmul of two activations needs inputs of rank "
                            ">= 2";
  int64_t m = aShape[aShape.size() - 2], k = aShape.back(),
          nOut = bShape.back();
  if (bShape[bShape.size() - 2] != k)
    return n.emitError() << "input shapes do not match: [..., " << m << ", "
                         << k << "] x [..., " << bShape[bShape.size() - 2]
                         << ", " << nOut << "]";
  // The broadcast leading (batch) dimensions.
  int64_t rank = std::max(aShape.size(), bShape.size());
  SmallVector<int64_t> aLead(rank - aShape.size(), 1),
      bLead(rank - bShape.size(), 1), lead;
  aLead.append(aShape.begin(), aShape.end() - 2);
  bLead.append(bShape.begin(), bShape.end() - 2);
  int64_t batch = 1;
  for (auto [da, db] : llvm::zip(aLead, bLead)) {
    if (da != db && da != 1 && db != 1)
      return n.emitError() << "the leading dimensions do not broadcast";
    lead.push_back(std::max(da, db));
    batch *= lead.back();
  }
  ImplicitLocOpBuilder &b = n.builder();
  // `x` ([..., rows, cols] with leading dimensions `xLead`) as
  // [batch, rows, cols], tiled where its leading dimensions broadcast.
  auto operand = [&](const Act &x, ArrayRef<int64_t> xLead, int64_t rows,
                     int64_t cols) {
    SmallVector<int64_t> full(xLead);
    full.append({rows, cols});
    Value v = n.reshape(n.onnxOrder(x), full);
    if (ArrayRef<int64_t>(xLead) != ArrayRef<int64_t>(lead)) {
      SmallVector<int64_t> multiples, tiled;
      for (auto [d, l] : llvm::zip(xLead, lead)) {
        multiples.push_back(l / d);
        tiled.push_back(l);
      }
      multiples.append({1, 1});
      tiled.append({rows, cols});
      v = tosa::TileOp::create(b, n.f32(tiled), v,
                               tosa::getTosaConstShape(b, multiples));
    }
    return n.reshape(v, {batch, rows, cols});
  };
  Value result =
      matMul(n, operand(a, aLead, m, k), operand(bAct, bLead, k, nOut));
  SmallVector<int64_t> outShape(lead);
  outShape.append({m, nOut});
  return Act{n.reshape(result, outShape), identityLayout(rank)};
}

/// `a [M, K] x w [K, N] (+ c)` as tosa.matmul on [1, M, K] x [1, K, N]; a
/// higher-rank `a` ([..., K], MatMul) is M = the product of its leading
/// dimensions.
LogicalResult linear(NodeImporter &n, bool isMatMul) {
  if (failed(n.checkArity(2, isMatMul ? 2 : 3)))
    return failure();
  FailureOr<Act> a = n.act(0);
  if (failed(a))
    return failure();
  if (!isMatMul) {
    FailureOr<int64_t> transA = n.intAttr("transA", 0);
    if (failed(transA))
      return failure();
    // Gemm's A^T: the two dimensions swap places in the layout.
    if (*transA != 0 && a->rank() == 2)
      a->layout = {1 - a->layout[0], 1 - a->layout[1]};
  }
  SmallVector<int64_t> aShape = a->onnxShape();
  if (!isMatMul && aShape.size() != 2)
    return n.emitError() << "input must be 2-D (flatten first)";
  if (aShape.size() < 2)
    return n.emitError() << "input must have rank >= 2";
  if (isMatMul && n.isActivation(1)) {
    FailureOr<Act> b = n.act(1);
    if (failed(b))
      return failure();
    FailureOr<Act> product = batchMatMul(n, *a, *b);
    return failed(product) ? failure() : n.setOutput(*product);
  }
  const PendingQuant *qdq;
  const ConstTensor *w = weight(n, 1, qdq);
  if (!w)
    return failure();
  // MatMul's 1-D weight [K] is NumPy's matrix-vector product: a [K, 1]
  // weight whose output dimension is then dropped (PicoDet's distribution
  // integral: softmax [..., R + 1] x arange(R + 1)).
  bool vectorB = isMatMul && w->dims.size() == 1;
  ConstTensor wVector;
  if (vectorB) {
    if (qdq && qdq->scales.size() > 1)
      return n.emitError() << "a 1-D weight cannot be quantized per axis";
    wVector = *w;
    wVector.dims = {w->dims[0], 1};
    w = &wVector;
  }
  if (w->dims.size() != 2)
    return n.emitError() << "weight must be a 2-D constant";
  bool transB = false;
  float alpha = 1.0f, beta = 1.0f;
  const ConstTensor *c = nullptr;
  if (!isMatMul) {
    FailureOr<int64_t> tb = n.intAttr("transB", 0);
    FailureOr<float> al = n.floatAttr("alpha", 1.0f),
                     be = n.floatAttr("beta", 1.0f);
    FailureOr<const ConstTensor *> cc = n.optionalConstant(2);
    if (failed(tb) || failed(al) || failed(be) || failed(cc))
      return failure();
    if (*al != 1.0f && qdq)
      return n.emitError() << "alpha must be 1 for a quantized weight";
    transB = *tb != 0;
    alpha = *al;
    beta = *be;
    c = *cc;
  }
  ConstTensor kn = transB ? w->permuted({1, 0}) : *w;
  int64_t k = aShape.back(), nOut = kn.dims[1], m = 1;
  for (size_t d = 0; d + 1 < aShape.size(); ++d)
    m *= aShape[d];
  if (kn.dims[0] != k)
    return n.emitError() << "weight shape does not match the input";
  if (alpha != 1.0f)
    for (double &v : kn.data)
      v = static_cast<float>(v * alpha);
  kn.dims.insert(kn.dims.begin(), 1);
  Value weightValue = n.constant(kn);
  if (qdq) {
    // The quantized ONNX axis must be the output feature (N) axis.
    int64_t nAxis = transB ? 0 : 1;
    if (qdq->scales.size() > 1 && qdq->axis != nAxis)
      return n.emitError() << "per-axis weight quantization must be along the "
                              "output features";
    weightValue =
        fakeQuant(n, weightValue, quantType(n, *qdq, 2), n.inputName(1));
  }
  ImplicitLocOpBuilder &b = n.builder();
  Value result = matMul(n, n.reshape(n.onnxOrder(*a), {1, m, k}), weightValue);
  if (c) {
    ConstTensor bias = *c;
    if (beta != 1.0f)
      for (double &v : bias.data)
        v = static_cast<float>(v * beta);
    if (bias.numElements() == nOut)
      bias.dims = {1, 1, nOut};
    else if (bias.numElements() == m * nOut)
      bias.dims = {1, m, nOut};
    else if (bias.numElements() == 1)
      bias = ConstTensor{{1, 1, nOut}, std::vector<double>(nOut, bias.data[0])};
    else
      return n.emitError() << "bias shape does not broadcast to the output";
    result =
        tosa::AddOp::create(b, n.f32({1, m, nOut}), result, n.constant(bias));
  }
  SmallVector<int64_t> outShape(aShape.begin(), aShape.end() - 1);
  if (!vectorB)
    outShape.push_back(nOut);
  Act flat{n.reshape(result, {m, nOut}), identityLayout(2)};
  return n.setOutput(n.reshapeAct(flat, outShape));
}

LogicalResult gemm(NodeImporter &n) { return linear(n, /*isMatMul=*/false); }
LogicalResult matMul(NodeImporter &n) { return linear(n, /*isMatMul=*/true); }

/// Einsum's subscripts: per operand, then for the output, one label per
/// dimension: a letter's character code, or kEllipsis + i for the i-th of
/// the broadcast dimensions an ellipsis stands for (right-aligned across
/// the operands, as NumPy aligns them).
struct Subscripts {
  static constexpr int kEllipsis = 1000;
  SmallVector<SmallVector<int>, 2> operands;
  SmallVector<int> output;
};

/// Parses `equation` ("ij,jk->ik", spaces ignored, "..." at most once per
/// term; without "->" the output is the ellipsis, then the letters that
/// occur once, in ASCII order) for operands of ranks `ranks`.
FailureOr<Subscripts> parseEinsum(NodeImporter &n, StringRef equation,
                                  ArrayRef<int64_t> ranks) {
  std::string eq;
  for (char c : equation)
    if (!llvm::isSpace(c))
      eq.push_back(c);
  StringRef text(eq);
  auto [lhs, rhs] = text.split("->");
  bool explicitOutput = text.contains("->");
  if (rhs.contains("->"))
    return n.emitError() << "equation '" << equation
                         << "' has more than one '->'";
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != ranks.size())
    return n.emitError() << "equation '" << equation << "' has " << terms.size()
                         << " operand term(s) for " << ranks.size()
                         << " input(s)";
  // A term's letters and whether (and where) it has an ellipsis.
  struct Term {
    SmallVector<int> letters;
    int ellipsisAt = -1;
  };
  auto parseTerm = [&](StringRef t) -> FailureOr<Term> {
    Term term;
    for (size_t i = 0; i < t.size();) {
      if (t.substr(i).starts_with("...")) {
        if (term.ellipsisAt >= 0)
          return n.emitError() << "term '" << t << "' of equation '" << equation
                               << "' has two ellipses";
        term.ellipsisAt = term.letters.size();
        i += 3;
        continue;
      }
      if (!llvm::isAlpha(t[i]))
        return n.emitError()
               << "equation '" << equation << "' has the invalid subscript '"
               << t[i] << "' (letters and '...' only)";
      int label = static_cast<unsigned char>(t[i++]);
      if (llvm::is_contained(term.letters, label))
        return n.emitError() << "term '" << t << "' of equation '" << equation
                             << "' repeats '" << static_cast<char>(label)
                             << "' (a diagonal), which is not supported";
      term.letters.push_back(label);
    }
    return term;
  };
  SmallVector<Term, 2> parsed;
  int64_t broadcastRank = 0;
  for (auto [t, rank] : llvm::zip(terms, ranks)) {
    FailureOr<Term> term = parseTerm(t);
    if (failed(term))
      return failure();
    int64_t letters = term->letters.size();
    if (term->ellipsisAt < 0 ? letters != rank : letters > rank)
      return n.emitError() << "term '" << t << "' of equation '" << equation
                           << "' does not match an input of rank " << rank;
    if (term->ellipsisAt >= 0)
      broadcastRank = std::max(broadcastRank, rank - letters);
    parsed.push_back(*term);
  }
  auto expand = [&](const Term &term, int64_t ellipsisDims) {
    SmallVector<int> labels(term.letters.begin(), term.letters.end());
    if (term.ellipsisAt >= 0) {
      SmallVector<int> dots;
      for (int64_t i = broadcastRank - ellipsisDims; i < broadcastRank; ++i)
        dots.push_back(Subscripts::kEllipsis + i);
      labels.insert(labels.begin() + term.ellipsisAt, dots.begin(), dots.end());
    }
    return labels;
  };
  Subscripts result;
  for (auto [term, rank] : llvm::zip(parsed, ranks))
    result.operands.push_back(
        expand(term, rank - static_cast<int64_t>(term.letters.size())));
  if (explicitOutput) {
    FailureOr<Term> term = parseTerm(rhs);
    if (failed(term))
      return failure();
    for (int label : term->letters)
      if (llvm::none_of(result.operands, [&](ArrayRef<int> labels) {
            return llvm::is_contained(labels, label);
          }))
        return n.emitError()
               << "output subscript '" << static_cast<char>(label)
               << "' of equation '" << equation << "' is in no operand";
    result.output = expand(*term, broadcastRank);
  } else {
    for (int64_t i = 0; i < broadcastRank; ++i)
      result.output.push_back(Subscripts::kEllipsis + i);
    std::map<int, int> counts;
    for (const Term &term : parsed)
      for (int label : term.letters)
        ++counts[label];
    for (auto [label, count] : counts)
      if (count == 1)
        result.output.push_back(label);
  }
  return result;
}

/// `x` (ONNX dimensions labelled `labels`) with its dimensions in the order
/// `order` (a permutation of `labels`): a layout change, as Transpose.
Act permuteAct(Act x, ArrayRef<int> labels, ArrayRef<int> order) {
  int64_t rank = labels.size();
  SmallVector<int64_t> inverse(rank);
  for (int64_t j = 0; j < rank; ++j)
    inverse[llvm::find(labels, order[j]) - labels.begin()] = j;
  for (int64_t &d : x.layout)
    d = inverse[d];
  return x;
}

/// An Einsum operand: an activation or a constant, its labels and sizes.
struct EinsumOperand {
  std::optional<Act> act;
  const ConstTensor *weight = nullptr;
  SmallVector<int> labels;
  SmallVector<int64_t> shape;
};

/// Einsum (opset 12) of one or two operands. Two operands are one matmul:
/// the batch subscripts (in both operands and the output), the first
/// operand's own output subscripts (M), the contracted ones (K: in both,
/// not in the output) and the second's own (N); the operands are permuted
/// and reshaped to [B, M, K] x [B, K, N], and the product back. A subscript
/// of one operand only that the output drops is summed first. A constant
/// operand without batch subscripts is a linear layer's weight, as MatMul's
/// [K, N]. Not supported: diagonals (a repeated subscript), broadcasting a
/// size-1 dimension, three or more operands.
LogicalResult einsum(NodeImporter &n) {
  if (failed(n.checkArity(1, 2)))
    return failure();
  FailureOr<std::string> equation = n.stringAttr("equation", "");
  if (failed(equation))
    return failure();
  if (equation->empty())
    return n.emitError() << "the equation attribute is required";
  SmallVector<EinsumOperand, 2> ops(n.numInputs());
  SmallVector<int64_t, 2> ranks;
  for (int i = 0; i < n.numInputs(); ++i) {
    if (n.isActivation(i)) {
      FailureOr<Act> a = n.act(i);
      if (failed(a))
        return failure();
      ops[i].act = *a;
      ops[i].shape = a->onnxShape();
    } else {
      ops[i].weight = n.constant(i);
      if (!ops[i].weight)
        return failure();
      ops[i].shape.assign(ops[i].weight->dims.begin(),
                          ops[i].weight->dims.end());
    }
    ranks.push_back(ops[i].shape.size());
  }
  FailureOr<Subscripts> subs = parseEinsum(n, *equation, ranks);
  if (failed(subs))
    return failure();
  std::map<int, int64_t> sizes;
  for (auto [op, labels] : llvm::zip(ops, subs->operands)) {
    op.labels = labels;
    for (auto [label, size] : llvm::zip(labels, op.shape)) {
      auto [it, inserted] = sizes.try_emplace(label, size);
      if (!inserted && it->second != size) {
        InFlightDiagnostic d = n.emitError()
                               << "equation '" << *equation << "' gives ";
        if (label < Subscripts::kEllipsis)
          d << "subscript '" << static_cast<char>(label) << "'";
        else
          d << "a dimension of '...'";
        return d << " the sizes " << it->second << " and " << size
                 << " (broadcasting is not supported)";
      }
    }
  }
  if (llvm::all_of(ops, [](const EinsumOperand &op) { return !op.act; }))
    return n.emitError() << "an Einsum of constants is not supported (fold "
                            "it when exporting)";
  ArrayRef<int> out = subs->output;
  auto in = [](ArrayRef<int> labels, int label) {
    return llvm::is_contained(labels, label);
  };
  ImplicitLocOpBuilder &b = n.builder();
  // Sums the dimensions of `op` that no other operand and not the output
  // has.
  for (auto [i, op] : llvm::enumerate(ops)) {
    SmallVector<int> kept;
    SmallVector<int64_t> keptShape;
    for (auto [label, size] : llvm::zip(op.labels, op.shape)) {
      bool elsewhere = in(out, label);
      for (auto [j, other] : llvm::enumerate(ops))
        elsewhere |= j != i && in(other.labels, label);
      if (elsewhere) {
        kept.push_back(label);
        keptShape.push_back(size);
      }
    }
    if (kept.size() == op.labels.size())
      continue;
    if (!op.act)
      return n.emitError() << "summing a subscript of a constant operand is "
                              "not supported (fold it when exporting)";
    Value v = n.onnxOrder(*op.act);
    SmallVector<int64_t> shape(op.shape);
    for (auto [d, label] : llvm::enumerate(op.labels)) {
      if (in(kept, label))
        continue;
      shape[d] = 1;
      v = tosa::ReduceSumOp::create(b, n.f32(shape), v, b.getI32IntegerAttr(d));
    }
    op.act = Act{n.reshape(v, keptShape), identityLayout(kept.size())};
    op.labels = kept;
    op.shape = keptShape;
  }

  auto product = [&](ArrayRef<int> labels) {
    int64_t p = 1;
    for (int label : labels)
      p *= sizes[label];
    return p;
  };
  auto concat = [](std::initializer_list<ArrayRef<int>> parts) {
    SmallVector<int> all;
    for (ArrayRef<int> p : parts)
      all.append(p.begin(), p.end());
    return all;
  };
  auto shapeOf = [&](ArrayRef<int> labels) {
    SmallVector<int64_t> shape;
    for (int label : labels)
      shape.push_back(sizes[label]);
    return shape;
  };
  SmallVector<int> resultLabels;
  Act result;
  if (ops.size() == 1) {
    result = *ops[0].act;
    resultLabels = ops[0].labels;
  } else {
    // A constant operand goes second, as a matmul weight.
    if (!ops[0].act)
      std::swap(ops[0], ops[1]);
    const EinsumOperand &a = ops[0], &w = ops[1];
    SmallVector<int> batch, m, k, nOut;
    for (int label : out)
      if (in(a.labels, label) && in(w.labels, label))
        batch.push_back(label);
      else if (in(a.labels, label))
        m.push_back(label);
      else if (in(w.labels, label))
        nOut.push_back(label);
    for (int label : a.labels)
      if (in(w.labels, label) && !in(out, label))
        k.push_back(label);
    int64_t bt = product(batch), mt = product(m), kt = product(k),
            nt = product(nOut);
    Act lhs = n.reshapeAct(permuteAct(*a.act, a.labels, concat({batch, m, k})),
                           {bt, mt, kt});
    if (w.act) {
      Act rhs = n.reshapeAct(
          permuteAct(*w.act, w.labels, concat({batch, k, nOut})), {bt, kt, nt});
      FailureOr<Act> p = batchMatMul(n, lhs, rhs);
      if (failed(p))
        return failure();
      result = *p;
    } else {
      if (!batch.empty())
        return n.emitError() << "a constant Einsum operand with batch "
                                "subscripts is not supported";
      SmallVector<int64_t> perm;
      for (int label : concat({k, nOut}))
        perm.push_back(llvm::find(w.labels, label) - w.labels.begin());
      ConstTensor kn = w.weight->permuted(perm);
      kn.dims = {1, kt, nt};
      result =
          Act{matMul(n, n.onnxOrder(lhs), n.constant(kn)), identityLayout(3)};
    }
    resultLabels = concat({batch, m, nOut});
    result = n.reshapeAct(result, shapeOf(resultLabels));
  }
  return n.setOutput(permuteAct(result, resultLabels, out));
}

LogicalResult batchNorm(NodeImporter &n) {
  if (failed(n.checkArity(5, 5, 1, 5)))
    return failure();
  // Opsets 7-13 train when the running / saved statistics are asked for.
  for (int i = 1; i < n.node().output_size(); ++i)
    if (!n.node().output(i).empty())
      return n.emitError() << "training mode (the mean / variance outputs) "
                              "is not supported: inference only";
  // Opsets 7-8: spatial=0 normalizes each element with its own statistics.
  FailureOr<int64_t> spatial = n.intAttr("spatial", 1);
  if (failed(spatial))
    return failure();
  if (n.opset() < 9 && *spatial != 1)
    return n.emitError() << "spatial=0 (per-element statistics) is not "
                            "supported";
  FailureOr<Act> x = n.act(0);
  if (failed(x))
    return failure();
  if (x->rank() < 2)
    return n.emitError() << "input must have rank >= 2 (channels at axis 1)";
  FailureOr<int64_t> training = n.intAttr("training_mode", 0);
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

void quantc::onnx_import::registerConvOps(OpRegistry &r) {
  r.add("Conv", conv);
  r.add("ConvTranspose", convTranspose);
  r.add("Gemm", gemm);
  r.add("MatMul", matMul);
  r.add("Einsum", einsum, 12);
  r.add("BatchNormalization", batchNorm);
}
