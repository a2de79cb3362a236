//===- OnnxTensor.cpp - ONNX tensors and attributes as plain data ---------===//

#include "OnnxTensor.h"

#include "quantc/Support/Fail.h"
#include "quantc/Support/Text.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>

using namespace quantc::onnx_import;
using quantc::fail;

llvm::Error
quantc::onnx_import::checkConstantShape(llvm::ArrayRef<int64_t> dims) {
  int64_t nonZero = 1;
  for (int64_t d : dims) {
    if (d < 0)
      return fail("negative dimension " + std::to_string(d));
    if (d > kMaxIntValue)
      return fail("dimension " + std::to_string(d) + " is too large (at most " +
                  std::to_string(kMaxIntValue) + ")");
    if (d > 0)
      nonZero *= d; // both factors <= 2^30
    if (nonZero > kMaxConstantElements)
      return fail("too many elements (a constant has at most " +
                  std::to_string(kMaxConstantElements) + ")");
  }
  return llvm::Error::success();
}

llvm::Error
quantc::onnx_import::checkActivationShape(llvm::ArrayRef<int64_t> dims) {
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d > kMaxIntValue)
      return fail("has a dimension of size " + std::to_string(d) +
                  " (at most " + std::to_string(kMaxIntValue) + ")");
    if (d < 1)
      return fail("has a dimension of size " + std::to_string(d) +
                  "; empty activations are not supported");
    count *= d; // count <= 2^31, d <= 2^30
    if (count > kMaxActivationElements)
      return fail("has more than " + std::to_string(kMaxActivationElements) +
                  " elements");
  }
  return llvm::Error::success();
}

std::optional<std::pair<int64_t, int64_t>>
quantc::onnx_import::integerRange(int32_t dtype) {
  switch (dtype) {
  case onnx::TensorProto::INT8:
    return std::pair<int64_t, int64_t>{-128, 127};
  case onnx::TensorProto::UINT8:
    return std::pair<int64_t, int64_t>{0, 255};
  case onnx::TensorProto::BOOL:
    return std::pair<int64_t, int64_t>{0, 1};
  case onnx::TensorProto::INT32:
    return std::pair<int64_t, int64_t>{INT32_MIN, INT32_MAX};
  default:
    return std::nullopt;
  }
}

int64_t ConstTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

ConstTensor ConstTensor::permuted(llvm::ArrayRef<int64_t> perm) const {
  ConstTensor out;
  out.dtype = dtype;
  for (int64_t p : perm)
    out.dims.push_back(dims[p]);
  out.data.resize(data.size());
  permuteInto(dims, data, perm, out.data.data());
  return out;
}

bool ConstTensor::isInteger() const {
  return dtype == onnx::TensorProto::INT64 ||
         dtype == onnx::TensorProto::INT32 ||
         dtype == onnx::TensorProto::INT8 ||
         dtype == onnx::TensorProto::UINT8 || dtype == onnx::TensorProto::BOOL;
}

/// Elements before `axis` (outer), along it, and after it (inner).
static void splitAt(llvm::ArrayRef<int64_t> dims, int64_t axis, int64_t &outer,
                    int64_t &inner) {
  outer = 1;
  inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= dims[d];
  for (size_t d = axis + 1; d < dims.size(); ++d)
    inner *= dims[d];
}

ConstTensor ConstTensor::sliced(int64_t axis, int64_t start, int64_t count,
                                int64_t step) const {
  int64_t outer, inner;
  splitAt(dims, axis, outer, inner);
  ConstTensor out;
  out.dtype = dtype;
  out.dims = dims;
  out.dims[axis] = count;
  out.data.reserve(outer * count * inner);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < count; ++k) {
      const double *row =
          data.data() + (o * dims[axis] + start + k * step) * inner;
      out.data.insert(out.data.end(), row, row + inner);
    }
  return out;
}

