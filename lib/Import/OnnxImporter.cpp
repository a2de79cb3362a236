//===- OnnxImporter.cpp - ONNX model to the float TOSA graph --------------===//
//
// The graph-level part of the import: initializers, graph inputs (rank-4
// inputs enter in NHWC), one pass over the nodes dispatching each to the
// handler OpRegistry has for its op type and the model's opset, and the
// graph outputs (back in ONNX's dimension order). Op semantics live in
// lib/Import/Ops.
//
//===----------------------------------------------------------------------===//

#include "quantc/Import/OnnxImporter.h"
#include "quantc/ModelAttributes.h"
#include "quantc/Support/Fail.h"
#include "quantc/Support/InputFile.h"
#include "quantc/Support/Text.h"

#include "Importer.h"
#include "OpRegistry.h"

#include "dialects/Qnt/IR/QntDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <queue>

using namespace mlir;
using namespace quantc;
using namespace quantc::onnx_import;

namespace {

/// The opsets of the default domain whose ops the handlers implement.
constexpr int64_t kMinOpset = 7, kMaxOpset = 21;

class GraphImporter {
public:
  GraphImporter(MLIRContext &ctx, const OnnxImportOptions &options)
      : state(ctx, options) {}

  OwningOpRef<ModuleOp> run(const onnx::ModelProto &model);

private:
  /// The shape graph input `in` is compiled for: its declared shape with
  /// the free dimensions fixed by `given` (an --input-shape) or, for the
  /// first dimension, by --batch.
  FailureOr<SmallVector<int64_t>> inputShape(const onnx::ValueInfoProto &in,
                                             const InputShape *given);
  LogicalResult importNode(const onnx::NodeProto &node, int64_t opset);

  // The steps of run, in order.
  /// The model's opset of the default domain, if supported.
  FailureOr<int64_t> readOpset(const onnx::ModelProto &model);
  /// Decodes the initializers into `state.consts`.
  LogicalResult readInitializers(const onnx::GraphProto &graph);
  /// The --input-shape given for each of `inputs`, by name.
  FailureOr<llvm::StringMap<const InputShape *>>
  givenInputShapes(ArrayRef<const onnx::ValueInfoProto *> inputs);
  /// The model function, its arguments the graph inputs (their names in
  /// `argNames`) entered in the preferred layout; the builder is left at the
  /// start of its body.
  FailureOr<func::FuncOp>
  createFunction(const onnx::GraphProto &graph, int64_t opset,
                 SmallVectorImpl<std::string> &argNames);
  /// Warns when the computed shape of output `out` is not the declared one.
  void warnOnDeclaredShape(const onnx::ValueInfoProto &out,
                           ArrayRef<int64_t> shape);
  /// Returns the graph outputs in ONNX's order and element types.
  LogicalResult returnOutputs(const onnx::GraphProto &graph, int64_t opset,
                              func::FuncOp func);
  /// The interface attributes: layouts and names of inputs and outputs.
  void describeInterface(const onnx::GraphProto &graph,
                         ArrayRef<std::string> argNames, func::FuncOp func);

  InFlightDiagnostic emitError(const Twine &message) {
    return mlir::emitError(UnknownLoc::get(&state.ctx), message);
  }

  GraphState state;
};

} // namespace

