//===- Budget.cpp - Layers returned to float for an accuracy budget -------===//
//
// The simulation: the folded model (qnt-fold-observers: every observer a
// qnt.fake_quant) with one switch per quantization, read from an extra
// input, the mask:
//  - per layer with weights: scf.if (mask) { the op on dequantize(quantize(
//    weight)) } else { the op on the float weight };
//  - per use of an activation's fake_quant: scf.if (mask) { fake_quant(x) }
//    else { x }.
// What keeping a set E of layers in float does to each switch mirrors
// qnt-quantize: a layer in E reads float weights; an activation is quantized
// for a consumer unless both its producer and that consumer compute in float
// (the dequantize(quantize(x)) between two float ops folds away; a model
// input counts as a float producer, a model result or an op without an int8
// form as a float consumer).
//
//===----------------------------------------------------------------------===//

#include "quantc/Calibrate/Budget.h"
#include "quantc/Support/Fail.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantParams.h"
#include "dialects/Qnt/IR/QuantizeUtils.h"
#include "dialects/Qnt/Transforms/Passes.h"
#include "quantc/Calibrate/Probe.h"
#include "quantc/Isa/Int8Isa.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

using namespace mlir;
using namespace quantc;
using llvm::Error;
using llvm::Expected;

std::vector<std::string> BudgetResult::names() const {
  std::vector<std::string> out;
  for (const LayerSensitivity &l : floatLayers)
    out.push_back(l.name);
  return out;
}

std::optional<double> OutputSqnrBudget::of(StringRef name) const {
  for (const auto &[output, db] : outputs)
    if (output == name)
      return db;
  return all;
}

Error OutputSqnrBudget::add(StringRef output, double db) {
  std::string what =
      output.empty() ? "every output" : "output '" + output.str() + "'";
  if (!std::isfinite(db))
    return fail("--min-output-sqnr: the target of " + what +
                " must be a finite number of dB");
  if (output.empty() ? all.has_value() : llvm::any_of(outputs, [&](auto &o) {
        return o.first == output;
      }))
    return fail("--min-output-sqnr: the target of " + what +
                " is given twice: give it once (NAME=DB for one output, DB "
                "for the others)");
  if (output.empty())
    all = db;
  else
    outputs.emplace_back(output.str(), db);
  return Error::success();
}

std::string OutputSqnrBudget::str() const {
  std::string out;
  auto dB = [](double db) { return llvm::formatv("{0:F2} dB", db).str(); };
  if (all)
    out = dB(*all);
  for (const auto &[name, db] : outputs)
    out += (out.empty() ? "" : ", ") + name + " " + dB(db);
  return out;
}

std::string quantc::hostInt8Isa() {
  llvm::Triple host(llvm::sys::getProcessTriple());
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  for (const Int8IsaInfo &info : int8Isas()) {
    if (info.isa == Int8Isa::AMXINT8 || info.arch == IsaArch::Any ||
        (info.arch == IsaArch::X86) != host.isX86())
      continue;
    SmallVector<StringRef> needed;
    StringRef(info.features).split(needed, ',', -1, false);
    if (llvm::all_of(
            needed, [&](StringRef f) { return features.lookup(f.ltrim('+')); }))
      return info.name.str();
  }
  return "generic";
}

