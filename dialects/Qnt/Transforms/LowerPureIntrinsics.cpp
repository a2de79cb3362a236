//===- LowerPureIntrinsics.cpp - qnt.pure_intrinsic to LLVM ---------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTLOWERPUREINTRINSICS
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {
struct QntLowerPureIntrinsicsPass
    : public mlir::qnt::impl::QntLowerPureIntrinsicsBase<
          QntLowerPureIntrinsicsPass> {
  void runOnOperation() override {
    SmallVector<PureIntrinsicOp> ops;
    getOperation()->walk([&](PureIntrinsicOp op) { ops.push_back(op); });
    for (PureIntrinsicOp op : ops) {
      OpBuilder b(op);
      auto call = LLVM::CallIntrinsicOp::create(
          b, op.getLoc(), op.getResult().getType(), op.getIntrinAttr(),
          op.getArgs());
      op.replaceAllUsesWith(call.getResult(0));
      op.erase();
    }
  }
};
} // namespace
