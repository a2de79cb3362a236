//===- Emit.cpp - LLVM IR, assembly and object files ----------------------===//
//
// Translation of the lowered module to LLVM IR, -O3 for the target machine
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
#include "llvm/Target/TargetMachine.h"

using namespace quantc;

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A timer nested in `parent`, or none.
static mlir::TimingScope nest(mlir::TimingScope *parent, llvm::StringRef name) {
  return parent ? parent->nest(name) : mlir::TimingScope();
}

llvm::Error quantc::emitCode(mlir::ModuleOp module, const CompileTarget &target,
                             llvm::StringRef entryPoint, EmitKind kind,
                             llvm::raw_pwrite_stream &os,
                             mlir::TimingScope *timing) {
  mlir::DialectRegistry registry;
  mlir::registerAllToLLVMIRTranslations(registry);
  module.getContext()->appendDialectRegistry(registry);

  mlir::TimingScope translateTimer = nest(timing, "translate to LLVM IR");
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, llvmContext, "quantc-model");
  if (!llvmModule)
    return fail("translation to LLVM IR failed (see the errors above)");
  llvm::TargetMachine &machine = *target.machine;
  llvmModule->setTargetTriple(machine.getTargetTriple());
  llvmModule->setDataLayout(machine.createDataLayout());
  // Self-describing functions (the defaults of the target machine, also for
  // LTO or a later llc).
  for (llvm::Function &f : *llvmModule) {
    if (f.isDeclaration())
      continue;
    f.addFnAttr("target-cpu", target.cpu);
    if (!target.features.empty())
      f.addFnAttr("target-features", target.features);
  }
  // Run on a CPU without those features, the entry point returns an error
  // instead of the model dying of SIGILL.
  if (llvm::Error e = addCpuCheck(*llvmModule, machine, entryPoint))
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
