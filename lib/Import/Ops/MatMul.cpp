//===- MatMul.cpp - Gemm, MatMul and Einsum -------------------------------===//
//
// Fully connected layers and matrix products, all one tosa.matmul on
// [B, M, K] x [B, K, N]: Gemm and MatMul with a constant weight (transposed
// at import time to [K, N]; a bias folds in), MatMul of two activations
// (attention: the leading dimensions broadcast and flattened into B), and
// Einsum of one or two operands as a matmul.
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"
#include "Common.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

#include <cmath>
#include <map>
#include <optional>

using namespace mlir;
using namespace quantc::onnx_import;

namespace {

/// tosa.matmul of f32 `lhs` [B, M, K] and `rhs` [B, K, N] (zero points 0),
/// of type [B, M, N]: what MatMul, Gemm and Einsum all become.
Value matMul(NodeImporter &n, Value lhs, Value rhs) {
  ArrayRef<int64_t> l = cast<RankedTensorType>(lhs.getType()).getShape(),
                    r = cast<RankedTensorType>(rhs.getType()).getShape();
  Value zp = n.constant({1}, {0.0f});
  return tosa::MatMulOp::create(n.builder(), n.f32({l[0], l[1], r[2]}), lhs,
                                rhs, zp, zp);
}

/// `a [..., M, K] x b [..., K, N]` of two activations (attention's Q x K^T
/// and scores x V) as tosa.matmul on [B, M, K] x [B, K, N], the leading
/// dimensions broadcast (NumPy's matmul) and flattened into B.
FailureOr<Act> batchMatMul(NodeImporter &n, const Act &a, const Act &bAct) {
  SmallVector<int64_t> aShape = a.onnxShape(), bShape = bAct.onnxShape();
  if (aShape.size() < 2 || bShape.size() < 2)
    return n.emitError() << "a matmul of two activations needs inputs of rank "
                            ">= 2";
  int64_t m = aShape[aShape.size() - 2], k = aShape.back(),
          nOut = bShape.back();
  if (bShape[bShape.size() - 2] != k)
    return n.emitError() << "input shapes do not match: [..., " << m << ", "
                         << k << "] x [..., " << bShape[bShape.size() - 2]
                         << ", " << nOut << "]";
  // The broadcast leading (batch) dimensions.
  int64_t rank = std::max(aShape.size(), bShape.size());
  SmallVector<int64_t> aLead(rank - aShape.size(), 1),
      bLead(rank - bShape.size(), 1), lead;
  aLead.append(aShape.begin(), aShape.end() - 2);
  bLead.append(bShape.begin(), bShape.end() - 2);
  int64_t batch = 1;
  for (auto [da, db] : llvm::zip(aLead, bLead)) {
    if (da != db && da != 1 && db != 1)
      return n.emitError() << "the leading dimensions do not broadcast";
    lead.push_back(std::max(da, db));
    batch *= lead.back();
  }
  ImplicitLocOpBuilder &b = n.builder();
  // `x` ([..., rows, cols] with leading dimensions `xLead`) as
  // [batch, rows, cols], tiled where its leading dimensions broadcast.
  auto operand = [&](const Act &x, ArrayRef<int64_t> xLead, int64_t rows,
                     int64_t cols) {
    SmallVector<int64_t> full(xLead);
    full.append({rows, cols});
    Value v = n.reshape(n.onnxOrder(x), full);
    if (ArrayRef<int64_t>(xLead) != ArrayRef<int64_t>(lead)) {
      SmallVector<int64_t> multiples, tiled;
      for (auto [d, l] : llvm::zip(xLead, lead)) {
        multiples.push_back(l / d);
        tiled.push_back(l);
      }
      multiples.append({1, 1});
      tiled.append({rows, cols});
      v = tosa::TileOp::create(b, n.f32(tiled), v,
                               tosa::getTosaConstShape(b, multiples));
    }
    return n.reshape(v, {batch, rows, cols});
  };
  Value result =
      matMul(n, operand(a, aLead, m, k), operand(bAct, bLead, k, nOut));
  SmallVector<int64_t> outShape(lead);
  outShape.append({m, nOut});
  return Act{n.reshape(result, outShape), identityLayout(rank)};
}

/// `a [M, K] x w [K, N] (+ c)` as tosa.matmul on [1, M, K] x [1, K, N]; a
/// higher-rank `a` ([..., K], MatMul) is M = the product of its leading
/// dimensions.
LogicalResult linear(NodeImporter &n, bool isMatMul) {
  if (failed(n.checkArity(2, isMatMul ? 2 : 3)))
    return failure();
  FailureOr<Act> a = n.act(0);
  if (failed(a))
    return failure();
  if (!isMatMul) {
    FailureOr<bool> transA = n.boolAttr("transA", false);
    if (failed(transA))
      return failure();
    // Gemm's A^T: the two dimensions swap places in the layout.
    if (*transA && a->rank() == 2)
      a->layout = {1 - a->layout[0], 1 - a->layout[1]};
  }
  SmallVector<int64_t> aShape = a->onnxShape();
  if (!isMatMul && aShape.size() != 2)
    return n.emitError() << "input must be 2-D (flatten first)";
  if (aShape.size() < 2)
    return n.emitError() << "input must have rank >= 2";
  if (isMatMul && n.isActivation(1)) {
    FailureOr<Act> b = n.act(1);
    if (failed(b))
      return failure();
    FailureOr<Act> product = batchMatMul(n, *a, *b);
    return failed(product) ? failure() : n.setOutput(*product);
  }
  const PendingQuant *qdq;
  const ConstTensor *w = weight(n, 1, qdq);
  if (!w)
    return failure();
  // MatMul's 1-D weight [K] is NumPy's matrix-vector product: a [K, 1]
  // weight whose output dimension is then dropped (PicoDet's distribution
  // integral: softmax [..., R + 1] x arange(R + 1)).
  bool vectorB = isMatMul && w->dims.size() == 1;
  ConstTensor wVector;
  if (vectorB) {
    if (qdq && qdq->scales.size() > 1)
      return n.emitError() << "a 1-D weight cannot be quantized per axis";
    wVector = *w;
    wVector.dims = {w->dims[0], 1};
    w = &wVector;
  }
  if (w->dims.size() != 2)
    return n.emitError() << "weight must be a 2-D constant";
  bool transB = false;
  float alpha = 1.0f, beta = 1.0f;
  const ConstTensor *c = nullptr;
  if (!isMatMul) {
    FailureOr<bool> tb = n.boolAttr("transB", false);
    FailureOr<float> al = n.floatAttr("alpha", 1.0f),
                     be = n.floatAttr("beta", 1.0f);
    FailureOr<const ConstTensor *> cc = n.optionalConstant(2);
    if (failed(tb) || failed(al) || failed(be) || failed(cc))
      return failure();
    if (*al != 1.0f && qdq)
      return n.emitError() << "alpha must be 1 for a quantized weight";
    transB = *tb;
    alpha = *al;
    beta = *be;
    c = *cc;
  }
  ConstTensor kn = transB ? w->permuted({1, 0}) : *w;
  int64_t k = aShape.back(), nOut = kn.dims[1], m = 1;
  for (size_t d = 0; d + 1 < aShape.size(); ++d)
    m *= aShape[d];
  if (kn.dims[0] != k)
    return n.emitError() << "weight shape does not match the input";
  // alpha folds into the weight (one rounding instead of two), unless a
  // product leaves float32's range, where alpha * (A B) may not: then it
  // multiplies the result.
  bool scaleResult = false;
  if (alpha != 1.0f) {
    ConstTensor scaled = kn;
    for (double &v : scaled.data)
      v = roundToFloat32(v * alpha);
    for (size_t i = 0; i < kn.data.size() && !scaleResult; ++i)
      scaleResult = std::isfinite(kn.data[i]) &&
                    (std::isinf(scaled.data[i]) ||
                     (scaled.data[i] == 0.0 && kn.data[i] != 0.0));
    if (!scaleResult)
      kn = std::move(scaled);
  }
  kn.dims.insert(kn.dims.begin(), 1);
  Value weightValue = n.constant(kn);
  if (qdq) {
    // The quantized ONNX axis must be the output feature (N) axis.
    int64_t nAxis = transB ? 0 : 1;
    if (qdq->scales.size() > 1 && qdq->axis != nAxis)
      return n.emitError() << "per-axis weight quantization must be along the "
                              "output features";
    weightValue =
        fakeQuant(n, weightValue, quantType(n, *qdq, 2), n.inputName(1));
  }
  ImplicitLocOpBuilder &b = n.builder();
  Value result = matMul(n, n.reshape(n.onnxOrder(*a), {1, m, k}), weightValue);
  if (scaleResult)
    result = n.mul(result, n.splat(alpha, 3), result.getType());
  if (c) {
    ConstTensor bias = *c;
    if (beta != 1.0f)
      for (double &v : bias.data)
        v = static_cast<float>(v * beta);
    if (bias.numElements() == nOut)
      bias.dims = {1, 1, nOut};
    else if (bias.numElements() == m * nOut)
      bias.dims = {1, m, nOut};
    else if (bias.numElements() == 1)
      bias = ConstTensor{{1, 1, nOut}, std::vector<double>(nOut, bias.data[0])};
    else
      return n.emitError() << "bias shape does not broadcast to the output";
    result =
        tosa::AddOp::create(b, n.f32({1, m, nOut}), result, n.constant(bias));
  }
  SmallVector<int64_t> outShape(aShape.begin(), aShape.end() - 1);
  if (!vectorB)
    outShape.push_back(nOut);
  Act flat{n.reshape(result, {m, nOut}), identityLayout(2)};
  return n.setOutput(n.reshapeAct(flat, outShape));
}

LogicalResult gemm(NodeImporter &n) { return linear(n, /*isMatMul=*/false); }
LogicalResult matMul(NodeImporter &n) { return linear(n, /*isMatMul=*/true); }

/// Einsum's subscripts: per operand, then for the output, one label per
/// dimension: a letter's character code, or kEllipsis + i for the i-th of
/// the broadcast dimensions an ellipsis stands for (right-aligned across
/// the operands, as NumPy aligns them).
struct Subscripts {
  static constexpr int kEllipsis = 1000;
  SmallVector<SmallVector<int>, 2> operands;
  SmallVector<int> output;
};

/// Parses `equation` ("ij,jk->ik", spaces ignored, "..." at most once per
/// term; without "->" the output is the ellipsis, then the letters that
/// occur once, in ASCII order) for operands of ranks `ranks`.
FailureOr<Subscripts> parseEinsum(NodeImporter &n, StringRef equation,
                                  ArrayRef<int64_t> ranks) {
  std::string eq;
  for (char c : equation)
    if (!llvm::isSpace(c))
      eq.push_back(c);
  StringRef text(eq);
  auto [lhs, rhs] = text.split("->");
  bool explicitOutput = text.contains("->");
  if (rhs.contains("->"))
    return n.emitError() << "equation '" << equation
                         << "' has more than one '->'";
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != ranks.size())
    return n.emitError() << "equation '" << equation << "' has " << terms.size()
                         << " operand term(s) for " << ranks.size()
                         << " input(s)";
  // A term's letters and whether (and where) it has an ellipsis.
  struct Term {
    SmallVector<int> letters;
    int ellipsisAt = -1;
  };
  auto parseTerm = [&](StringRef t) -> FailureOr<Term> {
    Term term;
    for (size_t i = 0; i < t.size();) {
      if (t.substr(i).starts_with("...")) {
        if (term.ellipsisAt >= 0)
          return n.emitError() << "term '" << t << "' of equation '" << equation
                               << "' has two ellipses";
        term.ellipsisAt = term.letters.size();
        i += 3;
        continue;
      }
      if (!llvm::isAlpha(t[i]))
        return n.emitError()
               << "equation '" << equation << "' has the invalid subscript '"
               << t[i] << "' (letters and '...' only)";
      int label = static_cast<unsigned char>(t[i++]);
      if (llvm::is_contained(term.letters, label))
        return n.emitError() << "term '" << t << "' of equation '" << equation
                             << "' repeats '" << static_cast<char>(label)
                             << "' (a diagonal), which is not supported";
      term.letters.push_back(label);
    }
    return term;
  };
  SmallVector<Term, 2> parsed;
  int64_t broadcastRank = 0;
  for (auto [t, rank] : llvm::zip(terms, ranks)) {
    FailureOr<Term> term = parseTerm(t);
    if (failed(term))
      return failure();
    int64_t letters = term->letters.size();
    if (term->ellipsisAt < 0 ? letters != rank : letters > rank)
      return n.emitError() << "term '" << t << "' of equation '" << equation
                           << "' does not match an input of rank " << rank;
    if (term->ellipsisAt >= 0)
      broadcastRank = std::max(broadcastRank, rank - letters);
    parsed.push_back(*term);
  }
  auto expand = [&](const Term &term, int64_t ellipsisDims) {
    SmallVector<int> labels(term.letters.begin(), term.letters.end());
    if (term.ellipsisAt >= 0) {
      SmallVector<int> dots;
      for (int64_t i = broadcastRank - ellipsisDims; i < broadcastRank; ++i)
        dots.push_back(Subscripts::kEllipsis + i);
      labels.insert(labels.begin() + term.ellipsisAt, dots.begin(), dots.end());
    }
    return labels;
  };
  Subscripts result;
  for (auto [term, rank] : llvm::zip(parsed, ranks))
    result.operands.push_back(
        expand(term, rank - static_cast<int64_t>(term.letters.size())));
  if (explicitOutput) {
    FailureOr<Term> term = parseTerm(rhs);
    if (failed(term))
      return failure();
    for (int label : term->letters)
      if (llvm::none_of(result.operands, [&](ArrayRef<int> labels) {
            return llvm::is_contained(labels, label);
          }))
        return n.emitError()
               << "output subscript '" << static_cast<char>(label)
               << "' of equation '" << equation << "' is in no operand";
    result.output = expand(*term, broadcastRank);
  } else {
    for (int64_t i = 0; i < broadcastRank; ++i)
      result.output.push_back(Subscripts::kEllipsis + i);
    std::map<int, int> counts;
    for (const Term &term : parsed)
      for (int label : term.letters)
        ++counts[label];
    for (auto [label, count] : counts)
      if (count == 1)
        result.output.push_back(label);
  }
  return result;
}

