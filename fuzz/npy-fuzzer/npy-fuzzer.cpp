//===- npy-fuzzer.cpp - libFuzzer target: the .npy reader -----------------===//
//
// Parses each input as a .npy file (calibration and run data) and checks a
// parsed array against a model input shape as the tools do. A refusal is
// fine; a crash or a sanitizer report is a finding.
//
//   scripts/fuzz.sh [minutes] npy
//
//===----------------------------------------------------------------------===//

#include "quantc/Calibrate/Npy.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::Expected<quantc::NpyArray> array = quantc::parseNpy(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "input");
  if (!array) {
    llvm::consumeError(array.takeError());
    return 0;
  }
  static const int64_t image[] = {1, 3, 4, 4}, rows[] = {8, 10};
  for (llvm::ArrayRef<int64_t> input :
       {llvm::ArrayRef<int64_t>(image), llvm::ArrayRef<int64_t>(rows),
        llvm::ArrayRef<int64_t>()})
    llvm::consumeError(quantc::checkModelInputs(*array, input, "input"));
  return 0;
}
