//===- ReductionKernel.cpp - Vectorized innermost float reductions --------===//
//
// A static f32 linalg op that reduces its innermost loop (linalg.reduce of
// tosa.reduce_sum / reduce_max along the last dimension: softmax's max and
// sum, LayerNorm's mean and variance, ReduceMean over channels) is left
// scalar by linalg::vectorize of an untiled op, and LLVM does not vectorize
// a float sum without reassociation. It becomes, per row (an scf.forall
// over the outer dimensions: OpenMP threads with parallel=omp):
//
//   acc[u] = neutral                                   u < 4, vector<8xf32>
//   for k0 in steps of 32 over the full blocks:
//     acc[u] = combine(acc[u], body(x[row, k0 + 8u : k0 + 8u + 8]))
//   the remaining full vectors, one accumulator each;
//   the last n % 8 elements: the last 8 elements read again, the lanes
//     already counted replaced by the neutral value (n >= 8), else one
//     padded read with the lanes past the end replaced;
//   out[row] = combine(init[row], tree(acc))
//
// Four accumulators hide the adds' latency; `tree` halves the vector down
// to one element in a fixed order. Every variant of a dispatching object
// runs the same vector<8xf32> operations, so the order of the additions,
// hence the result, does not depend on the CPU. (The order differs from the
// sequential one of the linalg op: a sum changes in its last bits.)
//
//===----------------------------------------------------------------------===//

#include "FloatKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

#include <limits>

using namespace mlir;

namespace {

constexpr int64_t kLanes = 8;
constexpr int64_t kAccumulators = 4;
static_assert((kAccumulators & (kAccumulators - 1)) == 0, "paired in a tree");

/// The combiner's neutral element, or nothing for an unsupported one.
std::optional<float> neutralOf(Operation *combiner) {
  if (isa<arith::AddFOp>(combiner))
    return 0.0f;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner))
    return -std::numeric_limits<float>::infinity();
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(combiner))
    return std::numeric_limits<float>::infinity();
  return std::nullopt;
}

/// Whether `op` (in the body of a linalg op) has a vector form made by
/// giving it vector operands and results: scalar elementwise arith / math.
bool isVectorizableScalarOp(Operation &op) {
  if (!op.hasTrait<OpTrait::Elementwise>() || op.getNumRegions() != 0 ||
      op.getNumResults() != 1)
    return false;
  auto scalar = [](Type t) { return t.isF32() || t.isInteger(1); };
  return llvm::all_of(op.getOperandTypes(), scalar) &&
         llvm::all_of(op.getResultTypes(), scalar);
}

/// A linalg op reducing its innermost loop: yield(combine(out, element)),
/// `element` an elementwise function of the inputs.
struct InnermostReduction {
  Block *body;
  Operation *combiner;
  Value element;
  float neutral;
  OpOperand *init;
  /// The static loop ranges; the last is the reduced one.
  SmallVector<int64_t> ranges;
};

