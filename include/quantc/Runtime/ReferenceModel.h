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

#include "quantc/Runtime/Samples.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <vector>

namespace quantc {

class ReferenceModel {
public:
  /// Checks that every op of `function` (default: the public one) has a
  /// reference implementation; the function takes and returns f32 tensors
  /// (quantize and dequantize happen inside). `module` must outlive the
  /// model.
  static llvm::Expected<std::unique_ptr<ReferenceModel>>
  create(mlir::ModuleOp module, llvm::StringRef function);

  /// The inputs and outputs (names and shapes).
  const ModelSignature &signature() const { return interface; }
  const std::vector<ModelTensor> &inputs() const { return interface.inputs; }
  const std::vector<ModelTensor> &outputs() const { return interface.outputs; }

  /// Runs the model on `ins[i]` (inputs()[i].numElements() floats each)
  /// into `outs[i]`, result i (one buffer per result; null: not wanted).
  llvm::Error run(llvm::ArrayRef<const float *> ins,
                  llvm::ArrayRef<float *> outs) const;

private:
  ReferenceModel() = default;
  mlir::Operation *function = nullptr;
  ModelSignature interface;
};

} // namespace quantc

#endif // QUANTC_CALIBRATE_REFERENCEMODEL_H