namespace {

bool isConstant(Value v) { return matchPattern(v, m_Constant()); }

/// The name of the activation observer (now a named fake_quant) that the
/// result of `op` reaches through single uses (a linear layer is
/// add(reshape(matmul(x, w)), b)); "" if none within a few ops.
std::string layerOf(Operation *op) {
  for (int depth = 0; op && depth < 4; ++depth) {
    if (op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
      return "";
    Operation *user = *op->getResult(0).getUsers().begin();
    if (auto fq = dyn_cast<qnt::FakeQuantOp>(user))
      return fq.getNameAttr() ? fq.getNameAttr().str() : "";
    op = user;
  }
  return "";
}

/// The names that can exclude `op` (as qnt-quantize matches --exclude): its
/// op name, its location's layer names and its layer's observer name.
SmallVector<std::string> keysOf(Operation *op) {
  SmallVector<std::string> keys = qnt::getLayerNames(op->getLoc());
  keys.push_back(op->getName().getStringRef().str());
  std::string layer = layerOf(op);
  if (!layer.empty())
    keys.push_back(layer);
  return keys;
}

/// One switch of the simulation and how a set of float layers sets it.
struct Switch {
  /// A weight switch is on unless its layer is float. An activation switch
  /// is off only where qnt-quantize drops the activation's quantization: its
  /// producer computes in float and every reader is a float layer (the
  /// return, for a float producer's result).
  bool weight = false;
  SmallVector<std::string> producer;
  SmallVector<SmallVector<std::string>> readers;
  /// The producer has no int8 form or reads only model inputs; a reader
  /// that is the function's return.
  bool producerFloat = false;
  SmallVector<bool> readerIsReturn;

  bool on(const llvm::StringSet<> &floats) const {
    auto in = [&](ArrayRef<std::string> keys) {
      return llvm::any_of(
          keys, [&](const std::string &k) { return floats.count(k); });
    };
    if (weight)
      return !in(readers.front());
    bool producerIn = in(producer);
    if (!producerFloat && !producerIn)
      return true;
    for (auto [keys, isReturn] : llvm::zip(readers, readerIsReturn))
      if (isReturn ? !producerIn : !in(keys))
        return true;
    return false;
  }
};

/// Multiply-accumulates of a float convolution or matrix product.
int64_t macsOf(Operation *op) {
  if (auto conv = dyn_cast<qnt::Conv2DOp>(op)) {
    auto out = cast<ShapedType>(conv.getType());
    auto filter = cast<ShapedType>(conv.getFilter().getType());
    return out.getNumElements() * filter.getDimSize(1) * filter.getDimSize(2) *
           filter.getDimSize(3);
  }
  if (op->getName().getStringRef() == "tosa.matmul") {
    auto a = cast<ShapedType>(op->getOperand(0).getType());
    auto out = cast<ShapedType>(op->getResult(0).getType());
    return out.getNumElements() * a.getShape().back();
  }
  return 0;
}

/// dequantize(quantize(w)) of a weight fake_quant, as the int8 reference
/// quantizes it.
DenseElementsAttr fakeQuantWeight(qnt::FakeQuantOp op) {
  auto type = cast<RankedTensorType>(op.getInput().getType());
  qnt::QuantParams p = *qnt::quantParams(op.getQtype());
  SmallVector<float> w = qnt::dequantizeValues(
      qnt::quantizeValues(*qnt::floatConstant(op.getInput()), type.getShape(),
                          p),
      type.getShape(), p);
  return DenseElementsAttr::get(type, ArrayRef<float>(w));
}

/// The simulation of a folded model and its switches.
struct Simulation {
  std::unique_ptr<ValueProbe> probe;
  std::vector<Switch> switches;
  /// Candidate layers (named activations with a producer) and their MACs.
  std::vector<LayerSensitivity> candidates;
  int64_t totalMacs = 0;
  std::vector<float> mask;

  void setMask(const llvm::StringSet<> &floats) {
    for (auto [i, s] : llvm::enumerate(switches))
      mask[i] = s.on(floats) ? 1.0f : 0.0f;
  }
};

/// A switch of `fn`'s mask argument `mask`, number `index`, as an i1.
Value maskBit(OpBuilder &b, Location loc, Value mask, int64_t index) {
  Value i = arith::ConstantIndexOp::create(b, loc, index);
  Value m = tensor::ExtractOp::create(b, loc, mask, ValueRange{i});
  Value zero = arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                              llvm::APFloat(0.0f));
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, m, zero);
}

/// Records the candidates and MACs of `fn` (folded, before the switches).
void findCandidates(func::FuncOp fn, Simulation &sim) {
  llvm::StringMap<size_t> index;
  fn.walk([&](qnt::FakeQuantOp fq) {
    if (!fq.getNameAttr() || isConstant(fq.getInput()) ||
        isa<BlockArgument>(fq.getInput()))
      return;
    if (index.try_emplace(fq.getNameAttr(), sim.candidates.size()).second)
      sim.candidates.push_back({fq.getNameAttr().str(), 0, 0});
  });
  fn.walk([&](Operation *op) {
    int64_t macs = macsOf(op);
    sim.totalMacs += macs;
    auto it = index.find(layerOf(op));
    if (macs && it != index.end())
      sim.candidates[it->second].macs += macs;
  });
}

