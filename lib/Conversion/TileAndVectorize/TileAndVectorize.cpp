//===- TileAndVectorize.cpp - Register tiles of float linalg ops ----------===//
//
// The float code generation strategy, in the style of IREE's LLVMCPU
// pipeline, built from upstream transformations only:
//
//   1. linalg.conv_2d_nhwc_fhwc -> conv_2d_nhwc_hwcf (linalg::transposeConv2D;
//      a constant filter is transposed here, at compile time);
//   2. matmuls become register-blocked FMA loops (MatmulKernel.cpp) and
//      reductions along the innermost dimension rows of vector accumulators
//      (ReductionKernel.cpp); tile
//      each other op to a register block (scf::tileUsingSCF): a convolution to
//      1 output row x Wt output pixels x Ft output channels, one filter tap
//      and Ct input channels per step (reduction loops innermost); pooling,
//      matmul, fill, transpose and elementwise ops to small tiles along the
//      innermost (channel) dimension. The loop over output rows is an
//      scf.forall (its tiles are independent: the parallel pipeline runs them
//      on threads), the others scf.for;
//   3. decompose 2-D convolutions / poolings with unit tiles into 1-D ones
//      (linalg::populateDecomposeConvolutionPatterns);
//   4. linalg::vectorize every tile (1-D convolutions become vector.contract
//      of Wt x Ct by Ct x Ft) and clean up (leading unit dims, reductions to
//      contractions, extract_slice folded into transfers).
//
// Tile sizes always divide the dimensions, so every tile is static and no
// masking is needed. The accumulator stays in registers across the
// reduction loops once `loop-invariant-subset-hoisting` has run.
//
//===----------------------------------------------------------------------===//

#include "FloatKernels.h"

#include "quantc/Conversion/Passes.h"
#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace quantc {
#define GEN_PASS_DEF_TILEANDVECTORIZEFLOAT
#include "quantc/Conversion/Passes.h.inc"
} // namespace quantc

using namespace mlir;

