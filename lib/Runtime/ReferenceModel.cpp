//===- ReferenceModel.cpp - Run quantized IR with the int8 reference ------===//

#include "quantc/Runtime/ReferenceModel.h"
#include "quantc/Support/Fail.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantParams.h"
#include "quantc/Reference/Reference.h"
#include "quantc/Runtime/CompiledModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

using namespace mlir;
using namespace quantc;
using llvm::Error;
using llvm::Expected;

using quantc::fail;

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
  ref::QTensor q = qnt::quantParams(v.getType())->refView();
  q.data = b.q8.data();
  q.shape = b.shape;
  return q;
}

ref::QWeights weights(Buffer &b, Value v) {
  ref::QWeights w;
  w.data = b.q8.data();
  w.shape = b.shape;
  qnt::QuantParams p = *qnt::quantParams(v.getType());
  for (size_t c = 0; c < p.scales.size(); ++c)
    w.scales.push_back(p.scale(c));
  return w;
}

ref::FusedActivation activationOf(qnt::Activation a,
                                  std::optional<llvm::APFloat> lo,
                                  std::optional<llvm::APFloat> hi) {
  ref::FusedActivation act;
  act.kind = qnt::refActivation(a);
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

/// The values of one evaluation.
class Env {
public:
  /// The buffer of `v` (created empty if absent). References stay valid
  /// while other buffers are created: evaluators hold their input's buffer
  /// while creating their result's.
  Buffer &operator[](Value v) {
    std::unique_ptr<Buffer> &b = values[v];
    if (!b)
      b = std::make_unique<Buffer>();
    return *b;
  }

  /// A zero-filled buffer for `v`: floats, 8-bit or 32-bit integers after its
  /// element type.
  Buffer &create(Value v) {
    Buffer &b = (*this)[v];
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
  }
  /// The ref view of `v`'s 8-bit buffer.
  ref::QTensor in(Value v) { return view((*this)[v], v); }
  /// A new 8-bit buffer for `v` and its ref view.
  ref::QTensor out(Value v) { return view(create(v), v); }

private:
  llvm::DenseMap<Value, std::unique_ptr<Buffer>> values;
};

/// How the reference evaluates one op: a Status (the ref functions'
/// status) or an llvm::Error for what the reference itself refuses.
using Evaluator = llvm::Error (*)(Operation *, Env &);

template <typename OpTy> using TypedEvaluator = Status (*)(OpTy, Env &);

Error withOpName(const Status &status, Operation *op) {
  return toError(status, "'" + op->getName().getStringRef() + "': ");
}

Status evalStorageCast(quant::StorageCastOp op, Env &env) {
  DenseIntElementsAttr attr;
  if (!matchPattern(op.getInput(), m_Constant(&attr)))
    return Status::failure("quant.scast of a non-constant");
  Buffer &b = env.create(op.getResult());
  bool isSigned = cast<quant::QuantizedType>(
                      cast<ShapedType>(op.getType()).getElementType())
                      .isSigned();
  int64_t i = 0;
  for (const APInt &v : attr.getValues<APInt>()) {
    int64_t x = isSigned ? v.getSExtValue() : int64_t(v.getZExtValue());
    if (!b.q8.empty())
      b.q8[i++] = static_cast<int8_t>(x);
    else
      b.q32[i++] = static_cast<int32_t>(x);
  }
  return Status::success();
}

Status evalQuantize(quant::QuantizeCastOp op, Env &env) {
  return ref::quantizeTensor(env[op.getInput()].f.data(),
                             env.out(op.getResult()));
}

Status evalDequantize(quant::DequantizeCastOp op, Env &env) {
  ref::QTensor x = env.in(op.getInput());
  return ref::dequantizeTensor(x, env.create(op.getResult()).f.data());
}

Status evalConv(qnt::Conv2DOp conv, Env &env) {
  ref::Conv2DParams p;
  p.window = window(conv.getStrides(), conv.getPad(), conv.getDilations());
  p.groups = static_cast<int64_t>(conv.getGroups());
  p.activation = activationOf(conv.getActivation(), conv.getClampMin(),
                              conv.getClampMax());
  if (conv.getOutput().getType().getElementType().isF32()) {
    // The dequantized-output form (a model output).
    Buffer &out = env.create(conv.getOutput());
    return ref::conv2dDequantized(
        env.in(conv.getInput()),
        weights(env[conv.getFilter()], conv.getFilter()),
        conv.getBias() ? env[conv.getBias()].q32.data() : nullptr, p,
        out.f.data(), out.shape);
  }
  std::optional<ref::QTensor> residual;
  if (conv.getResidual())
    residual = env.in(conv.getResidual());
  return ref::conv2d(
      env.in(conv.getInput()), weights(env[conv.getFilter()], conv.getFilter()),
      conv.getBias() ? env[conv.getBias()].q32.data() : nullptr, p,
      residual ? &*residual : nullptr, env.out(conv.getOutput()));
}

Status evalLinear(qnt::LinearOp linear, Env &env) {
  // [..., K] x [N, K]: the leading dimensions are rows.
  ref::QTensor x = env.in(linear.getInput());
  int64_t k = x.shape.back(), rows = x.numElements() / k;
  x.shape = {rows, k};
  ref::QWeights w = weights(env[linear.getWeight()], linear.getWeight());
  const int32_t *bias =
      linear.getBias() ? env[linear.getBias()].q32.data() : nullptr;
  ref::FusedActivation act = activationOf(
      linear.getActivation(), linear.getClampMin(), linear.getClampMax());
  if (linear.getOutput().getType().getElementType().isF32()) {
    // The dequantized-output form (a model output).
    Buffer &out = env.create(linear.getOutput());
    return ref::matmulDequantized(x, w, bias, act, out.f.data());
  }
  ref::QTensor y = env.out(linear.getOutput());
  y.shape = {rows, y.shape.back()};
  return ref::matmul(x, w, bias, act, y);
}

Status evalMatMul(qnt::MatMulOp op, Env &env) {
  return ref::batchMatmul(env.in(op.getLhs()), env.in(op.getRhs()),
                          env.out(op.getOutput()));
}

Status evalAdd(qnt::AddOp add, Env &env) {
  return ref::add(env.in(add.getLhs()), env.in(add.getRhs()),
                  activationOf(add.getActivation(), std::nullopt, std::nullopt),
                  env.out(add.getOutput()));
}

Status evalSub(qnt::SubOp sub, Env &env) {
  return ref::add(env.in(sub.getLhs()), env.in(sub.getRhs()),
                  activationOf(sub.getActivation(), std::nullopt, std::nullopt),
                  env.out(sub.getOutput()), /*subtract=*/true);
}

Status evalMul(qnt::MulOp mul, Env &env) {
  return ref::mul(env.in(mul.getLhs()), env.in(mul.getRhs()),
                  activationOf(mul.getActivation(), std::nullopt, std::nullopt),
                  env.out(mul.getOutput()));
}

Status evalLookup(qnt::LookupOp op, Env &env) {
  std::vector<int32_t> table(op.getTable().begin(), op.getTable().end());
  return ref::lookup(env.in(op.getInput()), table, env.out(op.getOutput()));
}

template <typename PoolOp> Status evalPool(PoolOp op, Env &env) {
  ref::Pool2DParams p;
  ArrayRef<int64_t> kernel = op.getKernel();
  p.kernelH = kernel[0];
  p.kernelW = kernel[1];
  p.window = window(op.getStrides(), op.getPad());
  if constexpr (std::is_same_v<PoolOp, qnt::MaxPool2DOp>)
    return ref::maxPool2d(env.in(op.getInput()), p, env.out(op.getOutput()));
  else
    return ref::avgPool2d(env.in(op.getInput()), p, env.out(op.getOutput()));
}

Status evalConcat(qnt::ConcatOp concat, Env &env) {
  std::vector<ref::QTensor> inputs;
  for (Value v : concat.getInputs())
    inputs.push_back(env.in(v));
  return ref::concat(inputs, static_cast<int64_t>(concat.getAxis()),
                     env.out(concat.getOutput()));
}

Status evalRequantize(qnt::RequantizeOp rq, Env &env) {
  // A one-input concatenation is a requantization.
  ref::QTensor out = env.out(rq.getOutput());
  return ref::concat({env.in(rq.getInput())},
                     static_cast<int64_t>(out.shape.size()) - 1, out);
}

Status evalReshape(tosa::ReshapeOp reshape, Env &env) {
  Buffer b = env[reshape.getInput1()];
  b.shape = shapeOf(reshape.getResult());
  env[reshape.getResult()] = std::move(b);
  return Status::success();
}

/// The values of a tosa.const_shape operand.
Status shapeValues(Value v, std::vector<int64_t> &values) {
  SmallVector<int64_t> raw;
  if (!v.getDefiningOp() || !tosa::getConstShapeValues(v.getDefiningOp(), raw))
    return Status::failure("a shape operand is not a constant");
  values.assign(raw.begin(), raw.end());
  return Status::success();
}

/// Data movement (ref index maps) on whichever storage operand 0 uses; the
/// pad value, if any, is element 0 of `pad`.
Status move(Operation *op, Env &env, const std::vector<int64_t> &map,
            Value pad = {}) {
  const Buffer &in = env[op->getOperand(0)];
  Buffer &out = env.create(op->getResult(0));
  if (!in.f.empty())
    ref::applyIndexMap(in.f.data(), map, pad ? env[pad].f.at(0) : 0.0f,
                       out.f.data());
  else if (!in.q8.empty())
    ref::applyIndexMap(in.q8.data(), map, pad ? env[pad].q8.at(0) : int8_t(0),
                       out.q8.data());
  else
    ref::applyIndexMap(in.q32.data(), map, pad ? env[pad].q32.at(0) : 0,
                       out.q32.data());
  return Status::success();
}

Status evalTranspose(tosa::TransposeOp op, Env &env) {
  std::vector<int64_t> map;
  std::vector<int32_t> perms(op.getPerms().begin(), op.getPerms().end());
  QUANTC_TRY(ref::transposeIndexMap(env[op.getInput1()].shape, perms, map));
  return move(op, env, map);
}

Status evalSlice(tosa::SliceOp op, Env &env) {
  std::vector<int64_t> start, size, map;
  QUANTC_TRY(shapeValues(op.getStart(), start));
  QUANTC_TRY(shapeValues(op.getSize(), size));
  QUANTC_TRY(ref::sliceIndexMap(env[op.getInput1()].shape, start, size, map));
  return move(op, env, map);
}

Status evalTile(tosa::TileOp op, Env &env) {
  std::vector<int64_t> multiples, map;
  QUANTC_TRY(shapeValues(op.getMultiples(), multiples));
  QUANTC_TRY(ref::tileIndexMap(env[op.getInput1()].shape, multiples, map));
  return move(op, env, map);
}

Status evalPad(tosa::PadOp op, Env &env) {
  std::vector<int64_t> pads, map;
  QUANTC_TRY(shapeValues(op.getPadding(), pads));
  QUANTC_TRY(ref::padIndexMap(env[op.getInput1()].shape, pads, map));
  return move(op, env, map, op.getPadConst());
}

Status evalResize(tosa::ResizeOp op, Env &env) {
  if (op.getMode() != tosa::ResizeMode::NEAREST_NEIGHBOR)
    return Status::failure("the int8 reference resizes with nearest neighbour "
                           "only");
  std::vector<int64_t> scale, offset, border, map;
  QUANTC_TRY(shapeValues(op.getScale(), scale));
  QUANTC_TRY(shapeValues(op.getOffset(), offset));
  QUANTC_TRY(shapeValues(op.getBorder(), border));
  QUANTC_TRY(ref::resizeNearestIndexMap(env[op.getInput()].shape, scale, offset,
                                        border, map));
  return move(op, env, map);
}

Status evalChannelAffine(qnt::ChannelAffineOp op, Env &env) {
  return ref::channelAffine(
      env.in(op.getInput()),
      std::vector<float>(op.getMultiplier().begin(), op.getMultiplier().end()),
      std::vector<float>(op.getOffset().begin(), op.getOffset().end()),
      activationOf(op.getActivation(), op.getClampMin(), op.getClampMax()),
      env.out(op.getOutput()));
}

Status evalResizeBilinear(qnt::ResizeBilinearOp op, Env &env) {
  return ref::resizeBilinear(
      env.in(op.getInput()),
      std::vector<int64_t>(op.getScale().begin(), op.getScale().end()),
      std::vector<int64_t>(op.getOffset().begin(), op.getOffset().end()),
      std::vector<int64_t>(op.getBorder().begin(), op.getBorder().end()),
      env.out(op.getOutput()));
}

/// The ops the reference evaluates, by op type: the one list. An op runs in
/// the reference when it is here (or is a float constant); a new int8 op
/// adds its ref function and one line.
struct EvaluatorTable {
  struct Entry {
    Evaluator run = nullptr;
    /// Also runs on float tensors (data movement); otherwise on quantized
    /// tensors only.
    bool anyElementType = false;
  };
  llvm::DenseMap<TypeID, Entry> byOp;

  template <typename OpTy, TypedEvaluator<OpTy> Fn>
  void add(bool anyElementType = false) {
    byOp[TypeID::get<OpTy>()] = {[](Operation *op, Env &env) {
                                   return withOpName(Fn(cast<OpTy>(op), env),
                                                     op);
                                 },
                                 anyElementType};
  }

  EvaluatorTable() {
    add<quant::StorageCastOp, evalStorageCast>();
    add<quant::QuantizeCastOp, evalQuantize>();
    add<quant::DequantizeCastOp, evalDequantize>();
    add<qnt::Conv2DOp, evalConv>();
    add<qnt::LinearOp, evalLinear>();
    add<qnt::MatMulOp, evalMatMul>();
    add<qnt::AddOp, evalAdd>();
    add<qnt::SubOp, evalSub>();
    add<qnt::MulOp, evalMul>();
    add<qnt::LookupOp, evalLookup>();
    add<qnt::MaxPool2DOp, evalPool<qnt::MaxPool2DOp>>();
    add<qnt::AvgPool2DOp, evalPool<qnt::AvgPool2DOp>>();
    add<qnt::ConcatOp, evalConcat>();
    add<qnt::ResizeBilinearOp, evalResizeBilinear>();
    add<qnt::ChannelAffineOp, evalChannelAffine>();
    add<qnt::RequantizeOp, evalRequantize>();
    add<tosa::ReshapeOp, evalReshape>(/*anyElementType=*/true);
    add<tosa::TransposeOp, evalTranspose>(/*anyElementType=*/true);
    add<tosa::SliceOp, evalSlice>(/*anyElementType=*/true);
    add<tosa::TileOp, evalTile>(/*anyElementType=*/true);
    add<tosa::PadOp, evalPad>(/*anyElementType=*/true);
    add<tosa::ResizeOp, evalResize>(/*anyElementType=*/true);
  }
};

const EvaluatorTable &evaluators() {
  static const EvaluatorTable table;
  return table;
}

/// A float constant (the reference reads it) or `nullptr`.
bool isFloatConstant(Operation *op, DenseFPElementsAttr &floats) {
  return op->hasTrait<OpTrait::ConstantLike>() && op->getNumResults() == 1 &&
         matchPattern(op->getResult(0), m_Constant(&floats)) &&
         floats.getElementType().isF32();
}

/// Success when the reference can evaluate `op`, else why not.
Error checkSupported(Operation *op) {
  DenseFPElementsAttr floats;
  if (isa<func::ReturnOp>(op) || isFloatConstant(op, floats) ||
      isa<arith::ConstantOp, tosa::ConstOp, tosa::ConstShapeOp>(op))
    return Error::success();
  auto entry = evaluators().byOp.find(op->getName().getTypeID());
  if (entry == evaluators().byOp.end())
    return fail("the int8 reference has no implementation of '" +
                op->getName().getStringRef() +
                "' (quantize the model with qnt-quantize first)");
  // Quantized ops only: a float conv is the float model's.
  auto isQuantized = [](Type t) {
    auto shaped = dyn_cast<ShapedType>(t);
    return shaped && isa<quant::QuantizedType>(shaped.getElementType());
  };
  if (!entry->second.anyElementType &&
      llvm::none_of(op->getOperandTypes(), isQuantized) &&
      llvm::none_of(op->getResultTypes(), isQuantized))
    return fail("the int8 reference runs '" + op->getName().getStringRef() +
                "' on quantized tensors only");
  return Error::success();
}

} // namespace

