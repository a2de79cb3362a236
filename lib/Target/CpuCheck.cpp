//===- CpuCheck.cpp - Run-time CPU checks and dispatch --------------------===//
//
// An object carries one variant of the model per int8 instruction set (by
// default) or one pinned variant (--cpu / --mattr), each compiled for a CPU
// and using its instructions throughout. Run on a CPU without them a
// variant would die of SIGILL somewhere inside. Instead, the entry point
// (compiled for the architecture's baseline) picks at its first call the
// first variant whose features the CPU (and for x86 the OS: its saved
// register state, Linux's grant of the AMX tile state) has, caches the
// choice, and returns 1 when there is none.
//
// The table below is the one place that maps LLVM's feature names to how a
// running program detects them: CPUID leaf, register and bit (and XCR0
// state, and for AMX the tile palette and Linux's permission to use the
// tile state) on x86, getauxval's HWCAP / HWCAP2 bit on AArch64 Linux. On
// x86 it lists every ISA extension of LLVM's x86-64 CPUs but those of
// kX86Unchecked (the baseline, and instructions LLVM emits only for their
// own intrinsics), so an object pinned to any CPU (--cpu znver4 on an Intel
// CPU without SSE4a) returns 1 instead of dying of SIGILL.
//
//===----------------------------------------------------------------------===//

#include "quantc/Target/Compile.h"

#include "quantc/Support/Fail.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <map>
#include <optional>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#if defined(__linux__) && defined(__x86_64__)
#include <unistd.h>
#endif
#if defined(__linux__) && defined(__aarch64__)
#include <sys/auxv.h>
#endif

using namespace quantc;