/// True when `op` computes in float whatever is excluded: no int8 form, or
/// it reads only model inputs (the layout change of an image input).
bool alwaysFloat(Operation *op) {
  auto q = dyn_cast<qnt::QuantizableOpInterface>(op);
  if (!q || q.getQuantRole() == qnt::QuantRole::not_quantized)
    return true;
  return llvm::all_of(op->getOperands(), [](Value v) {
    return isa<BlockArgument>(v) || isConstant(v);
  });
}

/// Replaces each activation fake_quant by a switch.
void switchActivations(func::FuncOp fn, Value mask, Simulation &sim) {
  SmallVector<qnt::FakeQuantOp> fqs;
  fn.walk([&](qnt::FakeQuantOp fq) {
    if (!isConstant(fq.getInput()))
      fqs.push_back(fq);
  });
  for (qnt::FakeQuantOp fq : fqs) {
    Value x = fq.getInput();
    Switch s;
    Operation *p = x.getDefiningOp();
    s.producerFloat = !p || alwaysFloat(p);
    if (p)
      s.producer = keysOf(p);
    for (Operation *user : fq->getUsers()) {
      bool isReturn = isa<func::ReturnOp>(user);
      s.readerIsReturn.push_back(isReturn);
      s.readers.push_back(isReturn ? SmallVector<std::string>{} : keysOf(user));
    }
    OpBuilder b(fq);
    Location loc = fq.getLoc();
    Value on = maskBit(b, loc, mask, sim.switches.size());
    auto sw = scf::IfOp::create(
        b, loc, on,
        [&](OpBuilder &t, Location l) {
          scf::YieldOp::create(t, l, t.clone(*fq)->getResult(0));
        },
        [&](OpBuilder &e, Location l) { scf::YieldOp::create(e, l, x); });
    fq.replaceAllUsesWith(sw.getResult(0));
    fq.erase();
    sim.switches.push_back(std::move(s));
  }
}

/// Replaces each op with fake-quantized weights by a switch between the op
/// on dequantized int8 weights and on float ones.
void switchWeights(func::FuncOp fn, Value mask, Simulation &sim) {
  llvm::SetVector<Operation *> layers;
  fn.walk([&](qnt::FakeQuantOp fq) {
    if (isConstant(fq.getInput()))
      for (Operation *user : fq->getUsers())
        layers.insert(user);
  });
  for (Operation *op : layers) {
    Switch s;
    s.weight = true;
    s.readers.push_back(keysOf(op));
    OpBuilder b(op);
    IRMapping quantized, original;
    for (Value v : op->getOperands())
      if (auto fq = v.getDefiningOp<qnt::FakeQuantOp>();
          fq && isConstant(fq.getInput())) {
        quantized.map(
            v, arith::ConstantOp::create(b, fq.getLoc(), fakeQuantWeight(fq)));
        original.map(v, fq.getInput());
      }
    Value on = maskBit(b, op->getLoc(), mask, sim.switches.size());
    auto sw = scf::IfOp::create(
        b, op->getLoc(), on,
        [&](OpBuilder &t, Location l) {
          scf::YieldOp::create(t, l, t.clone(*op, quantized)->getResults());
        },
        [&](OpBuilder &e, Location l) {
          scf::YieldOp::create(e, l, e.clone(*op, original)->getResults());
        });
    op->replaceAllUsesWith(sw.getResults());
    op->erase();
    sim.switches.push_back(std::move(s));
  }
  SmallVector<Operation *> dead;
  fn.walk([&](qnt::FakeQuantOp fq) {
    if (fq->use_empty())
      dead.push_back(fq);
  });
  for (Operation *op : dead)
    op->erase();
}

/// Folds a clone of `calibrated`'s observers into fake_quants.
Expected<OwningOpRef<ModuleOp>> foldedClone(ModuleOp calibrated,
                                            const QuantizeOptions &options) {
  OwningOpRef<ModuleOp> folded = calibrated.clone();
  PassManager pm(calibrated.getContext());
  pm.addNestedPass<func::FuncOp>(qnt::createQntFoldObservers(options.fold));
  // The simulation's outputs are produced as the object's are.
  if (options.floatOutputs)
    pm.addNestedPass<func::FuncOp>(qnt::createQntFloatOutputs());
  if (failed(pm.run(*folded)))
    return fail("cannot fold the observers (see above)");
  return std::move(folded);
}

