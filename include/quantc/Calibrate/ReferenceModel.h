//===- ReferenceModel.h - Run quantized IR with the int8 reference -*- C++ -*-//
//
// Evaluates a quantized model (the output of qnt-quantize) op by op with the
// int8 reference (quantc::ref): the oracle generated code must match bit for
// bit, and a way to measure int8 accuracy independently of code generation.
// It is a test oracle, not an execution engine: plain loops, no speed.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATE_REFERENCEMODEL_H
#define QUANTC_CALIBRATE_REFERENCEMODEL_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <vector>

namespace quantc {

class ReferenceModel {
public:
  /// Checks that every op of `function` (default: the public one) has a
  /// reference implementation; the function takes one f32 tensor and returns
  /// f32 tensors (quantize and dequantize happen inside). `module` must
  /// outlive the model.
  static llvm::Expected<std::unique_ptr<ReferenceModel>>
  create(mlir::ModuleOp module, llvm::StringRef function);

  const std::vector<int64_t> &inputShape() const { return input; }
  /// The shape of the first result / of every result.
  const std::vector<int64_t> &outputShape() const { return outputs.front(); }
  const std::vector<std::vector<int64_t>> &outputShapes() const {
    return outputs;
  }

  /// Runs one input (product of inputShape() floats) into `out`, the first
  /// result.
  llvm::Error run(const float *in, float *out) const;
  /// Runs one input into `outs[i]`, result i (one buffer per result).
  llvm::Error run(const float *in, llvm::ArrayRef<float *> outs) const;

private:
  ReferenceModel() = default;
  mlir::Operation *function = nullptr;
  std::vector<int64_t> input;
  std::vector<std::vector<int64_t>> outputs;
};

} // namespace quantc

#endif // QUANTC_CALIBRATE_REFERENCEMODEL_H