ConstTensor ConstTensor::gathered(int64_t axis, llvm::ArrayRef<int64_t> indices,
                                  llvm::ArrayRef<int64_t> indexDims) const {
  int64_t outer, inner;
  splitAt(dims, axis, outer, inner);
  ConstTensor out;
  out.dtype = dtype;
  out.dims.assign(dims.begin(), dims.begin() + axis);
  out.dims.append(indexDims.begin(), indexDims.end());
  out.dims.append(dims.begin() + axis + 1, dims.end());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t index : indices) {
      const double *row = data.data() + (o * dims[axis] + index) * inner;
      out.data.insert(out.data.end(), row, row + inner);
    }
  return out;
}

ConstTensor
quantc::onnx_import::concat(llvm::ArrayRef<const ConstTensor *> parts,
                            int64_t axis) {
  ConstTensor out;
  out.dtype = parts.front()->dtype;
  out.dims = parts.front()->dims;
  out.dims[axis] = 0;
  for (const ConstTensor *p : parts)
    out.dims[axis] += p->dims[axis];
  int64_t outer, inner;
  splitAt(out.dims, axis, outer, inner);
  for (int64_t o = 0; o < outer; ++o)
    for (const ConstTensor *p : parts) {
      int64_t run = p->dims[axis] * inner;
      const double *row = p->data.data() + o * run;
      out.data.insert(out.data.end(), row, row + run);
    }
  return out;
}

llvm::Error quantc::onnx_import::broadcastElementwise(
    llvm::ArrayRef<const ConstTensor *> inputs, int32_t dtype, ConstTensor &out,
    llvm::function_ref<double(llvm::ArrayRef<double>)> fn, ShapeCheck check) {
  size_t rank = 0;
  for (const ConstTensor *t : inputs)
    rank = std::max(rank, t->dims.size());
  // Each input's dimensions, padded with leading ones to `rank`.
  llvm::SmallVector<llvm::SmallVector<int64_t>> dims;
  for (const ConstTensor *t : inputs) {
    llvm::SmallVector<int64_t> &d = dims.emplace_back(rank - t->dims.size(), 1);
    d.append(t->dims.begin(), t->dims.end());
  }
  out = ConstTensor();
  out.dtype = dtype;
  for (size_t i = 0; i < rank; ++i) {
    int64_t size = 1;
    for (const llvm::SmallVector<int64_t> &d : dims) {
      if (d[i] != 1 && size != 1 && d[i] != size)
        return fail("input shapes do not broadcast");
      if (d[i] != 1)
        size = d[i];
    }
    out.dims.push_back(size);
  }
  if (llvm::Error err = checkConstantShape(out.dims))
    return fail("the result: " + toString(std::move(err)));
  if (check)
    if (llvm::Error err = check(out.dims))
      return fail("the result: " + toString(std::move(err)));
  // Strides of each input in the output's index space (0 where broadcast,
  // and everywhere for an input of one value whatever its dimensions: a
  // shape to broadcast to, Expand's).
  llvm::SmallVector<llvm::SmallVector<int64_t>> strides;
  for (auto [t, d] : llvm::zip(inputs, dims)) {
    llvm::SmallVector<int64_t> &s = strides.emplace_back(rank, 0);
    for (int64_t i = static_cast<int64_t>(rank) - 1, p = 1; i >= 0; --i) {
      s[i] = d[i] == 1 || t->data.size() == 1 ? 0 : p;
      p *= d[i];
    }
  }
  int64_t count = out.numElements();
  out.data.resize(count);
  llvm::SmallVector<int64_t> idx(rank, 0);
  llvm::SmallVector<double> values(inputs.size());
  for (int64_t linear = 0; linear < count; ++linear) {
    for (size_t k = 0; k < inputs.size(); ++k) {
      int64_t offset = 0;
      for (size_t i = 0; i < rank; ++i)
        offset += idx[i] * strides[k][i];
      values[k] = inputs[k]->data[offset];
    }
    out.data[linear] = castTo(fn(values), out.dtype);
    for (int64_t i = static_cast<int64_t>(rank) - 1; i >= 0; --i) {
      if (++idx[i] < out.dims[i])
        break;
      idx[i] = 0;
    }
  }
  return llvm::Error::success();
}