/// Elementwise unary ops (and Clip) whose input is a constant, computed at
/// import like the rest of a shape sub-graph (PaddlePaddle's interpolate
/// takes the Floor of a scaled size, other exporters Neg, Abs, Sqrt or Clip
/// of sizes and offsets); the op handlers take activations. Sets `folded`
/// when the node was one.
static LogicalResult foldConstantUnary(NodeImporter &n, GraphState &state,
                                       bool &folded) {
  folded = false;
  const onnx::NodeProto &node = n.node();
  using Fn = double (*)(double);
  Fn fn =
      llvm::StringSwitch<Fn>(node.op_type())
          .Case("Floor", [](double v) { return std::floor(v); })
          .Case("Ceil", [](double v) { return std::ceil(v); })
          .Case("Round", [](double v) { return std::nearbyint(v); })
          .Case("Abs", [](double v) { return std::fabs(v); })
          .Case("Neg", [](double v) { return -v; })
          .Case("Sign", [](double v) { return double((v > 0) - (v < 0)); })
          .Case("Sqrt", [](double v) { return std::sqrt(v); })
          .Case("Exp", [](double v) { return std::exp(v); })
          .Case("Log", [](double v) { return std::log(v); })
          .Case("Reciprocal", [](double v) { return 1.0 / v; })
          .Case("Relu", [](double v) { return std::max(v, 0.0); })
          .Case("Sigmoid", [](double v) { return 1.0 / (1.0 + std::exp(-v)); })
          .Case("Tanh", [](double v) { return std::tanh(v); })
          .Case("Erf", [](double v) { return std::erf(v); })
          .Case("Clip", [](double v) { return v; })
          .Default(nullptr);
  if (!fn || node.input_size() < 1 || !state.consts.count(node.input(0)))
    return success();
  for (const std::string &in : node.input())
    if (!in.empty() && !state.consts.count(in))
      return success(); // a bound that is not constant: the handler says so
  folded = true;
  bool clip = node.op_type() == "Clip";
  if (failed(n.checkArity(1, clip && n.opset() >= 11 ? 3 : 1)))
    return failure();
  FailureOr<ConstTensor> copy = n.copyConstant(0);
  if (failed(copy))
    return failure();
  ConstTensor t = std::move(*copy);
  double lo = -INFINITY, hi = INFINITY;
  if (clip && n.opset() >= 11) {
    for (int i : {1, 2}) {
      FailureOr<const ConstTensor *> bound = n.optionalConstant(i);
      if (failed(bound))
        return failure();
      if (!*bound)
        continue;
      if ((*bound)->numElements() != 1)
        return n.emitError() << (i == 1 ? "min" : "max") << " must be a scalar";
      (i == 1 ? lo : hi) = (*bound)->data[0];
    }
  } else if (clip) {
    FailureOr<float> min = n.floatAttr("min", -INFINITY, true),
                     max = n.floatAttr("max", INFINITY, true);
    if (failed(min) || failed(max))
      return failure();
    lo = *min, hi = *max;
  }
  for (double &v : t.data)
    v = castTo(clip ? std::min(std::max(v, lo), hi) : fn(v), t.dtype);
  return n.setOutput(std::move(t));
}

LogicalResult GraphImporter::importNode(const onnx::NodeProto &node,
                                        int64_t opset) {
  std::string name = node.name().empty() ? (node.output_size() ? node.output(0)
                                                               : node.op_type())
                                         : node.name();
  state.b.setLoc(NameLoc::get(state.b.getStringAttr(name)));
  NodeImporter importer(state, node, opset);
  // Other domains' ops are registered under "<domain>.<op type>" (ONNX
  // Runtime's com.microsoft QLinear ops, lib/Import/Ops/QLinear.cpp).
  bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
  std::string opKey =
      defaultDomain ? node.op_type() : node.domain() + "." + node.op_type();
  if (!defaultDomain && !OpRegistry::get().lookup(opKey, opset))
    return importer.emitError()
           << "unsupported op '" << printable(node.op_type()) << "' of domain '"
           << printable(node.domain()) << "'";
  if (node.output_size() < 1)
    return importer.emitError() << "node has no output";
  // ONNX graphs are in SSA form: a handler may rely on its inputs staying
  // what they are while it defines its outputs.
  for (int i = 0; i < node.output_size(); ++i) {
    const std::string &out = node.output(i);
    if (out.empty())
      continue;
    bool repeated = std::find(node.output().begin(), node.output().begin() + i,
                              out) != node.output().begin() + i;
    if (repeated || state.acts.count(out) || state.consts.count(out) ||
        state.quants.count(out) || state.constQdq.count(out) ||
        state.integers.count(out))
      return importer.emitError()
             << "output '" << printable(out)
             << "' is already defined (every value of an ONNX graph is "
                "defined once)";
  }
  bool folded;
  if (failed(foldConstantUnary(importer, state, folded)))
    return failure();
  if (folded)
    return success();
  OpHandler handler = OpRegistry::get().lookup(opKey, opset);
  if (!handler)
    return importer.emitError()
           << "unsupported ONNX op '" << printable(node.op_type()) << "'";
  // Quantized (8-bit, integer) inputs of ops that do not read them
  // themselves: see importWithIntegerInputs.
  return importWithIntegerInputs(importer, handler);
}

/// "node '<name>' (<op type>)", as NodeImporter::emitError names a node.
static std::string describeNode(const onnx::NodeProto &node) {
  std::string name =
      node.name().empty() && node.output_size() ? node.output(0) : node.name();
  return "node '" + printable(name) + "' (" + printable(node.op_type()) + ")";
}

