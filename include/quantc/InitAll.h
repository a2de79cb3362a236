//===- InitAll.h - Register everything the tools need -----------*- C++ -*-===//
//
// One place that lists the dialects, interfaces and passes our tools load, so
// that quant-opt, quant-compile and the tests agree. What else the tools
// share (errors, model loading, output files) is quantc/Tools/ToolSupport.h.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_INITALL_H
#define QUANTC_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace quantc {
/// Adds the qnt dialect and every upstream dialect, with their interface
/// implementations (bufferization, LLVM translation, ...), to `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);
/// Registers the qnt passes, our pipelines and every upstream pass.
void registerAllPasses();
} // namespace quantc

#endif // QUANTC_INITALL_H
