//===- Importer.cpp - Node inputs, attributes and layouts -----------------===//

#include "Importer.h"

#include "dialects/Qnt/IR/ExactArith.h"
#include "quantc/Support/Fail.h"
#include "quantc/Support/Text.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace quantc::onnx_import;

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

Layout quantc::onnx_import::identityLayout(int64_t rank) {
  Layout l(rank);
  std::iota(l.begin(), l.end(), 0);
  return l;
}

Layout quantc::onnx_import::preferredLayout(int64_t rank) {
  if (rank == 4)
    return {0, 2, 3, 1};
  return identityLayout(rank);
}

SmallVector<int64_t> quantc::onnx_import::toIrShape(ArrayRef<int64_t> onnxShape,
                                                    ArrayRef<int64_t> layout) {
  SmallVector<int64_t> shape;
  for (int64_t d : layout)
    shape.push_back(onnxShape[d]);
  return shape;
}

ArrayRef<int64_t> Act::irShape() const {
  return cast<RankedTensorType>(value.getType()).getShape();
}

SmallVector<int64_t> Act::onnxShape() const {
  SmallVector<int64_t> shape(rank());
  ArrayRef<int64_t> ir = irShape();
  for (int64_t i = 0; i < rank(); ++i)
    shape[layout[i]] = ir[i];
  return shape;
}

int64_t Act::irAxis(int64_t axis) const {
  return llvm::find(layout, axis) - layout.begin();
}

//===----------------------------------------------------------------------===//
// NodeImporter: diagnostics, inputs, attributes, outputs
//===----------------------------------------------------------------------===//

NodeImporter::NodeImporter(GraphState &graph, const onnx::NodeProto &node,
                           int64_t opset)
    : g(graph), n(node), version(opset) {}

InFlightDiagnostic NodeImporter::emitError() const {
  std::string name = n.name();
  if (name.empty() && n.output_size())
    name = n.output(0);
  return mlir::emitError(g.b.getLoc()) << "node '" << printable(name) << "' ("
                                       << printable(n.op_type()) << "): ";
}

LogicalResult NodeImporter::checkArity(int minInputs, int maxInputs,
                                       int minOutputs, int maxOutputs) const {
  // Trailing empty names are absent optional inputs.
  int inputs = n.input_size();
  while (inputs > 0 && n.input(inputs - 1).empty())
    --inputs;
  if (inputs < minInputs || n.input_size() > maxInputs) {
    InFlightDiagnostic d = emitError() << "expected ";
    if (minInputs == maxInputs)
      d << minInputs;
    else if (maxInputs == INT_MAX)
      d << "at least " << minInputs;
    else
      d << minInputs << " to " << maxInputs;
    return d << " input" << (maxInputs == 1 ? "" : "s") << ", got "
             << (inputs < minInputs ? inputs : n.input_size());
  }
  if (n.output_size() < minOutputs || n.output_size() > maxOutputs) {
    InFlightDiagnostic d = emitError() << "expected ";
    if (minOutputs == maxOutputs)
      d << minOutputs;
    else
      d << minOutputs << " to " << maxOutputs;
    return d << " output" << (maxOutputs == 1 ? "" : "s") << ", got "
             << n.output_size();
  }
  return success();
}

bool NodeImporter::hasInput(int i) const {
  return i < n.input_size() && !n.input(i).empty();
}

bool NodeImporter::isConstant(int i) const {
  return hasInput(i) && g.consts.count(n.input(i));
}

bool NodeImporter::isActivation(int i) const {
  return hasInput(i) && g.acts.count(n.input(i));
}

FailureOr<Act> NodeImporter::act(int i) {
  if (!hasInput(i))
    return emitError() << "missing input " << i;
  auto it = g.acts.find(n.input(i));
  if (it != g.acts.end())
    return it->second;
  if (g.consts.count(n.input(i)))
    return emitError() << "input '" << n.input(i)
                       << "' is a constant; only activations are "
                          "supported there";
  if (g.quants.count(n.input(i)))
    return emitError() << "input '" << n.input(i)
                       << "' is a QuantizeLinear output; only "
                          "QuantizeLinear -> DequantizeLinear pairs are "
                          "supported";
  return emitError() << "input '" << n.input(i)
                     << "' is not a graph input, an initializer or an "
                        "earlier node's output (missing initializer?)";
}

