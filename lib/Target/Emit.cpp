//===- Emit.cpp - LLVM IR, assembly and object files ----------------------===//
//
// Translation of the lowered variants to one LLVM module (merged, with the
// dispatching entry point of CpuCheck.cpp), -O3 for the target machine
// (no fast-math: the float32 requantization must round exactly as the int8
// reference does, and LLVM only contracts a * b + c into an FMA when the
// IR allows it, which MLIR's arith lowering does not), then the target's
// code generator.
//
//===----------------------------------------------------------------------===//

#include "quantc/Target/Compile.h"

#include "quantc/Support/Fail.h"
#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Target/TargetMachine.h"

using namespace quantc;

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

/// Moves the lowered variants into the first module: each variant's
/// symbol definitions get the suffix ".<isa>" (its entry point becomes
/// variantName) and its functions its CPU and features; external
/// declarations are shared, and so are the first variant's thread count and
/// its setter (the later variants' copies are dropped), and constants equal
/// to an earlier variant's (weights packed alike). One translation follows:
/// merging here is much cheaper than linking LLVM modules.
static mlir::ModuleOp mergeVariants(llvm::ArrayRef<mlir::ModuleOp> variants,
                                    const CompileTarget &target,
                                    const ModelInterface &model) {
  mlir::ModuleOp into = variants.front();
  mlir::MLIRContext *ctx = into.getContext();
  // Constants the variants share (weights packed alike, tables): one copy.
  // Attributes are uniqued, so equal values are equal pointers.
  llvm::DenseMap<std::tuple<mlir::Attribute, mlir::Type, uint64_t>,
                 mlir::StringAttr>
      constants;
  const bool threads = model.parallelism == Parallelism::OpenMP;
  const std::string setterName = model.name + "_set_num_threads";
  const std::string countName = model.name + "_num_threads";
  for (auto [index, variant] : llvm::enumerate(target.variants)) {
    mlir::ModuleOp module = variants[index];
    std::string suffix = variantName("", variant.isa);
    llvm::DenseMap<mlir::StringAttr, mlir::StringAttr> renames;
    llvm::SmallVector<mlir::Operation *> shared, duplicates;
    for (mlir::Operation &op : module.getBody()->getOperations()) {
      auto symbol = llvm::dyn_cast<mlir::SymbolOpInterface>(op);
      if (!symbol)
        continue;
      mlir::StringAttr name = symbol.getNameAttr();
      auto fn = llvm::dyn_cast<mlir::LLVM::LLVMFuncOp>(op);
      if ((fn && fn.isExternal()) || symbol.isDeclaration() ||
          (threads && (name == setterName || name == countName))) {
        shared.push_back(&op);
        continue;
      }
      auto global = llvm::dyn_cast<mlir::LLVM::GlobalOp>(op);
      if (global && global.getConstant() && global.getValueAttr() &&
          global.getInitializerRegion().empty()) {
        auto key =
            std::make_tuple(global.getValueAttr(), global.getGlobalType(),
                            global.getAlignment().value_or(0));
        auto [it, inserted] = constants.try_emplace(
            key, mlir::StringAttr::get(ctx, name.str() + suffix));
        if (!inserted) {
          renames[name] = it->second;
          duplicates.push_back(&op);
          continue;
        }
      }
      renames[name] = mlir::StringAttr::get(ctx, name.str() + suffix);
    }
    mlir::AttrTypeReplacer replacer;
    replacer.addReplacement(
        [&](mlir::SymbolRefAttr ref) -> std::optional<mlir::Attribute> {
          auto it = renames.find(ref.getRootReference());
          if (it == renames.end())
            return std::nullopt;
          return mlir::SymbolRefAttr::get(it->second,
                                          ref.getNestedReferences());
        });
    module.walk([&](mlir::Operation *op) {
      replacer.replaceElementsIn(op, /*replaceAttrs=*/true,
                                 /*replaceLocs=*/false,
                                 /*replaceTypes=*/false);
    });
    auto features =
        variant.features.empty()
            ? mlir::LLVM::TargetFeaturesAttr()
            : mlir::LLVM::TargetFeaturesAttr::get(ctx, variant.features);
    for (mlir::Operation *op : duplicates)
      op->erase();
    for (mlir::Operation &op :
         llvm::make_early_inc_range(module.getBody()->getOperations())) {
      if (auto symbol = llvm::dyn_cast<mlir::SymbolOpInterface>(op)) {
        auto it = renames.find(symbol.getNameAttr());
        if (it != renames.end())
          symbol.setName(it->second);
      }
      if (auto fn = llvm::dyn_cast<mlir::LLVM::LLVMFuncOp>(op);
          fn && !fn.isExternal()) {
        fn.setTargetCpuAttr(mlir::StringAttr::get(ctx, variant.cpu));
        fn.setTargetFeaturesAttr(features);
      }
      if (index == 0)
        continue;
      // Into the first module; shared symbols only where it lacks them.
      if (llvm::is_contained(shared, &op) &&
          into.lookupSymbol(
              llvm::cast<mlir::SymbolOpInterface>(op).getNameAttr())) {
        op.erase();
        continue;
      }
      op.moveBefore(into.getBody(), into.getBody()->end());
    }
  }
  return into;
}