Expected<Simulation> buildSimulation(ModuleOp calibrated,
                                     const BudgetOptions &options) {
  Expected<OwningOpRef<ModuleOp>> folded =
      foldedClone(calibrated, options.quantize);
  if (!folded)
    return folded.takeError();
  Simulation sim;
  auto select = [&](func::FuncOp fn) -> Expected<SmallVector<Value>> {
    findCandidates(fn, sim);
    // The mask: one f32 per switch, known once the switches are built.
    int64_t count = 0;
    fn.walk([&](qnt::FakeQuantOp fq) {
      count += isConstant(fq.getInput())
                   ? static_cast<int64_t>(llvm::range_size(fq->getUsers()))
                   : 1;
    });
    auto maskType = RankedTensorType::get({std::max<int64_t>(count, 1)},
                                          Float32Type::get(fn.getContext()));
    if (failed(
            fn.insertArgument(fn.getNumArguments(), maskType, {}, fn.getLoc())))
      return fail("cannot add the mask input to the simulation");
    Value mask = fn.getArgument(fn.getNumArguments() - 1);
    switchActivations(fn, mask, sim);
    switchWeights(fn, mask, sim);
    sim.mask.assign(maskType.getNumElements(), 0.0f);
    return SmallVector<Value>{};
  };
  Expected<std::unique_ptr<ValueProbe>> probe =
      ValueProbe::create(**folded, options.function, select,
                         /*keepQuantization=*/true);
  if (!probe)
    return probe.takeError();
  sim.probe = std::move(*probe);
  return std::move(sim);
}

/// Highest SQNR (dB) the search compares: an exact output (no error, +inf)
/// counts as this, so that margins and gains stay finite.
constexpr double kExactDb = 1000;

/// Per model output, the SQNR (dB) of one measurement: nullopt for an
/// output not measured (integer) or with a zero float signal.
using OutputSqnrs = std::vector<std::optional<double>>;

/// Sums of f^2 and (f - q)^2 per model output over the runs.
struct OutputSums {
  std::vector<double> signal, error;
  explicit OutputSums(size_t outputs) : signal(outputs), error(outputs) {}

  void add(size_t j, ArrayRef<float> f, ArrayRef<float> q) {
    for (size_t i = 0; i < f.size(); ++i) {
      double d = static_cast<double>(f[i]) - q[i];
      signal[j] += static_cast<double>(f[i]) * f[i];
      error[j] += d * d;
    }
  }
  /// The SQNRs of the outputs `measured`.
  OutputSqnrs sqnrs(ArrayRef<size_t> measured) const {
    OutputSqnrs out(signal.size());
    for (size_t j : measured)
      if (signal[j] > 0)
        out[j] =
            error[j] == 0 ? INFINITY : 10 * std::log10(signal[j] / error[j]);
    return out;
  }
};

/// The outputs the budget measures (the float ones) and their targets.
struct Targets {
  std::vector<size_t> measured;
  /// Per model output; nullopt: not constrained.
  std::vector<std::optional<double>> target;

  /// The smallest margin (SQNR - target) over the constrained outputs with
  /// a SQNR (kExactDb if none): >= 0 when the budget holds.
  double margin(const OutputSqnrs &sqnrs) const {
    double m = kExactDb;
    for (size_t j : measured)
      if (target[j] && sqnrs[j])
        m = std::min(m, std::min(*sqnrs[j], kExactDb) - *target[j]);
    return m;
  }
  /// The sum of the constrained outputs' margins.
  double total(const OutputSqnrs &sqnrs) const {
    double t = 0;
    for (size_t j : measured)
      if (target[j] && sqnrs[j])
        t += std::min(*sqnrs[j], kExactDb) - *target[j];
    return t;
  }
  /// The worst measured output's SQNR (+inf if none has one).
  double worst(const OutputSqnrs &sqnrs) const {
    double w = INFINITY;
    for (size_t j : measured)
      if (sqnrs[j])
        w = std::min(w, *sqnrs[j]);
    return w;
  }
};

