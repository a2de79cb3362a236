//===- MemRefCopyToLinalg.cpp - memref.copy as linalg.copy ----------------===//

#include "quantc/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace quantc {
#define GEN_PASS_DEF_MEMREFCOPYTOLINALG
#include "quantc/Conversion/Passes.h.inc"
} // namespace quantc

using namespace mlir;

namespace {
struct MemRefCopyToLinalgPass
    : public quantc::impl::MemRefCopyToLinalgBase<MemRefCopyToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp op) { copies.push_back(op); });
    for (memref::CopyOp op : copies) {
      OpBuilder b(op);
      linalg::CopyOp::create(b, op.getLoc(), op.getSource(), op.getTarget());
      op.erase();
    }
  }
};
} // namespace