/// Adds the external `const char *name(void)` returning `text`, compiled
/// for the architecture's baseline.
static void addStringFunction(llvm::Module &module, const llvm::Triple &triple,
                              llvm::StringRef name, llvm::StringRef text) {
  llvm::LLVMContext &ctx = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(ctx);
  auto *fn =
      llvm::Function::Create(llvm::FunctionType::get(ptr, false),
                             llvm::GlobalValue::ExternalLinkage, name, module);
  compileForBaseline(*fn, triple);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  b.CreateRet(b.CreateGlobalString(text, name + ".text"));
}

/// Adds the external `int arrayName(const float *const inputs[], float
/// *const outputs[])`, which calls `run` with the arrays' pointers: the entry
/// point for drivers and loaders written for any number of tensors.
static void addArrayEntryPoint(llvm::Module &module, const llvm::Triple &triple,
                               llvm::StringRef arrayName, llvm::Function *run,
                               size_t numInputs, size_t numOutputs) {
  llvm::LLVMContext &ctx = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(ctx);
  auto *fn = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr, ptr}, false),
      llvm::GlobalValue::ExternalLinkage, arrayName, module);
  compileForBaseline(*fn, triple);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  llvm::SmallVector<llvm::Value *> args;
  for (auto [array, count] : {std::pair(fn->getArg(0), numInputs),
                              std::pair(fn->getArg(1), numOutputs)})
    for (size_t i = 0; i < count; ++i)
      args.push_back(
          b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(ptr, array, i)));
  b.CreateRet(b.CreateCall(run, args));
}

/// x86 code generation lowers a float to bfloat16 truncation (an ONNX Cast
/// to bfloat16 of an activation) to a call to __truncsfbf2, which GCC 12's
/// libgcc lacks: where the module has one, it gets a weak hidden definition
/// of its own (round to nearest even on the bits, NaNs kept quiet).
static void addTruncSFBF2(llvm::Module &module, const llvm::Triple &triple) {
  if (!triple.isX86() || module.getFunction("__truncsfbf2"))
    return;
  bool truncates = llvm::any_of(module, [](const llvm::Function &f) {
    return llvm::any_of(llvm::instructions(f), [](const llvm::Instruction &i) {
      return llvm::isa<llvm::FPTruncInst>(i) &&
             i.getType()->getScalarType()->isBFloatTy();
    });
  });
  if (!truncates)
    return;
  llvm::LLVMContext &ctx = module.getContext();
  auto *fn = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getBFloatTy(ctx),
                              {llvm::Type::getFloatTy(ctx)}, false),
      llvm::GlobalValue::WeakAnyLinkage, "__truncsfbf2", module);
  fn->setVisibility(llvm::GlobalValue::HiddenVisibility);
  compileForBaseline(*fn, triple);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  llvm::Value *bits = b.CreateBitCast(fn->getArg(0), b.getInt32Ty());
  // bits + 0x7fff + (bit 16), then the high half; a NaN keeps its sign and
  // becomes the quiet NaN.
  llvm::Value *odd = b.CreateAnd(b.CreateLShr(bits, 16), 1);
  llvm::Value *rounded =
      b.CreateLShr(b.CreateAdd(b.CreateAdd(bits, b.getInt32(0x7fff)), odd), 16);
  llvm::Value *isNan = b.CreateFCmpUNO(fn->getArg(0), fn->getArg(0));
  llvm::Value *nan = b.CreateOr(b.CreateLShr(bits, 16), 0x40);
  llvm::Value *half =
      b.CreateTrunc(b.CreateSelect(isNan, nan, rounded), b.getInt16Ty());
  b.CreateRet(b.CreateBitCast(half, llvm::Type::getBFloatTy(ctx)));
}