std::optional<InnermostReduction> matchInnermostReduction(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 || op.hasIndexSemantics())
    return std::nullopt;
  int64_t loops = op.getNumLoops();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (loops < 1 || op.getNumReductionLoops() != 1 ||
      iterators.back() != utils::IteratorType::reduction)
    return std::nullopt;
  for (Value v : op->getOperands()) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || !t.hasStaticShape() || !t.getElementType().isF32())
      return std::nullopt;
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.back() < 1)
    return std::nullopt;
  MLIRContext *ctx = op.getContext();
  AffineExpr kDim = getAffineDimExpr(loops - 1, ctx);
  // The output: the outer loops in order.
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(init);
  if (outMap.getNumResults() != loops - 1)
    return std::nullopt;
  for (int64_t d = 0; d + 1 < loops; ++d)
    if (outMap.getResult(d) != getAffineDimExpr(d, ctx))
      return std::nullopt;
  // Inputs: any dimensions, the reduced one (if read) innermost.
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (!map.isProjectedPermutation())
      return std::nullopt;
    for (int64_t r = 0; r + 1 < map.getNumResults(); ++r)
      if (map.getResult(r) == kDim)
        return std::nullopt;
  }
  // The body: yield(combine(out, f(inputs))), f elementwise.
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Value outArg = body->getArgument(body->getNumArguments() - 1);
  Operation *combiner = yield.getNumOperands() == 1
                            ? yield.getOperand(0).getDefiningOp()
                            : nullptr;
  if (!combiner || combiner->getBlock() != body ||
      combiner->getNumOperands() != 2 || !outArg.hasOneUse())
    return std::nullopt;
  std::optional<float> neutral = neutralOf(combiner);
  if (!neutral)
    return std::nullopt;
  Value element;
  if (combiner->getOperand(0) == outArg)
    element = combiner->getOperand(1);
  else if (combiner->getOperand(1) == outArg)
    element = combiner->getOperand(0);
  else
    return std::nullopt;
  // (Their operands are f32 / i1 scalars, those from outside the body too.)
  for (Operation &bodyOp : body->without_terminator())
    if (&bodyOp != combiner && !isVectorizableScalarOp(bodyOp))
      return std::nullopt;
  return InnermostReduction{body,     combiner, element,
                            *neutral, init,     std::move(ranges)};
}

/// Builds the reduction of one row (see the file comment).
class RowReduction {
public:
  RowReduction(linalg::LinalgOp op, const InnermostReduction &red, Value zero,
               Value pad, Value neutralVec)
      : op(op), red(red), loc(op.getLoc()), loops(op.getNumLoops()),
        n(red.ranges.back()),
        vecType(VectorType::get({kLanes}, Float32Type::get(op.getContext()))),
        zero(zero), pad(pad), neutralVec(neutralVec) {}

  /// The combined value of the row at the outer loop indices `outer`, and
  /// the output's element there.
  Value reduce(OpBuilder &b, ValueRange outer);

private:
  Value combineIn(OpBuilder &cb, Value x, Value y) {
    OperationState state(loc, red.combiner->getName().getIdentifier(), {x, y},
                         {x.getType()}, red.combiner->getAttrs());
    return cb.create(state)->getResult(0);
  }
  /// An operand's indices (map `map`) for the loop indices, with k at `k`.
  SmallVector<Value> indices(AffineMap map, ValueRange outer, Value k);
  /// The body, without the combiner, on the 8 elements at k; `inBounds`:
  /// k + 8 <= n.
  Value evaluate(OpBuilder &kb, ValueRange outer, Value k, bool inBounds);
  /// The full blocks of kAccumulators vectors: a loop whose results are the
  /// accumulators.
  void accumulateBlocks(OpBuilder &b, ValueRange outer,
                        SmallVectorImpl<Value> &accs);
  /// The remaining full vectors and the last n % 8 elements.
  void accumulateTail(OpBuilder &b, ValueRange outer,
                      SmallVectorImpl<Value> &accs);
  /// Pairwise: (a0 . a1) . (a2 . a3), then halves of the vector.
  Value combineAll(OpBuilder &b, SmallVector<Value> accs);

  linalg::LinalgOp op;
  const InnermostReduction &red;
  Location loc;
  int64_t loops, n;
  VectorType vecType;
  Value zero, pad, neutralVec;
};

SmallVector<Value> RowReduction::indices(AffineMap map, ValueRange outer,
                                         Value k) {
  SmallVector<Value> idx;
  for (AffineExpr e : map.getResults()) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    idx.push_back(static_cast<int64_t>(d) == loops - 1 ? k : outer[d]);
  }
  return idx;
}

