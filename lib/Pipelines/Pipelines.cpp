//===- Pipelines.cpp - Named pass pipelines -------------------------------===//
//
// The builders of quantc/Pipelines/Pipelines.h and their registration: the
// front-end stages (prepare, quantize) add the qnt passes with their option
// structs; the back-end ones compose upstream passes by name.
//
//===----------------------------------------------------------------------===//

#include "quantc/Pipelines/Pipelines.h"

#include "dialects/Qnt/Transforms/Passes.h"
#include "quantc/Conversion/Passes.h"
#include "quantc/Isa/Int8Isa.h"
#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using quantc::Parallelism;
using quantc::ParallelOptions;

/// Upstream passes are composed by name: it keeps the pipeline readable and
/// identical to what `quant-opt --pass-pipeline=...` runs. (A formatv
/// string: {0} is the vector register width, `{{` an opening brace.)
static constexpr const char *kFloatToBuffers =
    "func.func(qnt-fuse,quantc-float-conv-kernels{{vector-bits={0}},"
    "qnt-lower-float,"
    "tosa-to-linalg-named,"
    "tosa-to-linalg,"
    "tosa-to-arith,tosa-to-tensor),"
    "canonicalize,"
    "func.func(quantc-tile-and-vectorize{{vector-bits={0}}),"
    "loop-invariant-subset-hoisting,canonicalize,"
    "one-shot-bufferize{{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "func.func(quantc-distinct-results),"
    "buffer-results-to-out-params{{modify-public-functions "
    "hoist-static-allocs},"
    "buffer-deallocation-pipeline,"
    "func.func(quantc-static-memory-plan),"
    "quantc-lower-memref-copy,"
    "func.func(convert-vector-to-scf{{full-unroll}),"
    "scf-forall-to-parallel";

/// Sequential: scf.parallel loops (of the quantized lowerings) become
/// scf.for in convert-scf-to-cf.
static constexpr const char *kSequentialLoops = "convert-linalg-to-loops";

/// OpenMP, after bufferization (the parallel regions capture memrefs, which
/// the OpenMP-to-LLVM conversion in convert-to-llvm turns into descriptors
/// and the OpenMP IR builder passes to the outlined region by pointer):
/// * linalg ops become affine loops, and affine-parallelize turns the
///   outermost two loops into parallel ones where dependence analysis proves
///   them parallel (never reductions); canonicalization merges them into
///   one scf.parallel and drops unit dimensions (the batch of 1). Inner
///   loops stay sequential: convert-linalg-to-parallel-loops would make
///   every parallel dimension of an op one collapsed OpenMP loop, whose
///   body recomputes each index with a division and whose innermost
///   dimension no longer vectorizes (the float example model ran ~1.6x
///   slower on one thread that way).
/// * quantc-serialize-small-parallel-loops: loops with too little work for
///   a fork and join stay sequential.
/// * convert-scf-to-openmp: every scf.parallel (these and those of the
///   quantized lowerings) becomes omp.parallel + omp.wsloop. It wraps loop
///   bodies in memref.alloca_scope, a single-block region that
///   convert-scf-to-cf cannot lower an inner scf.for into; canonicalization
///   inlines the scopes that hold no alloca (all of ours).
/// * quantc-openmp-nowait: a worksharing loop that ends its parallel region
///   skips its own barrier (the region's join is one).
static constexpr const char *kOpenMPLoops =
    "convert-linalg-to-affine-loops,"
    "func.func(affine-parallelize{{max-nested=2}),lower-affine,canonicalize,"
    "quantc-serialize-small-parallel-loops,"
    "convert-scf-to-openmp{{num-threads={0}},canonicalize,"
    "quantc-openmp-nowait";

static constexpr const char *kLoopsToLLVM =
    "quantc-outline-loop-nests,quantc-merge-functions,"
    "lower-affine,convert-scf-to-cf,expand-strided-metadata,lower-affine,"
    "convert-vector-to-llvm{vector-contract-lowering=outerproduct enable-amx},"
    "convert-to-llvm,reconcile-unrealized-casts";

