//===- ObserverChoice.cpp - Auto observers resolved in the IR -------------===//

#include "quantc/Calibrate/ObserverChoice.h"
#include "quantc/Support/Fail.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace quantc;
using llvm::Error;
using llvm::Expected;

bool quantc::isAutoObserver(qnt::ObserveOp op) {
  return op.getConfig().getKind() == qnt::ObserverKind::automatic;
}

Expected<obs::Observer> quantc::loadObserverAs(qnt::ObserveOp op,
                                               obs::ObserverKind kind,
                                               obs::RangeReduction reduction) {
  const std::string context =
      "observer '" + op.getName().value_or("").str() + "': ";
  quantc::StatusOr<obs::Observer> observer = op.loadObserver(reduction);
  if (observer.failed())
    return toError(observer.status(), context);
  return toExpected(observer->asKind(kind), context);
}

Error quantc::applyObserverChoice(qnt::ObserveOp op,
                                  const ObserverChoice &choice) {
  if (!isAutoObserver(op) || !op.getStateAttr())
    return fail("observer '" + op.getName().value_or("").str() +
                "' is not a calibrated auto observer");
  // The op's own config (reduce_range as inserted): folding applies the
  // target's reduction to the resolved config as it did to the auto one.
  Expected<obs::Observer> resolved =
      loadObserverAs(op, choice.kind, obs::RangeReduction::None);
  if (!resolved)
    return resolved.takeError();
  MLIRContext *ctx = op.getContext();
  op.setConfigAttr(qnt::getObserverConfigAttr(ctx, resolved->config()));
  op.setStateAttr(qnt::getObserverStateAttr(ctx, resolved->state()));
  Builder b(ctx);
  SmallVector<NamedAttribute> scores;
  for (const auto &[kind, score] : choice.scores)
    scores.push_back(
        b.getNamedAttr(obs::toString(kind), b.getF64FloatAttr(score)));
  op->setAttr(
      kObserverChoiceAttr,
      b.getDictionaryAttr(
          {b.getNamedAttr("kind", b.getStringAttr(obs::toString(choice.kind))),
           b.getNamedAttr("consumers", b.getStringAttr(choice.consumers)),
           b.getNamedAttr("scores", b.getDictionaryAttr(scores))}));
  return Error::success();
}

std::optional<ObserverChoice> quantc::getObserverChoice(qnt::ObserveOp op) {
  auto dict = op->getAttrOfType<DictionaryAttr>(kObserverChoiceAttr);
  if (!dict)
    return std::nullopt;
  auto kind = dict.getAs<StringAttr>("kind");
  auto consumers = dict.getAs<StringAttr>("consumers");
  auto scores = dict.getAs<DictionaryAttr>("scores");
  if (!kind || !consumers || !scores)
    return std::nullopt;
  std::optional<obs::ObserverKind> k =
      obs::parseObserverKind(kind.getValue().str());
  if (!k)
    return std::nullopt;
  ObserverChoice choice;
  choice.kind = *k;
  choice.consumers = consumers.getValue().str();
  for (obs::ObserverKind candidate : obs::kAutoCandidates)
    if (auto score = scores.getAs<FloatAttr>(obs::toString(candidate)))
      choice.scores.emplace_back(candidate, score.getValueAsDouble());
  return choice;
}

Error quantc::resolveAutoObservers(ModuleOp module, StringRef function,
                                   const Profile *loaded,
                                   ArrayRef<std::string> data,
                                   int64_t maxSamples,
                                   obs::RangeReduction reduction,
                                   Profile &profile) {
  SmallVector<qnt::ObserveOp> autos;
  module.walk([&](qnt::ObserveOp op) {
    if (isAutoObserver(op))
      autos.push_back(op);
  });
  if (autos.empty())
    return Error::success();
  auto nameOf = [](qnt::ObserveOp op) {
    return op.getName().value_or("").str();
  };
  llvm::StringMap<ObserverChoice> recorded;
  if (loaded && data.empty())
    for (const ProfileObserver &o : loaded->observers)
      if (o.choice)
        recorded[o.name] = *o.choice;
  if (llvm::all_of(autos, [&](qnt::ObserveOp op) {
        return recorded.contains(nameOf(op));
      })) {
    for (qnt::ObserveOp op : autos)
      if (Error e = applyObserverChoice(op, recorded.at(nameOf(op))))
        return e;
  } else if (data.empty()) {
    return fail("auto observers are chosen on calibration data: the profile "
                "records no choice (it was merged, or made without "
                "resolving them)");
  } else if (Error e = chooseObservers(module, function, data, maxSamples,
                                       reduction)) {
    return e;
  }
  for (ProfileObserver &o : profile.observers)
    if (o.config.kind == obs::ObserverKind::Auto)
      for (qnt::ObserveOp op : autos)
        if (nameOf(op) == o.name)
          o.choice = getObserverChoice(op);
  return Error::success();
}
