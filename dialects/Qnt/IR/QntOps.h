//===- QntOps.h - Operations of the qnt dialect -----------------*- C++ -*-===//

#ifndef QNT_IR_QNTOPS_H
#define QNT_IR_QNTOPS_H

#include "dialects/Qnt/IR/QntAttrs.h"
#include "dialects/Qnt/IR/QntDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "dialects/Qnt/IR/QntOps.h.inc"

#endif // QNT_IR_QNTOPS_H