const ConstTensor *NodeImporter::constant(int i) {
  if (!hasInput(i)) {
    (void)(emitError() << "missing input " << i);
    return nullptr;
  }
  auto it = g.consts.find(n.input(i));
  if (it != g.consts.end())
    return &it->second;
  if (g.acts.count(n.input(i)))
    (void)(emitError() << "input '" << n.input(i)
                       << "' must be a constant (initializer)");
  else
    (void)(emitError() << "input '" << n.input(i)
                       << "' is not an initializer or an earlier node's "
                          "output (missing initializer?)");
  return nullptr;
}

FailureOr<const ConstTensor *> NodeImporter::optionalConstant(int i) {
  if (!hasInput(i))
    return static_cast<const ConstTensor *>(nullptr);
  const ConstTensor *t = constant(i);
  if (!t)
    return failure();
  return t;
}

FailureOr<SmallVector<int64_t>> NodeImporter::intsInput(int i,
                                                        OutOfRange outOfRange) {
  const ConstTensor *t = constant(i);
  if (!t)
    return failure();
  if (t->dims.size() > 1)
    return emitError() << "input " << i << " must be a scalar or 1-D";
  if (t->dtype != onnx::TensorProto::INT64 &&
      t->dtype != onnx::TensorProto::INT32)
    return emitError() << "input " << i << " must hold integers";
  SmallVector<int64_t> values;
  for (double v : t->data) {
    FailureOr<int64_t> value =
        boundedInt(saturatingInt64(v), "input " + Twine(i), outOfRange);
    if (failed(value))
      return failure();
    values.push_back(*value);
  }
  return values;
}

const onnx::AttributeProto *NodeImporter::attr(StringRef name) const {
  return findAttr(n, name);
}

/// Whether `a` holds a value of `type` (an unset type field, as some
/// exporters write, is inferred from the field that is set).
static bool hasType(const onnx::AttributeProto &a,
                    onnx::AttributeProto::AttributeType type) {
  if (a.type() != onnx::AttributeProto::UNDEFINED)
    return a.type() == type;
  switch (type) {
  case onnx::AttributeProto::INT:
    return a.has_i();
  case onnx::AttributeProto::FLOAT:
    return a.has_f();
  case onnx::AttributeProto::STRING:
    return a.has_s();
  case onnx::AttributeProto::TENSOR:
    return a.has_t();
  case onnx::AttributeProto::INTS:
    return a.ints_size() > 0 || (!a.has_i() && !a.has_f() && !a.has_s());
  case onnx::AttributeProto::FLOATS:
    return a.floats_size() > 0 || (!a.has_i() && !a.has_f() && !a.has_s());
  default:
    return false;
  }
}

static const char *typeName(onnx::AttributeProto::AttributeType type) {
  switch (type) {
  case onnx::AttributeProto::INT:
    return "an integer";
  case onnx::AttributeProto::FLOAT:
    return "a float";
  case onnx::AttributeProto::STRING:
    return "a string";
  case onnx::AttributeProto::TENSOR:
    return "a tensor";
  case onnx::AttributeProto::INTS:
    return "a list of integers";
  case onnx::AttributeProto::FLOATS:
    return "a list of floats";
  default:
    return "of another type";
  }
}

FailureOr<int64_t> NodeImporter::boundedInt(int64_t v, const Twine &what,
                                            OutOfRange outOfRange) const {
  if (v >= -kMaxIntValue && v <= kMaxIntValue)
    return v;
  if (outOfRange == OutOfRange::Clamp)
    return v < 0 ? -kMaxIntValue : kMaxIntValue;
  return emitError() << what << " holds " << v
                     << ", out of range (allowed: " << -kMaxIntValue << " to "
                     << kMaxIntValue << ")";
}

FailureOr<int64_t> NodeImporter::intAttr(StringRef name, int64_t dflt) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt;
  if (!hasType(*a, onnx::AttributeProto::INT))
    return emitError() << "attribute '" << name << "' must be "
                       << typeName(onnx::AttributeProto::INT);
  return boundedInt(a->i(), "attribute '" + name + "'", OutOfRange::Refuse);
}

