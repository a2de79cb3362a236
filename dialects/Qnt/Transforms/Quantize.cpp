//===- Quantize.cpp - Float model with fake_quant to quantized ops --------===//
//
// QDQ form first (fake_quant -> qcast + dcast, weights quantized now), then
// each float op between dcasts and a qcast becomes its quantized form, then
// qcast(dcast(x)) pairs cancel. How an op quantizes is its own
// QuantizableOpInterface::quantize (the qnt ops' in dialects/Qnt/IR/
// Quantize<Op>.cpp, the TOSA ops' attached by QuantizableTosaOps.cpp); this
// pass names no op it converts. All arithmetic on numbers (weight and bias
// quantization, requantization multipliers) is the int8 reference's.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantParams.h"
#include "dialects/Qnt/IR/QuantizeUtils.h"
#include "dialects/Qnt/Transforms/Passes.h"
#include "quantc/Reference/Requantize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTQUANTIZE
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {

/// Records the ops a conversion erases besides its own (a clamp, bias add or
/// reshape it absorbs), so that the pass does not visit them afterwards.
struct ErasedOps : RewriterBase::Listener {
  void notifyOperationErased(Operation *op) override { erased.insert(op); }
  llvm::DenseSet<Operation *> erased;
};

struct QntQuantizePass
    : public mlir::qnt::impl::QntQuantizeBase<QntQuantizePass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Excluded by op name, by any name of the (fused) layer's location, or
  /// by the name of the observer of its output (which survives printing
  /// IR without debug info).
  bool isExcluded(Operation *op) const {
    return floatDataMovement.contains(op) || isExcludedLayer(op, excluded);
  }
  void excludeDataMovementAfterExcluded();
  LogicalResult toQDQ(FakeQuantOp op);
  void fuseQuantizedRelu();
  void dropQuantizationBetweenFloatLayers();
  void cleanup();

  llvm::StringSet<> excluded;
  /// Data movement that only reads layers kept in float (and constants).
  llvm::DenseSet<Operation *> floatDataMovement;
};

/// `--exclude NAME` keeps the data movement after NAME in float too: an op
/// that only moves values (movesStorage: reshape, transpose, slice, ...;
/// concat) and whose every activation operand comes, through fake_quants,
/// from an excluded op stays float, in program order, so a layer excluded
/// to keep a model output in float reaches it without an 8-bit tensor.
void QntQuantizePass::excludeDataMovementAfterExcluded() {
  floatDataMovement.clear();
  if (excluded.empty())
    return;
  getOperation().walk([&](Operation *op) {
    if (!movesStorage(op) && !isa<tosa::ConcatOp>(op))
      return;
    bool readsActivation = false;
    for (Value v : op->getOperands()) {
      if (matchPattern(v, m_Constant()))
        continue;
      Operation *def = v.getDefiningOp();
      while (auto fq = dyn_cast_or_null<FakeQuantOp>(def))
        def = fq.getInput().getDefiningOp();
      if (!def || !isExcluded(def))
        return;
      readsActivation = true;
    }
    if (readsActivation)
      floatDataMovement.insert(op);
  });
}

LogicalResult QntQuantizePass::toQDQ(FakeQuantOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto floatType = op.getInput().getType();
  auto qType = RankedTensorType::get(floatType.getShape(), op.getQtype());
  Value q;
  if (std::optional<SmallVector<float>> w = floatConstant(op.getInput())) {
    // A weight: quantize it now, exactly as the reference quantizes.
    q = makeQuantizedConstant(
        b, loc, qType,
        quantizeValues(*w, floatType.getShape(), *quantParams(op.getQtype())));
  } else {
    q = quant::QuantizeCastOp::create(b, loc, qType, op.getInput());
  }
  // Keep the FP32 range and the observer's name next to the quantized type.
  Operation *def = q.getDefiningOp();
  if (op.getRangeMinAttr()) {
    def->setAttr("qnt.range_min", op.getRangeMinAttr());
    def->setAttr("qnt.range_max", op.getRangeMaxAttr());
  }
  if (op.getNameAttr())
    def->setAttr("qnt.name", op.getNameAttr());
  Value d = quant::DequantizeCastOp::create(b, loc, floatType, q);
  op.replaceAllUsesWith(d);
  op.erase();
  return success();
}

/// A relu between two quantized tensors (PyTorch's FX export quantizes a
/// conv's output, dequantizes it, applies relu and quantizes again): relu
/// of `dequantize(q)` is `dequantize(max(q, zp))` exactly, which is the
/// producer's fused relu; the dcast -> qcast left behind becomes a
/// requantization (or nothing) in cleanup. Other clamps stay float: their
/// bounds need not lie on the producer's grid.
void QntQuantizePass::fuseQuantizedRelu() {
  SmallVector<tosa::ClampOp> clamps;
  getOperation().walk([&](tosa::ClampOp op) { clamps.push_back(op); });
  for (tosa::ClampOp clamp : clamps) {
    if (!isRelu(clamp) || isExcluded(clamp) ||
        !quantizedSink(clamp.getResult()))
      continue;
    auto dc = clamp.getInput().getDefiningOp<quant::DequantizeCastOp>();
    if (!dc || !dc->hasOneUse() || !dc.getInput().hasOneUse())
      continue;
    Operation *producer = dc.getInput().getDefiningOp();
    if (!isa_and_present<Conv2DOp, LinearOp, AddOp>(producer))
      continue;
    auto act = producer->getAttrOfType<ActivationAttr>("activation");
    if (act && act.getValue() != Activation::none)
      continue;
    producer->setAttr("activation",
                      ActivationAttr::get(&getContext(), Activation::relu));
    producer->setLoc(
        FusedLoc::get(&getContext(), {clamp.getLoc(), producer->getLoc()}));
    clamp.replaceAllUsesWith(dc.getResult());
    clamp.erase();
  }
}

