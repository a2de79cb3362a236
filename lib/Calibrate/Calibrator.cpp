//===- Calibrator.cpp - Calibration by running compiled code --------------===//
//
// The model is lowered with the calibration pipeline (observers become calls
// to qnt_rt_observe), with OpenMP parallel loops when libomp is installed,
// and JIT-compiled with MLIR's ExecutionEngine at -O3. The
// compiled code calls back into record(), which hands activations to the
// observer library. Activations of `batchSize` samples are observed together,
// as PyTorch's observers see one DataLoader batch; constants (weights) are
// observed once.
//
//===----------------------------------------------------------------------===//

#include "quantc/Calibrate/Calibrator.h"
#include "quantc/Runtime/CompiledModel.h"
#include "quantc/Support/Fail.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>

using namespace mlir;
using namespace quantc;
using llvm::Error;
using llvm::Expected;

using quantc::fail;

namespace {
/// A stream that hashes what is written to it: the printed model (weights
/// in hex, over 1 GB for VGG-11) is hashed as it is printed, never held.
class SHA256Stream : public llvm::raw_ostream {
public:
  explicit SHA256Stream(llvm::SHA256 &sha) : sha(sha) { SetBuffered(); }
  ~SHA256Stream() override { flush(); }

private:
  void write_impl(const char *data, size_t size) override {
    sha.update(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(data), size));
    pos += size;
  }
  uint64_t current_pos() const override { return pos; }

  llvm::SHA256 &sha;
  uint64_t pos = 0;
};
} // namespace

std::string quantc::modelHash(ModuleOp module) {
  OwningOpRef<ModuleOp> clone = module.clone();
  // Neither the statistics nor reduce_range (which only changes the
  // parameters computed from them, a choice of the target) make another
  // model: a profile calibrated for one target loads for any other.
  clone->walk([](qnt::ObserveOp op) {
    op.removeStateAttr();
    quantc::obs::ObserverConfig config = qnt::toObserverConfig(op.getConfig());
    config.reduceRange = false;
    op.setConfigAttr(qnt::getObserverConfigAttr(op.getContext(), config));
  });
  llvm::SHA256 sha;
  {
    SHA256Stream os(sha);
    clone->print(os, OpPrintingFlags().printGenericOpForm());
  }
  return llvm::toHex(sha.final(), /*LowerCase=*/true);
}

namespace {

/// One observer of the model and what it has seen.
struct Slot {
  qnt::ObserveOp op;
  std::string name, location;
  std::vector<int64_t> shape;
  /// Observes a constant (a weight): once is enough.
  bool constant = false;
  /// Per-tensor activations are collected over a batch of samples first.
  bool batched = false;
  obs::Observer observer;
  std::vector<float> pending;
  int64_t pendingSamples = 0;
};

/// The calibrator the compiled code reports to (one session per thread).
thread_local Calibrator *activeCalibrator = nullptr;

std::string describe(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else if (auto fused = dyn_cast<FusedLoc>(loc);
           fused && !fused.getLocations().empty())
    return describe(fused.getLocations().front());
  else if (auto name = dyn_cast<NameLoc>(loc))
    return describe(name.getChildLoc());
  return text;
}

} // namespace

/// Forwards observer calls of the compiled model to the active calibrator.
static void forwardObservation(int64_t id, const float *data,
                               llvm::ArrayRef<int64_t> sizes,
                               llvm::ArrayRef<int64_t> strides) {
  if (activeCalibrator)
    activeCalibrator->record(id, data, sizes, strides);
}

struct Calibrator::Impl {
  ModuleOp module;
  std::string function;
  CalibrationOptions options;
  /// modelHash(module), computed when a profile needs it: printing a large
  /// model's weights to hash them takes seconds (ViT-B/16: 350 MB of hex).
  /// The observers' states, which calibration adds, are not part of it.
  std::optional<std::string> hash;
  const std::string &getHash() {
    if (!hash)
      hash = modelHash(module);
    return *hash;
  }
  std::unique_ptr<CompiledModel> model;
  std::vector<Slot> slots;
  int64_t samples = 0, samplesInBatch = 0;
  std::vector<std::string> sources;
  std::string runtimeError;
  std::vector<float> scratch;

  Error flush();
  Error observe(Slot &slot, const float *data, std::vector<int64_t> shape);
  /// An observer's status as an Error naming the observer.
  Error observerError(const Slot &slot, const Status &status);
};

