//===- OnnxImporter.cpp - ONNX model to the float TOSA graph --------------===//
//
// One pass over the (topologically sorted) ONNX nodes. 4-D activations are
// kept in NHWC (`Act::nhwc`); constants stay in ONNX's layout until an op
// consumes them, which transposes them at import time (OIHW -> OHWI, HWCM,
// [K, N] matmul weights). Layout-sensitive ops (Flatten, Reshape) go back to
// NCHW first when the element order would differ.
//
//===----------------------------------------------------------------------===//

#include "quantc/Import/OnnxImporter.h"

#include "OnnxTensor.h"

#include "dialects/Qnt/IR/QntDialect.h"
#include "dialects/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/StringMap.h"

#include <cfloat>
#include <cmath>

using namespace mlir;
using namespace quantc;
using namespace quantc::onnx_import;

namespace {

/// An activation; 4-D activations are NHWC in IR, NCHW for ONNX.
struct Act {
  Value value;
  bool nhwc = false;
};

/// A QuantizeLinear output waiting for its DequantizeLinear.
struct PendingQuant {
  std::string input;
  std::vector<double> scales;
  std::vector<int64_t> zeroPoints;
  bool isSigned = false;
  int64_t axis = 1; // ONNX axis; ignored when per tensor
};

class Importer {
public:
  Importer(MLIRContext &ctx, const OnnxImportOptions &options)
      : ctx(ctx), options(options), b(UnknownLoc::get(&ctx), &ctx) {}

  OwningOpRef<ModuleOp> run(const onnx::ModelProto &model);
  std::string error;

private:
  LogicalResult fail(const Twine &msg) {
    if (error.empty())
      error = msg.str();
    return failure();
  }
  LogicalResult failNode(const onnx::NodeProto &node, const Twine &msg) {
    return fail("node '" + node.name() + "' (" + node.op_type() + "): " + msg);
  }

  LogicalResult importNode(const onnx::NodeProto &node);
  LogicalResult conv(const onnx::NodeProto &node);
  LogicalResult pool(const onnx::NodeProto &node, bool isMax, bool global);
  LogicalResult gemm(const onnx::NodeProto &node, bool isMatMul);
  LogicalResult reshape(const onnx::NodeProto &node, bool isFlatten);
  LogicalResult quantize(const onnx::NodeProto &node);
  LogicalResult dequantize(const onnx::NodeProto &node);

  FailureOr<Act> getAct(const onnx::NodeProto &node, int index);
  const ConstTensor *getConst(const onnx::NodeProto &node, int index,
                              bool optional = false);
  /// The scale (input 1) and optional zero point (input 2, null when
  /// absent) of a QuantizeLinear / DequantizeLinear node.
  LogicalResult quantParams(const onnx::NodeProto &node,
                            const ConstTensor *&scale, const ConstTensor *&zp) {
    scale = getConst(node, 1);
    if (!scale)
      return failure();
    zp = getConst(node, 2, /*optional=*/true);
    return success(zp || error.empty());
  }
  /// A constant operand, possibly through a QDQ pair on constants.
  const ConstTensor *getWeight(const onnx::NodeProto &node, int index,
                               const PendingQuant *&qdq);
  SmallVector<int64_t> onnxShape(const Act &act);

  RankedTensorType f32(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, b.getF32Type());
  }
  Value constant(ArrayRef<int64_t> shape, ArrayRef<float> values);
  Value constant(const ConstTensor &t) { return constant(t.dims, t.floats()); }
  Value zero() { return constant({1}, {0.0f}); }
  Value transpose(Value v, ArrayRef<int32_t> perm);
  Value toNCHW(const Act &act);
  Value reshapeTo(Value v, ArrayRef<int64_t> shape);
  FailureOr<quant::QuantizedType> quantType(const PendingQuant &q,
                                            int64_t irAxis);
  Value fakeQuant(Value v, quant::QuantizedType qtype, StringRef name);
  LogicalResult dequantizeConstant(const onnx::NodeProto &node);
  LogicalResult constantOfShape(const onnx::NodeProto &node);
  LogicalResult castNode(const onnx::NodeProto &node);
  /// Floor-mode pads [top, bottom, left, right] of a conv or pool.
  LogicalResult spatialParams(const onnx::NodeProto &node, int64_t h, int64_t w,
                              ArrayRef<int64_t> kernel,
                              SmallVector<int64_t> &pad,
                              SmallVector<int64_t> &strides,
                              SmallVector<int64_t> &dil);

  MLIRContext &ctx;
  const OnnxImportOptions &options;
  ImplicitLocOpBuilder b;
  llvm::StringMap<Act> acts;
  llvm::StringMap<ConstTensor> consts;
  llvm::StringMap<PendingQuant> quants;
  /// QDQ pairs on constants: output name -> (constant name, parameters).
  llvm::StringMap<PendingQuant> constQdq;
};

} // namespace

Value Importer::constant(ArrayRef<int64_t> shape, ArrayRef<float> values) {
  auto type = f32(shape);
  return tosa::ConstOp::create(b, type, DenseElementsAttr::get(type, values));
}

Value Importer::transpose(Value v, ArrayRef<int32_t> perm) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  for (int32_t p : perm)
    shape.push_back(type.getDimSize(p));
  return tosa::TransposeOp::create(b, f32(shape), v,
                                   b.getDenseI32ArrayAttr(perm));
}

