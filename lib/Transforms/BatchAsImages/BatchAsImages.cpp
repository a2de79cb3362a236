//===- BatchAsImages.cpp - A batch of B computed as B images --------------===//
//
// quantc-batch-as-images (Passes.td): proves that a model function treats
// the B images of its batch independently, following the dimension that
// carries them through every op, and then rewrites the function into the
// computation of one image, marked `quantc.images = B`. The AOT entry point
// (lib/Target/Lowering.cpp) calls it once per image, so that one image's
// activations, not B images', cross the caches from layer to layer.
//
//===----------------------------------------------------------------------===//

#include "quantc/Transforms/Passes.h"

#include "quantc/ModelAttributes.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringSet.h"

namespace quantc {
#define GEN_PASS_DEF_BATCHASIMAGES
#include "quantc/Transforms/Passes.h.inc"
} // namespace quantc

using namespace mlir;

namespace {
/// The dimension of each value that carries the images. Values computed
/// without the function's arguments (constants) have none: they are the
/// same for every image.
using ImageDims = llvm::DenseMap<Value, int64_t>;

/// Each element from the same element of the operands, broadcast.
const llvm::StringSet<> kElementwise = {"tosa.abs",
                                        "tosa.add",
                                        "tosa.arithmetic_right_shift",
                                        "tosa.bitwise_and",
                                        "tosa.bitwise_not",
                                        "tosa.bitwise_or",
                                        "tosa.bitwise_xor",
                                        "tosa.cast",
                                        "tosa.ceil",
                                        "tosa.clamp",
                                        "tosa.clz",
                                        "tosa.cos",
                                        "tosa.equal",
                                        "tosa.erf",
                                        "tosa.exp",
                                        "tosa.floor",
                                        "tosa.greater",
                                        "tosa.greater_equal",
                                        "tosa.identity",
                                        "tosa.intdiv",
                                        "tosa.log",
                                        "tosa.logical_and",
                                        "tosa.logical_left_shift",
                                        "tosa.logical_not",
                                        "tosa.logical_or",
                                        "tosa.logical_right_shift",
                                        "tosa.logical_xor",
                                        "tosa.maximum",
                                        "tosa.minimum",
                                        "tosa.mul",
                                        "tosa.negate",
                                        "tosa.pow",
                                        "tosa.reciprocal",
                                        "tosa.rescale",
                                        "tosa.rsqrt",
                                        "tosa.select",
                                        "tosa.sigmoid",
                                        "tosa.sin",
                                        "tosa.sub",
                                        "tosa.table",
                                        "tosa.tanh",
                                        "quant.qcast",
                                        "quant.dcast",
                                        "quant.scast",
                                        "qnt.add",
                                        "qnt.sub",
                                        "qnt.mul",
                                        "qnt.lookup",
                                        "qnt.unary",
                                        "qnt.requantize",
                                        "qnt.channel_affine"};

/// NHWC ops: image n of the result from image n of the input only.
const llvm::StringSet<> kImagesFirst = {
    "tosa.conv2d",         "tosa.conv3d",     "tosa.depthwise_conv2d",
    "tosa.avg_pool2d",     "tosa.max_pool2d", "tosa.resize",
    "qnt.conv2d",          "qnt.avg_pool2d",  "qnt.max_pool2d",
    "qnt.resize_bilinear", "qnt.group_norm"};

/// Element-wise but along the dimension `axis` (attribute), which must not
/// be the images' (qnt.layer_norm: must follow it).
const llvm::StringSet<> kAlongAxis = {
    "tosa.concat",     "tosa.reduce_all", "tosa.reduce_any",
    "tosa.reduce_max", "tosa.reduce_min", "tosa.reduce_product",
    "tosa.reduce_sum", "tosa.reverse",    "qnt.concat",
    "qnt.softmax",     "qnt.batch_norm",  "qnt.layer_norm"};

/// What the analysis of one function found: the image dimension of every
/// value that has one, the shape operands that must follow their op's result
/// (tosa.reshape's shape, tosa.slice's size), or the op it cannot prove and
/// why.
struct Analysis {
  ImageDims dims;
  SmallVector<OpOperand *> resultShapes;
  Operation *culprit = nullptr;
  std::string why;
};
} // namespace