/// `x` (ONNX dimensions labelled `labels`) with its dimensions in the order
/// `order` (a permutation of `labels`): a layout change, as Transpose.
Act permuteAct(Act x, ArrayRef<int> labels, ArrayRef<int> order) {
  int64_t rank = labels.size();
  SmallVector<int64_t> inverse(rank);
  for (int64_t j = 0; j < rank; ++j)
    inverse[llvm::find(labels, order[j]) - labels.begin()] = j;
  for (int64_t &d : x.layout)
    d = inverse[d];
  return x;
}

/// An Einsum operand: an activation or a constant, its labels and sizes.
struct EinsumOperand {
  std::optional<Act> act;
  const ConstTensor *weight = nullptr;
  SmallVector<int> labels;
  SmallVector<int64_t> shape;
};

/// The size of every subscript label.
using LabelSizes = std::map<int, int64_t>;

bool hasLabel(ArrayRef<int> labels, int label) {
  return llvm::is_contained(labels, label);
}

/// The product of the sizes of `labels`.
int64_t labelProduct(const LabelSizes &sizes, ArrayRef<int> labels) {
  int64_t p = 1;
  for (int label : labels)
    p *= sizes.at(label);
  return p;
}

/// The sizes of `labels`, a shape.
SmallVector<int64_t> labelShape(const LabelSizes &sizes, ArrayRef<int> labels) {
  SmallVector<int64_t> shape;
  for (int label : labels)
    shape.push_back(sizes.at(label));
  return shape;
}