/// The graph's nodes in an order where every node comes after the nodes
/// whose outputs it reads (ONNX requires a sorted graph; some exporters,
/// e.g. the float16 converters, append nodes they insert at the end, and
/// ONNX Runtime accepts that). Stable: the file's order wherever it is
/// valid (each step takes the first ready node in file order). A cycle is
/// an error naming the nodes on it.
static FailureOr<std::vector<const onnx::NodeProto *>>
sortNodes(const onnx::GraphProto &graph, MLIRContext &ctx) {
  int n = graph.node_size();
  // Names the graph defines without a node; a node that redefines one is
  // reported by importNode.
  llvm::StringSet<> given;
  for (const onnx::TensorProto &t : graph.initializer())
    given.insert(t.name());
  for (const onnx::ValueInfoProto &in : graph.input())
    given.insert(in.name());
  llvm::StringMap<int> producer;
  for (int i = 0; i < n; ++i)
    for (const std::string &out : graph.node(i).output())
      if (!out.empty() && !given.count(out))
        producer.try_emplace(out, i); // a second definition: importNode
  std::vector<SmallVector<int, 2>> users(n);
  std::vector<int> pending(n, 0);
  std::vector<SmallVector<int, 2>> deps(n);
  for (int i = 0; i < n; ++i) {
    for (const std::string &in : graph.node(i).input()) {
      auto it = in.empty() ? producer.end() : producer.find(in);
      if (it == producer.end() || llvm::is_contained(deps[i], it->second))
        continue;
      deps[i].push_back(it->second);
      users[it->second].push_back(i);
      ++pending[i];
    }
  }
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int i = 0; i < n; ++i)
    if (pending[i] == 0)
      ready.push(i);
  std::vector<const onnx::NodeProto *> order;
  order.reserve(n);
  while (!ready.empty()) {
    int i = ready.top();
    ready.pop();
    order.push_back(&graph.node(i));
    for (int user : users[i])
      if (--pending[user] == 0)
        ready.push(user);
  }
  if (static_cast<int>(order.size()) == n)
    return order;
  // Walk back from a node left over along inputs that are left over too
  // until a node repeats: the walk from its first visit is a cycle.
  int at = 0;
  while (pending[at] == 0)
    ++at;
  std::vector<int> walk, seen(n, -1);
  while (seen[at] < 0) {
    seen[at] = static_cast<int>(walk.size());
    walk.push_back(at);
    at = *llvm::find_if(deps[at], [&](int d) { return pending[d] > 0; });
  }
  InFlightDiagnostic d = mlir::emitError(UnknownLoc::get(&ctx))
                         << "the graph has a cycle: ";
  // In data-flow order (each node reads the one before it), from and back
  // to the node the walk closed on.
  d << describeNode(graph.node(at));
  for (int k = static_cast<int>(walk.size()) - 1; k > seen[at]; --k)
    d << " -> " << describeNode(graph.node(walk[k]));
  d << " -> " << describeNode(graph.node(at));
  return failure();
}

/// "[1, ?, 640, 640]" for a declared ONNX shape.
static std::string describeShape(const onnx::TensorShapeProto &shape) {
  std::string s = "[";
  for (const auto &dim : shape.dim()) {
    if (s.size() > 1)
      s += ", ";
    if (dim.has_dim_value() && dim.dim_value() > 0)
      s += std::to_string(dim.dim_value());
    else if (dim.has_dim_param() && !dim.dim_param().empty())
      s += dim.dim_param();
    else
      s += "?";
  }
  return s + "]";
}

/// The NumPy dtype of an activation of ONNX element type `dtype` at the
/// interface (kOutputDtypesAttr).
static StringRef numpyDtype(int32_t dtype) {
  switch (dtype) {
  case onnx::TensorProto::INT64:
    return "int64";
  case onnx::TensorProto::INT32:
    return "int32";
  case onnx::TensorProto::INT16:
    return "int16";
  case onnx::TensorProto::INT8:
    return "int8";
  case onnx::TensorProto::UINT64:
    return "uint64";
  case onnx::TensorProto::UINT32:
    return "uint32";
  case onnx::TensorProto::UINT16:
    return "uint16";
  case onnx::TensorProto::UINT8:
    return "uint8";
  case onnx::TensorProto::BOOL:
    return "bool";
  default:
    return "float32";
  }
}

