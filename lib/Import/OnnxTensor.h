//===- OnnxTensor.h - ONNX tensors and attributes as plain data -*- C++ -*-===//
//
// Private to lib/Import: decodes TensorProto payloads (raw_data or the typed
// repeated fields) into a dims + double vector and reads node attributes with
// ONNX's defaults, so that the op translation never touches protobuf details.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_LIB_IMPORT_ONNXTENSOR_H
#define QUANTC_LIB_IMPORT_ONNXTENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>
#include <vector>

namespace quantc::onnx_import {

/// A constant tensor (initializer or Constant node) in ONNX's layout.
struct ConstTensor {
  llvm::SmallVector<int64_t> dims;
  std::vector<double> data;
  int32_t dtype = onnx::TensorProto::FLOAT;

  int64_t numElements() const;
  std::vector<float> floats() const { return {data.begin(), data.end()}; }
  bool isInteger() const;
  /// The tensor with dimensions permuted: result dim i = input dim perm[i].
  ConstTensor permuted(llvm::ArrayRef<int64_t> perm) const;
  /// `count` elements along `axis` from `start`, `step` apart (step != 0).
  ConstTensor sliced(int64_t axis, int64_t start, int64_t count,
                     int64_t step) const;
  /// The elements at `indices` (in range) along `axis`; the result's shape
  /// replaces dimension `axis` with `indexDims`.
  ConstTensor gathered(int64_t axis, llvm::ArrayRef<int64_t> indices,
                       llvm::ArrayRef<int64_t> indexDims) const;
};

/// Concatenation along `axis` (shapes checked by the caller).
ConstTensor concat(llvm::ArrayRef<const ConstTensor *> parts, int64_t axis);

/// `fn(a, b)` element-wise with ONNX broadcasting; none when the shapes do
/// not broadcast. The result has `a`'s element type.
std::optional<ConstTensor>
broadcastBinary(const ConstTensor &a, const ConstTensor &b,
                llvm::function_ref<double(double, double)> fn);

/// `v` as an int64, saturated (INT64_MAX, as ONNX exporters write for "to
/// the end", is not exact in double).
int64_t saturatingInt64(double v);

/// `v` rounded as storing it in `dtype` does (integers truncate and wrap to
/// their width, float32 rounds).
double castTo(double v, int32_t dtype);

/// Decodes `t`; on failure returns a message.
std::optional<std::string> decodeTensor(const onnx::TensorProto &t,
                                        ConstTensor &out);

/// Node attributes with defaults.
const onnx::AttributeProto *findAttr(const onnx::NodeProto &node,
                                     llvm::StringRef name);
int64_t attrInt(const onnx::NodeProto &node, llvm::StringRef name,
                int64_t dflt);
float attrFloat(const onnx::NodeProto &node, llvm::StringRef name, float dflt);
std::string attrString(const onnx::NodeProto &node, llvm::StringRef name,
                       llvm::StringRef dflt);
llvm::SmallVector<int64_t> attrInts(const onnx::NodeProto &node,
                                    llvm::StringRef name,
                                    llvm::ArrayRef<int64_t> dflt);

} // namespace quantc::onnx_import

#endif // QUANTC_LIB_IMPORT_ONNXTENSOR_H
