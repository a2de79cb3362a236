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

#include "quantc/Conversion/QntToLoops.h"
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
class Module;
class TargetMachine;
} // namespace llvm

namespace quantc {

/// A resolved code generation target.
struct CompileTarget {
  std::unique_ptr<llvm::TargetMachine> machine;
  std::string triple;   ///< Normalized, e.g. x86_64-unknown-linux-gnu.
  std::string cpu;      ///< The CPU given, or the triple's default.
  std::string features; ///< As given, e.g. "+dotprod,+i8mm".
  Int8Isa isa = Int8Isa::Generic;

  CompileTarget();
  CompileTarget(CompileTarget &&);
  CompileTarget &operator=(CompileTarget &&);
  ~CompileTarget();
};

/// The CPU used when none is given: x86-64-v3 (AVX2, FMA: Haswell, Zen and
/// later) for x86_64, "generic" otherwise.
std::string defaultCpu(llvm::StringRef triple);

/// Creates the TargetMachine for `triple` (empty: the host's), `cpu` (empty:
/// defaultCpu; "native": this machine's CPU and features, host triple only)
/// and the comma-separated `features` (+name / -name), and
/// derives the int8 kernels from the CPU's features: x86 with AVX-512 VNNI
/// (and VL) or AVX-VNNI -> AVX512VNNI, with AVX2 -> AVX2; AArch64 with i8mm
/// -> NeonI8MM, with dotprod -> NeonDot; anything else -> Generic. An
/// unknown triple, CPU or feature is an error (never LLVM's warning).
llvm::Expected<CompileTarget> createCompileTarget(llvm::StringRef triple,
                                                  llvm::StringRef cpu,
                                                  llvm::StringRef features);

/// The int8 kernels for a target's features (see createCompileTarget).
Int8Isa selectInt8Isa(const llvm::TargetMachine &machine);

/// Quantization of a model input or output (as its quant.qcast / dcast
/// says), for the header.
struct TensorQuantization {
  std::string storage; ///< "u8", "i8", "u8<0:127>" ...
  double scale = 1.0;
  int64_t zeroPoint = 0;
};

/// One float32 input or output of the model.
/// Function attributes (arrays of strings, one per argument / result) that
/// name the layout of each tensor of a model's interface, e.g. "NCHW"; the
/// ONNX importer writes them, the header reports them.
inline constexpr llvm::StringLiteral kInputLayoutsAttr = "quantc.input_layouts";
inline constexpr llvm::StringLiteral kOutputLayoutsAttr =
    "quantc.output_layouts";

struct TensorInterface {
  std::string name; ///< The argument's location name, if any.
  std::vector<int64_t> shape;
  /// What the dimensions mean: the function's `quantc.input_layouts` /
  /// `quantc.output_layouts` entry (the ONNX importer writes "NCHW" for 4-D
  /// tensors, which keep ONNX's order), else quantc's own convention: "NHWC"
  /// for 4-D tensors, "row-major" otherwise.
  std::string layout;
  std::optional<TensorQuantization> quantization;
  int64_t numElements() const;
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
};

/// Describes `function` (empty: the public one) of `module`: statically
/// shaped f32 tensor inputs and results, the quantization at each. `name`
/// (empty: the function's name) must be a C identifier.
llvm::Expected<ModelInterface> describeModel(mlir::ModuleOp module,
                                             llvm::StringRef function,
                                             llvm::StringRef name);

/// Lowers the model in place to the LLVM dialect with quantc-int8-to-llvm
/// for `isa` and model.parallelism (a float model passes its int8 step
/// unchanged), then makes every function internal and adds the external
/// entry point `<name>_run` (raw pointers in, i32 0 out) that calls the
/// model with memref descriptors. With OpenMP, also the external
/// `void <name>_set_num_threads(int)`: it stores the thread count of later
/// runs in an internal global (atomically) that every parallel region reads
/// (n <= 0: the OpenMP runtime's default, omp_get_max_threads()). Errors
/// are reported through the context's diagnostics. With `timing`, each pass
/// of the pipeline is timed in it.
mlir::LogicalResult lowerToLLVMDialect(mlir::ModuleOp module,
                                       const ModelInterface &model, Int8Isa isa,
                                       mlir::TimingScope *timing = nullptr);

/// The CPU features an object for `machine` needs and its entry point
/// checks at run time (CpuCheck.cpp's table: x86 CPUID features, AArch64
/// Linux HWCAP features), in the table's order; empty for other targets.
std::vector<std::string>
requiredCpuFeatures(const llvm::TargetMachine &machine);

/// Makes `entryPoint` of `module` check, at its first call, that the CPU
/// has requiredCpuFeatures(machine) (for x86 also the OS's register state),
/// and return 1 without running anything when it does not. The check and
/// the exported entry point are compiled for the architecture's baseline.
llvm::Error addCpuCheck(llvm::Module &module,
                        const llvm::TargetMachine &machine,
                        llvm::StringRef entryPoint);

/// What emitCode writes.
enum class EmitKind { LLVMIR, Assembly, Object };

/// Translates a module in the LLVM dialect to LLVM IR for the target,
/// optimizes it (-O3) and writes LLVM IR text, assembly or an object file.
/// With `timing`, the translation, the optimization and the code generation
/// are timed in it.
/// `entryPoint` (the model's `<name>_run`) gets the CPU check of
/// addCpuCheck.
llvm::Error emitCode(mlir::ModuleOp module, const CompileTarget &target,
                     llvm::StringRef entryPoint, EmitKind kind,
                     llvm::raw_pwrite_stream &os,
                     mlir::TimingScope *timing = nullptr);

/// Writes the C header of `model` compiled for `target`: the prototype of
/// <name>_run, shapes (comments, <NAME>_INPUT0_SHAPE macros, size enums),
/// layout and quantization of each input and output.
void emitHeader(const ModelInterface &model, const CompileTarget &target,
                llvm::StringRef source, llvm::raw_ostream &os);

} // namespace quantc

#endif // QUANTC_TARGET_COMPILE_H