llvm::Error quantc::onnx_import::broadcastBinary(
    const ConstTensor &a, const ConstTensor &b, ConstTensor &out,
    llvm::function_ref<double(double, double)> fn, ShapeCheck check) {
  return broadcastElementwise(
      {&a, &b}, a.dtype, out,
      [&](llvm::ArrayRef<double> v) { return fn(v[0], v[1]); }, check);
}

int64_t quantc::onnx_import::saturatingInt64(double v) {
  if (std::isnan(v))
    return 0;
  if (v >= 9.2e18)
    return INT64_MAX;
  if (v <= -9.2e18)
    return INT64_MIN;
  return static_cast<int64_t>(v);
}

/// `v` rounded to the nearest value (ties to even) of a binary float format
/// with `precision` significant bits and normal exponents [emin, emax]
/// (subnormals below), infinite beyond its largest finite value.
static double roundToFormat(double v, int precision, int emin, int emax) {
  if (v == 0.0 || !std::isfinite(v))
    return v;
  int e = std::max(std::ilogb(v), emin);
  double quantum = std::ldexp(1.0, e - (precision - 1));
  double r = std::nearbyint(v / quantum) * quantum;
  double maxFinite = std::ldexp(2.0 - std::ldexp(1.0, 1 - precision), emax);
  if (std::fabs(r) > maxFinite)
    return std::copysign(INFINITY, v);
  return r;
}

double quantc::onnx_import::roundToFloat32(double v) {
  return roundToFormat(v, 24, -126, 127);
}

llvm::Error
quantc::onnx_import::checkFloat32Range(llvm::ArrayRef<double> data) {
  for (size_t i = 0; i < data.size(); ++i) {
    double v = data[i], r = roundToFloat32(v);
    bool overflow = std::isinf(r) && std::isfinite(v);
    bool underflow = r == 0.0 && v != 0.0;
    if (overflow || underflow) {
      char text[32];
      std::snprintf(text, sizeof(text), "%.17g", v);
      return fail(std::string("holds ") + text + " (element " +
                  std::to_string(i) + "), which float32 cannot represent (" +
                  (overflow ? "beyond +-3.4028235e38" : "it would become 0") +
                  "); quantc computes in float32: scale the model's values "
                  "into float32's range or convert the model to float32");
    }
  }
  return llvm::Error::success();
}

bool quantc::onnx_import::heldExactly(int64_t v) {
  if (v >= kMinSentinel || v <= -kMinSentinel)
    return true; // a sentinel ("to the end"): its magnitude is what counts
  return static_cast<int64_t>(static_cast<double>(v)) == v;
}

llvm::Error
quantc::onnx_import::checkInt64Values(llvm::ArrayRef<int64_t> data) {
  for (size_t i = 0; i < data.size(); ++i)
    if (!heldExactly(data[i]))
      return fail("holds " + std::to_string(data[i]) + " (element " +
                  std::to_string(i) +
                  "), which the importer cannot hold exactly (an integer "
                  "beyond 2^53 must be exact in double, or at least 2^62 in "
                  "magnitude: a sentinel such as INT64_MAX)");
  return llvm::Error::success();
}

double quantc::onnx_import::roundToFloat16(double v) {
  return roundToFormat(v, 11, -14, 15);
}

double quantc::onnx_import::roundToBFloat16(double v) {
  return roundToFormat(v, 8, -126, 127);
}

