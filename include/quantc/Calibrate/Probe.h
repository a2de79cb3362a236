//===- Probe.h - A compiled float model returning chosen values -*- C++ -*-===//
//
// The measuring tools (the per-layer report, bias correction, the calibrator
// per tensor, the accuracy budget) run a copy of the model that returns some
// of its intermediate values besides its results, on the calibration or
// validation data. ValueProbe is that copy, compiled with the float pipeline
// (JIT, the host's vector width); forEachSample feeds it the data as
// calibration splits it.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATE_PROBE_H
#define QUANTC_CALIBRATE_PROBE_H

#include "quantc/Runtime/CompiledModel.h"
#include "quantc/Runtime/Samples.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace quantc {

/// Makes `fn` return `values` too; returns the result index of each. A value
/// is returned once (a value returned twice does not bufferize into output
/// buffers).
std::vector<int64_t> returnAlso(mlir::func::FuncOp fn,
                                llvm::ArrayRef<mlir::Value> values);

/// Removes every qnt.observe and every qnt.fake_quant of a non-constant
/// (activations with fixed parameters) from `module`: the float model.
void removeActivationQuantization(mlir::ModuleOp module);

/// Calls `body` with the inputs of every run of the data files `data`
/// (.npy / .npz files or directories of them, read for `inputs`), split as
/// the calibrator splits them, up to `maxSamples` runs (0: all). With
/// `sources`, the name of each data file is appended to it.
llvm::Error forEachSample(
    llvm::ArrayRef<std::string> data, int64_t maxSamples,
    llvm::ArrayRef<ModelTensor> inputs, std::vector<std::string> *sources,
    llvm::function_ref<llvm::Error(llvm::ArrayRef<const float *>)> body);

/// A compiled float copy of a model that returns chosen values of it too.
class ValueProbe {
public:
  /// Picks the values to return in the copy's model function (and may
  /// change the copy, e.g. add operands to it); an error stops.
  using Select =
      llvm::function_ref<llvm::Expected<llvm::SmallVector<mlir::Value>>(
          mlir::func::FuncOp)>;

  /// Clones `module`, removes its activation quantization
  /// (removeActivationQuantization) unless `keepQuantization`, calls
  /// `select` on the clone's function `function` (default: the public one)
  /// and compiles it. `module` is not modified; its context must outlive
  /// the probe.
  static llvm::Expected<std::unique_ptr<ValueProbe>>
  create(mlir::ModuleOp module, llvm::StringRef function, Select select,
         bool keepQuantization = false);

  /// The model's inputs (and any the select function added).
  const std::vector<ModelTensor> &inputs() const { return model->inputs(); }
  /// The copy's results: the model's own, then the chosen values.
  const std::vector<ModelTensor> &outputs() const { return model->outputs(); }
  /// Runs the copy on `inputs` (inputs()[i].numElements() floats each).
  llvm::Error run(llvm::ArrayRef<const float *> inputs);

  /// After run: the number of chosen values, chosen value `i` (row-major
  /// float32; an integer value converted to float) and its shape.
  size_t numValues() const { return source.size(); }
  llvm::ArrayRef<float> value(size_t i) const;
  const std::vector<int64_t> &shape(size_t i) const;
  /// After run: the model's own results (those it had before `select`).
  size_t numResults() const { return modelResults; }
  llvm::ArrayRef<float> result(size_t j) const { return buffers[j]; }

private:
  ValueProbe() = default;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<CompiledModel> model;
  size_t modelResults = 0;
  /// Per chosen value: its result index, or -1 - i for model input i (a
  /// returned argument would not bufferize into an output buffer).
  std::vector<int64_t> source;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<std::vector<float>> buffers;
  std::vector<float *> pointers;
  std::vector<const float *> lastInputs;
};

} // namespace quantc

#endif // QUANTC_CALIBRATE_PROBE_H