llvm::Error quantc::emitCode(llvm::ArrayRef<mlir::ModuleOp> variants,
                             const CompileTarget &target,
                             const ModelInterface &model, EmitKind kind,
                             llvm::raw_pwrite_stream &os,
                             mlir::TimingScope *timing, bool keepUntilExit) {
  if (variants.size() != target.variants.size())
    return fail("expected one lowered module per variant of the target");
  mlir::MLIRContext *ctx = mlir::ModuleOp(variants.front()).getContext();
  mlir::DialectRegistry registry;
  mlir::registerAllToLLVMIRTranslations(registry);
  ctx->appendDialectRegistry(registry);

  mlir::TimingScope translateTimer = nest(timing, "translate to LLVM IR");
  llvm::TargetMachine &machine = *target.machine;
  const std::string entryPoint = model.name + "_run";
  mlir::TimingScope mergeTimer = translateTimer.nest("merge the variants");
  mlir::ModuleOp merged = mergeVariants(variants, target, model);
  mergeTimer.stop();
  {
    // Weights as one block of bytes each (in the target's byte order).
    merged->setAttr(
        mlir::LLVM::LLVMDialect::getDataLayoutAttrName(),
        mlir::StringAttr::get(
            ctx, machine.createDataLayout().getStringRepresentation()));
    mlir::PassManager pm(ctx);
    pm.addPass(quantc::createFlattenConstantGlobals());
    if (mlir::failed(pm.run(merged)))
      return fail("flattening the constant globals failed");
  }
  auto llvmContext = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(merged, *llvmContext, "quantc-model");
  llvm::scope_exit keep([&] {
    if (!keepUntilExit)
      return;
    llvm::BuryPointer(std::move(llvmModule));
    llvm::BuryPointer(std::move(llvmContext));
  });
  if (!llvmModule)
    return fail("translation to LLVM IR failed (see the errors above)");
  llvmModule->setTargetTriple(machine.getTargetTriple());
  llvmModule->setDataLayout(machine.createDataLayout());

  // The entry point: it runs the variant the CPU supports, or returns an
  // error instead of the model dying of SIGILL.
  std::vector<DispatchCandidate> candidates;
  for (const TargetVariant &variant : target.variants) {
    llvm::Function *run =
        llvmModule->getFunction(variantName(entryPoint, variant.isa));
    if (!run || run->isDeclaration())
      return fail("entry point '" + entryPoint + "' not found");
    candidates.push_back(
        {run, toString(variant.isa).str(), variant.cpuFeatures});
  }
  if (llvm::Error e =
          addDispatch(*llvmModule, machine.getTargetTriple(), entryPoint,
                      model.name + "_int8_isa", kInt8IsaVariable, candidates))
    return e;
  addStringFunction(*llvmModule, machine.getTargetTriple(),
                    model.name + "_metadata", modelMetadata(model, target));
  addArrayEntryPoint(*llvmModule, machine.getTargetTriple(),
                     model.name + "_runv", llvmModule->getFunction(entryPoint),
                     model.inputs.size(), model.outputs.size());
  addTruncSFBF2(*llvmModule, machine.getTargetTriple());

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
