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
#include <string>
#include <vector>

namespace quantc {

/// The version string tools write into profiles.
extern const char *const kToolVersion;

/// One observer of the model.
struct ProfileObserver {
  std::string name;
  /// Source location of the observed value (file:line:col), if known.
  std::string location;
  /// Shape of the observed tensor.
  std::vector<int64_t> shape;
  obs::ObserverConfig config;
  obs::ObserverState state;
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

/// The JSON form, with each observer's derived range and qparams added (they
/// are recomputed, never read back).
llvm::json::Value toJSON(const Profile &profile);

/// Reads and checks a profile file: format, version, every observer's
/// config and state (against the observer library's own checks).
llvm::Expected<Profile> readProfile(llvm::StringRef path);
/// As readProfile, from the file's text; `source` names it in messages.
llvm::Expected<Profile> parseProfile(llvm::StringRef text,
                                     llvm::StringRef source);

/// Writes `profile` to `path` through a temporary file and a rename, so a
/// failure never leaves a half-written profile behind.
llvm::Error writeProfile(llvm::StringRef path, const Profile &profile);

/// Combines profiles of the same model (calibration split across runs or
/// machines). Fails when the model hashes, observer names, shapes or
/// configurations differ. The result does not depend on the order of
/// `profiles`: they are combined in a canonical order.
llvm::Expected<Profile> mergeProfiles(llvm::ArrayRef<Profile> profiles);

} // namespace quantc

#endif // QUANTC_CALIBRATE_PROFILE_H
