//===- FloatOps.cpp - The ops an int8 model computes in float -------------===//
//
// After qnt-quantize, an op that reads a dequantized value (directly or
// through other such ops) computes in float: a float island between a
// dequantize and a quantize, or the float tail of the model after its last
// dequantize. Constants, the quantize / dequantize / storage casts and the
// return are not computation.
//
//===----------------------------------------------------------------------===//

#include "quantc/Report/Report.h"

#include "dialects/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

std::vector<quantc::FloatOp> quantc::findFloatOps(Operation *function) {
  std::vector<FloatOp> found;
  llvm::DenseSet<Value> dequantized;
  function->walk([&](Operation *op) {
    if (isa<quant::DequantizeCastOp>(op)) {
      dequantized.insert(op->getResult(0));
      return;
    }
    if (isa<quant::QuantizeCastOp, quant::StorageCastOp, func::ReturnOp>(op) ||
        op->hasTrait<OpTrait::ConstantLike>())
      return;
    if (llvm::none_of(op->getOperands(),
                      [&](Value v) { return dequantized.contains(v); }))
      return;
    for (Value r : op->getResults())
      dequantized.insert(r);
    SmallVector<std::string> names = qnt::getLayerNames(op->getLoc());
    found.push_back({op->getName().getStringRef().str(),
                     names.empty() ? std::string() : names.front()});
  });
  return found;
}
