//===- ObserverChoice.h - Auto observers resolved in the IR -----*- C++ -*-===//
//
// An `auto` observer (quant-compile --activation-observer=auto) collects the
// calibrators' statistics; after calibration it becomes min_max, percentile,
// entropy or mse. These functions move that choice between the IR (the
// observer's config and state, and the `quantc.observer_choice` attribute
// that keeps the scores), the observer library and profiles, and choose it
// (chooseObservers).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATE_OBSERVERCHOICE_H
#define QUANTC_CALIBRATE_OBSERVERCHOICE_H

#include "quantc/Calibrate/Profile.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace quantc {

/// The discardable attribute of a resolved observer that records its choice:
/// {kind = "entropy", consumers = "...", scores = {min_max = 1.0e-3 : f64,
/// ...}}.
inline constexpr llvm::StringLiteral kObserverChoiceAttr =
    "quantc.observer_choice";

/// True for a calibrated `auto` observer not yet resolved.
bool isAutoObserver(mlir::qnt::ObserveOp op);

/// The observer of the calibrated auto observer `op` as folding would load
/// it (op.loadObserver with `reduction`), resolved to `kind`: its qparams
/// are those `op` folds to once applyObserverChoice made it `kind`.
llvm::Expected<obs::Observer> loadObserverAs(mlir::qnt::ObserveOp op,
                                             obs::ObserverKind kind,
                                             obs::RangeReduction reduction);

/// Resolves the calibrated auto observer `op` to `choice.kind`: its config
/// and state become those of a `choice.kind` observer that saw the same
/// data (Observer::asKind), and the choice is recorded in its
/// kObserverChoiceAttr.
llvm::Error applyObserverChoice(mlir::qnt::ObserveOp op,
                                const ObserverChoice &choice);

/// Chooses the kind of every calibrated auto observer of `function` in
/// `module` by the error each candidate causes downstream (the estimated
/// mean squared error of its consumers' outputs, see ChooseObservers.cpp)
/// on the calibration data `data` (.npy / .npz files or directories, up to
/// `maxSamples` model runs, 0: all), with the qparams folding computes for
/// `reduction`; then applies the choices (applyObserverChoice).
llvm::Error chooseObservers(mlir::ModuleOp module, llvm::StringRef function,
                            llvm::ArrayRef<std::string> data,
                            int64_t maxSamples, obs::RangeReduction reduction);

/// Resolves every calibrated auto observer of `module`: with no `data`, to
/// the choices `loaded` (the profile calibration started from) records;
/// else by chooseObservers on `data`. The choices are copied into the
/// matching observers of `profile` (the calibrated model's). Without auto
/// observers, nothing happens.
llvm::Error
resolveAutoObservers(mlir::ModuleOp module, llvm::StringRef function,
                     const Profile *loaded, llvm::ArrayRef<std::string> data,
                     int64_t maxSamples, obs::RangeReduction reduction,
                     Profile &profile);

/// The choice recorded on `op`, if any.
std::optional<ObserverChoice> getObserverChoice(mlir::qnt::ObserveOp op);

} // namespace quantc

#endif // QUANTC_CALIBRATE_OBSERVERCHOICE_H