Value RowReduction::evaluate(OpBuilder &kb, ValueRange outer, Value k,
                             bool inBounds) {
  IRMapping map;
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap m = op.getMatchingIndexingMap(in);
    Value arg = red.body->getArgument(in->getOperandNumber());
    Value v;
    if (m.isFunctionOfDim(loops - 1))
      v = vector::TransferReadOp::create(kb, loc, vecType, in->get(),
                                         indices(m, outer, k), pad,
                                         ArrayRef<bool>{inBounds});
    else
      v = vector::BroadcastOp::create(
          kb, loc, vecType,
          tensor::ExtractOp::create(kb, loc, in->get(), indices(m, outer, k)));
    map.map(arg, v);
  }
  for (Operation &bodyOp : red.body->without_terminator()) {
    if (&bodyOp == red.combiner)
      continue;
    SmallVector<Value> operands;
    for (Value v : bodyOp.getOperands()) {
      if (Value mapped = map.lookupOrNull(v)) {
        operands.push_back(mapped);
        continue;
      }
      // Defined outside the body: a scalar, broadcast.
      operands.push_back(vector::BroadcastOp::create(
          kb, loc, VectorType::get({kLanes}, v.getType()), v));
    }
    Type result = VectorType::get({kLanes}, bodyOp.getResult(0).getType());
    OperationState state(loc, bodyOp.getName().getIdentifier(), operands,
                         {result}, bodyOp.getAttrs());
    map.map(bodyOp.getResult(0), kb.create(state)->getResult(0));
  }
  if (Value v = map.lookupOrNull(red.element))
    return v;
  // The element is a scalar from outside the body (a constant).
  return vector::BroadcastOp::create(kb, loc, vecType, red.element).getResult();
}

void RowReduction::accumulateBlocks(OpBuilder &b, ValueRange outer,
                                    SmallVectorImpl<Value> &accs) {
  int64_t step = kAccumulators * kLanes;
  int64_t mainEnd = n - n % step;
  if (mainEnd == 0)
    return;
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  SmallVector<Value> neutrals(kAccumulators, neutralVec);
  auto loop = scf::ForOp::create(
      b, loc, zero, index(mainEnd), index(step), neutrals,
      [&](OpBuilder &kb, Location, Value k0, ValueRange iters) {
        SmallVector<Value> next;
        for (int64_t u = 0; u < kAccumulators; ++u) {
          Value k =
              u == 0 ? k0
                     : arith::AddIOp::create(
                           kb, loc, k0,
                           arith::ConstantIndexOp::create(kb, loc, u * kLanes));
          next.push_back(combineIn(kb, iters[u],
                                   evaluate(kb, outer, k, /*inBounds=*/true)));
        }
        scf::YieldOp::create(kb, loc, next);
      });
  accs.assign(loop.getResults().begin(), loop.getResults().end());
}

void RowReduction::accumulateTail(OpBuilder &b, ValueRange outer,
                                  SmallVectorImpl<Value> &accs) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto accumulate = [&](int64_t u, Value v) {
    accs[u] = accs[u] ? combineIn(b, accs[u], v) : v;
  };
  int64_t mainEnd = n - n % (kAccumulators * kLanes);
  int64_t u = 0;
  int64_t fullEnd = n - n % kLanes;
  for (int64_t k = mainEnd; k < fullEnd; k += kLanes, ++u)
    accumulate(u, evaluate(b, outer, index(k), /*inBounds=*/true));
  int64_t rest = n % kLanes;
  if (rest == 0)
    return;
  // Lanes that hold new elements: the last `rest` of a re-read of the last
  // 8, or the first `rest` of a padded read.
  bool reread = n >= kLanes;
  int64_t start = reread ? n - kLanes : fullEnd;
  SmallVector<bool> lanes;
  for (int64_t l = 0; l < kLanes; ++l)
    lanes.push_back(reread ? l >= kLanes - rest : l < rest);
  auto maskType = VectorType::get({kLanes}, b.getI1Type());
  Value mask = arith::ConstantOp::create(
      b, loc, maskType, DenseElementsAttr::get(maskType, lanes));
  Value v = evaluate(b, outer, index(start), /*inBounds=*/reread);
  accumulate(u % kAccumulators,
             arith::SelectOp::create(b, loc, mask, v, neutralVec));
}

