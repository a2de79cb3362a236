//===- Emit.cpp - LLVM IR, assembly and object files ----------------------===//
//
// Translation of the lowered variants to one LLVM module (linked, with the
// dispatching entry point of CpuCheck.cpp), -O3 for the target machine
// (no fast-math: the float32 requantization must round exactly as the int8
// reference does, and LLVM only contracts a * b + c into an FMA when the
// IR allows it, which MLIR's arith lowering does not), then the target's
// code generator.
//
//===----------------------------------------------------------------------===//

#include "quantc/Target/Compile.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Target/TargetMachine.h"

using namespace quantc;

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A timer nested in `parent`, or none.
static mlir::TimingScope nest(mlir::TimingScope *parent, llvm::StringRef name) {
  return parent ? parent->nest(name) : mlir::TimingScope();
}

/// The name of variant `isa`'s implementation of `entryPoint`.
static std::string variantName(llvm::StringRef entryPoint, Int8Isa isa) {
  std::string name = (entryPoint + "." + toString(isa)).str();
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

llvm::Error quantc::emitCode(llvm::ArrayRef<mlir::ModuleOp> variants,
                             const CompileTarget &target,
                             const ModelInterface &model, EmitKind kind,
                             llvm::raw_pwrite_stream &os,
                             mlir::TimingScope *timing) {
  if (variants.size() != target.variants.size())
    return fail("expected one lowered module per variant of the target");
  mlir::DialectRegistry registry;
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::ModuleOp(variants.front())
      .getContext()
      ->appendDialectRegistry(registry);

  mlir::TimingScope translateTimer = nest(timing, "translate to LLVM IR");
  llvm::TargetMachine &machine = *target.machine;
  const std::string entryPoint = model.name + "_run";
  // With threads, every variant reads the thread count of the first
  // variant's global, which its <name>_set_num_threads sets.
  const bool threads = model.parallelism == Parallelism::OpenMP;
  const std::string setterName = model.name + "_set_num_threads";
  const std::string countName = model.name + "_num_threads";
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  for (auto [index, variant] : llvm::enumerate(target.variants)) {
    std::unique_ptr<llvm::Module> translated = mlir::translateModuleToLLVMIR(
        mlir::ModuleOp(variants[index]), llvmContext, "quantc-model");
    if (!translated)
      return fail("translation to LLVM IR failed (see the errors above)");
    translated->setTargetTriple(machine.getTargetTriple());
    translated->setDataLayout(machine.createDataLayout());
    // Self-describing functions: the variant's CPU and features (also for
    // LTO or a later llc).
    for (llvm::Function &f : *translated) {
      if (f.isDeclaration())
        continue;
      f.addFnAttr("target-cpu", variant.cpu);
      if (!variant.features.empty())
        f.addFnAttr("target-features", variant.features);
    }
    llvm::Function *run = translated->getFunction(entryPoint);
    if (!run || run->isDeclaration())
      return fail("entry point '" + entryPoint + "' not found");
    run->setName(variantName(entryPoint, variant.isa));
    if (threads) {
      llvm::GlobalVariable *count = translated->getNamedGlobal(countName);
      if (!count)
        return fail("thread count '" + countName + "' not found");
      if (!llvmModule) {
        // Visible to the later variants while linking.
        count->setLinkage(llvm::GlobalValue::ExternalLinkage);
      } else {
        if (llvm::Function *setter = translated->getFunction(setterName))
          setter->eraseFromParent();
        count->setInitializer(nullptr);
        count->setLinkage(llvm::GlobalValue::ExternalLinkage);
      }
    }
    if (!llvmModule)
      llvmModule = std::move(translated);
    else if (llvm::Linker::linkModules(*llvmModule, std::move(translated)))
      return fail("cannot link the variants of the model");
  }
  if (threads)
    llvmModule->getNamedGlobal(countName)->setLinkage(
        llvm::GlobalValue::InternalLinkage);

  // The entry point: it runs the variant the CPU supports, or returns an
  // error instead of the model dying of SIGILL.
  std::vector<DispatchCandidate> candidates;
  for (const TargetVariant &variant : target.variants)
    candidates.push_back(
        {llvmModule->getFunction(variantName(entryPoint, variant.isa)),
         toString(variant.isa).str(), variant.cpuFeatures});
  if (llvm::Error e =
          addDispatch(*llvmModule, machine.getTargetTriple(), entryPoint,
                      model.name + "_int8_isa", kInt8IsaVariable, candidates))
    return e;

  translateTimer.stop();

  mlir::TimingScope optimizeTimer = nest(timing, "LLVM -O3");
  auto optimize = mlir::makeOptimizingTransformer(3, 0, &machine);
  if (llvm::Error e = optimize(llvmModule.get()))
    return fail("LLVM optimization failed: " + llvm::toString(std::move(e)));

  optimizeTimer.stop();

  if (kind == EmitKind::LLVMIR) {
    llvmModule->print(os, nullptr);
    return llvm::Error::success();
  }
  mlir::TimingScope codegenTimer = nest(timing, "LLVM code generation");
  llvm::legacy::PassManager codegen;
  auto fileType = kind == EmitKind::Assembly
                      ? llvm::CodeGenFileType::AssemblyFile
                      : llvm::CodeGenFileType::ObjectFile;
  if (machine.addPassesToEmitFile(codegen, os, nullptr, fileType))
    return fail("target '" + target.triple + "' cannot emit this file type");
  codegen.run(*llvmModule);
  return llvm::Error::success();
}
