//===- FloatOutputs.cpp - Model outputs produced in float by their layer --===//
//
// A model output that a layer with weights computes, reached through data
// movement only (or through a softmax / sigmoid / argmax that ends the
// model), should never pass through an 8-bit tensor: a detector's score
// logits span thousands on one side and a few units on the other, and one
// per-tensor scale keeps none of what decides the detection. The pass
// removes the observers' fake_quants between such a layer and the return and
// marks the layer `qnt.float_output`; qnt-quantize then builds the layer's
// dequantized-output form (the int32 accumulator times input_scale *
// weight_scale[o]).
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantizeUtils.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTFLOATOUTPUTS
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {

/// What lies between one model output and the layers that compute it.
struct OutputChain {
  /// Every op on the way (fake_quants, data movement, the final function,
  /// a linear layer's bias add and clamp), the layers included.
  llvm::SetVector<Operation *> ops;
  /// The observers' fake_quants on the way, removed when the chain holds.
  SmallVector<FakeQuantOp> fakeQuants;
  /// The layers that compute the output.
  SmallVector<Operation *> layers;
};

/// A weight `[1, K, N]` constant: the B operand of a linear layer's matmul.
bool isLinearWeight(Value b) {
  auto type = cast<ShapedType>(b.getType());
  return type.getRank() == 3 && type.getDimSize(0) == 1 &&
         (matchPattern(b, m_Constant()) || b.getDefiningOp<FakeQuantOp>());
}

/// The final functions an output may pass through: they map each layer
/// output to the model's answer (probabilities, a class index).
bool isFinalFunction(Operation *op) {
  if (auto unary = dyn_cast<UnaryOp>(op))
    return unary.getFn() == UnaryFn::sigmoid;
  return isa<SoftmaxOp, tosa::ArgMaxOp>(op);
}

class ChainWalker {
public:
  explicit ChainWalker(OutputChain &chain) : chain(chain) {}

  /// Whether every branch from `v` back ends at a layer or a constant.
  bool walk(Value v) {
    if (matchPattern(v, m_Constant()))
      return true;
    Operation *def = v.getDefiningOp();
    if (!def)
      return false; // a model input returned through data movement
    if (chain.ops.contains(def))
      return true;
    if (auto fq = dyn_cast<FakeQuantOp>(def)) {
      // Only an observer's parameters (range_min): a QDQ model's output
      // quantization is the model's own.
      if (!fq.getRangeMinAttr() || matchPattern(fq.getInput(), m_Constant()))
        return false;
      chain.ops.insert(fq);
      chain.fakeQuants.push_back(fq);
      return walk(fq.getInput());
    }
    if (auto conv = dyn_cast<Conv2DOp>(def)) {
      if (conv.isQuantized() || conv.getResidual())
        return false;
      chain.ops.insert(conv);
      chain.layers.push_back(conv);
      return true;
    }
    if (walkLinear(def))
      return true;
    if (!movesStorage(def) && !isa<tosa::ConcatOp>(def) &&
        !isFinalFunction(def))
      return false;
    chain.ops.insert(def);
    return llvm::all_of(def->getOperands(),
                        [&](Value operand) { return walk(operand); });
  }

private:
  /// A linear layer ending at `def`: [clamp of] [add of a constant bias to]
  /// a matmul of an activation and a [1, K, N] weight.
  bool walkLinear(Operation *def) {
    SmallVector<Operation *> tail;
    Operation *cur = def;
    if (fusedClamp(cur)) {
      tail.push_back(cur);
      cur = cur->getOperand(0).getDefiningOp();
    }
    if (auto add = dyn_cast_or_null<tosa::AddOp>(cur)) {
      Value other;
      if (matchPattern(add.getInput2(), m_Constant()))
        other = add.getInput1();
      else if (matchPattern(add.getInput1(), m_Constant()))
        other = add.getInput2();
      if (!other)
        return false;
      tail.push_back(add);
      cur = other.getDefiningOp();
    }
    auto matmul = dyn_cast_or_null<tosa::MatMulOp>(cur);
    if (!matmul || !isLinearWeight(matmul.getB()))
      return false;
    chain.ops.insert(tail.begin(), tail.end());
    chain.ops.insert(matmul);
    chain.layers.push_back(matmul);
    return true;
  }

  OutputChain &chain;
};

/// Whether every reader of every value on the chain is on the chain or the
/// return: nothing else may see the float values.
bool isClosed(const OutputChain &chain) {
  for (Operation *op : chain.ops)
    for (Operation *user : op->getUsers())
      if (!chain.ops.contains(user) && !isa<func::ReturnOp>(user))
        return false;
  // A layer's own operands (its weight fake_quant) stay as they are; its
  // input must not be on the chain.
  return llvm::none_of(chain.layers, [&](Operation *layer) {
    Operation *in = layer->getOperand(0).getDefiningOp();
    return in && chain.ops.contains(in);
  });
}

struct QntFloatOutputsPass
    : public mlir::qnt::impl::QntFloatOutputsBase<QntFloatOutputsPass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    SmallVector<func::ReturnOp> returns(fn.getOps<func::ReturnOp>());
    for (func::ReturnOp ret : returns)
      for (Value result : ret.getOperands()) {
        OutputChain chain;
        ChainWalker walker(chain);
        if (!walker.walk(result) || chain.layers.empty() || !isClosed(chain))
          continue;
        for (FakeQuantOp fq : chain.fakeQuants) {
          fq.replaceAllUsesWith(fq.getInput());
          fq.erase();
        }
        for (Operation *layer : chain.layers) {
          if (layer->hasAttr(kFloatOutputAttr))
            continue;
          layer->setAttr(kFloatOutputAttr, UnitAttr::get(&getContext()));
          layer->emitRemark()
              << "model output produced in float by this layer (int8 input "
                 "and weights, the int32 accumulator dequantized)";
        }
      }
  }
};

} // namespace