namespace {
/// Stands in for a built-in pipeline string (above) that does not parse, a
/// defect of this file that test/Pipelines/builtin.mlir catches: the run
/// fails with the parser's message instead of the process aborting.
struct InvalidPipelinePass
    : public PassWrapper<InvalidPipelinePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(InvalidPipelinePass)
  explicit InvalidPipelinePass(std::string message)
      : message(std::move(message)) {}
  StringRef getArgument() const override { return "quantc-invalid-pipeline"; }
  void runOnOperation() override {
    getOperation()->emitError(message);
    signalPassFailure();
  }
  std::string message;
};
} // namespace

/// Adds the built-in `pipeline` of the pipeline `name` to `pm`, or, should
/// it not parse, an InvalidPipelinePass with the parser's message.
static void addBuiltinPipeline(OpPassManager &pm, StringRef name,
                               StringRef pipeline) {
  std::string parseError;
  llvm::raw_string_ostream os(parseError);
  if (succeeded(parsePassPipeline(pipeline, pm, os)))
    return;
  pm.addPass(std::make_unique<InvalidPipelinePass>(
      (name + ": invalid built-in pipeline: " + parseError).str()));
}

void quantc::buildPreparePipeline(OpPassManager &pm,
                                  const PrepareOptions &options) {
  if (options.fuse)
    pm.addNestedPass<func::FuncOp>(qnt::createQntFuse());
  if (options.smoothAlpha != 0)
    pm.addNestedPass<func::FuncOp>(
        qnt::createQntSmooth(qnt::QntSmoothOptions{options.smoothAlpha}));
  if (options.equalize)
    pm.addNestedPass<func::FuncOp>(qnt::createQntEqualize());
  if (options.insertObservers)
    pm.addNestedPass<func::FuncOp>(
        qnt::createQntInsertObservers(options.observers));
}

void quantc::buildQuantizePipeline(OpPassManager &pm,
                                   const QuantizeOptions &options) {
  pm.addNestedPass<func::FuncOp>(qnt::createQntFoldObservers(options.fold));
  if (options.floatOutputs)
    pm.addNestedPass<func::FuncOp>(qnt::createQntFloatOutputs());
  if (options.correctBias)
    pm.addNestedPass<func::FuncOp>(qnt::createQntCorrectBias(
        qnt::QntCorrectBiasOptions{options.quantize.exclude}));
  pm.addNestedPass<func::FuncOp>(qnt::createQntQuantize(options.quantize));
}

StringRef quantc::toString(Parallelism parallelism) {
  return parallelism == Parallelism::OpenMP ? "omp" : "none";
}

/// quantc-float-to-llvm's passes; with `amxPortableTwin`, the amx tile ops
/// become vector code (quantc-amx-to-vector) right before the LLVM lowering,
/// so that the float pipeline's passes see them as the native build does.
static void buildToLLVMPipeline(OpPassManager &pm,
                                const ParallelOptions &parallel,
                                unsigned vectorBits, bool amxPortableTwin) {
  std::string loops = kSequentialLoops;
  if (parallel.parallelism == Parallelism::OpenMP)
    loops = llvm::formatv(kOpenMPLoops, parallel.numThreads).str();
  std::string pipeline = llvm::formatv(kFloatToBuffers, vectorBits).str() +
                         "," + loops + "," +
                         (amxPortableTwin ? "quantc-amx-to-vector," : "") +
                         std::string(kLoopsToLLVM);
  addBuiltinPipeline(pm, "quantc-float-to-llvm", pipeline);
}

void quantc::buildFloatToLLVMPipeline(OpPassManager &pm,
                                      const ParallelOptions &parallel,
                                      unsigned vectorBits) {
  buildToLLVMPipeline(pm, parallel, vectorBits, /*amxPortableTwin=*/false);
}

void quantc::buildInt8ToLLVMPipeline(OpPassManager &pm, StringRef isa,
                                     const ParallelOptions &parallel,
                                     bool amxPortableTwin) {
  pm.addPass(createQntLowerQuantized(QntLowerQuantizedOptions{isa.str()}));
  const Int8IsaInfo *info = lookupInt8Isa(isa);
  buildToLLVMPipeline(pm, parallel, info ? info->vectorBits : 256,
                      amxPortableTwin);
  pm.addPass(qnt::createQntLowerPureIntrinsics());
}

void quantc::buildCalibrationPipeline(OpPassManager &pm,
                                      const ParallelOptions &parallel,
                                      unsigned vectorBits) {
  pm.addPass(qnt::createQntInstrumentObservers());
  buildFloatToLLVMPipeline(pm, parallel, vectorBits);
}

