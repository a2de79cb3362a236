//===- FloatOps.cpp - The ops an int8 model computes in float -------------===//
//
// After qnt-quantize, an op that reads a dequantized value or a layer's
// dequantized output (directly or through other such ops; data movement of
// a layer's output does not count) computes in float: a
// float island between a dequantize and a quantize, or the float tail of the
// model after its last dequantize. Constants, the quantize / dequantize /
// storage casts and the return are not computation. A model output is produced
// by the op that computes it: in float from a layer's accumulator, through 8
// bits, or in float.
//
//===----------------------------------------------------------------------===//

#include "quantc/Report/Report.h"

#include "dialects/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

/// A layer's dequantized output: an f32 result of a quantized conv / linear
/// (qnt-float-outputs).
static bool isDequantizedOutput(Operation *op) {
  return isa<qnt::Conv2DOp, qnt::LinearOp>(op) &&
         isa<quant::QuantizedType>(
             cast<ShapedType>(op->getOperand(0).getType()).getElementType()) &&
         cast<ShapedType>(op->getResult(0).getType()).getElementType().isF32();
}

std::vector<quantc::FloatOp> quantc::findFloatOps(Operation *function) {
  std::vector<FloatOp> found;
  // Float values: dequantized ones, and a layer's dequantized output with
  // the data movement after it (which moves exact layer outputs, not a
  // float computation of their own).
  llvm::DenseSet<Value> dequantized, layerOutputs;
  function->walk([&](Operation *op) {
    if (isa<quant::DequantizeCastOp>(op)) {
      dequantized.insert(op->getResult(0));
      return;
    }
    if (isDequantizedOutput(op)) {
      layerOutputs.insert(op->getResult(0));
      return;
    }
    if (isa<quant::QuantizeCastOp, quant::StorageCastOp, func::ReturnOp>(op) ||
        op->hasTrait<OpTrait::ConstantLike>())
      return;
    auto readsAny = [&](const llvm::DenseSet<Value> &set) {
      return llvm::any_of(op->getOperands(),
                          [&](Value v) { return set.contains(v); });
    };
    bool movesLayerOutput =
        (qnt::movesStorage(op) || isa<tosa::ConcatOp>(op)) &&
        readsAny(layerOutputs) && !readsAny(dequantized);
    if (movesLayerOutput) {
      for (Value r : op->getResults())
        layerOutputs.insert(r);
      return;
    }
    if (!readsAny(dequantized) && !readsAny(layerOutputs))
      return;
    for (Value r : op->getResults())
      dequantized.insert(r);
    SmallVector<std::string> names = qnt::getLayerNames(op->getLoc());
    found.push_back({op->getName().getStringRef().str(),
                     names.empty() ? std::string() : names.front()});
  });
  return found;
}

/// Ops an output passes through after the op that computes it: data
/// movement and the model's final function.
static bool passesThrough(Operation *op) {
  if (qnt::movesStorage(op) ||
      isa<tosa::ConcatOp, qnt::ConcatOp, qnt::SoftmaxOp, qnt::LookupOp,
          tosa::ArgMaxOp>(op))
    return true;
  auto unary = dyn_cast<qnt::UnaryOp>(op);
  return unary && unary.getFn() == qnt::UnaryFn::sigmoid;
}

quantc::OutputProduction quantc::describeOutputProduction(Value result) {
  bool dequantized = false;
  Value v = result;
  Operation *def = v.getDefiningOp();
  while (def && (passesThrough(def) || isa<quant::DequantizeCastOp>(def))) {
    dequantized |= isa<quant::DequantizeCastOp>(def);
    v = def->getOperand(0);
    def = v.getDefiningOp();
  }
  if (!def)
    return {"input", "", ""};
  OutputProduction p;
  p.op = def->getName().getStringRef().str();
  SmallVector<std::string> names = qnt::getLayerNames(def->getLoc());
  p.layer = names.empty() ? std::string() : names.front();
  auto isQuantized = [](Value x) {
    return isa<quant::QuantizedType>(
        cast<ShapedType>(x.getType()).getElementType());
  };
  if (dequantized || isQuantized(v))
    p.form = "int8";
  else if (isa<qnt::Conv2DOp, qnt::LinearOp>(def) &&
           isQuantized(def->getOperand(0)))
    p.form = "dequantized_accumulator";
  else
    p.form = "float";
  return p;
}
