//===- SerializeSmallParallelLoops.cpp - Sequential small parallel loops --===//
//
// An scf.parallel whose statically estimated work is below a threshold
// becomes a nest of scf.for, so that convert-scf-to-openmp does not make an
// OpenMP region (fork, join) of it.
//
//===----------------------------------------------------------------------===//

#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace quantc {
#define GEN_PASS_DEF_SERIALIZESMALLPARALLELLOOPS
#include "quantc/Transforms/Passes.h.inc"
} // namespace quantc

using namespace mlir;

/// (ub - lb) / step rounded up, when all three are constants.
static std::optional<int64_t> tripCount(Value lb, Value ub, Value step) {
  std::optional<int64_t> l = getConstantIntValue(lb),
                         u = getConstantIntValue(ub),
                         s = getConstantIntValue(step);
  if (!l || !u || !s || *s <= 0)
    return std::nullopt;
  return *u > *l ? (*u - *l + *s - 1) / *s : 0;
}

/// Operations executed by one run of `block`: nested scf.for loops count
/// their body times their trip count, nested scf.parallel loops their body
/// times their iterations; nullopt when a trip count is not static.
static std::optional<int64_t> workOf(Block &block) {
  int64_t work = 0;
  for (Operation &op : block) {
    std::optional<int64_t> trips = 1;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      trips =
          tripCount(loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
    } else if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      for (auto [lb, ub, step] : llvm::zip(
               loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
        std::optional<int64_t> n = tripCount(lb, ub, step);
        trips = n && trips ? std::optional<int64_t>(*n * *trips) : std::nullopt;
      }
    }
    if (!trips)
      return std::nullopt;
    int64_t inner = 0;
    for (Region &region : op.getRegions())
      for (Block &nested : region) {
        std::optional<int64_t> w = workOf(nested);
        if (!w)
          return std::nullopt;
        inner += *w;
      }
    work += 1 + *trips * inner;
  }
  return work;
}

/// Replaces `loop` (no reductions) by scf.for loops over its dimensions,
/// outermost first, with the body moved into the innermost one.
static void serialize(scf::ParallelOp loop) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> ivs;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    auto inner = scf::ForOp::create(b, loc, lb, ub, step);
    ivs.push_back(inner.getInductionVar());
    b.setInsertionPoint(inner.getBody()->getTerminator());
  }
  Block *body = loop.getBody();
  IRMapping map;
  map.map(loop.getInductionVars(), ivs);
  for (Operation &op : body->without_terminator())
    b.clone(op, map);
  loop.erase();
}

namespace {
struct SerializeSmallParallelLoopsPass
    : public quantc::impl::SerializeSmallParallelLoopsBase<
          SerializeSmallParallelLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> small;
    // Post-order: inner loops are serialized before the loops around them
    // clone their bodies.
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (!loop.getInitVals().empty())
        return;
      std::optional<int64_t> trips = 1;
      for (auto [lb, ub, step] : llvm::zip(
               loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
        std::optional<int64_t> n = tripCount(lb, ub, step);
        trips = n && trips ? std::optional<int64_t>(*n * *trips) : std::nullopt;
      }
      std::optional<int64_t> body = workOf(*loop.getBody());
      if (trips && body && *trips * *body < minWork)
        small.push_back(loop);
    });
    for (scf::ParallelOp loop : small)
      serialize(loop);
  }
};
} // namespace
