//===- IntegerOps.cpp - ONNX Runtime's dynamically quantized models -------===//
//
// ONNX Runtime's quantize_dynamic writes DynamicQuantizeLinear ->
// ConvInteger / MatMulInteger -> Cast to float -> Mul by x_scale * w_scale
// (then the float bias). The values stay symbolic (IntegerValue) until that
// Mul, which becomes the float Conv / MatMul with the weight
// w_scale * (w_q - w_zp): the float model the weights were quantized from
// (the activations, which ONNX Runtime quantizes at run time, stay float).
// An operand quantized statically (QuantizeLinear) is its dequantized
// value, its scale divided out of the Mul's. The function is marked
// (kDynamicQuantizationAttr) so that quant-compile asks for calibration
// data to quantize it statically.
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"
#include "QLinear.h"

#include "quantc/ModelAttributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cmath>

using namespace mlir;
using namespace quantc::onnx_import;

namespace {

/// Marks the function being built as dynamically quantized
/// (kDynamicQuantizationAttr): quant-compile asks for calibration data.
void markDynamic(NodeImporter &n) {
  Operation *parent = n.builder().getInsertionBlock()->getParentOp();
  if (auto func = dyn_cast<func::FuncOp>(parent))
    func->setAttr(quantc::kDynamicQuantizationAttr, n.builder().getUnitAttr());
}

/// DynamicQuantizeLinear: y (uint8), y_scale, y_zero_point, all computed
/// at run time from x's range; only the integer ops read them.
LogicalResult dynamicQuantizeLinear(NodeImporter &n) {
  if (failed(n.checkArity(1, 1, 3, 3)))
    return failure();
  if (failed(n.act(0)))
    return failure();
  GraphState &g = n.graph();
  const std::string &y = n.node().output(0);
  IntegerValue q{IntegerValue::Quantized};
  q.value = n.inputName(0);
  g.integers[y] = q;
  IntegerValue s{IntegerValue::Scale};
  s.value = y;
  if (!n.node().output(1).empty())
    g.integers[n.node().output(1)] = s;
  IntegerValue z{IntegerValue::ZeroPoint};
  z.value = y;
  if (!n.node().output(2).empty())
    g.integers[n.node().output(2)] = z;
  markDynamic(n);
  return success();
}

/// ConvInteger (x, w, x_zero_point, w_zero_point) and MatMulInteger (A, B,
/// a_zero_point, b_zero_point): an int32 Product. Each operand is a
/// dynamically quantized activation (with its own zero point), a
/// QuantizeLinear output (with its zero point; its scale is known) or an
/// int8 / uint8 constant (with a zero point per tensor or per output
/// channel), which becomes the float weight w_q - w_zp.
template <bool isConv> LogicalResult integerOp(NodeImporter &n) {
  if (failed(n.checkArity(2, 4)))
    return failure();
  GraphState &g = n.graph();
  IntegerValue p{IntegerValue::Product};
  auto node = std::make_shared<onnx::NodeProto>(
      SubNode(n, isConv ? "Conv" : "MatMul").attrsOf(n.node()).proto);
  for (int i = 0; i < 2; ++i) {
    const std::string &name = n.inputName(i);
    int z = i + 2;
    std::string zpName = n.hasInput(z) ? n.inputName(z) : "";
    if (auto it = g.integers.find(name); it != g.integers.end()) {
      if (it->second.kind != IntegerValue::Quantized)
        return integerMisuse(n, i, it->second);
      const std::string &origin =
          it->second.symbols.empty() ? name : it->second.symbols.front();
      auto zit = g.integers.find(zpName);
      if (zit == g.integers.end() ||
          zit->second.kind != IntegerValue::ZeroPoint ||
          zit->second.value != origin)
        return n.emitError()
               << "the zero point of '" << name
               << "' must be the zero point its DynamicQuantizeLinear computes";
      p.symbols.push_back(origin);
      node->add_input(it->second.value);
      continue;
    }
    if (auto it = g.quants.find(name); it != g.quants.end()) {
      const PendingQuant q = it->second;
      if (q.scales.size() != 1)
        return n.emitError()
               << "input '" << name << "' must be quantized per tensor";
      FailureOr<const ConstTensor *> zp = n.optionalConstant(z);
      if (failed(zp))
        return failure();
      int64_t zv = *zp ? static_cast<int64_t>((*zp)->data[0]) : 0;
      bool zSigned = *zp && (*zp)->dtype == onnx::TensorProto::INT8;
      if (*zp && (*zp)->numElements() != 1)
        return n.emitError() << "the zero point '" << zpName
                             << "' of an activation must be a single value";
      if (zv != q.zeroPoints[0] || zSigned != q.isSigned)
        return n.emitError()
               << "the zero point "
               << (zpName.empty() ? "(absent: 0)" : "'" + zpName + "'")
               << " differs from the zero point (or its type) "
                  "input '"
               << name << "' was quantized with";
      ConstTensor scale;
      scale.data = {q.scales[0]};
      ConstTensor zpc;
      zpc.dtype =
          q.isSigned ? onnx::TensorProto::INT8 : onnx::TensorProto::UINT8;
      zpc.data = {static_cast<double>(q.zeroPoints[0])};
      std::string tag = "in" + std::to_string(i);
      std::string out = internalName(n, tag);
      SubNode dq(n, "DequantizeLinear");
      dq.in(name)
          .in(defineConstant(n, tag + "_scale", scale))
          .in(defineConstant(n, tag + "_zp", zpc))
          .out(out);
      if (failed(runNode(n, dq)))
        return failure();
      p.staticScale *= q.scales[0];
      node->add_input(out);
      continue;
    }
    if (g.acts.count(name))
      return n.emitError() << "input '" << name << "' is float; "
                           << n.node().op_type()
                           << " reads 8-bit tensors (DynamicQuantizeLinear, "
                              "QuantizeLinear or int8 / uint8 constants)";
    if (!g.consts.count(name))
      return n.emitError() << "input '" << name
                           << "' is not defined (missing initializer?)";
    // A constant: the weight.
    if (i != 1)
      return n.emitError() << "input '" << name << "' is a constant; only "
                           << (isConv ? "w" : "B") << " may be";
    const ConstTensor &w = g.consts.find(name)->second;
    if (w.dtype != onnx::TensorProto::INT8 &&
        w.dtype != onnx::TensorProto::UINT8)
      return n.emitError() << "the weight '" << name
                           << "' must be int8 or uint8, not "
                           << typeName(w.dtype);
    int64_t rank = w.dims.size();
    if (rank < 2)
      return n.emitError() << "the weight '" << name << "' must have rank >= 2";
    // Per output channel: dimension 0 of a conv weight, the last of B.
    int64_t axis = isConv ? 0 : rank - 1, channels = w.dims[axis];
    FailureOr<const ConstTensor *> zp = n.optionalConstant(z);
    if (failed(zp))
      return failure();
    if (*zp) {
      if ((*zp)->dtype != w.dtype)
        return n.emitError() << "the zero point '" << zpName << "' is "
                             << typeName((*zp)->dtype) << " but the weight '"
                             << name << "' is " << typeName(w.dtype);
      if ((*zp)->dims.size() > 1 ||
          ((*zp)->numElements() != 1 && (*zp)->numElements() != channels))
        return n.emitError()
               << "the zero point '" << zpName << "' must have 1 or "
               << channels << " values (one per output channel)";
    }
    int64_t inner = 1;
    for (int64_t d = axis + 1; d < rank; ++d)
      inner *= w.dims[d];
    p.weight.dims = w.dims;
    p.weight.data.resize(w.data.size());
    for (size_t k = 0; k < w.data.size(); ++k) {
      size_t c = (k / inner) % channels;
      double zv = *zp ? (*zp)->data[(*zp)->data.size() == 1 ? 0 : c] : 0.0;
      p.weight.data[k] = w.data[k] - zv;
    }
    p.weightInput = i;
    node->add_input(name); // replaced by the scaled weight
  }
  if (isConv && p.weightInput != 1)
    return n.emitError() << "the weight '" << n.inputName(1)
                         << "' must be a constant (initializer)";
  llvm::sort(p.symbols);
  p.node = std::move(node);
  g.integers[n.node().output(0)] = std::move(p);
  return success();
}

} // namespace

