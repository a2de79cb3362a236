//===- OnnxImportFuzzer.cpp - libFuzzer target: the ONNX importer ---------===//
//
// Imports each input as an ONNX model, verifies what the importer built and
// runs the passes quant-compile starts with (qnt-fuse, qnt-insert-observers).
// A rejected model is fine; a crash, a sanitizer report or an imported
// module that does not verify (the importer must refuse what it cannot
// represent before building IR) is a finding.
//
// Inputs are mutated structurally (OnnxMutator.h) when they parse as a
// model, with libFuzzer's byte mutations now and then and for the rest.
//
//   scripts/fuzz.sh [minutes] onnx-import
//
//===----------------------------------------------------------------------===//

#include "fuzz/OnnxMutator/OnnxMutator.h"

#include "quantc/Import/OnnxImporter.h"
#include "quantc/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace mlir;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  quantc::registerAllPasses();
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::mt19937_64 rng(seed);
  onnx::ModelProto model;
  if (rng() % 8 == 0 || !model.ParseFromArray(data, static_cast<int>(size)))
    return LLVMFuzzerMutate(data, size, maxSize);
  quantc::fuzz::mutateOnnxModel(model, rng);
  std::string bytes;
  if (!model.SerializeToString(&bytes) || bytes.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, bytes.data(), bytes.size());
  return bytes.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  DialectRegistry registry;
  quantc::registerAllDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  // Rejections are expected: keep their messages off stderr.
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  quantc::OnnxImportOptions options;
  options.batch = 1;
  OwningOpRef<ModuleOp> module = quantc::importOnnx(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), context,
      options);
  if (!module)
    return 0;
  if (failed(verify(*module))) {
    std::fprintf(stderr, "the imported module does not verify:\n");
    module->print(llvm::errs());
    std::abort();
  }
  PassManager pm(&context);
  if (failed(parsePassPipeline(
          "builtin.module(func.func(qnt-fuse,qnt-insert-observers))", pm)))
    std::abort();
  (void)pm.run(*module);
  return 0;
}