namespace {

enum Reg : uint8_t { EAX, EBX, ECX, EDX };

/// A field of CPUID.(leaf, subleaf).reg: `width` bits from `bit`, which
/// says yes when its value is at least `minimum` (a flag: one bit, 1).
struct CpuidField {
  uint32_t leaf, subleaf;
  Reg reg;
  uint8_t bit, width = 1;
  uint32_t minimum = 1;
};

/// What the OS must grant before a feature's instructions run, past saving
/// their registers (XCR0).
enum class OsGrant : uint8_t {
  None,
  /// Linux: arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA). Without it
  /// the first tile instruction of the process raises SIGILL.
  LinuxTileData,
};

/// How to detect an x86 feature: a CPUID flag, the XCR0 bits the OS must
/// set for its registers (AVX: 0x6; AVX-512: 0xe6; AMX: 0x60000; APX:
/// 0x80000), where needed a second CPUID field, and an OS grant.
struct X86Feature {
  const char *name; ///< LLVM's name (+name in target features).
  CpuidField flag;
  uint64_t xcr0 = 0;
  std::optional<CpuidField> also = std::nullopt;
  OsGrant grant = OsGrant::None;
};

constexpr uint64_t kAvxState = 0x6, kAvx512State = 0xe6, kAmxState = 0x60000,
                   kApxState = 0x80000;
/// CPUID.(0x1D, 0).EAX, the highest tile palette: a CPU (or a virtual
/// machine) may set the AMX flags with no palette, where tile instructions
/// fault (oneDNN checks it too).
constexpr CpuidField kTilePalette{0x1d, 0, EAX, 0, 32, 1};
/// CPUID.(0x24, 0).EBX[7:0], the AVX10 version.
constexpr CpuidField avx10Version(uint32_t version) {
  return {0x24, 0, EBX, 0, 8, version};
}

/// Every ISA extension an x86-64 CPU of LLVM enables, but the baseline and
/// the few of kX86Unchecked. test/Unit/Target checks that against LLVM's
/// CPU table.
const X86Feature kX86Features[] = {
    {"sse3", {1, 0, ECX, 0}},
    {"pclmul", {1, 0, ECX, 1}},
    {"ssse3", {1, 0, ECX, 9}},
    {"fma", {1, 0, ECX, 12}, kAvxState},
    {"cx16", {1, 0, ECX, 13}},
    {"sse4.1", {1, 0, ECX, 19}},
    {"sse4.2", {1, 0, ECX, 20}},
    {"crc32", {1, 0, ECX, 20}}, // part of SSE4.2
    {"movbe", {1, 0, ECX, 22}},
    {"popcnt", {1, 0, ECX, 23}},
    {"aes", {1, 0, ECX, 25}},
    {"xsave", {1, 0, ECX, 26}},
    {"avx", {1, 0, ECX, 28}, kAvxState},
    {"f16c", {1, 0, ECX, 29}, kAvxState},
    {"bmi", {7, 0, EBX, 3}},
    {"avx2", {7, 0, EBX, 5}, kAvxState},
    {"bmi2", {7, 0, EBX, 8}},
    {"avx512f", {7, 0, EBX, 16}, kAvx512State},
    {"avx512dq", {7, 0, EBX, 17}, kAvx512State},
    {"adx", {7, 0, EBX, 19}},
    {"avx512ifma", {7, 0, EBX, 21}, kAvx512State},
    {"avx512cd", {7, 0, EBX, 28}, kAvx512State},
    {"sha", {7, 0, EBX, 29}},
    {"avx512bw", {7, 0, EBX, 30}, kAvx512State},
    {"avx512vl", {7, 0, EBX, 31}, kAvx512State},
    {"avx512vbmi", {7, 0, ECX, 1}, kAvx512State},
    {"avx512vbmi2", {7, 0, ECX, 6}, kAvx512State},
    {"gfni", {7, 0, ECX, 8}},
    {"vaes", {7, 0, ECX, 9}, kAvxState},
    {"vpclmulqdq", {7, 0, ECX, 10}, kAvxState},
    {"avx512vnni", {7, 0, ECX, 11}, kAvx512State},
    {"avx512bitalg", {7, 0, ECX, 12}, kAvx512State},
    {"avx512vpopcntdq", {7, 0, ECX, 14}, kAvx512State},
    {"avx512vp2intersect", {7, 0, EDX, 8}, kAvx512State},
    {"avx512fp16", {7, 0, EDX, 23}, kAvx512State},
    {"amx-bf16", {7, 0, EDX, 22}, kAmxState},
    {"amx-tile",
     {7, 0, EDX, 24},
     kAmxState,
     kTilePalette,
     OsGrant::LinuxTileData},
    {"amx-int8", {7, 0, EDX, 25}, kAmxState},
    {"sha512", {7, 1, EAX, 0}, kAvxState},
    {"sm3", {7, 1, EAX, 1}, kAvxState},
    {"sm4", {7, 1, EAX, 2}, kAvxState},
    {"raoint", {7, 1, EAX, 3}},
    {"avxvnni", {7, 1, EAX, 4}, kAvxState},
    {"avx512bf16", {7, 1, EAX, 5}, kAvx512State},
    {"cmpccxadd", {7, 1, EAX, 7}},
    {"amx-fp16", {7, 1, EAX, 21}, kAmxState},
    {"avxifma", {7, 1, EAX, 23}, kAvxState},
    {"movrs", {7, 1, EAX, 31}},
    {"avxvnniint8", {7, 1, EDX, 4}, kAvxState},
    {"avxneconvert", {7, 1, EDX, 5}, kAvxState},
    {"amx-complex", {7, 1, EDX, 8}, kAmxState},
    {"avxvnniint16", {7, 1, EDX, 10}, kAvxState},
    {"avx10.1", {7, 1, EDX, 19}, kAvx512State, avx10Version(1)},
    {"avx10.2", {7, 1, EDX, 19}, kAvx512State, avx10Version(2)},
    // APX: one CPUID flag for all of its parts, and its own register state.
    {"egpr", {7, 1, EDX, 21}, kApxState},
    {"push2pop2", {7, 1, EDX, 21}, kApxState},
    {"ppx", {7, 1, EDX, 21}, kApxState},
    {"ndd", {7, 1, EDX, 21}, kApxState},
    {"ccmp", {7, 1, EDX, 21}, kApxState},
    {"nf", {7, 1, EDX, 21}, kApxState},
    {"cf", {7, 1, EDX, 21}, kApxState},
    {"zu", {7, 1, EDX, 21}, kApxState},
    {"amx-fp8", {0x1e, 1, EAX, 4}, kAmxState},
    {"amx-tf32", {0x1e, 1, EAX, 6}, kAmxState},
    {"amx-avx512", {0x1e, 1, EAX, 7}, kAmxState | kAvx512State},
    {"amx-movrs", {0x1e, 1, EAX, 8}, kAmxState},
    {"sahf", {0x80000001, 0, ECX, 0}},
    {"lzcnt", {0x80000001, 0, ECX, 5}},
    {"sse4a", {0x80000001, 0, ECX, 6}},
    {"prfchw", {0x80000001, 0, ECX, 8}},
    {"xop", {0x80000001, 0, ECX, 11}, kAvxState},
    {"fma4", {0x80000001, 0, ECX, 16}, kAvxState},
    {"tbm", {0x80000001, 0, ECX, 21}},
};

/// The features of LLVM's x86-64 CPUs that the check leaves out, and why.
const char *const kX86Unchecked[] = {
    // The x86-64 baseline, which every x86-64 CPU has.
    "64bit", "cmov", "cx8", "fxsr", "mmx", "nopl", "sse", "sse2", "x87",
    // Speed hints (rep movsb), no instruction of their own.
    "ermsb", "fsrm",
    // Instructions LLVM emits only for their own intrinsics, which quantc's
    // code never calls: system software, cache and memory management,
    // thread and process control, random numbers. Hypervisors often hide
    // them (a KVM Sapphire Rapids guest here lacks pku, waitpkg, enqcmd,
    // uintr, pconfig, shstk, ptwrite and wbnoinvd; AMD guests often
    // mwaitx and rdpru): checking them would refuse CPUs that run the code.
    "cldemote", "clflushopt", "clwb", "clzero", "enqcmd", "fsgsbase", "hreset",
    "invpcid", "kl", "lwp", "movdir64b", "movdiri", "mwaitx", "pconfig", "pku",
    "prefetchi", "ptwrite", "rdpid", "rdpru", "rdrnd", "rdseed", "serialize",
    "shstk", "tsxldtrk", "uintr", "usermsr", "waitpkg", "wbnoinvd", "widekl",
    "xsavec", "xsaveopt", "xsaves"};

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

bool has(const llvm::MCSubtargetInfo &sti, llvm::StringRef name) {
  return sti.checkFeatures(("+" + name).str());
}

/// `i1 (regs[reg] & (1 << bit)) != 0`.
llvm::Value *bitSet(llvm::IRBuilder<> &b, llvm::Value *word, unsigned bit) {
  llvm::Value *mask =
      b.getIntN(word->getType()->getIntegerBitWidth(), uint64_t(1) << bit);
  return b.CreateICmpNE(b.CreateAnd(word, mask),
                        llvm::ConstantInt::get(word->getType(), 0));
}

/// XCR0 (the register state the OS saves), or 0 when CPUID says the OS did
/// not enable XSAVE (xgetbv faults then).
llvm::Value *readXcr0(llvm::IRBuilder<> &b, llvm::Function *fn,
                      llvm::Value *leaf1) {
  llvm::LLVMContext &ctx = b.getContext();
  llvm::Type *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty();
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
  llvm::Value *value = b.CreateOr(
      b.CreateZExt(b.CreateExtractValue(parts, 0), i64),
      b.CreateShl(b.CreateZExt(b.CreateExtractValue(parts, 1), i64), 32));
  b.CreateBr(join);
  b.SetInsertPoint(join);
  llvm::PHINode *xcr0 = b.CreatePHI(i64, 2);
  xcr0->addIncoming(b.getInt64(0), from);
  xcr0->addIncoming(value, readBlock);
  return xcr0;
}

/// The CPUID instruction in the check's IR: one call per (leaf, subleaf),
/// and whether the CPU has the leaf.
class Cpuid {
public:
  explicit Cpuid(llvm::IRBuilder<> &b) : b(b) {
    llvm::Type *i32 = b.getInt32Ty();
    auto *regsType =
        llvm::StructType::get(b.getContext(), {i32, i32, i32, i32});
    cpuidAsm = llvm::InlineAsm::get(
        llvm::FunctionType::get(regsType, {i32, i32}, false), "cpuid",
        "={ax},={bx},={cx},={dx},{ax},{cx},~{dirflag},~{fpsr},~{flags}",
        /*hasSideEffects=*/true);
    maxBasic = b.CreateExtractValue(call(0, 0), EAX);
    maxExtended = b.CreateExtractValue(call(0x80000000, 0), EAX);
  }

