//===- DistinctResults.cpp - One buffer per returned memref ---------------===//

#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace quantc {
#define GEN_PASS_DEF_DISTINCTRESULTS
#include "quantc/Transforms/Passes.h.inc"
} // namespace quantc

using namespace mlir;

namespace {
struct DistinctResultsPass
    : public quantc::impl::DistinctResultsBase<DistinctResultsPass> {
  void runOnOperation() override {
    getOperation()->walk([](func::ReturnOp ret) {
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value v = operand.get();
        auto type = dyn_cast<MemRefType>(v.getType());
        bool repeated = llvm::any_of(
            ret->getOperands().take_front(operand.getOperandNumber()),
            [&](Value earlier) { return earlier == v; });
        if (!type || !type.hasStaticShape() || !repeated)
          continue;
        Value copy = memref::AllocOp::create(
            b, ret.getLoc(),
            MemRefType::get(type.getShape(), type.getElementType()));
        memref::CopyOp::create(b, ret.getLoc(), v, copy);
        operand.set(copy);
      }
    });
  }
};
} // namespace
