//===- Casts.cpp - Storage casts and data movement on quantized tensors ---===//
//
// Ops that do not touch values once quantized types are storage integers:
// a storage cast is the storage tensor itself (constants stay constants of
// the storage type, e.g. int8 weights and int32 biases), a reshape is a
// collapse to one dimension followed by an expansion (views of the same
// buffer after bufferization), and data movement is the same TOSA op on
// storage integers.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "dialects/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

struct StorageCastLowering : OpConversionPattern<quant::StorageCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(quant::StorageCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    auto from = dyn_cast<RankedTensorType>(input.getType());
    auto to = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    if (!from || !to || from.getShape() != to.getShape() ||
        from.getElementTypeBitWidth() != to.getElementTypeBitWidth())
      return rewriter.notifyMatchFailure(op, "not a storage reinterpretation");
    if (from == to) {
      rewriter.replaceOp(op, input);
      return success();
    }
    // Same bits, another integer type (e.g. ui8 -> i8).
    DenseElementsAttr values;
    if (matchPattern(input, m_Constant(&values))) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, values.bitcast(to.getElementType()));
      return success();
    }
    rewriter.replaceOpWithNewOp<tensor::BitcastOp>(op, to, input);
    return success();
  }
};

struct ReshapeLowering : OpConversionPattern<tosa::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput1();
    auto from = dyn_cast<RankedTensorType>(input.getType());
    auto to = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    if (!from || !to || !from.hasStaticShape() || !to.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    // All dimensions into one; none for a scalar (rank 0), which is a
    // tensor<1x...> of one element collapsed away.
    auto all = [](int64_t rank) {
      ReassociationIndices dims;
      for (int64_t d = 0; d < rank; ++d)
        dims.push_back(d);
      return rank == 0 ? SmallVector<ReassociationIndices>{}
                       : SmallVector<ReassociationIndices>{dims};
    };
    Location loc = op.getLoc();
    auto flatType =
        RankedTensorType::get({from.getNumElements()}, from.getElementType());
    Value flat = input;
    if (from.getRank() == 0)
      flat =
          tensor::ExpandShapeOp::create(rewriter, loc, flatType, input, all(0));
    else if (from.getRank() != 1)
      flat = tensor::CollapseShapeOp::create(rewriter, loc, input,
                                             all(from.getRank()));
    Value result = flat;
    if (to.getRank() == 0)
      result = tensor::CollapseShapeOp::create(rewriter, loc, to, flat, all(0));
    else if (to.getRank() != 1)
      result = tensor::ExpandShapeOp::create(rewriter, loc, to, flat,
                                             all(to.getRank()));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Data movement (QuantizableOpInterface::movesStorage: transposes,
/// slices, tiles, zero pads, nearest resizes) keeps the values: the same op
/// on the storage integers, lowered by tosa-to-linalg / tosa-to-tensor with
/// the float ops. Reshapes have their own pattern (views, above).
struct StorageMovementLowering
    : OpInterfaceConversionPattern<mlir::qnt::QuantizableOpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;
  LogicalResult
  matchAndRewrite(mlir::qnt::QuantizableOpInterface op,
                  ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!mlir::qnt::movesStorage(op) || isa<tosa::ReshapeOp>(op))
      return rewriter.notifyMatchFailure(op, "not data movement");
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, types,
                         op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

} // namespace

void quantc::lowering::populateCastPatterns(TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  patterns.add<StorageCastLowering, ReshapeLowering, StorageMovementLowering>(
      typeConverter, patterns.getContext());
}