static std::optional<int64_t> imageDim(const ImageDims &dims, Value v) {
  auto it = dims.find(v);
  if (it == dims.end())
    return std::nullopt;
  return it->second;
}

/// True when `type` is a tensor quantized per axis along `dim`: its scales
/// would differ from image to image.
static bool quantizedAlong(Type type, int64_t dim) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  auto perAxis = tensor ? dyn_cast<quant::UniformQuantizedPerAxisType>(
                              tensor.getElementType())
                        : nullptr;
  return perAxis && perAxis.getQuantizedDimension() == dim;
}

/// The image dimension shared by every operand of `op` that has one.
static FailureOr<int64_t> commonDim(Operation *op, const ImageDims &dims,
                                    std::string &why) {
  std::optional<int64_t> common;
  for (Value operand : op->getOperands()) {
    std::optional<int64_t> dim = imageDim(dims, operand);
    if (!dim)
      continue;
    if (common && *common != *dim) {
      why = "has operands with the images on different dimensions";
      return failure();
    }
    if (quantizedAlong(operand.getType(), *dim)) {
      why = "has an operand quantized per image";
      return failure();
    }
    common = dim;
  }
  return *common;
}

/// The element-wise rule: the operands with images have them on `dim` of
/// the result's rank, not the last dimension (per-channel parameters), and
/// every other operand broadcasts along it.
static LogicalResult checkBroadcast(Operation *op, const ImageDims &dims,
                                    int64_t dim, std::string &why) {
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result) {
    why = "has a result that is not a ranked tensor";
    return failure();
  }
  int64_t rank = result.getRank();
  if (dim == rank - 1) {
    why = "has the images on its last dimension";
    return failure();
  }
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (dims.count(operand)) {
      if (!type || type.getRank() != rank) {
        why = "broadcasts an operand with the images";
        return failure();
      }
      continue;
    }
    int64_t at = type ? dim - (rank - type.getRank()) : -1;
    if (at >= 0 && type.getDimSize(at) != 1) {
      why = "has an operand without the images that does not broadcast "
            "along them";
      return failure();
    }
  }
  return success();
}

/// The `axis` attribute of `op`, non-negative.
static std::optional<int64_t> axisOf(Operation *op) {
  auto attr = op->getAttrOfType<IntegerAttr>("axis");
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result)
    return std::nullopt;
  int64_t axis = attr ? attr.getInt() : -1; // qnt.batch_norm's default
  return axis < 0 ? axis + result.getRank() : axis;
}

/// tosa.reshape keeps the images when the dimensions before them hold as
/// many elements in the input as in the result, and the result has a
/// dimension of the images' extent right there: row-major, image i is then
/// the same elements on both sides.
static FailureOr<int64_t> reshapeDim(tosa::ReshapeOp reshape, int64_t dim,
                                     std::string &why) {
  auto in = dyn_cast<RankedTensorType>(reshape.getInput1().getType());
  auto out = dyn_cast<RankedTensorType>(reshape.getType());
  if (in && out && in.hasStaticShape() && out.hasStaticShape()) {
    int64_t before = 1;
    for (int64_t d = 0; d < dim; ++d)
      before *= in.getDimSize(d);
    int64_t prefix = 1;
    for (int64_t d = 0; d < out.getRank() && prefix <= before; ++d) {
      if (prefix == before && out.getDimSize(d) == in.getDimSize(dim))
        return d;
      prefix *= out.getDimSize(d);
    }
  }
  why = "mixes the images with other dimensions";
  return failure();
}

/// tosa.matmul / qnt.matmul ([N, M, K] x [N, K, W]): the images on the rows
/// of the left operand (the right one the same for every image), or on N of
/// both.
static FailureOr<int64_t> matmulDim(Operation *op, const ImageDims &dims,
                                    std::string &why) {
  std::optional<int64_t> lhs = imageDim(dims, op->getOperand(0));
  std::optional<int64_t> rhs = imageDim(dims, op->getOperand(1));
  bool others = llvm::any_of(op->getOperands().drop_front(2),
                             [&](Value v) { return dims.count(v); });
  if (!others && lhs == 1 && !rhs)
    return 1;
  if (!others && lhs == 0 && rhs == 0)
    return 0;
  why = "multiplies across the images";
  return failure();
}