double quantc::onnx_import::float16FromBits(uint16_t bits) {
  int exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0x1f)
    magnitude = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    magnitude = std::ldexp(mantissa, -24);
  else
    magnitude = std::ldexp(mantissa + 1024, exponent - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

double quantc::onnx_import::bfloat16FromBits(uint16_t bits) {
  uint32_t word = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &word, sizeof(f));
  return f;
}

const char *quantc::onnx_import::dataTypeName(int32_t dtype) {
  switch (dtype) {
  case onnx::TensorProto::FLOAT:
    return "float32";
  case onnx::TensorProto::UINT8:
    return "uint8";
  case onnx::TensorProto::INT8:
    return "int8";
  case onnx::TensorProto::UINT16:
    return "uint16";
  case onnx::TensorProto::INT16:
    return "int16";
  case onnx::TensorProto::INT32:
    return "int32";
  case onnx::TensorProto::INT64:
    return "int64";
  case onnx::TensorProto::STRING:
    return "string";
  case onnx::TensorProto::BOOL:
    return "bool";
  case onnx::TensorProto::FLOAT16:
    return "float16";
  case onnx::TensorProto::DOUBLE:
    return "double";
  case onnx::TensorProto::UINT32:
    return "uint32";
  case onnx::TensorProto::UINT64:
    return "uint64";
  case onnx::TensorProto::COMPLEX64:
    return "complex64";
  case onnx::TensorProto::COMPLEX128:
    return "complex128";
  case onnx::TensorProto::BFLOAT16:
    return "bfloat16";
  default:
    return "unknown";
  }
}

double quantc::onnx_import::castTo(double v, int32_t dtype) {
  switch (dtype) {
  case onnx::TensorProto::FLOAT:
    return roundToFloat32(v); // a static_cast beyond the range is undefined
  case onnx::TensorProto::FLOAT16:
    return roundToFloat16(v);
  case onnx::TensorProto::BFLOAT16:
    return roundToBFloat16(v);
  case onnx::TensorProto::INT64:
    return static_cast<double>(saturatingInt64(std::trunc(v)));
  case onnx::TensorProto::INT32:
    return static_cast<int32_t>(saturatingInt64(std::trunc(v)));
  case onnx::TensorProto::INT8:
    return static_cast<int8_t>(saturatingInt64(std::trunc(v)));
  case onnx::TensorProto::UINT8:
    return static_cast<uint8_t>(saturatingInt64(std::trunc(v)));
  case onnx::TensorProto::BOOL:
    return v != 0.0 ? 1.0 : 0.0;
  default:
    return v;
  }
}

template <typename T>
static void fromRaw(const std::string &raw, std::vector<double> &data) {
  size_t n = raw.size() / sizeof(T);
  data.resize(n);
  for (size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
    data[i] = static_cast<double>(v);
  }
}

