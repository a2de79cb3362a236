//===- InsertObservers.cpp - Insert qnt.observe ops -----------------------===//
//
// Places observers where PyTorch's prepare() places them after module fusion:
// on model inputs, on the outputs of ops that produce a new quantized value
// (after the clamp / batch norm they fuse with), and on constant weights.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"
#include "quantc/Isa/Int8Isa.h"
#include "quantc/Observers/QParams.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTINSERTOBSERVERS
#include "dialects/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;
namespace obs = quantc::obs;

namespace {

/// How `op` takes part in quantization (QuantizableOpInterface; ops
/// without it stay float).
QuantRole roleOf(Operation *op) {
  auto q = dyn_cast_or_null<QuantizableOpInterface>(op);
  return q ? q.getQuantRole() : QuantRole::not_quantized;
}

/// True when `value` feeds only an op it will be fused with (conv-bn,
/// conv-relu, add-relu, matmul-bias), so only the fused chain's output is
/// observed.
bool fusesIntoUser(Value value) {
  if (!value.hasOneUse() || !value.getDefiningOp())
    return false;
  auto user = dyn_cast<QuantizableOpInterface>(*value.getUsers().begin());
  return user && user.fusesIntoProducer(value.getDefiningOp());
}

/// True when `value` carries quantization parameters of its own: an
/// observer or fake_quant, or the result of a quantizable op (whose
/// observer, fixed parameters or input parameters apply).
bool hasParams(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<ObserveOp, FakeQuantOp>(def) ||
      def->hasTrait<OpTrait::ConstantLike>())
    return true;
  return roleOf(def) != QuantRole::not_quantized;
}

/// The first name of `loc`, or with `last` its last one: activations are
/// named after a fused layer's output (relu1), weights after its
/// convolution (conv1).
std::optional<std::string> nameOf(Location loc, bool last = false) {
  SmallVector<std::string> names = getLayerNames(loc);
  if (names.empty())
    return std::nullopt;
  return last ? names.back() : names.front();
}

struct QntInsertObserversPass
    : public mlir::qnt::impl::QntInsertObserversBase<QntInsertObserversPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  FailureOr<ObserverConfigAttr> makeConfig(StringRef kind, StringRef dtype,
                                           StringRef qscheme, bool reduce,
                                           std::optional<int64_t> chAxis);
  void observe(Value value, ObserverConfigAttr config, StringRef baseName);
  void fixParams(Value value, ObserverConfigAttr config,
                 std::pair<double, double> range, StringRef baseName);
  std::string uniqueName(StringRef base);

  llvm::StringSet<> names;
};

} // namespace

FailureOr<ObserverConfigAttr>
QntInsertObserversPass::makeConfig(StringRef kindName, StringRef dtypeName,
                                   StringRef qschemeName, bool reduce,
                                   std::optional<int64_t> chAxis) {
  MLIRContext *ctx = &getContext();
  std::optional<ObserverKind> kind = symbolizeObserverKind(kindName);
  std::optional<QuantDtype> dtype = symbolizeQuantDtype(dtypeName);
  std::optional<QScheme> qscheme = symbolizeQScheme(qschemeName);
  if (!kind || !dtype || !qscheme) {
    emitError(UnknownLoc::get(ctx))
        << "qnt-insert-observers: unknown "
        << (!kind    ? "observer kind '" + kindName.str() + "'"
            : !dtype ? "dtype '" + dtypeName.str() + "'"
                     : "qscheme '" + qschemeName.str() + "'");
    return failure();
  }
  auto emit = [&] { return emitError(UnknownLoc::get(ctx)); };
  bool perChannel = *kind == ObserverKind::per_channel_min_max ||
                    *kind == ObserverKind::per_channel_moving_average_min_max;
  std::optional<int64_t> axis = perChannel ? chAxis : std::nullopt;
  if (perChannel && !chAxis) {
    emit() << "qnt-insert-observers: per-channel observer kind '" << kindName
           << "' is only available for weights";
    return failure();
  }
  std::optional<int64_t> unset;
  FloatAttr unsetFloat;
  return ObserverConfigAttr::getChecked(
      emit, ctx, *kind, *dtype, *qscheme, /*quant_min=*/unset,
      /*quant_max=*/unset, reduce, axis, /*averaging_constant=*/unsetFloat,
      /*bins=*/unset, /*upsample_rate=*/unset, /*percentile=*/unsetFloat,
      /*eps=*/unsetFloat);
}

std::string QntInsertObserversPass::uniqueName(StringRef base) {
  std::string name = base.str();
  for (int i = 1; names.contains(name); ++i)
    name = (base + "_" + Twine(i)).str();
  names.insert(name);
  return name;
}

