//===- ZmmDot.cpp - AVX-512 VNNI kernels on zmm registers -----------------===//
//
// avx512-vnni: 16 int32 lanes per zmm register, vpdpbusd (four u8 x s8
// products per lane) on register blocks of up to 6 pixels x 64 channels
// (ConvEmitter::emitZmm, ../ConvZmm.cpp) and the depthwise kernels of
// ../ConvDepthwiseZmm.cpp; the matmul's register block is 6 rows x 64
// columns; the requantization rounds and converts with vcvtps2dq {rn-sae};
// qnt.lookup by vpshufb. See ../Conv.cpp's header for the kernels.
//
//===----------------------------------------------------------------------===//

#include "KernelFamily.h"

#include "../ConvEmitter.h"

using namespace mlir;
using namespace mlir::qnt::conv;

namespace {

class ZmmDotFamily final : public KernelFamily {
public:
  Value emitConv(ConvEmitter &e, Value input, Value residual) const override {
    return e.isDepthwise() ? e.emitDepthwiseZmm(input, residual)
                           : e.emitZmm(input, residual);
  }
  std::string convPath(const ConvEmitter &e) const override;
  WeightLayout weightLayout(const ConvProblem &) const override {
    return WeightLayout::DotQuads;
  }
  Value dot4(ConvEmitter &e, Value acc, Value x, Value w) const override {
    return intrinsic(e.b, e.loc, acc.getType(), "llvm.x86.avx512.vpdpbusd.512",
                     {acc, x, w});
  }
  MatmulBlock matmulBlock(const ConvProblem &) const override {
    return {kZLanes, 4, 6};
  }
  std::string matmulPath(const ConvProblem &) const override {
    return "vpdpbusd zmm";
  }
  Value roundToInt(ConvEmitter &e, Value v) const override;
  int64_t lookupLanes() const override { return kPshufbLanes; }
  Value lookup(OpBuilder &b, Location loc, Value q, bool isSigned,
               ArrayRef<int8_t> bytes) const override {
    return pshufbLookup(b, loc, q, isSigned, bytes);
  }
};

} // namespace

std::string ZmmDotFamily::convPath(const ConvEmitter &e) const {
  const ConvProblem &p = e.p;
  // How whole 64-channel blocks are requantized (storePacked64).
  std::string packs = p.noOverflow
                          ? "stored by saturating packs"
                          : "stored by saturating packs after a float clamp";
  if (e.isDepthwise()) {
    SmallVector<int64_t> starts;
    int64_t pixels = e.depthwiseLanes(starts);
    std::string kernel = "by vpdpbusd (4 kernel rows per dword), a window "
                         "sliding along the row, ";
    if (pixels == 1)
      return "depthwise: 64-channel blocks " + kernel + packs +
             (p.c % 64 > 16 ? "; the last block overlaps the one before"
              : p.c % 64 == 16 && p.sw == 1
                  ? "; the last 16 channels copied out, 4 pixels per vector"
              : p.c % 64 == 16 ? "; 16-channel blocks by vpdpwssd"
                               : "");
    if (pixels > 1)
      return "depthwise: " + std::to_string(pixels) + " pixels x " +
             std::to_string(p.c) + " channels per 64 lanes " + kernel + packs;
    return "depthwise: 16 channels per zmm, vpdpwssd";
  }
  int64_t vectors = (p.og + kZLanes - 1) / kZLanes;
  int64_t nv = std::min<int64_t>(vectors, 4);
  bool copy = p.pt || p.pb || p.pl || p.pr || p.cg != p.cg4;
  // Whole 64-channel blocks (not counting a 4-vector block with a tail).
  bool blocks64 = vectors >= 4 && !(vectors == 4 && p.og % kZLanes);
  return p.info().name.str() + ": vpdpbusd zmm, " +
         std::to_string(zmmPixels(nv)) + " pixels x " +
         std::to_string(nv * kZLanes) + " channels" +
         (copy ? ", padded input copy" : ", input read in place") +
         (blocks64 ? ", 64-channel blocks " + packs
          : p.groups == 1 && vectors < 4 && p.og % kZLanes == 0
              ? ", pixel runs " + packs
              : "");
}

Value ZmmDotFamily::roundToInt(ConvEmitter &e, Value v) const {
  int64_t lanes = cast<VectorType>(v.getType()).getNumElements();
  if (lanes != kZLanes)
    return {};
  // vcvtps2dq {rn-sae}: round half to even and convert in one instruction.
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto vi32 = VectorType::get({lanes}, b.getI32Type());
  return intrinsic(
      b, loc, vi32, "llvm.x86.avx512.mask.cvtps2dq.512",
      {v,
       arith::ConstantOp::create(
           b, loc,
           DenseElementsAttr::get(vi32, b.getI32IntegerAttr(0).getValue())),
       arith::ConstantOp::create(b, loc, b.getI16IntegerAttr(-1)),
       arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(8))});
}

const KernelFamily &mlir::qnt::conv::zmmDotFamily() {
  static const ZmmDotFamily family;
  return family;
}
