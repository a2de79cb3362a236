//===- QLinear.cpp - ONNX Runtime's operator-format ops ------------------===//
//
// Models quantized by ONNX Runtime outside the QDQ format.
//
// Operator format (quantize_static, QuantFormat.QOperator): QLinearConv,
// QLinearMatMul and the com.microsoft QLinearAdd, QLinearMul,
// QLinearSigmoid, QLinearLeakyRelu, QLinearSoftmax,
// QLinearGlobalAveragePool, QLinearAveragePool, QLinearConcat and QGemm
// carry the scales and zero points of their inputs and output. Each
// imports as its QDQ form does: DequantizeLinear of every input, the float
// op, QuantizeLinear of the output (which stays a PendingQuant until the
// next op dequantizes it), built by running those ops' own handlers on
// nodes made here; an int32 bias is dequantized with scale
// x_scale * w_scale. Ops that only move or
// select values (MaxPool, Reshape, Transpose, Pad, ...) run on the 8-bit
// tensors in this format: importWithIntegerInputs dequantizes their input
// and quantizes their outputs with the same parameters, which is exact
// (ArgMax / ArgMin: indices, not quantized).
//
// The integer ops of quantize_dynamic are in IntegerOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "QLinear.h"
#include "../OpRegistry.h"
#include "Common.h"

#include <cmath>

using namespace mlir;
using namespace quantc::onnx_import;

/// Imports `node` with the handler its op type has at `n`'s opset.
LogicalResult quantc::onnx_import::runNode(NodeImporter &n,
                                           const onnx::NodeProto &node,
                                           int64_t opset) {
  if (opset == 0)
    opset = n.opset();
  OpHandler handler = OpRegistry::get().lookup(node.op_type(), opset);
  if (!handler)
    return n.emitError() << "no " << node.op_type() << " at opset " << opset;
  NodeImporter sub(n.graph(), node, opset);
  return handler(sub);
}

/// A name for an internal value of the node being imported.
std::string quantc::onnx_import::internalName(NodeImporter &n, StringRef what) {
  return n.node().output(0) + "#" + what.str();
}

/// Defines the constant `t` under an internal name and returns the name.
std::string quantc::onnx_import::defineConstant(NodeImporter &n, StringRef what,
                                                ConstTensor t) {
  std::string name = internalName(n, what);
  n.graph().consts[name] = std::move(t);
  return name;
}

const char *quantc::onnx_import::typeName(int32_t dtype) {
  switch (dtype) {
  case onnx::TensorProto::INT8:
    return "int8";
  case onnx::TensorProto::UINT8:
    return "uint8";
  case onnx::TensorProto::INT32:
    return "int32";
  default:
    return dataTypeName(dtype);
  }
}

/// The error for input `i` that holds an integer value no op but those
/// listed reads.
InFlightDiagnostic quantc::onnx_import::integerMisuse(NodeImporter &n, int i,
                                                      const IntegerValue &v) {
  InFlightDiagnostic d = n.emitError() << "input '" << n.inputName(i) << "' ";
  switch (v.kind) {
  case IntegerValue::Quantized:
  case IntegerValue::Scale:
  case IntegerValue::ZeroPoint:
    d << "is an output of DynamicQuantizeLinear; only ConvInteger / "
         "MatMulInteger (the value and its zero point) and the Mul of the "
         "scales read it";
    break;
  case IntegerValue::Product:
    d << "is the int32 result of " << v.node->op_type()
      << "Integer; it must be cast to float and multiplied by its scales "
         "(x_scale * w_scale), as ONNX Runtime's quantize_dynamic writes it";
    break;
  case IntegerValue::Factor:
    d << "is a product of dynamic scales; only the Mul that scales a "
         "ConvInteger / MatMulInteger result reads it";
    break;
  }
  return d;
}