  /// {eax, ebx, ecx, edx} of CPUID.(leaf, subleaf).
  llvm::Value *call(uint32_t leaf, uint32_t subleaf) {
    llvm::Value *&regs = calls[{leaf, subleaf}];
    if (!regs)
      regs = b.CreateCall(cpuidAsm, {b.getInt32(leaf), b.getInt32(subleaf)});
    return regs;
  }

  /// i1 "the CPU has the leaf, and the field holds at least its minimum".
  llvm::Value *test(const CpuidField &f) {
    llvm::Value *max = f.leaf >= 0x80000000 ? maxExtended : maxBasic;
    llvm::Value *present = b.CreateICmpUGE(max, b.getInt32(f.leaf));
    // Leaf 7 counts its subleaves in CPUID.(7, 0).EAX (some CPUs answer
    // a higher one with garbage).
    if (f.leaf == 7 && f.subleaf > 0)
      present = b.CreateAnd(
          present, b.CreateICmpUGE(b.CreateExtractValue(call(7, 0), EAX),
                                   b.getInt32(f.subleaf)));
    llvm::Value *word = b.CreateExtractValue(call(f.leaf, f.subleaf), f.reg);
    word = b.CreateLShr(word, f.bit);
    if (f.width < 32)
      word = b.CreateAnd(word, (uint32_t(1) << f.width) - 1);
    return b.CreateAnd(present, b.CreateICmpUGE(word, b.getInt32(f.minimum)));
  }

private:
  llvm::IRBuilder<> &b;
  llvm::InlineAsm *cpuidAsm;
  llvm::Value *maxBasic, *maxExtended;
  std::map<std::pair<uint32_t, uint32_t>, llvm::Value *> calls;
};

/// Linux x86-64: the arch_prctl system call, its requests for extended
/// state permissions, and the tile data state component.
constexpr uint64_t kArchPrctl = 158; // SYS_arch_prctl
constexpr uint64_t kGetPermission = 0x1022, kRequestPermission = 0x1023;
constexpr unsigned kTileData = 18; // XFEATURE_XTILEDATA

/// Linux's permission to use the tile data state, asked for when `ok`
/// (every CPUID and XCR0 test passed): i1 "ok and granted". The request
/// (arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)) is process-wide
/// and grows every later signal frame of the process by the 8 KB of tile
/// data (to about 12 KB), hence made at the first run that picks a tile
/// variant, not at load. It fails where an alternate signal stack is too
/// small for that, or the kernel lacks it (before 5.16).
llvm::Value *requestTileData(llvm::IRBuilder<> &b, llvm::Module &module,
                             llvm::Function *fn, llvm::Value *ok) {
  llvm::LLVMContext &ctx = b.getContext();
  llvm::Type *i64 = b.getInt64Ty();
  llvm::BasicBlock *from = b.GetInsertBlock();
  auto *request = llvm::BasicBlock::Create(ctx, "tiledata.request", fn);
  auto *join = llvm::BasicBlock::Create(ctx, "tiledata", fn);
  b.CreateCondBr(ok, request, join);
  b.SetInsertPoint(request);
  llvm::FunctionCallee syscall = module.getOrInsertFunction(
      "syscall", llvm::FunctionType::get(i64, {i64}, /*isVarArg=*/true));
  llvm::Value *requested = b.CreateCall(
      syscall, {b.getInt64(kArchPrctl), b.getInt64(kRequestPermission),
                b.getInt64(kTileData)});
  // The permitted state components, read back.
  llvm::IRBuilder<> atEntry(&fn->getEntryBlock(), fn->getEntryBlock().begin());
  llvm::AllocaInst *permitted = atEntry.CreateAlloca(i64);
  b.CreateStore(b.getInt64(0), permitted);
  llvm::Value *read = b.CreateCall(
      syscall, {b.getInt64(kArchPrctl), b.getInt64(kGetPermission), permitted});
  llvm::Value *granted =
      b.CreateAnd(b.CreateAnd(b.CreateICmpEQ(requested, b.getInt64(0)),
                              b.CreateICmpEQ(read, b.getInt64(0))),
                  bitSet(b, b.CreateLoad(i64, permitted), kTileData));
  b.CreateBr(join);
  b.SetInsertPoint(join);
  llvm::PHINode *result = b.CreatePHI(b.getInt1Ty(), 2);
  result->addIncoming(b.getFalse(), from);
  result->addIncoming(granted, request);
  return result;
}

/// The body of the x86 check: i1 "every required feature present, and
/// what the OS must grant granted". The OS is asked only once every CPUID
/// and XCR0 test passed.
llvm::Value *checkX86(llvm::IRBuilder<> &b, llvm::Module &module,
                      llvm::Function *fn, const llvm::Triple &triple,
                      llvm::ArrayRef<const X86Feature *> required) {
  Cpuid cpuid(b);
  uint64_t xcr0Needed = 0;
  bool tileData = false;
  for (const X86Feature *f : required) {
    xcr0Needed |= f->xcr0;
    tileData |= f->grant == OsGrant::LinuxTileData;
  }
  llvm::Value *ok = b.getTrue();
  if (xcr0Needed) {
    llvm::Value *xcr0 = readXcr0(b, fn, cpuid.call(1, 0));
    llvm::Value *needed = b.getInt64(xcr0Needed);
    ok = b.CreateICmpEQ(b.CreateAnd(xcr0, needed), needed);
  }
  for (const X86Feature *f : required) {
    ok = b.CreateAnd(ok, cpuid.test(f->flag));
    if (f->also)
      ok = b.CreateAnd(ok, cpuid.test(*f->also));
  }
  if (tileData && triple.isOSLinux()) {
    // Tiles exist in 64-bit mode only.
    if (triple.getArch() != llvm::Triple::x86_64)
      return b.getFalse();
    ok = requestTileData(b, module, fn, ok);
  }
  return ok;
}

/// The host's CPUID `f` test, as the check's IR makes it.
bool hostCpuidTest(const CpuidField &f) {
#if defined(__x86_64__) || defined(__i386__)
  unsigned regs[4];
  if (__get_cpuid_max(f.leaf & 0x80000000u, nullptr) < f.leaf)
    return false;
  if (f.leaf == 7 && f.subleaf > 0) {
    __cpuid_count(7, 0, regs[EAX], regs[EBX], regs[ECX], regs[EDX]);
    if (regs[EAX] < f.subleaf)
      return false;
  }
  __cpuid_count(f.leaf, f.subleaf, regs[EAX], regs[EBX], regs[ECX], regs[EDX]);
  uint32_t word = regs[f.reg] >> f.bit;
  if (f.width < 32)
    word &= (uint32_t(1) << f.width) - 1;
  return word >= f.minimum;
#else
  (void)f;
  return false;
#endif
}

/// Whether the OS grants `grant` to this process (asking for it, as an
/// object's check would).
bool hostGrant(OsGrant grant) {
  switch (grant) {
  case OsGrant::None:
    return true;
  case OsGrant::LinuxTileData: {
#if defined(__linux__) && defined(__x86_64__)
    uint64_t permitted = 0;
    return syscall(kArchPrctl, kRequestPermission, kTileData) == 0 &&
           syscall(kArchPrctl, kGetPermission, &permitted) == 0 &&
           (permitted >> kTileData & 1);
#else
    return true;
#endif
  }
  }
  return false;
}

/// The host's XCR0, as readXcr0 reads it: 0 when the OS did not enable
/// XSAVE.
uint64_t hostXcr0() {
#if defined(__x86_64__) || defined(__i386__)
  if (!hostCpuidTest({1, 0, ECX, 27})) // OSXSAVE
    return 0;
  uint32_t low, high;
  __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return uint64_t(high) << 32 | low;
#else
  return 0;
#endif
}

/// Whether this machine passes the check's test of `f`.
bool hostPasses(const X86Feature &f) {
  return hostCpuidTest(f.flag) && (f.xcr0 & hostXcr0()) == f.xcr0 &&
         (!f.also || hostCpuidTest(*f.also)) && hostGrant(f.grant);
}

/// Whether this machine passes the check's test of `f` (AArch64 Linux).
bool hostPasses(const AArch64Feature &f) {
#if defined(__linux__) && defined(__aarch64__)
  return getauxval(f.auxType) >> f.bit & 1;
#else
  (void)f;
  return false;
#endif
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

} // namespace

std::vector<std::string>
quantc::requiredCpuFeatures(const llvm::MCSubtargetInfo &sti) {
  std::vector<std::string> names;
  const llvm::Triple &triple = sti.getTargetTriple();
  if (triple.isX86()) {
    for (const X86Feature &f : kX86Features)
      if (has(sti, f.name))
        names.push_back(f.name);
  } else if (triple.isAArch64() && triple.isOSLinux()) {
    for (const AArch64Feature &f : kAArch64Features)
      if (has(sti, f.name))
        names.push_back(f.name);
  }
  return names;
}

std::vector<llvm::StringRef>
quantc::checkedCpuFeatures(const llvm::Triple &triple) {
  std::vector<llvm::StringRef> names;
  if (triple.isX86())
    for (const X86Feature &f : kX86Features)
      names.push_back(f.name);
  else if (triple.isAArch64() && triple.isOSLinux())
    for (const AArch64Feature &f : kAArch64Features)
      names.push_back(f.name);
  return names;
}

std::vector<llvm::StringRef>
quantc::uncheckedCpuFeatures(const llvm::Triple &triple) {
  if (!triple.isX86())
    return {};
  return {std::begin(kX86Unchecked), std::end(kX86Unchecked)};
}

bool quantc::hostGrantsCpuFeatures(llvm::ArrayRef<llvm::StringRef> names) {
#if defined(__x86_64__) || defined(__i386__)
  for (const X86Feature &f : kX86Features)
    if (llvm::is_contained(names, f.name) &&
        ((f.also && !hostCpuidTest(*f.also)) || !hostGrant(f.grant)))
      return false;
#else
  (void)names;
#endif
  return true;
}

std::vector<std::string> quantc::hostCpuFeatures() {
  // Each test is false on another architecture.
  std::vector<std::string> names;
  for (const X86Feature &f : kX86Features)
    if (hostPasses(f))
      names.push_back(f.name);
  for (const AArch64Feature &f : kAArch64Features)
    if (hostPasses(f))
      names.push_back(f.name);
  return names;
}

void quantc::printHostCpuFeatures(llvm::raw_ostream &os) {
  for (const std::string &name : hostCpuFeatures())
    os << name << "\n";
}

/// i1 "the CPU has every feature in `names`".
static llvm::Value *checkFeatures(llvm::IRBuilder<> &b, llvm::Module &module,
                                  llvm::Function *fn,
                                  const llvm::Triple &triple,
                                  llvm::ArrayRef<std::string> names) {
  if (names.empty())
    return b.getTrue();
  if (triple.isX86()) {
    std::vector<const X86Feature *> required;
    for (const X86Feature &f : kX86Features)
      if (llvm::is_contained(names, f.name))
        required.push_back(&f);
    return checkX86(b, module, fn, triple, required);
  }
  std::vector<const AArch64Feature *> required;
  for (const AArch64Feature &f : kAArch64Features)
    if (llvm::is_contained(names, f.name))
      required.push_back(&f);
  return checkAArch64(b, module, required);
}

llvm::Error quantc::addDispatch(llvm::Module &module,
                                const llvm::Triple &triple,
                                llvm::StringRef entryPoint,
                                llvm::StringRef queryName,
                                llvm::StringRef overrideVariable,
                                llvm::ArrayRef<DispatchCandidate> candidates) {
  if (candidates.empty())
    return fail("no implementation of '" + entryPoint + "' to dispatch to");
  llvm::FunctionType *type = candidates.front().function->getFunctionType();
  for (const DispatchCandidate &c : candidates) {
    if (c.function->getFunctionType() != type)
      return fail("the implementations of '" + entryPoint +
                  "' differ in signature");
    c.function->setLinkage(llvm::GlobalValue::InternalLinkage);
    c.function->addFnAttr(llvm::Attribute::NoInline);
  }
  llvm::LLVMContext &ctx = module.getContext();
  llvm::IRBuilder<> b(ctx);
  auto *entry = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                       entryPoint, module);
  compileForBaseline(*entry, triple);

