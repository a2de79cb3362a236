//===- npy-fuzzer.cpp - libFuzzer target: the .npy and .npz readers -------===//
//
// Parses each input as a .npy file (calibration and run data) and as a .npz
// archive (zip, zip64, stored or deflated members), and checks parsed arrays
// against a model input shape as the tools do. A refusal is fine; a crash or
// a sanitizer report is a finding.
//
//   scripts/fuzz.sh [minutes] npy
//
//===----------------------------------------------------------------------===//

#include "quantc/Runtime/Npy.h"

#include <cstdint>

static void checkShapes(const quantc::NpyArray &array) {
  static const int64_t image[] = {1, 3, 4, 4}, rows[] = {8, 10};
  for (llvm::ArrayRef<int64_t> input :
       {llvm::ArrayRef<int64_t>(image), llvm::ArrayRef<int64_t>(rows),
        llvm::ArrayRef<int64_t>()})
    llvm::consumeError(quantc::checkModelInputs(array, input, "input"));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<quantc::NpyArray> array = quantc::parseNpy(bytes, "input");
  if (array)
    checkShapes(*array);
  else
    llvm::consumeError(array.takeError());
  llvm::Expected<std::vector<quantc::NamedArray>> archive =
      quantc::parseNpz(bytes, "input");
  if (archive)
    for (const quantc::NamedArray &a : *archive)
      checkShapes(a.array);
  else
    llvm::consumeError(archive.takeError());
  return 0;
}
