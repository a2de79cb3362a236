//===- LowerQuantized.cpp - The qnt-lower-quantized pass ------------------===//
//
// The type conversion (quantized tensors -> storage integer tensors), the
// pattern set of the non-convolution ops, and the pass
// that runs the dialect conversion: function signatures, the convolution
// patterns (Conv.cpp) and the patterns of this folder. Before converting,
// the pass names any op on quantized tensors it cannot lower.
//
//===----------------------------------------------------------------------===//

#include "quantc/Conversion/LowerQuantized.h"

#include "Common.h"
#include "Patterns.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseSet.h"

namespace quantc {
#define GEN_PASS_DEF_QNTLOWERQUANTIZED
#include "quantc/Conversion/Passes.h.inc"
} // namespace quantc

using namespace mlir;
using namespace quantc;

void quantc::populateQuantTypeConversion(TypeConverter &typeConverter) {
  // Tried last-added first: the identity is the fallback.
  typeConverter.addConversion([](Type type) { return type; });
  typeConverter.addConversion([](quant::QuantizedType type) -> Type {
    return IntegerType::get(type.getContext(),
                            type.getStorageTypeIntegralWidth());
  });
  typeConverter.addConversion([](TensorType type) -> std::optional<Type> {
    auto q = dyn_cast<quant::QuantizedType>(type.getElementType());
    if (!q)
      return std::nullopt;
    return type.clone(
        IntegerType::get(type.getContext(), q.getStorageTypeIntegralWidth()));
  });
}

void quantc::populateQuantizedOpLoweringPatterns(TypeConverter &typeConverter,
                                                 RewritePatternSet &patterns,
                                                 Int8Isa isa) {
  lowering::populateElementwisePatterns(typeConverter, patterns, isa);
  lowering::populatePoolPatterns(typeConverter, patterns);
  lowering::populateConcatPatterns(typeConverter, patterns);
  lowering::populateResizePatterns(typeConverter, patterns);
  lowering::populateCastPatterns(typeConverter, patterns);
}

/// Errors for ops on quantized tensors that no pattern lowers (unknown ops,
/// dynamic shapes, per-axis activations), naming the op; the conversion's
/// own "failed to legalize" would not say why. `lowered` is the set of op
/// names the patterns are rooted at, so the patterns are the one list; data
/// movement (qnt::movesStorage) has one pattern for all.
static LogicalResult
checkLowerable(Operation *root, const TypeConverter &typeConverter,
               const llvm::DenseSet<OperationName> &lowered) {
  WalkResult result = root->walk([&](Operation *op) {
    // Function boundaries take any type the converter knows.
    if (isa<ModuleOp, func::FuncOp, func::ReturnOp, func::CallOp>(op) ||
        typeConverter.isLegal(op))
      return WalkResult::advance();
    if (!lowered.contains(op->getName()) && !qnt::movesStorage(op)) {
      op->emitError() << "'" << op->getName()
                      << "' on quantized tensors has no int8 lowering";
      return WalkResult::interrupt();
    }
    for (Type t :
         llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
      auto shaped = dyn_cast<ShapedType>(t);
      if (shaped && !shaped.hasStaticShape()) {
        op->emitError() << "'" << op->getName()
                        << "': the int8 lowering needs statically shaped "
                           "tensors";
        return WalkResult::interrupt();
      }
    }
    // Activations: per-tensor, 8-bit storage (weights and biases of conv /
    // linear and storage casts are exempt).
    if (isa<qnt::Conv2DOp, qnt::LinearOp, quant::StorageCastOp>(op))
      return WalkResult::advance();
    for (Type t :
         llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
      auto shaped = dyn_cast<ShapedType>(t);
      if (shaped && isa<quant::QuantizedType>(shaped.getElementType()) &&
          !lowering::getQInfo(shaped)) {
        op->emitError() << "'" << op->getName()
                        << "': the int8 lowering needs per-tensor "
                           "!quant.uniform types with 8-bit storage and f32 "
                           "expressed type";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

namespace {

struct QntLowerQuantizedPass
    : quantc::impl::QntLowerQuantizedBase<QntLowerQuantizedPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const Int8IsaInfo *info = lookupInt8Isa(isa);
    if (!info) {
      module.emitError() << "qnt-lower-quantized: unknown isa '" << isa
                         << "' (expected one of " << int8IsaNames() << ")";
      return signalPassFailure();
    }
    Int8Isa target = info->isa;
    MLIRContext *ctx = &getContext();
    TypeConverter typeConverter;
    populateQuantTypeConversion(typeConverter);

    ConversionTarget legality(*ctx);
    legality.addLegalOp<ModuleOp>();
    legality.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (auto fn = dyn_cast<func::FuncOp>(op))
        return typeConverter.isSignatureLegal(fn.getFunctionType()) &&
               typeConverter.isLegal(&fn.getBody());
      return typeConverter.isLegal(op);
    });

    RewritePatternSet patterns(ctx);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(
        patterns, typeConverter);
    populateReturnOpTypeConversionPattern(patterns, typeConverter);
    populateCallOpTypeConversionPattern(patterns, typeConverter);
    populateConvLoweringPatterns(typeConverter, patterns, target);
    populateQuantizedOpLoweringPatterns(typeConverter, patterns, target);
    llvm::DenseSet<OperationName> lowered;
    for (const std::unique_ptr<RewritePattern> &pattern :
         patterns.getNativePatterns())
      if (std::optional<OperationName> root = pattern->getRootKind())
        lowered.insert(*root);
    if (failed(checkLowerable(module, typeConverter, lowered)))
      return signalPassFailure();
    // No folding: upstream folds dcast(qcast(x)) to x, but a float op that
    // reads a quantized value (a layer left in float after a quantized
    // input) must see the values on the int8 grid.
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(applyPartialConversion(module, legality, std::move(patterns),
                                      config)))
      signalPassFailure();
  }
};

} // namespace