  // The cached choice: 0 not yet made, i + 1 candidate i, n + 1 none.
  llvm::Type *i32 = b.getInt32Ty();
  auto *state = new llvm::GlobalVariable(
      module, i32, /*isConstant=*/false, llvm::GlobalValue::InternalLinkage,
      b.getInt32(0), entryPoint + ".cpu_state");
  state->setAlignment(llvm::Align(4));

  // Each candidate's name, for the environment override and the query.
  auto *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::SmallVector<llvm::Constant *> names;
  for (const DispatchCandidate &c : candidates)
    names.push_back(b.CreateGlobalString(c.name, entryPoint + ".isa",
                                         /*AddressSpace=*/0, &module));

  // The choice: the first candidate whose features are present.
  auto *choose = llvm::Function::Create(llvm::FunctionType::get(i32, false),
                                        llvm::GlobalValue::InternalLinkage,
                                        entryPoint + ".select", module);
  compileForBaseline(*choose, triple);
  choose->addFnAttr(llvm::Attribute::NoInline);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", choose));
  // The environment may name a candidate (e.g. QUANTC_INT8_ISA=avx2, to
  // measure what a CPU without the better ones gets): taken if the CPU has
  // its features.
  if (!overrideVariable.empty()) {
    llvm::FunctionCallee getenv = module.getOrInsertFunction(
        "getenv", llvm::FunctionType::get(ptr, {ptr}, false));
    llvm::FunctionCallee strcmp = module.getOrInsertFunction(
        "strcmp", llvm::FunctionType::get(i32, {ptr, ptr}, false));
    llvm::Value *wanted = b.CreateCall(
        getenv, {b.CreateGlobalString(overrideVariable, entryPoint + ".env")});
    auto *named = llvm::BasicBlock::Create(ctx, "named", choose);
    auto *usual = llvm::BasicBlock::Create(ctx, "usual", choose);
    b.CreateCondBr(b.CreateIsNull(wanted), usual, named);
    b.SetInsertPoint(named);
    for (auto [i, c] : llvm::enumerate(candidates)) {
      llvm::Value *same = b.CreateICmpEQ(
          b.CreateCall(strcmp, {wanted, names[i]}), b.getInt32(0));
      auto *check = llvm::BasicBlock::Create(ctx, "named.check", choose);
      auto *next = llvm::BasicBlock::Create(ctx, "named.next", choose);
      b.CreateCondBr(same, check, next);
      b.SetInsertPoint(check);
      llvm::Value *ok = checkFeatures(b, module, choose, triple, c.cpuFeatures);
      auto *taken = llvm::BasicBlock::Create(ctx, "named.taken", choose);
      b.CreateCondBr(ok, taken, usual);
      b.SetInsertPoint(taken);
      b.CreateRet(b.getInt32(i + 1));
      b.SetInsertPoint(next);
    }
    b.CreateBr(usual);
    b.SetInsertPoint(usual);
  }
  for (auto [i, c] : llvm::enumerate(candidates)) {
    llvm::Value *ok = checkFeatures(b, module, choose, triple, c.cpuFeatures);
    auto *taken = llvm::BasicBlock::Create(ctx, "candidate", choose);
    auto *next = llvm::BasicBlock::Create(ctx, "next", choose);
    b.CreateCondBr(ok, taken, next);
    b.SetInsertPoint(taken);
    b.CreateRet(b.getInt32(i + 1));
    b.SetInsertPoint(next);
  }
  b.CreateRet(b.getInt32(candidates.size() + 1));

