//===- CpuCheck.cpp - The CPU features an object needs, checked at run time
//-===//
//
// An object compiled for a CPU (x86-64-v3 by default, or --cpu / --mattr)
// uses that CPU's instructions throughout. Run on a CPU without them it
// would die of SIGILL somewhere inside. Instead, its entry point checks
// once, at the first call, that the CPU (and for x86 the OS's saved
// register state) has every feature the object was compiled with, and
// returns 1 otherwise.
//
// The table below is the one place that maps LLVM's feature names to how a
// running program detects them: CPUID leaf, register and bit (and XCR0
// state) on x86, getauxval's HWCAP / HWCAP2 bit on AArch64 Linux. A
// feature LLVM enables that the table does not list is not checked (the
// baseline of the architecture, and features codegen does not use).
//
//===----------------------------------------------------------------------===//

#include "quantc/Target/Compile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

using namespace quantc;

namespace {

enum Reg : uint8_t { EAX, EBX, ECX, EDX };

/// How to detect an x86 feature: CPUID.(leaf, subleaf).reg[bit], and the
/// XCR0 bits the OS must set for its registers (AVX: 0x6; AVX-512: 0xe6).
struct X86Feature {
  const char *name; ///< LLVM's name (+name in target features).
  uint32_t leaf, subleaf;
  Reg reg;
  uint8_t bit;
  uint64_t xcr0;
};

constexpr uint64_t kAvxState = 0x6, kAvx512State = 0xe6, kAmxState = 0x60000;

const X86Feature kX86Features[] = {
    {"sse3", 1, 0, ECX, 0, 0},
    {"pclmul", 1, 0, ECX, 1, 0},
    {"ssse3", 1, 0, ECX, 9, 0},
    {"fma", 1, 0, ECX, 12, kAvxState},
    {"cx16", 1, 0, ECX, 13, 0},
    {"sse4.1", 1, 0, ECX, 19, 0},
    {"sse4.2", 1, 0, ECX, 20, 0},
    {"movbe", 1, 0, ECX, 22, 0},
    {"popcnt", 1, 0, ECX, 23, 0},
    {"aes", 1, 0, ECX, 25, 0},
    {"xsave", 1, 0, ECX, 26, 0},
    {"avx", 1, 0, ECX, 28, kAvxState},
    {"f16c", 1, 0, ECX, 29, kAvxState},
    {"bmi", 7, 0, EBX, 3, 0},
    {"avx2", 7, 0, EBX, 5, kAvxState},
    {"bmi2", 7, 0, EBX, 8, 0},
    {"avx512f", 7, 0, EBX, 16, kAvx512State},
    {"avx512dq", 7, 0, EBX, 17, kAvx512State},
    {"adx", 7, 0, EBX, 19, 0},
    {"avx512ifma", 7, 0, EBX, 21, kAvx512State},
    {"avx512cd", 7, 0, EBX, 28, kAvx512State},
    {"sha", 7, 0, EBX, 29, 0},
    {"avx512bw", 7, 0, EBX, 30, kAvx512State},
    {"avx512vl", 7, 0, EBX, 31, kAvx512State},
    {"avx512vbmi", 7, 0, ECX, 1, kAvx512State},
    {"avx512vbmi2", 7, 0, ECX, 6, kAvx512State},
    {"gfni", 7, 0, ECX, 8, 0},
    {"vaes", 7, 0, ECX, 9, kAvxState},
    {"vpclmulqdq", 7, 0, ECX, 10, kAvxState},
    {"avx512vnni", 7, 0, ECX, 11, kAvx512State},
    {"avx512bitalg", 7, 0, ECX, 12, kAvx512State},
    {"avx512vpopcntdq", 7, 0, ECX, 14, kAvx512State},
    {"avx512fp16", 7, 0, EDX, 23, kAvx512State},
    {"amx-bf16", 7, 0, EDX, 22, kAmxState},
    {"amx-tile", 7, 0, EDX, 24, kAmxState},
    {"amx-int8", 7, 0, EDX, 25, kAmxState},
    {"avxvnni", 7, 1, EAX, 4, kAvxState},
    {"avx512bf16", 7, 1, EAX, 5, kAvx512State},
    {"lzcnt", 0x80000001, 0, ECX, 5, 0},
};

/// An AArch64 feature: bit `bit` of getauxval(AT_HWCAP) (16) or
/// getauxval(AT_HWCAP2) (26) on Linux.
struct AArch64Feature {
  const char *name;
  uint64_t auxType;
  uint8_t bit;
};

const AArch64Feature kAArch64Features[] = {
    {"fullfp16", 16, 10}, // HWCAP_ASIMDHP
    {"dotprod", 16, 20},  // HWCAP_ASIMDDP
    {"sve", 16, 22},      // HWCAP_SVE
    {"i8mm", 26, 13},     // HWCAP2_I8MM
    {"bf16", 26, 14},     // HWCAP2_BF16
};

bool has(const llvm::TargetMachine &machine, llvm::StringRef name) {
  return machine.getMCSubtargetInfo()->checkFeatures(("+" + name).str());
}

/// `i1 (regs[reg] & (1 << bit)) != 0`.
llvm::Value *bitSet(llvm::IRBuilder<> &b, llvm::Value *word, unsigned bit) {
  llvm::Value *mask =
      b.getIntN(word->getType()->getIntegerBitWidth(), uint64_t(1) << bit);
  return b.CreateICmpNE(b.CreateAnd(word, mask),
                        llvm::ConstantInt::get(word->getType(), 0));
}

/// The body of the x86 check: i1 "every required feature present".
llvm::Value *checkX86(llvm::IRBuilder<> &b, llvm::Function *fn,
                      llvm::ArrayRef<const X86Feature *> required) {
  llvm::LLVMContext &ctx = b.getContext();
  llvm::Type *i32 = b.getInt32Ty();
  auto *regsType = llvm::StructType::get(ctx, {i32, i32, i32, i32});
  auto *cpuidAsm = llvm::InlineAsm::get(
      llvm::FunctionType::get(regsType, {i32, i32}, false), "cpuid",
      "={ax},={bx},={cx},={dx},{ax},{cx},~{dirflag},~{fpsr},~{flags}",
      /*hasSideEffects=*/true);
  auto cpuid = [&](uint32_t leaf, uint32_t subleaf) {
    return b.CreateCall(cpuidAsm, {b.getInt32(leaf), b.getInt32(subleaf)});
  };
  llvm::Value *maxBasic = b.CreateExtractValue(cpuid(0, 0), 0);
  llvm::Value *maxExtended = b.CreateExtractValue(cpuid(0x80000000, 0), 0);
  llvm::Value *leaf1 = cpuid(1, 0);

  // XCR0 (the register state the OS saves), read only when CPUID says the
  // OS enabled XSAVE (xgetbv faults otherwise).
  uint64_t xcr0Needed = 0;
  for (const X86Feature *f : required)
    xcr0Needed |= f->xcr0;
  llvm::Value *ok = b.getTrue();
  if (xcr0Needed) {
    llvm::Value *osxsave = bitSet(b, b.CreateExtractValue(leaf1, ECX), 27);
    llvm::BasicBlock *from = b.GetInsertBlock();
    auto *readBlock = llvm::BasicBlock::Create(ctx, "xgetbv", fn);
    auto *join = llvm::BasicBlock::Create(ctx, "xcr0", fn);
    b.CreateCondBr(osxsave, readBlock, join);
    b.SetInsertPoint(readBlock);
    auto *xgetbvAsm = llvm::InlineAsm::get(
        llvm::FunctionType::get(llvm::StructType::get(ctx, {i32, i32}), {i32},
                                false),
        "xgetbv", "={ax},={dx},{cx},~{dirflag},~{fpsr},~{flags}",
        /*hasSideEffects=*/true);
    llvm::Value *parts = b.CreateCall(xgetbvAsm, {b.getInt32(0)});
    llvm::Type *i64 = b.getInt64Ty();
    llvm::Value *value = b.CreateOr(
        b.CreateZExt(b.CreateExtractValue(parts, 0), i64),
        b.CreateShl(b.CreateZExt(b.CreateExtractValue(parts, 1), i64), 32));
    b.CreateBr(join);
    b.SetInsertPoint(join);
    llvm::PHINode *xcr0 = b.CreatePHI(i64, 2);
    xcr0->addIncoming(b.getInt64(0), from);
    xcr0->addIncoming(value, readBlock);
    llvm::Value *needed = b.getInt64(xcr0Needed);
    ok = b.CreateICmpEQ(b.CreateAnd(xcr0, needed), needed);
  }

  // One CPUID call per (leaf, subleaf), valid when the CPU has the leaf.
  std::map<std::pair<uint32_t, uint32_t>, llvm::Value *> leaves;
  leaves[{1, 0}] = leaf1;
  for (const X86Feature *f : required) {
    llvm::Value *&regs = leaves[{f->leaf, f->subleaf}];
    if (!regs)
      regs = cpuid(f->leaf, f->subleaf);
    llvm::Value *max = f->leaf >= 0x80000000 ? maxExtended : maxBasic;
    llvm::Value *present = b.CreateICmpUGE(max, b.getInt32(f->leaf));
    llvm::Value *set = bitSet(b, b.CreateExtractValue(regs, f->reg), f->bit);
    ok = b.CreateAnd(ok, b.CreateAnd(present, set));
  }
  return ok;
}

/// The body of the AArch64 check (Linux: getauxval).
llvm::Value *checkAArch64(llvm::IRBuilder<> &b, llvm::Module &m,
                          llvm::ArrayRef<const AArch64Feature *> required) {
  llvm::Type *i64 = b.getInt64Ty();
  llvm::FunctionCallee getauxval = m.getOrInsertFunction(
      "getauxval", llvm::FunctionType::get(i64, {i64}, false));
  std::map<uint64_t, llvm::Value *> words;
  llvm::Value *ok = b.getTrue();
  for (const AArch64Feature *f : required) {
    llvm::Value *&word = words[f->auxType];
    if (!word)
      word = b.CreateCall(getauxval, {b.getInt64(f->auxType)});
    ok = b.CreateAnd(ok, bitSet(b, word, f->bit));
  }
  return ok;
}

/// Compiles `fn` for the architecture's baseline, so that it runs on any
/// CPU of it.
void useBaseline(llvm::Function *fn, const llvm::Triple &triple) {
  fn->addFnAttr("target-cpu", triple.isX86() ? "x86-64" : "generic");
  fn->removeFnAttr("target-features");
}

} // namespace