SmallVector<int> concatLabels(std::initializer_list<ArrayRef<int>> parts) {
  SmallVector<int> all;
  for (ArrayRef<int> p : parts)
    all.append(p.begin(), p.end());
  return all;
}

/// The node's inputs as Einsum operands (labels still unset).
FailureOr<SmallVector<EinsumOperand, 2>> readEinsumOperands(NodeImporter &n) {
  SmallVector<EinsumOperand, 2> ops(n.numInputs());
  for (int i = 0; i < n.numInputs(); ++i) {
    if (n.isActivation(i)) {
      FailureOr<Act> a = n.act(i);
      if (failed(a))
        return failure();
      ops[i].act = *a;
      ops[i].shape = a->onnxShape();
    } else {
      ops[i].weight = n.constant(i);
      if (!ops[i].weight)
        return failure();
      ops[i].shape.assign(ops[i].weight->dims.begin(),
                          ops[i].weight->dims.end());
    }
  }
  return ops;
}

/// Labels each operand with its subscripts and returns the size of every
/// label; one label of two sizes is an error.
FailureOr<LabelSizes> labelOperands(NodeImporter &n, StringRef equation,
                                    const Subscripts &subs,
                                    MutableArrayRef<EinsumOperand> ops) {
  LabelSizes sizes;
  for (auto [op, labels] : llvm::zip(ops, subs.operands)) {
    op.labels = labels;
    for (auto [label, size] : llvm::zip(labels, op.shape)) {
      auto [it, inserted] = sizes.try_emplace(label, size);
      if (!inserted && it->second != size) {
        InFlightDiagnostic d = n.emitError()
                               << "equation '" << equation << "' gives ";
        if (label < Subscripts::kEllipsis)
          d << "subscript '" << static_cast<char>(label) << "'";
        else
          d << "a dimension of '...'";
        return d << " the sizes " << it->second << " and " << size
                 << " (broadcasting is not supported)";
      }
    }
  }
  return sizes;
}