Calibrator::Calibrator(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Calibrator::~Calibrator() = default;

int64_t Calibrator::samples() const { return impl->samples; }

bool Calibrator::done() const {
  return impl->options.maxSamples > 0 &&
         impl->samples >= impl->options.maxSamples;
}

Expected<std::unique_ptr<Calibrator>>
Calibrator::create(ModuleOp module, StringRef function,
                   const CalibrationOptions &options) {
  if (options.batchSize < 1)
    return fail("batch size must be positive");
  if (options.maxSamples < 0)
    return fail("the maximum number of samples must be >= 0 (0: all)");
  Expected<Operation *> fn = findModelFunction(module, function);
  if (!fn)
    return fn.takeError();
  auto impl = std::make_unique<Impl>();
  impl->module = module;
  impl->function = cast<func::FuncOp>(*fn).getSymName().str();
  impl->options = options;

  // Observers, numbered as qnt-instrument-observers numbers them.
  Error error = Error::success();
  llvm::StringSet<> names;
  module.walk([&](qnt::ObserveOp op) {
    if (error)
      return;
    Slot slot{op,
              "",
              describe(op.getLoc()),
              {},
              false,
              false,
              *obs::Observer::create(obs::ObserverConfig()),
              {},
              0};
    slot.name = op.getName() ? op.getName()->str()
                             : "observer" + std::to_string(impl->slots.size());
    if (!names.insert(slot.name).second) {
      error = fail("two observers are named '" + slot.name +
                   "'; observer names identify them in profiles");
      return;
    }
    auto shape = op.getInput().getType().getShape();
    slot.shape.assign(shape.begin(), shape.end());
    slot.constant = matchPattern(op.getInput(), m_Constant());
    slot.batched =
        !slot.constant && !op.getConfig().isPerChannel() && !slot.shape.empty();
    quantc::StatusOr<obs::Observer> observer =
        obs::Observer::create(qnt::toObserverConfig(op.getConfig()));
    Status status = observer.status();
    if (observer.ok()) {
      slot.observer = std::move(*observer);
      if (qnt::ObserverStateAttr state = op.getStateAttr())
        status = slot.observer.setState(qnt::toObserverState(state));
    }
    if (status.failed()) {
      error = toError(status, "observer '" + slot.name + "': ");
      return;
    }
    impl->slots.push_back(std::move(slot));
  });
  if (error)
    return std::move(error);
  if (impl->slots.empty())
    return fail("the model has no qnt.observe ops: insert observers first "
                "(quant-opt --qnt-insert-observers)");

  // The calibration build, on every core when LLVM's OpenMP runtime is
  // there to load.
  ParallelOptions parallel;
  if (llvm::sys::fs::exists(QUANTC_OMP_RUNTIME))
    parallel.parallelism = Parallelism::OpenMP;
  auto model = CompiledModel::create(
      module, impl->function,
      [&](OpPassManager &pm) {
        buildCalibrationPipeline(pm, parallel, hostVectorBits());
      },
      options.verifyEachPass, options.timing);
  if (!model)
    return model.takeError();
  impl->model = std::move(*model);
  return std::unique_ptr<Calibrator>(new Calibrator(std::move(impl)));
}

void Calibrator::record(int64_t id, const float *data,
                        llvm::ArrayRef<int64_t> sizes,
                        llvm::ArrayRef<int64_t> strides) {
  if (id < 0 || id >= static_cast<int64_t>(impl->slots.size()) ||
      !impl->runtimeError.empty())
    return;
  Slot &slot = impl->slots[id];
  if (slot.constant && slot.observer.state().batches > 0)
    return;
  int64_t count = 1;
  bool contiguous = true;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != count)
      contiguous = false;
    count *= sizes[d];
  }
  const float *dense = data;
  if (!contiguous) {
    // Bufferization may hand over a strided view: gather it row-major.
    std::vector<float> &gathered = impl->scratch;
    gathered.resize(count);
    std::vector<int64_t> index(sizes.size(), 0);
    for (int64_t i = 0; i < count; ++i) {
      int64_t offset = 0;
      for (size_t d = 0; d < sizes.size(); ++d)
        offset += index[d] * strides[d];
      gathered[i] = data[offset];
      for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
        if (++index[d] < sizes[d])
          break;
        index[d] = 0;
      }
    }
    dense = gathered.data();
  }
  if (slot.batched) {
    // Room for a whole batch at once: growing by doubling would copy the
    // activations seen so far (gigabytes for a transformer) again and again.
    if (slot.pending.empty()) {
      int64_t batch = impl->options.batchSize;
      if (impl->options.maxSamples > 0)
        batch = std::min(batch, impl->options.maxSamples);
      slot.pending.reserve(count * std::max<int64_t>(batch, 1));
    }
    slot.pending.insert(slot.pending.end(), dense, dense + count);
    ++slot.pendingSamples;
    return;
  }
  if (Error e = impl->observe(slot, dense, slot.shape))
    impl->runtimeError = llvm::toString(std::move(e));
}

Error Calibrator::Impl::observe(Slot &slot, const float *data,
                                std::vector<int64_t> shape) {
  return observerError(slot, slot.observer.observe(data, shape));
}

Error Calibrator::Impl::observerError(const Slot &slot, const Status &status) {
  return toError(status, "observer '" + slot.name + "' (" + slot.location +
                             "), samples up to " + llvm::Twine(samples) + ": ");
}