/// The f32 graph output `v`, which holds integers of ONNX type `dtype`
/// (ArgMax indices, castToInteger's results: 8- and 16-bit ones already in
/// the type's range), as a tensor of the type's width: a tosa.cast, exact
/// for integral values; unsigned types through a wider signed type whose
/// truncation keeps the low bits (a negative value cast to UINT32 / UINT64
/// wraps, as NumPy converts the truncated int64; ONNX leaves it undefined;
/// bool: an i8 of 0 or 1).
/// `v` itself for FLOAT; failure for a type the interface does not have.
static FailureOr<Value> integerResult(ImplicitLocOpBuilder &b, Value v,
                                      int32_t dtype) {
  auto shape = cast<RankedTensorType>(v.getType()).getShape();
  auto cast = [&](Value x, unsigned width) -> Value {
    return tosa::CastOp::create(
        b, RankedTensorType::get(shape, b.getIntegerType(width)), x);
  };
  switch (dtype) {
  case onnx::TensorProto::FLOAT:
    return v;
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
    return cast(v, 64);
  case onnx::TensorProto::INT32:
    return cast(v, 32);
  case onnx::TensorProto::INT16:
    return cast(v, 16);
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::BOOL:
    return cast(v, 8);
  case onnx::TensorProto::UINT32:
    return cast(cast(v, 64), 32);
  case onnx::TensorProto::UINT16:
    return cast(cast(v, 32), 16);
  case onnx::TensorProto::UINT8:
    return cast(cast(v, 32), 8);
  default:
    return failure();
  }
}