Value Importer::toNCHW(const Act &act) {
  return act.nhwc ? transpose(act.value, {0, 3, 1, 2}) : act.value;
}

Value Importer::reshapeTo(Value v, ArrayRef<int64_t> shape) {
  if (cast<RankedTensorType>(v.getType()).getShape() == shape)
    return v;
  return tosa::ReshapeOp::create(b, f32(shape), v,
                                 tosa::getTosaConstShape(b, shape));
}

SmallVector<int64_t> Importer::onnxShape(const Act &act) {
  auto shape = cast<RankedTensorType>(act.value.getType()).getShape();
  if (!act.nhwc)
    return SmallVector<int64_t>(shape);
  return {shape[0], shape[3], shape[1], shape[2]};
}

FailureOr<Act> Importer::getAct(const onnx::NodeProto &node, int index) {
  if (index >= node.input_size() || node.input(index).empty())
    return failNode(node, "missing input " + Twine(index));
  auto it = acts.find(node.input(index));
  if (it != acts.end())
    return it->second;
  if (consts.count(node.input(index)))
    return failNode(node, "input '" + node.input(index) +
                              "' is a constant; only activations are "
                              "supported there");
  return failNode(node, "input '" + node.input(index) +
                            "' is not a graph input, an initializer or an "
                            "earlier node's output (missing initializer?)");
}

const ConstTensor *Importer::getConst(const onnx::NodeProto &node, int index,
                                      bool optional) {
  if (index >= node.input_size() || node.input(index).empty()) {
    if (!optional)
      (void)failNode(node, "missing input " + Twine(index));
    return nullptr;
  }
  auto it = consts.find(node.input(index));
  if (it != consts.end())
    return &it->second;
  if (acts.count(node.input(index)))
    (void)failNode(node, "input '" + node.input(index) +
                             "' must be a constant (initializer)");
  else
    (void)failNode(node, "input '" + node.input(index) +
                             "' is not an initializer or an earlier node's "
                             "output (missing initializer?)");
  return nullptr;
}

const ConstTensor *Importer::getWeight(const onnx::NodeProto &node, int index,
                                       const PendingQuant *&qdq) {
  qdq = nullptr;
  if (index < node.input_size()) {
    auto it = constQdq.find(node.input(index));
    if (it != constQdq.end()) {
      qdq = &it->second;
      return &consts.find(it->second.input)->second;
    }
  }
  return getConst(node, index);
}

FailureOr<quant::QuantizedType> Importer::quantType(const PendingQuant &q,
                                                    int64_t irAxis) {
  Type storage = IntegerType::get(&ctx, 8);
  unsigned flags = q.isSigned ? quant::QuantizationFlags::Signed : 0;
  int64_t lo = q.isSigned ? -128 : 0, hi = q.isSigned ? 127 : 255;
  if (q.scales.size() == 1)
    return cast<quant::QuantizedType>(quant::UniformQuantizedType::get(
        flags, storage, b.getF32Type(), q.scales[0], q.zeroPoints[0], lo, hi));
  return cast<quant::QuantizedType>(quant::UniformQuantizedPerAxisType::get(
      flags, storage, b.getF32Type(), q.scales, q.zeroPoints,
      static_cast<int32_t>(irAxis), lo, hi));
}

Value Importer::fakeQuant(Value v, quant::QuantizedType qtype, StringRef name) {
  return qnt::FakeQuantOp::create(b, v, TypeAttr::get(qtype),
                                  DenseF32ArrayAttr(), DenseF32ArrayAttr(),
                                  b.getStringAttr(name));
}

LogicalResult Importer::spatialParams(const onnx::NodeProto &node, int64_t h,
                                      int64_t w, ArrayRef<int64_t> kernel,
                                      SmallVector<int64_t> &pad,
                                      SmallVector<int64_t> &strides,
                                      SmallVector<int64_t> &dil) {
  strides = attrInts(node, "strides", {1, 1});
  dil = attrInts(node, "dilations", {1, 1});
  SmallVector<int64_t> pads = attrInts(node, "pads", {0, 0, 0, 0});
  if (strides.size() != 2 || dil.size() != 2 || pads.size() != 4 ||
      kernel.size() != 2)
    return failNode(node, "only 2-D spatial attributes are supported");
  std::string autoPad = attrString(node, "auto_pad", "NOTSET");
  int64_t size[2] = {h, w};
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (int i = 0; i < 2; ++i) {
      int64_t out = (size[i] + strides[i] - 1) / strides[i];
      int64_t total = std::max<int64_t>(
          (out - 1) * strides[i] + dil[i] * (kernel[i] - 1) + 1 - size[i], 0);
      int64_t small = total / 2;
      pads[i] = autoPad == "SAME_UPPER" ? small : total - small;
      pads[i + 2] = total - pads[i];
    }
  } else if (autoPad == "VALID") {
    pads = {0, 0, 0, 0};
  } else if (autoPad != "NOTSET") {
    return failNode(node, "unsupported auto_pad '" + autoPad + "'");
  }
  // ONNX: [top, left, bottom, right]; TOSA / qnt: [top, bottom, left, right].
  pad = {pads[0], pads[2], pads[1], pads[3]};
  for (int i = 0; i < 2; ++i)
    if (size[i] + pad[2 * i] + pad[2 * i + 1] < dil[i] * (kernel[i] - 1) + 1)
      return failNode(node, "window larger than the padded input");
  return success();
}

