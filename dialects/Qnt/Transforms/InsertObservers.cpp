//===- InsertObservers.cpp - Insert qnt.observe ops -----------------------===//
//
// Places observers where PyTorch's prepare() places them after module fusion:
// on model inputs, on the outputs of ops that produce a new quantized value
// (after the clamp / batch norm they fuse with), and on constant weights.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/Transforms/Passes.h"

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

namespace {

/// Ops whose result gets its own quantization parameters.
bool producesNewQuantizedValue(Operation *op) {
  return isa<Conv2DOp, tosa::Conv2DOp, tosa::DepthwiseConv2DOp, tosa::MatMulOp,
             tosa::AddOp, tosa::AvgPool2dOp, tosa::ConcatOp, tosa::ClampOp,
             BatchNormOp>(op);
}

/// True when `value` feeds only an op it will be fused with (conv-bn,
/// conv-relu, add-relu, matmul-bias), so only the fused chain's output is
/// observed.
bool fusesIntoUser(Value value) {
  if (!value.hasOneUse())
    return false;
  Operation *user = *value.getUsers().begin();
  Operation *def = value.getDefiningOp();
  if (isa<tosa::ClampOp>(user))
    return !isa<tosa::ClampOp>(def);
  if (isa<BatchNormOp>(user))
    return isa<Conv2DOp, tosa::Conv2DOp, tosa::DepthwiseConv2DOp>(def);
  // matmul + constant bias is one linear layer.
  if (auto add = dyn_cast<tosa::AddOp>(user)) {
    Value other = add.getInput1() == value ? add.getInput2() : add.getInput1();
    return isa<tosa::MatMulOp>(def) && other.getDefiningOp() &&
           other.getDefiningOp()->hasTrait<OpTrait::ConstantLike>();
  }
  return false;
}

/// The channel axis of a weight operand, in the layout its op uses.
std::optional<int64_t> weightChannelAxis(Operation *op) {
  if (isa<Conv2DOp, tosa::Conv2DOp>(op))
    return 0; // OHWI
  if (isa<tosa::DepthwiseConv2DOp>(op))
    return 2; // HWCM: one range per input channel
  if (isa<tosa::MatMulOp>(op))
    return 2; // [batch, K, N]
  return std::nullopt;
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

void QntInsertObserversPass::runOnOperation() {
  func::FuncOp func = getOperation();
  StringRef targetName = target;
  if (targetName != "generic" && targetName != "x86" &&
      targetName != "x86-vnni" && targetName != "aarch64") {
    emitError(UnknownLoc::get(&getContext()))
        << "qnt-insert-observers: unknown target '" << targetName
        << "' (generic, x86, x86-vnni, aarch64)";
    return signalPassFailure();
  }
  // Only x86 without VNNI multiplies u8 x s8 with saturating 16-bit pair
  // sums (vpmaddubsw): 7-bit activations keep them exact.
  bool reduce = reduceRange || targetName == "x86";
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
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (producesNewQuantizedValue(op) || weightChannelAxis(op))
      ops.push_back(op);
  });
  llvm::StringMap<int> counters;
  for (Operation *op : ops) {
    StringRef opName = op->getName().stripDialect();
    std::string name =
        nameOf(op->getLoc())
            .value_or((opName + "_" + Twine(counters[opName]++)).str());
    if (std::optional<int64_t> axis = weightChannelAxis(op)) {
      FailureOr<ObserverConfigAttr> weight = makeConfig(
          weightKind, weightDtype, weightQScheme, /*reduce=*/false, axis);
      if (failed(weight))
        return signalPassFailure();
      Value w = op->getOperand(1);
      if (w.getDefiningOp() &&
          w.getDefiningOp()->hasTrait<OpTrait::ConstantLike>())
        observe(w, *weight,
                nameOf(op->getLoc(), /*last=*/true).value_or(name) + ".weight");
    }
    if (producesNewQuantizedValue(op) && !fusesIntoUser(op->getResult(0)))
      observe(op->getResult(0), *activation, name);
  }
}