namespace {

/// Float32 lanes the register tiles are sized for (one 256-bit register).
constexpr int64_t kLanes = 8;
/// Vector registers available for accumulators (of the 16 of AVX2; leaves
/// room for a broadcast input and a filter vector).
constexpr int64_t kAccumulatorRegs = 14;

/// The largest divisor of `n` that is <= `limit` (at least 1).
int64_t divisorUpTo(int64_t n, int64_t limit) {
  for (int64_t d = std::min(n, limit); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

/// Output channels and output pixels of a convolution's register block:
/// Ft channels (a multiple of the lanes when possible) times Wt pixels with
/// Wt * ceil(Ft / lanes) accumulator registers at most, as large as
/// possible.
std::pair<int64_t, int64_t> convBlock(int64_t channels, int64_t width) {
  int64_t bestF = 1, bestW = 1;
  for (int64_t f : {32, 24, 16, 8, 4, 2, 1}) {
    if (channels % f != 0)
      continue;
    int64_t regs = (f + kLanes - 1) / kLanes;
    int64_t w = divisorUpTo(width, kAccumulatorRegs / regs);
    if (f * w > bestF * bestW)
      bestF = f, bestW = w;
  }
  if (bestF == 1 && channels < kLanes)
    bestF = channels; // a few channels: all of them
  return {bestF, bestW};
}

bool isStaticFloat(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics())
    return false;
  for (Value v : op->getOperands())
    if (auto t = dyn_cast<ShapedType>(v.getType()))
      if (!t.hasStaticShape() || !isa<FloatType>(t.getElementType()))
        return false;
  return true;
}

/// A transpose that keeps the innermost dimensions in place (Swin's window
/// partitions: [1, 4, 7, 4, 7, 192] -> [1, 4, 4, 7, 7, 192]) moves rows of
/// contiguous elements: it becomes an scf.forall over the other output
/// dimensions inserting one row each, which bufferizes to a memcpy per
/// row. Vectorized tiles of it were loops that LLVM unrolled completely,
/// thousands of loads and stores in one block (seconds of instruction
/// scheduling each).
LogicalResult copyRows(RewriterBase &rewriter, linalg::TransposeOp op) {
  auto input = dyn_cast<RankedTensorType>(op.getInput().getType());
  auto output = dyn_cast<RankedTensorType>(op.getInit().getType());
  if (!input || !output || !input.hasStaticShape() ||
      !input.getElementType().isIntOrFloat() ||
      input.getElementType().getIntOrFloatBitWidth() % 8 != 0)
    return failure();
  ArrayRef<int64_t> perm = op.getPermutation();
  int64_t rank = output.getRank(), outer = rank;
  while (outer > 0 && perm[outer - 1] == outer - 1)
    --outer;
  if (outer == 0 || outer == rank)
    return failure();
  ArrayRef<int64_t> rowShape = output.getShape().drop_front(outer);
  int64_t rowBytes = input.getElementType().getIntOrFloatBitWidth() / 8;
  for (int64_t size : rowShape)
    rowBytes *= size;
  if (rowBytes < quantc::kMemcpyRowBytes)
    return failure();

  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  SmallVector<OpFoldResult> ubs;
  for (int64_t d = 0; d < outer; ++d)
    ubs.push_back(rewriter.getIndexAttr(output.getDimSize(d)));
  auto forall = scf::ForallOp::create(rewriter, loc, ubs,
                                      ValueRange{op.getInit()}, std::nullopt);
  rewriter.setInsertionPointToStart(forall.getBody());
  // Output index i of the row is input index perm[i].
  SmallVector<Value> ivs(forall.getInductionVars());
  SmallVector<OpFoldResult> from(rank, rewriter.getIndexAttr(0)),
      to(rank, rewriter.getIndexAttr(0)), sizes(rank, rewriter.getIndexAttr(1)),
      strides(rank, rewriter.getIndexAttr(1));
  for (int64_t d = 0; d < outer; ++d) {
    to[d] = ivs[d];
    from[perm[d]] = ivs[d];
  }
  for (int64_t d = outer; d < rank; ++d)
    sizes[d] = rewriter.getIndexAttr(output.getDimSize(d));
  auto rowType = RankedTensorType::get(rowShape, output.getElementType());
  Value row = tensor::ExtractSliceOp::create(
      rewriter, loc, rowType, op.getInput(), from, sizes, strides);
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, row,
                                        forall.getRegionIterArgs().front(), to,
                                        sizes, strides);
  rewriter.replaceOp(op, forall.getResults());
  return success();
}

/// Elementwise ops (fill, copy, transpose, broadcast, generic with only
/// parallel loops and permutation / broadcast maps) are tiled to <= 8
/// vectors along the two innermost dimensions. Transposes too: vectorized
/// whole, a transpose (e.g. NHWC -> NCHW before a flatten) becomes one
/// scalar extract and insert per element, straight-line code as long as the
/// tensor.
bool isTiledElementwise(linalg::LinalgOp op) {
  return isa<linalg::FillOp, linalg::CopyOp, linalg::GenericOp,
             linalg::TransposeOp, linalg::BroadcastOp>(op) &&
         op.getNumLoops() == op.getNumParallelLoops() && op.getNumLoops() > 0 &&
         llvm::all_of(op.getIndexingMapsArray(), [](AffineMap m) {
           return m.isProjectedPermutation(/*allowZeroInResults=*/true);
         });
}

/// Where to split an elementwise op's innermost dimension so that each part
/// has a vector-sized tile: a dimension longer than a tile of 8 vectors
/// whose divisors are all below one vector (ViT's 197 tokens, a prime)
/// would be tiled by 1, scalar code. Split at the last multiple of 8
/// vectors; the rest (under 8 vectors) is one tile.
std::optional<int64_t> innermostSplit(linalg::LinalgOp op) {
  if (!isStaticFloat(op) || !isTiledElementwise(op))
    return std::nullopt;
  int64_t range = op.getStaticLoopRanges().back();
  if (range <= 8 * kLanes || divisorUpTo(range, 8 * kLanes) >= kLanes)
    return std::nullopt;
  return range - range % (8 * kLanes);
}

/// Tile sizes of the register block for `op` (one per loop), or none when
/// the op keeps its plain lowering.
std::optional<SmallVector<int64_t>> tileSizes(linalg::LinalgOp op) {
  if (!isStaticFloat(op))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (isa<linalg::Conv2DNhwcHwcfOp>(op)) {
    // (n, oh, ow, f, kh, kw, c)
    auto [ft, wt] = convBlock(ranges[3], ranges[2]);
    return SmallVector<int64_t>{
        1, 1, wt, ft, 1, 1, divisorUpTo(ranges[6], kLanes)};
  }
  if (isa<linalg::DepthwiseConv2DNhwcHwcOp, linalg::PoolingNhwcSumOp,
          linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcMinOp>(op)) {
    // (n, oh, ow, c, kh, kw): channels in vectors, pixels along W.
    int64_t ct = divisorUpTo(ranges[3], 4 * kLanes);
    int64_t wt =
        divisorUpTo(ranges[2], kAccumulatorRegs / ((ct + kLanes - 1) / kLanes));
    return SmallVector<int64_t>{1, 1, wt, ct, 1, 1};
  }
  if (isa<linalg::MatmulOp>(op) && op.getNumLoops() == 3) {
    // (m, n, k)
    auto [nt, mt] = convBlock(ranges[1], ranges[0]);
    return SmallVector<int64_t>{mt, nt, divisorUpTo(ranges[2], kLanes)};
  }
  if (isa<linalg::BatchMatmulOp>(op) && op.getNumLoops() == 4) {
    // (b, m, n, k)
    auto [nt, mt] = convBlock(ranges[2], ranges[1]);
    return SmallVector<int64_t>{1, mt, nt, divisorUpTo(ranges[3], kLanes)};
  }
  if (!isTiledElementwise(op))
    return std::nullopt;
  SmallVector<int64_t> sizes(ranges.size(), 1);
  int64_t inner = divisorUpTo(ranges.back(), 8 * kLanes);
  sizes.back() = inner;
  if (ranges.size() > 1)
    sizes[ranges.size() - 2] =
        divisorUpTo(ranges[ranges.size() - 2], 8 * kLanes / inner);
  return sizes;
}

/// Rewrites a conv_2d_nhwc_fhwc into a conv_2d_nhwc_hwcf; a constant filter
/// is transposed now instead of at run time.
void transposeFilters(func::FuncOp func) {
  SmallVector<linalg::Conv2DNhwcFhwcOp> convs;
  func.walk([&](linalg::Conv2DNhwcFhwcOp op) {
    if (isStaticFloat(cast<linalg::LinalgOp>(op.getOperation())))
      convs.push_back(op);
  });
  IRRewriter rewriter(func.getContext());
  for (linalg::Conv2DNhwcFhwcOp op : convs) {
    DenseElementsAttr filter;
    bool constant = matchPattern(op.getInputs()[1], m_Constant(&filter)) &&
                    filter.getElementType().isF32();
    rewriter.setInsertionPoint(op);
    FailureOr<Operation *> hwcf = linalg::transposeConv2D(rewriter, op);
    if (failed(hwcf) || !constant)
      continue;
    // (f, h, w, c) -> (h, w, c, f) of the constant.
    auto type = cast<RankedTensorType>(filter.getType());
    ArrayRef<int64_t> s = type.getShape();
    auto newType =
        RankedTensorType::get({s[1], s[2], s[3], s[0]}, type.getElementType());
    DenseElementsAttr transposed;
    if (filter.isSplat()) {
      transposed = filter.resizeSplat(newType);
    } else {
      SmallVector<float> from(filter.getValues<float>());
      SmallVector<float> to(from.size());
      int64_t hwc = s[1] * s[2] * s[3];
      for (int64_t f = 0; f < s[0]; ++f)
        for (int64_t i = 0; i < hwc; ++i)
          to[i * s[0] + f] = from[f * hwc + i];
      transposed = DenseElementsAttr::get(newType, ArrayRef<float>(to));
    }
    auto conv = cast<linalg::Conv2DNhwcHwcfOp>(*hwcf);
    rewriter.setInsertionPoint(conv);
    Value cst =
        arith::ConstantOp::create(rewriter, conv.getLoc(), newType, transposed);
    Operation *transpose = conv.getInputs()[1].getDefiningOp();
    rewriter.modifyOpInPlace(conv, [&] { conv->setOperand(1, cst); });
    if (transpose && transpose->use_empty()) {
      Value init =
          transpose->getNumOperands() > 1 ? transpose->getOperand(1) : Value();
      rewriter.eraseOp(transpose);
      if (init && init.getDefiningOp() && init.use_empty())
        rewriter.eraseOp(init.getDefiningOp());
    }
  }
}

/// Tiles `op` by `sizes` (a size equal to the loop range or 0: no loop);
/// returns the tiled op.
FailureOr<linalg::LinalgOp> tileOp(RewriterBase &rewriter, linalg::LinalgOp op,
                                   ArrayRef<int64_t> sizes,
                                   scf::SCFTilingOptions::LoopType loopType) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<OpFoldResult> tiles;
  bool any = false;
  for (auto [size, range] : llvm::zip(sizes, ranges)) {
    bool loop = size != 0 && size != range;
    any |= loop;
    tiles.push_back(rewriter.getIndexAttr(loop ? size : 0));
  }
  if (!any)
    return op;
  scf::SCFTilingOptions options;
  options.setTileSizes(tiles);
  options.setLoopType(loopType);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled) || tiled->tiledOps.size() != 1)
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  auto result = dyn_cast<linalg::LinalgOp>(tiled->tiledOps.front());
  if (!result)
    return failure();
  return result;
}