FailureOr<bool> NodeImporter::boolAttr(StringRef name, bool dflt) const {
  FailureOr<int64_t> value = intAttr(name, dflt);
  if (failed(value))
    return failure();
  if (*value != 0 && *value != 1)
    return emitError() << "attribute '" << name << "' is " << *value
                       << "; it must be 0 or 1";
  return *value == 1;
}

FailureOr<float> NodeImporter::floatAttr(StringRef name, float dflt,
                                         bool allowInfinite) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt;
  if (!hasType(*a, onnx::AttributeProto::FLOAT))
    return emitError() << "attribute '" << name << "' must be "
                       << typeName(onnx::AttributeProto::FLOAT);
  if (std::isnan(a->f()) || (!allowInfinite && std::isinf(a->f())))
    return emitError() << "attribute '" << name << "' is " << a->f()
                       << "; it must be a finite number";
  return a->f();
}

FailureOr<std::string> NodeImporter::stringAttr(StringRef name,
                                                StringRef dflt) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt.str();
  if (!hasType(*a, onnx::AttributeProto::STRING))
    return emitError() << "attribute '" << name << "' must be "
                       << typeName(onnx::AttributeProto::STRING);
  return a->s();
}

FailureOr<SmallVector<int64_t>>
NodeImporter::intsAttr(StringRef name, ArrayRef<int64_t> dflt,
                       OutOfRange outOfRange) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return SmallVector<int64_t>(dflt);
  if (!hasType(*a, onnx::AttributeProto::INTS))
    return emitError() << "attribute '" << name << "' must be "
                       << typeName(onnx::AttributeProto::INTS);
  SmallVector<int64_t> values;
  for (int64_t v : a->ints()) {
    FailureOr<int64_t> value =
        boundedInt(v, "attribute '" + name + "'", outOfRange);
    if (failed(value))
      return failure();
    values.push_back(*value);
  }
  return values;
}

FailureOr<int64_t> NodeImporter::normalizeAxis(int64_t axis,
                                               int64_t rank) const {
  if (axis < -rank || axis >= rank)
    return emitError() << "axis " << axis << " is out of range for rank "
                       << rank << " (allowed: " << -rank << " to " << rank - 1
                       << ")";
  return axis < 0 ? axis + rank : axis;
}

FailureOr<SmallVector<int64_t>>
NodeImporter::normalizeAxes(ArrayRef<int64_t> axes, int64_t rank) const {
  SmallVector<int64_t> result;
  for (int64_t axis : axes) {
    FailureOr<int64_t> a = normalizeAxis(axis, rank);
    if (failed(a))
      return failure();
    if (llvm::is_contained(result, *a))
      return emitError() << "axis " << axis << " is repeated";
    result.push_back(*a);
  }
  return result;
}

std::string GraphState::budgetMessage(uint64_t bytes) const {
  return " would take the model's constants to " +
         std::to_string(constantBytes + bytes) +
         " bytes (8 an element as the importer holds them, 4 more in the IR), "
         "more than " +
         quantc::inputLimitText(maxConstantBytes);
}

llvm::Error GraphState::checkBudget(ArrayRef<int64_t> dims) const {
  // Within kMaxConstantElements (2^28): no overflow.
  uint64_t bytes = 8;
  for (int64_t d : dims)
    bytes *= static_cast<uint64_t>(d);
  if (budgetHasRoom(bytes))
    return llvm::Error::success();
  return quantc::fail("a constant of " + Twine(bytes / 8) + " elements" +
                      budgetMessage(bytes));
}

LogicalResult NodeImporter::checkConstantShape(ArrayRef<int64_t> dims,
                                               StringRef what) const {
  if (llvm::Error err = onnx_import::checkConstantShape(dims))
    return emitError() << what << ": " << toString(std::move(err));
  if (llvm::Error err = g.checkBudget(dims))
    return emitError() << what << ": " << toString(std::move(err));
  return success();
}

FailureOr<ConstTensor> NodeImporter::copyConstant(int i) {
  const ConstTensor *t = constant(i);
  if (!t || failed(checkConstantShape(t->dims, "the result")))
    return failure();
  return *t;
}

