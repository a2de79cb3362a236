//===- InstrumentObservers.cpp - Observers to runtime calls ---------------===//
//
// The calibration build of a model: each qnt.observe hands its tensor to the
// calibration runtime through a C-interface call and is otherwise an
// identity. Everything after this pass is the ordinary float lowering.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTINSTRUMENTOBSERVERS
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {

constexpr StringLiteral kRuntimeFn = "qnt_rt_observe";

struct QntInstrumentObserversPass
    : public mlir::qnt::impl::QntInstrumentObserversBase<
          QntInstrumentObserversPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<ObserveOp> observers;
    module.walk([&](ObserveOp op) { observers.push_back(op); });
    if (observers.empty())
      return;

    auto unranked = UnrankedTensorType::get(Float32Type::get(ctx));
    auto fnType =
        FunctionType::get(ctx, {IntegerType::get(ctx, 64), unranked}, {});
    SymbolTable symbols(module);
    if (Operation *existing = symbols.lookup(kRuntimeFn)) {
      auto fn = dyn_cast<func::FuncOp>(existing);
      if (!fn || fn.getFunctionType() != fnType) {
        existing->emitError()
            << "'" << kRuntimeFn << "' is reserved for the calibration runtime";
        return signalPassFailure();
      }
    } else {
      OpBuilder builder(ctx);
      builder.setInsertionPointToEnd(module.getBody());
      auto fn =
          func::FuncOp::create(builder, module.getLoc(), kRuntimeFn, fnType);
      fn.setPrivate();
      fn->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
      // The runtime only reads the tensor: no copy before the call.
      fn.setArgAttr(1,
                    bufferization::BufferizationDialect::kBufferAccessAttrName,
                    builder.getStringAttr("read"));
    }

    for (auto [id, op] : llvm::enumerate(observers)) {
      OpBuilder builder(op);
      Location loc = op.getLoc();
      Value idValue = arith::ConstantOp::create(
          builder, loc, builder.getI64IntegerAttr(static_cast<int64_t>(id)));
      Value erased =
          tensor::CastOp::create(builder, loc, unranked, op.getInput());
      func::CallOp::create(builder, loc, kRuntimeFn, TypeRange{},
                           ValueRange{idValue, erased});
      op.replaceAllUsesWith(op.getInput());
      op.erase();
    }
  }
};

} // namespace
