//===- FoldObservers.cpp - Calibrated observers to fake_quant -------------===//
//
// Turns calibrated statistics into constant quantization parameters. The
// arithmetic is the observer library's (PyTorch's calculate_qparams); this
// file only moves numbers between the library and the IR.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTFOLDOBSERVERS
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;
namespace obs = quantc::obs;

namespace {

struct QntFoldObserversPass
    : public mlir::qnt::impl::QntFoldObserversBase<QntFoldObserversPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<ObserveOp> observers;
    getOperation().walk([&](ObserveOp op) { observers.push_back(op); });
    for (ObserveOp op : observers)
      if (failed(fold(op)))
        return signalPassFailure();
  }

  LogicalResult fold(ObserveOp op) {
    quantc::StatusOr<obs::Observer> observer = op.loadObserver(reduceRange);
    if (observer.failed())
      return op.emitOpError() << observer.message();
    auto range = observer->computeRange();
    if (range.failed())
      return op.emitOpError() << range.message();
    quantc::StatusOr<obs::QParams> qparams = observer->computeQParams();
    if (qparams.failed())
      return op.emitOpError() << qparams.message();

    std::optional<int64_t> axis = op.getNormalizedChannelAxis();
    quant::QuantizedType qtype = getQuantizedType(op.getConfig(), *qparams,
                                                  observer->quantRange(), axis);
    OpBuilder builder(op);
    auto fakeQuant = FakeQuantOp::create(
        builder, op.getLoc(), op.getInput(), TypeAttr::get(qtype),
        builder.getDenseF32ArrayAttr(range->first),
        builder.getDenseF32ArrayAttr(range->second), op.getNameAttr());
    op.replaceAllUsesWith(fakeQuant.getOutput());
    op.erase();
    return success();
  }
};

} // namespace
