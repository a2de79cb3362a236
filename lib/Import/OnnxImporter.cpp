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

#include "Importer.h"
#include "OpRegistry.h"

#include "dialects/Qnt/IR/QntDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace quantc;
using namespace quantc::onnx_import;

namespace {

/// The opsets whose ops the handlers implement.
constexpr int64_t kMinOpset = 9, kMaxOpset = 17;

class GraphImporter {
public:
  GraphImporter(MLIRContext &ctx, const OnnxImportOptions &options)
      : state(ctx, options) {}

  OwningOpRef<ModuleOp> run(const onnx::ModelProto &model);

private:
  LogicalResult importNode(const onnx::NodeProto &node, int64_t opset);
  InFlightDiagnostic emitError(const Twine &message) {
    return mlir::emitError(UnknownLoc::get(&state.ctx), message);
  }

  GraphState state;
};

} // namespace

LogicalResult GraphImporter::importNode(const onnx::NodeProto &node,
                                        int64_t opset) {
  std::string name = node.name().empty() ? (node.output_size() ? node.output(0)
                                                               : node.op_type())
                                         : node.name();
  state.b.setLoc(NameLoc::get(state.b.getStringAttr(name)));
  NodeImporter importer(state, node, opset);
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    return importer.emitError()
           << "unsupported op domain '" << node.domain() << "'";
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
        state.quants.count(out) || state.constQdq.count(out))
      return importer.emitError()
             << "output '" << out
             << "' is already defined (every value of an ONNX graph is "
                "defined once)";
  }
  OpHandler handler = OpRegistry::get().lookup(node.op_type(), opset);
  if (!handler)
    return importer.emitError()
           << "unsupported ONNX op '" << node.op_type() << "'";
  return handler(importer);
}