void quantc::stripBufferizationAttrs(Operation *module) {
  module->walk([](LLVM::LLVMFuncOp fn) {
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
      SmallVector<NamedAttribute> kept;
      for (NamedAttribute attr : fn.getArgAttrDict(i)
                                     ? fn.getArgAttrDict(i).getValue()
                                     : ArrayRef<NamedAttribute>())
        if (!attr.getName().getValue().starts_with("bufferization."))
          kept.push_back(attr);
      fn.setArgAttrs(i, kept);
    }
  });
}

namespace {
/// quantc-prepare's options: a switch per pass and qnt-insert-observers'
/// options, whose defaults come from Passes.td.
struct PrepareRegistryOptions : PassPipelineOptions<PrepareRegistryOptions> {
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("Run qnt-fuse first (default: true)"),
                    llvm::cl::init(true)};
  Option<bool> equalize{
      *this, "equalize",
      llvm::cl::desc("Run qnt-equalize after qnt-fuse (default: false)"),
      llvm::cl::init(false)};
  Option<double> smoothAlpha{
      *this, "smooth-alpha",
      llvm::cl::desc("Run qnt-smooth with this alpha after qnt-fuse (0: "
                     "not; default: 0)"),
      llvm::cl::init(0.0)};
  Option<bool> insertObservers{
      *this, "insert-observers",
      llvm::cl::desc("Run qnt-insert-observers (default: true)"),
      llvm::cl::init(true)};
  Option<std::string> activationKind{
      *this, "activation-kind",
      llvm::cl::desc("qnt-insert-observers' activation-kind"),
      llvm::cl::init(defaults().activationKind)};
  Option<std::string> activationDtype{
      *this, "activation-dtype",
      llvm::cl::desc("qnt-insert-observers' activation-dtype"),
      llvm::cl::init(defaults().activationDtype)};
  Option<std::string> activationQScheme{
      *this, "activation-qscheme",
      llvm::cl::desc("qnt-insert-observers' activation-qscheme"),
      llvm::cl::init(defaults().activationQScheme)};
  Option<bool> reduceRange{*this, "reduce-range",
                           llvm::cl::desc("qnt-insert-observers' reduce-range"),
                           llvm::cl::init(defaults().reduceRange)};
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("qnt-insert-observers' target"),
                             llvm::cl::init(defaults().target)};
  Option<std::string> weightKind{
      *this, "weight-kind", llvm::cl::desc("qnt-insert-observers' weight-kind"),
      llvm::cl::init(defaults().weightKind)};
  Option<std::string> weightDtype{
      *this, "weight-dtype",
      llvm::cl::desc("qnt-insert-observers' weight-dtype"),
      llvm::cl::init(defaults().weightDtype)};
  Option<std::string> weightQScheme{
      *this, "weight-qscheme",
      llvm::cl::desc("qnt-insert-observers' weight-qscheme"),
      llvm::cl::init(defaults().weightQScheme)};

  static qnt::QntInsertObserversOptions defaults() { return {}; }
  quantc::PrepareOptions get() const {
    quantc::PrepareOptions options;
    options.fuse = fuse;
    options.smoothAlpha = smoothAlpha;
    options.equalize = equalize;
    options.insertObservers = insertObservers;
    qnt::QntInsertObserversOptions &o = options.observers;
    o.activationKind = activationKind;
    o.activationDtype = activationDtype;
    o.activationQScheme = activationQScheme;
    o.reduceRange = reduceRange;
    o.target = target;
    o.weightKind = weightKind;
    o.weightDtype = weightDtype;
    o.weightQScheme = weightQScheme;
    return options;
  }
};

/// quantc-quantize's options: those of qnt-fold-observers and qnt-quantize.
struct QuantizeRegistryOptions : PassPipelineOptions<QuantizeRegistryOptions> {
  Option<quantc::obs::RangeReduction> reduceRange{
      *this, "reduce-range",
      llvm::cl::desc("qnt-fold-observers' reduce-range (default: none)"),
      llvm::cl::init(quantc::obs::RangeReduction::None),
      llvm::cl::values(clEnumValN(quantc::obs::RangeReduction::None, "none",
                                  "8-bit activations and weights"),
                       clEnumValN(quantc::obs::RangeReduction::Activations,
                                  "activations",
                                  "7-bit activations, u8 [0, 127]"),
                       clEnumValN(quantc::obs::RangeReduction::Weights,
                                  "weights", "7-bit weights, s8 [-64, 63]"))};
  ListOption<std::string> exclude{
      *this, "exclude",
      llvm::cl::desc("qnt-quantize's exclude: layer or op names kept in "
                     "float")};
  Option<bool> correctBias{
      *this, "correct-bias",
      llvm::cl::desc("Run qnt-correct-bias (the layers' qnt.input_mean) "
                     "between folding and quantization"),
      llvm::cl::init(false)};
  Option<bool> floatOutputs{
      *this, "float-outputs",
      llvm::cl::desc("Run qnt-float-outputs after folding: model outputs "
                     "produced in float by their layers"),
      llvm::cl::init(true)};

