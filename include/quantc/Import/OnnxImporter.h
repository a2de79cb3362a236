//===- OnnxImporter.h - ONNX model to the float TOSA graph ------*- C++ -*-===//
//
// Translates an ONNX model (static shapes, or free dimensions fixed by
// OnnxImportOptions) into the float form
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
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace quantc {

/// The shape one graph input is compiled for (--input-shape).
struct InputShape {
  /// The graph input's name; empty: the model's only input.
  std::string name;
  llvm::SmallVector<int64_t> dims;
};

/// Options of the ONNX import.
struct OnnxImportOptions {
  /// Batch size substituted for a symbolic (dim_param) first dimension of
  /// the graph inputs and for a static batch of 1 (a model exported at
  /// batch 1; a Reshape to a constant shape with that 1 in front follows);
  /// 0: symbolic dimensions are an error. Another static batch is an error.
  /// Applies to the inputs that `inputShapes` does not name.
  int64_t batch = 0;
  /// Whole shapes of graph inputs: each fixes every free dimension
  /// (dim_param, or no dim_value) of its input; a static dimension it
  /// contradicts, an unknown input name, a rank other than the input's or a
  /// first dimension other than a non-zero `batch` is an error. Shape
  /// sub-graphs (Shape -> Gather / Slice -> Concat -> Reshape / Resize ...)
  /// then fold for these shapes.
  std::vector<InputShape> inputShapes;
};

/// What --input-shape accepts, for the tools' help texts.
extern const char *const kInputShapeHelp;

/// Parses one --input-shape value, "NAME=1x3x640x640" or "1x3x640x640"
/// (the name split off at the last '='; dimensions positive integers
/// separated by 'x' or ','), and appends it to `options.inputShapes`; an
/// error names the value and what is wrong (syntax, a zero or negative
/// dimension, too many elements, an input named twice).
llvm::Error parseInputShape(llvm::StringRef spec, OnnxImportOptions &options);
/// parseInputShape for each of `specs`.
llvm::Error parseInputShapes(llvm::ArrayRef<std::string> specs,
                             OnnxImportOptions &options);

/// Imports the serialized ONNX model `bytes`. On failure returns null after
/// emitting an error diagnostic: at the node's location (a NameLoc with the
/// node name) for node errors, whose message starts with
/// "node '<name>' (<op type>): ", at an unknown location for graph-level
/// errors.
mlir::OwningOpRef<mlir::ModuleOp> importOnnx(llvm::StringRef bytes,
                                             mlir::MLIRContext &context,
                                             const OnnxImportOptions &options);

/// As above, with the first error (and its notes) returned as an
/// llvm::Error instead of reaching the context's diagnostic handlers (which
/// still see remarks and warnings): for drivers that print it in their own
/// format.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importOnnxOrError(llvm::StringRef bytes, mlir::MLIRContext &context,
                  const OnnxImportOptions &options);

/// Reads the file `path` and imports it as importOnnxOrError does; the
/// error says what failed ("cannot read ...", or "'<path>': " and the
/// import's first error).
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importOnnxFile(llvm::StringRef path, mlir::MLIRContext &context,
               const OnnxImportOptions &options);

/// The opsets of the default ONNX domain the importer accepts: [first, last].
std::pair<int64_t, int64_t> onnxOpsetRange();

/// An ONNX op type the importer has handlers for, and the opsets at which
/// its handlers begin (ascending; a handler holds up to the next one).
struct OnnxImportedOp {
  std::string opType;
  std::vector<int64_t> since;
};

/// Every ONNX op type the importer handles, sorted by name (for docs and
/// the conformance runner).
std::vector<OnnxImportedOp> onnxImportedOps();

/// The opsets of the default domain at which an op whose handlers begin at
/// `since` (OnnxImportedOp::since) is imported, clipped to onnxOpsetRange:
/// "7-12, 13-21" (one range per handler), "-" for none.
std::string onnxOpsetsText(llvm::ArrayRef<int64_t> since);

/// Registers the dialects the imported IR uses (func, tosa, quant, qnt).
void registerOnnxImportDialects(mlir::MLIRContext &context);

} // namespace quantc

#endif // QUANTC_IMPORT_ONNXIMPORTER_H