/// An activation whose every reader is an excluded layer (or, for a
/// result of an excluded layer, the function's return) stays float: the
/// quantize-dequantize between two layers kept in float is dropped, as
/// PyTorch quantizes only the inputs of quantized modules. Readers without
/// an int8 form that are not excluded (a float softmax tail) still read the
/// quantized value, as before.
void QntQuantizePass::dropQuantizationBetweenFloatLayers() {
  if (excluded.empty())
    return;
  SmallVector<quant::QuantizeCastOp> qcasts;
  getOperation().walk([&](quant::QuantizeCastOp op) { qcasts.push_back(op); });
  for (quant::QuantizeCastOp qc : qcasts) {
    Operation *producer = qc.getInput().getDefiningOp();
    bool producerExcluded = producer && isExcluded(producer);
    bool floatReaders =
        !qc->use_empty() && llvm::all_of(qc->getUsers(), [&](Operation *u) {
          auto dc = dyn_cast<quant::DequantizeCastOp>(u);
          return dc && llvm::all_of(dc->getUsers(), [&](Operation *r) {
                   return isa<func::ReturnOp>(r) ? producerExcluded
                                                 : isExcluded(r);
                 });
        });
    if (!floatReaders)
      continue;
    for (Operation *u : llvm::make_early_inc_range(qc->getUsers())) {
      u->getResult(0).replaceAllUsesWith(qc.getInput());
      u->erase();
    }
    qc.erase();
  }
}

void QntQuantizePass::cleanup() {
  SmallVector<quant::QuantizeCastOp> qcasts;
  getOperation().walk([&](quant::QuantizeCastOp op) { qcasts.push_back(op); });
  for (quant::QuantizeCastOp qc : qcasts) {
    Value q = quantizedSource(qc.getInput());
    if (!q)
      continue;
    if (q.getType() == qc.getType()) {
      qc.replaceAllUsesWith(q);
    } else {
      OpBuilder b(qc);
      qc.replaceAllUsesWith(
          RequantizeOp::create(b, qc.getLoc(), qc.getType(), q).getOutput());
    }
    qc.erase();
  }
  dropQuantizationBetweenFloatLayers();
  // A quantized constant still dequantized for a float op (an excluded or
  // unquantizable layer's weight) becomes the float constant of its
  // dequantized values, which is what the float op computed with before:
  // the lowering of quantized casts handles activations only.
  SmallVector<quant::DequantizeCastOp> dcasts;
  getOperation().walk([&](quant::DequantizeCastOp op) {
    if (!op->use_empty() && constantStorage(op.getInput()))
      dcasts.push_back(op);
  });
  for (quant::DequantizeCastOp dc : dcasts) {
    SmallVector<int32_t> q = *constantStorage(dc.getInput());
    auto type = cast<RankedTensorType>(dc.getType());
    SmallVector<float> values = dequantizeValues(
        q, type.getShape(), *quantParams(elementOf(dc.getInput())));
    OpBuilder b(dc);
    dc.replaceAllUsesWith(
        arith::ConstantOp::create(
            b, dc.getLoc(),
            DenseElementsAttr::get(type, ArrayRef<float>(values)))
            .getResult());
    dc.erase();
  }
  // Drop what no longer has users (dcasts, unused constants).
  IRRewriter rewriter(&getContext());
  (void)runRegionDCE(rewriter, getOperation()->getRegions());
}

void QntQuantizePass::runOnOperation() {
  excluded.clear();
  for (const std::string &e : exclude)
    excluded.insert(e);
  excludeDataMovementAfterExcluded();
  SmallVector<FakeQuantOp> fakeQuants;
  // Identical fake_quants of one value (PyTorch's exporter writes one
  // DequantizeLinear per use) are one quantized tensor: keep the first.
  llvm::DenseMap<std::pair<Value, Type>, FakeQuantOp> firstOf;
  getOperation().walk([&](FakeQuantOp op) {
    auto [it, inserted] =
        firstOf.try_emplace({op.getInput(), op.getQtype()}, op);
    if (!inserted && it->second->getBlock() == op->getBlock()) {
      op.replaceAllUsesWith(it->second.getOutput());
      op.erase();
      return;
    }
    fakeQuants.push_back(op);
  });
  fitWeightScalesToBiases(getOperation(), excluded);
  for (FakeQuantOp op : fakeQuants) {
    // The weight of layers kept in float stays the float weight where an
    // observer chose its parameters (range attributes); a QDQ model's weight
    // is what its DequantizeLinear gives, as before.
    if (op.getRangeMinAttr() && matchPattern(op.getInput(), m_Constant()) &&
        !op->use_empty() && llvm::all_of(op->getUsers(), [&](Operation *user) {
          return isExcluded(user);
        })) {
      op.replaceAllUsesWith(op.getInput());
      op.erase();
      continue;
    }
    if (failed(toQDQ(op)))
      return signalPassFailure();
  }

  // Every op that says how it quantizes, in program order; each converts
  // itself (and what it absorbs) or stays as it is.
  SmallVector<QuantizableOpInterface> ops;
  getOperation().walk([&](QuantizableOpInterface op) { ops.push_back(op); });
  ErasedOps erasedOps;
  IRRewriter rewriter(&getContext(), &erasedOps);
  for (QuantizableOpInterface op : ops) {
    if (erasedOps.erased.contains(op))
      continue;
    if (isExcluded(op)) {
      if (op.getQuantRole() == QuantRole::same_as_input)
        keepInputParamsInFloat(op, rewriter);
      continue;
    }
    if (failed(op.quantize(rewriter)))
      return signalPassFailure();
  }
  fuseQuantizedRelu();
  cleanup();
}

} // namespace
