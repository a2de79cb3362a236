//===- Pipelines.cpp - Named pass pipelines -------------------------------===//

#include "quantc/Pipelines/Pipelines.h"

#include "dialects/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;

/// Upstream passes are composed by name: it keeps the pipeline readable and
/// identical to what `quant-opt --pass-pipeline=...` runs.
static constexpr const char *kFloatToLLVM =
    "func.func(qnt-lower-fake-quant,qnt-lower-float-conv,qnt-lower-batch-norm,"
    "tosa-to-linalg-named,"
    "tosa-to-linalg,"
    "tosa-to-arith,tosa-to-tensor),"
    "canonicalize,"
    "func.func(quantc-tile-and-vectorize),"
    "loop-invariant-subset-hoisting,canonicalize,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{modify-public-functions "
    "hoist-static-allocs},"
    "buffer-deallocation-pipeline,"
    "quantc-memref-copy-to-linalg,"
    "func.func(convert-vector-to-scf{full-unroll}),"
    "convert-linalg-to-loops,quantc-outline-loop-nests,lower-affine,"
    "convert-scf-to-cf,expand-strided-metadata,lower-affine,"
    "convert-vector-to-llvm{vector-contract-lowering=outerproduct},"
    "convert-to-llvm,reconcile-unrealized-casts";

void quantc::buildFloatToLLVMPipeline(OpPassManager &pm) {
  if (failed(parsePassPipeline(kFloatToLLVM, pm)))
    llvm::report_fatal_error("quantc-float-to-llvm: invalid pipeline");
}

void quantc::buildInt8ToLLVMPipeline(OpPassManager &pm, StringRef isa) {
  if (failed(parsePassPipeline(("qnt-lower-quantized{isa=" + isa + "}").str(),
                               pm)))
    llvm::report_fatal_error("quantc-int8-to-llvm: invalid pipeline");
  buildFloatToLLVMPipeline(pm);
  pm.addPass(qnt::createQntLowerPureIntrinsics());
}

void quantc::buildCalibrationPipeline(OpPassManager &pm) {
  pm.addPass(qnt::createQntInstrumentObservers());
  buildFloatToLLVMPipeline(pm);
}

void quantc::stripBufferizationAttrs(Operation *module) {
  module->walk([](LLVM::LLVMFuncOp fn) {
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
      SmallVector<NamedAttribute> kept;
      for (NamedAttribute attr : fn.getArgAttrDict(i)
                                     ? fn.getArgAttrDict(i).getValue()
                                     : ArrayRef<NamedAttribute>())
        if (!attr.getName().getValue().starts_with("bufferization."))
          kept.push_back(attr);
      fn.setArgAttrs(i, kept);
    }
  });
}

void quantc::registerPipelines() {
  PassPipelineRegistration<>(
      "quantc-float-to-llvm",
      "Lower a float TOSA model on tensors to the LLVM dialect",
      buildFloatToLLVMPipeline);
  struct Int8Options : public PassPipelineOptions<Int8Options> {
    Option<std::string> isa{*this, "isa",
                            llvm::cl::desc("generic, avx2, avx512-vnni, "
                                           "neon-dot or neon-i8mm"),
                            llvm::cl::init("generic")};
  };
  PassPipelineRegistration<Int8Options>(
      "quantc-int8-to-llvm",
      "Lower a quantized model to the LLVM dialect with int8 kernels",
      [](OpPassManager &pm, const Int8Options &options) {
        buildInt8ToLLVMPipeline(pm, options.isa);
      });
  PassPipelineRegistration<>(
      "quantc-calibration-build",
      "Instrument observers with runtime calls and lower to the LLVM dialect",
      buildCalibrationPipeline);
}
