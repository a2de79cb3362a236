//===- Widening16.cpp - 16-bit pair kernels (avx2) ------------------------===//
//
// avx2 has no 4-product dot instruction. vpmaddubsw multiplies u8 x s8 and
// adds pairs into a saturating int16, vpmaddwd by ones adds those pairs into
// int32: exact when no pair sum can leave int16, which is proven at compile
// time from the weights (or, for matmul, the operand ranges) and the input
// range (analyzeConv / analyzeMatmul: ConvProblem::pairSumsFit). Where it
// cannot be proven the input is widened to u16 in the padded copy, the
// weights packed as s16 pairs, and vpmaddwd adds two exact products per
// int32 lane: the same number of multiply instructions per MAC and twice
// the loads. Both use x86's 16 ymm registers for 4 pixels x 16 channels
// (two 8-channel blocks per input broadcast); qnt.lookup by vpshufb.
//
//===----------------------------------------------------------------------===//

#include "KernelFamily.h"

#include "../ConvEmitter.h"

using namespace mlir;
using namespace mlir::qnt::conv;

namespace {

class Widening16Family final : public KernelFamily {
public:
  // vpmaddubsw adds two u8 x s8 products into a saturating int16: exact iff
  // every (w1, w2) pair keeps x1*w1 + x2*w2 within int16 for all inputs in
  // [0, xmax] (the input's storage range in the u8 domain).
  void analyzeConv(ConvProblem &p, int64_t xmax) const override {
    bool exact = true;
    for (int64_t o = 0; o < p.o && exact; ++o)
      for (int64_t ky = 0; ky < p.kh; ++ky)
        for (int64_t kx = 0; kx < p.kw; ++kx)
          for (int64_t c = 0; c < p.cg; c += 2) {
            auto at = [&](int64_t ci) -> int64_t {
              if (ci >= p.cg)
                return 0;
              return p.weights[((o * p.kh + ky) * p.kw + kx) * p.cg + ci];
            };
            int64_t w1 = at(c), w2 = at(c + 1);
            int64_t pos =
                xmax * (std::max<int64_t>(w1, 0) + std::max<int64_t>(w2, 0));
            int64_t neg =
                xmax * (std::min<int64_t>(w1, 0) + std::min<int64_t>(w2, 0));
            if (pos > 32767 || neg < -32768)
              exact = false;
          }
    p.pairSumsFit = exact;
  }
  // u8 x s8 pair sums within int16 for every operand value.
  void analyzeMatmul(ConvProblem &p, int64_t xmax, int64_t bmin,
                     int64_t bmax) const override {
    p.pairSumsFit = 2 * xmax * bmax <= 32767 && 2 * xmax * bmin >= -32768;
  }

  Value emitConv(ConvEmitter &e, Value input, Value residual) const override {
    return e.isDepthwise() ? e.emitDepthwise(input, residual)
                           : e.emitYmm(input, residual);
  }
  WeightLayout weightLayout(const ConvProblem &p) const override {
    return p.pairSumsFit ? WeightLayout::DotQuads : WeightLayout::Pairs16;
  }
  int64_t blocksPerRegisterBlock() const override { return 2; }

  Value dot4(ConvEmitter &e, Value acc, Value x, Value w) const override {
    OpBuilder &b = e.b;
    Location loc = e.loc;
    auto v8i32 = VectorType::get({kLanes}, b.getI32Type());
    auto v16i16 = VectorType::get({16}, b.getI16Type());
    Value pairs =
        intrinsic(b, loc, v16i16, "llvm.x86.avx2.pmadd.ub.sw", {x, w});
    Value ones = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(v16i16, b.getI16IntegerAttr(1).getValue()));
    Value quads =
        intrinsic(b, loc, v8i32, "llvm.x86.avx2.pmadd.wd", {pairs, ones});
    return arith::AddIOp::create(b, loc, acc, quads);
  }

  Value dotPair(ConvEmitter &e, Value acc, Value pair, Value w) const override {
    OpBuilder &b = e.b;
    Location loc = e.loc;
    int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
    auto vi32 = VectorType::get({lanes}, b.getI32Type());
    auto vi16 = VectorType::get({2 * lanes}, b.getI16Type());
    Value word = vector::ExtractOp::create(
        b, loc,
        vector::BitCastOp::create(b, loc, VectorType::get({1}, b.getI32Type()),
                                  pair),
        0);
    Value x = vector::BitCastOp::create(
        b, loc, vi16, vector::BroadcastOp::create(b, loc, vi32, word));
    return arith::AddIOp::create(b, loc, acc, madd16(e, x, w));
  }

  Value madd16(ConvEmitter &e, Value x, Value w) const override {
    int64_t lanes = cast<VectorType>(x.getType()).getNumElements() / 2;
    return intrinsic(e.b, e.loc, VectorType::get({lanes}, e.b.getI32Type()),
                     "llvm.x86.avx2.pmadd.wd", {x, w});
  }

  std::string densePath(const ConvProblem &p) const override {
    return p.pairSumsFit ? "vpmaddubsw + vpmaddwd (every 16-bit pair sum "
                           "is provably within int16)"
                         : "vpmaddwd on inputs widened to 16 bits "
                           "(vpmaddubsw could saturate 16-bit pair sums for "
                           "this input range and weights)";
  }
  std::string matmulPath(const ConvProblem &p) const override {
    return p.pairSumsFit ? "vpmaddubsw + vpmaddwd (every 16-bit pair sum "
                           "is provably within int16)"
                         : "vpmaddwd on operands widened to 16 bits "
                           "(vpmaddubsw could saturate 16-bit pair sums for "
                           "these operand ranges)";
  }

  int64_t lookupLanes() const override { return kPshufbLanes; }
  Value lookup(OpBuilder &b, Location loc, Value q, bool isSigned,
               ArrayRef<int8_t> bytes) const override {
    return pshufbLookup(b, loc, q, isSigned, bytes);
  }
};

} // namespace

const KernelFamily &mlir::qnt::conv::widening16Family() {
  static const Widening16Family family;
  return family;
}
