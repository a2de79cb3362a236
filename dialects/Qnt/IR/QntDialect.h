//===- QntDialect.h - The qnt dialect ---------------------------*- C++ -*-===//
//
// Declares the qnt dialect: observers, fake quantization, batch norm and
// quantized kernels over upstream !quant.uniform types.
//
//===----------------------------------------------------------------------===//

#ifndef QNT_IR_QNTDIALECT_H
#define QNT_IR_QNTDIALECT_H

#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Dialect.h"

#include "dialects/Qnt/IR/QntOpsDialect.h.inc"

#endif // QNT_IR_QNTDIALECT_H