/// "1x3x640x640", as --input-shape spells a shape.
static std::string spellShape(ArrayRef<int64_t> dims) {
  std::string s;
  for (int64_t d : dims)
    s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

FailureOr<SmallVector<int64_t>>
GraphImporter::inputShape(const onnx::ValueInfoProto &in,
                          const InputShape *given) {
  const onnx::TypeProto::Tensor &tensor = in.type().tensor_type();
  const auto &dims = tensor.shape().dim();
  int64_t batch = state.options.batch;
  if (given) {
    std::string what = "--input-shape " + printable(in.name()) + "=" +
                       spellShape(given->dims) + " for graph input '" +
                       printable(in.name()) + "' " +
                       describeShape(tensor.shape());
    if (tensor.has_shape() &&
        dims.size() != static_cast<int64_t>(given->dims.size()))
      return emitError(what + ": the input has rank " + Twine(dims.size()) +
                       ", the given shape " + Twine(given->dims.size()));
    for (int i = 0; i < dims.size(); ++i)
      if (dims[i].has_dim_value() && dims[i].dim_value() > 0 &&
          dims[i].dim_value() != given->dims[i])
        return emitError(what + ": dimension " + Twine(i) + " is static (" +
                         Twine(dims[i].dim_value()) +
                         "), the given shape has " + Twine(given->dims[i]));
    if (batch > 0 && given->dims.front() != batch)
      return emitError(what + ": its first dimension differs from --batch " +
                       Twine(batch));
    return SmallVector<int64_t>(given->dims);
  }
  if (!tensor.has_shape())
    return emitError("graph input '" + printable(in.name()) +
                     "' has no declared shape; give it with --input-shape " +
                     printable(in.name()) + "=DxDx...");
  SmallVector<int64_t> shape;
  for (const auto &dim : dims) {
    if (dim.has_dim_value() && dim.dim_value() == 1 && shape.empty() &&
        batch > 1) {
      // A model exported at batch 1 (torch.onnx.export's default),
      // compiled for batch N.
      shape.push_back(batch);
      state.rebatched = batch;
    } else if (dim.has_dim_value() && dim.dim_value() > 0 && shape.empty() &&
               batch > 0 && dim.dim_value() != batch) {
      return emitError("graph input '" + printable(in.name()) +
                       "' has the static batch " + Twine(dim.dim_value()) +
                       "; --batch " + Twine(batch) +
                       " rebatches symbolic and batch-1 inputs only");
    } else if (dim.has_dim_value() && dim.dim_value() > 0) {
      shape.push_back(dim.dim_value());
    } else if (dim.has_dim_value() && dim.dim_value() != -1) {
      return emitError("graph input '" + printable(in.name()) +
                       "' has a dimension of size " + Twine(dim.dim_value()));
    } else if (shape.empty() && batch > 0) {
      shape.push_back(batch);
    } else {
      return emitError(
          "graph input '" + printable(in.name()) + "' " +
          describeShape(tensor.shape()) + " has a dynamic dimension" +
          (shape.empty()
               ? " (use --batch N for a symbolic batch dimension, "
                 "or --input-shape " +
                     printable(in.name()) + "=DxDx... for the whole shape)"
               : " (fix the free dimensions with --input-shape " +
                     printable(in.name()) + "=DxDx...)"));
    }
  }
  if (shape.empty())
    return emitError("graph input '" + printable(in.name()) +
                     "' is a scalar; inputs must be tensors");
  return shape;
}

FailureOr<int64_t> GraphImporter::readOpset(const onnx::ModelProto &model) {
  int64_t opset = -1;
  for (const onnx::OperatorSetIdProto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      opset = o.version();
  if (opset < 0)
    return emitError("the model imports no opset of the default ONNX "
                     "domain (ai.onnx)");
  if (opset < kMinOpset || opset > kMaxOpset)
    return emitError("unsupported opset ")
           << opset << " of the default ONNX domain (supported: " << kMinOpset
           << "-" << kMaxOpset << ")";
  return opset;
}

LogicalResult GraphImporter::readInitializers(const onnx::GraphProto &graph) {
  for (const onnx::TensorProto &t : graph.initializer()) {
    // The constant budget, checked before decoding (a shape out of the
    // limits is decodeTensor's error).
    SmallVector<int64_t> dims(t.dims().begin(), t.dims().end());
    if (!errorToBool(checkConstantShape(dims))) {
      uint64_t bytes = 8;
      for (int64_t d : dims)
        bytes *= static_cast<uint64_t>(d);
      if (!state.budgetHasRoom(bytes))
        return emitError("initializer '" + printable(t.name()) + "' (" +
                         Twine(bytes / 8) + " elements)" +
                         state.budgetMessage(bytes));
    }
    ConstTensor c;
    if (llvm::Error err = decodeTensor(t, c))
      return emitError("initializer: " + toString(std::move(err)));
    state.constantBytes += 8 * c.data.size();
    state.consts[t.name()] = std::move(c);
  }
  return success();
}

/// The names of `inputs`, quoted, for messages.
static std::string
inputNameList(ArrayRef<const onnx::ValueInfoProto *> inputs) {
  std::string names;
  for (const onnx::ValueInfoProto *in : inputs)
    names += (names.empty() ? "'" : ", '") + printable(in->name()) + "'";
  return names;
}

FailureOr<llvm::StringMap<const InputShape *>>
GraphImporter::givenInputShapes(ArrayRef<const onnx::ValueInfoProto *> inputs) {
  llvm::StringMap<const InputShape *> givenShapes;
  for (const InputShape &given : state.options.inputShapes) {
    std::string name = given.name;
    if (name.empty()) {
      if (inputs.size() != 1)
        return emitError("--input-shape " + spellShape(given.dims) +
                         " names no input, and the model has " +
                         Twine(inputs.size()) + " inputs (" +
                         inputNameList(inputs) +
                         "): use --input-shape NAME=" + spellShape(given.dims));
      name = inputs.front()->name();
    }
    if (!llvm::any_of(inputs, [&](const onnx::ValueInfoProto *in) {
          return in->name() == name;
        }))
      return emitError("--input-shape names '" + printable(name) +
                       "', which is not a graph input (the inputs: " +
                       inputNameList(inputs) + ")");
    if (!givenShapes.try_emplace(name, &given).second)
      return emitError("--input-shape gives graph input '" + printable(name) +
                       "' twice");
  }
  return givenShapes;
}

FailureOr<func::FuncOp>
GraphImporter::createFunction(const onnx::GraphProto &graph, int64_t opset,
                              SmallVectorImpl<std::string> &argNames) {
  ImplicitLocOpBuilder &b = state.b;
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  // The graph inputs proper (not initializers), and the --input-shape of
  // each.
  SmallVector<const onnx::ValueInfoProto *> inputs;
  for (const onnx::ValueInfoProto &in : graph.input())
    if (!state.consts.count(in.name()))
      inputs.push_back(&in);
  FailureOr<llvm::StringMap<const InputShape *>> givenShapes =
      givenInputShapes(inputs);
  if (failed(givenShapes))
    return failure();
  for (const onnx::ValueInfoProto *input : inputs) {
    const onnx::ValueInfoProto &in = *input;
    int32_t dtype = in.type().tensor_type().elem_type();
    if (!in.type().has_tensor_type() || (dtype != onnx::TensorProto::FLOAT &&
                                         dtype != onnx::TensorProto::FLOAT16 &&
                                         dtype != onnx::TensorProto::BFLOAT16 &&
                                         dtype != onnx::TensorProto::DOUBLE))
      return emitError("graph input '" + printable(in.name()) +
                       "' is not a float tensor (float32, float16, "
                       "bfloat16 or double)");
    FailureOr<SmallVector<int64_t>> inShape =
        inputShape(in, givenShapes->lookup(in.name()));
    if (failed(inShape))
      return failure();
    SmallVector<int64_t> shape = std::move(*inShape);
    if (llvm::Error err = checkActivationShape(shape))
      return emitError("graph input '" + printable(in.name()) + "' " +
                       toString(std::move(err)));
    argTypes.push_back(RankedTensorType::get(shape, b.getF32Type()));
    argLocs.push_back(NameLoc::get(b.getStringAttr(in.name())));
    argNames.push_back(in.name());
  }
  std::string fnName = graph.name().empty() ? "main" : graph.name();
  auto func = func::FuncOp::create(b, fnName, b.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  for (auto [arg, loc] : llvm::zip(entry->getArguments(), argLocs))
    arg.setLoc(loc);
  b.setInsertionPointToStart(entry);
  for (size_t i = 0; i < argNames.size(); ++i) {
    Value arg = entry->getArgument(i);
    b.setLoc(argLocs[i]);
    auto rank = cast<RankedTensorType>(arg.getType()).getRank();
    // Enter in the preferred layout (NHWC for images).
    onnx::NodeProto none;
    NodeImporter importer(state, none, opset);
    Act a{arg, identityLayout(rank)};
    Layout layout = preferredLayout(rank);
    state.acts[argNames[i]] = {importer.inLayout(a, layout), layout};
  }
  return func;
}

void GraphImporter::warnOnDeclaredShape(const onnx::ValueInfoProto &out,
                                        ArrayRef<int64_t> shape) {
  const auto &dims = out.type().tensor_type().shape().dim();
  bool mismatch =
      dims.size() != 0 && dims.size() != static_cast<int64_t>(shape.size());
  for (int i = 0; !mismatch && i < dims.size(); ++i)
    mismatch = dims[i].has_dim_value() && dims[i].dim_value() != shape[i] &&
               // The exported batch 1 of a rebatched model.
               !(i == 0 && state.rebatched && dims[i].dim_value() == 1 &&
                 shape[i] == state.rebatched);
  if (!mismatch)
    return;
  // Exporters' shape inference is not always right (PyTorch 1.13 infers
  // ONNX's, not its own, ceil-mode rule for a padded average pool); the
  // computed shape follows the ops' semantics.
  InFlightDiagnostic d = mlir::emitWarning(UnknownLoc::get(&state.ctx))
                         << "graph output '" << printable(out.name())
                         << "': declared shape [";
  llvm::interleaveComma(dims, d, [&](const auto &dim) {
    if (dim.has_dim_value())
      d << dim.dim_value();
    else
      d << "?";
  });
  d << "] differs from the computed [";
  llvm::interleaveComma(shape, d);
  d << "]; using the computed shape";
}

LogicalResult GraphImporter::returnOutputs(const onnx::GraphProto &graph,
                                           int64_t opset, func::FuncOp func) {
  ImplicitLocOpBuilder &b = state.b;
  SmallVector<Value> results;
  SmallVector<Attribute> outputDtypes;
  bool anyInteger = false;
  for (const onnx::ValueInfoProto &out : graph.output()) {
    b.setLoc(NameLoc::get(b.getStringAttr(out.name())));
    auto it = state.acts.find(out.name());
    if (it == state.acts.end())
      return emitError("graph output '" + printable(out.name()) + "' is " +
                       (state.consts.count(out.name())
                            ? "a constant; outputs must be computed from inputs"
                            : "not computed by the graph"));
    onnx::NodeProto none;
    NodeImporter importer(state, none, opset);
    Value v = importer.onnxOrder(it->second);
    warnOnDeclaredShape(out, cast<RankedTensorType>(v.getType()).getShape());
    FailureOr<Value> typed = integerResult(b, v, it->second.dtype);
    if (failed(typed))
      return emitError("graph output '" + printable(out.name()) +
                       "' is of type " + dataTypeName(it->second.dtype) +
                       ", which a model output cannot be");
    results.push_back(*typed);
    outputDtypes.push_back(b.getStringAttr(numpyDtype(it->second.dtype)));
    anyInteger |= it->second.dtype != onnx::TensorProto::FLOAT;
  }
  if (results.empty())
    return emitError("the graph has no outputs");
  func::ReturnOp::create(b, results);
  func.setFunctionType(b.getFunctionType(func.getArgumentTypes(),
                                         ValueRange(results).getTypes()));
  if (anyInteger)
    func->setAttr(kOutputDtypesAttr, b.getArrayAttr(outputDtypes));
  return success();
}

void GraphImporter::describeInterface(const onnx::GraphProto &graph,
                                      ArrayRef<std::string> argNames,
                                      func::FuncOp func) {
  ImplicitLocOpBuilder &b = state.b;
  // The interface keeps ONNX's dimension order: say so for the header.
  auto layouts = [&](TypeRange types) {
    SmallVector<Attribute> names;
    for (Type t : types)
      names.push_back(b.getStringAttr(
          cast<RankedTensorType>(t).getRank() == 4 ? "NCHW" : "row-major"));
    return b.getArrayAttr(names);
  };
  func->setAttr(kInputLayoutsAttr, layouts(func.getArgumentTypes()));
  func->setAttr(kOutputLayoutsAttr, layouts(func.getResultTypes()));
  SmallVector<Attribute> inputNames, outputNames;
  for (const std::string &name : argNames)
    inputNames.push_back(b.getStringAttr(name));
  for (const onnx::ValueInfoProto &out : graph.output())
    outputNames.push_back(b.getStringAttr(out.name()));
  func->setAttr(kInputNamesAttr, b.getArrayAttr(inputNames));
  func->setAttr(kOutputNamesAttr, b.getArrayAttr(outputNames));
}

OwningOpRef<ModuleOp> GraphImporter::run(const onnx::ModelProto &model) {
  if (!model.has_graph())
    return (void)emitError("the model has no graph"), nullptr;
  FailureOr<int64_t> opset = readOpset(model);
  if (failed(opset))
    return nullptr;
  const onnx::GraphProto &graph = model.graph();
  llvm::Expected<uint64_t> limit = maxInputBytes();
  if (!limit)
    return (void)emitError(toString(limit.takeError())), nullptr;
  state.maxConstantBytes = *limit;
  if (failed(readInitializers(graph)))
    return nullptr;

  OwningOpRef<ModuleOp> module(ModuleOp::create(UnknownLoc::get(&state.ctx)));
  state.b.setInsertionPointToEnd(module->getBody());
  SmallVector<std::string> argNames;
  FailureOr<func::FuncOp> func = createFunction(graph, *opset, argNames);
  if (failed(func))
    return nullptr;

  FailureOr<std::vector<const onnx::NodeProto *>> nodes =
      sortNodes(graph, state.ctx);
  if (failed(nodes))
    return nullptr;
  for (const onnx::NodeProto *node : *nodes)
    if (failed(importNode(*node, *opset)) || state.overBudget)
      return nullptr;

  if (failed(returnOutputs(graph, *opset, *func)))
    return nullptr;
  describeInterface(graph, argNames, *func);
  // Drop what folded away (a zero Pad merged into a convolution, a Sigmoid
  // merged into SiLU, unused constants).
  IRRewriter rewriter(&state.ctx);
  (void)runRegionDCE(rewriter, func->getBody());
  return module;
}

std::pair<int64_t, int64_t> quantc::onnxOpsetRange() {
  return {kMinOpset, kMaxOpset};
}

std::vector<OnnxImportedOp> quantc::onnxImportedOps() {
  const OpRegistry &registry = OpRegistry::get();
  std::vector<OnnxImportedOp> ops;
  for (const std::string &opType : registry.opTypes()) {
    OnnxImportedOp op{opType, {}};
    // A handler begins where the lookup's answer changes.
    OpHandler previous = nullptr;
    for (int64_t v = 1; v <= kMaxOpset; ++v) {
      OpHandler h = registry.lookup(opType, v);
      if (h && h != previous)
        op.since.push_back(v);
      previous = h;
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

std::string quantc::onnxOpsetsText(ArrayRef<int64_t> since) {
  std::string s;
  for (size_t i = 0; i < since.size(); ++i) {
    int64_t first = std::max(since[i], kMinOpset);
    int64_t last = i + 1 < since.size() ? since[i + 1] - 1 : kMaxOpset;
    if (last < kMinOpset)
      continue;
    if (!s.empty())
      s += ", ";
    s += first == last ? std::to_string(first)
                       : std::to_string(first) + "-" + std::to_string(last);
  }
  return s.empty() ? "-" : s;
}

void quantc::registerOnnxImportDialects(MLIRContext &context) {
  context.loadDialect<func::FuncDialect, tosa::TosaDialect, quant::QuantDialect,
                      qnt::QntDialect>();
}

/// Parses the serialized model `bytes` into `model`; false after emitting
/// an error.
static bool parseModel(StringRef bytes, MLIRContext &context,
                       onnx::ModelProto &model) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    emitError(UnknownLoc::get(&context),
              "the model is larger than 2 GiB, protobuf's limit (external "
              "data is not supported)");
    return false;
  }
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    emitError(UnknownLoc::get(&context),
              "cannot parse the ONNX protobuf (corrupt or truncated file)");
    return false;
  }
  return true;
}

OwningOpRef<ModuleOp> quantc::importOnnx(StringRef bytes, MLIRContext &context,
                                         const OnnxImportOptions &options) {
  registerOnnxImportDialects(context);
  onnx::ModelProto model;
  if (!parseModel(bytes, context, model))
    return nullptr;
  GraphImporter importer(context, options);
  return importer.run(model);
}

/// What `import` returns, or its first error diagnostic (with its notes) as
/// an llvm::Error.
static llvm::Expected<OwningOpRef<ModuleOp>>
collectFirstError(MLIRContext &context,
                  llvm::function_ref<OwningOpRef<ModuleOp>()> import) {
  // Collect the first error and its notes as one message.
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    if (d.getSeverity() != DiagnosticSeverity::Error)
      return failure(); // remarks and warnings go to the outer handlers
    if (message.empty()) {
      message = d.str();
      for (const Diagnostic &note : d.getNotes())
        message += "\n  note: " + note.str();
    }
    return success();
  });
  OwningOpRef<ModuleOp> module = import();
  if (!module)
    return fail(message.empty() ? "import failed" : message);
  return module;
}

llvm::Expected<OwningOpRef<ModuleOp>>
quantc::importOnnxOrError(StringRef bytes, MLIRContext &context,
                          const OnnxImportOptions &options) {
  return collectFirstError(context,
                           [&] { return importOnnx(bytes, context, options); });
}

llvm::Expected<OwningOpRef<ModuleOp>>
quantc::importOnnxFile(StringRef path, MLIRContext &context,
                       const OnnxImportOptions &options) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> bytes =
      readInputFile(path);
  if (!bytes)
    return bytes.takeError();
  llvm::Expected<OwningOpRef<ModuleOp>> module =
      collectFirstError(context, [&]() -> OwningOpRef<ModuleOp> {
        registerOnnxImportDialects(context);
        onnx::ModelProto model;
        bool parsed = parseModel((*bytes)->getBuffer(), context, model);
        // The parsed model holds its own copy of everything it needs.
        bytes->reset();
        if (!parsed)
          return nullptr;
        GraphImporter importer(context, options);
        return importer.run(model);
      });
  if (!module)
    return fail("'" + path + "': " + toString(module.takeError()));
  return module;
}