bool NodeImporter::hasRoomInIr(ArrayRef<int64_t> shape) {
  uint64_t count = 1;
  for (int64_t d : shape) // activation or constant dimensions: no overflow
    count *= static_cast<uint64_t>(d);
  // 4 bytes an element in the attribute, 4 in the buffer it is built from
  // (freed once it is built).
  if (g.overBudget || !g.budgetHasRoom(8 * count)) {
    if (!g.overBudget)
      (void)(emitError() << "a constant of " << count << " elements in the IR"
                         << g.budgetMessage(8 * count));
    g.overBudget = true;
    return false;
  }
  return true;
}

/// Ops whose result has the element type of their data input(s) and whose
/// float computation is exact on integers: an integer-typed input (ArgMax
/// indices) keeps its type through them. Every other op computes in float
/// and its result is FLOAT (ArgMax / ArgMin and Cast set theirs).
static bool keepsElementType(StringRef op) {
  return llvm::is_contained(
      {"Reshape",  "Flatten",   "Squeeze",      "Unsqueeze",    "Transpose",
       "Identity", "Slice",     "Concat",       "Gather",       "Expand",
       "Tile",     "Split",     "DepthToSpace", "SpaceToDepth", "Max",
       "Min",      "ReduceMax", "ReduceMin",    "Abs",          "Neg",
       "Relu"},
      op);
}

LogicalResult NodeImporter::setOutput(int i, Act a) {
  if (i >= n.output_size())
    return emitError() << "missing output " << i;
  StringRef op = n.op_type();
  if (op != "ArgMax" && op != "ArgMin" && op != "Cast") {
    a.dtype = onnx::TensorProto::FLOAT;
    // The data input: input 0 (Gather's indices do not count), or the
    // first activation of Concat / Max / Min.
    bool variadic = op == "Concat" || op == "Max" || op == "Min";
    if (keepsElementType(op))
      for (int j = 0;
           j < (variadic ? n.input_size() : std::min(n.input_size(), 1)); ++j)
        if (auto it = g.acts.find(n.input(j)); it != g.acts.end()) {
          a.dtype = it->second.dtype;
          break;
        }
  }
  if (llvm::Error err = checkActivationShape(a.irShape()))
    return emitError() << "the result " << toString(std::move(err));
  // What running the model allocates for it, from the model's declarations
  // (Expand, Tile, Resize of a small input): at most the input limit.
  uint64_t bytes = sizeof(float);
  for (int64_t d : a.irShape()) // at most 2^31 elements: no overflow
    bytes *= static_cast<uint64_t>(d);
  if (bytes > g.maxConstantBytes)
    return emitError() << "the result has " << bytes / sizeof(float)
                       << " elements (" << bytes
                       << " bytes as float32), more than "
                       << quantc::inputLimitText(g.maxConstantBytes);
  g.acts[n.output(i)] = std::move(a);
  return success();
}

LogicalResult NodeImporter::setOutput(int i, ConstTensor t) {
  if (i >= n.output_size())
    return emitError() << "missing output " << i;
  if (failed(checkConstantShape(t.dims, "the result")))
    return failure();
  g.constantBytes += 8 * t.data.size();
  g.consts[n.output(i)] = std::move(t);
  return success();
}

//===----------------------------------------------------------------------===//
// NodeImporter: IR helpers
//===----------------------------------------------------------------------===//

RankedTensorType NodeImporter::f32(ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, g.b.getF32Type());
}

Value NodeImporter::constant(ArrayRef<int64_t> shape, ArrayRef<float> values) {
  // The attribute's bytes; the caller checked hasRoomInIr before computing
  // `values` where their count comes from the model.
  g.constantBytes += 4 * values.size();
  auto type = f32(shape);
  return tosa::ConstOp::create(g.b, type, DenseElementsAttr::get(type, values));
}

Value NodeImporter::splat(float value, int64_t rank) {
  return constant(SmallVector<int64_t>(rank, 1), {value});
}

Value NodeImporter::constantInLayout(ArrayRef<int64_t> dims,
                                     ArrayRef<double> data,
                                     ArrayRef<int64_t> layout) {
  SmallVector<int64_t> shape;
  for (int64_t d : layout)
    shape.push_back(dims[d]);
  if (!hasRoomInIr(shape)) // the import fails after this node
    return constant(shape, {0.0f});
  std::vector<float> values(data.size());
  permuteInto(dims, data, layout, values.data());
  return constant(shape, values);
}

