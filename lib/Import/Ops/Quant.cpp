//===- Quant.cpp - QuantizeLinear / DequantizeLinear ----------------------===//
//
// A QuantizeLinear -> DequantizeLinear pair on an activation becomes
// qnt.fake_quant; on a constant (or a DequantizeLinear of an int8
// initializer, ONNX Runtime's QDQ format) the weight keeps its parameters
// until the op that consumes it builds qnt.fake_quant of the float weight.
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"
#include "Common.h"

#include "dialects/Qnt/IR/QntOps.h"

#include <cfloat>
#include <cmath>

using namespace mlir;
using namespace quantc::onnx_import;

const ConstTensor *quantc::onnx_import::weight(NodeImporter &n, int i,
                                               const PendingQuant *&qdq) {
  qdq = nullptr;
  GraphState &g = n.graph();
  if (n.hasInput(i)) {
    auto it = g.constQdq.find(n.inputName(i));
    if (it != g.constQdq.end()) {
      qdq = &it->second;
      return &g.consts.find(it->second.input)->second;
    }
  }
  return n.constant(i);
}

quant::QuantizedType quantc::onnx_import::quantType(NodeImporter &n,
                                                    const PendingQuant &q,
                                                    int64_t irAxis) {
  Builder &b = n.builder();
  Type storage = b.getIntegerType(8);
  unsigned flags = q.isSigned ? quant::QuantizationFlags::Signed : 0;
  int64_t lo = q.isSigned ? -128 : 0, hi = q.isSigned ? 127 : 255;
  if (q.scales.size() == 1)
    return quant::UniformQuantizedType::get(
        flags, storage, b.getF32Type(), q.scales[0], q.zeroPoints[0], lo, hi);
  return quant::UniformQuantizedPerAxisType::get(
      flags, storage, b.getF32Type(), q.scales, q.zeroPoints,
      static_cast<int32_t>(irAxis), lo, hi);
}

Value quantc::onnx_import::fakeQuant(NodeImporter &n, Value v,
                                     quant::QuantizedType qtype,
                                     StringRef name) {
  Builder &b = n.builder();
  return qnt::FakeQuantOp::create(n.builder(), v, TypeAttr::get(qtype),
                                  DenseF32ArrayAttr(), DenseF32ArrayAttr(),
                                  b.getStringAttr(name));
}

LogicalResult quantc::onnx_import::quantParams(NodeImporter &n, int scaleInput,
                                               int zpInput,
                                               const ConstTensor *&scale,
                                               const ConstTensor *&zp,
                                               bool int32Allowed) {
  scale = n.constant(scaleInput);
  if (!scale)
    return failure();
  FailureOr<const ConstTensor *> z = n.optionalConstant(zpInput);
  if (failed(z))
    return failure();
  zp = *z;
  // QuantizeLinear / DequantizeLinear have one scale; other ops name it.
  std::string of = scaleInput == 1 ? "" : " '" + n.inputName(scaleInput) + "'";
  if (scale->dtype != onnx::TensorProto::FLOAT)
    return n.emitError() << "the scale" << of << " must be float32";
  if (scale->dims.size() > 1)
    return n.emitError() << "the scale" << of << " must be a scalar or 1-D";
  if (scale->data.empty())
    return n.emitError() << "the scale" << of << " is empty";
  for (double s : scale->data)
    if (!std::isfinite(s) || s < FLT_MIN)
      return n.emitError() << (of.empty() ? "scale "
                                          : "the scale" + of + " holds ")
                           << s
                           << (of.empty() ? " is out of range"
                                          : ", out of range")
                           << " (a finite float32 >= " << FLT_MIN << ")";
  if (!zp)
    return success();
  if (zp->dims != scale->dims &&
      !(zp->numElements() == 1 && scale->numElements() == 1))
    return n.emitError() << "the zero point"
                         << (scaleInput == 1
                                 ? ""
                                 : " '" + n.inputName(zpInput) + "'")
                         << "'s shape differs from the scale's";
  bool supported = zp->dtype == onnx::TensorProto::INT8 ||
                   zp->dtype == onnx::TensorProto::UINT8 ||
                   (int32Allowed && zp->dtype == onnx::TensorProto::INT32);
  if (!supported)
    return n.emitError() << "only int8 / uint8 zero points are supported";
  auto [lo, hi] = *integerRange(zp->dtype);
  for (double v : zp->data)
    if (v < lo || v > hi || v != std::trunc(v))
      return n.emitError() << "zero point " << v << " is out of range for its "
                           << "type (" << lo << " to " << hi << ")";
  return success();
}