void QntInsertObserversPass::observe(Value value, ObserverConfigAttr config,
                                     StringRef baseName) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.getElementType().isF32())
    return;
  if (value.hasOneUse() && isa<ObserveOp>(*value.getUsers().begin()))
    return;
  OpBuilder builder(&getContext());
  builder.setInsertionPointAfterValue(value);
  auto observer = ObserveOp::create(
      builder, value.getLoc(), value, config,
      /*state=*/nullptr, builder.getStringAttr(uniqueName(baseName)));
  value.replaceAllUsesExcept(observer.getOutput(), observer);
}

void QntInsertObserversPass::fixParams(Value value, ObserverConfigAttr config,
                                       std::pair<double, double> range,
                                       StringRef baseName) {
  obs::QuantRange qrange = obs::effectiveQuantRange(
      config.getDtype() == QuantDtype::qint8 ? obs::Dtype::QInt8
                                             : obs::Dtype::QUInt8,
      config.getReduceRange(), std::nullopt, std::nullopt);
  obs::QParams params = obs::fixedQParams(range.first, range.second, qrange);
  OpBuilder builder(&getContext());
  builder.setInsertionPointAfterValue(value);
  auto fq = FakeQuantOp::create(
      builder, value.getLoc(), value,
      TypeAttr::get(getQuantizedType(config, params, qrange, std::nullopt)),
      builder.getDenseF32ArrayAttr({static_cast<float>(range.first)}),
      builder.getDenseF32ArrayAttr({static_cast<float>(range.second)}),
      builder.getStringAttr(uniqueName(baseName)));
  value.replaceAllUsesExcept(fq.getOutput(), fq);
}

void QntInsertObserversPass::runOnOperation() {
  func::FuncOp func = getOperation();
  // The deployment target: an int8 instruction set of quantc's table, or
  // its PyTorch-style alias (x86, x86-vnni, aarch64). Where its dot
  // instruction saturates 16-bit pair sums (vpmaddubsw), 7-bit activations
  // keep it exact.
  const quantc::Int8IsaInfo *info =
      quantc::lookupInt8Isa(target, /*aliases=*/true);
  if (!info) {
    emitError(UnknownLoc::get(&getContext()))
        << "qnt-insert-observers: unknown target '" << target << "' ("
        << quantc::int8IsaNames(/*aliases=*/true) << ")";
    return signalPassFailure();
  }
  bool reduce = reduceRange || info->saturatingPairs;
  FailureOr<ObserverConfigAttr> activation = makeConfig(
      activationKind, activationDtype, activationQScheme, reduce, std::nullopt);
  if (failed(activation))
    return signalPassFailure();

  names.clear();
  func.walk([&](ObserveOp op) {
    if (op.getName())
      names.insert(*op.getName());
  });

  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    // A layout change right at the input (the ONNX importer's NCHW -> NHWC
    // transpose) keeps the values: observe after it, so that quantization
    // starts where the quantized ops do.
    Value input = arg;
    while (input.hasOneUse() &&
           isa<tosa::TransposeOp, tosa::ReshapeOp>(*input.getUsers().begin()))
      input = input.getUsers().begin()->getResult(0);
    observe(input, *activation,
            nameOf(arg.getLoc()).value_or("input" + std::to_string(i)));
  }

  // Collect first: observing rewrites use lists while walking.
  SmallVector<QuantizableOpInterface> ops;
  func.walk([&](QuantizableOpInterface op) { ops.push_back(op); });
  llvm::StringMap<int> counters;
  for (QuantizableOpInterface op : ops) {
    QuantRole role = op.getQuantRole();
    if (role == QuantRole::not_quantized)
      continue;
    StringRef opName = op->getName().stripDialect();
    std::string name =
        nameOf(op->getLoc())
            .value_or((opName + "_" + Twine(counters[opName]++)).str());
    for (auto [index, axis] : op.getObservedWeights()) {
      Value w = op->getOperand(index);
      if (!w.getDefiningOp() ||
          !w.getDefiningOp()->hasTrait<OpTrait::ConstantLike>())
        continue;
      FailureOr<ObserverConfigAttr> weight = makeConfig(
          weightKind, weightDtype, weightQScheme, /*reduce=*/false, axis);
      if (failed(weight))
        return signalPassFailure();
      observe(w, *weight,
              nameOf(op->getLoc(), /*last=*/true).value_or(name) + ".weight");
    }
    // A float value entering a quantizable op is observed where it enters
    // (PyTorch's input observers), e.g. the output of a float island.
    for (Value v : op->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type || !type.getElementType().isF32() || hasParams(v) ||
          !v.getDefiningOp())
        continue;
      observe(v, *activation, nameOf(v.getLoc()).value_or(name + ".input"));
    }
    Value result = op->getResult(0);
    if (role == QuantRole::observed && !fusesIntoUser(result))
      observe(result, *activation, name);
    else if (role == QuantRole::fixed && !fusesIntoUser(result))
      fixParams(result, *activation, *op.getFixedRange(), name);
  }
}
