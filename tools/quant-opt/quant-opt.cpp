//===- quant-opt.cpp - mlir-opt for the quantization compiler -------------===//
//
// Runs any registered pass or pipeline on .mlir files: the qnt dialect and
// its passes, plus every upstream dialect and pass.
//
//===----------------------------------------------------------------------===//

#include "quantc/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  quantc::registerAllDialects(registry);
  quantc::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "quant-opt: int8 quantization compiler driver\n", registry));
}
