//===- CompiledModel.cpp - A model JIT-compiled to native code ------------===//

#include "quantc/Runtime/CompiledModel.h"
#include "quantc/Support/Fail.h"

#include "quantc/Pipelines/Pipelines.h"
#include "quantc/Target/Compile.h"
#include "quantc/Transforms/ConstantGlobals.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace quantc;
using llvm::Error;
using llvm::Expected;

using quantc::fail;

namespace {
thread_local ObserveCallback activeCallback = nullptr;
} // namespace

/// The C interface of qnt_rt_observe (see qnt-instrument-observers).
extern "C" void quantc_rt_observe(int64_t id,
                                  ::UnrankedMemRefType<float> *memref) {
  if (!activeCallback)
    return;
  int64_t rank = memref->rank;
  auto *desc = static_cast<StridedMemRefType<float, 1> *>(memref->descriptor);
  const int64_t *sizes = desc->sizes;
  activeCallback(id, desc->data + desc->offset,
                 llvm::ArrayRef<int64_t>(sizes, rank),
                 llvm::ArrayRef<int64_t>(sizes + rank, rank));
}

unsigned quantc::hostVectorBits() {
  llvm::Triple host(llvm::sys::getProcessTriple());
  if (host.isAArch64())
    return 128;
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return features.lookup("avx512f") ? 512 : 256;
}

void CompiledModel::setObserveCallback(ObserveCallback callback) {
  activeCallback = callback;
}

CompiledModel::~CompiledModel() = default;

/// Constants smaller than this stay in the compiled code, where LLVM can
/// fold loads from them.
static constexpr size_t kExternalConstantBytes = 4096;

/// Turns every large constant global of the lowered `module` whose
/// initializer is dense data laid out as LLVM lays out the global (integers
/// and floats of whole bytes, not a splat) into an external declaration,
/// and returns the globals' names with the addresses of that data: the
/// attribute's own storage in the context. Translating weights to LLVM
/// constants and emitting them into the in-memory object copies them twice
/// and took a quarter of ViT-B/16's calibration build.
static std::vector<std::pair<std::string, const void *>>
externalizeConstants(ModuleOp module) {
  std::vector<std::pair<std::string, const void *>> symbols;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    DenseElementsAttr dense = denseConstantData(global);
    if (!dense || dense.isSplat())
      continue;
    ArrayRef<char> raw = dense.getRawData();
    if (raw.size() < kExternalConstantBytes)
      continue;
    // The declaration promises no more alignment than the storage has.
    uint64_t address = reinterpret_cast<uintptr_t>(raw.data());
    uint64_t alignment = address & -address;
    if (global.getAlignment())
      alignment = std::min<uint64_t>(alignment, *global.getAlignment());
    global.setAlignment(alignment);
    global.removeValueAttr();
    global.setLinkage(LLVM::Linkage::External);
    global.setUnnamedAddr(LLVM::UnnamedAddr::None);
    symbols.emplace_back(global.getSymName().str(), raw.data());
  }
  return symbols;
}

