//===- Dot8.cpp - 8-lane dot-product kernels (avx-vnni, neon-dot) ---------===//
//
// The 8-lane kernels (ConvVector8.cpp, Matmul.cpp) with a dot step of four
// u8 x s8 (x86) or s8 x s8 (AArch64) products per int32 lane: weights
// packed [8 channels][4 inputs], each input quad broadcast to every lane.
// The row's `dot` picks the instruction:
//   vpdpbusd ymm (avx-vnni): one instruction per step; x86's 16 ymm
//     registers hold 4 pixels x 16 channels, two 8-channel blocks sharing
//     each broadcast; qnt.lookup by vpshufb;
//   sdot (neon-dot): two instructions, one per 128-bit half; one block;
//     qnt.lookup by tbl4.
//
//===----------------------------------------------------------------------===//

#include "KernelFamily.h"

#include "../ConvEmitter.h"

using namespace mlir;
using namespace mlir::qnt::conv;
using quantc::Int8Dot;

namespace {

class Dot8Family : public KernelFamily {
public:
  WeightLayout weightLayout(const ConvProblem &) const override {
    return WeightLayout::DotQuads;
  }
};

/// avx-vnni.
class VpdpbusdYmm final : public Dot8Family {
public:
  Value emitConv(ConvEmitter &e, Value input, Value residual) const override {
    return e.isDepthwise() ? e.emitDepthwise(input, residual)
                           : e.emitYmm(input, residual);
  }
  int64_t blocksPerRegisterBlock() const override { return 2; }
  Value dot4(ConvEmitter &e, Value acc, Value x, Value w) const override {
    // LLVM 22 types the byte operands as <32 x i8>.
    return intrinsic(e.b, e.loc, VectorType::get({kLanes}, e.b.getI32Type()),
                     "llvm.x86.avx512.vpdpbusd.256", {acc, x, w});
  }
  std::string densePath(const ConvProblem &p) const override {
    return std::string("vpdpbusd ymm, 4 pixels x ") +
           (p.og >= 2 * kLanes ? "16" : "8") + " channels";
  }
  std::string matmulPath(const ConvProblem &) const override {
    return "vpdpbusd ymm";
  }
  int64_t lookupLanes() const override { return kPshufbLanes; }
  Value lookup(OpBuilder &b, Location loc, Value q, bool isSigned,
               ArrayRef<int8_t> bytes) const override {
    return pshufbLookup(b, loc, q, isSigned, bytes);
  }
};

/// neon-dot.
class Sdot final : public Dot8Family {
public:
  Value dot4(ConvEmitter &e, Value acc, Value x, Value w) const override {
    OpBuilder &b = e.b;
    Location loc = e.loc;
    auto v4i32 = VectorType::get({4}, b.getI32Type());
    Value result = acc;
    for (int64_t half = 0; half < 2; ++half) {
      Value a = vector::ExtractStridedSliceOp::create(b, loc, acc, {half * 4},
                                                      {4}, {1});
      Value xs = vector::ExtractStridedSliceOp::create(b, loc, x, {half * 16},
                                                       {16}, {1});
      Value ws = vector::ExtractStridedSliceOp::create(b, loc, w, {half * 16},
                                                       {16}, {1});
      Value d = intrinsic(b, loc, v4i32, "llvm.aarch64.neon.sdot.v4i32.v16i8",
                          {a, xs, ws});
      result = vector::InsertStridedSliceOp::create(b, loc, d, result,
                                                    {half * 4}, {1});
    }
    return result;
  }
  std::string densePath(const ConvProblem &) const override { return "sdot"; }
  std::string matmulPath(const ConvProblem &) const override { return "sdot"; }
  int64_t lookupLanes() const override { return kTbl4Lanes; }
  Value lookup(OpBuilder &b, Location loc, Value q, bool isSigned,
               ArrayRef<int8_t> bytes) const override {
    return tbl4Lookup(b, loc, q, isSigned, bytes);
  }
};

} // namespace

const KernelFamily &mlir::qnt::conv::dot8Family(Int8Dot dot) {
  static const VpdpbusdYmm vpdpbusd;
  static const Sdot sdot;
  assert((dot == Int8Dot::Vpdpbusd || dot == Int8Dot::Sdot) &&
         "the 8-lane dot family runs vpdpbusd or sdot");
  if (dot == Int8Dot::Vpdpbusd)
    return vpdpbusd;
  return sdot;
}