Error Calibrator::Impl::flush() {
  // The observers are independent: a batch is observed by all of them in
  // parallel (histograms of every activation of a large model take
  // seconds); the first error in model order is reported.
  std::vector<Slot *> ready;
  for (Slot &slot : slots)
    if (slot.batched && slot.pendingSamples > 0)
      ready.push_back(&slot);
  std::vector<Status> errors(ready.size(), Status::success());
  mlir::parallelFor(module.getContext(), 0, ready.size(), [&](size_t i) {
    Slot &slot = *ready[i];
    std::vector<int64_t> shape = slot.shape;
    shape[0] *= slot.pendingSamples;
    errors[i] = slot.observer.observe(slot.pending.data(), shape);
    slot.pending.clear();
    slot.pendingSamples = 0;
  });
  samplesInBatch = 0;
  for (size_t i = 0; i < ready.size(); ++i)
    if (Error e = observerError(*ready[i], errors[i]))
      return e;
  return Error::success();
}

const std::vector<ModelTensor> &Calibrator::inputs() const {
  return impl->model->inputs();
}

Error Calibrator::runFiles(ArrayRef<std::string> paths) {
  return forEachSampleFile(
      paths, inputs(), [&](const ModelSamples &samples, bool &stop) -> Error {
        if (Error e = run(samples))
          return e;
        stop = done();
        return Error::success();
      });
}

Error Calibrator::run(const ModelSamples &samples) {
  Impl &m = *impl;
  const std::vector<ModelTensor> &in = m.model->inputs();
  if (samples.inputs.size() != in.size())
    return fail(samples.source + ": expected samples for " +
                llvm::Twine(in.size()) + " inputs");
  const std::string &source = samples.source;
  m.sources.push_back(source);

  std::vector<std::vector<float>> outputs;
  std::vector<float *> outputPtrs;
  for (const ModelTensor &t : m.model->outputs())
    outputs.emplace_back(t.numElements());
  for (std::vector<float> &o : outputs)
    outputPtrs.push_back(o.data());
  bool tty = llvm::sys::Process::StandardErrIsDisplayed();
  activeCalibrator = this;
  CompiledModel::setObserveCallback(forwardObservation);
  auto stop = [&](Error e) {
    activeCalibrator = nullptr;
    CompiledModel::setObserveCallback(nullptr);
    return e;
  };
  // A model compiled for a batch of B (the first input's first dimension)
  // takes B samples per run: statistics are gathered over the same groups
  // of samples as for batch 1, so the parameters do not depend on B.
  const std::vector<int64_t> &first = in.front().shape;
  const int64_t perRun = first.empty() ? 1 : std::max<int64_t>(first[0], 1);
  for (int64_t r = 0; r < samples.runs && !done(); ++r) {
    if (Error e = m.model->run(samples.run(r), outputPtrs))
      return stop(std::move(e));
    if (!m.runtimeError.empty())
      return stop(fail(source + ": " + m.runtimeError));
    m.samples += perRun;
    m.samplesInBatch += perRun;
    if (m.samplesInBatch >= m.options.batchSize)
      if (Error e = m.flush())
        return stop(fail(source + ": " + llvm::toString(std::move(e))));
    if (m.options.progress && (tty ? true : m.samples % 1000 == 0))
      llvm::errs() << (tty ? "\r" : "") << "calibrating: " << m.samples
                   << " samples" << (tty ? "" : "\n");
  }
  if (m.options.progress && tty)
    llvm::errs() << "\n";
  return stop(Error::success());
}

Error Calibrator::finish() {
  if (Error e = impl->flush())
    return e;
  return Error::success();
}

Error Calibrator::writeStates() {
  for (Slot &slot : impl->slots)
    if (slot.observer.state().batches == 0)
      return fail("observer '" + slot.name + "' (" + slot.location +
                  ") never ran: no calibration sample reached it");
  for (Slot &slot : impl->slots)
    slot.op.setStateAttr(
        qnt::getObserverStateAttr(slot.op.getContext(), slot.observer.state()));
  return Error::success();
}

Profile Calibrator::profile() const {
  Profile p;
  p.modelHash = impl->getHash();
  p.function = impl->function;
  p.tool = kToolVersion;
  p.samples = impl->samples;
  p.batchSize = impl->options.batchSize;
  p.sources = impl->sources;
  for (const Slot &slot : impl->slots)
    p.observers.push_back({slot.name, slot.location, slot.shape,
                           slot.observer.config(), slot.observer.state()});
  return p;
}

Error Calibrator::loadProfile(const Profile &profile) {
  Impl &m = *impl;
  if (profile.modelHash != m.getHash())
    return fail("the profile was made for a different model (its hash " +
                profile.modelHash.substr(0, 16) + "... is not this model's " +
                m.getHash().substr(0, 16) + "...)");
  if (profile.observers.size() != m.slots.size())
    return fail("the profile has " + llvm::Twine(profile.observers.size()) +
                " observers, the model " + llvm::Twine(m.slots.size()));
  for (size_t i = 0; i < m.slots.size(); ++i) {
    const ProfileObserver &o = profile.observers[i];
    Slot &slot = m.slots[i];
    if (o.name != slot.name || o.shape != slot.shape)
      return fail("profile observer #" + llvm::Twine(i) + " '" + o.name +
                  "' does not match the model's '" + slot.name + "'");
    if (Error e = toError(slot.observer.setState(o.state),
                          "profile observer '" + o.name + "': "))
      return e;
  }
  m.samples = profile.samples;
  m.sources = profile.sources;
  return Error::success();
}
