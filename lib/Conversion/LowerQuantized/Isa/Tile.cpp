//===- Tile.cpp - AMX-INT8 kernels on tiles of 16 rows x 64 bytes --------===//
//
// amx-int8: tdpbusd (u8 x s8 into int32, as vpdpbusd) on tiles of 16 rows x
// 64 bytes for the dense convolutions, linear layers and matmuls where
// tiles pay (ConvEmitter::emitTile, ../ConvTile.cpp; ../Matmul.cpp's tile
// kernel); every other kernel is
// the zmm family's (vpdpbusd zmm, ZmmDot.cpp), and so is the requantizing
// epilogue, which the tile kernel shares.
//
//===----------------------------------------------------------------------===//

#include "KernelFamily.h"

#include "../ConvEmitter.h"

using namespace mlir;
using namespace mlir::qnt::conv;

namespace {

/// The zmm family, with the tile kernels where they pay.
class TileFamily final : public KernelFamily {
  const KernelFamily &zmm = zmmDotFamily();

public:
  Value emitConv(ConvEmitter &e, Value input, Value residual) const override {
    return e.tilesPay() ? e.emitTile(input, residual)
                        : zmm.emitConv(e, input, residual);
  }
  std::string convPath(const ConvEmitter &e) const override {
    return e.tilesPay() ? e.tilePath() : zmm.convPath(e);
  }
  WeightLayout weightLayout(const ConvProblem &p) const override {
    return zmm.weightLayout(p);
  }
  Value dot4(ConvEmitter &e, Value acc, Value x, Value w) const override {
    return zmm.dot4(e, acc, x, w);
  }
  MatmulBlock matmulBlock(const ConvProblem &p) const override {
    return zmm.matmulBlock(p);
  }
  std::string matmulPath(const ConvProblem &p) const override {
    return p.matmul && matmulTiles(*p.matmul) ? "tdpbusd tiles"
                                              : zmm.matmulPath(p);
  }
  /// Tiles where a block of 16 rows and 16 columns exists and the
  /// reduction fills most of a 64-byte tile row (attention's Q x K^T with
  /// 64-wide heads, scores x V over the tokens).
  bool matmulTiles(const MatmulShape &s) const override {
    return s.m >= 16 && s.n >= 16 && s.k >= 48;
  }
  Value roundToInt(ConvEmitter &e, Value v) const override {
    return zmm.roundToInt(e, v);
  }
  int64_t lookupLanes() const override { return zmm.lookupLanes(); }
  Value lookup(OpBuilder &b, Location loc, Value q, bool isSigned,
               ArrayRef<int8_t> bytes) const override {
    return zmm.lookup(b, loc, q, isSigned, bytes);
  }
};

} // namespace

const KernelFamily &mlir::qnt::conv::tileFamily() {
  static const TileFamily family;
  return family;
}
