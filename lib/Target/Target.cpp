//===- Target.cpp - LLVM target machines and the int8 kernels they get ----===//
//
// Resolves triple / CPU / features to a TargetMachine. LLVM only warns about
// an unknown CPU or feature (and then ignores it), so both are checked
// against the target's tables first and reported as errors.
//
//===----------------------------------------------------------------------===//

#include "quantc/Target/Compile.h"

#include "quantc/Support/Fail.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace quantc;

CompileTarget::CompileTarget() = default;
CompileTarget::CompileTarget(CompileTarget &&) = default;
CompileTarget &CompileTarget::operator=(CompileTarget &&) = default;
CompileTarget::~CompileTarget() = default;

std::string quantc::defaultCpu(llvm::StringRef triple) {
  if (llvm::Triple(triple).getArch() == llvm::Triple::x86_64)
    return "x86-64-v3";
  return "generic";
}

bool quantc::hostHasInt8Isa(const Int8IsaInfo &info) {
  llvm::Triple host(llvm::sys::getDefaultTargetTriple());
  if (!belongsTo(info, isaArch(host)))
    return false;
  // The objects' own CPU check (CPUID, XCR0, AMX's palette and Linux's
  // permission), so that the first row marked here is the one a
  // dispatching object picks.
  std::vector<std::string> hostFeatures = hostCpuFeatures();
  llvm::SmallVector<llvm::StringRef> names;
  llvm::SplitString(info.features, names, ",");
  return llvm::all_of(names, [&](llvm::StringRef name) {
    return llvm::is_contained(hostFeatures, name.drop_front());
  });
}

void quantc::printInt8Isas(llvm::raw_ostream &os) {
  static const char *const archNames[] = {"x86", "aarch64", "any"};
  for (const Int8IsaInfo &info : int8Isas()) {
    os << (hostHasInt8Isa(info) ? "* " : "  ") << info.name << " "
       << archNames[static_cast<int>(info.arch)] << " "
       << (info.features.empty() ? "-" : info.features) << ": " << info.summary;
    if (info.saturatingPairs)
      os << "; 7-bit weights when it is the object's only variant";
    for (IsaArch arch : {IsaArch::X86, IsaArch::AArch64})
      if (info.inDefaultDispatch(arch))
        os << "; default on " << archNames[static_cast<int>(arch)];
    os << "\n";
  }
}

IsaArch quantc::isaArch(const llvm::Triple &triple) {
  if (triple.isX86())
    return IsaArch::X86;
  if (triple.isAArch64())
    return IsaArch::AArch64;
  return IsaArch::Any;
}

Int8Isa quantc::selectInt8Isa(const llvm::MCSubtargetInfo &sti) {
  IsaArch arch = isaArch(sti.getTargetTriple());
  for (const Int8IsaInfo &info : int8Isas())
    if (belongsTo(info, arch) &&
        (info.features.empty() || sti.checkFeatures(info.features)))
      return info.isa;
  return Int8Isa::Generic;
}

static void initializeTargets() {
  static bool done = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
    return true;
  }();
  (void)done;
}

void CompileTarget::dropInt8OnlyVariants() {
  std::vector<TargetVariant> kept;
  for (size_t i = 0; i < variants.size(); ++i) {
    bool later = std::any_of(
        variants.begin() + i + 1, variants.end(),
        [&](const TargetVariant &v) { return v.cpu == variants[i].cpu; });
    if (!later)
      kept.push_back(std::move(variants[i]));
  }
  variants = std::move(kept);
}

llvm::StringRef quantc::baselineCpu(const llvm::Triple &triple) {
  return triple.isX86() ? "x86-64" : "generic";
}

void quantc::compileForBaseline(llvm::Function &fn,
                                const llvm::Triple &triple) {
  fn.addFnAttr("target-cpu", baselineCpu(triple));
  fn.addFnAttr("target-features", "");
}

/// The features of an amx-int8 variant through the portable twin: its own
/// without those of AMX, and AMX disabled (a pinned CPU may imply it), so
/// that neither code generation nor the run-time check asks for the tiles.
static std::string withoutTiles(llvm::StringRef features) {
  llvm::SmallVector<llvm::StringRef> names;
  llvm::SplitString(features, names, ",");
  std::string result;
  for (llvm::StringRef name : names)
    if (!name.trim().starts_with("+amx-"))
      result += name.trim().str() + ",";
  return result + "-amx-tile";
}