llvm::Expected<std::unique_ptr<ReferenceModel>>
ReferenceModel::create(ModuleOp module, StringRef function) {
  llvm::Expected<Operation *> fn = findModelFunction(module, function);
  if (!fn)
    return fn.takeError();
  auto func = cast<func::FuncOp>(*fn);
  if (func.getNumArguments() == 0 || func.getNumResults() == 0)
    return fail("the reference model runs functions with inputs and "
                "outputs");
  Expected<ModelSignature> signature = modelSignature(func);
  if (!signature)
    return signature.takeError();
  for (Operation &op : func.getBody().front())
    if (Error e = checkSupported(&op))
      return e;
  std::unique_ptr<ReferenceModel> model(new ReferenceModel());
  model->function = func;
  model->interface = std::move(*signature);
  return model;
}

Error ReferenceModel::run(ArrayRef<const float *> ins,
                          ArrayRef<float *> outs) const {
  if (ins.size() != inputs().size())
    return fail("expected " + llvm::Twine(inputs().size()) + " input buffers");
  if (outs.size() != outputs().size())
    return fail("expected " + llvm::Twine(outputs().size()) +
                " output buffers");
  auto func = cast<func::FuncOp>(function);
  Env env;
  for (auto [arg, in] : llvm::zip(func.getArguments(), ins)) {
    Buffer &b = env.create(arg);
    std::copy(in, in + b.f.size(), b.f.begin());
  }
  for (Operation &op : func.getBody().front()) {
    DenseFPElementsAttr floats;
    if (isFloatConstant(&op, floats)) {
      Buffer &b = env.create(op.getResult(0));
      b.f.assign(floats.getValues<float>().begin(),
                 floats.getValues<float>().end());
    } else if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (auto [result, out] : llvm::zip(ret.getOperands(), outs)) {
        const Buffer &r = env[result];
        if (r.f.empty())
          return fail("the model result is not a float tensor");
        if (out)
          std::copy(r.f.begin(), r.f.end(), out);
      }
    } else if (Evaluator eval =
                   evaluators().byOp.lookup(op.getName().getTypeID()).run) {
      if (Error e = eval(&op, env))
        return e;
    }
  }
  return Error::success();
}