static int64_t outSize(int64_t in, int64_t pb, int64_t pe, int64_t k, int64_t s,
                       int64_t d) {
  return (in + pb + pe - d * (k - 1) - 1) / s + 1;
}

LogicalResult Importer::conv(const onnx::NodeProto &node) {
  FailureOr<Act> x = getAct(node, 0);
  if (failed(x))
    return failure();
  if (!x->nhwc)
    return failNode(node, "only 2-D convolutions (4-D input) are supported");
  const PendingQuant *qdq;
  const ConstTensor *w = getWeight(node, 1, qdq);
  if (!w)
    return failure();
  const ConstTensor *bias = getConst(node, 2, /*optional=*/true);
  if (!bias && !error.empty())
    return failure();
  if (w->dims.size() != 4)
    return failNode(node, "weight must be 4-D");
  auto inShape = cast<RankedTensorType>(x->value.getType()).getShape();
  int64_t n = inShape[0], h = inShape[1], wd = inShape[2], c = inShape[3];
  int64_t o = w->dims[0], ci = w->dims[1], kh = w->dims[2], kw = w->dims[3];
  int64_t group = attrInt(node, "group", 1);
  if (ci * group != c || o % group)
    return failNode(node, "weight shape does not match input channels and "
                          "group " +
                              Twine(group));
  SmallVector<int64_t> pad, strides, dil;
  if (failed(spatialParams(node, h, wd, {kh, kw}, pad, strides, dil)))
    return failure();
  int64_t oh = outSize(h, pad[0], pad[1], kh, strides[0], dil[0]);
  int64_t ow = outSize(wd, pad[2], pad[3], kw, strides[1], dil[1]);
  auto outType = f32({n, oh, ow, o});
  // TOSA wants exact sizes: drop bottom/right padding a floor-mode conv never
  // reads; when that is not enough, use the float qnt.conv2d (floor mode).
  SmallVector<int64_t> tosaPad = pad;
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
  Value biasValue =
      bias ? constant(*bias) : constant({o}, std::vector<float>(o, 0.0f));
  bool depthwise = group == c && ci == 1 && group > 1;
  Value result;
  if (exact && depthwise) {
    int64_t m = o / c;
    ConstTensor hwcm = *w;
    hwcm.dims = {c, m, kh, kw};
    hwcm = hwcm.permuted({2, 3, 0, 1});
    Value filter = constant(hwcm);
    if (qdq) {
      if (qdq->scales.size() > 1 && (m != 1 || qdq->axis != 0))
        return failNode(node, "per-axis weight quantization of a depthwise "
                              "conv needs multiplier 1 and axis 0");
      FailureOr<quant::QuantizedType> qt = quantType(*qdq, 2);
      if (failed(qt))
        return failure();
      filter = fakeQuant(filter, *qt, node.input(1));
    }
    Value zp = zero();
    result = tosa::DepthwiseConv2DOp::create(
        b, outType, x->value, filter, biasValue, zp, zp,
        b.getDenseI64ArrayAttr(tosaPad), b.getDenseI64ArrayAttr(strides),
        b.getDenseI64ArrayAttr(dil), TypeAttr::get(b.getF32Type()));
  } else {
    Value filter = constant(w->permuted({0, 2, 3, 1}));
    if (qdq) {
      if (qdq->scales.size() > 1 && qdq->axis != 0)
        return failNode(node, "per-axis weight quantization must be along "
                              "the output channels (axis 0)");
      FailureOr<quant::QuantizedType> qt = quantType(*qdq, 0);
      if (failed(qt))
        return failure();
      filter = fakeQuant(filter, *qt, node.input(1));
    }
    if (exact && group == 1) {
      Value zp = zero();
      result = tosa::Conv2DOp::create(
          b, outType, x->value, filter, biasValue, zp, zp,
          b.getDenseI64ArrayAttr(tosaPad), b.getDenseI64ArrayAttr(strides),
          b.getDenseI64ArrayAttr(dil), TypeAttr::get(b.getF32Type()));
    } else {
      result = qnt::Conv2DOp::create(
          b, outType, x->value, filter, biasValue, /*residual=*/Value(),
          b.getDenseI64ArrayAttr(strides), b.getDenseI64ArrayAttr(pad),
          b.getDenseI64ArrayAttr(dil), b.getI64IntegerAttr(group),
          qnt::ActivationAttr::get(&ctx, qnt::Activation::none), FloatAttr(),
          FloatAttr(), DenseF32ArrayAttr());
    }
  }
  acts[node.output(0)] = {result, true};
  return success();
}

