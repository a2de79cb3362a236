//===- Calibrator.cpp - Calibration by running compiled code --------------===//
//
// The model is lowered with the calibration pipeline (observers become calls
// to qnt_rt_observe) and JIT-compiled with MLIR's ExecutionEngine at -O3. The
// compiled code calls back into record(), which hands activations to the
// observer library. Activations of `batchSize` samples are observed together,
// as PyTorch's observers see one DataLoader batch; constants (weights) are
// observed once.
//
//===----------------------------------------------------------------------===//

#include "quantc/Calibrate/Calibrator.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>

using namespace mlir;
using namespace quantc;
using llvm::Error;
using llvm::Expected;

static Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string quantc::modelHash(ModuleOp module) {
  OwningOpRef<ModuleOp> clone = module.clone();
  clone->walk([](qnt::ObserveOp op) { op.removeStateAttr(); });
  std::string text;
  llvm::raw_string_ostream os(text);
  clone->print(os, OpPrintingFlags().printGenericOpForm());
  llvm::SHA256 sha;
  sha.update(text);
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
  calib::Observer observer;
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
  else if (auto fused = dyn_cast<FusedLoc>(loc); fused && !fused.getLocations().empty())
    return describe(fused.getLocations().front());
  else if (auto name = dyn_cast<NameLoc>(loc))
    return describe(name.getChildLoc());
  return text;
}

} // namespace

/// Entry point the compiled model calls for every observer execution.
extern "C" void quantc_rt_observe(int64_t id,
                                  ::UnrankedMemRefType<float> *memref) {
  if (!activeCalibrator)
    return;
  int64_t rank = memref->rank;
  auto *desc = static_cast<StridedMemRefType<float, 1> *>(memref->descriptor);
  const int64_t *sizes = desc->sizes;
  const int64_t *strides = sizes + rank;
  activeCalibrator->record(id, desc->data + desc->offset,
                           llvm::ArrayRef<int64_t>(sizes, rank),
                           llvm::ArrayRef<int64_t>(strides, rank));
}

struct Calibrator::Impl {
  ModuleOp module;
  std::string function;
  CalibrationOptions options;
  std::string hash;
  std::unique_ptr<ExecutionEngine> engine;
  std::vector<Slot> slots;
  std::vector<int64_t> inputShape;
  std::vector<std::vector<int64_t>> outputShapes;
  int64_t samples = 0, samplesInBatch = 0;
  std::vector<std::string> sources;
  std::string runtimeError;
  std::vector<float> scratch;

  Error flush();
  Error observe(Slot &slot, const float *data, std::vector<int64_t> shape);
};

Calibrator::Calibrator(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Calibrator::~Calibrator() = default;

int64_t Calibrator::samples() const { return impl->samples; }

bool Calibrator::done() const {
  return impl->options.maxSamples > 0 &&
         impl->samples >= impl->options.maxSamples;
}

static Expected<func::FuncOp> findFunction(ModuleOp module, StringRef name) {
  func::FuncOp found;
  int publicCount = 0;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isDeclaration())
      continue;
    if (!name.empty() ? fn.getSymName() == name : fn.isPublic()) {
      found = fn;
      ++publicCount;
    }
  }
  if (!found)
    return fail(name.empty() ? "the module has no public function to calibrate"
                             : "no function '" + name + "' in the module");
  if (publicCount > 1)
    return fail("the module has several public functions; choose one with "
                "--function");
  return found;
}

