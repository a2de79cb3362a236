//===- UnaryFunctions.h - The formulas of qnt.unary -------------*- C++ -*-===//
//
// Each element-wise function of qnt.unary is written once, as a template
// over an "Ops" type that says what +, *, exp, ... mean:
//
// * `DoubleOps` evaluates in double precision (compile-time evaluation:
//   lookup tables, constant folding, tests);
// * the float lowering instantiates it with an Ops type that emits arith /
//   math ops on f32 SSA values (LowerFloatUnary.cpp).
//
// Adding a function: a case in `Qnt_UnaryFn` (QntEnums.td), its formula in
// `applyUnary` and, if it has parameters or a bounded range, its
// `unaryInfo`.
//
//===----------------------------------------------------------------------===//

#ifndef QNT_IR_UNARYFUNCTIONS_H
#define QNT_IR_UNARYFUNCTIONS_H

#include "dialects/Qnt/IR/QntAttrs.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>
#include <utility>

namespace mlir::qnt {

/// What a function takes and what quantization may rely on.
struct UnaryInfo {
  /// Whether `alpha` / `beta` are parameters, and their defaults (the ONNX
  /// / PyTorch ones).
  bool takesAlpha = false, takesBeta = false;
  double alpha = 0.0, beta = 0.0;
  /// The range of a bounded function, which fixes its output's
  /// quantization parameters (PyTorch's fixed-qparams ops).
  std::optional<std::pair<double, double>> fixedRange;
};
inline UnaryInfo unaryInfo(UnaryFn fn) {
  UnaryInfo info;
  switch (fn) {
  case UnaryFn::sigmoid:
    info.fixedRange = {0.0, 1.0};
    break;
  case UnaryFn::tanh:
  case UnaryFn::erf:
  case UnaryFn::sign:
    info.fixedRange = {-1.0, 1.0};
    break;
  case UnaryFn::hard_sigmoid:
    info = {true, true, 0.2, 0.5, std::pair<double, double>{0.0, 1.0}};
    break;
  case UnaryFn::leaky_relu:
    info = {true, false, 0.01, 0.0, std::nullopt};
    break;
  case UnaryFn::elu:
  case UnaryFn::celu:
  case UnaryFn::thresholded_relu:
    info = {true, false, 1.0, 0.0, std::nullopt};
    break;
  case UnaryFn::selu:
    // beta is ONNX's gamma (the scale); both defaults are ONNX's and
    // PyTorch's constants.
    info = {true, true, 1.67326319217681884765625, 1.05070102214813232421875,
            std::nullopt};
    break;
  default:
    break;
  }
  return info;
}

/// `fn(x)` with parameters `alpha`, `beta`, in the arithmetic of `Ops`,
/// which provides `V constant(double)`, `add`, `sub`, `mul`, `div`, `max`,
/// `min`, `abs`, `exp`, `log1p`, `tanh`, `erf`, `step` (1 where the operand
/// is > 0, else 0) and `roundEven` (to the nearest integer, ties to even). The
/// parameters are numbers (`double`) or values of the arithmetic (`V`: a
/// per-channel alpha read from a tensor).
template <typename Ops, typename V, typename P>
V applyUnary(Ops &o, UnaryFn fn, V x, P alpha, P beta) {
  auto c = [&](auto v) -> V {
    if constexpr (std::is_same_v<decltype(v), V>)
      return v;
    else
      return o.constant(v);
  };
  auto clamp = [&](V v, double lo, double hi) {
    return o.min(o.max(v, c(lo)), c(hi));
  };
  switch (fn) {
  case UnaryFn::sigmoid:
    return o.div(c(1.0), o.add(c(1.0), o.exp(o.sub(c(0.0), x))));
  case UnaryFn::tanh:
    return o.tanh(x);
  case UnaryFn::hard_sigmoid:
    return clamp(o.add(o.mul(x, c(alpha)), c(beta)), 0.0, 1.0);
  case UnaryFn::hard_swish:
    return o.div(o.mul(x, clamp(o.add(x, c(3.0)), 0.0, 6.0)), c(6.0));
  case UnaryFn::silu:
    return o.div(x, o.add(c(1.0), o.exp(o.sub(c(0.0), x))));
  case UnaryFn::gelu:
    return o.mul(o.mul(x, c(0.5)),
                 o.add(c(1.0), o.erf(o.mul(x, c(M_SQRT1_2)))));
  case UnaryFn::gelu_tanh: {
    V inner = o.mul(c(0.7978845608028654), // sqrt(2 / pi)
                    o.add(x, o.mul(c(0.044715), o.mul(x, o.mul(x, x)))));
    return o.mul(o.mul(x, c(0.5)), o.add(c(1.0), o.tanh(inner)));
  }
  case UnaryFn::leaky_relu:
    return o.add(o.max(x, c(0.0)), o.mul(c(alpha), o.min(x, c(0.0))));
  case UnaryFn::elu:
    return o.add(o.max(x, c(0.0)),
                 o.mul(c(alpha), o.sub(o.exp(o.min(x, c(0.0))), c(1.0))));
  case UnaryFn::softplus:
    return o.add(o.max(x, c(0.0)), o.log1p(o.exp(o.sub(c(0.0), o.abs(x)))));
  case UnaryFn::erf:
    return o.erf(x);
  case UnaryFn::mish: {
    V softplus =
        o.add(o.max(x, c(0.0)), o.log1p(o.exp(o.sub(c(0.0), o.abs(x)))));
    return o.mul(x, o.tanh(softplus));
  }
  case UnaryFn::selu:
    return o.mul(c(beta), applyUnary(o, UnaryFn::elu, x, alpha, beta));
  case UnaryFn::celu: // ONNX's formula, which also holds for alpha < 0
    return o.add(o.max(x, c(0.0)),
                 o.min(c(0.0), o.mul(c(alpha), o.sub(o.exp(o.div(x, c(alpha))),
                                                     c(1.0)))));
  case UnaryFn::thresholded_relu:
    return o.mul(x, o.step(o.sub(x, c(alpha))));
  case UnaryFn::round:
    return o.roundEven(x);
  case UnaryFn::sign:
    return o.sub(o.step(x), o.step(o.sub(c(0.0), x)));
  }
  return x;
}

/// The arithmetic of double.
struct DoubleOps {
  double constant(double v) { return v; }
  double add(double a, double b) { return a + b; }
  double sub(double a, double b) { return a - b; }
  double mul(double a, double b) { return a * b; }
  double div(double a, double b) { return a / b; }
  double max(double a, double b) { return std::max(a, b); }
  double min(double a, double b) { return std::min(a, b); }
  double abs(double a) { return std::fabs(a); }
  double exp(double a) { return std::exp(a); }
  double log1p(double a) { return std::log1p(a); }
  double tanh(double a) { return std::tanh(a); }
  double erf(double a) { return std::erf(a); }
  double step(double a) { return a > 0.0 ? 1.0 : 0.0; }
  double roundEven(double a) { return std::nearbyint(a); }
};

/// `fn(x)` in double.
inline double evalUnary(UnaryFn fn, double x, double alpha, double beta) {
  DoubleOps ops;
  return applyUnary(ops, fn, x, alpha, beta);
}

} // namespace mlir::qnt

#endif // QNT_IR_UNARYFUNCTIONS_H
