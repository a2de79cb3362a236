//===- Elementwise.cpp - Activations, arithmetic with broadcasting, Softmax
//===//
//
// Activation functions become qnt.unary (one op per function, so that
// quantization can treat each as a whole); Relu / Clip a tosa.clamp; the
// other unary ops and the binary / variadic arithmetic TOSA ops with
// ONNX's broadcasting (NodeImporter::broadcast). Arithmetic on constants
// folds (shape sub-graphs). Mul(x, Sigmoid(x)) is SiLU and
// Mul(x, HardSigmoid(x)) with alpha 1/6, beta 1/2 is HardSwish and
// Mul(x, Tanh(Softplus(x))) is Mish (how PyTorch exports nn.SiLU and,
// before opsets 14 and 18, nn.Hardswish and nn.Mish); the Erf and
// Tanh forms of GELU are qnt.unary gelu / gelu_tanh, and layer
// normalization's Div, Mul and Add end in a qnt.layer_norm
// (Normalization.cpp).
//
//===----------------------------------------------------------------------===//

#include "../OpRegistry.h"
#include "Common.h"

#include "dialects/Qnt/IR/ExactArith.h"
#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/UnaryFunctions.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"

#include <cfloat>
#include <cmath>

using namespace mlir;
using namespace quantc::onnx_import;

std::optional<double> quantc::onnx_import::splatValue(Value v) {
  bool reciprocal = false;
  if (auto r = v.getDefiningOp<tosa::ReciprocalOp>()) {
    v = r.getInput1();
    reciprocal = true;
  }
  DenseFPElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return std::nullopt;
  double value = attr.getSplatValue<APFloat>().convertToDouble();
  return reciprocal ? 1.0 / value : value;
}

