//===- profile-fuzzer.cpp - libFuzzer target: calibration profiles --------===//
//
// Parses each input as a calibration profile (JSON), then does what the
// tools do with one: merges it with itself (every observer rebuilt from its
// configuration and state and merged) and writes it back as JSON, which
// recomputes every observer's range and quantization parameters. A refusal
// is fine; a crash or a sanitizer report is a finding.
//
//   scripts/fuzz.sh [minutes] profile
//
//===----------------------------------------------------------------------===//

#include "quantc/Calibrate/Profile.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::Expected<quantc::Profile> profile = quantc::parseProfile(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "input");
  if (!profile) {
    llvm::consumeError(profile.takeError());
    return 0;
  }
  quantc::Profile twice[] = {*profile, *profile};
  llvm::Expected<quantc::Profile> merged = quantc::mergeProfiles(twice);
  if (!merged) {
    llvm::consumeError(merged.takeError());
    return 0;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << quantc::toJSON(*merged);
  return 0;
}