/// Sums the dimensions of each operand that no other operand and not the
/// output `out` has.
LogicalResult sumOwnSubscripts(NodeImporter &n,
                               MutableArrayRef<EinsumOperand> ops,
                               ArrayRef<int> out) {
  ImplicitLocOpBuilder &b = n.builder();
  for (auto [i, op] : llvm::enumerate(ops)) {
    SmallVector<int> kept;
    SmallVector<int64_t> keptShape;
    for (auto [label, size] : llvm::zip(op.labels, op.shape)) {
      bool elsewhere = hasLabel(out, label);
      for (auto [j, other] : llvm::enumerate(ops))
        elsewhere |= j != i && hasLabel(other.labels, label);
      if (elsewhere) {
        kept.push_back(label);
        keptShape.push_back(size);
      }
    }
    if (kept.size() == op.labels.size())
      continue;
    if (!op.act)
      return n.emitError() << "summing a subscript of a constant operand is "
                              "not supported (fold it when exporting)";
    Value v = n.onnxOrder(*op.act);
    SmallVector<int64_t> shape(op.shape);
    for (auto [d, label] : llvm::enumerate(op.labels)) {
      if (hasLabel(kept, label))
        continue;
      shape[d] = 1;
      v = tosa::ReduceSumOp::create(b, n.f32(shape), v, b.getI32IntegerAttr(d));
    }
    op.act = Act{n.reshape(v, keptShape), identityLayout(kept.size())};
    op.labels = kept;
    op.shape = keptShape;
  }
  return success();
}

