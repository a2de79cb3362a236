//===- KernelFamily.h - What differs between int8 kernel families -*- C++
//-*-===//
//
// Internal to lib/Conversion/LowerQuantized. Each row of the instruction-set
// table (quantc/Isa/Int8Isa.h) names the family of kernels it uses
// (Int8IsaInfo::kernel); a family is one implementation of KernelFamily in
// one file of this folder:
//
//   ZmmDot.cpp      avx512-vnni: vpdpbusd on zmm registers (its kernels:
//                   ../ConvZmm.cpp, ../ConvDepthwiseZmm.cpp)
//   Dot8.cpp        avx-vnni, neon-dot: 8 int32 lanes of 4-product dot
//                   steps (vpdpbusd ymm, sdot; x86 kernel ../ConvYmm.cpp)
//   Widening16.cpp  avx2: vpmaddubsw + vpmaddwd, or vpmaddwd on inputs
//                   widened to 16 bits (kernel ../ConvYmm.cpp)
//   Matrix.cpp      neon-i8mm: smmla
//   Exact.cpp       generic: exact 32-bit vector arithmetic
//   Tile.cpp        amx-int8: tdpbusd on 16x64-byte tiles where they pay
//                   (kernel ../ConvTile.cpp), the zmm family elsewhere
//   ByteLookup.cpp  the byte-shuffle table lookups a family picks (x86
//                   vpshufb, AArch64 tbl4)
//
// What a family decides: which conv kernel runs and how the remark names
// it, the packed weight layout and register block of the 8-lane kernels,
// the dot step, what it proves about the operands (avx2's pair sums), the
// matmul register block, the rounding instruction of the requantization and
// qnt.lookup's byte shuffle. The shared kernels (ConvEmitter, Matmul.cpp,
// the lookup lowering) ask the family and test no instruction set
// themselves. docs/adding-an-isa.md lists the steps of a new family.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_LIB_CONVERSION_LOWERQUANTIZED_ISA_KERNELFAMILY_H
#define QUANTC_LIB_CONVERSION_LOWERQUANTIZED_ISA_KERNELFAMILY_H

#include "quantc/Isa/Int8Isa.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <string>

namespace mlir::qnt::conv {

class ConvEmitter;
struct ConvProblem;
struct MatmulShape;

/// How the 8-lane kernels (ConvVector8.cpp) and the matmul kernel
/// (Matmul.cpp) hold a tile of 8 output channels of packed weights.
enum class WeightLayout {
  /// [8 channels][4 inputs] bytes: one 32-byte dot4 operand.
  DotQuads,
  /// [4 inputs][8 channels] bytes, each row widened to int32.
  Columns,
  /// int16 [2 input pairs][8 channels][2]: vpmaddwd operands.
  Pairs16,
  /// [4 channel pairs][2 channels][8 inputs] bytes: smmla operands.
  MatrixPairs,
};

/// The register block of the matmul kernel: `rows` rows x `vectors`
/// vectors of `lanes` columns.
struct MatmulBlock {
  int64_t lanes, vectors, rows;
};

/// One family of int8 kernels. Stateless: one constant object per family
/// (and per instruction of a family that has several).
class KernelFamily {
public:
  virtual ~KernelFamily() = default;

  /// The family of `info` (its row's `kernel`).
  static const KernelFamily &of(const quantc::Int8IsaInfo &info);

  //===--------------------------------------------------------------------===//
  // Quantization: what the family proves about the operands
  //===--------------------------------------------------------------------===//

  /// conv2d / linear with the quantization of `p` filled in; `xmax` is the
  /// largest input in the kernel's domain.
  virtual void analyzeConv(ConvProblem &p, int64_t xmax) const {}
  /// matmul: the lhs at most `xmax`, the rhs in [bmin, bmax] (kernel
  /// domains, bmin <= 0 <= bmax).
  virtual void analyzeMatmul(ConvProblem &p, int64_t xmax, int64_t bmin,
                             int64_t bmax) const {}

  //===--------------------------------------------------------------------===//
  // Convolution
  //===--------------------------------------------------------------------===//

  /// Emits conv2d / linear (input memref [N, H, W, C] of i8) and returns the
  /// output buffer [N, OH, OW, O]. By default the 8-lane kernels
  /// (ConvVector8.cpp); x86's 8-lane families read the zmm kernel's weights
  /// (ConvYmm.cpp).
  virtual Value emitConv(ConvEmitter &e, Value input, Value residual) const;
  /// The remark's name of the kernel emitConv picks. By default the 8-lane
  /// depthwise kernel's, or "<isa>: " + densePath(p).
  virtual std::string convPath(const ConvEmitter &e) const;
  /// The 8-lane dense kernel's dot step, for the remark ("sdot").
  virtual std::string densePath(const ConvProblem &p) const { return ""; }