/// Whether the lowered module runs AMX tile instructions (the amx-int8
/// kernels: llvm.x86.t* intrinsics).
static bool usesAmxTiles(ModuleOp module) {
  return module
      .walk([](LLVM::CallIntrinsicOp call) {
        return call.getIntrin().starts_with("llvm.x86.t")
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Linux grants a process the AMX tile state on request only (without it
/// the first tile instruction raises SIGILL); objects ask in their CPU
/// check, the JIT here (through the same host test as --list-isas), before
/// running code that uses tiles.
static Error requestAmxTileState() {
  if (quantc::hostGrantsCpuFeatures({"amx-tile", "amx-int8"}))
    return Error::success();
  return fail("this machine does not grant the AMX tile state "
              "(arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) failed): "
              "compile for avx512-vnni instead of amx-int8");
}

/// Renames the model function of `build` to a name of its own, `name`:
/// the JIT's symbols (the function, its `_mlir_` wrapper, what the passes
/// derive from it) must not carry a model's bytes (an ONNX graph name may
/// hold NUL, which ends a JIT symbol's name and fails its lookup).
static Error renameForJit(ModuleOp build, StringRef function,
                          std::string &name) {
  auto fn = build.lookupSymbol<func::FuncOp>(function);
  name = "quantc_model";
  for (int i = 1; build.lookupSymbol(name) && build.lookupSymbol(name) != fn;
       ++i)
    name = "quantc_model_" + std::to_string(i);
  if (failed(SymbolTable::replaceAllSymbolUses(
          fn, StringAttr::get(build.getContext(), name), build)))
    return fail("cannot rename the model function for the JIT");
  SymbolTable::setSymbolName(fn, name);
  return Error::success();
}

Expected<std::unique_ptr<CompiledModel>>
CompiledModel::create(ModuleOp module, StringRef function,
                      llvm::function_ref<void(OpPassManager &)> pipeline,
                      bool verifyEachPass, TimingScope *timing) {
  Expected<Operation *> op = findModelFunction(module, function);
  if (!op)
    return op.takeError();
  auto fn = cast<func::FuncOp>(*op);
  std::unique_ptr<CompiledModel> model(new CompiledModel());

  Expected<ModelSignature> signature = modelSignature(fn);
  if (!signature)
    return signature.takeError();
  model->interface = std::move(*signature);

  OwningOpRef<ModuleOp> build = module.clone();
  MLIRContext *ctx = module.getContext();
  if (Error e = renameForJit(*build, fn.getSymName(), model->name))
    return std::move(e);
  DialectRegistry registry;
  registerAllToLLVMIRTranslations(registry);
  ctx->appendDialectRegistry(registry);
  PassManager pm(ctx);
  if (timing)
    pm.enableTiming(*timing);
  pm.enableVerifier(verifyEachPass);
  pipeline(pm);
  if (failed(pm.run(*build)) || failed(verify(*build)))
    return fail("cannot compile the model (see the errors above)");
  stripBufferizationAttrs(*build);
  std::vector<std::pair<std::string, const void *>> constants =
      externalizeConstants(*build);
  if (usesAmxTiles(*build))
    if (Error denied = requestAmxTileState())
      return std::move(denied);

  TimingScope llvmTimer =
      timing ? timing->nest("LLVM -O3 and code generation") : TimingScope();
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // This machine's CPU and all its features, named explicitly.
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> host =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!host)
    return fail("JIT compilation failed: " + llvm::toString(host.takeError()));
  host->setCPU(llvm::sys::getHostCPUName().str());
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    host->getFeatures().AddFeature(feature.first(), feature.second);
  host->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      host->createTargetMachine();
  if (!machine)
    return fail("JIT compilation failed: " +
                llvm::toString(machine.takeError()));
  ExecutionEngineOptions options;
  // `transformer` is a function_ref: keep the callable alive here.
  std::function<Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(3, 0, machine->get());
  options.transformer = optimize;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  // No debugger or perf registration: the perf listener writes a jitdump
  // directory under .debug/jit for every compiled model, left behind.
  options.enableGDBNotificationListener = false;
  options.enablePerfNotificationListener = false;
  // memrefCopy & co. come from MLIR's C runner utilities; the __kmpc_*
  // calls of OpenMP parallel regions (pipelines with parallel=omp) from
  // LLVM's OpenMP runtime.
  SmallVector<StringRef> libs{QUANTC_C_RUNNER_UTILS};
  if (build->walk([](omp::ParallelOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    libs.push_back(QUANTC_OMP_RUNTIME);
  options.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(*build, options, std::move(*machine));
  if (!engine)
    return fail("JIT compilation failed: " +
                llvm::toString(engine.takeError()));
  model->engine = std::move(*engine);
  model->engine->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    map[interner("_mlir_ciface_qnt_rt_observe")] = {
        llvm::orc::ExecutorAddr::fromPtr(&quantc_rt_observe),
        llvm::JITSymbolFlags::Exported};
    for (const auto &[symbol, data] : constants)
      map[interner(symbol)] = {llvm::orc::ExecutorAddr::fromPtr(data),
                               llvm::JITSymbolFlags::Exported};
    return map;
  });
  // The JIT compiles at the first lookup: do it now, so that errors and
  // compile time belong to the build, not to the first sample.
  if (llvm::Expected<void (*)(void **)> entry =
          model->engine->lookupPacked(model->name);
      !entry)
    return fail("JIT compilation failed: " + llvm::toString(entry.takeError()));
  return model;
}

/// Element `i` of `data`, a buffer of integer dtype `dtype`, as a float
/// (exact: the model computed it as a float32 integer).
static float integerElement(StringRef dtype, const void *data, int64_t i) {
  auto at = [&](auto type) {
    return static_cast<float>(
        static_cast<const decltype(type) *>(data)[static_cast<size_t>(i)]);
  };
  if (dtype == "int64")
    return at(int64_t());
  if (dtype == "uint64")
    return at(uint64_t());
  if (dtype == "int32")
    return at(int32_t());
  if (dtype == "uint32")
    return at(uint32_t());
  if (dtype == "int16")
    return at(int16_t());
  if (dtype == "uint16")
    return at(uint16_t());
  if (dtype == "int8")
    return at(int8_t());
  return at(uint8_t()); // uint8, bool
}

Error CompiledModel::run(ArrayRef<const float *> inputData,
                         ArrayRef<float *> outputData) const {
  const std::vector<ModelTensor> &outs = outputs();
  if (llvm::all_of(outs, [](const ModelTensor &t) { return t.isFloat(); }) ||
      outputData.size() != outs.size())
    return runTyped(inputData,
                    SmallVector<void *>(outputData.begin(), outputData.end()));
  // Integer outputs go through buffers of their type.
  std::vector<std::vector<char>> buffers(outs.size());
  SmallVector<void *> pointers;
  for (auto [t, buffer, data] : llvm::zip(outs, buffers, outputData)) {
    if (!t.isFloat())
      buffer.resize(t.elementBytes() * t.numElements());
    pointers.push_back(t.isFloat() ? static_cast<void *>(data) : buffer.data());
  }
  if (Error e = runTyped(inputData, pointers))
    return e;
  for (auto [t, buffer, data] : llvm::zip(outs, buffers, outputData))
    if (!t.isFloat() && data)
      for (int64_t i = 0, e = t.numElements(); i < e; ++i)
        data[i] = integerElement(t.dtype, buffer.data(), i);
  return Error::success();
}

Error CompiledModel::runTyped(ArrayRef<const float *> inputData,
                              ArrayRef<void *> outputData) const {
  const std::vector<ModelTensor> &ins = inputs(), &outs = outputs();
  if (inputData.size() != ins.size())
    return fail("expected " + llvm::Twine(ins.size()) + " input buffers");
  if (outputData.size() != outs.size())
    return fail("expected " + llvm::Twine(outs.size()) + " output buffers");
  // Expanded memref arguments: allocated, aligned, offset, sizes, strides.
  // Storage is sized up front: `args` points into it.
  size_t words = 0, memrefs = ins.size() + outs.size();
  for (const ModelTensor &t : ins)
    words += 1 + 2 * t.shape.size();
  for (const ModelTensor &t : outs)
    words += 1 + 2 * t.shape.size();
  std::vector<int64_t> scalars;
  scalars.reserve(words);
  std::vector<void *> pointers;
  pointers.reserve(2 * memrefs);
  std::vector<void *> args;
  auto addMemref = [&](void *data, const std::vector<int64_t> &shape) {
    pointers.push_back(data);
    args.push_back(&pointers.back());
    pointers.push_back(data);
    args.push_back(&pointers.back());
    scalars.push_back(0);
    args.push_back(&scalars.back());
    for (int64_t d : shape) {
      scalars.push_back(d);
      args.push_back(&scalars.back());
    }
    std::vector<int64_t> strides(shape.size());
    int64_t stride = 1;
    for (size_t d = shape.size(); d-- > 0;) {
      strides[d] = stride;
      stride *= shape[d];
    }
    for (int64_t st : strides) {
      scalars.push_back(st);
      args.push_back(&scalars.back());
    }
  };
  for (auto [data, t] : llvm::zip(inputData, ins))
    addMemref(const_cast<float *>(data), t.shape);
  for (auto [data, t] : llvm::zip(outputData, outs))
    addMemref(data, t.shape);
  if (Error e = engine->invokePacked(name, args))
    return fail("running the compiled model failed: " +
                llvm::toString(std::move(e)));
  return Error::success();
}