/// The image dimension of `op`'s results by its rule, `dim` that of its
/// operands.
static FailureOr<int64_t> ruleDim(Operation *op, const ImageDims &dims,
                                  int64_t dim, Analysis &analysis) {
  std::string &why = analysis.why;
  StringRef name = op->getName().getStringRef();
  if (kElementwise.contains(name)) {
    if (failed(checkBroadcast(op, dims, dim, why)))
      return failure();
    return dim;
  }
  if (kImagesFirst.contains(name)) {
    if (dim != 0) {
      why = "has the images off its batch dimension";
      return failure();
    }
    // An operand of the result's shape without the images (a constant
    // residual of a qnt.conv2d, whose element type may differ) holds one
    // value per image.
    auto resultType = cast<ShapedType>(op->getResult(0).getType());
    for (Value operand : op->getOperands())
      if (auto type = dyn_cast<ShapedType>(operand.getType());
          !dims.count(operand) && type && type.hasRank() &&
          type.getShape() == resultType.getShape() &&
          resultType.getDimSize(0) != 1) {
        why = "adds an operand without the images that differs per image";
        return failure();
      }
    return dim;
  }
  if (kAlongAxis.contains(name)) {
    std::optional<int64_t> axis = axisOf(op);
    bool layerNorm = name == "qnt.layer_norm";
    if (!axis || (layerNorm ? dim >= *axis : dim == *axis)) {
      why = "computes along the images";
      return failure();
    }
    if (failed(checkBroadcast(op, dims, dim, why)))
      return failure();
    return dim;
  }
  if (auto transpose = dyn_cast<tosa::TransposeOp>(op)) {
    auto perms = transpose.getPerms();
    return static_cast<int64_t>(llvm::find(perms, dim) - perms.begin());
  }
  if (auto reshape = dyn_cast<tosa::ReshapeOp>(op)) {
    FailureOr<int64_t> out = reshapeDim(reshape, dim, why);
    if (succeeded(out))
      analysis.resultShapes.push_back(&reshape.getShapeMutable());
    return out;
  }
  // Data movement that keeps `dim` whole where the result has the images'
  // extent there (checked with every result): a slice from 0, no padding,
  // one tile of it.
  if (isa<tosa::SliceOp, tosa::PadOp, tosa::TileOp>(op)) {
    if (auto slice = dyn_cast<tosa::SliceOp>(op))
      analysis.resultShapes.push_back(&slice.getSizeMutable());
    if (llvm::any_of(op->getOperands().drop_front(),
                     [&](Value v) { return dims.count(v); })) {
      why = "has a shape or padding that depends on the images";
      return failure();
    }
    return dim;
  }
  if (isa<tosa::MatMulOp>(op) || name == "qnt.matmul")
    return matmulDim(op, dims, why);
  if (name == "qnt.linear") {
    auto rank = cast<RankedTensorType>(op->getResult(0).getType()).getRank();
    bool weights = llvm::any_of(op->getOperands().drop_front(),
                                [&](Value v) { return dims.count(v); });
    if (!weights && dim < rank - 1 && imageDim(dims, op->getOperand(0)))
      return dim;
    why = "multiplies across the images";
    return failure();
  }
  why = "is not known to keep the images apart";
  return failure();
}