const char *const quantc::kInputShapeHelp =
    "The shape to compile a graph input for, NAME=1x3x640x640 (the name may "
    "be left out for a model with one input; repeat the option for each "
    "input): fixes the input's free (symbolic) dimensions; --batch applies "
    "to the inputs not named";

llvm::Error quantc::parseInputShape(StringRef spec,
                                    OnnxImportOptions &options) {
  auto bad = [&](const Twine &why) {
    return fail("bad --input-shape '" + spec + "': " + why);
  };
  InputShape shape;
  StringRef dims = spec;
  size_t eq = spec.rfind('=');
  if (eq != StringRef::npos) {
    shape.name = spec.take_front(eq).str();
    dims = spec.drop_front(eq + 1);
    if (shape.name.empty())
      return bad("the input name before '=' is empty");
  }
  if (dims.empty())
    return bad("no dimensions (expected e.g. 1x3x224x224)");
  SmallVector<StringRef> parts;
  dims.split(parts, dims.contains(',') ? ',' : 'x', -1, /*KeepEmpty=*/true);
  for (StringRef part : parts) {
    StringRef text = part.trim();
    uint64_t value;
    if (text.empty() || !llvm::all_of(text, llvm::isDigit) ||
        text.getAsInteger(10, value))
      return bad("dimension '" + part +
                 "' is not a positive integer (expected e.g. 1x3x224x224)");
    if (value == 0)
      return bad("dimension 0: empty tensors are not supported");
    if (value > static_cast<uint64_t>(onnx_import::kMaxIntValue))
      return bad("dimension " + text + " is too large (at most " +
                 Twine(onnx_import::kMaxIntValue) + ")");
    shape.dims.push_back(static_cast<int64_t>(value));
  }
  if (llvm::Error err = onnx_import::checkActivationShape(shape.dims))
    return bad("the shape " + toString(std::move(err)));
  for (const InputShape &other : options.inputShapes)
    if (other.name == shape.name)
      return bad(shape.name.empty()
                     ? Twine("a shape without a name is given twice")
                     : "input '" + shape.name + "' is given twice");
  options.inputShapes.push_back(std::move(shape));
  return llvm::Error::success();
}

llvm::Error quantc::parseInputShapes(ArrayRef<std::string> specs,
                                     OnnxImportOptions &options) {
  for (const std::string &spec : specs)
    if (llvm::Error e = parseInputShape(spec, options))
      return e;
  return llvm::Error::success();
}