namespace {

//===----------------------------------------------------------------------===//
// Operator format: inputs and outputs
//===----------------------------------------------------------------------===//

/// Input `x` of the node, quantized with the scale at input `s` and the
/// zero point at input `z` (-1 or absent: 0 of uint8), as the name of a
/// float value: an 8-bit activation (the output of QuantizeLinear or of a
/// QLinear op, whose parameters must be these) dequantized to
/// qnt.fake_quant, or an int8 / uint8 constant dequantized (per tensor, or
/// per channel along `axis`; a weight keeps its parameters).
LogicalResult checkQuantized(NodeImporter &n, int x, int s, int z, int64_t axis,
                             StringRef what) {
  if (!n.hasInput(x))
    return n.emitError() << "missing input " << x << " (" << what << ")";
  const ConstTensor *scale, *zp;
  if (failed(quantParams(n, s, z, scale, zp)))
    return failure();
  GraphState &g = n.graph();
  const std::string &name = n.inputName(x);
  auto zeroPoints = [&](size_t count) {
    std::vector<int64_t> v;
    for (size_t i = 0; i < count; ++i)
      v.push_back(
          zp ? static_cast<int64_t>(zp->data[zp->data.size() == 1 ? 0 : i])
             : 0);
    return v;
  };
  if (auto it = g.quants.find(name); it != g.quants.end()) {
    const PendingQuant &q = it->second;
    bool isSigned = zp && zp->dtype == onnx::TensorProto::INT8;
    if (scale->data != q.scales)
      return n.emitError() << "the scale '" << n.inputName(s)
                           << "' differs from the scale input '" << name
                           << "' was quantized with";
    if (isSigned != q.isSigned || zeroPoints(q.scales.size()) != q.zeroPoints)
      return n.emitError() << "the zero point "
                           << (n.hasInput(z) ? "'" + n.inputName(z) + "'"
                                             : std::string("(absent: 0)"))
                           << " differs from the zero point (or its type) "
                              "input '"
                           << name << "' was quantized with";
  } else if (g.consts.count(name)) {
    const ConstTensor &c = g.consts.find(name)->second;
    if (c.dtype != onnx::TensorProto::INT8 &&
        c.dtype != onnx::TensorProto::UINT8)
      return n.emitError() << "input '" << name << "' (" << what
                           << ") must be an int8 or uint8 tensor, not "
                           << typeName(c.dtype);
    if (zp && zp->dtype != c.dtype)
      return n.emitError() << "the zero point '" << n.inputName(z) << "' is "
                           << typeName(zp->dtype) << " but input '" << name
                           << "' is " << typeName(c.dtype);
    if (scale->data.size() > 1) {
      int64_t rank = c.dims.size();
      if (axis < 0 || axis >= rank ||
          c.dims[axis] != static_cast<int64_t>(scale->data.size()))
        return n.emitError() << "the scale '" << n.inputName(s) << "' has "
                             << scale->data.size() << " values; input '" << name
                             << "' needs 1 or one per channel ("
                             << (axis >= 0 && axis < rank ? c.dims[axis] : 0)
                             << " along axis " << axis << ")";
    }
  } else if (g.acts.count(name)) {
    return n.emitError() << "input '" << name << "' is float; "
                         << n.node().op_type()
                         << " reads an 8-bit tensor (from QuantizeLinear or "
                            "a QLinear op)";
  } else if (auto it = g.integers.find(name); it != g.integers.end()) {
    return integerMisuse(n, x, it->second);
  } else {
    return n.emitError() << "input '" << name
                         << "' is not defined (missing initializer?)";
  }
  return success();
}

/// Input `x` of the node, checked by checkQuantized, dequantized: the name
/// of the float value.
FailureOr<std::string> dequantized(NodeImporter &n, int x, int s, int z,
                                   int64_t axis, StringRef what) {
  if (failed(checkQuantized(n, x, s, z, axis, what)))
    return failure();
  std::string out = internalName(n, what);
  SubNode dq(n, "DequantizeLinear");
  dq.in(n.inputName(x)).in(n.inputName(s));
  if (z >= 0 && n.hasInput(z))
    dq.in(n.inputName(z));
  dq.out(out).attr("axis", axis);
  if (failed(runNode(n, dq)))
    return failure();
  return out;
}

/// The constant weight at input `x` (scale at `s`, zero point at `z`, per
/// tensor or per channel along `axis`), checked by checkQuantized,
/// dequantized as the int8 kernels take weights: int8 with zero point 0.
/// A weight with zero points (uint8, ONNX Runtime's QUInt8 weights) is
/// w_q - w_zp, exact when that fits int8; otherwise it is requantized to
/// int8 symmetric per channel (a coarser scale: a warning says so). The
/// scale is multiplied by `factor` (QGemm's alpha). Without `keepParams`
/// the weight is the float constant (w_q - w_zp) * scale, without its
/// quantization: a layer with a float output stays float. Returns the name
/// of the float weight.
FailureOr<std::string> dequantizedWeight(NodeImporter &n, int x, int s, int z,
                                         int64_t axis, StringRef what,
                                         double factor = 1.0,
                                         bool keepParams = true) {
  if (!n.isConstant(x))
    return n.emitError() << "the weight '" << n.inputName(x)
                         << "' must be a constant (initializer)";
  if (failed(checkQuantized(n, x, s, z, axis, what)))
    return failure();
  const ConstTensor &q = *n.constant(x), &scale = *n.constant(s);
  FailureOr<const ConstTensor *> zp = n.optionalConstant(z);
  if (failed(zp))
    return failure();
  size_t channels = scale.data.size();
  int64_t rank = q.dims.size(), inner = 1;
  if (channels > 1)
    for (int64_t d = axis + 1; d < rank; ++d)
      inner *= q.dims[d];
  auto channelOf = [&](size_t i) {
    return channels > 1 ? (i / inner) % channels : 0;
  };
  // w_q - w_zp, and its largest magnitude per channel.
  std::vector<double> centered(q.data.size()), range(channels, 0.0);
  for (size_t i = 0; i < q.data.size(); ++i) {
    size_t c = channelOf(i);
    double zv = *zp ? (*zp)->data[(*zp)->data.size() == 1 ? 0 : c] : 0.0;
    centered[i] = q.data[i] - zv;
    range[c] = std::max(range[c], std::abs(centered[i]));
  }
  if (!keepParams) {
    // The float weight alone: the layer stays float.
    ConstTensor f;
    f.dims = q.dims;
    for (size_t i = 0; i < centered.size(); ++i)
      f.data.push_back(static_cast<float>(
          static_cast<float>(centered[i]) *
          static_cast<float>(static_cast<float>(factor) *
                             static_cast<float>(scale.data[channelOf(i)]))));
    return defineConstant(n, what, std::move(f));
  }
  bool fits =
      llvm::all_of(centered, [](double v) { return v >= -128 && v <= 127; });
  ConstTensor w8, s8, z8;
  w8.dims = q.dims;
  w8.dtype = onnx::TensorProto::INT8;
  s8.dims = scale.dims;
  z8.dims = scale.dims;
  z8.dtype = onnx::TensorProto::INT8;
  z8.data.assign(channels, 0.0);
  for (size_t c = 0; c < channels; ++c) {
    double step = fits || range[c] == 0 ? 1.0 : range[c] / 127.0;
    s8.data.push_back(static_cast<float>(
        static_cast<float>(factor) * static_cast<float>(scale.data[c] * step)));
  }
  for (size_t i = 0; i < centered.size(); ++i) {
    size_t c = channelOf(i);
    double step = fits || range[c] == 0 ? 1.0 : range[c] / 127.0;
    w8.data.push_back(fits ? centered[i] : std::nearbyint(centered[i] / step));
  }
  if (!fits)
    mlir::emitWarning(n.builder().getLoc())
        << "node '" << n.node().name() << "' (" << n.node().op_type()
        << "): the weight '" << n.inputName(x)
        << "' minus its zero point does not fit int8; it is requantized to "
           "int8 with zero point 0 (a coarser scale), so results differ "
           "from ONNX Runtime's by more than a rounding";
  std::string out = internalName(n, what);
  SubNode dq(n, "DequantizeLinear");
  dq.in(defineConstant(n, std::string(what) + "_q", std::move(w8)))
      .in(defineConstant(n, std::string(what) + "_scale", std::move(s8)))
      .in(defineConstant(n, std::string(what) + "_zp", std::move(z8)))
      .out(out)
      .attr("axis", axis);
  if (failed(runNode(n, dq)))
    return failure();
  return out;
}

/// Checks that the scale at `s` and zero point at `z` quantize one tensor
/// per tensor.
LogicalResult perTensorParams(NodeImporter &n, int s, int z) {
  const ConstTensor *scale, *zp;
  if (failed(quantParams(n, s, z, scale, zp)))
    return failure();
  if (scale->numElements() != 1)
    return n.emitError() << "the scale '" << n.inputName(s)
                         << "' must be a single value (per tensor)";
  return success();
}

/// Output 0 of the node: the float value `value` quantized with the scale
/// at input `s` and zero point at input `z`.
LogicalResult quantizeOutput(NodeImporter &n, StringRef value, int s, int z) {
  if (!n.hasInput(s))
    return n.emitError() << "missing input " << s << " (the output's scale)";
  if (failed(perTensorParams(n, s, z)))
    return failure();
  SubNode q(n, "QuantizeLinear");
  q.in(value).in(n.inputName(s));
  if (z >= 0 && n.hasInput(z))
    q.in(n.inputName(z));
  q.out(n.node().output(0));
  return runNode(n, q);
}

/// The scales of input `s` times those of input `t` (one of them a single
/// value) times `factor`, in float32 as ONNX Runtime multiplies them.
ConstTensor scaleProduct(NodeImporter &n, int s, int t, double factor = 1.0) {
  const ConstTensor &a = *n.constant(s), &b = *n.constant(t);
  const ConstTensor &many = a.numElements() > 1 ? a : b;
  ConstTensor p;
  p.dims = many.dims;
  for (int64_t i = 0; i < many.numElements(); ++i) {
    float x = static_cast<float>(a.data[a.data.size() == 1 ? 0 : i]);
    float y = static_cast<float>(b.data[b.data.size() == 1 ? 0 : i]);
    p.data.push_back(static_cast<float>(static_cast<float>(factor) * x * y));
  }
  return p;
}

//===----------------------------------------------------------------------===//
// Operator format: the ops
//===----------------------------------------------------------------------===//

/// QLinearConv (opset 10): x, x_scale, x_zero_point, w, w_scale,
/// w_zero_point, y_scale, y_zero_point, optional int32 bias B.
LogicalResult qlinearConv(NodeImporter &n) {
  if (failed(n.checkArity(8, 9)))
    return failure();
  if (failed(perTensorParams(n, 1, 2)))
    return failure();
  if (!n.isConstant(3))
    return n.emitError() << "the weight '" << n.inputName(3)
                         << "' must be a constant (initializer)";
  FailureOr<std::string> x = dequantized(n, 0, 1, 2, 1, "x");
  if (failed(x))
    return failure();
  FailureOr<std::string> w = dequantizedWeight(n, 3, 4, 5, 0, "w");
  if (failed(w))
    return failure();
  SubNode conv(n, "Conv");
  conv.in(*x).in(*w).attrsOf(n.node());
  if (n.hasInput(8)) {
    const ConstTensor *b = n.constant(8);
    if (!b)
      return failure();
    int64_t channels = n.constant(3)->dims.empty() ? 0 : n.constant(3)->dims[0];
    if (b->dtype != onnx::TensorProto::INT32)
      return n.emitError() << "the bias '" << n.inputName(8)
                           << "' must be int32, not " << typeName(b->dtype);
    if (b->dims.size() != 1 || b->dims[0] != channels)
      return n.emitError() << "the bias '" << n.inputName(8) << "' must have "
                           << channels << " values (one per output channel)";
    // int32 with scale x_scale * w_scale, zero point 0.
    std::string scale = defineConstant(n, "bias_scale", scaleProduct(n, 1, 4));
    std::string bias = internalName(n, "bias");
    SubNode dq(n, "DequantizeLinear");
    dq.in(n.inputName(8)).in(scale).out(bias).attr("axis", int64_t(0));
    if (failed(runNode(n, dq)))
      return failure();
    conv.in(bias);
  }
  std::string y = internalName(n, "y");
  if (failed(runNode(n, conv.out(y))))
    return failure();
  return quantizeOutput(n, y, 6, 7);
}

/// QLinearMatMul (opset 10): a, a_scale, a_zero_point, b, b_scale,
/// b_zero_point, y_scale, y_zero_point; a constant b may be quantized per
/// column.
LogicalResult qlinearMatMul(NodeImporter &n) {
  if (failed(n.checkArity(8, 8)))
    return failure();
  auto lastAxis = [&](int i) -> int64_t {
    const ConstTensor *c = n.isConstant(i) ? n.constant(i) : nullptr;
    return c ? static_cast<int64_t>(c->dims.size()) - 1 : 1;
  };
  FailureOr<std::string> a = dequantized(n, 0, 1, 2, lastAxis(0), "a");
  if (failed(a))
    return failure();
  FailureOr<std::string> b =
      n.isConstant(3) ? dequantizedWeight(n, 3, 4, 5, lastAxis(3), "b")
                      : dequantized(n, 3, 4, 5, lastAxis(3), "b");
  if (failed(b))
    return failure();
  std::string y = internalName(n, "y");
  if (failed(runNode(n, SubNode(n, "MatMul").in(*a).in(*b).out(y))))
    return failure();
  return quantizeOutput(n, y, 6, 7);
}

/// QGemm (com.microsoft): A, a_scale, a_zero_point, B, b_scale,
/// b_zero_point, optional int32 C (scale alpha * a_scale * b_scale),
/// optional y_scale and y_zero_point (absent: a float output); alpha,
/// transA, transB.
LogicalResult qgemm(NodeImporter &n) {
  if (failed(n.checkArity(6, 9)))
    return failure();
  FailureOr<float> alpha = n.floatAttr("alpha", 1.0f);
  FailureOr<bool> transB = n.boolAttr("transB", false);
  if (failed(alpha) || failed(transB))
    return failure();
  if (*alpha <= 0.0f)
    return n.emitError() << "alpha must be positive";
  if (failed(perTensorParams(n, 1, 2)))
    return failure();
  if (!n.isConstant(3))
    return n.emitError() << "the weight '" << n.inputName(3)
                         << "' must be a constant (initializer)";
  const ConstTensor *bScale, *bZp;
  if (failed(quantParams(n, 4, 5, bScale, bZp)))
    return failure();
  FailureOr<std::string> a = dequantized(n, 0, 1, 2, 1, "a");
  if (failed(a))
    return failure();
  const ConstTensor &bq = *n.constant(3);
  if (bq.dims.size() != 2)
    return n.emitError() << "B must be 2-D";
  int64_t channelAxis = *transB ? 0 : 1, columns = bq.dims[channelAxis];
  // alpha goes into B's scale: the weight's integers stay the same.
  // Without y_scale the output is float: the int8 model has no output
  // scale for the layer, which stays float on the dequantized input.
  FailureOr<std::string> b = dequantizedWeight(
      n, 3, 4, 5, channelAxis, "b", *alpha, /*keepParams=*/n.hasInput(7));
  if (failed(b))
    return failure();
  SubNode gemm(n, "Gemm");
  gemm.in(*a).in(*b).attr("transB", int64_t(*transB));
  if (const onnx::AttributeProto *t = n.attr("transA"))
    *gemm.proto.add_attribute() = *t;
  if (n.hasInput(6)) {
    const ConstTensor *c = n.constant(6);
    if (!c)
      return failure();
    if (c->dtype != onnx::TensorProto::INT32)
      return n.emitError() << "C '" << n.inputName(6) << "' must be int32, not "
                           << typeName(c->dtype);
    if (c->dims.size() > 2)
      return n.emitError() << "C '" << n.inputName(6) << "' must be 1-D or 2-D";
    int64_t last = c->dims.empty() ? 1 : c->dims.back();
    if (bScale->data.size() > 1 && last != columns)
      return n.emitError() << "C '" << n.inputName(6)
                           << "' must have one value per column of B ("
                           << columns << ") when B is quantized per column";
    ConstTensor s = scaleProduct(n, 1, 4, *alpha);
    ConstTensor cf;
    cf.dims = c->dims;
    for (int64_t i = 0; i < c->numElements(); ++i)
      cf.data.push_back(static_cast<float>(
          static_cast<float>(c->data[i]) *
          static_cast<float>(s.data[s.data.size() == 1 ? 0 : i % last])));
    gemm.in(defineConstant(n, "c", std::move(cf)));
  }
  if (!n.hasInput(7)) {
    if (n.hasInput(8))
      return n.emitError() << "y_zero_point without y_scale";
    return runNode(n, gemm.out(n.node().output(0)));
  }
  std::string y = internalName(n, "y");
  if (failed(runNode(n, gemm.out(y))))
    return failure();
  return quantizeOutput(n, y, 7, 8);
}

/// QLinearAdd / QLinearMul (com.microsoft): A, A_scale, A_zero_point, B,
/// B_scale, B_zero_point, C_scale, C_zero_point (zero points optional),
/// with broadcasting.
template <const char *kFloatOp> LogicalResult qlinearBinary(NodeImporter &n) {
  if (failed(n.checkArity(7, 8)))
    return failure();
  if (failed(perTensorParams(n, 1, 2)) || failed(perTensorParams(n, 4, 5)))
    return failure();
  FailureOr<std::string> a = dequantized(n, 0, 1, 2, 0, "a");
  if (failed(a))
    return failure();
  FailureOr<std::string> b = dequantized(n, 3, 4, 5, 0, "b");
  if (failed(b))
    return failure();
  std::string y = internalName(n, "y");
  if (failed(runNode(n, SubNode(n, kFloatOp).in(*a).in(*b).out(y))))
    return failure();
  return quantizeOutput(n, y, 6, 7);
}
constexpr char kAdd[] = "Add", kMul[] = "Mul";

/// The float op `op` (with `node`'s attributes but channels_last) on input
/// 0 of a one-input QLinear op (X, X_scale, X_zero_point, Y_scale,
/// Y_zero_point); `channelsLast`: the tensor is [N, spatial..., C] and the
/// op wants [N, C, spatial...].
LogicalResult
qlinearUnary(NodeImporter &n, StringRef op,
             ArrayRef<std::pair<StringRef, float>> floatAttrs = {}) {
  if (failed(n.checkArity(4, 5)))
    return failure();
  FailureOr<bool> channelsLast = n.boolAttr("channels_last", false);
  if (failed(channelsLast) || failed(perTensorParams(n, 1, 2)))
    return failure();
  FailureOr<std::string> x = dequantized(n, 0, 1, 2, 0, "x");
  if (failed(x))
    return failure();
  std::string in = *x;
  int64_t rank = 0;
  if (*channelsLast) {
    rank =
        n.graph().acts.count(in) ? n.graph().acts.find(in)->second.rank() : 0;
    if (rank < 3)
      return n.emitError() << "channels_last needs an activation of rank >= 3";
    SmallVector<int64_t> perm = {0, rank - 1};
    for (int64_t d = 1; d + 1 < rank; ++d)
      perm.push_back(d);
    in = internalName(n, "nchw");
    if (failed(runNode(
            n, SubNode(n, "Transpose").in(*x).out(in).attr("perm", perm))))
      return failure();
  }
  SubNode f(n, op);
  f.in(in).attrsOf(n.node(), {"channels_last"});
  for (auto [name, value] : floatAttrs)
    if (!n.attr(name))
      f.attr(name, value);
  std::string y = internalName(n, "y");
  if (failed(runNode(n, f.out(y))))
    return failure();
  if (*channelsLast) {
    SmallVector<int64_t> perm = {0};
    for (int64_t d = 2; d < rank; ++d)
      perm.push_back(d);
    perm.push_back(1);
    std::string last = internalName(n, "nhwc");
    if (failed(runNode(
            n, SubNode(n, "Transpose").in(y).out(last).attr("perm", perm))))
      return failure();
    y = last;
  }
  return quantizeOutput(n, y, 3, 4);
}

LogicalResult qlinearSigmoid(NodeImporter &n) {
  return qlinearUnary(n, "Sigmoid");
}
LogicalResult qlinearLeakyRelu(NodeImporter &n) {
  // ONNX Runtime's default alpha.
  return qlinearUnary(n, "LeakyRelu", {{"alpha", 0.01f}});
}
LogicalResult qlinearGlobalAveragePool(NodeImporter &n) {
  return qlinearUnary(n, "GlobalAveragePool");
}
LogicalResult qlinearAveragePool(NodeImporter &n) {
  return qlinearUnary(n, "AveragePool");
}

/// QLinearSoftmax (com.microsoft): X, X_scale, X_zero_point, Y_scale,
/// Y_zero_point; axis and the opset of the Softmax it stands for (its axis
/// semantics changed at 13).
LogicalResult qlinearSoftmax(NodeImporter &n) {
  if (failed(n.checkArity(4, 5)))
    return failure();
  FailureOr<int64_t> opset = n.intAttr("opset", n.opset());
  if (failed(opset) || failed(perTensorParams(n, 1, 2)))
    return failure();
  if (*opset < 1)
    return n.emitError() << "attribute 'opset' must be >= 1";
  FailureOr<std::string> x = dequantized(n, 0, 1, 2, 0, "x");
  if (failed(x))
    return failure();
  std::string y = internalName(n, "y");
  SubNode f(n, "Softmax");
  f.in(*x).attrsOf(n.node(), {"opset"}).out(y);
  if (failed(runNode(n, f, *opset)))
    return failure();
  return quantizeOutput(n, y, 3, 4);
}

/// QLinearConcat (com.microsoft): Y_scale, Y_zero_point, then (X, X_scale,
/// X_zero_point) per input; axis.
LogicalResult qlinearConcat(NodeImporter &n) {
  if (n.numInputs() < 5 || (n.numInputs() - 2) % 3 != 0)
    return n.emitError() << "expected Y_scale, Y_zero_point and one (X, "
                            "X_scale, X_zero_point) triple per input, got "
                         << n.numInputs() << " inputs";
  if (failed(n.checkArity(5, n.numInputs())))
    return failure();
  SubNode concat(n, "Concat");
  concat.attrsOf(n.node());
  for (int i = 2; i < n.numInputs(); i += 3) {
    if (failed(perTensorParams(n, i + 1, i + 2)))
      return failure();
    FailureOr<std::string> x =
        dequantized(n, i, i + 1, i + 2, 0, "x" + std::to_string(i / 3));
    if (failed(x))
      return failure();
    concat.in(*x);
  }
  std::string y = internalName(n, "y");
  if (failed(runNode(n, concat.out(y))))
    return failure();
  return quantizeOutput(n, y, 0, 1);
}

//===----------------------------------------------------------------------===//
// Adapting other ops
//===----------------------------------------------------------------------===//

/// Ops that move or select values, which ONNX Runtime's operator format
/// runs on 8-bit tensors: on the dequantized values they compute what the
/// quantized op does, and quantizing their outputs with the input's
/// parameters gives back its integers (Resize with linear modes
/// interpolates: at most a rounding apart). Pad's constant value is then
/// 8-bit too (ONNX Runtime's QPad), dequantized with the same parameters.
bool movesValues(StringRef op) {
  return llvm::is_contained(
      {"MaxPool", "GlobalMaxPool", "Reshape", "Transpose", "Squeeze",
       "Unsqueeze", "Flatten", "Resize", "Upsample", "Slice", "Split", "Gather",
       "DepthToSpace", "SpaceToDepth", "Expand", "Tile", "Pad"},
      op);
}

/// `n` with its 8-bit inputs dequantized and (`quantizeOutputs`) its
/// outputs quantized; ArgMax / ArgMin (ONNX Runtime's operator format runs
/// them on the 8-bit tensor) give the same indices on the dequantized
/// values, which order as the integers do.
LogicalResult importOnQuantized(NodeImporter &n, OpHandler handler,
                                bool quantizeOutputs = true) {
  GraphState &g = n.graph();
  onnx::NodeProto copy = n.node();
  std::optional<PendingQuant> params;
  for (int i = 0; i < n.numInputs(); ++i) {
    auto it = g.quants.find(n.inputName(i));
    if (!n.hasInput(i) || it == g.quants.end())
      continue;
    const PendingQuant &q = it->second;
    if (q.scales.size() != 1)
      return n.emitError() << "input '" << n.inputName(i)
                           << "' is quantized per axis; only per-tensor "
                              "8-bit inputs are supported here";
    if (params &&
        (params->scales != q.scales || params->zeroPoints != q.zeroPoints ||
         params->isSigned != q.isSigned))
      return n.emitError() << "its 8-bit inputs are quantized with different "
                              "parameters";
    params = q;
    std::string tag = "in" + std::to_string(i);
    ConstTensor scale;
    scale.data = q.scales;
    ConstTensor zp;
    zp.dtype = q.isSigned ? onnx::TensorProto::INT8 : onnx::TensorProto::UINT8;
    zp.data = {static_cast<double>(q.zeroPoints[0])};
    std::string out = internalName(n, tag);
    SubNode dq(n, "DequantizeLinear");
    dq.in(n.inputName(i))
        .in(defineConstant(n, tag + "_scale", scale))
        .in(defineConstant(n, tag + "_zp", zp))
        .out(out);
    if (failed(runNode(n, dq)))
      return failure();
    copy.set_input(i, out);
  }
  if (n.node().op_type() == "Pad" && n.hasInput(2) && n.isConstant(2)) {
    const ConstTensor &v = *n.constant(2);
    if (v.dtype == onnx::TensorProto::INT8 ||
        v.dtype == onnx::TensorProto::UINT8) {
      if ((v.dtype == onnx::TensorProto::INT8) != params->isSigned)
        return n.emitError()
               << "the constant value '" << n.inputName(2) << "' is "
               << typeName(v.dtype) << ", the padded tensor "
               << (params->isSigned ? "int8" : "uint8");
      ConstTensor f = v;
      f.dtype = onnx::TensorProto::FLOAT;
      for (double &x : f.data)
        x = static_cast<float>(static_cast<float>(x - params->zeroPoints[0]) *
                               static_cast<float>(params->scales[0]));
      copy.set_input(2, defineConstant(n, "pad_value", std::move(f)));
    }
  }
  if (!quantizeOutputs) {
    NodeImporter floatNode(g, copy, n.opset());
    return handler(floatNode);
  }
  for (int j = 0; j < copy.output_size(); ++j)
    if (!copy.output(j).empty())
      copy.set_output(j, copy.output(j) + "#float");
  NodeImporter floatNode(g, copy, n.opset());
  if (failed(handler(floatNode)))
    return failure();
  ConstTensor scale;
  scale.data = params->scales;
  ConstTensor zp;
  zp.dtype =
      params->isSigned ? onnx::TensorProto::INT8 : onnx::TensorProto::UINT8;
  zp.data = {static_cast<double>(params->zeroPoints[0])};
  std::string scaleName = defineConstant(n, "out_scale", scale);
  std::string zpName = defineConstant(n, "out_zp", zp);
  for (int j = 0; j < n.node().output_size(); ++j) {
    const std::string &out = n.node().output(j);
    if (out.empty())
      continue;
    if (!g.acts.count(copy.output(j))) {
      // Indices (MaxPool's second output) and constants stay what they are.
      if (auto c = g.consts.find(copy.output(j)); c != g.consts.end())
        g.consts[out] = c->second;
      else if (auto a = g.acts.find(copy.output(j)); a != g.acts.end())
        g.acts[out] = a->second;
      continue;
    }
    SubNode q(n, "QuantizeLinear");
    q.in(copy.output(j)).in(scaleName).in(zpName).out(out);
    if (failed(runNode(n, q)))
      return failure();
  }
  return success();
}

} // namespace

