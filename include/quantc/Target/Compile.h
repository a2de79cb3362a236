//===- Compile.h - Ahead-of-time compilation of models ----------*- C++ -*-===//
//
// What `quant-compile` does, as a library: resolve an LLVM target (triple,
// CPU, features) and the int8 kernels it supports, describe a model's C
// interface, lower the model to the LLVM dialect with a C entry point
// `<name>_run(const float *input0, ..., float *output0, ...)`, emit LLVM IR,
// assembly or an object file, and write the matching C header.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_TARGET_COMPILE_H
#define QUANTC_TARGET_COMPILE_H

#include "quantc/Conversion/LowerQuantized.h"
#include "quantc/ModelAttributes.h"
#include "quantc/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class MCSubtargetInfo;
class Module;
class TargetMachine;
class Triple;
} // namespace llvm

namespace quantc {

/// One int8 variant of an object: the kernels, the CPU and features its code
/// is compiled for, and the CPU features it needs at run time.
struct TargetVariant {
  Int8Isa isa = Int8Isa::Generic;
  std::string cpu;
  std::string features;
  /// requiredCpuFeatures of the variant's CPU and features (checked by the
  /// entry point before the variant runs; empty: runs on any CPU of the
  /// architecture).
  std::vector<std::string> cpuFeatures;
  /// Test-only: the amx-int8 variant's tile kernels run through the portable
  /// twin (quantc-amx-to-vector), and `features` / `cpuFeatures` leave out
  /// AMX, so the variant runs on any CPU with its other features.
  bool amxPortableTwin = false;
};

/// A resolved code generation target.
struct CompileTarget {
  std::unique_ptr<llvm::TargetMachine> machine;
  std::string triple;   ///< Normalized, e.g. x86_64-unknown-linux-gnu.
  std::string cpu;      ///< The CPU given, or the triple's default.
  std::string features; ///< As given, e.g. "+dotprod,+i8mm".
  /// The variants the object carries, in the order the entry point tries
  /// them at run time: one for a pinned target (--cpu / --mattr), one per
  /// int8 instruction set otherwise.
  std::vector<TargetVariant> variants;
  /// The object selects its variant at run time.
  bool dispatches() const { return variants.size() > 1; }
  /// The int8 kernels of a pinned target (the first variant's).
  Int8Isa isa() const { return variants.front().isa; }
  /// For a model without int8 kernels: drops each variant that a later one
  /// compiles for the same CPU (their difference is int8 instructions only).
  void dropInt8OnlyVariants();

