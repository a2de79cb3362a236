//===- qnt-fuzzer.cpp - libFuzzer target: qnt IR, verifiers and passes ----===//
//
// Parses each input as MLIR with every dialect quantc registers, verifies
// it, and on IR that verifies runs one of the qnt passes quant-compile
// runs (chosen by the input's length, so that every input always takes the
// same path): the float side (qnt-fuse, qnt-insert-observers), the
// quantizer (qnt-fold-observers, qnt-quantize) or the int8 lowering
// (qnt-lower-quantized), and verifies the result. Parse errors, verifier
// errors and pass failures are fine; a crash, a sanitizer report or a pass
// that succeeds with IR that does not verify is a finding.
//
//   scripts/fuzz.sh [minutes] qnt
//
//===----------------------------------------------------------------------===//

#include "quantc/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  quantc::registerAllPasses();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const pipelines[] = {
      "builtin.module(func.func(qnt-fuse,qnt-insert-observers))",
      "builtin.module(func.func(qnt-fold-observers,qnt-quantize))",
      "builtin.module(qnt-lower-quantized)",
  };
  DialectRegistry registry;
  quantc::registerAllDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  ParserConfig config(&context);
  // MLIR's lexer needs a null-terminated buffer, as files give it.
  std::string source(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, config);
  if (!module || failed(verify(*module)))
    return 0;
  PassManager pm(&context);
  pm.enableVerifier(false); // verified below, to report it
  if (failed(parsePassPipeline(pipelines[size % 3], pm)))
    std::abort();
  if (failed(pm.run(*module)))
    return 0;
  if (failed(verify(*module))) {
    std::fprintf(stderr, "%s produced IR that does not verify\n",
                 pipelines[size % 3]);
    std::abort();
  }
  return 0;
}
