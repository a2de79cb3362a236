//===- Target.cpp - LLVM target machines and the int8 kernels they get ----===//
//
// Resolves triple / CPU / features to a TargetMachine. LLVM only warns about
// an unknown CPU or feature (and then ignores it), so both are checked
// against the target's tables first and reported as errors.
//
//===----------------------------------------------------------------------===//

#include "quantc/Target/Compile.h"

#include "llvm/ADT/StringExtras.h"
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

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string quantc::defaultCpu(llvm::StringRef triple) {
  if (llvm::Triple(triple).getArch() == llvm::Triple::x86_64)
    return "x86-64-v3";
  return "generic";
}

Int8Isa quantc::selectInt8Isa(const llvm::TargetMachine &machine) {
  const llvm::MCSubtargetInfo *sti = machine.getMCSubtargetInfo();
  const llvm::Triple &triple = machine.getTargetTriple();
  if (triple.isX86()) {
    // The 256-bit vpdpbusd: EVEX (AVX-512 VNNI + VL) or VEX (AVX-VNNI).
    if (sti->checkFeatures("+avx512vnni,+avx512vl") ||
        sti->checkFeatures("+avxvnni"))
      return Int8Isa::AVX512VNNI;
    if (sti->checkFeatures("+avx2"))
      return Int8Isa::AVX2;
    return Int8Isa::Generic;
  }
  if (triple.isAArch64()) {
    if (sti->checkFeatures("+i8mm"))
      return Int8Isa::NeonI8MM;
    if (sti->checkFeatures("+dotprod"))
      return Int8Isa::NeonDot;
  }
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

llvm::Expected<CompileTarget>
quantc::createCompileTarget(llvm::StringRef tripleName, llvm::StringRef cpu,
                            llvm::StringRef features) {
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
  result.isa = selectInt8Isa(*result.machine);
  return result;
}
