//===- QuantizeDataMovement.cpp - quantize of pooling, resize, concat ----===//
//
// QuantizableOpInterface::quantize of the TOSA ops that keep or combine
// their inputs' grids: max / average pooling and bilinear resize (role
// same_as_input, with int8 ops of their own) and concat.
//
//===----------------------------------------------------------------------===//

#include "dialects/Qnt/IR/QuantParams.h"
#include "dialects/Qnt/IR/QuantizeUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

using namespace mlir;
using namespace mlir::qnt;

/// An average pool quantizes to the parameters of the qcast after it (a
/// QDQ model's), else it keeps its input's (its role, as in PyTorch).
LogicalResult mlir::qnt::quantizeAvgPool(tosa::AvgPool2dOp op,
                                         RewriterBase &b) {
  Value q = quantizedSource(op.getInput());
  if (!q)
    return success();
  auto int8Form = [&](Value q, Type qType) -> Value {
    return AvgPool2DOp::create(b, op.getLoc(), qType, q, op.getKernelAttr(),
                               op.getStrideAttr(), op.getPadAttr());
  };
  quant::QuantizeCastOp sink = quantizedSink(op.getResult());
  if (!sink) {
    keepInputParams(op, b, int8Form);
    return success();
  }
  b.setInsertionPoint(sink);
  b.replaceOp(sink, int8Form(q, sink.getType()));
  b.eraseOp(op);
  return success();
}

/// Max pooling keeps its input's parameters (qnt.max_pool2d).
LogicalResult mlir::qnt::quantizeMaxPool(tosa::MaxPool2dOp op,
                                         RewriterBase &b) {
  keepInputParams(op, b, [&](Value q, Type qType) -> Value {
    return MaxPool2DOp::create(b, op.getLoc(), qType, q, op.getKernelAttr(),
                               op.getStrideAttr(), op.getPadAttr());
  });
  return success();
}

/// A bilinear tosa.resize with constant parameters as qnt.resize_bilinear
/// on `q` (result type `qType`), or nullopt.
static std::optional<ResizeBilinearOp>
bilinearResize(OpBuilder &b, Operation *op, Type qType, Value q) {
  auto resize = dyn_cast<tosa::ResizeOp>(op);
  SmallVector<int64_t> scale, offset, border;
  if (!resize || resize.getMode() != tosa::ResizeMode::BILINEAR ||
      !resize.getScale().getDefiningOp() ||
      !tosa::getConstShapeValues(resize.getScale().getDefiningOp(), scale) ||
      !resize.getOffset().getDefiningOp() ||
      !tosa::getConstShapeValues(resize.getOffset().getDefiningOp(), offset) ||
      !resize.getBorder().getDefiningOp() ||
      !tosa::getConstShapeValues(resize.getBorder().getDefiningOp(), border))
    return std::nullopt;
  return ResizeBilinearOp::create(
      b, op->getLoc(), qType, q, b.getDenseI64ArrayAttr(scale),
      b.getDenseI64ArrayAttr(offset), b.getDenseI64ArrayAttr(border));
}

/// A resize keeps its input's parameters: bilinear with constant parameters
/// is qnt.resize_bilinear, nearest neighbour moves storage values.
LogicalResult mlir::qnt::quantizeResize(tosa::ResizeOp op, RewriterBase &b) {
  keepInputParams(op, b, [&](Value q, Type qType) -> Value {
    if (std::optional<ResizeBilinearOp> bilinear =
            bilinearResize(b, op, qType, q))
      return *bilinear;
    return {};
  });
  return success();
}

/// True when every use of `v` is the function's return, directly or through
/// dequantizes, reshapes and transposes: a graph output.
static bool onlyReturned(Value v) {
  if (v.use_empty())
    return false;
  for (Operation *user : v.getUsers()) {
    if (isa<func::ReturnOp>(user))
      continue;
    if (isa<quant::DequantizeCastOp, tosa::ReshapeOp, tosa::TransposeOp>(
            user) &&
        onlyReturned(user->getResult(0)))
      continue;
    return false;
  }
  return true;
}

/// A concat of quantized tensors: qnt.concat requantizing each input to the
/// output's parameters.
LogicalResult mlir::qnt::quantizeConcat(tosa::ConcatOp op, RewriterBase &b) {
  SmallVector<Value> inputs;
  for (Value v : op.getInput1()) {
    Value q = quantizedSource(v);
    if (!q)
      return success();
    inputs.push_back(q);
  }
  quant::QuantizeCastOp sink = quantizedSink(op.getResult());
  if (!sink)
    return success();
  // A Concat that is a graph output of inputs on very different grids (a
  // detector's box coordinates and class probabilities in one tensor): one
  // shared scale would keep less than 4 of an input's 8 bits (the scores a
  // step or two), so the output is the float concat of the dequantized
  // inputs, each on its own grid.
  double outScale = quantParams(elementOf(sink.getResult()))->scale();
  bool coarse = llvm::any_of(inputs, [&](Value q) {
    QuantParams p = *quantParams(elementOf(q));
    return p.scales.size() == 1 && outScale > 16.0 * p.scale();
  });
  if (coarse && onlyReturned(sink.getResult())) {
    for (Operation *user : llvm::make_early_inc_range(sink->getUsers()))
      if (auto dc = dyn_cast<quant::DequantizeCastOp>(user))
        b.replaceOp(dc, op.getResult());
    if (sink->use_empty())
      b.eraseOp(sink);
    return success();
  }
  b.setInsertionPoint(sink);
  auto concat = ConcatOp::create(b, op.getLoc(), sink.getType(), inputs,
                                 b.getI64IntegerAttr(op.getAxis()));
  b.replaceOp(sink, concat.getOutput());
  b.eraseOp(op);
  return success();
}