OwningOpRef<ModuleOp> GraphImporter::run(const onnx::ModelProto &model) {
  if (!model.has_graph())
    return (void)emitError("the model has no graph"), nullptr;
  int64_t opset = -1;
  for (const onnx::OperatorSetIdProto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      opset = o.version();
  if (opset < kMinOpset || opset > kMaxOpset)
    return (void)(emitError("unsupported opset ")
                  << opset << " (supported: " << kMinOpset << "-" << kMaxOpset
                  << ")"),
           nullptr;
  const onnx::GraphProto &graph = model.graph();
  for (const onnx::TensorProto &t : graph.initializer()) {
    ConstTensor c;
    if (auto err = decodeTensor(t, c))
      return (void)emitError("initializer: " + *err), nullptr;
    state.consts[t.name()] = std::move(c);
  }

  ImplicitLocOpBuilder &b = state.b;
  std::string fnName = graph.name().empty() ? "main" : graph.name();
  OwningOpRef<ModuleOp> module(ModuleOp::create(UnknownLoc::get(&state.ctx)));
  b.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  SmallVector<std::string> argNames;
  for (const onnx::ValueInfoProto &in : graph.input()) {
    if (state.consts.count(in.name()))
      continue;
    if (!in.type().has_tensor_type() ||
        in.type().tensor_type().elem_type() != onnx::TensorProto::FLOAT)
      return (void)emitError("graph input '" + in.name() +
                             "' is not a float32 tensor"),
             nullptr;
    SmallVector<int64_t> shape;
    for (const auto &dim : in.type().tensor_type().shape().dim()) {
      if (dim.has_dim_value() && dim.dim_value() == 1 && shape.empty() &&
          state.options.batch > 1) {
        // A model exported at batch 1 (torch.onnx.export's default),
        // compiled for batch N.
        shape.push_back(state.options.batch);
        state.rebatched = state.options.batch;
      } else if (dim.has_dim_value() && dim.dim_value() > 0 && shape.empty() &&
                 state.options.batch > 0 &&
                 dim.dim_value() != state.options.batch) {
        return (void)emitError("graph input '" + in.name() +
                               "' has the static batch " +
                               Twine(dim.dim_value()) + "; --batch " +
                               Twine(state.options.batch) +
                               " rebatches symbolic and batch-1 inputs only"),
               nullptr;
      } else if (dim.has_dim_value() && dim.dim_value() > 0) {
        shape.push_back(dim.dim_value());
      } else if (dim.has_dim_value()) {
        return (void)emitError("graph input '" + in.name() +
                               "' has a dimension of size " +
                               Twine(dim.dim_value())),
               nullptr;
      } else if (shape.empty() && state.options.batch > 0) {
        shape.push_back(state.options.batch);
      } else {
        return (void)emitError(
                   "graph input '" + in.name() + "' has a dynamic dimension" +
                   (shape.empty() ? " (use --batch N for a symbolic batch "
                                    "dimension)"
                                  : " (only the batch dimension may be "
                                    "symbolic)")),
               nullptr;
      }
    }
    if (shape.empty())
      return (void)emitError("graph input '" + in.name() +
                             "' is a scalar; inputs must be tensors"),
             nullptr;
    if (auto err = checkActivationShape(shape))
      return (void)emitError("graph input '" + in.name() + "' " + *err),
             nullptr;
    argTypes.push_back(RankedTensorType::get(shape, b.getF32Type()));
    argLocs.push_back(NameLoc::get(b.getStringAttr(in.name())));
    argNames.push_back(in.name());
  }
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

  for (const onnx::NodeProto &node : graph.node())
    if (failed(importNode(node, opset)))
      return nullptr;

  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &out : graph.output()) {
    b.setLoc(NameLoc::get(b.getStringAttr(out.name())));
    auto it = state.acts.find(out.name());
    if (it == state.acts.end())
      return (void)emitError(
                 "graph output '" + out.name() + "' is " +
                 (state.consts.count(out.name())
                      ? "a constant; outputs must be computed from inputs"
                      : "not computed by the graph")),
             nullptr;
    onnx::NodeProto none;
    NodeImporter importer(state, none, opset);
    Value v = importer.onnxOrder(it->second);
    auto shape = cast<RankedTensorType>(v.getType()).getShape();
    const auto &dims = out.type().tensor_type().shape().dim();
    bool mismatch =
        dims.size() != 0 && dims.size() != static_cast<int64_t>(shape.size());
    for (int i = 0; !mismatch && i < dims.size(); ++i)
      mismatch = dims[i].has_dim_value() && dims[i].dim_value() != shape[i] &&
                 // The exported batch 1 of a rebatched model.
                 !(i == 0 && state.rebatched && dims[i].dim_value() == 1 &&
                   shape[i] == state.rebatched);
    if (mismatch) {
      // Exporters' shape inference is not always right (PyTorch 1.13 infers
      // ONNX's, not its own, ceil-mode rule for a padded average pool);
      // the computed shape follows the ops' semantics.
      InFlightDiagnostic d = mlir::emitWarning(UnknownLoc::get(&state.ctx))
                             << "graph output '" << out.name()
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
    results.push_back(v);
  }
  if (results.empty())
    return (void)emitError("the graph has no outputs"), nullptr;
  func::ReturnOp::create(b, results);
  func.setFunctionType(
      b.getFunctionType(argTypes, ValueRange(results).getTypes()));
  // The interface keeps ONNX's dimension order: say so for the header.
  auto layouts = [&](TypeRange types) {
    SmallVector<Attribute> names;
    for (Type t : types)
      names.push_back(b.getStringAttr(
          cast<RankedTensorType>(t).getRank() == 4 ? "NCHW" : "row-major"));
    return b.getArrayAttr(names);
  };
  func->setAttr(kInputLayoutsAttr, layouts(argTypes));
  func->setAttr(kOutputLayoutsAttr, layouts(ValueRange(results).getTypes()));
  SmallVector<Attribute> inputNames, outputNames;
  for (const std::string &name : argNames)
    inputNames.push_back(b.getStringAttr(name));
  for (const onnx::ValueInfoProto &out : graph.output())
    outputNames.push_back(b.getStringAttr(out.name()));
  func->setAttr(kInputNamesAttr, b.getArrayAttr(inputNames));
  func->setAttr(kOutputNamesAttr, b.getArrayAttr(outputNames));
  // Drop what folded away (a zero Pad merged into a convolution, a Sigmoid
  // merged into SiLU, unused constants).
  IRRewriter rewriter(&state.ctx);
  (void)runRegionDCE(rewriter, func.getBody());
  return module;
}

void quantc::registerOnnxImportDialects(MLIRContext &context) {
  context.loadDialect<func::FuncDialect, tosa::TosaDialect, quant::QuantDialect,
                      qnt::QntDialect>();
}

OwningOpRef<ModuleOp> quantc::importOnnx(StringRef bytes, MLIRContext &context,
                                         const OnnxImportOptions &options) {
  registerOnnxImportDialects(context);
  onnx::ModelProto model;
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    emitError(UnknownLoc::get(&context),
              "the model is larger than 2 GiB (external data is not "
              "supported)");
    return nullptr;
  }
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    emitError(UnknownLoc::get(&context),
              "cannot parse the ONNX protobuf (corrupt or truncated file)");
    return nullptr;
  }
  GraphImporter importer(context, options);
  return importer.run(model);
}

OwningOpRef<ModuleOp> quantc::importOnnx(StringRef bytes, MLIRContext &context,
                                         const OnnxImportOptions &options,
                                         std::string &error) {
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
  OwningOpRef<ModuleOp> module = importOnnx(bytes, context, options);
  if (!module)
    error = message.empty() ? "import failed" : message;
  return module;
}
