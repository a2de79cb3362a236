//===- Smoothing.cpp - Activation statistics for SmoothQuant --------------===//
//
// attachActivationAbsMax: the layer norms are tagged, a float probe returns
// their outputs, and per channel the max |value| is taken over the data; it
// becomes `qnt.smooth_absmax` (see Smoothing.h, qnt-smooth).
//
//===----------------------------------------------------------------------===//

#include "quantc/Calibrate/Smoothing.h"
#include "quantc/Calibrate/Probe.h"
#include "quantc/Support/Fail.h"

#include "dialects/Qnt/IR/QntOps.h"

#include <cmath>

using namespace mlir;
using llvm::Error;
using llvm::Expected;

/// Tags a measured layer norm with its index while the probe is built.
static constexpr StringLiteral kProbeIndex = "qnt.smooth_probe_index";

/// The layer norms over the last dimension, in walk order.
static SmallVector<qnt::LayerNormOp> findNorms(ModuleOp module) {
  SmallVector<qnt::LayerNormOp> norms;
  module.walk([&](qnt::LayerNormOp op) {
    if (static_cast<int64_t>(op.getAxis()) == op.getType().getRank() - 1)
      norms.push_back(op);
  });
  return norms;
}

/// The outputs of the tagged layer norms of the probe's function, by tag.
static Expected<SmallVector<Value>> taggedOutputs(func::FuncOp fn,
                                                  size_t count) {
  SmallVector<Value> outputs(count);
  fn.walk([&](qnt::LayerNormOp op) {
    if (auto index = op->getAttrOfType<IntegerAttr>(kProbeIndex))
      outputs[index.getInt()] = op.getResult();
  });
  if (llvm::is_contained(outputs, Value()))
    return quantc::fail("smoothing: a measured layer norm is not in the "
                        "model function");
  return outputs;
}

Expected<int64_t> quantc::attachActivationAbsMax(ModuleOp module,
                                                 StringRef function,
                                                 ArrayRef<std::string> data,
                                                 int64_t maxSamples) {
  SmallVector<qnt::LayerNormOp> norms = findNorms(module);
  if (norms.empty())
    return 0;
  Builder b(module.getContext());
  for (auto [i, op] : llvm::enumerate(norms))
    op->setAttr(kProbeIndex, b.getI64IntegerAttr(i));
  Expected<std::unique_ptr<ValueProbe>> probe =
      ValueProbe::create(module, function, [&](func::FuncOp fn) {
        return taggedOutputs(fn, norms.size());
      });
  for (qnt::LayerNormOp op : norms)
    op->removeAttr(kProbeIndex);
  if (!probe)
    return probe.takeError();
  ValueProbe &p = **probe;
  std::vector<std::vector<float>> absMax;
  for (qnt::LayerNormOp op : norms)
    absMax.emplace_back(op.getType().getShape().back(), 0.0f);
  Error e = forEachSample(data, maxSamples, p.inputs(), /*sources=*/nullptr,
                          [&](ArrayRef<const float *> x) -> Error {
                            if (Error e = p.run(x))
                              return e;
                            for (auto [i, m] : llvm::enumerate(absMax)) {
                              ArrayRef<float> y = p.value(i);
                              for (size_t j = 0; j < y.size(); ++j) {
                                float &c = m[j % m.size()];
                                c = std::max(c, std::fabs(y[j]));
                              }
                            }
                            return Error::success();
                          });
  if (e)
    return std::move(e);
  for (auto [op, m] : llvm::zip(norms, absMax))
    op->setAttr("qnt.smooth_absmax", b.getDenseF32ArrayAttr(m));
  return static_cast<int64_t>(norms.size());
}