/// The data, the float outputs and the runs of the models measured on it.
class Bench {
public:
  Bench(const BudgetOptions &options, Simulation &sim, const Targets &targets)
      : options(options), sim(sim), targets(targets) {}

  /// Runs the float model (every switch off) and keeps its measured
  /// outputs.
  Error measureFloat(BudgetResult &result) {
    std::fill(sim.mask.begin(), sim.mask.end(), 0.0f);
    floats.clear();
    return forEachRun(&result.sources, [&](ArrayRef<const float *> x) -> Error {
      if (Error e = runSimulation(x))
        return e;
      std::vector<std::vector<float>> &run = floats.emplace_back();
      for (size_t j : targets.measured)
        run.emplace_back(sim.probe->result(j).begin(),
                         sim.probe->result(j).end());
      return Error::success();
    });
  }

  /// The simulation's output SQNRs with `floatLayers` in float.
  Expected<OutputSqnrs> simulate(const llvm::StringSet<> &floatLayers) {
    sim.setMask(floatLayers);
    OutputSums sums(sim.probe->numResults());
    size_t run = 0;
    Error e = forEachRun(nullptr, [&](ArrayRef<const float *> x) -> Error {
      if (Error e = runSimulation(x))
        return e;
      accumulate(run++, sums, [&](size_t j) { return sim.probe->result(j); });
      return Error::success();
    });
    if (e)
      return std::move(e);
    return sums.sqnrs(targets.measured);
  }

  /// The real int8 model's output SQNRs with `floatLayers` in float, and
  /// its median milliseconds per run.
  Expected<std::pair<OutputSqnrs, double>>
  measureInt8(ModuleOp calibrated, const std::vector<std::string> &floatLayers,
              const std::string &isa) {
    OwningOpRef<ModuleOp> int8 = calibrated.clone();
    QuantizeOptions quantize = options.quantize;
    for (const std::string &name : floatLayers)
      quantize.quantize.exclude.push_back(name);
    PassManager pm(calibrated.getContext());
    buildQuantizePipeline(pm, quantize);
    if (failed(pm.run(*int8)))
      return fail("cannot quantize the model with the layers in float "
                  "(see above)");
    auto model =
        CompiledModel::create(*int8, options.function, [&](OpPassManager &pm) {
          buildInt8ToLLVMPipeline(pm, isa);
        });
    if (!model)
      return model.takeError();
    std::vector<std::vector<float>> out;
    std::vector<float *> pointers;
    for (const ModelTensor &t : (*model)->outputs())
      out.emplace_back(t.numElements());
    for (std::vector<float> &o : out)
      pointers.push_back(o.data());
    OutputSums sums(out.size());
    std::vector<double> ms;
    size_t run = 0;
    Error e = forEachRun(nullptr, [&](ArrayRef<const float *> x) -> Error {
      auto start = std::chrono::steady_clock::now();
      if (Error e = (*model)->run(x.drop_back(), pointers))
        return e;
      ms.push_back(std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - start)
                       .count());
      accumulate(run++, sums, [&](size_t j) { return ArrayRef(out[j]); });
      return Error::success();
    });
    if (e)
      return std::move(e);
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    return std::make_pair(sums.sqnrs(targets.measured), ms[ms.size() / 2]);
  }

  int64_t runs() const { return static_cast<int64_t>(floats.size()); }

private:
  /// Calls `body` with every run's inputs and the mask after them.
  Error forEachRun(std::vector<std::string> *sources,
                   llvm::function_ref<Error(ArrayRef<const float *>)> body) {
    ArrayRef<ModelTensor> inputs = sim.probe->inputs();
    return forEachSample(options.data, options.maxSamples, inputs.drop_back(),
                         sources, [&](ArrayRef<const float *> x) {
                           SmallVector<const float *> all(x);
                           all.push_back(sim.mask.data());
                           return body(all);
                         });
  }
  Error runSimulation(ArrayRef<const float *> x) { return sim.probe->run(x); }
  /// Adds run `run`'s measured outputs (`output(j)`: model output j)
  /// against the float ones to `sums`.
  void accumulate(size_t run, OutputSums &sums,
                  llvm::function_ref<ArrayRef<float>(size_t)> output) const {
    for (auto [k, j] : llvm::enumerate(targets.measured))
      sums.add(j, floats[run][k], output(j));
  }

  const BudgetOptions &options;
  Simulation &sim;
  const Targets &targets;
  /// Per run, the float model's measured outputs (targets.measured).
  std::vector<std::vector<std::vector<float>>> floats;
};

