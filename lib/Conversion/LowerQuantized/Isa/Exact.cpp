//===- Exact.cpp - The portable int8 kernel family (generic) --------------===//
//
// Inputs and weights widened to int32, multiplied and added: no target
// intrinsics, exact for any input. Weights [4 inputs][8 channels]; each
// input byte is broadcast and multiplied by a column of 8 weights. qnt.lookup
// reads its table with a gather.
//
//===----------------------------------------------------------------------===//

#include "KernelFamily.h"

#include "../ConvEmitter.h"

using namespace mlir;
using namespace mlir::qnt::conv;

namespace {

class ExactFamily final : public KernelFamily {
public:
  WeightLayout weightLayout(const ConvProblem &) const override {
    return WeightLayout::Columns;
  }
  std::string densePath(const ConvProblem &) const override {
    return "exact 32-bit vector path";
  }
  std::string matmulPath(const ConvProblem &) const override {
    return "exact 32-bit vector path";
  }
};

} // namespace

const KernelFamily &mlir::qnt::conv::exactFamily() {
  static const ExactFamily family;
  return family;
}
