//===- OpRegistry.h - ONNX op type -> import handler ------------*- C++ -*-===//
//
// Private to lib/Import. Every ONNX op the importer knows is registered
// once, under its op type and the opset version its semantics start at, in
// one of the files of lib/Import/Ops (grouped by category, in the spirit of
// onnx-mlir's OpBuildTable and torch-mlir's `patterns.onOp("Abs", 1, ...)`):
//
//   void registerElementwiseOps(OpRegistry &r) {
//     r.add("Tanh", unary<qnt::UnaryFn::tanh>);
//     r.add("Softmax", softmaxV1);      // opsets 1-12: 2-D coercion
//     r.add("Softmax", softmax, 13);    // 13+: one axis
//   }
//
// The importer picks, for a node in a model of opset v, the handler with
// the largest `since` <= v.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_LIB_IMPORT_OPREGISTRY_H
#define QUANTC_LIB_IMPORT_OPREGISTRY_H

#include "Importer.h"

namespace quantc::onnx_import {

/// Imports one node; errors are emitted through `NodeImporter::emitError`.
using OpHandler = mlir::LogicalResult (*)(NodeImporter &);

class OpRegistry {
public:
  /// Registers `handler` for `opType` from opset `since` on (up to the next
  /// registration of the same op type).
  void add(llvm::StringRef opType, OpHandler handler, int64_t since = 1);
  /// The handler for `opType` at `opset`, or null.
  OpHandler lookup(llvm::StringRef opType, int64_t opset) const;
  /// The registered op types, sorted (for messages and docs).
  std::vector<std::string> opTypes() const;

  /// The registry of every op handler in lib/Import/Ops.
  static const OpRegistry &get();

private:
  llvm::StringMap<llvm::SmallVector<std::pair<int64_t, OpHandler>, 1>> handlers;
};

// One per file of lib/Import/Ops.
void registerConstantOps(OpRegistry &registry);
void registerConvOps(OpRegistry &registry);
void registerElementwiseOps(OpRegistry &registry);
void registerLogicOps(OpRegistry &registry);
void registerMatMulOps(OpRegistry &registry);
void registerNormalizationOps(OpRegistry &registry);
void registerPoolOps(OpRegistry &registry);
void registerQuantOps(OpRegistry &registry);
void registerResizeOps(OpRegistry &registry);
void registerShapeOps(OpRegistry &registry);
/// ONNX Runtime's operator-format (QLinear*, com.microsoft) and integer
/// (ConvInteger, MatMulInteger, DynamicQuantizeLinear) ops; called by
/// registerQuantOps.
void registerQLinearOps(OpRegistry &registry);

/// Runs `handler` on `n`, first adapting inputs it cannot read: an 8-bit
/// value (a QuantizeLinear or QLinear op's output) into an op that moves
/// or selects values (MaxPool, Reshape, Transpose, ...: ONNX Runtime's
/// operator format runs them on uint8 / int8 tensors) is dequantized and
/// the op's outputs quantized with the same parameters; an integer value
/// (IntegerValue) is read by the Cast and Mul that turn it into float.
mlir::LogicalResult importWithIntegerInputs(NodeImporter &n, OpHandler handler);

} // namespace quantc::onnx_import

#endif // QUANTC_LIB_IMPORT_OPREGISTRY_H