/// Ranks `ranking[from:]` by the simulated output margin (the worst
/// constrained output's SQNR minus its target) each layer gains when it is
/// kept in float besides `base` (the user's exclusions) and
/// `ranking[:from]`; most sensitive first, ties by the sum of the margins'
/// gains. Ranking again after each step of the search lets a layer that
/// only pays together with its neighbours (whose output quantization goes
/// once its readers are float) rise.
Error rankFrom(Bench &bench, const Targets &targets,
               const llvm::StringSet<> &base, size_t from,
               std::vector<LayerSensitivity> &ranking) {
  llvm::StringSet<> floats = base;
  for (size_t i = 0; i < from; ++i)
    floats.insert(ranking[i].name);
  Expected<OutputSqnrs> baseline = bench.simulate(floats);
  if (!baseline)
    return baseline.takeError();
  for (LayerSensitivity &c : llvm::drop_begin(ranking, from)) {
    llvm::StringSet<> with = floats;
    with.insert(c.name);
    Expected<OutputSqnrs> s = bench.simulate(with);
    if (!s)
      return s.takeError();
    c.gainDb = targets.margin(*s) - targets.margin(*baseline);
    c.totalGainDb = targets.total(*s) - targets.total(*baseline);
  }
  std::stable_sort(ranking.begin() + from, ranking.end(),
                   [](const LayerSensitivity &a, const LayerSensitivity &b) {
                     return a.gainDb != b.gainDb
                                ? a.gainDb > b.gainDb
                                : a.totalGainDb > b.totalGainDb;
                   });
  return Error::success();
}

/// The name of model output `j` (the report's, quant-run's).
std::string outputName(const ModelTensor &t, size_t j) {
  return t.name.empty() ? "output" + std::to_string(j) : t.name;
}

/// Checks that every per-output target of `budget` names a float output of
/// `results` (named `names`).
Error checkTargetNames(ArrayRef<ModelTensor> results,
                       ArrayRef<std::string> names,
                       const OutputSqnrBudget &budget) {
  for (const auto &[name, db] : budget.outputs) {
    const auto *it = llvm::find(names, name);
    if (it == names.end())
      return fail("--min-output-sqnr: the model has no output '" + name +
                  "' (its outputs: " + llvm::join(names, ", ") +
                  "); give NAME=DB with one of them");
    const ModelTensor &t = results[it - names.begin()];
    if (!t.isFloat())
      return fail("--min-output-sqnr: output '" + name + "' is " + t.dtype +
                  ", which has no SQNR: give targets to float outputs");
  }
  return Error::success();
}

/// The outputs the budget measures (every float output of `results`, the
/// model's) and their targets: an output's own, else the one for all
/// outputs; with no target at all (a ranking alone) 0 dB for every output,
/// which ranks by the worst output's SQNR. Records them in `result`.
Expected<Targets> makeTargets(ArrayRef<ModelTensor> results,
                              const BudgetOptions &options,
                              BudgetResult &result) {
  const OutputSqnrBudget &budget = options.minOutputSqnr;
  for (const auto &[name, db] : budget.outputs)
    if (!std::isfinite(db))
      return fail("the SQNR budget of output '" + name +
                  "' must be a finite number of dB");
  if (budget.all && !std::isfinite(*budget.all))
    return fail("the output SQNR budget must be a finite number of dB");
  std::vector<std::string> names;
  for (auto [j, t] : llvm::enumerate(results))
    names.push_back(outputName(t, j));
  if (Error e = checkTargetNames(results, names, budget))
    return std::move(e);
  Targets targets;
  for (auto [j, t] : llvm::enumerate(results)) {
    std::optional<double> target;
    if (t.isFloat()) {
      target = budget.empty() ? std::optional<double>(0) : budget.of(names[j]);
      targets.measured.push_back(j);
      OutputBudget &o = result.outputs.emplace_back();
      o.name = names[j];
      o.index = static_cast<int64_t>(j);
      if (!budget.empty())
        o.target = target;
    }
    targets.target.push_back(target);
  }
  if (targets.measured.empty())
    return fail("the accuracy budget measures the SQNR of float outputs, and "
                "the model's outputs are all integers (" +
                llvm::join(names, ", ") +
                "): keep layers in float with --exclude instead");
  return targets;
}

