//===- StaticMemoryPlan.cpp - One arena for a function's buffers ----------===//
//
// Replaces the statically shaped temporary buffers of a function (memref.alloc
// + memref.dealloc in its body) by views of one arena, packing buffers whose
// lifetimes do not overlap into the same bytes.
//
//===----------------------------------------------------------------------===//

#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>

namespace quantc {
#define GEN_PASS_DEF_STATICMEMORYPLAN
#include "quantc/Transforms/Passes.h.inc"
} // namespace quantc

using namespace mlir;

namespace {
/// A buffer to place: its alloc and dealloc, its live interval (indices of
/// ops of the function body, both ends included) and its bytes.
struct Buffer {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  unsigned start = 0, end = 0;
  uint64_t size = 0, alignment = 1, offset = 0;
};
} // namespace

/// The byte size of a memref that can be a view of an i8 arena (static
/// shape, identity layout, default memory space, whole-byte integer or float
/// elements), or nothing.
static std::optional<uint64_t> viewableBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace())
    return std::nullopt;
  Type element = type.getElementType();
  if (!isa<IntegerType, FloatType>(element) ||
      element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  return static_cast<uint64_t>(type.getNumElements()) *
         (element.getIntOrFloatBitWidth() / 8);
}

/// Whether `user` stores `value` itself (not into it) somewhere, after which
/// the buffer could be reached in ways this pass does not follow.
static bool storesValue(Operation *user, Value value) {
  if (auto store = dyn_cast<memref::StoreOp>(user))
    return store.getValueToStore() == value;
  if (auto store = dyn_cast<LLVM::StoreOp>(user))
    return store.getValue() == value;
  return false;
}

/// The live interval of `buffer.alloc` in `body`: from the alloc to the last
/// top-level op that uses the buffer or a value derived from it. Derived are
/// memref results of its users (views, casts, loop results), block arguments
/// of their regions, results of the regions' parents when a terminator
/// forwards it, and every value computed from an extracted pointer. Fails if
/// the buffer escapes: returned, stored, or freed by another dealloc.
static LogicalResult
computeInterval(Buffer &buffer, Block &body,
                const DenseMap<Operation *, unsigned> &at) {
  buffer.start = buffer.end = at.lookup(buffer.alloc);
  SmallVector<Value> worklist{buffer.alloc.getResult()};
  DenseSet<Value> seen{buffer.alloc.getResult()};
  auto derive = [&](Value value, bool pointer) {
    if ((pointer || isa<BaseMemRefType>(value.getType())) &&
        seen.insert(value).second)
      worklist.push_back(value);
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    // A value that is not a memref derives from an extracted pointer: follow
    // everything computed from it.
    bool pointer = !isa<BaseMemRefType>(value.getType());
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == buffer.dealloc)
        continue;
      if (isa<memref::DeallocOp>(user) || storesValue(user, value))
        return failure();
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!top || top == body.getTerminator())
        return failure();
      buffer.end = std::max(buffer.end, at.lookup(top));
      bool extractsPointer =
          pointer ||
          isa<memref::ExtractAlignedPointerAsIndexOp,
              memref::ExtractStridedMetadataOp, UnrealizedConversionCastOp>(
              user) ||
          isa<LLVM::LLVMDialect>(user->getDialect());
      for (Value result : user->getResults())
        derive(result, extractsPointer);
      for (Region &region : user->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            derive(arg, pointer);
      if (user->hasTrait<OpTrait::IsTerminator>() && user != &body.back())
        for (Value result : user->getParentOp()->getResults())
          derive(result, pointer);
    }
  }
  return success();
}