Value NodeImporter::roundToPrecision(Value v, int32_t dtype) {
  Type narrow;
  if (dtype == onnx::TensorProto::FLOAT16)
    narrow = g.b.getF16Type();
  else if (dtype == onnx::TensorProto::BFLOAT16)
    narrow = g.b.getBF16Type();
  else
    return v;
  auto type = cast<RankedTensorType>(v.getType());
  Value rounded = tosa::CastOp::create(g.b, type.clone(narrow), v);
  return tosa::CastOp::create(g.b, type, rounded);
}

Value NodeImporter::mul(Value lhs, Value rhs, Type type) {
  return qnt::createExactMul(g.b, g.b.getLoc(), type, lhs, rhs);
}

Value NodeImporter::transpose(Value v, ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  SmallVector<int32_t> perms;
  for (int64_t p : perm) {
    shape.push_back(type.getDimSize(p));
    perms.push_back(static_cast<int32_t>(p));
  }
  return tosa::TransposeOp::create(g.b, f32(shape), v,
                                   g.b.getDenseI32ArrayAttr(perms));
}

Value NodeImporter::reshape(Value v, ArrayRef<int64_t> shape) {
  if (cast<RankedTensorType>(v.getType()).getShape() == shape)
    return v;
  return tosa::ReshapeOp::create(g.b, f32(shape), v,
                                 tosa::getTosaConstShape(g.b, shape));
}

Value NodeImporter::inLayout(const Act &a, ArrayRef<int64_t> layout) {
  assert(static_cast<int64_t>(layout.size()) == a.rank() && "rank mismatch");
  // perm[j]: the current IR dimension that becomes IR dimension j.
  SmallVector<int64_t> perm;
  for (int64_t d : layout)
    perm.push_back(a.irAxis(d));
  ArrayRef<int64_t> shape = a.irShape();
  // Moving only unit dimensions keeps the element order: a reshape.
  SmallVector<int64_t> moved, kept;
  for (int64_t p : perm)
    if (shape[p] != 1)
      moved.push_back(p);
  if (llvm::is_sorted(moved)) {
    SmallVector<int64_t> newShape;
    for (int64_t p : perm)
      newShape.push_back(shape[p]);
    return reshape(a.value, newShape);
  }
  return transpose(a.value, perm);
}

Act NodeImporter::reshapeAct(const Act &a, ArrayRef<int64_t> outShape) {
  SmallVector<int64_t> inShape = a.onnxShape();
  int64_t outRank = static_cast<int64_t>(outShape.size());
  // Non-unit dimensions (ONNX indices) of both shapes, in ONNX order.
  SmallVector<int64_t> inDims, outDims;
  for (int64_t d = 0; d < a.rank(); ++d)
    if (inShape[d] != 1)
      inDims.push_back(d);
  for (int64_t d = 0; d < outRank; ++d)
    if (outShape[d] != 1)
      outDims.push_back(d);
  // Groups of consecutive input dimensions whose product is the product of
  // consecutive output dimensions (the reassociation of the reshape).
  struct Group {
    SmallVector<int64_t> in, out;
  };
  SmallVector<Group> groups;
  for (size_t i = 0, j = 0; i < inDims.size() && j < outDims.size();) {
    Group group;
    int64_t pin = inShape[inDims[i]], pout = outShape[outDims[j]];
    group.in.push_back(inDims[i++]);
    group.out.push_back(outDims[j++]);
    while (pin != pout) {
      if (pin < pout) {
        pin *= inShape[inDims[i]];
        group.in.push_back(inDims[i++]);
      } else {
        pout *= outShape[outDims[j]];
        group.out.push_back(outDims[j++]);
      }
    }
    groups.push_back(std::move(group));
  }
  SmallVector<int64_t> groupOf(a.rank(), -1);
  for (auto [index, group] : llvm::enumerate(groups))
    for (int64_t d : group.in)
      groupOf[d] = index;
  // The order of the groups in IR, and whether each group's dimensions are
  // adjacent and ascending there (then a reshape in IR order is the ONNX
  // reshape).
  SmallVector<int64_t> irNonUnit;
  for (int64_t d : a.layout)
    if (inShape[d] != 1)
      irNonUnit.push_back(d);
  SmallVector<int64_t> groupOrder;
  bool inOrder = true;
  for (size_t k = 0; k < irNonUnit.size();) {
    int64_t gi = groupOf[irNonUnit[k]];
    groupOrder.push_back(gi);
    for (int64_t d : groups[gi].in) {
      if (k >= irNonUnit.size() || irNonUnit[k] != d)
        inOrder = false;
      ++k;
    }
    if (!inOrder)
      break;
  }
  Value input = a.value;
  if (!inOrder) {
    // Bring each group together in ascending order, groups ordered by where
    // their first dimension is in IR; unit dimensions stay at their ONNX
    // positions.
    SmallVector<std::pair<int64_t, int64_t>> firstPos;
    for (auto [index, group] : llvm::enumerate(groups)) {
      int64_t pos = a.rank();
      for (int64_t d : group.in)
        pos = std::min(pos, a.irAxis(d));
      firstPos.push_back({pos, index});
    }
    llvm::sort(firstPos);
    SmallVector<int64_t> grouped;
    groupOrder.clear();
    for (auto [pos, index] : firstPos) {
      groupOrder.push_back(index);
      llvm::append_range(grouped, groups[index].in);
    }
    Layout target;
    size_t nextIn = 0;
    for (int64_t d = 0; d < a.rank(); ++d)
      target.push_back(inShape[d] == 1 ? d : grouped[nextIn++]);
    input = inLayout(a, target);
  }
  // Output non-unit dimensions in IR order, then unit dimensions where the
  // preferred layout of the result puts them.
  SmallVector<int64_t> outOrder;
  for (int64_t gi : groupOrder)
    llvm::append_range(outOrder, groups[gi].out);
  Layout layout;
  size_t next = 0;
  for (int64_t d : preferredLayout(outRank))
    layout.push_back(outShape[d] == 1 ? d : outOrder[next++]);
  return {reshape(input, toIrShape(outShape, layout)), layout};
}