Value RowReduction::combineAll(OpBuilder &b, SmallVector<Value> accs) {
  while (accs.size() > 1) {
    SmallVector<Value> pairs;
    for (size_t i = 0; i < accs.size(); i += 2) {
      Value x = accs[i], y = accs[i + 1];
      pairs.push_back(x && y ? combineIn(b, x, y) : x ? x : y);
    }
    accs = std::move(pairs);
  }
  Value total = accs.front();
  for (int64_t width = kLanes / 2; width >= 1; width /= 2) {
    auto half = [&](int64_t offset) -> Value {
      return vector::ExtractStridedSliceOp::create(
          b, loc, total, ArrayRef<int64_t>{offset}, ArrayRef<int64_t>{width},
          ArrayRef<int64_t>{1});
    };
    total = combineIn(b, half(0), half(width));
  }
  return total;
}

Value RowReduction::reduce(OpBuilder &b, ValueRange outer) {
  // Accumulators; null: nothing accumulated yet.
  SmallVector<Value> accs(kAccumulators);
  accumulateBlocks(b, outer, accs);
  accumulateTail(b, outer, accs);
  Value total = combineAll(b, std::move(accs));
  Value scalar = vector::ExtractOp::create(b, loc, total, ArrayRef<int64_t>{0});
  Value before = tensor::ExtractOp::create(b, loc, red.init->get(), outer);
  return combineIn(b, before, scalar);
}

} // namespace

LogicalResult
quantc::float_codegen::lowerInnermostReduction(RewriterBase &rw,
                                               linalg::LinalgOp op) {
  std::optional<InnermostReduction> red = matchInnermostReduction(op);
  if (!red)
    return failure();
  Location loc = op.getLoc();
  rw.setInsertionPoint(op);
  Type f32 = rw.getF32Type();
  auto vecType = VectorType::get({kLanes}, f32);
  Value zero = arith::ConstantIndexOp::create(rw, loc, 0);
  Value pad = arith::ConstantOp::create(rw, loc, rw.getF32FloatAttr(0.0f));
  Value neutralVec = arith::ConstantOp::create(
      rw, loc, vecType, DenseElementsAttr::get(vecType, red->neutral));
  RowReduction row(op, *red, zero, pad, neutralVec);
  int64_t outerRank = op.getNumLoops() - 1;
  OpOperand *init = red->init;

  Value result;
  if (outerRank == 0) {
    Value s = row.reduce(rw, {});
    result = tensor::InsertOp::create(rw, loc, s, init->get(), ValueRange{});
  } else {
    // One row per iteration of a parallel loop over the outer dimensions.
    SmallVector<OpFoldResult> bounds;
    for (int64_t d = 0; d < outerRank; ++d)
      bounds.push_back(rw.getIndexAttr(red->ranges[d]));
    auto forall = scf::ForallOp::create(rw, loc, bounds,
                                        ValueRange{init->get()}, std::nullopt);
    OpBuilder fb = OpBuilder::atBlockBegin(forall.getBody());
    SmallVector<Value> outer(forall.getInductionVars());
    Value s = row.reduce(fb, outer);
    auto one = RankedTensorType::get(SmallVector<int64_t>(outerRank, 1), f32);
    Value element = tensor::FromElementsOp::create(fb, loc, one, s);
    SmallVector<OpFoldResult> offsets(outer.begin(), outer.end());
    SmallVector<OpFoldResult> sizes(outerRank, fb.getIndexAttr(1));
    OpBuilder pb = OpBuilder::atBlockBegin(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(
        pb, loc, element, forall.getRegionIterArgs()[0], offsets, sizes, sizes);
    result = forall.getResult(0);
  }
  rw.replaceOp(op, result);
  return success();
}
