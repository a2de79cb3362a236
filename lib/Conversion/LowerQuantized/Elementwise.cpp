//===- Elementwise.cpp - qnt.add / sub / mul / lookup / requantize, casts -===//
//
// Ops whose result element i depends only on the operands' element i (or,
// broadcasting, on the operand element the index maps to): one loop over
// the flattened buffers, 16 lanes at a time (scf.parallel), then a scalar
// tail; with broadcasting, a loop nest over the leading dimensions around
// that loop. The formulas are quantc::ref's add, mul, lookup,
// concat (one input), quantizeTensor and dequantizeTensor.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Isa/KernelFamily.h"
#include "Patterns.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantParams.h"
#include "quantc/Reference/Reference.h"
#include "quantc/Reference/Requantize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace quantc::lowering;
using mlir::qnt::conv::KernelFamily;
namespace ref = quantc::ref;

namespace {

/// How a broadcasting element-wise op walks its operands: a loop nest over
/// the `outer` result dimensions around one vectorized loop over `inner`
/// contiguous result elements, the longest trailing run of dimensions in
/// which every operand is either full (the result's size) or broadcast
/// (size 1). A full operand loads a vector at offset + iv, a broadcast one
/// loads one element at offset and splats it.
struct BroadcastPlan {
  SmallVector<int64_t> outer;
  /// Row-major dimension of the result each outer loop walks.
  SmallVector<int64_t> outerDims;
  int64_t inner = 1;
  /// Per operand: element stride along each outer loop (0: broadcast).
  SmallVector<SmallVector<int64_t>> outerStrides;
  /// The result's element stride along each outer loop.
  SmallVector<int64_t> resultStrides;
  /// Per operand: full along the inner run.
  SmallVector<bool> innerFull;
};

/// `maxInnerDims` limits the inner run (1: the last dimension only, for
/// per-channel tables).
BroadcastPlan planBroadcast(ArrayRef<ArrayRef<int64_t>> shapes,
                            ArrayRef<int64_t> out, int64_t maxInnerDims) {
  const int64_t rank = static_cast<int64_t>(out.size());
  BroadcastPlan plan;
  // 0: undecided (only size-1 dimensions so far), 1: full, 2: broadcast.
  SmallVector<int> kind(shapes.size(), 0);
  int64_t first = rank; // the inner run is [first, rank)
  for (int64_t d = rank - 1; d >= 0 && rank - d <= maxInnerDims; --d) {
    bool fits = true;
    SmallVector<int> next = kind;
    for (size_t i = 0; i < shapes.size() && out[d] != 1; ++i) {
      int k = shapes[i][d] == out[d] ? 1 : 2;
      if (next[i] != 0 && next[i] != k)
        fits = false;
      next[i] = k;
    }
    if (!fits)
      break;
    kind = next;
    first = d;
  }
  for (int64_t d = first; d < rank; ++d)
    plan.inner *= out[d];
  for (int k : kind)
    plan.innerFull.push_back(k != 2);
  for (int64_t d = 0; d < first; ++d)
    if (out[d] != 1) {
      plan.outer.push_back(out[d]);
      plan.outerDims.push_back(d);
    }
  // Row-major strides along the outer loops; 0 where `shape` broadcasts.
  auto stridesOf = [&](ArrayRef<int64_t> shape) {
    SmallVector<int64_t> strides;
    for (int64_t d : plan.outerDims) {
      int64_t stride = 1;
      for (int64_t e = d + 1; e < rank; ++e)
        stride *= shape[e];
      strides.push_back(shape[d] == 1 ? 0 : stride);
    }
    return strides;
  };
  for (ArrayRef<int64_t> shape : shapes)
    plan.outerStrides.push_back(stridesOf(shape));
  plan.resultStrides = stridesOf(out);
  return plan;
}

} // namespace

