//===- Int8Isa.cpp - The table of int8 instruction sets -------------------===//

#include "quantc/Isa/Int8Isa.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace quantc;

namespace {

// Preference order within an architecture: the first entry whose features
// a target has is the one it gets; a dispatching object tries them in this
// order at run time.
constexpr Int8IsaInfo kInt8Isas[] = {
    {Int8Isa::AMXINT8, "amx-int8",
     "AMX-INT8: tdpbusd on 16x64-byte tiles, vpdpbusd zmm where tiles do not "
     "pay",
     IsaArch::X86, "+amx-int8,+amx-tile,+avx512vnni,+avx512bw,+avx512vl",
     "x86-64-v4", "+avx512vnni,+amx-tile,+amx-int8", Int8Kernel::Tile, 512,
     false, Int8Dot::Tdpbusd, false, 4, false, "", kDefaultX86},
    {Int8Isa::AVX512VNNI, "avx512-vnni",
     "AVX-512 VNNI: vpdpbusd on zmm registers", IsaArch::X86,
     "+avx512vnni,+avx512bw,+avx512vl", "x86-64-v4", "+avx512vnni",
     Int8Kernel::ZmmDot, 512, /*scalableVectors=*/false, Int8Dot::Vpdpbusd,
     /*signedInputs=*/false, /*depthGroup=*/4,
     /*saturatingPairs=*/false, "x86-vnni", kDefaultX86},
    {Int8Isa::AVXVNNI, "avx-vnni", "AVX-VNNI: vpdpbusd on ymm registers",
     IsaArch::X86, "+avxvnni,+avx2", "x86-64-v3", "+avxvnni", Int8Kernel::Dot8,
     256, false, Int8Dot::Vpdpbusd, false, 4, false, "", kDefaultX86},
    {Int8Isa::AVX2, "avx2",
     "AVX2: vpmaddubsw + vpmaddwd where 16-bit pair sums cannot saturate, "
     "else vpmaddwd on inputs widened to 16 bits",
     IsaArch::X86, "+avx2", "x86-64-v3", "", Int8Kernel::Widening16, 256, false,
     Int8Dot::Vpmaddubsw, false, 4,
     /*saturatingPairs=*/true, "x86", kDefaultX86},
    {Int8Isa::NeonI8MM, "neon-i8mm", "NEON int8 matrix multiply: smmla",
     IsaArch::AArch64, "+i8mm,+dotprod", "", "+dotprod,+i8mm",
     Int8Kernel::Matrix, 128, false, Int8Dot::Smmla, /*signedInputs=*/true,
     /*depthGroup=*/8, false, "", kDefaultAArch64},
    {Int8Isa::NeonDot, "neon-dot", "NEON dot product: sdot", IsaArch::AArch64,
     "+dotprod", "", "+dotprod", Int8Kernel::Dot8, 128, false, Int8Dot::Sdot,
     true, 4, false, "aarch64", kDefaultAArch64},
    {Int8Isa::Generic, "generic",
     "portable vectors (no target intrinsics), exact 32-bit arithmetic",
     IsaArch::Any, "", "", "", Int8Kernel::Exact, 256, false, Int8Dot::Exact32,
     false, 4, false, "generic", kDefaultAArch64},
};

} // namespace

llvm::ArrayRef<Int8IsaInfo> quantc::int8Isas() { return kInt8Isas; }

const Int8IsaInfo &quantc::getInfo(Int8Isa isa) {
  for (const Int8IsaInfo &info : kInt8Isas)
    if (info.isa == isa)
      return info;
  llvm_unreachable("Int8Isa missing from the table");
}

llvm::StringRef quantc::toString(Int8Isa isa) { return getInfo(isa).name; }

const Int8IsaInfo *quantc::lookupInt8Isa(llvm::StringRef name, bool aliases) {
  for (const Int8IsaInfo &info : kInt8Isas)
    if (info.name == name ||
        (aliases && !info.observerAlias.empty() && info.observerAlias == name))
      return &info;
  return nullptr;
}

std::string quantc::int8IsaNames(bool aliases) {
  std::string names;
  for (const Int8IsaInfo &info : kInt8Isas) {
    names += (names.empty() ? "" : ", ") + info.name.str();
    if (aliases && !info.observerAlias.empty() &&
        info.observerAlias != info.name)
      names += " (or " + info.observerAlias.str() + ")";
  }
  return names;
}

bool quantc::belongsTo(const Int8IsaInfo &info, IsaArch arch) {
  return info.arch == arch || info.arch == IsaArch::Any;
}
