//===- Profile.h - Calibration profiles (JSON) ------------------*- C++ -*-===//
//
// A profile is what calibration learned about a model, in a file a user can
// read, diff, merge and reload: every observer's configuration and state,
// the range and qparams they give, and where the numbers came from.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CALIBRATE_PROFILE_H
#define QUANTC_CALIBRATE_PROFILE_H

#include "quantc/Observers/Observer.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace quantc {

class OutputSet;

/// The version string tools write into profiles.
extern const char *const kToolVersion;

/// Why an `auto` observer became the kind it is (quant-compile
/// --activation-observer=auto).
struct ObserverChoice {
  /// The chosen kind: one of obs::kAutoCandidates, the one with the least
  /// score (the first of equal ones).
  obs::ObserverKind kind = obs::ObserverKind::MinMax;
  /// Each candidate's score, in kAutoCandidates order: the estimated mean
  /// squared error its quantization of the tensor causes in the outputs of
  /// the tensor's consumers, on the calibration data (see
  /// quantc/Report/ObserverChoice.h).
  std::vector<std::pair<obs::ObserverKind, double>> scores;
  /// The consumers the score measures, e.g. "conv2d_3 (weighted), add_0".
  std::string consumers;
};

/// One observer of the model.
struct ProfileObserver {
  std::string name;
  /// Source location of the observed value (file:line:col), if known.
  std::string location;
  /// Shape of the observed tensor.
  std::vector<int64_t> shape;
  obs::ObserverConfig config;
  obs::ObserverState state;
  /// For an `auto` observer whose kind was chosen: the choice (its range and
  /// qparams are the chosen kind's).
  std::optional<ObserverChoice> choice;
};

/// All observers of one model, in the model's observer order.
struct Profile {
  /// SHA-256 of the model with observer states removed (see modelHash()).
  std::string modelHash;
  /// The calibrated function.
  std::string function;
  /// Tool and version that wrote the profile.
  std::string tool;
  /// Calibration samples (forward passes of the model) behind the state.
  int64_t samples = 0;
  /// Samples per observer batch.
  int64_t batchSize = 0;
  /// Files the samples came from, in the order they were used.
  std::vector<std::string> sources;
  std::vector<ProfileObserver> observers;
};

/// The JSON form of an observer configuration (as profiles write it).
llvm::json::Value toJSON(const obs::ObserverConfig &config);

/// The JSON form of an auto observer's choice (as profiles and the report
/// write it): {"kind", "scores": {candidate: score}, "consumers"}.
llvm::json::Value toJSON(const ObserverChoice &choice);

/// The JSON form, with each observer's derived range and qparams added (they
/// are recomputed, never read back).
llvm::json::Value toJSON(const Profile &profile);

/// Reads and checks a profile file: format, version, every observer's
/// config and state (against the observer library's own checks).
llvm::Expected<Profile> readProfile(llvm::StringRef path);
/// As readProfile, from the file's text; `source` names it in messages.
llvm::Expected<Profile> parseProfile(llvm::StringRef text,
                                     llvm::StringRef source);

/// Writes `profile` to `path` (quantc/Support/OutputFile.h): whole or not at
/// all. With `outputs`, the file is one of that set's outputs and appears
/// when the caller commits the set.
llvm::Error writeProfile(llvm::StringRef path, const Profile &profile,
                         OutputSet *outputs = nullptr);

/// Combines profiles of the same model (calibration split across runs or
/// machines). Fails when the model hashes, observer names, shapes or
/// configurations differ. The result does not depend on the order of
/// `profiles`: they are combined in a canonical order. Choices of `auto`
/// observers are kept from a single profile and dropped when several are
/// merged (they were scored on part of the data).
llvm::Expected<Profile> mergeProfiles(llvm::ArrayRef<Profile> profiles);

} // namespace quantc

#endif // QUANTC_CALIBRATE_PROFILE_H