  //===--------------------------------------------------------------------===//
  // The 8-lane kernels and the matmul kernel
  //===--------------------------------------------------------------------===//

  /// The packed weights' layout (and so the kernels' inner loop).
  virtual WeightLayout weightLayout(const ConvProblem &p) const = 0;
  /// 8-channel blocks whose accumulators share each input broadcast.
  virtual int64_t blocksPerRegisterBlock() const { return 1; }
  /// `acc` (vector<L x i32>) plus, per lane i, the four products of bytes
  /// 4i .. 4i + 3 of `x` and `w` (vector<4L x i8>): the DotQuads step.
  virtual Value dot4(ConvEmitter &e, Value acc, Value x, Value w) const;
  /// `acc` (vector<L x i32>) plus, per lane, the two products of the
  /// 16-bit pair `pair` (vector<2 x i16>, broadcast) and the lane's pair
  /// in `w` (vector<2L x i16>): the Pairs16 step.
  virtual Value dotPair(ConvEmitter &e, Value acc, Value pair, Value w) const;
  /// Per int32 lane, the sum of the two products of 16-bit pairs of `x`
  /// and `w` (vector<2L x i16>): the 16-bit widening step.
  virtual Value madd16(ConvEmitter &e, Value x, Value w) const;
  /// One register block of the 8-lane conv kernel (ConvEmitter::emitPixels'
  /// arguments); by default emitPixels.
  virtual void emitPixelBlock(ConvEmitter &e, Value xp, Value packed,
                              Value comp, Value mult, Value out, Value residual,
                              Value n, Value oy, Value ox0, int64_t pixels,
                              Value g, Value block, int64_t valid,
                              int64_t nb) const;
  /// The matmul kernel's register block.
  virtual MatmulBlock matmulBlock(const ConvProblem &p) const {
    return {8, 2, 4};
  }
  /// The matmul kernel's dot step, for the remark ("sdot").
  virtual std::string matmulPath(const ConvProblem &p) const = 0;
  /// Whether qnt.matmul runs on AMX tiles (Matmul.cpp's tile kernel: its
  /// operands packed to whole 64-byte tile rows) rather than the register
  /// blocks.
  virtual bool matmulTiles(const MatmulShape &s) const { return false; }

  //===--------------------------------------------------------------------===//
  // Requantization and table lookups
  //===--------------------------------------------------------------------===//

  /// Round half to even and convert to int32 in one instruction, or null
  /// (the emitter rounds and converts with arith / math ops).
  virtual Value roundToInt(ConvEmitter &e, Value v) const { return {}; }
  /// Lanes per vector of qnt.lookup's byte-shuffle path (0: none, the
  /// gather path).
  virtual int64_t lookupLanes() const { return 0; }
  /// The 256-entry table `bytes` at the storage values `q`
  /// (vector<lookupLanes() x i8>; an s8 input, `isSigned`, indexes
  /// q - (-128)).
  virtual Value lookup(OpBuilder &b, Location loc, Value q, bool isSigned,
                       ArrayRef<int8_t> bytes) const;
};

/// The families' objects (one per family file).
const KernelFamily &zmmDotFamily();
/// The 8-lane dot family of `dot` (Vpdpbusd or Sdot).
const KernelFamily &dot8Family(quantc::Int8Dot dot);
const KernelFamily &widening16Family();
const KernelFamily &matrixFamily();
const KernelFamily &exactFamily();
const KernelFamily &tileFamily();

/// A call of the LLVM intrinsic `name` as qnt.pure_intrinsic: LLVM's
/// call_intrinsic has unknown memory effects, which buffer deallocation
/// refuses; the kernels' intrinsics have none.
Value intrinsic(OpBuilder &b, Location loc, Type result, StringRef name,
                ValueRange args);

/// Byte-shuffle lookups (ByteLookup.cpp), for KernelFamily::lookup: x86
/// vpshufb on 32 lanes, AArch64 tbl4 on 16.
constexpr int64_t kPshufbLanes = 32, kTbl4Lanes = 16;
Value pshufbLookup(OpBuilder &b, Location loc, Value q, bool isSigned,
                   ArrayRef<int8_t> bytes);
Value tbl4Lookup(OpBuilder &b, Location loc, Value q, bool isSigned,
                 ArrayRef<int8_t> bytes);

} // namespace mlir::qnt::conv

#endif // QUANTC_LIB_CONVERSION_LOWERQUANTIZED_ISA_KERNELFAMILY_H
