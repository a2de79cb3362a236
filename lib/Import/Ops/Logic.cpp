//===- Logic.cpp - Comparisons, logic and index computations --------------===//
//
// Equal, Less, Greater, LessOrEqual, GreaterOrEqual, Not, And, Or, Xor,
// Where, Mod, Range and ScatterND. Exporters emit them for index and mask
// computations on static shapes (torchvision's ViT expands its class token
// through Equal / Where, Swin builds its shifted-window masks and padding
// with Mod, Range and ScatterND), so every input is a constant and the node
// is evaluated here, like the shape sub-graphs of Constant.cpp. On
// activations they are an error that says so.
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"

#include <cmath>

using namespace mlir;
using namespace quantc::onnx_import;

namespace {

/// Every input of `n` as a constant, or an error naming the first that is
/// an activation.
FailureOr<SmallVector<const ConstTensor *>> constantInputs(NodeImporter &n) {
  SmallVector<const ConstTensor *> inputs;
  for (int i = 0; i < n.numInputs(); ++i) {
    if (n.isActivation(i))
      return n.emitError() << "input '" << n.inputName(i)
                           << "' is computed from the model's input; "
                           << n.node().op_type()
                           << " is supported on constants only (index and "
                              "mask computations)";
    const ConstTensor *c = n.constant(i);
    if (!c)
      return failure();
    inputs.push_back(c);
  }
  return inputs;
}

/// An element-wise op over constant inputs with broadcasting; the result
/// has element type `dtype`, or the first input's when `dtype` is 0.
template <typename Fn>
LogicalResult elementwise(NodeImporter &n, int arity, int32_t dtype, Fn fn) {
  if (failed(n.checkArity(arity, arity)))
    return failure();
  FailureOr<SmallVector<const ConstTensor *>> in = constantInputs(n);
  if (failed(in))
    return failure();
  ConstTensor out;
  if (llvm::Error err = broadcastElementwise(
          *in, dtype ? dtype : (*in)[0]->dtype, out, fn,
          [&](ArrayRef<int64_t> d) { return n.checkBudget(d); }))
    return n.emitError() << toString(std::move(err));
  return n.setOutput(std::move(out));
}

enum class Compare { eq, lt, gt, le, ge };

template <Compare kind> LogicalResult compare(NodeImporter &n) {
  return elementwise(n, 2, onnx::TensorProto::BOOL, [](ArrayRef<double> v) {
    switch (kind) {
    case Compare::eq:
      return v[0] == v[1];
    case Compare::lt:
      return v[0] < v[1];
    case Compare::gt:
      return v[0] > v[1];
    case Compare::le:
      return v[0] <= v[1];
    case Compare::ge:
      return v[0] >= v[1];
    }
    return false;
  });
}

enum class Logic { and_, or_, xor_ };

template <Logic kind> LogicalResult logic(NodeImporter &n) {
  return elementwise(n, 2, onnx::TensorProto::BOOL, [](ArrayRef<double> v) {
    bool a = v[0] != 0.0, b = v[1] != 0.0;
    switch (kind) {
    case Logic::and_:
      return a && b;
    case Logic::or_:
      return a || b;
    case Logic::xor_:
      return a != b;
    }
    return false;
  });
}

LogicalResult notOp(NodeImporter &n) {
  return elementwise(n, 1, onnx::TensorProto::BOOL,
                     [](ArrayRef<double> v) { return v[0] == 0.0; });
}

/// Where(condition, x, y): the result has x's element type.
LogicalResult where(NodeImporter &n) {
  if (failed(n.checkArity(3, 3)))
    return failure();
  FailureOr<SmallVector<const ConstTensor *>> in = constantInputs(n);
  if (failed(in))
    return failure();
  if ((*in)[1]->dtype != (*in)[2]->dtype)
    return n.emitError() << "x and y have different element types";
  ConstTensor out;
  if (llvm::Error err = broadcastElementwise(
          *in, (*in)[1]->dtype, out,
          [](ArrayRef<double> v) { return v[0] != 0.0 ? v[1] : v[2]; },
          [&](ArrayRef<int64_t> d) { return n.checkBudget(d); }))
    return n.emitError() << toString(std::move(err));
  return n.setOutput(std::move(out));
}

/// Mod: integers take the divisor's sign (Python's %) unless `fmod`, which
/// takes the dividend's (C's fmod) and is required for floats.
LogicalResult mod(NodeImporter &n) {
  FailureOr<bool> fmod = n.boolAttr("fmod", false);
  if (failed(fmod))
    return failure();
  if (failed(n.checkArity(2, 2)))
    return failure();
  FailureOr<SmallVector<const ConstTensor *>> in = constantInputs(n);
  if (failed(in))
    return failure();
  bool integer = (*in)[0]->isInteger();
  if (!integer && !*fmod)
    return n.emitError() << "floating-point Mod requires fmod=1";
  if (integer && llvm::is_contained((*in)[1]->data, 0.0))
    return n.emitError() << "integer division by zero";
  return elementwise(n, 2, 0, [&](ArrayRef<double> v) {
    double r = std::fmod(v[0], v[1]);
    if (!*fmod && r != 0.0 && (r < 0) != (v[1] < 0))
      r += v[1];
    return r;
  });
}

/// A rank-0 (or one-element) constant's value.
FailureOr<double> scalar(NodeImporter &n, const ConstTensor &t, int input) {
  if (t.numElements() != 1 || t.dims.size() > 1)
    return n.emitError() << "input " << input << " must be a scalar";
  double v = t.data[0];
  if (!std::isfinite(v))
    return n.emitError() << "input " << input << " is not finite";
  return v;
}

/// Range(start, limit, delta): ceil((limit - start) / delta) values.
LogicalResult range(NodeImporter &n) {
  if (failed(n.checkArity(3, 3)))
    return failure();
  FailureOr<SmallVector<const ConstTensor *>> in = constantInputs(n);
  if (failed(in))
    return failure();
  double v[3];
  for (int i = 0; i < 3; ++i) {
    FailureOr<double> s = scalar(n, *(*in)[i], i);
    if (failed(s))
      return failure();
    v[i] = *s;
  }
  if (v[2] == 0.0)
    return n.emitError() << "delta is 0";
  double count = std::max(std::ceil((v[1] - v[0]) / v[2]), 0.0);
  if (count > static_cast<double>(kMaxConstantElements))
    return n.emitError() << "the result has too many elements";
  ConstTensor out;
  out.dtype = (*in)[0]->dtype;
  out.dims = {static_cast<int64_t>(count)};
  if (failed(n.checkConstantShape(out.dims, "the result")))
    return failure();
  out.data.reserve(out.dims[0]);
  for (int64_t i = 0; i < out.dims[0]; ++i)
    out.data.push_back(castTo(v[0] + static_cast<double>(i) * v[2], out.dtype));
  return n.setOutput(std::move(out));
}

/// ScatterND(data, indices, updates) with reduction none, add, mul, max or
/// min: index tuples of length k address slices data[i_1, ..., i_k, ...].
LogicalResult scatterND(NodeImporter &n) {
  if (failed(n.checkArity(3, 3)))
    return failure();
  FailureOr<std::string> reduction = n.stringAttr("reduction", "none");
  if (failed(reduction))
    return failure();
  if (!llvm::is_contained({"none", "add", "mul", "max", "min"}, *reduction))
    return n.emitError() << "unknown reduction '" << *reduction << "'";
  FailureOr<SmallVector<const ConstTensor *>> in = constantInputs(n);
  if (failed(in))
    return failure();
  const ConstTensor &data = *(*in)[0], &indices = *(*in)[1],
                    &updates = *(*in)[2];
  if (!indices.isInteger() || indices.dims.empty())
    return n.emitError() << "indices must be integers of rank >= 1";
  int64_t k = indices.dims.back();
  if (k < 1 || k > static_cast<int64_t>(data.dims.size()))
    return n.emitError() << "index tuples of length " << k
                         << " do not fit data of rank " << data.dims.size();
  // updates.shape == indices.shape[:-1] + data.shape[k:].
  SmallVector<int64_t> expected(indices.dims.begin(),
                                std::prev(indices.dims.end()));
  expected.append(data.dims.begin() + k, data.dims.end());
  if (ArrayRef<int64_t>(updates.dims) != ArrayRef<int64_t>(expected))
    return n.emitError() << "updates have the wrong shape";
  int64_t slice = 1;
  for (int64_t d : ArrayRef<int64_t>(data.dims).drop_front(k))
    slice *= d;
  FailureOr<ConstTensor> copy = n.copyConstant(0);
  if (failed(copy))
    return failure();
  ConstTensor out = std::move(*copy);
  int64_t tuples = indices.numElements() / k;
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t offset = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t dim = data.dims[j];
      int64_t i = saturatingInt64(indices.data[t * k + j]);
      if (i < -dim || i >= dim)
        return n.emitError() << "index " << i << " is out of range for a "
                             << "dimension of size " << dim;
      offset = offset * dim + (i < 0 ? i + dim : i);
    }
    for (int64_t e = 0; e < slice; ++e) {
      double &dst = out.data[offset * slice + e];
      double src = updates.data[t * slice + e];
      if (*reduction == "none")
        dst = src;
      else if (*reduction == "add")
        dst = castTo(dst + src, out.dtype);
      else if (*reduction == "mul")
        dst = castTo(dst * src, out.dtype);
      else if (*reduction == "max")
        dst = std::max(dst, src);
      else
        dst = std::min(dst, src);
    }
  }
  return n.setOutput(std::move(out));
}

} // namespace

void quantc::onnx_import::registerLogicOps(OpRegistry &r) {
  r.add("Equal", compare<Compare::eq>);
  r.add("Less", compare<Compare::lt>);
  r.add("Greater", compare<Compare::gt>);
  r.add("LessOrEqual", compare<Compare::le>);
  r.add("GreaterOrEqual", compare<Compare::ge>);
  r.add("Not", notOp);
  r.add("And", logic<Logic::and_>);
  r.add("Or", logic<Logic::or_>);
  r.add("Xor", logic<Logic::xor_>);
  r.add("Where", where);
  r.add("Mod", mod);
  r.add("Range", range);
  r.add("ScatterND", scatterND);
}
