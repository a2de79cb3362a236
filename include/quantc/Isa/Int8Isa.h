//===- Int8Isa.h - The int8 instruction sets kernels are generated for ----===//
//
// One table (lib/Isa/Int8Isa.cpp) describes every instruction set the int8
// kernels are generated for: its name, the LLVM features a CPU needs for it,
// the CPU and features its variant of a dispatching object is compiled for,
// the kernel family, register width and dot-product instruction the kernels
// use, and what it asks of quantization (7-bit weights or activations for
// the fast path where the dot instruction saturates). The kernel emitter,
// the target selection, run-time dispatch, qnt-insert-observers and the test
// configuration all read it. An instruction set is one entry here; a new
// kind of kernel is one family file in lib/Conversion/LowerQuantized/Isa/
// (docs/adding-an-isa.md).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_ISA_INT8ISA_H
#define QUANTC_ISA_INT8ISA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace quantc {

/// The int8 instruction sets, in the table's order (the order of
/// preference within an architecture: the first one a CPU has wins).
enum class Int8Isa {
  AMXINT8,
  AVX512VNNI,
  AVXVNNI,
  AVX2,
  NeonI8MM,
  NeonDot,
  Generic,
};

/// The architecture an instruction set belongs to.
enum class IsaArch { X86, AArch64, Any };

/// The family of kernels an instruction set uses: their register blocks,
/// weight packing and dot step. One implementation file per family in
/// lib/Conversion/LowerQuantized/Isa/ (KernelFamily.h); no other part of
/// the emitter asks which instruction set it targets.
enum class Int8Kernel {
  /// 16 int32 lanes per zmm register, four u8 x s8 products per lane and
  /// step (vpdpbusd zmm): Isa/ZmmDot.cpp.
  ZmmDot,
  /// 8 int32 lanes, four products per lane and step: vpdpbusd ymm or sdot
  /// on two 128-bit registers (the row's `dot`): Isa/Dot8.cpp.
  Dot8,
  /// 8 int32 lanes from 16-bit pair sums (vpmaddubsw + vpmaddwd where
  /// they cannot saturate, else vpmaddwd on inputs widened to 16 bits):
  /// Isa/Widening16.cpp.
  Widening16,
  /// AArch64 matrix multiply: 2x2 int32 tiles, eight products per lane and
  /// step (smmla): Isa/Matrix.cpp.
  Matrix,
  /// Inputs widened to int32, multiplied and added: portable vectors,
  /// exact for any input: Isa/Exact.cpp.
  Exact,
  /// AMX-INT8: tdpbusd on tiles of 16 rows x 64 bytes for the dense
  /// convolutions, linear layers and matmuls where tiles pay, the zmm
  /// kernels elsewhere: Isa/Tile.cpp.
  Tile,
  // Room for: Scalable (SVE2 sdot / SME smopa, scalableVectors rows).
};

/// How the kernels multiply and add four int8 products into an int32 lane.
enum class Int8Dot {
  /// Widen to 16 / 32 bits, multiply and add: exact for any input.
  Exact32,
  /// vpmaddubsw (u8 x s8, pairs summed into a saturating int16) +
  /// vpmaddwd; exact only where no pair sum can leave int16.
  Vpmaddubsw,
  /// vpdpbusd (u8 x s8 into int32): AVX-512 VNNI or AVX-VNNI.
  Vpdpbusd,
  /// sdot (s8 x s8 into int32).
  Sdot,
  /// smmla (2x8 by 8x2 s8 blocks into int32).
  Smmla,
  /// tdpbusd (a 16 x 64 u8 tile by a 16 x 64 s8 tile of 4-byte groups into
  /// a 16 x 16 int32 tile; AMX-INT8), vpdpbusd zmm where tiles do not pay.
  Tdpbusd,
};

struct Int8IsaInfo {
  Int8Isa isa;
  /// The spelling of --int8-isas, qnt-lower-quantized{isa=...} and
  /// qnt-insert-observers{target=...}.
  llvm::StringLiteral name;
  /// What the kernels use, for help texts and the header.
  llvm::StringLiteral summary;
  IsaArch arch;
  /// LLVM target features (all of them) a CPU needs for these kernels: a
  /// target gets the first entry of its architecture it has all of.
  llvm::StringLiteral features;
  /// The CPU and features this instruction set's variant of a dispatching
  /// object is compiled for (empty CPU: the architecture's baseline).
  llvm::StringLiteral variantCpu;
  llvm::StringLiteral variantFeatures;
  /// The kernel family (lib/Conversion/LowerQuantized/Isa/).
  Int8Kernel kernel;
  /// The widest vector register the kernels use, in bits; with
  /// `scalableVectors`, the minimum: the CPU's registers are a multiple of
  /// it, known only at run time (SVE).
  unsigned vectorBits;
  bool scalableVectors;
  /// The dot-product instruction (a family of several reads it).
  Int8Dot dot;
  /// The dot instruction multiplies s8 x s8 (u8 inputs are shifted by
  /// -128 first) rather than u8 x s8.
  bool signedInputs;
  /// Input channels per dot step (4, 8 for smmla): weights and padded
  /// inputs are rounded up to it.
  unsigned depthGroup;
  /// The dot instruction adds pairs of u8 x s8 products into a saturating
  /// int16 (vpmaddubsw): exact when one side has 7 bits; elsewhere the
  /// kernels widen the input to 16 bits and use vpmaddwd (exact, slower).
  /// An object of these kernels alone is folded with 7-bit weights (s8 in
  /// [-64, 63]) by default, as ONNX Runtime's reduce_range and oneDNN do
  /// without VNNI; observers inserted for this target reduce the
  /// activations (u8 in [0, 127]), as PyTorch's x86 / fbgemm qconfig does.
  bool saturatingPairs;
  /// PyTorch-style deployment name accepted as an alias by
  /// qnt-insert-observers{target=...} (empty: none).
  llvm::StringLiteral observerAlias;
  /// The architectures whose default object carries this variant (a bit
  /// per IsaArch): the portable kernels only where CPUs without any of the
  /// extensions are common (AArch64); on x86 every CPU since 2013 has AVX2
  /// and a portable variant would add a third to the object.
  unsigned defaultFor;
  bool inDefaultDispatch(IsaArch arch) const {
    return defaultFor & (1u << static_cast<unsigned>(arch));
  }
};

/// Bits of Int8IsaInfo::defaultFor.
constexpr unsigned kDefaultX86 = 1u << static_cast<unsigned>(IsaArch::X86);
constexpr unsigned kDefaultAArch64 = 1u
                                     << static_cast<unsigned>(IsaArch::AArch64);

/// Every instruction set, in preference order.
llvm::ArrayRef<Int8IsaInfo> int8Isas();

/// The entry of `isa`.
const Int8IsaInfo &getInfo(Int8Isa isa);

/// The spelling of `isa` (its entry's name).
llvm::StringRef toString(Int8Isa isa);

/// The entry named `name` (or, with `aliases`, whose observerAlias is
/// `name`); null if none.
const Int8IsaInfo *lookupInt8Isa(llvm::StringRef name, bool aliases = false);

/// "avx512-vnni, avx-vnni, ..." (with `aliases`, also the aliases), for
/// help texts and errors.
std::string int8IsaNames(bool aliases = false);

/// True for the instruction sets of `arch` (and the portable one).
bool belongsTo(const Int8IsaInfo &info, IsaArch arch);

} // namespace quantc

#endif // QUANTC_ISA_INT8ISA_H
