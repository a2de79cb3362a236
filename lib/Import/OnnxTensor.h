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
#include "llvm/Support/Error.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace quantc::onnx_import {

/// The limits that keep the importer's shape arithmetic inside int64: every
/// integer it reads (attributes, shape / pads / repeats inputs, dimensions)
/// has a magnitude of at most kMaxIntValue, an activation at most
/// kMaxActivationElements elements, and a constant at most
/// kMaxConstantElements (2 GiB as doubles; VGG-16's largest weight has
/// 103M) counting the product of its non-zero dimensions, so that no
/// partial product of a shape overflows either.
constexpr int64_t kMaxIntValue = int64_t(1) << 30;
constexpr int64_t kMaxActivationElements = int64_t(1) << 31;
constexpr int64_t kMaxConstantElements = int64_t(1) << 28;

/// Checks a constant's shape against the limits above; a failure says what
/// is wrong ("negative dimension", "too many elements").
llvm::Error checkConstantShape(llvm::ArrayRef<int64_t> dims);

/// Checks an activation's shape against the limits above (and that it is
/// not empty); a failure's message follows "<the tensor> " ("has a
/// dimension of size ...", "has more than ... elements").
llvm::Error checkActivationShape(llvm::ArrayRef<int64_t> dims);

/// The values an integer element type can hold ([lo, hi]): INT8, UINT8,
/// BOOL, INT32; none for other types.
std::optional<std::pair<int64_t, int64_t>> integerRange(int32_t dtype);

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

/// Writes `data`, of shape `dims`, into `out` (as many elements) with its
/// dimensions permuted (result dimension i is dimension perm[i]) and each
/// value converted to T: one pass, no copy in between.
template <typename T>
void permuteInto(llvm::ArrayRef<int64_t> dims, llvm::ArrayRef<double> data,
                 llvm::ArrayRef<int64_t> perm, T *out) {
  size_t rank = dims.size();
  bool identity = true;
  for (size_t i = 0; i < rank; ++i)
    identity &= perm[i] == static_cast<int64_t>(i);
  if (identity) {
    for (size_t k = 0; k < data.size(); ++k)
      out[k] = static_cast<T>(data[k]);
    return;
  }
  llvm::SmallVector<int64_t> inStrides(rank, 1), outDims;
  for (int i = static_cast<int>(rank) - 2; i >= 0; --i)
    inStrides[i] = inStrides[i + 1] * dims[i + 1];
  for (int64_t p : perm)
    outDims.push_back(dims[p]);
  llvm::SmallVector<int64_t> idx(rank, 0);
  for (size_t linear = 0; linear < data.size(); ++linear) {
    int64_t src = 0;
    for (size_t i = 0; i < rank; ++i)
      src += idx[i] * inStrides[perm[i]];
    out[linear] = static_cast<T>(data[src]);
    for (int i = static_cast<int>(rank) - 1; i >= 0; --i) {
      if (++idx[i] < outDims[i])
        break;
      idx[i] = 0;
    }
  }
}

/// Concatenation along `axis` (shapes checked by the caller).
ConstTensor concat(llvm::ArrayRef<const ConstTensor *> parts, int64_t axis);

/// Checks a constant's shape before it is computed (the importer's memory
/// budget, GraphState::checkBudget); none: no check beyond the limits.
using ShapeCheck = llvm::function_ref<llvm::Error(llvm::ArrayRef<int64_t>)>;

/// `fn(values)` element-wise over `inputs` with ONNX's multidirectional
/// broadcasting into `out`, of element type `dtype` (results rounded as
/// castTo does); a failure when the shapes do not broadcast, the result
/// would be too large or `check` refuses its shape (before it is computed).
llvm::Error
broadcastElementwise(llvm::ArrayRef<const ConstTensor *> inputs, int32_t dtype,
                     ConstTensor &out,
                     llvm::function_ref<double(llvm::ArrayRef<double>)> fn,
                     ShapeCheck check = {});

/// `fn(a, b)` element-wise with ONNX broadcasting into `out`, which has
/// `a`'s element type; a failure as broadcastElementwise's.
llvm::Error broadcastBinary(const ConstTensor &a, const ConstTensor &b,
                            ConstTensor &out,
                            llvm::function_ref<double(double, double)> fn,
                            ShapeCheck check = {});

/// `v` as an int64, saturated (INT64_MAX, as ONNX exporters write for "to
/// the end", is not exact in double).
int64_t saturatingInt64(double v);

/// `v` rounded as storing it in `dtype` does (integers truncate and wrap to
/// their width, float32 / float16 / bfloat16 round to nearest even).
double castTo(double v, int32_t dtype);

/// `v` rounded to the nearest float32 value (ties to even; infinite beyond
/// the largest finite value), as a double.
double roundToFloat32(double v);
/// Checks that every value of a double tensor is one float32 can represent
/// (rounded): a finite value beyond float32's range, or a non-zero one that
/// would become 0, is an error whose message follows "<the tensor> "
/// ("holds 1e+300 (element 3), which float32 cannot represent ...").
llvm::Error checkFloat32Range(llvm::ArrayRef<double> data);
/// Integers of at least this magnitude are sentinels: exporters write
/// INT64_MAX, -INT64_MAX or INT64_MIN for "to the end" (Slice, Pad); the
/// importer keeps them approximately (saturatingInt64 gives INT64_MAX /
/// INT64_MIN back), every integer it uses being bounded by kMaxIntValue.
constexpr int64_t kMinSentinel = int64_t(1) << 62;
/// Whether the importer's double holds the int64 `v` exactly, or `v` is a
/// sentinel.
bool heldExactly(int64_t v);
/// Checks heldExactly for every int64 value; the message follows "<the
/// tensor> ".
llvm::Error checkInt64Values(llvm::ArrayRef<int64_t> data);

/// `v` rounded to the nearest float16 / bfloat16 value (ties to even;
/// infinite beyond the largest finite value), as a double.
double roundToFloat16(double v);
double roundToBFloat16(double v);
/// The value of a float16 / bfloat16 bit pattern.
double float16FromBits(uint16_t bits);
double bfloat16FromBits(uint16_t bits);
/// The name of an ONNX element type ("float16"; "unknown" for others).
const char *dataTypeName(int32_t dtype);

/// Decodes `t`; a failure says why it cannot. FLOAT16, BFLOAT16 and DOUBLE
/// tensors decode as FLOAT (their values rounded to float32 where double's
/// are not exact): the importer computes every float type in float32.
llvm::Error decodeTensor(const onnx::TensorProto &t, ConstTensor &out);

/// The attribute `name` of `node`, or null.
const onnx::AttributeProto *findAttr(const onnx::NodeProto &node,
                                     llvm::StringRef name);

} // namespace quantc::onnx_import

#endif // QUANTC_LIB_IMPORT_ONNXTENSOR_H
