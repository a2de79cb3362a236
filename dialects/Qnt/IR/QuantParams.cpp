//===- QuantParams.cpp - One vocabulary for quantization parameters -------===//
//
// Reads !quant.uniform types into QuantParams and maps qnt's activation enum
// to the reference's, checked case by case.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QuantParams.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/ErrorHandling.h"

#include <cfloat>

using namespace mlir;
using namespace mlir::qnt;

bool QuantParams::fullRange() const {
  int64_t lo = isSigned ? -(int64_t(1) << (storageWidth - 1)) : 0;
  int64_t hi = isSigned ? (int64_t(1) << (storageWidth - 1)) - 1
                        : (int64_t(1) << storageWidth) - 1;
  return qmin == lo && qmax == hi;
}

quantc::ref::QTensor QuantParams::refView() const {
  quantc::ref::QTensor t;
  t.isSigned = isSigned;
  t.scale = scale();
  t.zeroPoint = zeroPoint();
  t.qmin = qmin;
  t.qmax = qmax;
  return t;
}

std::optional<QuantParams> mlir::qnt::quantParams(Type type) {
  auto q = dyn_cast<quant::QuantizedType>(getElementTypeOrSelf(type));
  if (!q)
    return std::nullopt;
  QuantParams p;
  p.qmin = static_cast<int32_t>(q.getStorageTypeMin());
  p.qmax = static_cast<int32_t>(q.getStorageTypeMax());
  p.storageWidth = q.getStorageTypeIntegralWidth();
  p.isSigned = q.isSigned();
  if (auto t = dyn_cast<quant::UniformQuantizedType>(q)) {
    p.scales = {t.getScale()};
    p.zeroPoints = {t.getZeroPoint()};
    return p;
  }
  auto t = dyn_cast<quant::UniformQuantizedPerAxisType>(q);
  if (!t)
    return std::nullopt;
  p.scales.assign(t.getScales().begin(), t.getScales().end());
  p.zeroPoints.assign(t.getZeroPoints().begin(), t.getZeroPoints().end());
  p.axis = t.getQuantizedDimension();
  return p;
}

quantc::ref::Activation mlir::qnt::refActivation(Activation activation) {
  using quantc::ref::Activation;
  switch (activation) {
  case qnt::Activation::none:
    return Activation::None;
  case qnt::Activation::relu:
    return Activation::Relu;
  case qnt::Activation::relu6:
    return Activation::Relu6;
  case qnt::Activation::clamp:
    return Activation::Clamp;
  }
  llvm_unreachable("unknown qnt::Activation");
}

std::pair<float, float>
mlir::qnt::floatActivationBounds(Activation activation,
                                 std::optional<APFloat> clampMin,
                                 std::optional<APFloat> clampMax) {
  switch (activation) {
  case qnt::Activation::none:
    break;
  case qnt::Activation::relu:
    return {0.0f, FLT_MAX};
  case qnt::Activation::relu6:
    return {0.0f, 6.0f};
  case qnt::Activation::clamp:
    return {clampMin->convertToFloat(), clampMax->convertToFloat()};
  }
  return {-FLT_MAX, FLT_MAX};
}