LogicalResult Importer::pool(const onnx::NodeProto &node, bool isMax,
                             bool global) {
  FailureOr<Act> x = getAct(node, 0);
  if (failed(x))
    return failure();
  if (!x->nhwc)
    return failNode(node, "only 2-D pooling (4-D input) is supported");
  auto inShape = cast<RankedTensorType>(x->value.getType()).getShape();
  int64_t n = inShape[0], h = inShape[1], w = inShape[2], c = inShape[3];
  SmallVector<int64_t> kernel = {h, w}, pad = {0, 0, 0, 0}, strides = {1, 1},
                       dil = {1, 1};
  if (!global) {
    kernel = attrInts(node, "kernel_shape", {});
    if (failed(spatialParams(node, h, w, kernel, pad, strides, dil)))
      return failure();
    if (attrInt(node, "ceil_mode", 0) != 0)
      return failNode(node, "ceil_mode=1 is not supported");
    if (dil[0] != 1 || dil[1] != 1)
      return failNode(node, "dilated pooling is not supported");
    if (attrInt(node, "storage_order", 0) != 0)
      return failNode(node, "storage_order=1 is not supported");
    bool padded = llvm::any_of(pad, [](int64_t p) { return p != 0; });
    if (!isMax && padded && attrInt(node, "count_include_pad", 0) != 0)
      return failNode(node, "count_include_pad=1 with padding is not "
                            "supported (TOSA average pooling excludes "
                            "padding)");
  }
  int64_t oh = outSize(h, pad[0], pad[1], kernel[0], strides[0], 1);
  int64_t ow = outSize(w, pad[2], pad[3], kernel[1], strides[1], 1);
  // Exact TOSA sizes: trim bottom/right padding, then input rows/columns
  // that the floor-mode window never reaches.
  Value input = x->value;
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
    SmallVector<int64_t> size = {n, h - trim[0], w - trim[1], c};
    input = tosa::SliceOp::create(b, f32(size), input,
                                  tosa::getTosaConstShape(b, {0, 0, 0, 0}),
                                  tosa::getTosaConstShape(b, size));
  }
  auto outType = f32({n, oh, ow, c});
  Value result;
  if (isMax) {
    result = tosa::MaxPool2dOp::create(
        b, outType, input, b.getDenseI64ArrayAttr(kernel),
        b.getDenseI64ArrayAttr(strides), b.getDenseI64ArrayAttr(pad));
  } else {
    Value zp = zero();
    result = tosa::AvgPool2dOp::create(b, outType, input, zp, zp, kernel,
                                       strides, pad, b.getF32Type());
  }
  acts[node.output(0)] = {result, true};
  return success();
}

LogicalResult Importer::gemm(const onnx::NodeProto &node, bool isMatMul) {
  FailureOr<Act> a = getAct(node, 0);
  if (failed(a))
    return failure();
  SmallVector<int64_t> aShape = onnxShape(*a);
  if (aShape.size() != 2)
    return failNode(node, "input must be 2-D (flatten first)");
  const PendingQuant *qdq;
  const ConstTensor *w = getWeight(node, 1, qdq);
  if (!w)
    return failure();
  if (w->dims.size() != 2)
    return failNode(node, "weight must be a 2-D constant");
  bool transB = false;
  const ConstTensor *c = nullptr;
  if (!isMatMul) {
    if (attrInt(node, "transA", 0) != 0)
      return failNode(node, "transA=1 is not supported");
    if (attrFloat(node, "alpha", 1.0f) != 1.0f ||
        attrFloat(node, "beta", 1.0f) != 1.0f)
      return failNode(node, "alpha and beta must be 1");
    transB = attrInt(node, "transB", 0) != 0;
    c = getConst(node, 2, /*optional=*/true);
    if (!c && !error.empty())
      return failure();
  }
  ConstTensor kn = transB ? w->permuted({1, 0}) : *w;
  int64_t m = aShape[0], k = aShape[1], nOut = kn.dims[1];
  if (kn.dims[0] != k)
    return failNode(node, "weight shape does not match the input");
  kn.dims.insert(kn.dims.begin(), 1);
  Value weight = constant(kn);
  if (qdq) {
    // The quantized ONNX axis must be the output feature (N) axis.
    int64_t nAxis = transB ? 0 : 1;
    if (qdq->scales.size() > 1 && qdq->axis != nAxis)
      return failNode(node, "per-axis weight quantization must be along the "
                            "output features");
    FailureOr<quant::QuantizedType> qt = quantType(*qdq, 2);
    if (failed(qt))
      return failure();
    weight = fakeQuant(weight, *qt, node.input(1));
  }
  Value lhs = reshapeTo(a->value, {1, m, k});
  Value zp = zero();
  Value result =
      tosa::MatMulOp::create(b, f32({1, m, nOut}), lhs, weight, zp, zp);
  if (c) {
    ConstTensor bias = *c;
    if (bias.numElements() == nOut)
      bias.dims = {1, 1, nOut};
    else if (bias.numElements() == m * nOut)
      bias.dims = {1, m, nOut};
    else
      return failNode(node, "bias shape does not broadcast to the output");
    result = tosa::AddOp::create(b, f32({1, m, nOut}), result, constant(bias));
  }
  acts[node.output(0)] = {reshapeTo(result, {m, nOut}), false};
  return success();
}

