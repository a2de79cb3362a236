//===- ReferenceModel.cpp - Run quantized IR with the int8 reference ------===//

#include "quantc/Calibrate/ReferenceModel.h"
#include "Fail.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Calibrate/CompiledModel.h"
#include "quantc/Reference/Reference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace quantc;
using llvm::Error;

using quantc::detail::fail;

namespace {

/// A value during evaluation: floats, or integers of a quantized tensor
/// (8-bit activations and weights, 32-bit biases).
struct Buffer {
  std::vector<float> f;
  std::vector<int8_t> q8;
  std::vector<int32_t> q32;
  std::vector<int64_t> shape;
};

std::vector<int64_t> shapeOf(Value v) {
  auto s = cast<ShapedType>(v.getType()).getShape();
  return {s.begin(), s.end()};
}

/// The ref view of an 8-bit per-tensor quantized buffer.
ref::QTensor view(Buffer &b, Value v) {
  auto t = cast<quant::UniformQuantizedType>(
      cast<ShapedType>(v.getType()).getElementType());
  ref::QTensor q;
  q.data = b.q8.data();
  q.isSigned = t.isSigned();
  q.shape = b.shape;
  q.scale = static_cast<float>(t.getScale());
  q.zeroPoint = static_cast<int32_t>(t.getZeroPoint());
  q.qmin = static_cast<int32_t>(t.getStorageTypeMin());
  q.qmax = static_cast<int32_t>(t.getStorageTypeMax());
  return q;
}

ref::QWeights weights(Buffer &b, Value v) {
  ref::QWeights w;
  w.data = b.q8.data();
  w.shape = b.shape;
  Type elt = cast<ShapedType>(v.getType()).getElementType();
  if (auto t = dyn_cast<quant::UniformQuantizedType>(elt))
    w.scales = {static_cast<float>(t.getScale())};
  else
    for (double s : cast<quant::UniformQuantizedPerAxisType>(elt).getScales())
      w.scales.push_back(static_cast<float>(s));
  return w;
}

ref::FusedActivation activationOf(qnt::Activation a,
                                  std::optional<llvm::APFloat> lo,
                                  std::optional<llvm::APFloat> hi) {
  ref::FusedActivation act;
  act.kind = static_cast<ref::Activation>(static_cast<int>(a));
  if (lo)
    act.clampMin = lo->convertToFloat();
  if (hi)
    act.clampMax = hi->convertToFloat();
  return act;
}

ref::Window2D window(ArrayRef<int64_t> strides, ArrayRef<int64_t> pad,
                     ArrayRef<int64_t> dilations = {1, 1}) {
  ref::Window2D w;
  w.strideH = strides[0];
  w.strideW = strides[1];
  w.padTop = pad[0];
  w.padBottom = pad[1];
  w.padLeft = pad[2];
  w.padRight = pad[3];
  w.dilationH = dilations[0];
  w.dilationW = dilations[1];
  return w;
}

bool supported(Operation *op) {
  if (isa<arith::ConstantOp, tosa::ConstOp, tosa::ConstShapeOp,
          quant::QuantizeCastOp, quant::DequantizeCastOp, quant::StorageCastOp,
          qnt::LinearOp, qnt::AddOp, qnt::MaxPool2DOp, qnt::AvgPool2DOp,
          qnt::ConcatOp, qnt::RequantizeOp, tosa::ReshapeOp, tosa::TransposeOp,
          func::ReturnOp>(op))
    return true;
  if (auto conv = dyn_cast<qnt::Conv2DOp>(op))
    return conv.isQuantized();
  return false;
}

} // namespace

llvm::Expected<std::unique_ptr<ReferenceModel>>
ReferenceModel::create(ModuleOp module, StringRef function) {
  llvm::Expected<Operation *> fn = findModelFunction(module, function);
  if (!fn)
    return fn.takeError();
  auto func = cast<func::FuncOp>(*fn);
  if (func.getNumArguments() != 1 || func.getNumResults() != 1)
    return fail("the reference model runs functions with one input and one "
                "output");
  for (Operation &op : func.getBody().front())
    if (!supported(&op))
      return fail("the int8 reference has no implementation of '" +
                  op.getName().getStringRef() +
                  "' (quantize the model with qnt-quantize first)");
  std::unique_ptr<ReferenceModel> model(new ReferenceModel());
  model->function = func;
  model->input = shapeOf(func.getArgument(0));
  model->output =
      shapeOf(func.getBody().front().getTerminator()->getOperand(0));
  return model;
}