  // The choice, made once (racing first calls make the same choice).
  auto *chosen = llvm::Function::Create(llvm::FunctionType::get(i32, false),
                                        llvm::GlobalValue::InternalLinkage,
                                        entryPoint + ".choice", module);
  compileForBaseline(*chosen, triple);
  {
    auto *start = llvm::BasicBlock::Create(ctx, "entry", chosen);
    auto *compute = llvm::BasicBlock::Create(ctx, "select", chosen);
    auto *done = llvm::BasicBlock::Create(ctx, "done", chosen);
    b.SetInsertPoint(start);
    llvm::LoadInst *cached = b.CreateAlignedLoad(i32, state, llvm::Align(4));
    cached->setAtomic(llvm::AtomicOrdering::Monotonic);
    b.CreateCondBr(b.CreateICmpEQ(cached, b.getInt32(0)), compute, done);
    b.SetInsertPoint(compute);
    llvm::Value *computed = b.CreateCall(choose);
    b.CreateAlignedStore(computed, state, llvm::Align(4))
        ->setAtomic(llvm::AtomicOrdering::Monotonic);
    b.CreateBr(done);
    b.SetInsertPoint(done);
    llvm::PHINode *choice = b.CreatePHI(i32, 2);
    choice->addIncoming(cached, start);
    choice->addIncoming(computed, compute);
    b.CreateRet(choice);
  }

