//===- Matrix.cpp - AArch64 matrix-multiply kernels (neon-i8mm) -----------===//
//
// smmla multiplies a 2x8 by an 8x2 block of s8 into a 2x2 int32 tile: per
// pixel pair (A, B) and output-channel pair jj, a tile [A.o0, A.o1, B.o0,
// B.o1] accumulates 8 input channels per instruction (input channels padded
// to 8: the row's depthGroup). Weights packed [4 channel pairs][2 channels]
// [8 inputs] per 8-channel block; a single remaining pixel is paired with
// itself. The depthwise kernel and the matmul are the exact 8-lane ones;
// qnt.lookup by tbl4.
//
//===----------------------------------------------------------------------===//

#include "KernelFamily.h"

#include "../ConvEmitter.h"

using namespace mlir;
using namespace mlir::qnt::conv;

namespace {

class MatrixFamily final : public KernelFamily {
public:
  WeightLayout weightLayout(const ConvProblem &) const override {
    return WeightLayout::MatrixPairs;
  }
  void emitPixelBlock(ConvEmitter &e, Value xp, Value packed, Value comp,
                      Value mult, Value out, Value residual, Value n, Value oy,
                      Value ox0, int64_t pixels, Value g, Value block,
                      int64_t valid, int64_t nb) const override;
  std::string densePath(const ConvProblem &) const override { return "smmla"; }
  // qnt.matmul has no smmla block: it runs the exact columns.
  std::string matmulPath(const ConvProblem &) const override {
    return "exact 32-bit vector path";
  }
  int64_t lookupLanes() const override { return kTbl4Lanes; }
  Value lookup(OpBuilder &b, Location loc, Value q, bool isSigned,
               ArrayRef<int8_t> bytes) const override {
    return tbl4Lookup(b, loc, q, isSigned, bytes);
  }
};

} // namespace

/// One register block of `pixels` pixels x one 8-channel block (`nb` is 1:
/// blocksPerRegisterBlock).
void MatrixFamily::emitPixelBlock(ConvEmitter &e, Value xp, Value packed,
                                  Value comp, Value mult, Value out,
                                  Value residual, Value n, Value oy, Value ox0,
                                  int64_t pixels, Value g, Value block,
                                  int64_t valid, int64_t nb) const {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  const ConvProblem &p = e.p;
  auto v8i32 = VectorType::get({kLanes}, b.getI32Type());
  auto v4i32 = VectorType::get({4}, b.getI32Type());
  auto v8i8 = VectorType::get({8}, b.getI8Type());
  auto v16i8 = VectorType::get({16}, b.getI8Type());
  Value oc0 = arith::MulIOp::create(b, loc, block, e.idx(kLanes));
  Value init = vector::LoadOp::create(b, loc, v8i32, comp, ValueRange{g, oc0});
  int64_t pairs = (pixels + 1) / 2;
  SmallVector<Value> accs;
  for (int64_t pr = 0; pr < pairs; ++pr)
    for (int64_t jj = 0; jj < 4; ++jj)
      accs.push_back(vector::ShuffleOp::create(
          b, loc, init, init,
          ArrayRef<int64_t>{2 * jj, 2 * jj + 1, 2 * jj, 2 * jj + 1}));
  int64_t r8 = p.cg4 / 8;
  Value chBase = arith::MulIOp::create(b, loc, g, e.idx(p.cg4));
  ValueRange result = e.reductionLoops(
      r8, accs, [&](Value ky, Value kx, Value r, SmallVector<Value> acc) {
        Value iy = e.windowIndex(oy, ky, p.sh, p.dh);
        Value ch = arith::AddIOp::create(
            b, loc, chBase, arith::MulIOp::create(b, loc, r, e.idx(8)));
        auto row = [&](int64_t px) {
          Value ox = arith::AddIOp::create(b, loc, ox0, e.idx(px));
          Value ix = e.windowIndex(ox, kx, p.sw, p.dw);
          return vector::LoadOp::create(b, loc, v8i8, xp,
                                        ValueRange{n, iy, ix, ch});
        };
        SmallVector<Value> w;
        for (int64_t jj = 0; jj < 4; ++jj)
          w.push_back(vector::LoadOp::create(
              b, loc, v16i8, packed,
              ValueRange{g, block, ky, kx, r, e.idx(jj * 16)}));
        for (int64_t pr = 0; pr < pairs; ++pr) {
          Value ra = row(2 * pr);
          Value rb = 2 * pr + 1 < pixels ? Value(row(2 * pr + 1)) : ra;
          SmallVector<int64_t> concat;
          for (int64_t i = 0; i < 16; ++i)
            concat.push_back(i);
          Value a = vector::ShuffleOp::create(b, loc, ra, rb, concat);
          for (int64_t jj = 0; jj < 4; ++jj)
            acc[pr * 4 + jj] =
                intrinsic(b, loc, v4i32, "llvm.aarch64.neon.smmla.v4i32.v16i8",
                          {acc[pr * 4 + jj], a, w[jj]});
        }
        return acc;
      });

  auto [m, outCh, mask] = e.storeContext(mult, g, oc0, valid);
  for (int64_t px = 0; px < pixels; ++px) {
    // Gather the pixel's row of the four 2x2 tiles: lanes 0,1 (A) or 2,3 (B).
    int64_t pr = px / 2, half = (px % 2) * 2;
    Value t01 = vector::ShuffleOp::create(
        b, loc, result[pr * 4 + 0], result[pr * 4 + 1],
        ArrayRef<int64_t>{half, half + 1, 4 + half, 4 + half + 1});
    Value t23 = vector::ShuffleOp::create(
        b, loc, result[pr * 4 + 2], result[pr * 4 + 3],
        ArrayRef<int64_t>{half, half + 1, 4 + half, 4 + half + 1});
    Value acc = vector::ShuffleOp::create(
        b, loc, t01, t23, ArrayRef<int64_t>{0, 1, 2, 3, 4, 5, 6, 7});
    Value ox = arith::AddIOp::create(b, loc, ox0, e.idx(px));
    e.storePixel(acc, m, out, residual, n, oy, ox, outCh, mask);
  }
}

const KernelFamily &mlir::qnt::conv::matrixFamily() {
  static const MatrixFamily family;
  return family;
}