Expected<std::unique_ptr<Calibrator>>
Calibrator::create(ModuleOp module, StringRef function,
                   const CalibrationOptions &options) {
  if (options.batchSize < 1)
    return fail("batch size must be positive");
  Expected<func::FuncOp> fn = findFunction(module, function);
  if (!fn)
    return fn.takeError();
  auto impl = std::make_unique<Impl>();
  impl->module = module;
  impl->function = fn->getSymName().str();
  impl->options = options;
  impl->hash = modelHash(module);

  FunctionType type = fn->getFunctionType();
  if (type.getNumInputs() != 1)
    return fail("'" + impl->function + "' has " + llvm::Twine(type.getNumInputs()) +
                " inputs; quant-calibrate supports single-input models");
  auto inputType = dyn_cast<RankedTensorType>(type.getInput(0));
  if (!inputType || !inputType.hasStaticShape() ||
      !inputType.getElementType().isF32())
    return fail("the model input must be a statically shaped f32 tensor");
  impl->inputShape.assign(inputType.getShape().begin(),
                          inputType.getShape().end());
  for (Type result : type.getResults()) {
    auto t = dyn_cast<RankedTensorType>(result);
    if (!t || !t.hasStaticShape())
      return fail("model results must be statically shaped tensors");
    impl->outputShapes.emplace_back(t.getShape().begin(), t.getShape().end());
  }

  // Observers, numbered as qnt-instrument-observers numbers them.
  Error error = Error::success();
  llvm::StringSet<> names;
  module.walk([&](qnt::ObserveOp op) {
    if (error)
      return;
    Slot slot{op, "", describe(op.getLoc()), {}, false, false,
              *calib::Observer::create(calib::ObserverConfig()), {}, 0};
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
    slot.batched = !slot.constant && !op.getConfig().isPerChannel() &&
                   !slot.shape.empty();
    calib::ErrorOr<calib::Observer> observer =
        calib::Observer::create(qnt::toObserverConfig(op.getConfig()));
    if (!observer) {
      error = fail("observer '" + slot.name + "': " + observer.error());
      return;
    }
    slot.observer = std::move(*observer);
    if (qnt::ObserverStateAttr state = op.getStateAttr())
      if (auto e = slot.observer.setState(qnt::toObserverState(state))) {
        error = fail("observer '" + slot.name + "': " + *e);
        return;
      }
    impl->slots.push_back(std::move(slot));
  });
  if (error)
    return std::move(error);
  if (impl->slots.empty())
    return fail("the model has no qnt.observe ops: insert observers first "
                "(quant-opt --qnt-insert-observers)");

  // The calibration build.
  OwningOpRef<ModuleOp> build = module.clone();
  MLIRContext *ctx = module.getContext();
  DialectRegistry registry;
  registerAllToLLVMIRTranslations(registry);
  ctx->appendDialectRegistry(registry);
  PassManager pm(ctx);
  buildCalibrationPipeline(pm);
  if (failed(pm.run(*build)))
    return fail("cannot compile the model for calibration (see the errors "
                "above)");

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  stripBufferizationAttrs(*build);
  ExecutionEngineOptions engineOptions;
  // `transformer` is a function_ref: keep the callable alive here.
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(3, 0, nullptr);
  engineOptions.transformer = optimize;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  std::string runtimeLib = QUANTC_C_RUNNER_UTILS;
  SmallVector<StringRef> libs{runtimeLib};
  engineOptions.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(*build, engineOptions);
  if (!engine)
    return fail("JIT compilation failed: " + llvm::toString(engine.takeError()));
  impl->engine = std::move(*engine);
  impl->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    map[interner("_mlir_ciface_qnt_rt_observe")] = {
        llvm::orc::ExecutorAddr::fromPtr(&quantc_rt_observe),
        llvm::JITSymbolFlags::Exported};
    return map;
  });
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
  // Gather into contiguous row-major order (bufferization may hand over a
  // strided view).
  int64_t count = 1;
  for (int64_t s : sizes)
    count *= s;
  std::vector<float> &dense = impl->scratch;
  dense.resize(count);
  std::vector<int64_t> index(sizes.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t offset = 0;
    for (size_t d = 0; d < sizes.size(); ++d)
      offset += index[d] * strides[d];
    dense[i] = data[offset];
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  if (slot.batched) {
    slot.pending.insert(slot.pending.end(), dense.begin(), dense.end());
    ++slot.pendingSamples;
    return;
  }
  if (Error e = impl->observe(slot, dense.data(), slot.shape))
    impl->runtimeError = llvm::toString(std::move(e));
}

Error Calibrator::Impl::observe(Slot &slot, const float *data,
                                std::vector<int64_t> shape) {
  if (std::optional<std::string> error = slot.observer.observe(data, shape))
    return fail("observer '" + slot.name + "' (" + slot.location +
                "), samples up to " + llvm::Twine(samples) + ": " + *error);
  return Error::success();
}

Error Calibrator::Impl::flush() {
  for (Slot &slot : slots) {
    if (!slot.batched || slot.pendingSamples == 0)
      continue;
    std::vector<int64_t> shape = slot.shape;
    shape[0] *= slot.pendingSamples;
    Error e = observe(slot, slot.pending.data(), shape);
    slot.pending.clear();
    slot.pendingSamples = 0;
    if (e)
      return e;
  }
  samplesInBatch = 0;
  return Error::success();
}

