//===- OpenMPNoWait.cpp - Drop the barrier before a parallel region's end -===//
//
// convert-scf-to-openmp makes each scf.parallel an omp.parallel holding one
// omp.wsloop. The worksharing loop ends with an implicit barrier, and the
// parallel region ends with another one (the join). When the loop is the
// last operation of its region, the first barrier only delays the second:
// `nowait` removes it (OpenMP 5.2, 11.5.2: without nowait, a barrier is
// implied at the end of the worksharing construct).
//
//===----------------------------------------------------------------------===//

#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace quantc {
#define GEN_PASS_DEF_OPENMPNOWAIT
#include "quantc/Transforms/Passes.h.inc"
} // namespace quantc

using namespace mlir;

namespace {
struct OpenMPNoWaitPass
    : public quantc::impl::OpenMPNoWaitBase<OpenMPNoWaitPass> {
  void runOnOperation() override {
    getOperation()->walk([](omp::WsloopOp loop) {
      // The loop's results, if any, are not used after it: the region ends.
      Operation *next = loop->getNextNode();
      if (isa_and_nonnull<omp::ParallelOp>(loop->getParentOp()) && next &&
          isa<omp::TerminatorOp>(next) && loop.getReductionVars().empty())
        loop.setNowait(true);
    });
  }
};
} // namespace