llvm::Expected<CompileTarget> quantc::createCompileTarget(
    llvm::StringRef tripleName, llvm::StringRef cpu, llvm::StringRef features,
    llvm::ArrayRef<std::string> isas, bool amxPortableTwin) {
  initializeTargets();
  CompileTarget result;
  result.triple = llvm::Triple::normalize(
      tripleName.empty() ? llvm::sys::getDefaultTargetTriple() : tripleName);
  llvm::Triple triple(result.triple);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target || triple.getArch() == llvm::Triple::UnknownArch)
    return fail("unknown target triple '" + tripleName + "'" +
                (error.empty() ? "" : ": " + error));
  result.cpu = cpu.empty() ? defaultCpu(result.triple) : cpu.str();
  std::string hostFeatures;
  if (cpu == "native") {
    // This machine: its CPU and the features it reports (the user's
    // features apply after them).
    if (!tripleName.empty() &&
        llvm::Triple(result.triple) !=
            llvm::Triple(llvm::sys::getDefaultTargetTriple()))
      return fail("--cpu=native compiles for this machine; it cannot be "
                  "combined with the target '" +
                  tripleName + "'");
    result.cpu = llvm::sys::getHostCPUName().str();
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      hostFeatures +=
          (feature.second ? "+" : "-") + feature.first().str() + ",";
  }
  result.features = hostFeatures + features.str();

  std::unique_ptr<llvm::MCSubtargetInfo> probe(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!probe)
    return fail("no subtarget information for '" + result.triple + "'");
  if (!probe->isCPUStringValid(result.cpu))
    return fail("unknown CPU '" + result.cpu + "' for target '" +
                result.triple + "'");
  llvm::SmallVector<llvm::StringRef> names;
  llvm::SplitString(features, names, ",");
  for (llvm::StringRef feature : names) {
    llvm::StringRef bare = feature.trim();
    if (!bare.consume_front("+") && !bare.consume_front("-"))
      return fail("feature '" + feature +
                  "' must start with '+' (enable) or '-' (disable)");
    bool known = llvm::any_of(
        probe->getAllProcessorFeatures(),
        [&](const llvm::SubtargetFeatureKV &kv) { return bare == kv.Key; });
    if (!known)
      return fail("unknown feature '" + bare + "' for target '" +
                  result.triple + "'");
  }

  llvm::TargetOptions options;
  result.machine.reset(target->createTargetMachine(
      triple, result.cpu, result.features, options, llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!result.machine)
    return fail("cannot create a target machine for '" + result.triple + "'");

  auto variantOf = [&](Int8Isa isa, std::string variantCpu,
                       std::string variantFeatures) -> TargetVariant {
    bool twin = amxPortableTwin && isa == Int8Isa::AMXINT8;
    if (twin)
      variantFeatures = withoutTiles(variantFeatures);
    std::unique_ptr<llvm::MCSubtargetInfo> sti(
        target->createMCSubtargetInfo(triple, variantCpu, variantFeatures));
    return {isa, std::move(variantCpu), std::move(variantFeatures),
            requiredCpuFeatures(*sti), twin};
  };
  IsaArch arch = isaArch(triple);
  bool pinned = !cpu.empty() || !features.empty();
  if (pinned && !isas.empty())
    return fail("--int8-isas chooses the variants of an object that selects "
                "its int8 kernels at run time; --cpu and --mattr pin one "
                "target instead");
  if (pinned || arch == IsaArch::Any) {
    // One variant: the target's own CPU and features.
    result.variants.push_back(
        variantOf(selectInt8Isa(*result.machine->getMCSubtargetInfo()),
                  result.cpu, result.features));
    return result;
  }
  // Run-time dispatch: a variant per instruction set of the architecture
  // (or those asked for), in the table's order of preference.
  for (const std::string &name : isas) {
    const Int8IsaInfo *info = lookupInt8Isa(name);
    if (!info)
      return fail("unknown int8 instruction set '" + name + "' (" +
                  int8IsaNames() + ")");
    if (!belongsTo(*info, arch))
      return fail("int8 instruction set '" + name + "' is not for '" +
                  result.triple + "'");
  }
  for (const Int8IsaInfo &info : int8Isas()) {
    if (!belongsTo(info, arch) ||
        (isas.empty() ? !info.inDefaultDispatch(arch)
                      : !llvm::is_contained(isas, info.name)))
      continue;
    result.variants.push_back(variantOf(info.isa,
                                        info.variantCpu.empty()
                                            ? baselineCpu(triple).str()
                                            : info.variantCpu.str(),
                                        info.variantFeatures.str()));
  }
  return result;
}