  // queryName(): the chosen candidate's name, or null.
  if (!queryName.empty()) {
    auto *query = llvm::Function::Create(llvm::FunctionType::get(ptr, false),
                                         llvm::GlobalValue::ExternalLinkage,
                                         queryName, module);
    compileForBaseline(*query, triple);
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", query));
    llvm::Value *choice = b.CreateCall(chosen);
    llvm::Value *name = llvm::ConstantPointerNull::get(ptr);
    for (auto [i, candidateName] : llvm::enumerate(names))
      name = b.CreateSelect(b.CreateICmpEQ(choice, b.getInt32(i + 1)),
                            candidateName, name);
    b.CreateRet(name);
  }

  // <entry>(args...): forward to the choice, or return 1.
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", entry));
  auto *refuse = llvm::BasicBlock::Create(ctx, "unsupported", entry);
  llvm::Value *choice = b.CreateCall(chosen);
  llvm::SwitchInst *dispatch =
      b.CreateSwitch(choice, refuse, static_cast<unsigned>(candidates.size()));
  llvm::SmallVector<llvm::Value *> args;
  for (llvm::Argument &arg : entry->args())
    args.push_back(&arg);
  for (auto [i, c] : llvm::enumerate(candidates)) {
    auto *call = llvm::BasicBlock::Create(ctx, "run", entry);
    dispatch->addCase(b.getInt32(i + 1), call);
    b.SetInsertPoint(call);
    b.CreateRet(b.CreateCall(c.function, args));
  }
  b.SetInsertPoint(refuse);
  b.CreateRet(b.getInt32(1));
  return llvm::Error::success();
}
