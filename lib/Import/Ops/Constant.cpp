//===- Constant.cpp - Constants, casts, identities and shapes -------------===//
//
// Constant (every attribute form), ConstantOfShape, Shape and Size (static
// shapes are constants), Cast, Identity and Dropout (inference: identity).
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <cstdio>

using namespace mlir;
using namespace quantc::onnx_import;

namespace {

LogicalResult constantOp(NodeImporter &n) {
  if (failed(n.checkArity(0, 0)))
    return failure();
  const onnx::NodeProto &node = n.node();
  if (node.attribute_size() != 1)
    return n.emitError() << "expected exactly one value attribute";
  const onnx::AttributeProto &a = node.attribute(0);
  ConstTensor t;
  StringRef name = a.name();
  if (name == "value") {
    if (!a.has_t())
      return n.emitError() << "attribute 'value' must be a tensor";
    if (llvm::Error err = decodeTensor(a.t(), t))
      return n.emitError() << toString(std::move(err));
  } else if (name == "value_float") {
    t.data = {a.f()};
  } else if (name == "value_floats") {
    t.data.assign(a.floats().begin(), a.floats().end());
    t.dims = {static_cast<int64_t>(t.data.size())};
  } else if (name == "value_int") {
    t.dtype = onnx::TensorProto::INT64;
    t.data = {static_cast<double>(a.i())};
  } else if (name == "value_ints") {
    t.dtype = onnx::TensorProto::INT64;
    for (int64_t v : a.ints())
      t.data.push_back(static_cast<double>(v));
    t.dims = {static_cast<int64_t>(t.data.size())};
  } else {
    return n.emitError() << "unsupported attribute '" << name
                         << "' (sparse and string constants are not "
                            "supported)";
  }
  return n.setOutput(std::move(t));
}

/// A constant filled with one value (PyTorch's exporter builds zero points
/// this way).
LogicalResult constantOfShape(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = n.intsInput(0);
  if (failed(shape))
    return failure();
  ConstTensor t;
  double value = 0.0;
  if (const onnx::AttributeProto *attr = n.attr("value")) {
    ConstTensor v;
    if (llvm::Error err = decodeTensor(attr->t(), v))
      return n.emitError() << toString(std::move(err));
    if (v.data.size() != 1)
      return n.emitError() << "value must have one element";
    t.dtype = v.dtype;
    value = v.data[0];
  }
  if (failed(n.checkConstantShape(*shape, "the shape")))
    return failure();
  t.dims.assign(shape->begin(), shape->end());
  t.data.assign(t.numElements(), value);
  return n.setOutput(std::move(t));
}

/// The shape of an activation or constant (opset 15's start / end too).
LogicalResult shapeOp(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  SmallVector<int64_t> shape;
  if (n.isActivation(0))
    shape = n.act(0)->onnxShape();
  else if (const ConstTensor *c = n.constant(0))
    shape.assign(c->dims.begin(), c->dims.end());
  else
    return failure();
  int64_t rank = shape.size();
  FailureOr<int64_t> start = n.intAttr("start", 0),
                     end = n.intAttr("end", rank);
  if (failed(start) || failed(end))
    return failure();
  auto clampAxis = [&](int64_t a) {
    return std::clamp<int64_t>(a < 0 ? a + rank : a, 0, rank);
  };
  int64_t lo = clampAxis(*start), hi = std::max(clampAxis(*end), lo);
  ConstTensor t;
  t.dtype = onnx::TensorProto::INT64;
  t.dims = {hi - lo};
  for (int64_t d = lo; d < hi; ++d)
    t.data.push_back(static_cast<double>(shape[d]));
  return n.setOutput(std::move(t));
}

LogicalResult sizeOp(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  int64_t count = 1;
  if (n.isActivation(0)) {
    for (int64_t d : n.act(0)->onnxShape())
      count *= d;
  } else if (const ConstTensor *c = n.constant(0)) {
    count = c->numElements();
  } else {
    return failure();
  }
  ConstTensor t;
  t.dtype = onnx::TensorProto::INT64;
  t.data = {static_cast<double>(count)};
  return n.setOutput(std::move(t));
}

/// The f32 activation `a` converted as ONNX's Cast to the integer type
/// `to` converts (the result stays f32, holding integers): truncation toward
/// zero, then for 8- and 16-bit types wrapping into the type's range as
/// ONNX Runtime's static_cast does on the truncated value (the same as
/// castTo for constants; through int32, which saturates beyond 2^31); BOOL
/// is x != 0. Integers are exact in f32 below
/// 2^24 in magnitude; a 32- or 64-bit result beyond that is not exact.
static Value castToInteger(NodeImporter &n, const Act &a, int32_t to) {
  ImplicitLocOpBuilder &b = n.builder();
  Value x = a.value;
  auto type = cast<RankedTensorType>(x.getType());
  auto predicate = RankedTensorType::get(type.getShape(), b.getI1Type());
  int64_t rank = a.rank();
  if (to == onnx::TensorProto::BOOL) {
    Value zero = tosa::EqualOp::create(b, predicate, x, n.splat(0.0f, rank));
    return tosa::SelectOp::create(b, type, zero, n.splat(0.0f, rank),
                                  n.splat(1.0f, rank));
  }
  bool isFloat = a.dtype == onnx::TensorProto::FLOAT;
  if (isFloat) {
    Value positive =
        tosa::GreaterEqualOp::create(b, predicate, x, n.splat(0.0f, rank));
    x = tosa::SelectOp::create(b, type, positive,
                               tosa::FloorOp::create(b, type, x),
                               tosa::CeilOp::create(b, type, x));
  }
  int bits = 0;
  bool isSigned = true;
  switch (to) {
  case onnx::TensorProto::INT8:
    bits = 8;
    break;
  case onnx::TensorProto::UINT8:
    bits = 8, isSigned = false;
    break;
  case onnx::TensorProto::INT16:
    bits = 16;
    break;
  case onnx::TensorProto::UINT16:
    bits = 16, isSigned = false;
    break;
  default:
    return x;
  }
  // The wrap in integer ops (not f32 ones, which the int8 pipeline would
  // quantize): to i32, then to the narrow type and back (sign extension)
  // or the low bits (unsigned), and back to f32.
  auto intType = [&](unsigned width) {
    return RankedTensorType::get(type.getShape(), b.getIntegerType(width));
  };
  Value wide = tosa::CastOp::create(b, intType(32), x);
  if (isSigned) {
    wide = tosa::CastOp::create(b, intType(bits), wide);
  } else {
    auto maskType =
        RankedTensorType::get(SmallVector<int64_t>(rank, 1), b.getI32Type());
    int32_t lowBits = (1 << bits) - 1;
    Value mask = tosa::ConstOp::create(
        b, maskType, DenseElementsAttr::get(maskType, ArrayRef(lowBits)));
    wide = tosa::BitwiseAndOp::create(b, intType(32), wide, mask);
  }
  return tosa::CastOp::create(b, type, wide);
}

/// Cast. A quantized value (QuantizeLinear output) to its own type
/// (PyTorch's exporter writes QuantizeLinear -> Cast -> DequantizeLinear)
/// stays quantized. Activations are computed in float32 whatever float type
/// the model declares: a Cast to float32 or double is the identity, one to
/// float16 or bfloat16 rounds to that precision (round to nearest even, as
/// ONNX Runtime, so that a float16 model's values match it). A Cast to an
/// integer type converts the values (castToInteger) and gives the result
/// that element type, so that a graph output of it is an integer result;
/// a Cast back to a float type clears it. Constants are converted as ONNX
/// specifies (float to integer truncates, float16 rounds).
LogicalResult castOp(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<int64_t> to = n.intAttr("to", 0);
  if (failed(to))
    return failure();
  const std::string &in = n.inputName(0);
  GraphState &g = n.graph();
  auto isInteger = [](int64_t t) {
    return t == onnx::TensorProto::INT8 || t == onnx::TensorProto::UINT8 ||
           t == onnx::TensorProto::INT32 || t == onnx::TensorProto::INT64 ||
           t == onnx::TensorProto::BOOL;
  };
  auto isFloat = [](int64_t t) {
    return t == onnx::TensorProto::FLOAT || t == onnx::TensorProto::DOUBLE ||
           t == onnx::TensorProto::FLOAT16 || t == onnx::TensorProto::BFLOAT16;
  };
  if (auto it = g.quants.find(in); it != g.quants.end()) {
    int64_t storage = it->second.isSigned ? onnx::TensorProto::INT8
                                          : onnx::TensorProto::UINT8;
    if (*to != storage)
      return n.emitError() << "a quantized value can only be cast to its own "
                              "type";
    PendingQuant q = it->second;
    g.quants[n.node().output(0)] = std::move(q);
    return success();
  }
  if (n.isActivation(0)) {
    Act a = *n.act(0);
    if (isFloat(*to)) {
      a.value = n.roundToPrecision(a.value, static_cast<int32_t>(*to));
      a.dtype = onnx::TensorProto::FLOAT;
      return n.setOutput(std::move(a));
    }
    if (!isInteger(*to) && *to != onnx::TensorProto::INT16 &&
        *to != onnx::TensorProto::UINT16 && *to != onnx::TensorProto::UINT32 &&
        *to != onnx::TensorProto::UINT64)
      return n.emitError() << "unsupported target type " << *to << " ("
                           << dataTypeName(*to) << ") for an activation";
    a.value = castToInteger(n, a, static_cast<int32_t>(*to));
    a.dtype = static_cast<int32_t>(*to);
    return n.setOutput(std::move(a));
  }
  if (!g.consts.count(in))
    return n.emitError() << "input '" << in << "' is not defined";
  if (!isFloat(*to) && !isInteger(*to))
    return n.emitError() << "unsupported target type " << *to << " ("
                         << dataTypeName(*to) << ")";
  FailureOr<ConstTensor> copy = n.copyConstant(0);
  if (failed(copy))
    return failure();
  ConstTensor t = std::move(*copy);
  t.dtype = static_cast<int32_t>(*to);
  for (double &v : t.data)
    v = castTo(v, t.dtype);
  // Rounded to its precision, a float16 / bfloat16 / double constant is a
  // float32 one to the ops that read it (as decodeTensor gives them): a
  // double rounds to float32 (an integer's magnitude is far inside its
  // range).
  if (isFloat(*to)) {
    t.dtype = onnx::TensorProto::FLOAT;
    for (double &v : t.data)
      v = roundToFloat32(v);
  }
  return n.setOutput(std::move(t));
}

/// Output 0 is input 0, whatever kind of value it is.
LogicalResult forwardInput(NodeImporter &n) {
  const std::string &in = n.inputName(0);
  GraphState &g = n.graph();
  const std::string &out = n.node().output(0);
  if (auto it = g.acts.find(in); it != g.acts.end())
    return n.setOutput(Act(it->second));
  if (g.consts.count(in)) {
    FailureOr<ConstTensor> copy = n.copyConstant(0);
    return failed(copy) ? failure() : n.setOutput(std::move(*copy));
  }
  if (auto it = g.quants.find(in); it != g.quants.end()) {
    PendingQuant q = it->second;
    g.quants[out] = std::move(q);
    return success();
  }
  if (auto it = g.constQdq.find(in); it != g.constQdq.end()) {
    PendingQuant q = it->second;
    g.constQdq[out] = std::move(q);
    return success();
  }
  return n.emitError() << "input '" << in << "' is not defined";
}

LogicalResult identity(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  return forwardInput(n);
}

/// Dropout at inference: the identity, and its optional mask output all
/// true. Opset 12's training_mode may only be true with a ratio of 0
/// (torchvision's Swin exports F.dropout(p=0.0) that way), which is the
/// identity too.
LogicalResult dropout(NodeImporter &n) {
  if (failed(n.checkArity(1, 3, 1, 2)))
    return failure();
  if (n.hasInput(2)) {
    const ConstTensor *training = n.constant(2);
    if (!training)
      return failure();
    if (training->numElements() != 1)
      return n.emitError() << "training_mode must be a scalar";
    double ratio = 0.5;
    if (n.hasInput(1)) {
      const ConstTensor *r = n.constant(1);
      if (!r)
        return failure();
      if (r->numElements() != 1)
        return n.emitError() << "ratio must be a scalar";
      ratio = r->data[0];
    }
    if (training->data[0] != 0.0 && ratio != 0.0) {
      char ratioText[32];
      std::snprintf(ratioText, sizeof(ratioText), "%g", ratio);
      return n.emitError() << "training mode with a ratio of " << ratioText
                           << " is not supported (inference only)";
    }
  }
  if (n.node().output_size() > 1 && !n.node().output(1).empty()) {
    ConstTensor mask;
    mask.dtype = onnx::TensorProto::BOOL;
    if (n.isActivation(0))
      mask.dims = n.act(0)->onnxShape();
    else if (const ConstTensor *c = n.constant(0))
      mask.dims = c->dims;
    else
      return failure();
    if (failed(n.checkConstantShape(mask.dims, "the mask")))
      return failure();
    mask.data.assign(mask.numElements(), 1.0);
    if (failed(n.setOutput(1, std::move(mask))))
      return failure();
  }
  return forwardInput(n);
}

} // namespace

void quantc::onnx_import::registerConstantOps(OpRegistry &r) {
  r.add("Constant", constantOp);
  r.add("ConstantOfShape", constantOfShape);
  r.add("Shape", shapeOp);
  r.add("Size", sizeOp);
  r.add("Cast", castOp);
  r.add("Identity", identity);
  r.add("Dropout", dropout);
}
