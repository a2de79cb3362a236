//===- OutlineLoopNests.cpp - One function per top-level loop nest --------===//
//
// Keeps LLVM's per-function analyses (ScalarEvolution's guard search climbs
// every preceding loop of the function) from growing quadratically with the
// number of layers of a model: each layer's loop nest gets its own function.
//
//===----------------------------------------------------------------------===//

#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace quantc {
#define GEN_PASS_DEF_OUTLINELOOPNESTS
#include "quantc/Transforms/Passes.h.inc"
} // namespace quantc

using namespace mlir;

/// Values the outlined function recomputes instead of taking as arguments.
static bool isRecomputable(Value v) {
  Operation *def = v.getDefiningOp();
  return def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
         (def->hasTrait<OpTrait::ConstantLike>() ||
          isa<memref::GetGlobalOp>(def));
}

/// Whether `op` is a loop nest: a loop, or an OpenMP parallel region (the
/// loops of parallel=omp pipelines, by then omp.parallel + omp.wsloop).
static bool isLoopNest(Operation &op) {
  return isa<LoopLikeOpInterface, omp::ParallelOp>(op);
}

/// Values LLVM cannot pass to a function: AMX tiles (x86_amx exists only
/// between the tile intrinsics).
static bool passable(Type type) { return !isa<amx::TileType>(type); }

/// Replaces `loop` by a call to a new private function `name` (uniqued in
/// `symbols`, placed after `after`) that holds it; returns the function, or
/// `after` when the loop uses or defines a value that cannot be passed (an
/// AMX tile of a kernel whose outer loops folded away): it stays where it
/// is.
static Operation *outline(Operation *loop, Operation *after, StringRef name,
                          SymbolTable &symbols) {
  llvm::SetVector<Value> used(loop->getOperands().begin(),
                              loop->getOperands().end());
  getUsedValuesDefinedAbove(loop->getRegions(), used);
  SmallVector<Value> args;
  SmallVector<Type> argTypes;
  for (Value v : used)
    if (!isRecomputable(v)) {
      args.push_back(v);
      argTypes.push_back(v.getType());
    }
  if (!llvm::all_of(argTypes, passable) ||
      !llvm::all_of(loop->getResultTypes(), passable))
    return after;

  Location loc = loop->getLoc();
  OpBuilder b(after);
  b.setInsertionPointAfter(after);
  auto fn = func::FuncOp::create(
      b, loc, name, b.getFunctionType(argTypes, loop->getResultTypes()));
  fn.setPrivate();
  // Not inlined by MLIR (no_inline) nor by LLVM (passthrough, which the
  // conversion to the LLVM dialect keeps as a function attribute).
  fn.setNoInline(true);
  fn->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline")}));
  symbols.insert(fn);
  Block *body = fn.addEntryBlock();
  b.setInsertionPointToStart(body);
  IRMapping map;
  for (auto [v, arg] : llvm::zip(args, body->getArguments()))
    map.map(v, arg);
  for (Value v : used)
    if (isRecomputable(v))
      map.map(v, b.clone(*v.getDefiningOp())
                     ->getResult(cast<OpResult>(v).getResultNumber()));
  Operation *cloned = b.clone(*loop, map);
  func::ReturnOp::create(b, loc, cloned->getResults());

  b.setInsertionPoint(loop);
  auto call = func::CallOp::create(b, loc, fn, args);
  loop->replaceAllUsesWith(call.getResults());
  loop->erase();
  return fn;
}

namespace {
struct OutlineLoopNestsPass
    : public quantc::impl::OutlineLoopNestsBase<OutlineLoopNestsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp fn : functions) {
      if (fn.isDeclaration())
        continue;
      SmallVector<Operation *> loops;
      for (Block &block : fn.getBody())
        for (Operation &op : block)
          if (isLoopNest(op))
            loops.push_back(&op);
      if (loops.size() < minLoops)
        continue;
      Operation *after = fn;
      for (auto [i, loop] : llvm::enumerate(loops))
        after = outline(loop, after, (fn.getName() + "_loop" + Twine(i)).str(),
                        symbols);
    }
  }
};
} // namespace
