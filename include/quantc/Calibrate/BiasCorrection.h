//===- BiasCorrection.h - Input statistics for bias correction --*- C++ -*-===//
//
// The data side of empirical bias correction (`quant-compile
// --bias-correction`): the float model is run on the calibration data and
// each conv / linear layer with an observed weight gets the means of the
// input values its filter taps read (`qnt.input_mean`), from which
// qnt-correct-bias (in the quantize stage) computes the output shift that
// weight quantization causes and folds it into the bias.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATE_BIASCORRECTION_H
#define QUANTC_CALIBRATE_BIASCORRECTION_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace quantc {

/// Runs the float copy of `module` (function `function`, or the public one;
/// observers removed, see ValueProbe) on the data files `data`, up to
/// `maxSamples` runs (0: all), and attaches to every float `qnt.conv2d` and
/// linear `tosa.matmul` (constant [1, K, N] weight) whose weight is a
/// `qnt.observe` of a constant the attribute `qnt.input_mean`: for a
/// convolution, `m[kh, kw, c]` (row-major), the mean over every sample and
/// output position of the input value that filter tap (kh, kw) reads for
/// channel c, 0 where it reads padding; for a linear layer, the mean input
/// row. Returns the number of layers measured.
llvm::Expected<int64_t> attachInputMeans(mlir::ModuleOp module,
                                         llvm::StringRef function,
                                         llvm::ArrayRef<std::string> data,
                                         int64_t maxSamples);

} // namespace quantc

#endif // QUANTC_CALIBRATE_BIASCORRECTION_H