/// The lowering of an element-wise op with broadcasting operands (converted
/// tensors of the result's rank): `fn` maps loaded lanes to the result's
/// lanes; `innerIv` is the index within the inner run of the first lane.
static Value
buildBroadcast(OpBuilder &b, Location loc, ValueRange operands,
               RankedTensorType resultType,
               function_ref<Value(Lanes &, ArrayRef<Value>, Value innerIv)> fn,
               int64_t maxInnerDims = INT64_MAX, int64_t vectorLanes = kLanes) {
  SmallVector<ArrayRef<int64_t>> shapes;
  SmallVector<Value> inputs;
  for (Value v : operands) {
    shapes.push_back(cast<RankedTensorType>(v.getType()).getShape());
    inputs.push_back(flatten(b, loc, toBuffer(b, loc, v)));
  }
  BroadcastPlan plan =
      planBroadcast(shapes, resultType.getShape(), maxInnerDims);
  Value result = allocBuffer(b, loc, resultType);
  Value flat = flatten(b, loc, result);
  auto inner = [&](OpBuilder &nb, Location nl, ValueRange ivs) {
    // Offsets of the operands and of the result at the outer position
    // (null: 0).
    auto offset = [&](ArrayRef<int64_t> strides) -> Value {
      Value sum;
      for (auto [iv, stride] : llvm::zip(ivs, strides)) {
        if (stride == 0)
          continue;
        Value term = stride == 1 ? iv
                                 : arith::MulIOp::create(nb, nl, iv,
                                                         index(nb, nl, stride))
                                       .getResult();
        sum = sum ? arith::AddIOp::create(nb, nl, sum, term).getResult() : term;
      }
      return sum;
    };
    SmallVector<Value> bases;
    for (const SmallVector<int64_t> &strides : plan.outerStrides)
      bases.push_back(offset(strides));
    Value resultBase = offset(plan.resultStrides);
    auto at = [&](OpBuilder &cb, Location cl, Value base, Value iv) -> Value {
      return base ? arith::AddIOp::create(cb, cl, base, iv).getResult() : iv;
    };
    forEachChunk(
        nb, nl, index(nb, nl, 0), plan.inner,
        [&](OpBuilder &cb, Location cl, Value iv, int64_t lanes) {
          Lanes l(cb, cl, lanes);
          SmallVector<Value> loaded;
          for (auto [in, base, full] :
               llvm::zip(inputs, bases, plan.innerFull)) {
            if (full) {
              loaded.push_back(l.load(in, at(cb, cl, base, iv)));
            } else {
              Value one = memref::LoadOp::create(
                  cb, cl, in, base ? base : index(cb, cl, 0));
              loaded.push_back(l.splat(one));
            }
          }
          l.store(fn(l, loaded, iv), flat, at(cb, cl, resultBase, iv));
        },
        /*parallel=*/plan.outer.empty(), vectorLanes);
  };
  if (plan.outer.empty())
    inner(b, loc, {});
  else
    loopNest(b, loc, plan.outer, inner, /*parallel=*/true);
  return toTensor(b, loc, result);
}

/// The lowering of an element-wise op on operands of the result's shape.
static Value
buildElementwise(OpBuilder &b, Location loc, ValueRange operands,
                 RankedTensorType resultType,
                 function_ref<Value(Lanes &, ArrayRef<Value>)> fn) {
  return buildBroadcast(
      b, loc, operands, resultType,
      [&](Lanes &l, ArrayRef<Value> v, Value) { return fn(l, v); });
}

/// `x - zeroPoint` on extended storage values.
static Value centered(Lanes &l, Value v, const QInfo &q) {
  Value x = l.extend(v, q.isSigned);
  if (q.zeroPoint == 0)
    return x;
  return arith::SubIOp::create(l.builder(), l.location(), x,
                               l.i32(q.zeroPoint));
}