/// The product of two operands as one matmul, labelled [batch, M, N] in
/// `resultLabels`; a constant operand goes second, as a matmul weight.
FailureOr<Act> einsumProduct(NodeImporter &n,
                             MutableArrayRef<EinsumOperand> ops,
                             ArrayRef<int> out, const LabelSizes &sizes,
                             SmallVector<int> &resultLabels) {
  if (!ops[0].act)
    std::swap(ops[0], ops[1]);
  const EinsumOperand &a = ops[0], &w = ops[1];
  SmallVector<int> batch, m, k, nOut;
  for (int label : out)
    if (hasLabel(a.labels, label) && hasLabel(w.labels, label))
      batch.push_back(label);
    else if (hasLabel(a.labels, label))
      m.push_back(label);
    else if (hasLabel(w.labels, label))
      nOut.push_back(label);
  for (int label : a.labels)
    if (hasLabel(w.labels, label) && !hasLabel(out, label))
      k.push_back(label);
  int64_t bt = labelProduct(sizes, batch), mt = labelProduct(sizes, m),
          kt = labelProduct(sizes, k), nt = labelProduct(sizes, nOut);
  Act lhs = n.reshapeAct(
      permuteAct(*a.act, a.labels, concatLabels({batch, m, k})), {bt, mt, kt});
  Act result;
  if (w.act) {
    Act rhs = n.reshapeAct(
        permuteAct(*w.act, w.labels, concatLabels({batch, k, nOut})),
        {bt, kt, nt});
    FailureOr<Act> p = batchMatMul(n, lhs, rhs);
    if (failed(p))
      return failure();
    result = *p;
  } else {
    if (!batch.empty())
      return n.emitError() << "a constant Einsum operand with batch "
                              "subscripts is not supported";
    SmallVector<int64_t> perm;
    for (int label : concatLabels({k, nOut}))
      perm.push_back(llvm::find(w.labels, label) - w.labels.begin());
    ConstTensor kn = w.weight->permuted(perm);
    kn.dims = {1, kt, nt};
    result =
        Act{matMul(n, n.onnxOrder(lhs), n.constant(kn)), identityLayout(3)};
  }
  resultLabels = concatLabels({batch, m, nOut});
  return n.reshapeAct(result, labelShape(sizes, resultLabels));
}

