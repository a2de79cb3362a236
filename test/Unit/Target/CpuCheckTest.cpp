//===- CpuCheckTest.cpp - The CPU check covers every CPU LLVM knows -------===//
//
// An object pinned to a CPU (--cpu znver4) runs that CPU's instructions; its
// entry point returns 1 on a CPU without them only if the check tests each
// one. These tests walk LLVM's x86-64 CPUs and require every ISA feature
// each enables to be either checked (checkedCpuFeatures) or left out on
// purpose (uncheckedCpuFeatures, with its reasons in CpuCheck.cpp), so a
// CPU or feature a new LLVM adds fails here until the table knows it.
//
//===----------------------------------------------------------------------===//

#include "quantc/Target/Compile.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/TargetParser/X86TargetParser.h"

#include <gtest/gtest.h>

#include <set>

using namespace quantc;

namespace {

const char *const kTriple = "x86_64-unknown-linux-gnu";

/// The subtarget information of the x86 target (its CPU and feature tables).
const llvm::MCSubtargetInfo &x86Tables() {
  static CompileTarget target = [] {
    llvm::Expected<CompileTarget> made =
        createCompileTarget(kTriple, "x86-64", "");
    if (!made) {
      ADD_FAILURE() << llvm::toString(made.takeError());
      std::abort();
    }
    return std::move(*made);
  }();
  return *target.machine->getMCSubtargetInfo();
}

/// `features` with every feature they imply, as LLVM enables them.
llvm::FeatureBitset withImplied(const llvm::MCSubtargetInfo &sti,
                                llvm::FeatureBitset features) {
  for (bool grew = true; grew;) {
    grew = false;
    for (const llvm::SubtargetFeatureKV &kv : sti.getAllProcessorFeatures()) {
      if (!features.test(kv.Value))
        continue;
      llvm::FeatureBitset more = features | kv.Implies.getAsBitset();
      grew |= more != features;
      features = more;
    }
  }
  return features;
}

std::set<std::string> namesOf(const std::vector<llvm::StringRef> &list) {
  return {list.begin(), list.end()};
}

// LLVM keeps a CPU's instruction set extensions (ProcessorModel's features)
// apart from its tuning flags (TuneFeatures: which instructions to prefer,
// never new ones); the former are what a CPU without them cannot run.
TEST(CpuCheck, EveryFeatureOfEveryX86CpuIsCheckedOrLeftOut) {
  const llvm::MCSubtargetInfo &sti = x86Tables();
  llvm::Triple triple(kTriple);
  std::set<std::string> checked = namesOf(checkedCpuFeatures(triple));
  std::set<std::string> unchecked = namesOf(uncheckedCpuFeatures(triple));
  llvm::SmallVector<llvm::StringRef> cpus;
  llvm::X86::fillValidCPUArchList(cpus, /*Only64Bit=*/true);
  ASSERT_GT(cpus.size(), 50u);
  for (llvm::StringRef cpu : cpus) {
    const llvm::SubtargetSubTypeKV *description = nullptr;
    for (const llvm::SubtargetSubTypeKV &kv : sti.getAllProcessorDescriptions())
      if (cpu == kv.Key)
        description = &kv;
    if (!description) {
      ADD_FAILURE() << "LLVM's x86 code generator does not know CPU "
                    << cpu.str();
      continue;
    }
    llvm::FeatureBitset features =
        withImplied(sti, description->Implies.getAsBitset());
    for (const llvm::SubtargetFeatureKV &kv : sti.getAllProcessorFeatures()) {
      if (features.test(kv.Value)) {
        EXPECT_TRUE(checked.count(kv.Key) || unchecked.count(kv.Key))
            << "--cpu " << cpu.str() << " enables '" << kv.Key
            << "', which the CPU check neither tests nor lists as "
               "needing no test (lib/Target/CpuCheck.cpp)";
      }
    }
  }
}

TEST(CpuCheck, ListsNameLlvmFeaturesOnce) {
  const llvm::MCSubtargetInfo &sti = x86Tables();
  llvm::Triple triple(kTriple);
  std::set<std::string> known;
  for (const llvm::SubtargetFeatureKV &kv : sti.getAllProcessorFeatures())
    known.insert(kv.Key);
  std::vector<llvm::StringRef> checked = checkedCpuFeatures(triple);
  std::vector<llvm::StringRef> unchecked = uncheckedCpuFeatures(triple);
  EXPECT_EQ(namesOf(checked).size(), checked.size());
  EXPECT_EQ(namesOf(unchecked).size(), unchecked.size());
  for (llvm::StringRef name : checked) {
    EXPECT_TRUE(known.count(name.str())) << name.str();
    EXPECT_FALSE(llvm::is_contained(unchecked, name)) << name.str();
  }
  for (llvm::StringRef name : unchecked)
    EXPECT_TRUE(known.count(name.str())) << name.str();
}

/// requiredCpuFeatures of a pinned target.
std::vector<std::string> required(llvm::StringRef cpu,
                                  llvm::StringRef features = "") {
  llvm::Expected<CompileTarget> target =
      createCompileTarget(kTriple, cpu, features);
  if (!target) {
    ADD_FAILURE() << llvm::toString(target.takeError());
    return {};
  }
  return requiredCpuFeatures(*target->machine->getMCSubtargetInfo());
}

TEST(CpuCheck, PinnedCpusNeedTheirExtensions) {
  // Zen 4's SSE4a (insertq / extrq), which Intel CPUs lack.
  EXPECT_TRUE(llvm::is_contained(required("znver4"), "sse4a"));
  // AMX: the tile flag carries the palette test and Linux's permission.
  std::vector<std::string> spr = required("sapphirerapids");
  EXPECT_TRUE(llvm::is_contained(spr, "amx-tile"));
  EXPECT_TRUE(llvm::is_contained(spr, "amx-int8"));
  EXPECT_FALSE(llvm::is_contained(spr, "pku"));
  EXPECT_TRUE(llvm::is_contained(required("x86-64", "+amx-int8"), "amx-tile"));
  // The baseline needs no check: entry points and CPU checks are compiled
  // for it.
  EXPECT_TRUE(required("x86-64").empty());
}

/// The host's features come from the check's own tests (CPUID, XCR0), the
/// ones the lit suite's CPU features and --list-isas use: names of the
/// table, and for plain CPUID features the same answer as LLVM's CPUID
/// reading (never /proc/cpuinfo, which a VM's kernel may trim).
TEST(CpuCheck, HostFeaturesFollowCpuid) {
  llvm::Triple host(llvm::sys::getProcessTriple());
  std::vector<std::string> features = hostCpuFeatures();
  std::vector<llvm::StringRef> checked = checkedCpuFeatures(host);
  for (const std::string &name : features)
    EXPECT_TRUE(llvm::is_contained(checked, name)) << name;
  if (!host.isX86())
    return;
  llvm::StringMap<bool> llvmFeatures = llvm::sys::getHostCPUFeatures();
  for (const char *name :
       {"sse4.2", "sse4a", "popcnt", "lzcnt", "avx", "fma", "avx2", "avx512f",
        "avx512bw", "avx512vnni", "avxvnni", "avx512fp16"})
    EXPECT_EQ(llvm::is_contained(features, name), llvmFeatures.lookup(name))
        << name;
}

} // namespace