/// Records the real int8 model's output SQNRs `sqnrs`: before any layer is
/// kept in float (`before`) or after.
void recordOutputs(BudgetResult &result, const Targets &targets,
                   const OutputSqnrs &sqnrs, bool before) {
  (before ? result.sqnrBefore : result.sqnrAfter) = targets.worst(sqnrs);
  for (OutputBudget &o : result.outputs)
    (before ? o.sqnrBefore : o.sqnrAfter) = sqnrs[o.index];
}

} // namespace

Expected<BudgetResult> quantc::findFloatLayers(ModuleOp calibrated,
                                               const BudgetOptions &options) {
  Expected<Simulation> sim = buildSimulation(calibrated, options);
  if (!sim)
    return sim.takeError();
  BudgetResult result;
  Expected<Targets> targets = makeTargets(
      ArrayRef(sim->probe->outputs()).take_front(sim->probe->numResults()),
      options, result);
  if (!targets)
    return targets.takeError();
  result.minOutputSqnr = options.minOutputSqnr;
  result.totalMacs = sim->totalMacs;
  result.isa = hostInt8Isa();
  Bench bench(options, *sim, *targets);
  if (Error e = bench.measureFloat(result))
    return std::move(e);
  result.samples = bench.runs();
  if (result.samples == 0)
    return fail("the accuracy budget has no data to measure on");
  llvm::StringSet<> floats;
  for (const std::string &name : options.quantize.quantize.exclude)
    floats.insert(name);
  auto before = bench.measureInt8(calibrated, {}, result.isa);
  if (!before)
    return before.takeError();
  recordOutputs(result, *targets, before->first, /*before=*/true);
  recordOutputs(result, *targets, before->first, /*before=*/false);
  result.msBefore = result.msAfter = before->second;
  result.met = targets->margin(before->first) >= 0;
  if (result.met && !options.rankOnly)
    return std::move(result);
  for (const LayerSensitivity &c : sim->candidates)
    if (!floats.count(c.name))
      result.ranking.push_back(c);
  if (Error e = rankFrom(bench, *targets, floats, 0, result.ranking))
    return std::move(e);
  if (options.rankOnly)
    return std::move(result);
  // The smallest prefix of the ranking the real model accepts: doubling,
  // then bisection (assuming more float layers never lose accuracy).
  std::map<int64_t, std::pair<OutputSqnrs, double>> measured{{0, *before}};
  auto accepts = [&](int64_t k) -> Expected<bool> {
    if (!measured.count(k)) {
      std::vector<std::string> names;
      for (int64_t i = 0; i < k; ++i)
        names.push_back(result.ranking[i].name);
      auto after = bench.measureInt8(calibrated, names, result.isa);
      if (!after)
        return after.takeError();
      measured[k] = *after;
      BudgetCheck &check = result.checks.emplace_back();
      check.floatLayers = k;
      check.sqnrDb = targets->worst(after->first);
      for (const OutputBudget &o : result.outputs)
        check.outputsDb.push_back(after->first[o.index]);
    }
    return targets->margin(measured[k].first) >= 0;
  };
  int64_t count = static_cast<int64_t>(result.ranking.size());
  int64_t low = 0, high = std::min<int64_t>(1, count);
  for (;;) {
    Expected<bool> ok = accepts(high);
    if (!ok)
      return ok.takeError();
    if (*ok || high == count) {
      result.met = *ok;
      break;
    }
    low = high;
    high = std::min(2 * high, count);
    if (Error e = rankFrom(bench, *targets, floats, low, result.ranking))
      return std::move(e);
  }
  while (result.met && high - low > 1) {
    int64_t mid = low + (high - low) / 2;
    Expected<bool> ok = accepts(mid);
    if (!ok)
      return ok.takeError();
    (*ok ? high : low) = mid;
  }
  result.floatLayers.assign(result.ranking.begin(),
                            result.ranking.begin() + high);
  recordOutputs(result, *targets, measured[high].first, /*before=*/false);
  result.msAfter = measured[high].second;
  return std::move(result);
}
