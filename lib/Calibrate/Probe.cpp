//===- Probe.cpp - A compiled float model returning chosen values ---------===//
//
// The clone, its extra results and their buffers; see Probe.h.
//
//===----------------------------------------------------------------------===//

#include "quantc/Calibrate/Probe.h"
#include "quantc/Support/Fail.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Pipelines/Pipelines.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace quantc;
using llvm::Error;
using llvm::Expected;

std::vector<int64_t> quantc::returnAlso(func::FuncOp fn,
                                        ArrayRef<Value> values) {
  Operation *ret = fn.getBody().front().getTerminator();
  SmallVector<Value> operands(ret->getOperands());
  std::vector<int64_t> indices;
  for (Value v : values) {
    auto *it = llvm::find(operands, v);
    indices.push_back(it - operands.begin());
    if (it == operands.end())
      operands.push_back(v);
  }
  ret->setOperands(operands);
  fn.setFunctionType(FunctionType::get(fn.getContext(), fn.getArgumentTypes(),
                                       ValueRange(operands).getTypes()));
  return indices;
}

void quantc::removeActivationQuantization(ModuleOp module) {
  module->walk([](Operation *op) {
    if (isa<qnt::ObserveOp>(op) ||
        (isa<qnt::FakeQuantOp>(op) &&
         !matchPattern(op->getOperand(0), m_Constant()))) {
      op->getResult(0).replaceAllUsesWith(op->getOperand(0));
      op->erase();
    }
  });
}

Error quantc::forEachSample(
    ArrayRef<std::string> data, int64_t maxSamples, ArrayRef<ModelTensor> in,
    std::vector<std::string> *sources,
    llvm::function_ref<Error(ArrayRef<const float *>)> body) {
  int64_t runs = 0;
  auto limited = [&] { return maxSamples > 0 && runs >= maxSamples; };
  return forEachSampleFile(
      data, in, [&](const ModelSamples &samples, bool &stop) -> Error {
        if (sources)
          sources->push_back(samples.source);
        for (int64_t r = 0; r < samples.runs && !limited(); ++r, ++runs)
          if (Error e = body(samples.run(r)))
            return e;
        stop = limited();
        return Error::success();
      });
}

Expected<std::unique_ptr<ValueProbe>>
ValueProbe::create(ModuleOp module, StringRef function, Select select,
                   bool keepQuantization) {
  std::unique_ptr<ValueProbe> probe(new ValueProbe());
  probe->module = module.clone();
  if (!keepQuantization)
    removeActivationQuantization(*probe->module);
  Expected<Operation *> found = findModelFunction(*probe->module, function);
  if (!found)
    return found.takeError();
  auto fn = cast<func::FuncOp>(*found);
  probe->modelResults = fn.getNumResults();
  Expected<SmallVector<Value>> chosen = select(fn);
  if (!chosen)
    return chosen.takeError();
  SmallVector<Value> computed;
  for (Value v : *chosen)
    if (!isa<BlockArgument>(v))
      computed.push_back(v);
  std::vector<int64_t> returned = returnAlso(fn, computed);
  auto next = returned.begin();
  for (Value v : *chosen) {
    auto arg = dyn_cast<BlockArgument>(v);
    probe->source.push_back(arg ? -1 - static_cast<int64_t>(arg.getArgNumber())
                                : *next++);
    ArrayRef<int64_t> shape = cast<ShapedType>(v.getType()).getShape();
    probe->shapes.emplace_back(shape.begin(), shape.end());
  }
  Expected<std::unique_ptr<CompiledModel>> compiled = CompiledModel::create(
      *probe->module, fn.getSymName(), [](OpPassManager &pm) {
        buildFloatToLLVMPipeline(pm, {}, hostVectorBits());
      });
  if (!compiled)
    return compiled.takeError();
  probe->model = std::move(*compiled);
  for (const ModelTensor &t : probe->model->outputs())
    probe->buffers.emplace_back(computeProduct(t.shape));
  for (std::vector<float> &b : probe->buffers)
    probe->pointers.push_back(b.data());
  return std::move(probe);
}

Error ValueProbe::run(ArrayRef<const float *> inputs) {
  if (inputs.size() != model->inputs().size())
    return fail("the probe takes " + llvm::Twine(model->inputs().size()) +
                " inputs, not " + llvm::Twine(inputs.size()));
  lastInputs.assign(inputs.begin(), inputs.end());
  return model->run(inputs, pointers);
}

ArrayRef<float> ValueProbe::value(size_t i) const {
  if (source[i] < 0) {
    size_t arg = static_cast<size_t>(-1 - source[i]);
    return ArrayRef<float>(lastInputs[arg], model->inputs()[arg].numElements());
  }
  return buffers[source[i]];
}

const std::vector<int64_t> &ValueProbe::shape(size_t i) const {
  return shapes[i];
}
