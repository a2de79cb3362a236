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
namespace calib = quantc::calib;

namespace {

/// The observer library's view of `op`: its config and, if present, state.
/// A constant input without state is observed here.
FailureOr<calib::Observer> loadObserver(ObserveOp op) {
  calib::ErrorOr<calib::Observer> observer =
      calib::Observer::create(toObserverConfig(op.getConfig()));
  if (!observer)
    return op.emitOpError() << observer.error(), failure();
  if (ObserverStateAttr state = op.getStateAttr()) {
    if (std::optional<std::string> error =
            observer->setState(toObserverState(state)))
      return op.emitOpError() << "invalid state: " << *error, failure();
    return std::move(*observer);
  }
  DenseElementsAttr constant;
  if (!matchPattern(op.getInput(), m_Constant(&constant)))
    return op.emitOpError()
               << "observer '" << op.getName().value_or("") << "' "
               << "has no calibrated state: calibrate the model first",
           failure();
  SmallVector<float> values(constant.getValues<float>());
  std::vector<int64_t> shape(op.getInput().getType().getShape());
  if (std::optional<std::string> error =
          observer->observe(values.data(), shape))
    return op.emitOpError() << "cannot observe constant: " << *error, failure();
  return std::move(*observer);
}

struct QntFoldObserversPass
    : public mlir::qnt::impl::QntFoldObserversBase<QntFoldObserversPass> {
  void runOnOperation() override {
    SmallVector<ObserveOp> observers;
    getOperation().walk([&](ObserveOp op) { observers.push_back(op); });
    for (ObserveOp op : observers)
      if (failed(fold(op)))
        return signalPassFailure();
  }

  LogicalResult fold(ObserveOp op) {
    FailureOr<calib::Observer> observer = loadObserver(op);
    if (failed(observer))
      return failure();
    auto range = observer->computeRange();
    if (!range)
      return op.emitOpError() << range.error();
    calib::ErrorOr<calib::QParams> qparams = observer->computeQParams();
    if (!qparams)
      return op.emitOpError() << qparams.error();

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