/// Cast of an integer value: the int32 Product to float (nothing else).

LogicalResult quantc::onnx_import::castInteger(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  GraphState &g = n.graph();
  const IntegerValue &v = g.integers.find(n.inputName(0))->second;
  FailureOr<int64_t> to = n.intAttr("to", 0);
  if (failed(to))
    return failure();
  if (v.kind != IntegerValue::Product || *to != onnx::TensorProto::FLOAT)
    return integerMisuse(n, 0, v);
  IntegerValue copy = v;
  g.integers[n.node().output(0)] = std::move(copy);
  return success();
}

namespace {

/// The Factor input `i` stands for: a Scale, a Factor or a float constant.

FailureOr<IntegerValue> factorOf(NodeImporter &n, int i) {
  GraphState &g = n.graph();
  IntegerValue f{IntegerValue::Factor};
  f.constant.data = {1.0};
  if (auto it = g.integers.find(n.inputName(i)); it != g.integers.end()) {
    if (it->second.kind == IntegerValue::Factor)
      return it->second;
    if (it->second.kind != IntegerValue::Scale)
      return integerMisuse(n, i, it->second);
    f.symbols = {it->second.value};
    return f;
  }
  const ConstTensor *c = n.constant(i);
  if (!c)
    return failure();
  if (c->dtype != onnx::TensorProto::FLOAT)
    return n.emitError() << "a scale must be float32";
  f.constant = *c;
  return f;
}

} // namespace