/// Follows the images from the arguments of `fn` (dimension 0, extent
/// `batch`) through its body to the returned values (dimension 0 again).
/// On failure, `analysis.culprit` is the op it cannot prove.
static LogicalResult analyze(func::FuncOp fn, int64_t batch,
                             Analysis &analysis) {
  ImageDims &dims = analysis.dims;
  for (BlockArgument arg : fn.getArguments())
    dims[arg] = 0;
  for (Operation &op : fn.getBody().front()) {
    analysis.culprit = &op;
    if (isa<func::ReturnOp>(op)) {
      if (llvm::all_of(op.getOperands(),
                       [&](Value v) { return imageDim(dims, v) == 0; }))
        return success();
      analysis.why = "returns a value without the images on dimension 0";
      return failure();
    }
    if (op.getNumRegions()) {
      llvm::SetVector<Value> captured;
      getUsedValuesDefinedAbove(op.getRegions(), captured);
      if (llvm::any_of(captured, [&](Value v) { return dims.count(v); })) {
        analysis.why = "uses the images in a region";
        return failure();
      }
    }
    if (llvm::none_of(op.getOperands(), [&](Value v) { return dims.count(v); }))
      continue; // The same for every image.
    FailureOr<int64_t> in = commonDim(&op, dims, analysis.why);
    if (failed(in))
      return failure();
    if (op.getNumResults() == 0 || op.getNumRegions()) {
      analysis.why = "takes the images into an op without results or with "
                     "regions";
      return failure();
    }
    FailureOr<int64_t> out = ruleDim(&op, dims, *in, analysis);
    if (failed(out))
      return failure();
    for (Value result : op.getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type || *out >= type.getRank() || type.getDimSize(*out) != batch ||
          quantizedAlong(type, *out)) {
        analysis.why = "has a result without the images";
        return failure();
      }
      dims[result] = *out;
    }
  }
  analysis.why = "has no return";
  return failure();
}

/// `type` with extent 1 on `dim`.
static RankedTensorType oneImage(Type type, int64_t dim) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensor.getShape());
  shape[dim] = 1;
  return tensor.clone(shape);
}

/// Rewrites `fn` as analyzed into the computation of one image.
static void rewriteToOneImage(func::FuncOp fn, int64_t batch,
                              const Analysis &analysis) {
  for (auto [value, dim] : analysis.dims)
    value.setType(oneImage(value.getType(), dim));
  for (OpOperand *operand : analysis.resultShapes) {
    Operation *op = operand->getOwner();
    OpBuilder b(op);
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(op->getResult(0).getType()).getShape();
    auto values = DenseIntElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(shape.size())},
                              b.getIndexType()),
        shape);
    Value newShape = tosa::ConstShapeOp::create(
        b, op->getLoc(), tosa::shapeType::get(b.getContext(), shape.size()),
        values);
    Operation *old = operand->get().getDefiningOp();
    operand->set(newShape);
    if (old && old->use_empty())
      old->erase();
  }
  auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
  fn.setType(FunctionType::get(fn.getContext(),
                               fn.getBody().front().getArgumentTypes(),
                               ret.getOperandTypes()));
  fn->setAttr(quantc::kImagesAttr,
              IntegerAttr::get(IntegerType::get(fn.getContext(), 64), batch));
}

/// The batch of `fn`: the extent of dimension 0 shared by all its
/// arguments and results (static tensors), or 0.
static int64_t batchOf(func::FuncOp fn) {
  int64_t batch = 0;
  for (Type type :
       llvm::concat<const Type>(fn.getArgumentTypes(), fn.getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape() || tensor.getRank() == 0 ||
        (batch && tensor.getDimSize(0) != batch))
      return 0;
    batch = tensor.getDimSize(0);
  }
  return batch;
}

namespace {
struct BatchAsImagesPass
    : public quantc::impl::BatchAsImagesBase<BatchAsImagesPass> {
  using BatchAsImagesBase::BatchAsImagesBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto fn : module.getOps<func::FuncOp>()) {
      int64_t batch = batchOf(fn);
      if ((!function.empty() && fn.getSymName() != function) ||
          !fn.isPublic() || fn.isExternal() || batch < 2 ||
          !fn.getBody().hasOneBlock() ||
          !SymbolTable::symbolKnownUseEmpty(fn, module))
        continue;
      Analysis analysis;
      if (failed(analyze(fn, batch, analysis))) {
        emitRemark(analysis.culprit->getLoc())
            << "keeps the batch of " << batch << " whole: '"
            << analysis.culprit->getName() << "' " << analysis.why;
        continue;
      }
      rewriteToOneImage(fn, batch, analysis);
      if (failed(verify(fn))) {
        fn.emitError() << "quantc-batch-as-images made an invalid function";
        return signalPassFailure();
      }
      emitRemark(fn.getLoc()) << "computes the batch of " << batch << " as "
                              << batch << " images, one at a time";
    }
  }
};
} // namespace