LogicalResult Importer::reshape(const onnx::NodeProto &node, bool isFlatten) {
  FailureOr<Act> x = getAct(node, 0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> inShape = onnxShape(*x);
  int64_t total = 1;
  for (int64_t d : inShape)
    total *= d;
  SmallVector<int64_t> target;
  if (isFlatten) {
    int64_t axis = attrInt(node, "axis", 1);
    if (axis < 0)
      axis += inShape.size();
    int64_t outer = 1;
    for (int64_t i = 0; i < axis; ++i)
      outer *= inShape[i];
    target = {outer, total / outer};
  } else {
    const ConstTensor *shape = getConst(node, 1);
    if (!shape)
      return failure();
    if (attrInt(node, "allowzero", 0) != 0)
      return failNode(node, "allowzero=1 is not supported");
    int64_t known = 1, inferred = -1;
    for (size_t i = 0; i < shape->data.size(); ++i) {
      int64_t d = static_cast<int64_t>(shape->data[i]);
      if (d == 0) {
        if (i >= inShape.size())
          return failNode(node, "shape 0 refers to a missing dimension");
        d = inShape[i];
      }
      if (d == -1) {
        inferred = i;
      } else {
        known *= d;
      }
      target.push_back(d);
    }
    if (inferred >= 0) {
      if (known == 0 || total % known)
        return failNode(node, "cannot infer the -1 dimension");
      target[inferred] = total / known;
    } else if (known != total) {
      return failNode(node, "shape does not match the element count");
    }
  }
  // NHWC and NCHW agree on the element order only when H * W == 1.
  bool spatial = x->nhwc && inShape[2] * inShape[3] > 1;
  Value v = spatial ? toNCHW(*x) : x->value;
  if (target.size() == 4) {
    // Keep the invariant: 4-D activations are NHWC.
    v = reshapeTo(v, target);
    acts[node.output(0)] = {transpose(v, {0, 2, 3, 1}), true};
  } else {
    acts[node.output(0)] = {reshapeTo(v, target), false};
  }
  return success();
}

LogicalResult Importer::quantize(const onnx::NodeProto &node) {
  if (node.input_size() < 1 ||
      (!acts.count(node.input(0)) && !consts.count(node.input(0))))
    return failNode(node, "input '" + (node.input_size() ? node.input(0) : "") +
                              "' is not defined (missing initializer?)");
  const ConstTensor *scale, *zp;
  if (failed(quantParams(node, scale, zp)))
    return failure();
  PendingQuant q;
  q.input = node.input(0);
  q.scales = scale->data;
  q.isSigned = zp && zp->dtype == onnx::TensorProto::INT8;
  if (zp && zp->dtype != onnx::TensorProto::INT8 &&
      zp->dtype != onnx::TensorProto::UINT8)
    return failNode(node, "only int8 / uint8 quantization is supported");
  for (size_t i = 0; i < q.scales.size(); ++i)
    q.zeroPoints.push_back(zp ? static_cast<int64_t>(zp->data[i]) : 0);
  if (zp && zp->data.size() != q.scales.size())
    return failNode(node, "scale and zero point sizes differ");
  q.axis = attrInt(node, "axis", 1);
  quants[node.output(0)] = std::move(q);
  return success();
}

LogicalResult Importer::dequantize(const onnx::NodeProto &node) {
  auto it = node.input_size() ? quants.find(node.input(0)) : quants.end();
  if (it == quants.end() && node.input_size() && consts.count(node.input(0)))
    return dequantizeConstant(node);
  if (it == quants.end())
    return failNode(node, "only QuantizeLinear -> DequantizeLinear pairs "
                          "are supported (input does not come from "
                          "QuantizeLinear)");
  PendingQuant q = it->second;
  const ConstTensor *scale = getConst(node, 1);
  if (!scale)
    return failure();
  if (scale->data != q.scales)
    return failNode(node, "scale differs from its QuantizeLinear's");
  if (consts.count(q.input)) {
    if (q.scales.size() > 1) {
      int64_t rank = consts.find(q.input)->second.dims.size();
      if (q.axis < 0)
        q.axis += rank;
    }
    constQdq[node.output(0)] = std::move(q);
    return success();
  }
  Act x = acts.find(q.input)->second;
  int64_t irAxis = 0;
  if (q.scales.size() > 1) {
    int64_t rank = onnxShape(x).size();
    int64_t axis = q.axis < 0 ? q.axis + rank : q.axis;
    static const int64_t toNHWC[4] = {0, 3, 1, 2};
    irAxis = x.nhwc ? toNHWC[axis] : axis;
  }
  FailureOr<quant::QuantizedType> qt = quantType(q, irAxis);
  if (failed(qt))
    return failure();
  acts[node.output(0)] = {fakeQuant(x.value, *qt, node.name()), x.nhwc};
  return success();
}

/// A constant filled with one value (PyTorch's exporter builds zero points
/// this way).
LogicalResult Importer::constantOfShape(const onnx::NodeProto &node) {
  const ConstTensor *shape = getConst(node, 0);
  if (!shape)
    return failure();
  ConstTensor t;
  t.dtype = onnx::TensorProto::FLOAT;
  double value = 0.0;
  if (const onnx::AttributeProto *attr = findAttr(node, "value")) {
    ConstTensor v;
    if (auto err = decodeTensor(attr->t(), v))
      return failNode(node, *err);
    if (v.data.size() != 1)
      return failNode(node, "value must have one element");
    t.dtype = v.dtype;
    value = v.data[0];
  }
  for (double d : shape->data) {
    if (d < 0)
      return failNode(node, "negative dimension");
    t.dims.push_back(static_cast<int64_t>(d));
  }
  t.data.assign(t.numElements(), value);
  consts[node.output(0)] = std::move(t);
  return success();
}

/// Casts that change nothing the importer represents: a quantized value
/// (QuantizeLinear output) to its own type (PyTorch's exporter writes
/// QuantizeLinear -> Cast -> DequantizeLinear), a float activation to
/// float, and constants (integers and floats; float to integer truncates,
/// as ONNX specifies).
LogicalResult Importer::castNode(const onnx::NodeProto &node) {
  int64_t to = attrInt(node, "to", 0);
  const std::string &in = node.input_size() ? node.input(0) : "";
  auto isInteger = [](int64_t t) {
    return t == onnx::TensorProto::INT8 || t == onnx::TensorProto::UINT8 ||
           t == onnx::TensorProto::INT32 || t == onnx::TensorProto::INT64;
  };
  if (auto it = quants.find(in); it != quants.end()) {
    int64_t storage = it->second.isSigned ? onnx::TensorProto::INT8
                                          : onnx::TensorProto::UINT8;
    if (to != storage)
      return failNode(node, "a quantized value can only be cast to its own "
                            "type");
    PendingQuant q = it->second;
    quants[node.output(0)] = std::move(q);
    return success();
  }
  if (auto it = acts.find(in); it != acts.end()) {
    if (to != onnx::TensorProto::FLOAT)
      return failNode(node, "only float activations are supported");
    Act a = it->second;
    acts[node.output(0)] = a;
    return success();
  }
  auto it = consts.find(in);
  if (it == consts.end())
    return failNode(node, "input '" + in + "' is not defined");
  if (to != onnx::TensorProto::FLOAT && !isInteger(to))
    return failNode(node, "unsupported target type " + Twine(to));
  ConstTensor t = it->second;
  t.dtype = static_cast<int32_t>(to);
  if (isInteger(to))
    for (double &v : t.data)
      v = std::trunc(v);
  else
    for (double &v : t.data)
      v = static_cast<float>(v);
  consts[node.output(0)] = std::move(t);
  return success();
}

/// DequantizeLinear of a quantized initializer (ONNX Runtime's QDQ format
/// stores weights as int8 / uint8 and biases as int32): the float constant
/// `(q - zp) * scale` (float32, as ONNX computes it); an 8-bit weight also
/// keeps its parameters, so that it becomes `qnt.fake_quant` of the
/// dequantized constant, which quantizes back to exactly `q` (|q - zp| <=
/// 255: the float32 round trip is off by far less than 0.5).
LogicalResult Importer::dequantizeConstant(const onnx::NodeProto &node) {
  const ConstTensor &q = consts.find(node.input(0))->second;
  bool is8Bit =
      q.dtype == onnx::TensorProto::INT8 || q.dtype == onnx::TensorProto::UINT8;
  if (!is8Bit && q.dtype != onnx::TensorProto::INT32)
    return failNode(node, "only int8, uint8 and int32 initializers can be "
                          "dequantized");
  const ConstTensor *scale, *zp;
  if (failed(quantParams(node, scale, zp)))
    return failure();
  if (zp && zp->dtype != q.dtype)
    return failNode(node, "zero point type differs from the input's");
  size_t channels = scale->data.size();
  if (zp && zp->data.size() != channels)
    return failNode(node, "scale and zero point sizes differ");
  int64_t rank = q.dims.size();
  int64_t axis = attrInt(node, "axis", 1);
  if (axis < 0)
    axis += rank;
  int64_t inner = 1;
  if (channels > 1) {
    if (axis < 0 || axis >= rank || q.dims[axis] != int64_t(channels))
      return failNode(node, "per-axis scale does not match the input's axis " +
                                Twine(axis));
    for (int64_t d = axis + 1; d < rank; ++d)
      inner *= q.dims[d];
  }
  ConstTensor f;
  f.dims = q.dims;
  f.data.resize(q.data.size());
  for (size_t i = 0; i < q.data.size(); ++i) {
    size_t c = channels > 1 ? (i / inner) % channels : 0;
    double z = zp ? zp->data[c] : 0.0;
    f.data[i] =
        static_cast<float>(q.data[i] - z) * static_cast<float>(scale->data[c]);
  }
  if (is8Bit) {
    // The weight's QDQ pair: the dequantized constant + its parameters.
    PendingQuant pq;
    pq.input = node.output(0) + "#dequantized";
    pq.scales = scale->data;
    pq.isSigned = q.dtype == onnx::TensorProto::INT8;
    for (size_t c = 0; c < channels; ++c)
      pq.zeroPoints.push_back(zp ? static_cast<int64_t>(zp->data[c]) : 0);
    pq.axis = axis;
    consts[pq.input] = f;
    constQdq[node.output(0)] = std::move(pq);
  }
  consts[node.output(0)] = std::move(f);
  return success();
}

LogicalResult Importer::importNode(const onnx::NodeProto &node) {
  const std::string &op = node.op_type();
  std::string name = node.name().empty()
                         ? (node.output_size() ? node.output(0) : op)
                         : node.name();
  b.setLoc(NameLoc::get(b.getStringAttr(name)));
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    return failNode(node, "unsupported op domain '" + node.domain() + "'");
  if (node.output_size() < 1)
    return failNode(node, "node has no output");

  if (op == "Constant") {
    const onnx::AttributeProto *value = findAttr(node, "value");
    if (!value || !value->has_t())
      return failNode(node, "only tensor-valued Constant is supported");
    ConstTensor t;
    if (auto err = decodeTensor(value->t(), t))
      return failNode(node, *err);
    consts[node.output(0)] = std::move(t);
    return success();
  }
  if (op == "ConstantOfShape")
    return constantOfShape(node);
  if (op == "Cast")
    return castNode(node);
  if (op == "Identity" || op == "Dropout") {
    const std::string &in = node.input(0);
    if (acts.count(in))
      acts[node.output(0)] = acts[in];
    else if (consts.count(in))
      consts[node.output(0)] = consts[in];
    else if (quants.count(in))
      quants[node.output(0)] = quants[in];
    else
      return failNode(node, "input '" + in + "' is not defined");
    return success();
  }
  if (op == "Conv")
    return conv(node);
  if (op == "MaxPool" || op == "AveragePool")
    return pool(node, op == "MaxPool", false);
  if (op == "GlobalAveragePool" || op == "GlobalMaxPool")
    return pool(node, op == "GlobalMaxPool", true);
  if (op == "Gemm" || op == "MatMul")
    return gemm(node, op == "MatMul");
  if (op == "Flatten" || op == "Reshape")
    return reshape(node, op == "Flatten");
  if (op == "QuantizeLinear")
    return quantize(node);
  if (op == "DequantizeLinear")
    return dequantize(node);
  if (op == "Relu" || op == "Clip") {
    FailureOr<Act> x = getAct(node, 0);
    if (failed(x))
      return failure();
    float lo = 0.0f, hi = FLT_MAX;
    if (op == "Clip") {
      lo = attrFloat(node, "min", -FLT_MAX);
      hi = attrFloat(node, "max", FLT_MAX);
      for (int i = 1; i <= 2; ++i) {
        if (i >= node.input_size() || node.input(i).empty())
          continue;
        const ConstTensor *bound = getConst(node, i);
        if (!bound)
          return failure();
        if (bound->data.size() != 1)
          return failNode(node, "min / max must be scalars");
        (i == 1 ? lo : hi) = static_cast<float>(bound->data[0]);
      }
    }
    Value result =
        tosa::ClampOp::create(b, x->value.getType(), x->value,
                              b.getF32FloatAttr(lo), b.getF32FloatAttr(hi));
    acts[node.output(0)] = {result, x->nhwc};
    return success();
  }
  if (op == "BatchNormalization") {
    FailureOr<Act> x = getAct(node, 0);
    if (failed(x))
      return failure();
    if (!x->nhwc && onnxShape(*x).size() != 2)
      return failNode(node, "input must be 4-D (NCHW) or 2-D");
    if (node.output_size() > 1)
      return failNode(node, "training mode (more than one output) is not "
                            "supported");
    Value params[4];
    for (int i = 0; i < 4; ++i) {
      const ConstTensor *t = getConst(node, i + 1);
      if (!t)
        return failure();
      params[i] = constant({t->numElements()}, t->floats());
    }
    Value result = qnt::BatchNormOp::create(
        b, x->value.getType(), x->value, params[0], params[1], params[2],
        params[3], b.getF32FloatAttr(attrFloat(node, "epsilon", 1e-5f)),
        b.getI64IntegerAttr(-1));
    acts[node.output(0)] = {result, x->nhwc};
    return success();
  }
  if (op == "Add") {
    FailureOr<Act> lhs = failure();
    const ConstTensor *rhsConst = nullptr;
    int actIndex = acts.count(node.input(0)) ? 0 : 1;
    lhs = getAct(node, actIndex);
    if (failed(lhs))
      return failure();
    Value rhs;
    if (acts.count(node.input(1 - actIndex))) {
      Act other = acts[node.input(1 - actIndex)];
      if (other.nhwc != lhs->nhwc ||
          other.value.getType() != lhs->value.getType())
        return failNode(node, "operands must have the same shape");
      rhs = other.value;
    } else {
      rhsConst = getConst(node, 1 - actIndex);
      if (!rhsConst)
        return failure();
      SmallVector<int64_t> shape = onnxShape(*lhs);
      ConstTensor c = *rhsConst;
      if (c.dims.size() > shape.size())
        return failNode(node, "constant has a higher rank than the input");
      c.dims.insert(c.dims.begin(), shape.size() - c.dims.size(), 1);
      for (size_t i = 0; i < shape.size(); ++i)
        if (c.dims[i] != 1 && c.dims[i] != shape[i])
          return failNode(node, "constant does not broadcast to the input");
      if (lhs->nhwc)
        c = c.permuted({0, 2, 3, 1});
      rhs = constant(c);
    }
    Value result =
        tosa::AddOp::create(b, lhs->value.getType(), lhs->value, rhs);
    acts[node.output(0)] = {result, lhs->nhwc};
    return success();
  }
  if (op == "Concat") {
    SmallVector<Value> inputs;
    bool nhwc = false;
    int64_t rank = 0;
    SmallVector<int64_t> shape;
    for (int i = 0; i < node.input_size(); ++i) {
      FailureOr<Act> x = getAct(node, i);
      if (failed(x))
        return failure();
      if (i > 0 && x->nhwc != nhwc)
        return failNode(node, "inputs have different layouts");
      nhwc = x->nhwc;
      inputs.push_back(x->value);
      auto s = cast<RankedTensorType>(x->value.getType()).getShape();
      rank = s.size();
      if (shape.empty())
        shape.assign(s.begin(), s.end());
      else
        shape.push_back(0); // placeholder, fixed below
      if (i > 0)
        shape.pop_back();
    }
    int64_t axis = attrInt(node, "axis", 1);
    if (axis < 0)
      axis += rank;
    static const int64_t toNHWC[4] = {0, 3, 1, 2};
    int64_t irAxis = nhwc ? toNHWC[axis] : axis;
    shape[irAxis] = 0;
    for (Value v : inputs)
      shape[irAxis] += cast<RankedTensorType>(v.getType()).getDimSize(irAxis);
    Value result = tosa::ConcatOp::create(b, f32(shape), inputs,
                                          b.getI32IntegerAttr(irAxis));
    acts[node.output(0)] = {result, nhwc};
    return success();
  }
  return failNode(node, "unsupported ONNX op '" + op + "'");
}

OwningOpRef<ModuleOp> Importer::run(const onnx::ModelProto &model) {
  if (!model.has_graph())
    return (void)fail("the model has no graph"), nullptr;
  for (const onnx::OperatorSetIdProto &opset : model.opset_import())
    if ((opset.domain().empty() || opset.domain() == "ai.onnx") &&
        (opset.version() < 11 || opset.version() > 17))
      return (void)fail("unsupported opset " + Twine(opset.version()) +
                        " (supported: 11-17)"),
             nullptr;
  const onnx::GraphProto &graph = model.graph();
  for (const onnx::TensorProto &t : graph.initializer()) {
    ConstTensor c;
    if (auto err = decodeTensor(t, c))
      return (void)fail("initializer: " + *err), nullptr;
    consts[t.name()] = std::move(c);
  }

  std::string fnName = graph.name().empty() ? "main" : graph.name();
  OwningOpRef<ModuleOp> module(ModuleOp::create(UnknownLoc::get(&ctx)));
  b.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  SmallVector<std::string> argNames;
  for (const onnx::ValueInfoProto &in : graph.input()) {
    if (consts.count(in.name()))
      continue;
    if (!in.type().has_tensor_type() ||
        in.type().tensor_type().elem_type() != onnx::TensorProto::FLOAT)
      return (void)fail("graph input '" + in.name() +
                        "' is not a float32 "
                        "tensor"),
             nullptr;
    SmallVector<int64_t> shape;
    for (const auto &dim : in.type().tensor_type().shape().dim()) {
      if (dim.has_dim_value()) {
        shape.push_back(dim.dim_value());
      } else if (shape.empty() && options.batch > 0) {
        shape.push_back(options.batch);
      } else {
        return (void)fail("graph input '" + in.name() +
                          "' has a dynamic dimension" +
                          (shape.empty() ? " (use --batch N for a symbolic "
                                           "batch dimension)"
                                         : " (only the batch dimension may be "
                                           "symbolic)")),
               nullptr;
      }
    }
    argTypes.push_back(f32(shape));
    argLocs.push_back(NameLoc::get(b.getStringAttr(in.name())));
    argNames.push_back(in.name());
  }
  auto func = func::FuncOp::create(b, fnName, b.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  for (auto [arg, loc] : llvm::zip(entry->getArguments(), argLocs))
    arg.setLoc(loc);
  b.setInsertionPointToStart(entry);
  for (size_t i = 0; i < argNames.size(); ++i) {
    Value arg = entry->getArgument(i);
    b.setLoc(argLocs[i]);
    if (cast<RankedTensorType>(arg.getType()).getRank() == 4)
      acts[argNames[i]] = {transpose(arg, {0, 2, 3, 1}), true};
    else
      acts[argNames[i]] = {arg, false};
  }

  for (const onnx::NodeProto &node : graph.node())
    if (failed(importNode(node)))
      return nullptr;

  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &out : graph.output()) {
    auto it = acts.find(out.name());
    if (it == acts.end())
      return (void)fail("graph output '" + out.name() +
                        "' is not computed by the graph"),
             nullptr;
    b.setLoc(NameLoc::get(b.getStringAttr(out.name())));
    Value v = toNCHW(it->second);
    auto shape = cast<RankedTensorType>(v.getType()).getShape();
    const auto &dims = out.type().tensor_type().shape().dim();
    bool mismatch = dims.size() != 0 && dims.size() != shape.size();
    for (int i = 0; !mismatch && i < dims.size(); ++i)
      mismatch = dims[i].has_dim_value() && dims[i].dim_value() != shape[i];
    if (mismatch)
      return (void)fail("graph output '" + out.name() +
                        "': declared shape differs from the computed one"),
             nullptr;
    results.push_back(v);
  }
  func::ReturnOp::create(b, results);
  func.setFunctionType(
      b.getFunctionType(argTypes, ValueRange(results).getTypes()));
  return module;
}

void quantc::registerOnnxImportDialects(MLIRContext &context) {
  context.loadDialect<func::FuncDialect, tosa::TosaDialect, quant::QuantDialect,
                      qnt::QntDialect>();
}

OwningOpRef<ModuleOp> quantc::importOnnx(StringRef bytes, MLIRContext &context,
                                         const OnnxImportOptions &options,
                                         std::string &error) {
  registerOnnxImportDialects(context);
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    error = "cannot parse the ONNX protobuf (corrupt or truncated file)";
    return nullptr;
  }
  Importer importer(context, options);
  OwningOpRef<ModuleOp> module = importer.run(model);
  if (!module)
    error = importer.error.empty() ? "import failed" : importer.error;
  return module;
}