/// An op that moves values (Transpose, Reshape, ...) on a dynamically
/// quantized value: the op on the float value it stands for, its outputs
/// quantized as the input (ONNX Runtime's quantize_dynamic runs Transpose
/// on the uint8 tensor).
LogicalResult quantc::onnx_import::moveInteger(NodeImporter &n,
                                               OpHandler handler) {
  GraphState &g = n.graph();
  const IntegerValue &v = g.integers.find(n.inputName(0))->second;
  std::string origin = v.symbols.empty() ? n.inputName(0) : v.symbols.front();
  onnx::NodeProto copy = n.node();
  copy.set_input(0, v.value);
  for (int j = 0; j < copy.output_size(); ++j)
    if (!copy.output(j).empty())
      copy.set_output(j, copy.output(j) + "#float");
  NodeImporter floatNode(g, copy, n.opset());
  if (failed(handler(floatNode)))
    return failure();
  for (int j = 0; j < copy.output_size(); ++j) {
    if (copy.output(j).empty())
      continue;
    if (!g.acts.count(copy.output(j)))
      return n.emitError() << "output " << j << " is not a tensor of the "
                           << "input's values";
    IntegerValue q{IntegerValue::Quantized};
    q.value = copy.output(j);
    q.symbols = {origin};
    g.integers[n.node().output(j)] = std::move(q);
  }
  return success();
}

/// Mul of integer values: Scales and constants multiply into a Factor; a
/// Product times the Factor of its dynamic scales is the float op.