Error Calibrator::run(const NpyArray &samples, StringRef source) {
  Impl &m = *impl;
  const std::vector<int64_t> &in = m.inputShape;
  int64_t sampleSize = 1;
  for (int64_t d : in)
    sampleSize *= d;
  // Accept [k * batch, rest...] or, for a batch of 1, [rest...].
  std::vector<int64_t> rest(in.begin() + 1, in.end());
  bool stacked = samples.shape.size() == in.size() && !in.empty() &&
                 std::equal(rest.begin(), rest.end(), samples.shape.begin() + 1) &&
                 samples.shape[0] % in[0] == 0;
  bool single = in.size() > 0 && in[0] == 1 && samples.shape == rest;
  if (!stacked && !single) {
    std::string want, got;
    llvm::raw_string_ostream w(want), g(got);
    llvm::interleave(in, w, "x");
    llvm::interleave(samples.shape, g, "x");
    return fail(source + ": shape " + got + " does not match the model input " +
                want + " (expected N samples stacked along the first "
                "dimension)");
  }
  int64_t count = static_cast<int64_t>(samples.data.size()) / sampleSize;
  if (count == 0)
    return fail(source + ": no samples (empty array)");
  for (int64_t i = 0; i < count * sampleSize; ++i)
    if (!std::isfinite(samples.data[i]))
      return fail(source + ": sample " + llvm::Twine(i / sampleSize) +
                  " contains NaN or Inf; calibration data must be finite");
  m.sources.push_back(source.str());

  std::vector<std::vector<float>> outputs;
  for (const auto &shape : m.outputShapes) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    outputs.emplace_back(n);
  }
  bool tty = llvm::sys::Process::StandardErrIsDisplayed();
  activeCalibrator = this;
  for (int64_t s = 0; s < count && !done(); ++s) {
    // Expanded memref arguments: allocated, aligned, offset, sizes, strides.
    std::vector<int64_t> storage;
    std::vector<void *> args;
    std::vector<float *> pointers;
    pointers.reserve(2 * (1 + outputs.size()));
    storage.reserve(64);
    auto addMemref = [&](float *data, const std::vector<int64_t> &shape) {
      pointers.push_back(data);
      args.push_back(&pointers.back());
      pointers.push_back(data);
      args.push_back(&pointers.back());
      storage.push_back(0);
      size_t first = storage.size() - 1;
      for (int64_t d : shape)
        storage.push_back(d);
      int64_t stride = 1;
      std::vector<int64_t> strides(shape.size());
      for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
        strides[d] = stride;
        stride *= shape[d];
      }
      for (int64_t st : strides)
        storage.push_back(st);
      for (size_t k = first; k < storage.size(); ++k)
        args.push_back(&storage[k]);
    };
    addMemref(const_cast<float *>(samples.data.data()) + s * sampleSize, in);
    for (size_t o = 0; o < outputs.size(); ++o)
      addMemref(outputs[o].data(), m.outputShapes[o]);
    if (llvm::Error e = m.engine->invokePacked(m.function, args)) {
      activeCalibrator = nullptr;
      return fail("running the compiled model failed: " +
                  llvm::toString(std::move(e)));
    }
    if (!m.runtimeError.empty()) {
      activeCalibrator = nullptr;
      return fail(source + ": " + m.runtimeError);
    }
    ++m.samples;
    if (++m.samplesInBatch == m.options.batchSize)
      if (Error e = m.flush()) {
        activeCalibrator = nullptr;
        return fail(source + ": " + llvm::toString(std::move(e)));
      }
    if (m.options.progress && (tty ? true : m.samples % 1000 == 0))
      llvm::errs() << (tty ? "\r" : "") << "calibrating: " << m.samples
                   << " samples" << (tty ? "" : "\n");
  }
  activeCalibrator = nullptr;
  if (m.options.progress && tty)
    llvm::errs() << "\n";
  return Error::success();
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
    slot.op.setStateAttr(qnt::getObserverStateAttr(slot.op.getContext(),
                                                   slot.observer.state()));
  return Error::success();
}

Profile Calibrator::profile() const {
  Profile p;
  p.modelHash = impl->hash;
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
  if (profile.modelHash != m.hash)
    return fail("the profile was made for a different model (its hash " +
                profile.modelHash.substr(0, 16) + "... is not this model's " +
                m.hash.substr(0, 16) + "...)");
  if (profile.observers.size() != m.slots.size())
    return fail("the profile has " + llvm::Twine(profile.observers.size()) +
                " observers, the model " + llvm::Twine(m.slots.size()));
  for (size_t i = 0; i < m.slots.size(); ++i) {
    const ProfileObserver &o = profile.observers[i];
    Slot &slot = m.slots[i];
    if (o.name != slot.name || o.shape != slot.shape)
      return fail("profile observer #" + llvm::Twine(i) + " '" + o.name +
                  "' does not match the model's '" + slot.name + "'");
    if (std::optional<std::string> e = slot.observer.setState(o.state))
      return fail("profile observer '" + o.name + "': " + *e);
  }
  m.samples = profile.samples;
  m.sources = profile.sources;
  return Error::success();
}
