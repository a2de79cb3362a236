//===- QntDialect.cpp - The qnt dialect -----------------------------------===//

#include "dialects/Qnt/IR/QntDialect.h"
#include "dialects/Qnt/IR/QntAttrs.h"
#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantizableTosaOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::qnt;

#include "dialects/Qnt/IR/QntOpsDialect.cpp.inc"

void QntDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialects/Qnt/IR/QntOps.cpp.inc"
      >();
  attachQuantizableTosaModels(*getContext());
}