LogicalResult quantc::onnx_import::mulInteger(NodeImporter &n) {
  if (failed(n.checkArity(2, 2)))
    return failure();
  GraphState &g = n.graph();
  int product = -1;
  for (int i = 0; i < 2; ++i) {
    auto it = g.integers.find(n.inputName(i));
    if (it != g.integers.end() && it->second.kind == IntegerValue::Product)
      product = product < 0 ? i : -2;
  }
  if (product == -2)
    return n.emitError() << "a product of two integer results is not "
                            "supported";
  if (product < 0) {
    FailureOr<IntegerValue> a = factorOf(n, 0), b = factorOf(n, 1);
    if (failed(a) || failed(b))
      return failure();
    IntegerValue f{IntegerValue::Factor};
    f.symbols = a->symbols;
    llvm::append_range(f.symbols, b->symbols);
    llvm::sort(f.symbols);
    if (llvm::Error err = broadcastBinary(
            a->constant, b->constant, f.constant,
            [](double x, double y) {
              return static_cast<double>(static_cast<float>(x) *
                                         static_cast<float>(y));
            },
            [&](ArrayRef<int64_t> d) { return n.checkBudget(d); }))
      return n.emitError() << toString(std::move(err));
    g.integers[n.node().output(0)] = std::move(f);
    return success();
  }
  IntegerValue p = g.integers.find(n.inputName(product))->second;
  FailureOr<IntegerValue> f = factorOf(n, 1 - product);
  if (failed(f))
    return failure();
  if (f->symbols != p.symbols)
    return n.emitError() << "the scale '" << n.inputName(1 - product)
                         << "' is not the product of the dynamic scales of "
                            "the inputs of '"
                         << n.inputName(product) << "'";
  // The constant factor: one value, or one per output channel (dimension 1
  // of a conv's NCHW result, the last of a matmul's), broadcast as ONNX
  // does.
  const ConstTensor &c = f->constant;
  std::vector<double> factors = c.data;
  if (c.numElements() > 1) {
    if (p.weightInput < 0)
      return n.emitError() << "the scale must be a single value";
    const ConstTensor &w = p.weight;
    bool isConv = p.node->op_type() == "Conv";
    int64_t channels = isConv ? w.dims[0] : w.dims.back();
    // Counted from the right, as ONNX broadcasts: a conv's channel is
    // dimension 1 of its [N, C, spatial...] result, a matmul's the last.
    int64_t rank = c.dims.size();
    int64_t channelFromRight =
        isConv ? static_cast<int64_t>(w.dims.size()) - 2 : 0;
    bool ok = true;
    for (int64_t d = 0; d < rank; ++d)
      ok &= rank - 1 - d == channelFromRight ? c.dims[d] == channels
                                             : c.dims[d] == 1;
    if (!ok)
      return n.emitError() << "the scale '" << n.inputName(1 - product)
                           << "' must be one value or one per output "
                              "channel ("
                           << channels << ")";
  }
  const std::string &out = n.node().output(0);
  onnx::NodeProto node = *p.node;
  if (p.weightInput < 0) {
    // Both operands activations: the float op, then the constant factor.
    if (factors[0] / p.staticScale == 1.0) {
      node.add_output(out);
      return runNode(n, node);
    }
    std::string y = internalName(n, "y");
    node.add_output(y);
    if (failed(runNode(n, node)))
      return failure();
    ConstTensor k;
    k.data = {factors[0] / p.staticScale};
    return runNode(
        n, SubNode(n, "Mul").in(y).in(defineConstant(n, "factor", k)).out(out));
  }
  // The float weight: (w_q - w_zp) * factor / (the static scales).
  ConstTensor w = p.weight;
  bool isConv = node.op_type() == "Conv";
  int64_t rank = w.dims.size(), axis = isConv ? 0 : rank - 1;
  int64_t channels = w.dims[axis], inner = 1;
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= w.dims[d];
  for (size_t k = 0; k < w.data.size(); ++k) {
    size_t ch = (k / inner) % channels;
    double s = factors.size() == 1 ? factors[0] : factors[ch];
    w.data[k] = static_cast<float>(w.data[k] * s / p.staticScale);
  }
  w.dtype = onnx::TensorProto::FLOAT;
  node.set_input(p.weightInput, defineConstant(n, "weight", std::move(w)));
  node.add_output(out);
  return runNode(n, node);
}

void quantc::onnx_import::registerIntegerOps(OpRegistry &r) {
  r.add("ConvInteger", integerOp</*isConv=*/true>, 10);
  r.add("MatMulInteger", integerOp</*isConv=*/false>, 10);
  r.add("DynamicQuantizeLinear", dynamicQuantizeLinear, 11);
}
