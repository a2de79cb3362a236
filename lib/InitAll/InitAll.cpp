//===- InitAll.cpp - Register everything the tools need -------------------===//

#include "quantc/InitAll.h"

#include "dialects/Qnt/IR/QntDialect.h"
#include "dialects/Qnt/Transforms/Passes.h"
#include "quantc/Conversion/Passes.h"
#include "quantc/Pipelines/Pipelines.h"
#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/AMX/Transforms.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

void quantc::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::qnt::QntDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // The amx-int8 kernels' tiles (!amx.tile) in convert-to-llvm's block
  // arguments.
  mlir::registerConvertAMXToLLVMInterface(registry);
}

void quantc::registerAllPasses() {
  mlir::registerAllPasses();
  mlir::qnt::registerQntPasses();
  quantc::registerQuantcConversionPasses();
  quantc::registerQuantcTransformsPasses();
  quantc::registerPipelines();
}