LogicalResult NodeImporter::broadcast(ArrayRef<int> inputs,
                                      SmallVectorImpl<Value> &values,
                                      Layout &layout,
                                      SmallVectorImpl<int64_t> &shape) {
  // The result's rank and shape (ONNX's multidirectional broadcasting).
  SmallVector<SmallVector<int64_t>> shapes;
  int64_t rank = 0;
  int base = -1;
  for (int i : inputs) {
    if (isActivation(i)) {
      FailureOr<Act> x = act(i);
      shapes.push_back(x->onnxShape());
      if (base < 0 || x->rank() > act(base)->rank())
        base = i;
    } else {
      const ConstTensor *c = constant(i);
      if (!c)
        return failure();
      shapes.push_back(SmallVector<int64_t>(c->dims));
    }
    rank = std::max<int64_t>(rank, shapes.back().size());
  }
  if (base < 0)
    return emitError() << "needs at least one activation input";
  shape.assign(rank, 1);
  for (ArrayRef<int64_t> s : shapes) {
    int64_t offset = rank - static_cast<int64_t>(s.size());
    for (auto [k, d] : llvm::enumerate(s)) {
      int64_t &r = shape[offset + k];
      if (d != 1 && r != 1 && d != r)
        return emitError() << "input shapes do not broadcast";
      if (d != 1)
        r = d;
    }
  }
  // The layout of the highest-rank activation, extended by leading
  // dimensions when a constant has a higher rank.
  Act baseAct = *act(base);
  int64_t extra = rank - baseAct.rank();
  layout = identityLayout(extra);
  for (int64_t d : baseAct.layout)
    layout.push_back(d + extra);
  for (int i : inputs) {
    if (isActivation(i)) {
      Act x = *act(i);
      int64_t k = rank - x.rank();
      if (k > 0) {
        SmallVector<int64_t> irShape(k, 1);
        llvm::append_range(irShape, x.irShape());
        Layout extended = identityLayout(k);
        for (int64_t d : x.layout)
          extended.push_back(d + k);
        x = {reshape(x.value, irShape), extended};
      }
      values.push_back(inLayout(x, layout));
    } else {
      const ConstTensor *c = constant(i);
      SmallVector<int64_t> dims(rank - c->dims.size(), 1);
      llvm::append_range(dims, c->dims);
      values.push_back(constantInLayout(dims, c->data, layout));
    }
  }
  return success();
}