LogicalResult quantc::onnx_import::importWithIntegerInputs(NodeImporter &n,
                                                           OpHandler handler) {
  GraphState &g = n.graph();
  const onnx::NodeProto &node = n.node();
  bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
  StringRef op = node.op_type();
  bool integerIn = false, quantIn = false;
  for (int i = 0; i < n.numInputs(); ++i) {
    if (!n.hasInput(i))
      continue;
    integerIn |= g.integers.count(n.inputName(i)) > 0;
    quantIn |= g.quants.count(n.inputName(i)) > 0;
  }
  if (integerIn && defaultDomain && op != "ConvInteger" &&
      op != "MatMulInteger") {
    if (op == "Cast")
      return castInteger(n);
    if (op == "Mul")
      return mulInteger(n);
    auto first =
        n.hasInput(0) ? g.integers.find(n.inputName(0)) : g.integers.end();
    bool onlyFirst = llvm::all_of(llvm::seq(1, n.numInputs()), [&](int i) {
      return !n.hasInput(i) || !g.integers.count(n.inputName(i));
    });
    if (first != g.integers.end() &&
        first->second.kind == IntegerValue::Quantized && onlyFirst &&
        movesValues(op) && op != "Pad")
      return moveInteger(n, handler);
    if (op == "Identity" && n.numInputs() == 1) {
      IntegerValue v = g.integers.find(n.inputName(0))->second;
      g.integers[node.output(0)] = std::move(v);
      return success();
    }
    for (int i = 0; i < n.numInputs(); ++i)
      if (n.hasInput(i))
        if (auto it = g.integers.find(n.inputName(i)); it != g.integers.end())
          return integerMisuse(n, i, it->second);
  }
  if (quantIn && defaultDomain && (op == "ArgMax" || op == "ArgMin"))
    return importOnQuantized(n, handler, /*quantizeOutputs=*/false);
  if (quantIn && defaultDomain && movesValues(op))
    return importOnQuantized(n, handler);
  return handler(n);
}

void quantc::onnx_import::registerQLinearOps(OpRegistry &r) {
  r.add("QLinearConv", qlinearConv, 10);
  r.add("QLinearMatMul", qlinearMatMul, 10);
  r.add("com.microsoft.QGemm", qgemm);
  r.add("com.microsoft.QLinearAdd", qlinearBinary<kAdd>);
  r.add("com.microsoft.QLinearMul", qlinearBinary<kMul>);
  r.add("com.microsoft.QLinearSigmoid", qlinearSigmoid);
  r.add("com.microsoft.QLinearLeakyRelu", qlinearLeakyRelu);
  r.add("com.microsoft.QLinearGlobalAveragePool", qlinearGlobalAveragePool);
  r.add("com.microsoft.QLinearAveragePool", qlinearAveragePool);
  r.add("com.microsoft.QLinearConcat", qlinearConcat);
  r.add("com.microsoft.QLinearSoftmax", qlinearSoftmax);
  registerIntegerOps(r);
}