std::vector<std::string>
quantc::requiredCpuFeatures(const llvm::TargetMachine &machine) {
  std::vector<std::string> names;
  const llvm::Triple &triple = machine.getTargetTriple();
  if (triple.isX86()) {
    for (const X86Feature &f : kX86Features)
      if (has(machine, f.name))
        names.push_back(f.name);
  } else if (triple.isAArch64() && triple.isOSLinux()) {
    for (const AArch64Feature &f : kAArch64Features)
      if (has(machine, f.name))
        names.push_back(f.name);
  }
  return names;
}

llvm::Error quantc::addCpuCheck(llvm::Module &module,
                                const llvm::TargetMachine &machine,
                                llvm::StringRef entryPoint) {
  std::vector<std::string> names = requiredCpuFeatures(machine);
  if (names.empty())
    return llvm::Error::success();
  llvm::Function *run = module.getFunction(entryPoint);
  if (!run || run->isDeclaration())
    return llvm::createStringError("entry point '" + entryPoint +
                                   "' not found");
  const llvm::Triple &triple = machine.getTargetTriple();
  llvm::LLVMContext &ctx = module.getContext();
  llvm::IRBuilder<> b(ctx);

  // The model's entry point becomes internal; the exported one checks first.
  run->setName(entryPoint + ".unchecked");
  run->setLinkage(llvm::GlobalValue::InternalLinkage);
  auto *checked = llvm::Function::Create(run->getFunctionType(),
                                         llvm::GlobalValue::ExternalLinkage,
                                         entryPoint, module);
  useBaseline(checked, triple);

  // The cached answer: 0 not yet checked, 1 supported, 2 not supported.
  llvm::Type *i32 = b.getInt32Ty();
  auto *state = new llvm::GlobalVariable(
      module, i32, /*isConstant=*/false, llvm::GlobalValue::InternalLinkage,
      b.getInt32(0), entryPoint + ".cpu_state");
  state->setAlignment(llvm::Align(4));

  auto *check = llvm::Function::Create(llvm::FunctionType::get(i32, false),
                                       llvm::GlobalValue::InternalLinkage,
                                       entryPoint + ".check_cpu", module);
  useBaseline(check, triple);
  check->addFnAttr(llvm::Attribute::NoInline);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", check));
  llvm::Value *ok;
  if (triple.isX86()) {
    std::vector<const X86Feature *> required;
    for (const X86Feature &f : kX86Features)
      if (llvm::is_contained(names, f.name))
        required.push_back(&f);
    ok = checkX86(b, check, required);
  } else {
    std::vector<const AArch64Feature *> required;
    for (const AArch64Feature &f : kAArch64Features)
      if (llvm::is_contained(names, f.name))
        required.push_back(&f);
    ok = checkAArch64(b, module, required);
  }
  b.CreateRet(b.CreateSelect(ok, b.getInt32(1), b.getInt32(2)));

  // <entry>(args...): check once (racing first calls compute the same
  // answer), then run or return 1.
  auto *entry = llvm::BasicBlock::Create(ctx, "entry", checked);
  auto *compute = llvm::BasicBlock::Create(ctx, "check", checked);
  auto *decide = llvm::BasicBlock::Create(ctx, "decide", checked);
  auto *call = llvm::BasicBlock::Create(ctx, "run", checked);
  auto *refuse = llvm::BasicBlock::Create(ctx, "unsupported", checked);
  b.SetInsertPoint(entry);
  llvm::LoadInst *cached = b.CreateAlignedLoad(i32, state, llvm::Align(4));
  cached->setAtomic(llvm::AtomicOrdering::Monotonic);
  b.CreateCondBr(b.CreateICmpEQ(cached, b.getInt32(0)), compute, decide);
  b.SetInsertPoint(compute);
  llvm::Value *computed = b.CreateCall(check);
  b.CreateAlignedStore(computed, state, llvm::Align(4))
      ->setAtomic(llvm::AtomicOrdering::Monotonic);
  b.CreateBr(decide);
  b.SetInsertPoint(decide);
  llvm::PHINode *answer = b.CreatePHI(i32, 2);
  answer->addIncoming(cached, entry);
  answer->addIncoming(computed, compute);
  b.CreateCondBr(b.CreateICmpEQ(answer, b.getInt32(1)), call, refuse);
  b.SetInsertPoint(call);
  llvm::SmallVector<llvm::Value *> args;
  for (llvm::Argument &arg : checked->args())
    args.push_back(&arg);
  b.CreateRet(b.CreateCall(run, args));
  b.SetInsertPoint(refuse);
  b.CreateRet(b.getInt32(1));
  return llvm::Error::success();
}