  CompileTarget();
  CompileTarget(CompileTarget &&);
  CompileTarget &operator=(CompileTarget &&);
  ~CompileTarget();
};

/// The target machine's CPU when none is given: x86-64-v3 (AVX2, FMA:
/// Haswell, Zen and later) for x86_64, "generic" otherwise. (The functions
/// of a dispatching object carry their variant's CPU instead.)
std::string defaultCpu(llvm::StringRef triple);

/// The CPU of the architecture's baseline, which every CPU of it runs:
/// x86-64 for x86, "generic" otherwise (dispatch variants of the portable
/// kernels, entry points and CPU checks).
llvm::StringRef baselineCpu(const llvm::Triple &triple);

/// Compiles `fn` for the architecture's baseline whatever the object's
/// CPU and features: its own "target-cpu" and an empty "target-features"
/// (without the attribute the TargetMachine's features apply, and a pinned
/// `--mattr=+avx512f` object would check the CPU with AVX-512 code).
void compileForBaseline(llvm::Function &fn, const llvm::Triple &triple);

/// Creates the TargetMachine for `triple` (empty: the host's), `cpu` (empty:
/// defaultCpu; "native": this machine's CPU and features, host triple only)
/// and the comma-separated `features` (+name / -name). An unknown triple,
/// CPU or feature is an error (never LLVM's warning).
///
/// The object's variants: with a CPU or features, one (pinned), with the
/// int8 kernels of the CPU's features (selectInt8Isa). Without either, the
/// object dispatches at run time among the int8 instruction sets `isas`
/// (names of the table in quantc/Isa/Int8Isa.h; empty: the architecture's
/// default set, Int8IsaInfo::defaultFor), each variant compiled for its entry's
/// variantCpu / variantFeatures. `isas` with a CPU or features is an error.
/// With `amxPortableTwin` (test-only), an amx-int8 variant is compiled
/// without the AMX features (-amx-tile) and lowers its tile kernels with
/// the portable twin (TargetVariant::amxPortableTwin).
llvm::Expected<CompileTarget> createCompileTarget(
    llvm::StringRef triple, llvm::StringRef cpu, llvm::StringRef features,
    llvm::ArrayRef<std::string> isas = {}, bool amxPortableTwin = false);

/// Whether this machine's CPU has `info`'s features (and architecture), as
/// hostCpuFeatures says.
bool hostHasInt8Isa(const Int8IsaInfo &info);

/// The CPU features of the run-time check's table (checkedCpuFeatures) that
/// this machine passes, tested the way an object's check tests them: CPUID
/// fields, the register state the OS enables (XCR0) and, for AMX, the tile
/// palette and Linux's permission (requested for this process); HWCAP bits
/// on AArch64 Linux. Never /proc/cpuinfo, whose flags a kernel or a
/// virtual machine may leave out although CPUID reports them. In the
/// table's order.
std::vector<std::string> hostCpuFeatures();

/// Lists hostCpuFeatures, one per line (quant-compile
/// --list-host-cpu-features; the lit suite's CPU features come from it).
void printHostCpuFeatures(llvm::raw_ostream &os);

/// Lists the table of int8 instruction sets, one per line: "*" when this
/// machine has it (else " "), name, architecture, LLVM features, summary,
/// and the architectures whose default object carries it.
void printInt8Isas(llvm::raw_ostream &os);

/// The int8 instruction sets of a triple's architecture.
IsaArch isaArch(const llvm::Triple &triple);

/// The int8 kernels for a subtarget's CPU and features: the first entry of
/// the table (quantc/Isa/Int8Isa.h) of its architecture whose features it
/// has.
Int8Isa selectInt8Isa(const llvm::MCSubtargetInfo &subtarget);

/// Quantization of a model input or output (as its quant.qcast / dcast
/// says), for the header.
struct TensorQuantization {
  std::string storage; ///< "u8", "i8", "u8<0:127>" ...
  double scale = 1.0;
  int64_t zeroPoint = 0;
};

/// One float32 input or output of the model.
struct TensorInterface {
  std::string name; ///< quantc.input_names / output_names, or the NameLoc.
  std::vector<int64_t> shape;
  /// What the dimensions mean: the function's `quantc.input_layouts` /
  /// `quantc.output_layouts` entry (the ONNX importer writes "NCHW" for 4-D
  /// tensors, which keep ONNX's order), else quantc's own convention: "NHWC"
  /// for 4-D tensors, "row-major" otherwise.
  std::string layout;
  std::optional<TensorQuantization> quantization;
  /// The NumPy dtype (ModelTensor::dtype): "float32", or for an output an
  /// integer type (ArgMax indices), passed as a buffer of its C type.
  std::string dtype = "float32";
  int64_t numElements() const;
  /// Bytes per element of `dtype` (bool: 1).
  int64_t elementBytes() const;
};

/// The C interface of a model function.
struct ModelInterface {
  std::string function; ///< The model's func.func.
  std::string name;     ///< C symbol prefix: <name>_run.
  std::vector<TensorInterface> inputs, outputs;
  bool quantized = false; ///< The model has quantized ops.
  /// Threading of the generated code: with OpenMP the object needs LLVM's
  /// libomp and exports <name>_set_num_threads.
  Parallelism parallelism = Parallelism::None;
  /// A batch whose images the model provably keeps apart runs as one call
  /// of the one-image function per image (quantc-batch-as-images).
  bool batchAsImages = true;
};

/// Describes `function` (empty: the public one) of `module`: statically
/// shaped f32 tensor inputs and results, the quantization at each. `name`
/// (empty: the function's name, or where that is not a C identifier, e.g.
/// an ONNX graph named "Model from PaddlePaddle.", one made from `path`'s
/// file name) must be a C identifier.
llvm::Expected<ModelInterface> describeModel(mlir::ModuleOp module,
                                             llvm::StringRef function,
                                             llvm::StringRef name,
                                             llvm::StringRef path = "");

/// A C identifier made from the file name of `path` without its extension:
/// other characters become '_', and "model_" goes before a leading digit
/// ("out/detector-v2.o" -> "detector_v2").
std::string cIdentifierFromPath(llvm::StringRef path);

/// The C symbol prefix describeModel gives the model `function` written
/// to `path`: `name` if given, else the function's name if it is a C
/// identifier, else cIdentifierFromPath(path). An error where the result
/// is not a C identifier, or starts with `__` or `_` and a letter (the
/// header's upper-case macros would be names C reserves, e.g. the guard
/// _STDINT_H of <stdint.h>).
llvm::Expected<std::string>
modelName(llvm::StringRef function, llvm::StringRef name, llvm::StringRef path);

/// Lowers the model in place to the LLVM dialect with quantc-int8-to-llvm
/// for `variant` (its int8 kernels, and the portable twin where it asks for
/// it) and model.parallelism (a float model passes its int8 step
/// unchanged), then makes every function internal and adds the external
/// entry point `<name>_run` (raw pointers in, i32 0 out) that calls the
/// model with memref descriptors. With OpenMP, also the external
/// `void <name>_set_num_threads(int)`: it stores the thread count of later
/// runs in an internal global (atomically) that every parallel region reads
/// (n <= 0: the OpenMP runtime's default, omp_get_max_threads()). Errors
/// are reported through the context's diagnostics. With `timing`, each pass
/// of the pipeline is timed in it. The result is verified once, or after
/// every pass with `verifyEachPass` (a quarter slower: for debugging).
mlir::LogicalResult lowerToLLVMDialect(mlir::ModuleOp module,
                                       const ModelInterface &model,
                                       const TargetVariant &variant,
                                       mlir::TimingScope *timing = nullptr,
                                       bool verifyEachPass = false);

/// The CPU features code for `subtarget` needs and an entry point checks at
/// run time (CpuCheck.cpp's table: x86 CPUID features, AArch64 Linux HWCAP
/// features), in the table's order; empty for other targets.
std::vector<std::string>
requiredCpuFeatures(const llvm::MCSubtargetInfo &subtarget);

/// The CPU features the run-time check tests on `triple`'s architecture
/// (CpuCheck.cpp's table, what requiredCpuFeatures can return; for
/// AArch64, on Linux), in the table's order; empty for other targets.
std::vector<llvm::StringRef> checkedCpuFeatures(const llvm::Triple &triple);

/// The features of LLVM's x86-64 CPUs the check leaves out on purpose: the
/// x86-64 baseline, speed hints, and instructions LLVM emits only for
/// their own intrinsics (which quantc's code never calls). Every ISA
/// feature an x86-64 CPU of LLVM enables is in this list or in
/// checkedCpuFeatures (test/Unit/Target). Empty for other targets.
std::vector<llvm::StringRef> uncheckedCpuFeatures(const llvm::Triple &triple);

/// Whether this machine passes the tests the run-time check adds for
/// `names` to what LLVM's host detection (llvm::sys::getHostCPUFeatures)
/// reads: AMX's tile palette and, on Linux, the permission to use the tile
/// state (requested for this process, as an object's check would), the
/// AVX10 version. True on other hosts.
bool hostGrantsCpuFeatures(llvm::ArrayRef<llvm::StringRef> names);

/// One implementation of an entry point, its name for `queryName`, and the
/// CPU features it needs.
struct DispatchCandidate {
  llvm::Function *function;
  std::string name;
  std::vector<std::string> cpuFeatures;
};

/// Adds the external `entryPoint` to `module`, compiled for the
/// architecture's baseline: at its first call it picks the first candidate
/// whose CPU features the CPU has (for x86 also the OS's register state),
/// caches the choice (an atomic int), and forwards every call to it; with
/// none, it returns 1 without running anything. The candidates share the
/// entry point's signature (pointers in, i32 out) and become internal. Also
/// adds the external `const char *queryName(void)`: the chosen candidate's
/// name, or null when the CPU has none. When the environment variable
/// `overrideVariable` (if not empty) names a candidate whose features the
/// CPU has, that one is chosen instead.
llvm::Error addDispatch(llvm::Module &module, const llvm::Triple &triple,
                        llvm::StringRef entryPoint, llvm::StringRef queryName,
                        llvm::StringRef overrideVariable,
                        llvm::ArrayRef<DispatchCandidate> candidates);

/// The environment variable that makes an object's entry point take a
/// variant by name (if the CPU can run it): QUANTC_INT8_ISA.
inline constexpr llvm::StringLiteral kInt8IsaVariable = "QUANTC_INT8_ISA";

/// The model's C interface as JSON: name, function, triple, int8_isas,
/// quantized, threads, inputs / outputs (name, shape, layout, dtype,
/// quantization). emitCode exports it as `const char *<name>_metadata(void)`
/// (loaders such as the Python package read it).
std::string modelMetadata(const ModelInterface &model,
                          const CompileTarget &target);

/// The linker flags of the libraries an object of `model` needs on this
/// machine: libm, and LLVM's libomp for threaded code.
std::vector<std::string> runtimeLibraries(const ModelInterface &model);

/// What emitCode writes.
enum class EmitKind { LLVMIR, Assembly, Object };

/// Translates the variants of a model (one module in the LLVM dialect per
/// entry of target.variants, each lowered by lowerToLLVMDialect for its
/// variant's int8 kernels) to one LLVM module: each variant's functions
/// are compiled for its CPU and features, and `<name>_run` selects the
/// variant at its first call (addDispatch; with one variant it only checks
/// the CPU); `<name>_int8_isa()` names the variant chosen and
/// `<name>_metadata()` returns modelMetadata. QUANTC_INT8_ISA
/// in the environment of a run can name a variant to take instead. Then
/// optimizes it (-O3) and writes LLVM IR text, assembly or an object file. With
/// `timing`, the translation, the optimization and the code generation are
/// timed in it. `keepUntilExit` leaves the LLVM module and its context
/// allocated (clang's -disable-free), for a tool that exits next: freeing
/// the weights of a large model takes seconds.
llvm::Error emitCode(llvm::ArrayRef<mlir::ModuleOp> variants,
                     const CompileTarget &target, const ModelInterface &model,
                     EmitKind kind, llvm::raw_pwrite_stream &os,
                     mlir::TimingScope *timing = nullptr,
                     bool keepUntilExit = false);

/// Writes the C header of `model` compiled for `target`: the prototype of
/// <name>_run, shapes (comments, <NAME>_INPUT0_SHAPE macros, size enums),
/// layout and quantization of each input and output.
void emitHeader(const ModelInterface &model, const CompileTarget &target,
                llvm::StringRef source, llvm::raw_ostream &os);

} // namespace quantc

#endif // QUANTC_TARGET_COMPILE_H
