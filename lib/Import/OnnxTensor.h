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
  /// The tensor with dimensions permuted: result dim i = input dim perm[i].
  ConstTensor permuted(llvm::ArrayRef<int64_t> perm) const;
};

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
