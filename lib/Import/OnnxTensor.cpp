//===- OnnxTensor.cpp - ONNX tensors and attributes as plain data ---------===//

#include "OnnxTensor.h"

#include <cstring>

using namespace quantc::onnx_import;

int64_t ConstTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

ConstTensor ConstTensor::permuted(llvm::ArrayRef<int64_t> perm) const {
  size_t rank = dims.size();
  ConstTensor out;
  out.dtype = dtype;
  for (int64_t p : perm)
    out.dims.push_back(dims[p]);
  llvm::SmallVector<int64_t> inStrides(rank, 1);
  for (int i = static_cast<int>(rank) - 2; i >= 0; --i)
    inStrides[i] = inStrides[i + 1] * dims[i + 1];
  out.data.resize(data.size());
  llvm::SmallVector<int64_t> idx(rank, 0);
  for (size_t linear = 0; linear < data.size(); ++linear) {
    int64_t src = 0;
    for (size_t i = 0; i < rank; ++i)
      src += idx[i] * inStrides[perm[i]];
    out.data[linear] = data[src];
    for (int i = static_cast<int>(rank) - 1; i >= 0; --i) {
      if (++idx[i] < out.dims[i])
        break;
      idx[i] = 0;
    }
  }
  return out;
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

std::optional<std::string>
quantc::onnx_import::decodeTensor(const onnx::TensorProto &t,
                                  ConstTensor &out) {
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    return "tensor '" + t.name() + "' uses external data (not supported)";
  out.dims.assign(t.dims().begin(), t.dims().end());
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
  case onnx::TensorProto::INT64:
    if (hasRaw)
      fromRaw<int64_t>(raw, out.data);
    else
      out.data.assign(t.int64_data().begin(), t.int64_data().end());
    break;
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
    if (hasRaw) {
      if (t.data_type() == onnx::TensorProto::INT32)
        fromRaw<int32_t>(raw, out.data);
      else if (t.data_type() == onnx::TensorProto::INT8)
        fromRaw<int8_t>(raw, out.data);
      else
        fromRaw<uint8_t>(raw, out.data);
    } else {
      out.data.assign(t.int32_data().begin(), t.int32_data().end());
    }
    break;
  default:
    return "tensor '" + t.name() + "' has unsupported data type " +
           std::to_string(t.data_type());
  }
  if (static_cast<int64_t>(out.data.size()) != out.numElements())
    return "tensor '" + t.name() + "' has " + std::to_string(out.data.size()) +
           " values, its shape needs " + std::to_string(out.numElements());
  return std::nullopt;
}

const onnx::AttributeProto *
quantc::onnx_import::findAttr(const onnx::NodeProto &node,
                              llvm::StringRef name) {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t quantc::onnx_import::attrInt(const onnx::NodeProto &node,
                                     llvm::StringRef name, int64_t dflt) {
  const onnx::AttributeProto *a = findAttr(node, name);
  return a ? a->i() : dflt;
}

float quantc::onnx_import::attrFloat(const onnx::NodeProto &node,
                                     llvm::StringRef name, float dflt) {
  const onnx::AttributeProto *a = findAttr(node, name);
  return a ? a->f() : dflt;
}

std::string quantc::onnx_import::attrString(const onnx::NodeProto &node,
                                            llvm::StringRef name,
                                            llvm::StringRef dflt) {
  const onnx::AttributeProto *a = findAttr(node, name);
  return a ? a->s() : dflt.str();
}

llvm::SmallVector<int64_t>
quantc::onnx_import::attrInts(const onnx::NodeProto &node, llvm::StringRef name,
                              llvm::ArrayRef<int64_t> dflt) {
  const onnx::AttributeProto *a = findAttr(node, name);
  if (!a)
    return llvm::SmallVector<int64_t>(dflt);
  return llvm::SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}