  quantc::QuantizeOptions get() const {
    quantc::QuantizeOptions options;
    options.fold.reduceRange = reduceRange;
    options.quantize.exclude.assign(exclude.begin(), exclude.end());
    options.correctBias = correctBias;
    options.floatOutputs = floatOutputs;
    return options;
  }
};

/// The threading options shared by both model pipelines.
template <typename Derived>
struct ParallelPipelineOptions : PassPipelineOptions<Derived> {
  using Base = PassPipelineOptions<Derived>;
  typename Base::template Option<Parallelism> parallel{
      *this, "parallel",
      llvm::cl::desc("Threading of the generated code (default: none)"),
      llvm::cl::init(Parallelism::None),
      llvm::cl::values(
          clEnumValN(Parallelism::None, "none", "sequential loops"),
          clEnumValN(Parallelism::OpenMP, "omp",
                     "OpenMP parallel loops (LLVM's libomp)"))};
  typename Base::template Option<unsigned> numThreads{
      *this, "num-threads",
      llvm::cl::desc("With parallel=omp: threads per parallel region (0: "
                     "the OpenMP runtime's default)"),
      llvm::cl::init(0)};
  ParallelOptions get() const { return {parallel, numThreads}; }
};

struct FloatOptions : ParallelPipelineOptions<FloatOptions> {
  Option<unsigned> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector register width of the target (512: AVX-512)"),
      llvm::cl::init(256)};
};

struct Int8Options : ParallelPipelineOptions<Int8Options> {
  Option<std::string> isa{*this, "isa",
                          llvm::cl::desc("Int8 instructions: a name of the "
                                         "table in quantc/Isa/Int8Isa.h "
                                         "(quant-compile --list-isas)"),
                          llvm::cl::init("generic")};
  Option<bool> amxPortableTwin{
      *this, "amx-portable-twin",
      llvm::cl::desc("Test-only: lower the amx-int8 tile kernels to vector "
                     "code (quantc-amx-to-vector) that runs without AMX"),
      llvm::cl::init(false)};
};
} // namespace

void quantc::registerPipelines() {
  PassPipelineRegistration<PrepareRegistryOptions>(
      "quantc-prepare",
      "Prepare a float model for calibration: qnt-fuse, qnt-smooth with "
      "smooth-alpha, then qnt-insert-observers",
      [](OpPassManager &pm, const PrepareRegistryOptions &options) {
        buildPreparePipeline(pm, options.get());
      });
  PassPipelineRegistration<QuantizeRegistryOptions>(
      "quantc-quantize",
      "Quantize a calibrated model: qnt-fold-observers, qnt-correct-bias "
      "with correct-bias, then qnt-quantize",
      [](OpPassManager &pm, const QuantizeRegistryOptions &options) {
        buildQuantizePipeline(pm, options.get());
      });
  PassPipelineRegistration<FloatOptions>(
      "quantc-float-to-llvm",
      "Lower a float TOSA model on tensors to the LLVM dialect",
      [](OpPassManager &pm, const FloatOptions &options) {
        buildFloatToLLVMPipeline(pm, options.get(), options.vectorBits);
      });
  PassPipelineRegistration<Int8Options>(
      "quantc-int8-to-llvm",
      "Lower a quantized model to the LLVM dialect with int8 kernels",
      [](OpPassManager &pm, const Int8Options &options) {
        buildInt8ToLLVMPipeline(pm, options.isa, options.get(),
                                options.amxPortableTwin);
      });
  PassPipelineRegistration<>(
      "quantc-calibration-build",
      "Instrument observers with runtime calls and lower to the LLVM dialect",
      [](OpPassManager &pm) { buildCalibrationPipeline(pm); });
}
