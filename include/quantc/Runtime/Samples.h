//===- Samples.h - Model inputs read from .npy / .npz files -----*- C++ -*-===//
//
// The data the tools run a model on (calibration, the report, quant-run):
// for a model with one input, float32 .npy files of samples stacked along
// the first dimension; for any model, .npz archives with one such array per
// input, keyed by the input's name. One place matches files to inputs, so
// every tool accepts the same data and says the same thing about bad data.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATE_SAMPLES_H
#define QUANTC_CALIBRATE_SAMPLES_H

#include "quantc/Runtime/Npy.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace quantc {

/// A tensor of a model's interface: float32, or for an output an integer
/// type (ArgMax indices; see kOutputDtypesAttr).
struct ModelTensor {
  /// The name a user knows it by (the ONNX graph's): `quantc.input_names`
  /// (else the argument's location name) for an input, `quantc.output_names`
  /// for an output; "" when the model does not say.
  std::string name;
  std::vector<int64_t> shape;
  /// The NumPy dtype name: "float32", or for an output "int64", "int32",
  /// "int16", "int8", "uint64", "uint32", "uint16", "uint8" or "bool".
  std::string dtype = "float32";
  int64_t numElements() const;
  bool isFloat() const { return dtype == "float32"; }
  /// Bytes per element (bool: 1).
  int64_t elementBytes() const;
};

/// The inputs and results of a model function: statically shaped f32
/// tensors, and results of integer element types i8 / i16 / i32 / i64 (the
/// error says which is not). A result's dtype is kOutputDtypesAttr's entry,
/// else float32 or intN by its element type.
struct ModelSignature {
  std::vector<ModelTensor> inputs, outputs;
};
llvm::Expected<ModelSignature> modelSignature(mlir::Operation *function);

/// The function named `name`, or the module's only public function.
llvm::Expected<mlir::Operation *> findModelFunction(mlir::ModuleOp module,
                                                    llvm::StringRef name);

/// The samples of one data file for every input of a model.
struct ModelSamples {
  /// The file, for messages and profiles.
  std::string source;
  /// One array per model input, in input order.
  std::vector<NpyArray> inputs;
  /// Runs of the model the data holds (samples / the compiled batch).
  int64_t runs = 0;
  /// The inputs of run `r`, one pointer per model input.
  std::vector<const float *> run(int64_t r) const;
};

/// Reads the samples of `file` for a model with `inputs`:
/// - a .npy file, for a model with one input;
/// - a .npz archive (numpy.savez / savez_compressed) with one array per
///   input, keyed by the input's name; `arr_<i>` (numpy.savez's positional
///   names) and `input<i>` also name input i, and a one-input model takes
///   an archive's only array whatever its name.
/// Every array holds N runs' inputs stacked along the first dimension (for a
/// batch of 1, one input may omit it), the same N for every input; NaN or
/// Inf values and empty arrays are errors.
llvm::Expected<ModelSamples>
readModelSamples(llvm::StringRef file, llvm::ArrayRef<ModelTensor> inputs);

/// The data files of a --data argument: the file itself, or a directory's
/// .npy and .npz files in name order (an empty directory is an error).
llvm::Expected<std::vector<std::string>>
expandSampleFiles(llvm::StringRef path);

/// Reads every file of the --data arguments `paths` in order and calls
/// `body` with its samples; `body` sets `stop` to read no further.
llvm::Error forEachSampleFile(
    llvm::ArrayRef<std::string> paths, llvm::ArrayRef<ModelTensor> inputs,
    llvm::function_ref<llvm::Error(const ModelSamples &, bool &stop)> body);

} // namespace quantc

#endif // QUANTC_CALIBRATE_SAMPLES_H