llvm::Error quantc::onnx_import::decodeTensor(const onnx::TensorProto &t,
                                              ConstTensor &out) {
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    return fail("tensor '" + printable(t.name()) +
                "' uses external data (not supported)");
  out.dims.assign(t.dims().begin(), t.dims().end());
  if (llvm::Error err = checkConstantShape(out.dims))
    return fail("tensor '" + printable(t.name()) +
                "': " + toString(std::move(err)));
  out.dtype = t.data_type();
  const std::string &raw = t.raw_data();
  bool hasRaw = t.has_raw_data();
  switch (t.data_type()) {
  case onnx::TensorProto::FLOAT:
    if (hasRaw)
      fromRaw<float>(raw, out.data);
    else
      out.data.assign(t.float_data().begin(), t.float_data().end());
    break;
  case onnx::TensorProto::DOUBLE:
    if (hasRaw)
      fromRaw<double>(raw, out.data);
    else
      out.data.assign(t.double_data().begin(), t.double_data().end());
    break;
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16: {
    // Bit patterns: two bytes each in raw_data, one per int32_data entry
    // otherwise (the ONNX spec's storage of 16-bit floats).
    double (*decode)(uint16_t) = t.data_type() == onnx::TensorProto::FLOAT16
                                     ? float16FromBits
                                     : bfloat16FromBits;
    if (hasRaw) {
      out.data.resize(raw.size() / 2);
      for (size_t i = 0; i < out.data.size(); ++i) {
        uint16_t bits;
        std::memcpy(&bits, raw.data() + 2 * i, 2);
        out.data[i] = decode(bits);
      }
    } else {
      for (int32_t v : t.int32_data()) {
        if (v < 0 || v > 0xffff)
          return fail("tensor '" + printable(t.name()) + "' holds " +
                      std::to_string(v) +
                      " in int32_data, not a 16-bit pattern of its type (" +
                      dataTypeName(t.data_type()) + ")");
        out.data.push_back(decode(static_cast<uint16_t>(v)));
      }
    }
    break;
  }
  case onnx::TensorProto::INT64: {
    std::vector<int64_t> values;
    if (hasRaw) {
      values.resize(raw.size() / sizeof(int64_t));
      if (!values.empty())
        std::memcpy(values.data(), raw.data(), values.size() * sizeof(int64_t));
    } else {
      values.assign(t.int64_data().begin(), t.int64_data().end());
    }
    if (llvm::Error err = checkInt64Values(values))
      return fail("tensor '" + t.name() + "' " + toString(std::move(err)));
    out.data.assign(values.begin(), values.end());
    break;
  }
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::BOOL:
    if (hasRaw) {
      if (t.data_type() == onnx::TensorProto::INT32)
        fromRaw<int32_t>(raw, out.data);
      else if (t.data_type() == onnx::TensorProto::INT8)
        fromRaw<int8_t>(raw, out.data);
      else if (t.data_type() == onnx::TensorProto::BOOL)
        fromRaw<uint8_t>(raw, out.data);
      else
        fromRaw<uint8_t>(raw, out.data);
    } else {
      // int32_data holds every narrower integer type; its values must fit.
      auto [lo, hi] = *integerRange(t.data_type());
      for (int32_t v : t.int32_data())
        if (v < lo || v > hi)
          return fail("tensor '" + printable(t.name()) + "' holds " +
                      std::to_string(v) + ", out of range for its type (" +
                      std::to_string(lo) + " to " + std::to_string(hi) + ")");
      out.data.assign(t.int32_data().begin(), t.int32_data().end());
    }
    break;
  default:
    return fail(
        "tensor '" + printable(t.name()) + "' has unsupported data type " +
        std::to_string(t.data_type()) + " (" + dataTypeName(t.data_type()) +
        "; supported: float32, float16, bfloat16, double, int64, int32, "
        "int8, uint8, bool)");
  }
  if (static_cast<int64_t>(out.data.size()) != out.numElements())
    return fail("tensor '" + printable(t.name()) + "' has " +
                std::to_string(out.data.size()) + " values, its shape needs " +
                std::to_string(out.numElements()));
  // Every float type is computed in float32 (an exporter's float16 or double
  // weights are float32 weights to the ops that read them). float16 and
  // bfloat16 widen exactly; a double rounds, and one that float32 cannot
  // hold at all (beyond its range, or so small that it becomes 0) is refused.
  if (out.dtype == onnx::TensorProto::DOUBLE)
    if (llvm::Error err = checkFloat32Range(out.data))
      return fail("tensor '" + t.name() + "' " + toString(std::move(err)));
  if (out.dtype == onnx::TensorProto::FLOAT16 ||
      out.dtype == onnx::TensorProto::BFLOAT16 ||
      out.dtype == onnx::TensorProto::DOUBLE) {
    out.dtype = onnx::TensorProto::FLOAT;
    for (double &v : out.data)
      v = roundToFloat32(v);
  }
  return llvm::Error::success();
}

const onnx::AttributeProto *
quantc::onnx_import::findAttr(const onnx::NodeProto &node,
                              llvm::StringRef name) {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}