/// Einsum (opset 12) of one or two operands. Two operands are one matmul:
/// the batch subscripts (in both operands and the output), the first
/// operand's own output subscripts (M), the contracted ones (K: in both,
/// not in the output) and the second's own (N); the operands are permuted
/// and reshaped to [B, M, K] x [B, K, N], and the product back. A subscript
/// of one operand only that the output drops is summed first. A constant
/// operand without batch subscripts is a linear layer's weight, as MatMul's
/// [K, N]. Not supported: diagonals (a repeated subscript), broadcasting a
/// size-1 dimension, three or more operands.
LogicalResult einsum(NodeImporter &n) {
  if (failed(n.checkArity(1, 2)))
    return failure();
  FailureOr<std::string> equation = n.stringAttr("equation", "");
  if (failed(equation))
    return failure();
  if (equation->empty())
    return n.emitError() << "the equation attribute is required";
  FailureOr<SmallVector<EinsumOperand, 2>> ops = readEinsumOperands(n);
  if (failed(ops))
    return failure();
  SmallVector<int64_t, 2> ranks;
  for (const EinsumOperand &op : *ops)
    ranks.push_back(op.shape.size());
  FailureOr<Subscripts> subs = parseEinsum(n, *equation, ranks);
  if (failed(subs))
    return failure();
  FailureOr<LabelSizes> sizes = labelOperands(n, *equation, *subs, *ops);
  if (failed(sizes))
    return failure();
  if (llvm::all_of(*ops, [](const EinsumOperand &op) { return !op.act; }))
    return n.emitError() << "an Einsum of constants is not supported (fold "
                            "it when exporting)";
  ArrayRef<int> out = subs->output;
  if (failed(sumOwnSubscripts(n, *ops, out)))
    return failure();
  SmallVector<int> resultLabels;
  Act result;
  if (ops->size() == 1) {
    result = *(*ops)[0].act;
    resultLabels = (*ops)[0].labels;
  } else {
    FailureOr<Act> product = einsumProduct(n, *ops, out, *sizes, resultLabels);
    if (failed(product))
      return failure();
    result = *product;
  }
  return n.setOutput(permuteAct(result, resultLabels, out));
}

} // namespace

void quantc::onnx_import::registerMatMulOps(OpRegistry &r) {
  r.add("Gemm", gemm);
  r.add("MatMul", matMul);
  r.add("Einsum", einsum, 12);
}