/// Greedy interval packing: largest buffers first, each at the smallest gap
/// that fits it between the buffers already placed whose lifetimes overlap
/// its own, or above them all. Returns the arena's size.
static uint64_t pack(MutableArrayRef<Buffer> buffers) {
  SmallVector<Buffer *> order;
  for (Buffer &buffer : buffers)
    order.push_back(&buffer);
  llvm::stable_sort(order, [](const Buffer *a, const Buffer *b) {
    return a->size > b->size;
  });
  SmallVector<Buffer *> placed;
  uint64_t total = 0;
  for (Buffer *buffer : order) {
    SmallVector<Buffer *> live;
    for (Buffer *other : placed)
      if (other->start <= buffer->end && buffer->start <= other->end)
        live.push_back(other);
    llvm::stable_sort(live, [](const Buffer *a, const Buffer *b) {
      return a->offset < b->offset;
    });
    std::optional<uint64_t> best;
    uint64_t bestGap = 0, cursor = 0;
    for (Buffer *other : live) {
      uint64_t candidate = llvm::alignTo(cursor, buffer->alignment);
      if (candidate + buffer->size <= other->offset &&
          (!best || other->offset - cursor < bestGap)) {
        best = candidate;
        bestGap = other->offset - cursor;
      }
      cursor = std::max(cursor, other->offset + other->size);
    }
    buffer->offset = best ? *best : llvm::alignTo(cursor, buffer->alignment);
    total = std::max(total, buffer->offset + buffer->size);
    placed.push_back(buffer);
  }
  return total;
}

namespace {
struct StaticMemoryPlanPass
    : public quantc::impl::StaticMemoryPlanBase<StaticMemoryPlanPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    unsigned bytes = alignment;
    if (!llvm::isPowerOf2_32(bytes)) {
      func.emitError("quantc-static-memory-plan: alignment must be a power "
                     "of two, got ")
          << bytes;
      return signalPassFailure();
    }
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    Block &body = func.getBody().front();
    DenseMap<Operation *, unsigned> at;
    for (auto [index, op] : llvm::enumerate(body))
      at[&op] = index;

    SmallVector<Buffer> buffers;
    for (auto alloc : body.getOps<memref::AllocOp>()) {
      std::optional<uint64_t> bytes = viewableBytes(alloc.getType());
      if (!bytes)
        continue;
      Buffer buffer;
      buffer.alloc = alloc;
      for (Operation *user : alloc->getUsers())
        if (auto dealloc = dyn_cast<memref::DeallocOp>(user))
          if (dealloc->getBlock() == &body && !buffer.dealloc)
            buffer.dealloc = dealloc;
      if (!buffer.dealloc || failed(computeInterval(buffer, body, at)))
        continue;
      buffer.size = *bytes;
      buffer.alignment =
          std::max<uint64_t>(alignment, alloc.getAlignment().value_or(1));
      buffers.push_back(buffer);
    }
    if (buffers.empty())
      return;

    uint64_t total = pack(buffers);
    uint64_t arenaAlignment = alignment;
    for (const Buffer &buffer : buffers)
      arenaAlignment = std::max(arenaAlignment, buffer.alignment);

    OpBuilder builder = OpBuilder::atBlockBegin(&body);
    auto arenaType =
        MemRefType::get({static_cast<int64_t>(total)}, builder.getI8Type());
    Value arena = memref::AllocOp::create(
        builder, func.getLoc(), arenaType, ValueRange(),
        builder.getI64IntegerAttr(static_cast<int64_t>(arenaAlignment)));
    for (Buffer &buffer : buffers) {
      builder.setInsertionPoint(buffer.alloc);
      Location loc = buffer.alloc.getLoc();
      Value shift = arith::ConstantIndexOp::create(
          builder, loc, static_cast<int64_t>(buffer.offset));
      Value view = memref::ViewOp::create(builder, loc, buffer.alloc.getType(),
                                          arena, shift, ValueRange());
      buffer.alloc.getResult().replaceAllUsesWith(view);
      buffer.alloc.erase();
      buffer.dealloc.erase();
    }
    builder.setInsertionPoint(body.getTerminator());
    memref::DeallocOp::create(builder, func.getLoc(), arena);
  }
};
} // namespace
