//===- OnnxImporter.h - ONNX model to the float TOSA graph ------*- C++ -*-===//
//
// Translates an ONNX model (opsets 9-17, static shapes) into the float form
// the rest of quantc consumes: one func.func named after the graph whose
// arguments and results keep ONNX's layout (NCHW, f32) and whose body works
// in NHWC (TOSA ops, qnt.batch_norm, float qnt.conv2d for grouped convs,
// qnt.fake_quant for QuantizeLinear/DequantizeLinear pairs). Every op carries
// a NameLoc with the ONNX node name.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_IMPORT_ONNXIMPORTER_H
#define QUANTC_IMPORT_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace quantc {

/// Options of the ONNX import.
struct OnnxImportOptions {
  /// Batch size substituted for a symbolic (dim_param) first dimension of
  /// the graph inputs and for a static batch of 1 (a model exported at
  /// batch 1; a Reshape to a constant shape with that 1 in front follows);
  /// 0: symbolic dimensions are an error. Another static batch is an error.
  int64_t batch = 0;
};

/// Imports the serialized ONNX model `bytes`. On failure returns null after
/// emitting an error diagnostic: at the node's location (a NameLoc with the
/// node name) for node errors, whose message starts with
/// "node '<name>' (<op type>): ", at an unknown location for graph-level
/// errors.
mlir::OwningOpRef<mlir::ModuleOp> importOnnx(llvm::StringRef bytes,
                                             mlir::MLIRContext &context,
                                             const OnnxImportOptions &options);

/// As above, with the first error (and its notes) returned in `error`
/// instead of reaching the context's diagnostic handlers: for drivers that
/// print it in their own format.
mlir::OwningOpRef<mlir::ModuleOp> importOnnx(llvm::StringRef bytes,
                                             mlir::MLIRContext &context,
                                             const OnnxImportOptions &options,
                                             std::string &error);

/// Registers the dialects the imported IR uses (func, tosa, quant, qnt).
void registerOnnxImportDialects(mlir::MLIRContext &context);

} // namespace quantc

#endif // QUANTC_IMPORT_ONNXIMPORTER_H