namespace {

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

/// qnt.unary `fn`; the ONNX attributes `alpha` / `beta` become the op's.
template <qnt::UnaryFn fn> LogicalResult unary(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<Act> x = n.act(0);
  if (failed(x))
    return failure();
  FloatAttr alpha, beta;
  ImplicitLocOpBuilder &b = n.builder();
  qnt::UnaryInfo info = qnt::unaryInfo(fn);
  if (info.takesAlpha) {
    FailureOr<float> a = n.floatAttr("alpha", info.alpha);
    if (failed(a))
      return failure();
    if (!std::isfinite(*a))
      return n.emitError() << "alpha must be finite";
    alpha = b.getF32FloatAttr(*a);
  }
  if (info.takesBeta) {
    FailureOr<float> be = n.floatAttr("beta", info.beta);
    if (failed(be))
      return failure();
    if (!std::isfinite(*be))
      return n.emitError() << "beta must be finite";
    beta = b.getF32FloatAttr(*be);
  }
  Value y =
      qnt::UnaryOp::create(b, x->value, qnt::UnaryFnAttr::get(n.context(), fn),
                           alpha, beta, DenseF32ArrayAttr());
  return n.setOutput({y, x->layout});
}

/// Selu: ONNX's `alpha` and `gamma` (the scale, qnt.unary's `beta`).
LogicalResult selu(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<Act> x = n.act(0);
  qnt::UnaryInfo info = qnt::unaryInfo(qnt::UnaryFn::selu);
  FailureOr<float> alpha = n.floatAttr("alpha", info.alpha),
                   gamma = n.floatAttr("gamma", info.beta);
  if (failed(x) || failed(alpha) || failed(gamma))
    return failure();
  if (!std::isfinite(*alpha) || !std::isfinite(*gamma))
    return n.emitError() << "alpha and gamma must be finite";
  ImplicitLocOpBuilder &b = n.builder();
  Value y = qnt::UnaryOp::create(
      b, x->value, qnt::UnaryFnAttr::get(n.context(), qnt::UnaryFn::selu),
      b.getF32FloatAttr(*alpha), b.getF32FloatAttr(*gamma),
      DenseF32ArrayAttr());
  return n.setOutput({y, x->layout});
}

/// Celu: as unary<celu>, but alpha 0 (a division by zero) is refused.
LogicalResult celu(NodeImporter &n) {
  FailureOr<float> alpha = n.floatAttr("alpha", 1.0f);
  if (failed(alpha))
    return failure();
  if (*alpha == 0.0f)
    return n.emitError() << "alpha must not be 0";
  return unary<qnt::UnaryFn::celu>(n);
}

/// Gelu (opset 20): `approximate` "none" (erf) or "tanh".
LogicalResult gelu(NodeImporter &n) {
  FailureOr<std::string> approximate = n.stringAttr("approximate", "none");
  if (failed(approximate))
    return failure();
  if (*approximate == "none")
    return unary<qnt::UnaryFn::gelu>(n);
  if (*approximate == "tanh")
    return unary<qnt::UnaryFn::gelu_tanh>(n);
  return n.emitError() << "approximate must be \"none\" or \"tanh\", got \""
                       << *approximate << "\"";
}

Value clamp(NodeImporter &n, Value x, float lo, float hi) {
  ImplicitLocOpBuilder &b = n.builder();
  return tosa::ClampOp::create(b, x.getType(), x, b.getF32FloatAttr(lo),
                               b.getF32FloatAttr(hi));
}

LogicalResult relu(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<Act> x = n.act(0);
  if (failed(x))
    return failure();
  // Unbounded above: Relu(inf) is inf (ONNX Runtime), not FLT_MAX.
  return n.setOutput({clamp(n, x->value, 0.0f, INFINITY), x->layout});
}

/// Clip with bounds that the graph computes (below).
LogicalResult clipByActivations(NodeImporter &n);

/// Clip: bounds from attributes (opsets < 11) or scalar inputs (constants,
/// or activations: clipByActivations).
LogicalResult clip(NodeImporter &n) {
  bool fromInputs = n.opset() >= 11;
  if (failed(n.checkArity(1, fromInputs ? 3 : 1)))
    return failure();
  if (fromInputs && ((n.hasInput(1) && n.isActivation(1)) ||
                     (n.hasInput(2) && n.isActivation(2))))
    return clipByActivations(n);
  FailureOr<Act> x = n.act(0);
  if (failed(x))
    return failure();
  float bounds[2] = {-FLT_MAX, FLT_MAX};
  if (!fromInputs) {
    FailureOr<float> lo = n.floatAttr("min", -FLT_MAX, /*allowInfinite=*/true),
                     hi = n.floatAttr("max", FLT_MAX, /*allowInfinite=*/true);
    if (failed(lo) || failed(hi))
      return failure();
    bounds[0] = *lo;
    bounds[1] = *hi;
  }
  for (int i = 1; fromInputs && i <= 2; ++i) {
    FailureOr<const ConstTensor *> bound = n.optionalConstant(i);
    if (failed(bound))
      return failure();
    if (!*bound)
      continue;
    if ((*bound)->data.size() != 1)
      return n.emitError() << "min / max must be scalars";
    bounds[i - 1] = static_cast<float>((*bound)->data[0]);
  }
  if (std::isnan(bounds[0]) || std::isnan(bounds[1]))
    return n.emitError() << "min and max must not be NaN";
  // ONNX: with min > max every value becomes max (as numpy.clip).
  if (bounds[0] > bounds[1])
    bounds[0] = bounds[1];
  return n.setOutput({clamp(n, x->value, bounds[0], bounds[1]), x->layout});
}

/// A TOSA unary op on f32 with the same type in and out.
template <typename OpTy> LogicalResult tosaUnary(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<Act> x = n.act(0);
  if (failed(x))
    return failure();
  Value y = OpTy::create(n.builder(), x->value.getType(), x->value);
  return n.setOutput({y, x->layout});
}

LogicalResult neg(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<Act> x = n.act(0);
  if (failed(x))
    return failure();
  // -0 - x: -x for every x (0 - x would give +0 for x = +0).
  Value y = tosa::SubOp::create(n.builder(), x->value.getType(),
                                n.splat(-0.0f, x->rank()), x->value);
  return n.setOutput({y, x->layout});
}

LogicalResult sqrt(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<Act> x = n.act(0);
  if (failed(x))
    return failure();
  auto pow = tosa::PowOp::create(n.builder(), x->value.getType(), x->value,
                                 n.splat(0.5f, x->rank()));
  // pow(x, 0.5) for the importer's patterns (layer norm's denominator) and
  // quantization; marked, so that the float lowering computes sqrt (pow
  // gives +inf for -inf and +0 for -0, sqrt NaN and -0).
  pow->setAttr(qnt::kSqrtAttr, n.builder().getUnitAttr());
  return n.setOutput({pow.getResult(), x->layout});
}

//===----------------------------------------------------------------------===//
// Binary and variadic arithmetic
//===----------------------------------------------------------------------===//

enum class Binary { add, sub, mul, div, pow, min, max };

/// `a kind b` on float constants, as the IR's ops compute it: IEEE
/// arithmetic (on float32 values, the double result rounds to what float32
/// arithmetic gives), Min / Max propagating NaN and ordering -0 below +0
/// (arith.minimumf / maximumf).
double foldFloat(Binary kind, double a, double b) {
  switch (kind) {
  case Binary::add:
    return a + b;
  case Binary::sub:
    return a - b;
  case Binary::mul:
    return a * b;
  case Binary::div:
    return a / b;
  case Binary::pow:
    return std::pow(a, b);
  case Binary::min:
  case Binary::max:
    if (std::isnan(a) || std::isnan(b))
      return NAN;
    if (a == b) // +0 and -0: min is -0, max +0
      return (kind == Binary::min) == std::signbit(a) ? a : b;
    return kind == Binary::min ? std::min(a, b) : std::max(a, b);
  }
  return 0.0;
}

/// `a kind b` on integer constants (shape arithmetic), exactly in int64
/// (ONNX's Div truncates); std::nullopt with `error` set for a division by
/// zero and for a result that int64 cannot hold or the importer's doubles
/// cannot represent exactly (heldExactly: beyond 2^53, sentinels aside).
std::optional<double> foldInteger(Binary kind, double a, double b,
                                  std::string &error) {
  int64_t x = saturatingInt64(a), y = saturatingInt64(b), r = 0;
  bool overflow = false;
  switch (kind) {
  case Binary::add:
    overflow = __builtin_add_overflow(x, y, &r);
    break;
  case Binary::sub:
    overflow = __builtin_sub_overflow(x, y, &r);
    break;
  case Binary::mul:
    overflow = __builtin_mul_overflow(x, y, &r);
    break;
  case Binary::div:
    if (y == 0) {
      error = "integer division by zero (" + std::to_string(x) + " / 0)";
      return std::nullopt;
    }
    overflow = x == INT64_MIN && y == -1;
    r = overflow ? 0 : x / y;
    break;
  case Binary::pow: {
    double p = std::trunc(std::pow(a, b));
    overflow = !(std::fabs(p) < 0x1p63);
    r = overflow ? 0 : static_cast<int64_t>(p);
    break;
  }
  case Binary::min:
    r = std::min(x, y);
    break;
  case Binary::max:
    r = std::max(x, y);
    break;
  }
  if (overflow || !heldExactly(r)) {
    error = "integer overflow: " + std::to_string(x) + " and " +
            std::to_string(y) + " give a result beyond int64 (or beyond " +
            "2^53, which the importer cannot hold exactly)";
    return std::nullopt;
  }
  return static_cast<double>(r);
}

/// `lhs kind rhs` on broadcast-compatible f32 values of equal rank.
Value buildBinary(NodeImporter &n, Binary kind, Value lhs, Value rhs,
                  RankedTensorType type) {
  ImplicitLocOpBuilder &b = n.builder();
  switch (kind) {
  case Binary::add:
    return tosa::AddOp::create(b, type, lhs, rhs);
  case Binary::sub:
    return tosa::SubOp::create(b, type, lhs, rhs);
  case Binary::mul:
    return n.mul(lhs, rhs, type);
  case Binary::div: {
    // x / y as x * (1 / y): TOSA has no float division.
    Value recip = tosa::ReciprocalOp::create(b, rhs.getType(), rhs);
    return buildBinary(n, Binary::mul, lhs, recip, type);
  }
  case Binary::pow:
    return tosa::PowOp::create(b, type, lhs, rhs);
  case Binary::min:
    return tosa::MinimumOp::create(b, type, lhs, rhs);
  case Binary::max:
    return tosa::MaximumOp::create(b, type, lhs, rhs);
  }
  return {};
}

/// Clip with a bound that the graph computes (a log-mel front end's
/// max - 80 dB, a scalar): max(x, min) then min(., max), with broadcasting;
/// min > max gives max, as numpy.clip.
LogicalResult clipByActivations(NodeImporter &n) {
  SmallVector<int> inputs{0};
  for (int i = 1; i <= 2; ++i)
    if (n.hasInput(i))
      inputs.push_back(i);
  SmallVector<Value> values;
  Layout layout;
  SmallVector<int64_t> shape;
  if (failed(n.broadcast(inputs, values, layout, shape)))
    return failure();
  RankedTensorType type = n.f32(toIrShape(shape, layout));
  Value y = values.front();
  for (auto [i, bound] : llvm::drop_begin(llvm::zip(inputs, values)))
    y = buildBinary(n, i == 1 ? Binary::max : Binary::min, y, bound, type);
  return n.setOutput({y, layout});
}

/// Folds `kind` over the inputs when all are constants.
LogicalResult foldConstants(NodeImporter &n, Binary kind) {
  FailureOr<ConstTensor> first = n.copyConstant(0);
  if (failed(first))
    return failure();
  ConstTensor acc = std::move(*first);
  for (int i = 1; i < n.numInputs(); ++i) {
    const ConstTensor *next = n.constant(i);
    if (!next)
      return failure();
    bool integer = acc.isInteger();
    ConstTensor r;
    std::string error;
    if (llvm::Error err = broadcastBinary(
            acc, *next, r,
            [&](double a, double b) {
              if (!integer)
                return foldFloat(kind, a, b);
              std::optional<double> v =
                  error.empty() ? foldInteger(kind, a, b, error) : 0.0;
              return v ? *v : 0.0;
            },
            [&](ArrayRef<int64_t> d) { return n.checkBudget(d); }))
      return n.emitError() << toString(std::move(err));
    if (!error.empty())
      return n.emitError() << error;
    acc = std::move(r);
  }
  return n.setOutput(std::move(acc));
}

/// The SiLU / HardSwish / Mish pattern: `x * f(x)` with f = sigmoid, the
/// HardSwish gate or tanh(softplus(x)) (how PyTorch exports nn.Mish below
/// opset 18). Returns the fused qnt.unary, or null.
Value fuseGatedActivation(NodeImporter &n, const Act &lhs, const Act &rhs) {
  for (auto [x, gate] : {std::pair{lhs, rhs}, std::pair{rhs, lhs}}) {
    auto op = gate.value.getDefiningOp<qnt::UnaryOp>();
    if (!op || x.layout != gate.layout)
      continue;
    auto softplus = op.getInput().getDefiningOp<qnt::UnaryOp>();
    bool mishGate = op.getFn() == qnt::UnaryFn::tanh && softplus &&
                    softplus.getFn() == qnt::UnaryFn::softplus &&
                    softplus.getInput() == x.value;
    if (!mishGate && op.getInput() != x.value)
      continue;
    qnt::UnaryFn fused;
    if (mishGate)
      fused = qnt::UnaryFn::mish;
    else if (op.getFn() == qnt::UnaryFn::sigmoid)
      fused = qnt::UnaryFn::silu;
    else if (op.getFn() == qnt::UnaryFn::hard_sigmoid &&
             std::fabs(op.getAlphaOrDefault() - 1.0 / 6.0) < 1e-6 &&
             op.getBetaOrDefault() == 0.5)
      fused = qnt::UnaryFn::hard_swish;
    else
      continue;
    return qnt::UnaryOp::create(n.builder(), x.value,
                                qnt::UnaryFnAttr::get(n.context(), fused),
                                FloatAttr(), FloatAttr(), DenseF32ArrayAttr());
  }
  return {};
}

bool near(double a, double b) {
  return std::fabs(a - b) <= 1e-6 * std::fabs(b);
}

/// The factors of `v` if it is a product (tosa.mul, nested up to `depth`),
/// else `v`; `stop` values are factors themselves.
void factors(Value v, SmallVectorImpl<Value> &out, ArrayRef<Value> stop = {},
             int depth = 3) {
  auto mul = v.getDefiningOp<tosa::MulOp>();
  if (!mul || depth == 0 || llvm::is_contained(stop, v)) {
    out.push_back(v);
    return;
  }
  factors(mul.getInput1(), out, stop, depth - 1);
  factors(mul.getInput2(), out, stop, depth - 1);
}

/// `x` if `v` is `x * k` or `k * x` (one Mul, or a Div by 1 / k), else null.
Value scaledBy(Value v, double k) {
  auto mul = v.getDefiningOp<tosa::MulOp>();
  if (!mul)
    return {};
  for (auto [x, c] : {std::pair{mul.getInput1(), mul.getInput2()},
                      std::pair{mul.getInput2(), mul.getInput1()}})
    if (std::optional<double> value = splatValue(c); value && near(*value, k))
      return x;
  return {};
}

/// `z` if `v` is `1 + g(z)` for the qnt.unary `g`, else null.
Value onePlus(Value v, qnt::UnaryFn g) {
  auto add = v.getDefiningOp<tosa::AddOp>();
  if (!add)
    return {};
  for (auto [a, b] : {std::pair{add.getInput1(), add.getInput2()},
                      std::pair{add.getInput2(), add.getInput1()}}) {
    std::optional<double> one = splatValue(b);
    auto op = a.getDefiningOp<qnt::UnaryOp>();
    if (one && *one == 1.0 && op && op.getFn() == g)
      return op.getInput();
  }
  return {};
}

/// Whether `v` is `x * x * x` (Pow(x, 3) or products of x).
bool isCube(Value v, Value x) {
  if (auto pow = v.getDefiningOp<tosa::PowOp>()) {
    std::optional<double> e = splatValue(pow.getInput2());
    return pow.getInput1() == x && e && *e == 3.0;
  }
  SmallVector<Value> fs;
  factors(v, fs, {x});
  return fs.size() == 3 && llvm::all_of(fs, [&](Value f) { return f == x; });
}

/// The input `x` of a GELU gate `v` (1 + erf(x / sqrt(2)), or 1 + tanh(
/// sqrt(2 / pi) * (x + 0.044715 * x^3))) and the GELU it makes, or null.
std::pair<Value, qnt::UnaryFn> geluGate(Value v) {
  if (Value z = onePlus(v, qnt::UnaryFn::erf))
    if (Value x = scaledBy(z, M_SQRT1_2))
      return {x, qnt::UnaryFn::gelu};
  Value z = onePlus(v, qnt::UnaryFn::tanh);
  Value inner = z ? scaledBy(z, 0.7978845608028654) : Value();
  auto add = inner ? inner.getDefiningOp<tosa::AddOp>() : tosa::AddOp();
  if (!add)
    return {};
  for (auto [x, b] : {std::pair{add.getInput1(), add.getInput2()},
                      std::pair{add.getInput2(), add.getInput1()}})
    if (Value cube = scaledBy(b, 0.044715); cube && isCube(cube, x))
      return {x, qnt::UnaryFn::gelu_tanh};
  return {};
}

/// The GELU patterns in a product of `product` and `constantFactor`: 0.5 *
/// x * gate (PyTorch's export of nn.GELU and nn.GELU(approximate='tanh'),
/// see geluGate), the factors in any order and grouping. Returns (x, fn) or
/// null.
std::pair<Value, qnt::UnaryFn> matchGelu(ArrayRef<Value> product,
                                         double constantFactor) {
  SmallVector<Value> candidates;
  for (Value v : product)
    factors(v, candidates);
  for (Value gate : candidates) {
    auto [x, fn] = geluGate(gate);
    if (!x)
      continue;
    // The product, factored down to x and the gate.
    SmallVector<Value> fs;
    for (Value v : product)
      factors(v, fs, {x, gate});
    double scale = constantFactor;
    int xs = 0, gates = 0;
    bool other = false;
    for (Value f : fs) {
      if (f == x)
        ++xs;
      else if (f == gate)
        ++gates;
      else if (std::optional<double> c = splatValue(f))
        scale *= *c;
      else
        other = true;
    }
    if (xs == 1 && gates == 1 && !other && near(scale, 0.5))
      return {x, fn};
  }
  return {};
}

/// Add, Sub, Mul, Div, Pow (two inputs) and Sum, Min, Max, Mean (one or
/// more), with broadcasting.
template <Binary kind, bool variadic = false, bool mean = false>
LogicalResult binary(NodeImporter &n) {
  if (failed(n.checkArity(variadic ? 1 : 2, variadic ? INT_MAX : 2)))
    return failure();
  bool anyAct = false;
  for (int i = 0; i < n.numInputs(); ++i) {
    if (!n.isActivation(i) && !n.isConstant(i))
      return failed(n.act(i)) ? failure() : success();
    anyAct |= n.isActivation(i);
  }
  if (!anyAct && !mean)
    return foldConstants(n, kind);
  if (!anyAct)
    return n.emitError() << "Mean of constants is not supported";
  if (kind == Binary::mul && n.isActivation(0) && n.isActivation(1))
    if (Value fused = fuseGatedActivation(n, *n.act(0), *n.act(1)))
      return n.setOutput({fused, n.act(0)->layout});
  if (kind == Binary::div && n.isActivation(0) && n.isActivation(1))
    if (Value ln = matchLayerNorm(n, *n.act(0), *n.act(1)))
      return n.setOutput({ln, n.act(0)->layout});
  if ((kind == Binary::mul || kind == Binary::add) && n.numInputs() == 2 &&
      n.isActivation(0) != n.isActivation(1)) {
    // nn.LayerNorm's weight and bias.
    int a = n.isActivation(0) ? 0 : 1;
    if (Value folded = foldIntoLayerNorm(n, *n.act(a), *n.constant(1 - a),
                                         kind == Binary::mul))
      return n.setOutput({folded, n.act(a)->layout});
    // nn.GroupNorm's weight and bias (exported below opset 18).
    Layout gnLayout;
    if (Value folded = foldIntoGroupNorm(n, *n.act(a), *n.constant(1 - a),
                                         kind == Binary::mul, gnLayout))
      return n.setOutput({folded, gnLayout});
  }
  if (kind == Binary::mul && n.numInputs() == 2) {
    // GELU: the last Mul of its pattern (whose other ops DCE removes).
    SmallVector<Act> acts;
    double constantFactor = 1.0;
    bool scalars = true;
    for (int i = 0; i < 2; ++i) {
      if (n.isActivation(i))
        acts.push_back(*n.act(i));
      else if (const ConstTensor *c = n.constant(i); c && c->numElements() == 1)
        constantFactor *= c->data[0];
      else
        scalars = false;
    }
    SmallVector<Value> product;
    for (const Act &a : acts)
      product.push_back(a.value);
    auto [x, fn] = scalars ? matchGelu(product, constantFactor)
                           : std::pair<Value, qnt::UnaryFn>();
    if (x && llvm::all_of(acts, [&](const Act &a) {
          return a.layout == acts[0].layout && a.value.getType() == x.getType();
        }))
      return n.setOutput(
          {qnt::UnaryOp::create(n.builder(), x,
                                qnt::UnaryFnAttr::get(n.context(), fn),
                                FloatAttr(), FloatAttr(), DenseF32ArrayAttr()),
           acts[0].layout});
  }
  SmallVector<int> inputs;
  for (int i = 0; i < n.numInputs(); ++i)
    inputs.push_back(i);
  SmallVector<Value> values;
  Layout layout;
  SmallVector<int64_t> shape;
  if (failed(n.broadcast(inputs, values, layout, shape)))
    return failure();
  RankedTensorType type = n.f32(toIrShape(shape, layout));
  Value acc = values.front();
  for (Value v : ArrayRef<Value>(values).drop_front())
    acc = buildBinary(n, kind, acc, v, type);
  if (values.size() == 1 && acc.getType() != type) {
    // A single broadcast input: materialize the broadcast shape (x + -0 is
    // x for every x; x + 0 would turn -0 into +0).
    acc = buildBinary(n, Binary::add, acc, n.constant(type.getShape(), {-0.0f}),
                      type);
  }
  if (mean)
    acc = buildBinary(n, Binary::mul, acc,
                      n.splat(1.0f / values.size(), type.getRank()), type);
  return n.setOutput({acc, layout});
}

/// PRelu: max(x, 0) + slope * min(x, 0), the slope broadcast to x. A
/// constant slope that is one number, or one per channel of the input's
/// last IR dimension (the usual [C, 1, 1] on NCHW), is leaky_relu with
/// alpha or per-channel alphas (one lookup table per channel in int8);
/// another slope is the formula in TOSA ops.
LogicalResult prelu(NodeImporter &n) {
  if (failed(n.checkArity(2, 2)))
    return failure();
  FailureOr<Act> x = n.act(0);
  if (failed(x))
    return failure();
  SmallVector<Value> values;
  Layout layout;
  SmallVector<int64_t> shape;
  if (failed(n.broadcast({0, 1}, values, layout, shape)))
    return failure();
  if (shape != x->onnxShape())
    return n.emitError() << "slope must broadcast to the input's shape";
  RankedTensorType type = n.f32(toIrShape(shape, layout));
  DenseFPElementsAttr slope;
  auto slopeType = cast<RankedTensorType>(values[1].getType());
  ArrayRef<int64_t> slopeShape = slopeType.getShape();
  if (type.getRank() >= 1 && matchPattern(values[1], m_Constant(&slope)) &&
      slope.getElementType().isF32() &&
      llvm::all_of(slopeShape.drop_back(), [](int64_t d) { return d == 1; }) &&
      (slopeShape.empty() || slopeShape.back() == 1 ||
       slopeShape.back() == type.getShape().back()) &&
      llvm::all_of(slope.getValues<float>(),
                   [](float a) { return std::isfinite(a); })) {
    ImplicitLocOpBuilder &b = n.builder();
    SmallVector<float> alphas(slope.getValues<float>());
    auto fn = qnt::UnaryFnAttr::get(n.context(), qnt::UnaryFn::leaky_relu);
    Value y =
        alphas.size() == 1
            ? qnt::UnaryOp::create(b, values[0], fn,
                                   b.getF32FloatAttr(alphas[0]), FloatAttr(),
                                   DenseF32ArrayAttr())
            : qnt::UnaryOp::create(b, values[0], fn, FloatAttr(), FloatAttr(),
                                   b.getDenseF32ArrayAttr(alphas));
    return n.setOutput({y, layout});
  }
  Value zero = n.splat(0.0f, type.getRank());
  Value pos = buildBinary(n, Binary::max, values[0], zero, type);
  Value neg = buildBinary(n, Binary::min, values[0], zero, type);
  Value scaled = buildBinary(n, Binary::mul, neg, values[1], type);
  return n.setOutput({buildBinary(n, Binary::add, pos, scaled, type), layout});
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

/// softmax / log-softmax of `x` along IR dimension `axis`: one qnt.softmax
/// (expanded by qnt-lower-float for the float code).
Value softmaxAlong(NodeImporter &n, Value x, int64_t axis, bool log) {
  ImplicitLocOpBuilder &b = n.builder();
  return qnt::SoftmaxOp::create(b, x, b.getI64IntegerAttr(axis),
                                log ? b.getUnitAttr() : UnitAttr());
}

/// Opsets 13+: along one axis (default -1).
template <bool log> LogicalResult softmax(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<Act> x = n.act(0);
  FailureOr<int64_t> axisAttr = n.intAttr("axis", -1);
  if (failed(x) || failed(axisAttr))
    return failure();
  FailureOr<int64_t> axis = n.normalizeAxis(*axisAttr, x->rank());
  if (failed(axis))
    return failure();
  return n.setOutput(
      {softmaxAlong(n, x->value, x->irAxis(*axis), log), x->layout});
}

/// Opsets < 13: the input coerced to 2-D [outer, inner] at `axis`
/// (default 1), softmax over the inner dimension.
template <bool log> LogicalResult softmaxV1(NodeImporter &n) {
  if (failed(n.checkArity(1, 1)))
    return failure();
  FailureOr<Act> x = n.act(0);
  FailureOr<int64_t> axisAttr = n.intAttr("axis", 1);
  if (failed(x) || failed(axisAttr))
    return failure();
  FailureOr<int64_t> axis = n.normalizeAxis(*axisAttr, x->rank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape = x->onnxShape();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < x->rank(); ++d)
    (d < *axis ? outer : inner) *= shape[d];
  Act flat = n.reshapeAct(*x, {outer, inner});
  Value v = n.onnxOrder(flat);
  Act y{softmaxAlong(n, v, 1, log), identityLayout(2)};
  return n.setOutput(n.reshapeAct(y, shape));
}

} // namespace

void quantc::onnx_import::registerElementwiseOps(OpRegistry &r) {
  using qnt::UnaryFn;
  r.add("Relu", relu);
  r.add("Clip", clip);
  r.add("Sigmoid", unary<UnaryFn::sigmoid>);
  r.add("Tanh", unary<UnaryFn::tanh>);
  r.add("HardSigmoid", unary<UnaryFn::hard_sigmoid>);
  r.add("HardSwish", unary<UnaryFn::hard_swish>, 14);
  r.add("LeakyRelu", unary<UnaryFn::leaky_relu>);
  r.add("Elu", unary<UnaryFn::elu>);
  r.add("Softplus", unary<UnaryFn::softplus>);
  r.add("Mish", unary<UnaryFn::mish>, 18);
  r.add("Selu", selu);
  r.add("Celu", celu, 12);
  r.add("ThresholdedRelu", unary<UnaryFn::thresholded_relu>, 10);
  r.add("Gelu", gelu, 20);
  r.add("Round", unary<UnaryFn::round>, 11);
  r.add("Sign", unary<UnaryFn::sign>, 9);
  r.add("PRelu", prelu);
  r.add("Exp", tosaUnary<tosa::ExpOp>);
  r.add("Log", tosaUnary<tosa::LogOp>);
  r.add("Abs", tosaUnary<tosa::AbsOp>);
  r.add("Erf", unary<UnaryFn::erf>);
  r.add("Floor", tosaUnary<tosa::FloorOp>);
  r.add("Ceil", tosaUnary<tosa::CeilOp>);
  r.add("Reciprocal", tosaUnary<tosa::ReciprocalOp>);
  r.add("Neg", neg);
  r.add("Sqrt", sqrt);
  r.add("Add", binary<Binary::add>);
  r.add("Sub", binary<Binary::sub>);
  r.add("Mul", binary<Binary::mul>);
  r.add("Div", binary<Binary::div>);
  r.add("Pow", binary<Binary::pow>);
  r.add("Sum", binary<Binary::add, /*variadic=*/true>);
  r.add("Min", binary<Binary::min, /*variadic=*/true>);
  r.add("Max", binary<Binary::max, /*variadic=*/true>);
  r.add("Mean", binary<Binary::add, /*variadic=*/true, /*mean=*/true>);
  r.add("Softmax", softmaxV1</*log=*/false>);
  r.add("Softmax", softmax</*log=*/false>, 13);
  r.add("LogSoftmax", softmaxV1</*log=*/true>);
  r.add("LogSoftmax", softmax</*log=*/true>, 13);
}