/// Adds the canonicalization patterns of every loaded dialect and
/// registered op.
void addCanonicalization(MLIRContext *ctx, RewritePatternSet &patterns) {
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
}

struct TileAndVectorizeFloatPass
    : public quantc::impl::TileAndVectorizeFloatBase<
          TileAndVectorizeFloatPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    transposeFilters(func);
    if (failed(approximateMath(func)))
      return signalPassFailure();
    lowerMatmuls(func);
    IRRewriter rewriter(&getContext());
    lowerReductions(func, rewriter);
    copyRowTransposes(func, rewriter);
    splitForDivisors(func, rewriter);
    tile(func, rewriter);
    if (failed(decomposeConvolutions(func)))
      return signalPassFailure();
    vectorizeTiles(func, rewriter);
    if (failed(cleanUp(func)))
      return signalPassFailure();
  }

private:
  /// exp / tanh / erf / log ... in linalg bodies (softmax, tosa.exp,
  /// sigmoid) as polynomials, which vectorize, instead of one libm call per
  /// element (qnt-lower-float does the same for qnt.unary).
  LogicalResult approximateMath(func::FuncOp func) {
    RewritePatternSet approximations(&getContext());
    populateMathPolynomialApproximationPatterns(approximations);
    return applyPatternsGreedily(func, std::move(approximations));
  }

  /// Matmuls: register-blocked FMA loops (MatmulKernel.cpp); those it does
  /// not take are tiled and vectorized below.
  void lowerMatmuls(func::FuncOp func) {
    SmallVector<linalg::LinalgOp> matmuls;
    func.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
        matmuls.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : matmuls)
      (void)quantc::float_codegen::lowerMatmulToKernel(rewriter, op,
                                                       vectorBits);
  }

  /// Reductions along the innermost dimension (softmax, LayerNorm, mean
  /// over channels): rows of vector accumulators (ReductionKernel.cpp).
  void lowerReductions(func::FuncOp func, RewriterBase &rewriter) {
    SmallVector<linalg::LinalgOp> reductions;
    func.walk([&](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() > 0 &&
          !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
        reductions.push_back(op);
    });
    for (linalg::LinalgOp op : reductions)
      (void)quantc::float_codegen::lowerInnermostReduction(rewriter, op);
  }

  /// Transposes that move whole rows: row copies.
  void copyRowTransposes(func::FuncOp func, RewriterBase &rewriter) {
    SmallVector<linalg::TransposeOp> transposes;
    func.walk([&](linalg::TransposeOp op) {
      if (op.hasPureTensorSemantics())
        transposes.push_back(op);
    });
    for (linalg::TransposeOp op : transposes)
      (void)copyRows(rewriter, op);
  }

  /// Elementwise ops whose innermost dimension has no vector-sized divisor:
  /// two ops, each with one (linalg::splitOp).
  void splitForDivisors(func::FuncOp func, RewriterBase &rewriter) {
    SmallVector<std::pair<linalg::LinalgOp, int64_t>> splits;
    func.walk([&](linalg::LinalgOp op) {
      if (std::optional<int64_t> at = innermostSplit(op))
        splits.push_back({op, *at});
    });
    for (auto [op, at] : splits) {
      rewriter.setInsertionPoint(op);
      (void)linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()),
                            op.getNumLoops() - 1, rewriter.getIndexAttr(at));
    }
  }

  /// Tiles every op tileSizes takes. The outermost parallel dimension with
  /// more than one row of tiles (output rows of convolutions and poolings,
  /// the second-outermost dimension of elementwise ops) becomes an
  /// scf.forall: independent tiles that the parallel pipeline turns into
  /// threads. The tiled ops are the ones vectorized below.
  void tile(func::FuncOp func, RewriterBase &rewriter) {
    SmallVector<std::pair<linalg::LinalgOp, SmallVector<int64_t>>> work;
    func.walk([&](linalg::LinalgOp op) {
      if (auto sizes = tileSizes(op))
        work.push_back({op, std::move(*sizes)});
    });
    for (auto &[op, sizes] : work) {
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      SmallVector<int64_t> outer(ranges.size(), 0);
      int64_t rows = -1;
      if (isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp,
              linalg::PoolingNhwcSumOp, linalg::PoolingNhwcMaxOp,
              linalg::PoolingNhwcMinOp>(op))
        rows = 1;
      else if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
               ranges.size() >= 3)
        rows = ranges.size() - 3;
      if (rows >= 0 && sizes[rows] == 1 && ranges[rows] > 1) {
        outer[rows] = 1;
        FailureOr<linalg::LinalgOp> inner = tileOp(
            rewriter, op, outer, scf::SCFTilingOptions::LoopType::ForallOp);
        if (failed(inner))
          continue;
        op = *inner;
      }
      (void)tileOp(rewriter, op, sizes, scf::SCFTilingOptions::LoopType::ForOp);
    }
  }

  /// 2-D convolutions / poolings with unit output rows and filter taps
  /// become 1-D ones, which linalg::vectorize handles.
  LogicalResult decomposeConvolutions(func::FuncOp func) {
    RewritePatternSet patterns(&getContext());
    linalg::populateDecomposeConvolutionPatterns(patterns);
    return applyPatternsGreedily(func, std::move(patterns));
  }

  /// Vectorizes every static float tile that fits in a few registers.
  void vectorizeTiles(func::FuncOp func, RewriterBase &rewriter) {
    SmallVector<linalg::LinalgOp> tilesToVectorize;
    func.walk([&](linalg::LinalgOp op) {
      if (!isStaticFloat(op) || !linalg::hasVectorizationImpl(op))
        return;
      // Reductions (linalg.reduce, reducing generics: softmax, ReduceMean)
      // keep their loops: untiled, their vector.multi_reduction would have
      // the tensor's rank, which the LLVM lowering does not unroll.
      if (isa<linalg::ReduceOp>(op) ||
          (isa<linalg::GenericOp>(op) && op.getNumReductionLoops() > 0))
        return;
      int64_t elements = 1;
      for (int64_t r : op.getStaticLoopRanges())
        elements *= r;
      if (elements <= 64 * 64 * kLanes)
        tilesToVectorize.push_back(op);
    });
    for (linalg::LinalgOp op : tilesToVectorize) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op);
      if (failed(result))
        continue;
      if (op->getNumResults() == 0)
        rewriter.eraseOp(op);
      else
        rewriter.replaceOp(op, result->replacements);
    }
  }

  /// Cleans up in two rounds, as the transform dialect's
  /// vectorize_children_and_apply_patterns + cast_away_vector_leading_one_dim
  /// would: first fold the tiles' extract/insert_slice into the transfers
  /// (while the vectors still have the tensors' rank), then drop the unit
  /// dimensions so that each accumulator's read and write match and
  /// loop-invariant-subset-hoisting can keep it in registers.
  LogicalResult cleanUp(func::FuncOp func) {
    MLIRContext *ctx = &getContext();
    RewritePatternSet fold(ctx);
    vector::populateVectorReductionToContractPatterns(fold);
    vector::populateSinkVectorOpsPatterns(fold);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(fold);
    tensor::populateMergeConsecutiveInsertExtractSlicePatterns(fold);
    addCanonicalization(ctx, fold);
    if (failed(applyPatternsGreedily(func, std::move(fold))))
      return failure();
    RewritePatternSet unitDims(ctx);
    vector::populateCastAwayVectorLeadingOneDimPatterns(unitDims);
    addCanonicalization(ctx, unitDims);
    return applyPatternsGreedily(func, std::move(unitDims));
  }
};

} // namespace