Error ReferenceModel::run(const float *in, float *out) const {
  auto func = cast<func::FuncOp>(function);
  llvm::DenseMap<Value, Buffer> values;
  Buffer &arg = values[func.getArgument(0)];
  arg.shape = input;
  int64_t n = 1;
  for (int64_t d : input)
    n *= d;
  arg.f.assign(in, in + n);
  auto newBuffer = [&](Value v) -> Buffer & {
    Buffer &b = values[v];
    b.shape = shapeOf(v);
    int64_t count = 1;
    for (int64_t d : b.shape)
      count *= d;
    Type elt = cast<ShapedType>(v.getType()).getElementType();
    if (auto q = dyn_cast<quant::QuantizedType>(elt)) {
      if (q.getStorageTypeIntegralWidth() == 8)
        b.q8.resize(count);
      else
        b.q32.resize(count);
    } else {
      b.f.resize(count);
    }
    return b;
  };
  auto check = [](ref::Error e, Operation *op) -> Error {
    if (e)
      return fail("'" + op->getName().getStringRef() + "': " + *e);
    return Error::success();
  };

  for (Operation &opRef : func.getBody().front()) {
    Operation *op = &opRef;
    ref::Error status;
    DenseFPElementsAttr floats;
    if (op->hasTrait<OpTrait::ConstantLike>() && op->getNumResults() == 1 &&
        matchPattern(op->getResult(0), m_Constant(&floats)) &&
        floats.getElementType().isF32()) {
      Buffer &b = newBuffer(op->getResult(0));
      b.f.assign(floats.getValues<float>().begin(),
                 floats.getValues<float>().end());
    } else if (auto scast = dyn_cast<quant::StorageCastOp>(op)) {
      DenseIntElementsAttr attr;
      if (!matchPattern(scast.getInput(), m_Constant(&attr)))
        return fail("quant.scast of a non-constant");
      Buffer &b = newBuffer(scast.getResult());
      bool isSigned = cast<quant::QuantizedType>(
                          cast<ShapedType>(scast.getType()).getElementType())
                          .isSigned();
      int64_t i = 0;
      for (const APInt &v : attr.getValues<APInt>()) {
        int64_t x = isSigned ? v.getSExtValue() : int64_t(v.getZExtValue());
        if (!b.q8.empty())
          b.q8[i++] = static_cast<int8_t>(x);
        else
          b.q32[i++] = static_cast<int32_t>(x);
      }
    } else if (auto qc = dyn_cast<quant::QuantizeCastOp>(op)) {
      Buffer &b = newBuffer(qc.getResult());
      status = ref::quantizeTensor(values[qc.getInput()].f.data(),
                                   view(b, qc.getResult()));
    } else if (auto dc = dyn_cast<quant::DequantizeCastOp>(op)) {
      Buffer &b = newBuffer(dc.getResult());
      status = ref::dequantizeTensor(view(values[dc.getInput()], dc.getInput()),
                                     b.f.data());
    } else if (auto conv = dyn_cast<qnt::Conv2DOp>(op)) {
      Buffer &b = newBuffer(conv.getOutput());
      ref::Conv2DParams p;
      p.window = window(conv.getStrides(), conv.getPad(), conv.getDilations());
      p.groups = static_cast<int64_t>(conv.getGroups());
      p.activation = activationOf(conv.getActivation(), conv.getClampMin(),
                                  conv.getClampMax());
      std::optional<ref::QTensor> residual;
      if (conv.getResidual())
        residual = view(values[conv.getResidual()], conv.getResidual());
      status = ref::conv2d(
          view(values[conv.getInput()], conv.getInput()),
          weights(values[conv.getFilter()], conv.getFilter()),
          conv.getBias() ? values[conv.getBias()].q32.data() : nullptr, p,
          residual ? &*residual : nullptr, view(b, conv.getOutput()));
    } else if (auto linear = dyn_cast<qnt::LinearOp>(op)) {
      Buffer &b = newBuffer(linear.getOutput());
      // [..., K] x [N, K]: the leading dimensions are rows.
      ref::QTensor x = view(values[linear.getInput()], linear.getInput());
      ref::QTensor y = view(b, linear.getOutput());
      int64_t k = x.shape.back(), rows = x.numElements() / k;
      x.shape = {rows, k};
      y.shape = {rows, y.shape.back()};
      status = ref::matmul(
          x, weights(values[linear.getWeight()], linear.getWeight()),
          linear.getBias() ? values[linear.getBias()].q32.data() : nullptr,
          activationOf(linear.getActivation(), linear.getClampMin(),
                       linear.getClampMax()),
          y);
    } else if (auto add = dyn_cast<qnt::AddOp>(op)) {
      Buffer &b = newBuffer(add.getOutput());
      status = ref::add(
          view(values[add.getLhs()], add.getLhs()),
          view(values[add.getRhs()], add.getRhs()),
          activationOf(add.getActivation(), std::nullopt, std::nullopt),
          view(b, add.getOutput()));
    } else if (isa<qnt::MaxPool2DOp, qnt::AvgPool2DOp>(op)) {
      Buffer &b = newBuffer(op->getResult(0));
      Value x = op->getOperand(0);
      ref::Pool2DParams p;
      auto kernel = op->getAttrOfType<DenseI64ArrayAttr>("kernel");
      auto strides = op->getAttrOfType<DenseI64ArrayAttr>("strides");
      auto pad = op->getAttrOfType<DenseI64ArrayAttr>("pad");
      SmallVector<int64_t> s = strides
                                   ? SmallVector<int64_t>(strides.asArrayRef())
                                   : SmallVector<int64_t>{1, 1};
      SmallVector<int64_t> pd = pad ? SmallVector<int64_t>(pad.asArrayRef())
                                    : SmallVector<int64_t>{0, 0, 0, 0};
      p.kernelH = kernel[0];
      p.kernelW = kernel[1];
      p.window = window(s, pd);
      status =
          isa<qnt::MaxPool2DOp>(op)
              ? ref::maxPool2d(view(values[x], x), p, view(b, op->getResult(0)))
              : ref::avgPool2d(view(values[x], x), p,
                               view(b, op->getResult(0)));
    } else if (auto concat = dyn_cast<qnt::ConcatOp>(op)) {
      Buffer &b = newBuffer(concat.getOutput());
      if (concat.getAxis() + 1 !=
          static_cast<uint64_t>(cast<ShapedType>(concat.getType()).getRank()))
        return fail("the int8 reference concatenates along the last axis "
                    "only");
      std::vector<ref::QTensor> inputs;
      for (Value v : concat.getInputs())
        inputs.push_back(view(values[v], v));
      status = ref::concatChannels(inputs, view(b, concat.getOutput()));
    } else if (auto rq = dyn_cast<qnt::RequantizeOp>(op)) {
      Buffer &b = newBuffer(rq.getOutput());
      // A one-input concatenation is a requantization.
      status = ref::concatChannels({view(values[rq.getInput()], rq.getInput())},
                                   view(b, rq.getOutput()));
    } else if (auto reshape = dyn_cast<tosa::ReshapeOp>(op)) {
      Buffer b = values[reshape.getInput1()];
      b.shape = shapeOf(reshape.getResult());
      values[reshape.getResult()] = std::move(b);
    } else if (auto transpose = dyn_cast<tosa::TransposeOp>(op)) {
      // Moves elements only: permute whichever storage the buffer uses.
      const Buffer &in = values[transpose.getInput1()];
      Buffer &outB = newBuffer(transpose.getResult());
      ArrayRef<int32_t> perms = transpose.getPerms();
      int64_t rank = static_cast<int64_t>(in.shape.size());
      std::vector<int64_t> inStrides(rank, 1);
      for (int64_t d = rank - 2; d >= 0; --d)
        inStrides[d] = inStrides[d + 1] * in.shape[d + 1];
      std::vector<int64_t> index(rank, 0);
      int64_t count = 1;
      for (int64_t d : outB.shape)
        count *= d;
      for (int64_t i = 0; i < count; ++i) {
        int64_t src = 0;
        for (int64_t d = 0; d < rank; ++d)
          src += index[d] * inStrides[perms[d]];
        if (!in.f.empty())
          outB.f[i] = in.f[src];
        else if (!in.q8.empty())
          outB.q8[i] = in.q8[src];
        else
          outB.q32[i] = in.q32[src];
        for (int64_t d = rank - 1; d >= 0; --d) {
          if (++index[d] < outB.shape[d])
            break;
          index[d] = 0;
        }
      }
    } else if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      const Buffer &r = values[ret.getOperand(0)];
      if (r.f.empty())
        return fail("the model result is not a float tensor");
      std::copy(r.f.begin(), r.f.end(), out);
    }
    if (Error e = check(status, op))
      return e;
  }
  return Error::success();
}