namespace {

/// qnt.add / qnt.sub: requantize2 of both centered operands (the right
/// one's multiplier negated for sub); qnt.mul: requantize of the product.
template <typename OpTy> struct BinaryLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<QInfo> a = getQInfo(op.getLhs().getType());
    std::optional<QInfo> c = getQInfo(op.getRhs().getType());
    std::optional<QInfo> out = getQInfo(op.getOutput().getType());
    if (!a || !c || !out)
      return rewriter.notifyMatchFailure(op, "needs per-tensor 8-bit types");
    const ref::Activation act = mlir::qnt::refActivation(op.getActivation());
    ref::Bounds bounds = ref::activationBounds(
        act, 0.0f, 0.0f, out->scale, out->zeroPoint, out->qmin, out->qmax);
    constexpr bool isMul = std::is_same_v<OpTy, mlir::qnt::MulOp>;
    const float ma =
        isMul ? ref::requantMultiplier(a->scale, c->scale, out->scale)
              : ref::requantMultiplier(a->scale, 1.0f, out->scale);
    float mc = ref::requantMultiplier(c->scale, 1.0f, out->scale);
    if (std::is_same_v<OpTy, mlir::qnt::SubOp>)
      mc = -mc;
    auto type = cast<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getOutput().getType()));
    Value result = buildBroadcast(
        rewriter, op.getLoc(), {adaptor.getLhs(), adaptor.getRhs()}, type,
        [&](Lanes &l, ArrayRef<Value> v, Value) {
          // One statement per op: the IR order does not depend on the C++
          // compiler's argument evaluation order.
          if constexpr (isMul) {
            Value x = centered(l, v[0], *a);
            Value y = centered(l, v[1], *c);
            Value product =
                arith::MulIOp::create(l.builder(), l.location(), x, y);
            Value m = l.f32(ma);
            return l.narrow(
                l.requantize(product, m, out->zeroPoint, bounds.lo, bounds.hi));
          }
          Value x = centered(l, v[0], *a);
          Value mx = l.f32(ma);
          Value y = centered(l, v[1], *c);
          Value my = l.f32(mc);
          return l.narrow(l.requantize2(x, mx, y, my, out->zeroPoint, bounds.lo,
                                        bounds.hi));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// qnt.lookup. A per-tensor table where the kernel family has byte
/// shuffles (x86, AArch64): its 256 output bytes applied with them
/// (KernelFamily::lookup), 32 or 16 lanes at a time.
/// Otherwise (per-channel tables, the portable code) the table is a constant
/// global of i32 entries read with a vector gather (LLVM loads the lanes
/// one by one where gathers are slow or missing). Scalar tails load the
/// i32 entry.
struct LookupLowering : OpConversionPattern<mlir::qnt::LookupOp> {
  LookupLowering(TypeConverter &typeConverter, MLIRContext *ctx,
                 const KernelFamily &family)
      : OpConversionPattern(typeConverter, ctx), family(family) {}
  LogicalResult
  matchAndRewrite(mlir::qnt::LookupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<QInfo> in = getQInfo(op.getInput().getType());
    std::optional<QInfo> out = getQInfo(op.getOutput().getType());
    if (!in || !out)
      return rewriter.notifyMatchFailure(op, "needs per-tensor 8-bit types");
    Location loc = op.getLoc();
    ArrayRef<int32_t> entries = op.getTable();
    const bool perChannel = entries.size() != ref::kTableSize;
    auto tableType = RankedTensorType::get(
        {static_cast<int64_t>(entries.size())}, rewriter.getI32Type());
    Value table = globalConstant(rewriter, loc, "__qnt_table",
                                 DenseIntElementsAttr::get(tableType, entries));
    int64_t shuffle = perChannel ? 0 : family.lookupLanes();
    SmallVector<int8_t> bytes;
    if (shuffle)
      for (int32_t e : entries)
        bytes.push_back(static_cast<int8_t>(static_cast<uint8_t>(e & 0xFF)));
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getOutput().getType()));
    Value result = buildBroadcast(
        rewriter, loc, {adaptor.getInput()}, type,
        [&](Lanes &l, ArrayRef<Value> v, Value channel) {
          OpBuilder &b = l.builder();
          Location nl = l.location();
          if (shuffle && isa<VectorType>(v[0].getType()))
            return family.lookup(b, nl, v[0], in->isSigned, bytes);
          // Entry of storage value q: q - storageMin.
          Value k = l.extend(v[0], in->isSigned);
          if (in->isSigned)
            k = arith::AddIOp::create(b, nl, k, l.i32(128));
          if (perChannel) {
            // + 256 * (channel of each lane).
            Value c =
                arith::IndexCastOp::create(b, nl, b.getI32Type(), channel);
            Value lanesC = l.splat(c);
            if (auto vt = dyn_cast<VectorType>(k.getType())) {
              SmallVector<int32_t> steps(vt.getNumElements());
              for (size_t i = 0; i < steps.size(); ++i)
                steps[i] = static_cast<int32_t>(i);
              Value step = arith::ConstantOp::create(
                  b, nl, DenseIntElementsAttr::get(vt, ArrayRef(steps)));
              lanesC = arith::AddIOp::create(b, nl, lanesC, step);
            }
            Value offset = arith::MulIOp::create(
                b, nl, lanesC, l.i32(static_cast<int32_t>(ref::kTableSize)));
            k = arith::AddIOp::create(b, nl, k, offset);
          }
          Value entry;
          if (auto vt = dyn_cast<VectorType>(k.getType())) {
            auto mask = arith::ConstantOp::create(
                b, nl,
                DenseElementsAttr::get(
                    VectorType::get(vt.getShape(), b.getI1Type()), true));
            entry = vector::GatherOp::create(b, nl, vt, table,
                                             ValueRange{index(b, nl, 0)}, k,
                                             mask, l.i32(0));
          } else {
            Value i = arith::IndexCastOp::create(b, nl, b.getIndexType(), k);
            entry = memref::LoadOp::create(b, nl, table, ValueRange{i});
          }
          return l.narrow(entry);
        },
        /*maxInnerDims=*/perChannel ? 1 : INT64_MAX,
        /*vectorLanes=*/shuffle ? shuffle : kLanes);
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  const KernelFamily &family;
};

/// qnt.channel_affine: the per-channel multipliers and offsets as constant
/// globals, loaded at the lanes' channels (runs of channels are the inner
/// loop); then quantc::ref::channelAffine's requantize2 with the constant 1.
struct ChannelAffineLowering : OpConversionPattern<mlir::qnt::ChannelAffineOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(mlir::qnt::ChannelAffineOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<QInfo> in = getQInfo(op.getInput().getType());
    std::optional<QInfo> out = getQInfo(op.getOutput().getType());
    if (!in || !out)
      return rewriter.notifyMatchFailure(op, "needs per-tensor 8-bit types");
    std::optional<APFloat> lo = op.getClampMin(), hi = op.getClampMax();
    ref::Bounds bounds = ref::activationBounds(
        mlir::qnt::refActivation(op.getActivation()),
        lo ? lo->convertToFloat() : 0.0f, hi ? hi->convertToFloat() : 0.0f,
        out->scale, out->zeroPoint, out->qmin, out->qmax);
    if (bounds.lo > bounds.hi)
      return op->emitError() << "int8 lowering: the clamp range misses the "
                                "output's quantized range";
    Location loc = op.getLoc();
    auto constants = [&](ArrayRef<float> values) {
      auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                        rewriter.getF32Type());
      return globalConstant(rewriter, loc, "__qnt_channel_affine",
                            DenseElementsAttr::get(type, values));
    };
    Value multipliers = constants(op.getMultiplier());
    Value offsets = constants(op.getOffset());
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getOutput().getType()));
    Value result = buildBroadcast(
        rewriter, loc, {adaptor.getInput()}, type,
        [&](Lanes &l, ArrayRef<Value> v, Value channel) {
          Value x = centered(l, v[0], *in);
          Value m = l.load(multipliers, {channel});
          Value one = l.i32(1);
          Value o = l.load(offsets, {channel});
          return l.narrow(l.requantize2(x, m, one, o, out->zeroPoint, bounds.lo,
                                        bounds.hi));
        },
        /*maxInnerDims=*/1);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct RequantizeLowering : OpConversionPattern<mlir::qnt::RequantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(mlir::qnt::RequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<QInfo> in = getQInfo(op.getInput().getType());
    std::optional<QInfo> out = getQInfo(op.getOutput().getType());
    if (!in || !out)
      return rewriter.notifyMatchFailure(op, "needs per-tensor 8-bit types");
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getOutput().getType()));
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getInput()}, type,
        [&](Lanes &l, ArrayRef<Value> v) {
          return l.narrow(l.rescale(l.extend(v[0], in->isSigned), *in, *out));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct QuantizeCastLowering : OpConversionPattern<quant::QuantizeCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(quant::QuantizeCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<QInfo> out = getQInfo(op.getResult().getType());
    auto inType = dyn_cast<RankedTensorType>(op.getInput().getType());
    if (!out || !inType || !inType.getElementType().isF32())
      return rewriter.notifyMatchFailure(
          op, "needs an f32 tensor and a per-tensor 8-bit type");
    // quantizeUnclamped multiplies by the float32 reciprocal.
    const float invScale = 1.0f / out->scale;
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getInput()}, type,
        [&](Lanes &l, ArrayRef<Value> v) {
          Value x = arith::MulFOp::create(l.builder(), l.location(), v[0],
                                          l.f32(invScale));
          return l.narrow(l.roundClampShift(x, out->zeroPoint, out->qmin,
                                            out->qmax, /*nanToZero=*/true));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DequantizeCastLowering : OpConversionPattern<quant::DequantizeCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(quant::DequantizeCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<QInfo> in = getQInfo(op.getInput().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getResult().getType());
    if (!in || !outType || !outType.getElementType().isF32())
      return rewriter.notifyMatchFailure(
          op, "needs a per-tensor 8-bit type and an f32 tensor");
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getInput()}, outType,
        [&](Lanes &l, ArrayRef<Value> v) {
          Value x = l.toFloat(centered(l, v[0], *in));
          Value scale = l.f32(in->scale);
          return arith::MulFOp::create(l.builder(), l.location(), x, scale)
              .getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void quantc::lowering::populateElementwisePatterns(TypeConverter &typeConverter,
                                                   RewritePatternSet &patterns,
                                                   quantc::Int8Isa isa) {
  patterns
      .add<BinaryLowering<mlir::qnt::AddOp>, BinaryLowering<mlir::qnt::SubOp>,
           BinaryLowering<mlir::qnt::MulOp>, ChannelAffineLowering,
           RequantizeLowering, QuantizeCastLowering, DequantizeCastLowering>(
          typeConverter, patterns.getContext());
  patterns.add<LookupLowering>(typeConverter, patterns.getContext(),
                               KernelFamily::of(quantc::getInfo(isa)));
}