namespace {

/// The scale (input 1) and optional zero point (input 2) of a
/// QuantizeLinear / DequantizeLinear node.
LogicalResult quantParams(NodeImporter &n, const ConstTensor *&scale,
                          const ConstTensor *&zp, bool int32Allowed = false) {
  // Opset 21: blocked quantization (scales per block of an axis).
  FailureOr<int64_t> blockSize = n.intAttr("block_size", 0);
  if (failed(blockSize))
    return failure();
  if (*blockSize != 0)
    return n.emitError() << "blocked quantization (block_size " << *blockSize
                         << ") is not supported";
  return quantParams(n, 1, 2, scale, zp, int32Allowed);
}

/// The zero points of `count` scales: `zp`'s values, or 0 when absent.
std::vector<int64_t> zeroPointsOf(const ConstTensor *zp, size_t count) {
  std::vector<int64_t> values;
  for (size_t i = 0; i < count; ++i)
    values.push_back(zp ? static_cast<int64_t>(zp->data[i]) : 0);
  return values;
}

LogicalResult quantizeLinear(NodeImporter &n) {
  if (failed(n.checkArity(2, 3)))
    return failure();
  if (!n.isActivation(0) && !n.isConstant(0))
    return n.emitError() << "input '" << n.inputName(0)
                         << "' is not defined (missing initializer?)";
  const ConstTensor *scale, *zp;
  if (failed(quantParams(n, scale, zp)))
    return failure();
  PendingQuant q;
  q.input = n.inputName(0);
  q.scales = scale->data;
  q.isSigned = zp && zp->dtype == onnx::TensorProto::INT8;
  // Opset 21: the output type without a zero point (0: from the zero point,
  // else uint8).
  FailureOr<int64_t> outputType = n.intAttr("output_dtype", 0);
  if (failed(outputType))
    return failure();
  if (*outputType != 0) {
    if (*outputType != onnx::TensorProto::INT8 &&
        *outputType != onnx::TensorProto::UINT8)
      return n.emitError() << "output_dtype " << *outputType
                           << " is not supported (int8 or uint8)";
    if (zp && zp->dtype != *outputType)
      return n.emitError() << "output_dtype differs from the zero point's type";
    q.isSigned = *outputType == onnx::TensorProto::INT8;
  }
  q.zeroPoints = zeroPointsOf(zp, q.scales.size());
  FailureOr<int64_t> axis = n.intAttr("axis", 1);
  if (failed(axis))
    return failure();
  q.axis = *axis;
  if (q.scales.size() > 1) {
    // Per axis: the axis must exist and have one scale per index.
    SmallVector<int64_t> shape =
        n.isActivation(0) ? n.act(0)->onnxShape()
                          : SmallVector<int64_t>(n.constant(0)->dims);
    FailureOr<int64_t> normalized = n.normalizeAxis(*axis, shape.size());
    if (failed(normalized))
      return failure();
    if (shape[*normalized] != static_cast<int64_t>(q.scales.size()))
      return n.emitError() << "per-axis scale does not match the input's axis "
                           << *normalized;
    q.axis = *normalized;
  }
  n.graph().quants[n.node().output(0)] = std::move(q);
  return success();
}

/// DequantizeLinear of a quantized initializer (ONNX Runtime's QDQ format
/// stores weights as int8 / uint8 and biases as int32): the float constant
/// `(q - zp) * scale` (float32, as ONNX computes it); an 8-bit weight also
/// keeps its parameters, so that it becomes `qnt.fake_quant` of the
/// dequantized constant, which quantizes back to exactly `q` (|q - zp| <=
/// 255: the float32 round trip is off by far less than 0.5).
LogicalResult dequantizeConstant(NodeImporter &n) {
  const ConstTensor &q = *n.constant(0);
  bool is8Bit =
      q.dtype == onnx::TensorProto::INT8 || q.dtype == onnx::TensorProto::UINT8;
  if (!is8Bit && q.dtype != onnx::TensorProto::INT32)
    return n.emitError() << "only int8, uint8 and int32 initializers can be "
                            "dequantized";
  const ConstTensor *scale, *zp;
  if (failed(quantParams(n, scale, zp, /*int32Allowed=*/!is8Bit)))
    return failure();
  if (zp && zp->dtype != q.dtype)
    return n.emitError() << "zero point type differs from the input's";
  size_t channels = scale->data.size();
  int64_t rank = q.dims.size();
  FailureOr<int64_t> attrAxis = n.intAttr("axis", 1);
  if (failed(attrAxis))
    return failure();
  int64_t axis = *attrAxis < 0 ? *attrAxis + rank : *attrAxis;
  int64_t inner = 1;
  if (channels > 1) {
    if (axis < 0 || axis >= rank || q.dims[axis] != int64_t(channels))
      return n.emitError() << "per-axis scale does not match the input's axis "
                           << axis;
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
  GraphState &g = n.graph();
  const std::string &out = n.node().output(0);
  if (is8Bit) {
    // The weight's QDQ pair: the dequantized constant + its parameters.
    PendingQuant pq;
    pq.input = out + "#dequantized";
    pq.scales = scale->data;
    pq.isSigned = q.dtype == onnx::TensorProto::INT8;
    pq.zeroPoints = zeroPointsOf(zp, channels);
    pq.axis = axis;
    g.consts[pq.input] = f;
    g.constQdq[out] = std::move(pq);
  }
  return n.setOutput(std::move(f));
}

LogicalResult dequantizeLinear(NodeImporter &n) {
  if (failed(n.checkArity(2, 3)))
    return failure();
  GraphState &g = n.graph();
  auto it = g.quants.find(n.inputName(0));
  if (it == g.quants.end() && n.isConstant(0))
    return dequantizeConstant(n);
  if (it == g.quants.end())
    return n.emitError() << "only QuantizeLinear -> DequantizeLinear pairs "
                            "are supported (input does not come from "
                            "QuantizeLinear)";
  PendingQuant q = it->second;
  const ConstTensor *scale, *zp;
  if (failed(quantParams(n, scale, zp)))
    return failure();
  if (scale->data != q.scales)
    return n.emitError() << "scale differs from its QuantizeLinear's";
  bool isSigned = zp && zp->dtype == onnx::TensorProto::INT8;
  if (zeroPointsOf(zp, q.scales.size()) != q.zeroPoints ||
      isSigned != q.isSigned)
    return n.emitError() << "zero point differs from its QuantizeLinear's";
  FailureOr<int64_t> axis = n.intAttr("axis", 1);
  if (failed(axis))
    return failure();
  if (q.scales.size() > 1) {
    auto act = g.acts.find(q.input);
    int64_t rank =
        act != g.acts.end()
            ? act->second.rank()
            : static_cast<int64_t>(g.consts.find(q.input)->second.dims.size());
    FailureOr<int64_t> dqAxis = n.normalizeAxis(*axis, rank);
    if (failed(dqAxis))
      return failure();
    if (*dqAxis != q.axis)
      return n.emitError() << "axis differs from its QuantizeLinear's";
  }
  if (g.consts.count(q.input)) {
    g.constQdq[n.node().output(0)] = std::move(q);
    return success();
  }
  Act x = g.acts.find(q.input)->second;
  int64_t irAxis = q.scales.size() > 1 ? x.irAxis(q.axis) : 0;
  return n.setOutput(
      {fakeQuant(n, x.value, quantType(n, q, irAxis), n.node().name()),
       x.layout});
}

} // namespace

void quantc::onnx_import::registerQuantOps(OpRegistry &r) {
  r.add("QuantizeLinear", quantizeLinear);
  r.add("DequantizeLinear", dequantizeLinear);
  registerQLinearOps(r);
}
