//===- Smoothing.h - Activation statistics for SmoothQuant ------*- C++ -*-===//
//
// The data side of SmoothQuant (`quant-compile --smooth-alpha`): the fused
// float model is run on the calibration data and every layer norm gets the
// per-channel max |output| (`qnt.smooth_absmax`), from which qnt-smooth (in
// the prepare stage, before observers) computes the smoothing scales and
// folds them into the layer norm and the layers reading it.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATE_SMOOTHING_H
#define QUANTC_CALIBRATE_SMOOTHING_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include <string>

namespace quantc {

/// Runs the float copy of `module` (function `function`, or the public one;
/// see ValueProbe) on the data files `data`, up to `maxSamples` runs (0:
/// all), and attaches to every `qnt.layer_norm` that normalizes over the
/// last dimension the attribute `qnt.smooth_absmax`: the max |value| of each
/// channel (last-dimension index) of its output over all the data. Returns
/// the number of layer norms measured.
llvm::Expected<int64_t> attachActivationAbsMax(mlir::ModuleOp module,
                                               llvm::StringRef function,
                                               llvm::ArrayRef<std::string> data,
                                               int64_t maxSamples);

} // namespace quantc

#endif // QUANTC_CALIBRATE_SMOOTHING_H
