//===- Importer.h - What an ONNX op handler sees ----------------*- C++ -*-===//
//
// Private to lib/Import. The importer walks the ONNX nodes (sorted
// topologically first: some exporters append nodes out of order) once and
// dispatches each to the handler registered for its op type and opset
// (OpRegistry.h). A handler reads its inputs and attributes
// through a NodeImporter, builds IR with its builder and records its
// outputs. Three kinds of values flow between nodes:
//
// * activations (`Act`): an SSA tensor plus its layout: IR dimension i
//   holds ONNX dimension `layout[i]`. Graph inputs of rank 4 enter as NHWC
//   (layout {0, 2, 3, 1}), which is what convolutions and pools need; data
//   movement ops (Transpose, Squeeze, most Reshapes) only change the layout,
//   and a layout is materialized (a transpose) only where an op needs a
//   particular one;
// * constants (`ConstTensor`, ONNX layout): initializers, Constant nodes and
//   everything computed from constants alone (shape sub-graphs such as
//   Shape -> Gather -> Unsqueeze -> Concat -> Reshape fold here);
// * quantized values: a QuantizeLinear output waiting for its
//   DequantizeLinear.
//
// Every error is an MLIR diagnostic at the node's location (a NameLoc with
// the node name) that starts with "node '<name>' (<op type>): ".
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_LIB_IMPORT_IMPORTER_H
#define QUANTC_LIB_IMPORT_IMPORTER_H

#include "OnnxTensor.h"

#include "quantc/Import/OnnxImporter.h"
#include "quantc/Support/InputFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/StringMap.h"

namespace quantc::onnx_import {

/// IR dimension i of an activation holds ONNX dimension `layout[i]`.
using Layout = llvm::SmallVector<int64_t, 6>;

/// The identity layout of `rank` dimensions.
Layout identityLayout(int64_t rank);
/// The layout the importer prefers for a tensor of `rank` dimensions: NHWC
/// for rank 4 (convolutions and pools work on it), the identity otherwise.
Layout preferredLayout(int64_t rank);

/// An activation tensor.
struct Act {
  mlir::Value value;
  Layout layout;
  /// The ONNX element type the value stands for. The IR value is f32
  /// whatever it is: an integer type (ArgMax / ArgMin indices, a Cast to
  /// an integer type) holds integers, exact below 2^24, and a graph output
  /// of an integer type becomes an integer result (OnnxImporter.cpp).
  int32_t dtype = onnx::TensorProto::FLOAT;

  int64_t rank() const { return static_cast<int64_t>(layout.size()); }
  llvm::ArrayRef<int64_t> irShape() const;
  /// The shape in ONNX's dimension order.
  llvm::SmallVector<int64_t> onnxShape() const;
  /// The IR dimension that holds ONNX dimension `axis` (non-negative).
  int64_t irAxis(int64_t axis) const;
};

/// A QuantizeLinear output waiting for its DequantizeLinear.
struct PendingQuant {
  std::string input;
  std::vector<double> scales;
  std::vector<int64_t> zeroPoints;
  bool isSigned = false;
  int64_t axis = 1; // ONNX axis; ignored when per tensor
};

/// A value of an integer-arithmetic graph (ONNX Runtime's quantize_dynamic:
/// DynamicQuantizeLinear, ConvInteger / MatMulInteger, Cast, Mul by the
/// scales), kept symbolic until the float value it stands for is known; see
/// lib/Import/Ops/QLinear.cpp.
struct IntegerValue {
  enum Kind {
    Quantized, // an 8-bit activation: (q - zero point) stands for act / scale
    Scale,     // the scale of a dynamically quantized activation
    ZeroPoint, // its zero point (only ConvInteger / MatMulInteger read it)
    Product,   // the int32 result of ConvInteger / MatMulInteger
    Factor,    // a product of Scales and a float constant
  } kind;
  /// Quantized: the float activation it stands for; Scale and ZeroPoint:
  /// the Quantized value's name.
  std::string value;
  /// Quantized: the DynamicQuantizeLinear output whose scale and zero point
  /// it has when an op moved its values (Transpose, Reshape, ...), empty
  /// for that output itself. Product and Factor: the names of the
  /// DynamicQuantizeLinear outputs whose scales the float result still
  /// needs, sorted; Factor: the constant, Product: the float op (inputs in
  /// `node`, its integer weight as the float w_q - w_zp in `weight`, at
  /// input `weightInput`; -1 for none) and the product of the static
  /// scales.
  std::vector<std::string> symbols;
  ConstTensor constant;
  std::shared_ptr<onnx::NodeProto> node;
  ConstTensor weight;
  int weightInput = -1;
  double staticScale = 1.0;
};

/// The state of one graph's import: values by ONNX name and the builder.
struct GraphState {
  GraphState(mlir::MLIRContext &ctx, const OnnxImportOptions &options)
      : ctx(ctx), options(options), b(mlir::UnknownLoc::get(&ctx), &ctx) {}

  mlir::MLIRContext &ctx;
  const OnnxImportOptions &options;
  mlir::ImplicitLocOpBuilder b;
  llvm::StringMap<Act> acts;
  llvm::StringMap<ConstTensor> consts;
  llvm::StringMap<PendingQuant> quants;
  /// QDQ pairs on constants: output name -> (constant name, parameters).
  llvm::StringMap<PendingQuant> constQdq;
  /// Values of integer arithmetic (IntegerValue).
  llvm::StringMap<IntegerValue> integers;
  /// The batch a model exported at batch 1 was rebatched to (--batch N), 0
  /// otherwise: a Reshape to a constant shape that keeps the exported batch
  /// 1 in front of an input carrying N gets N there.
  int64_t rebatched = 0;
  /// The memory the model's constants take (docs/hardening.md, "Limits"):
  /// 8 bytes an element of every constant in `consts`, 4 an element of
  /// every constant placed in the IR. It stays within `maxConstantBytes`
  /// (QUANTC_MAX_INPUT_BYTES), checked before each constant is computed or
  /// placed in the IR; `overBudget` says that a check failed where the op
  /// could not stop (the import fails after the node). The limit also
  /// bounds each activation an op computes (setOutput).
  uint64_t constantBytes = 0;
  uint64_t maxConstantBytes = kDefaultMaxInputBytes;
  bool overBudget = false;

  /// Whether constantBytes can grow by `bytes`.
  bool budgetHasRoom(uint64_t bytes) const {
    return constantBytes <= maxConstantBytes &&
           bytes <= maxConstantBytes - constantBytes;
  }
  /// Why `bytes` more do not fit, and how to raise the limit: follows the
  /// name of what needs them.
  std::string budgetMessage(uint64_t bytes) const;
  /// Fails with budgetMessage unless a constant of shape `dims` (checked by
  /// checkConstantShape) fits: 8 bytes an element.
  llvm::Error checkBudget(llvm::ArrayRef<int64_t> dims) const;
};

/// What reading an integer beyond +-kMaxIntValue does: an error naming the
/// attribute or input, or (Slice's starts and ends, where exporters write
/// INT64_MAX for "to the end") clamping, which keeps the meaning.
enum class OutOfRange { Refuse, Clamp };

/// One node being imported: its inputs, attributes and outputs, and the IR
/// helpers op handlers share.
class NodeImporter {
public:
  NodeImporter(GraphState &graph, const onnx::NodeProto &node, int64_t opset);

  const onnx::NodeProto &node() const { return n; }
  int64_t opset() const { return version; }
  mlir::ImplicitLocOpBuilder &builder() { return g.b; }
  mlir::MLIRContext *context() { return &g.ctx; }
  GraphState &graph() { return g; }

  //===--------------------------------------------------------------------===//
  // Diagnostics
  //===--------------------------------------------------------------------===//

  /// An error at the node: "node '<name>' (<op>): " followed by the message.
  mlir::InFlightDiagnostic emitError() const;

  //===--------------------------------------------------------------------===//
  // Inputs
  //===--------------------------------------------------------------------===//

  /// Fails unless the node has between `minInputs` and `maxInputs` inputs
  /// (empty names of absent optional inputs count) and between `minOutputs`
  /// and `maxOutputs` outputs.
  mlir::LogicalResult checkArity(int minInputs, int maxInputs,
                                 int minOutputs = 1, int maxOutputs = 1) const;
  int numInputs() const { return n.input_size(); }
  /// True when input `i` is given (present with a non-empty name).
  bool hasInput(int i) const;
  const std::string &inputName(int i) const { return n.input(i); }
  bool isConstant(int i) const;
  bool isActivation(int i) const;
  /// Input `i` as an activation (an error when it is missing or constant).
  mlir::FailureOr<Act> act(int i);
  /// Input `i` as a constant (an error, and null, when it is missing or not
  /// a constant).
  const ConstTensor *constant(int i);
  /// An optional constant input: null when absent, failure when given but
  /// not constant.
  mlir::FailureOr<const ConstTensor *> optionalConstant(int i);
  /// A constant input holding integers (axes, pads, sizes, ...), checked to
  /// be of rank <= 1 and, as every integer the importer reads, to lie in
  /// [-kMaxIntValue, kMaxIntValue] (or clamped into it, see OutOfRange).
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  intsInput(int i, OutOfRange outOfRange = OutOfRange::Refuse);
  /// As intsInput, empty when input `i` is absent.
  mlir::FailureOr<llvm::SmallVector<int64_t>> optionalIntsInput(int i) {
    return hasInput(i) ? intsInput(i) : llvm::SmallVector<int64_t>{};
  }

  //===--------------------------------------------------------------------===//
  // Attributes (checked for their type; defaults as the ONNX spec gives)
  //===--------------------------------------------------------------------===//

  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  mlir::FailureOr<int64_t> intAttr(llvm::StringRef name, int64_t dflt) const;
  /// A 0 / 1 flag (keepdims, transB, ceil_mode, ...): another value is
  /// refused, naming the attribute and its value.
  mlir::FailureOr<bool> boolAttr(llvm::StringRef name, bool dflt) const;
  /// A float attribute; NaN is refused, and so are infinities unless
  /// `allowInfinite` (Clip's bounds).
  mlir::FailureOr<float> floatAttr(llvm::StringRef name, float dflt,
                                   bool allowInfinite = false) const;
  mlir::FailureOr<std::string> stringAttr(llvm::StringRef name,
                                          llvm::StringRef dflt) const;
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  intsAttr(llvm::StringRef name, llvm::ArrayRef<int64_t> dflt,
           OutOfRange outOfRange = OutOfRange::Refuse) const;
  /// A list of axes (attribute or input, as the opset has it), normalized
  /// into [0, rank) and checked: in range and without duplicates.
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  normalizeAxes(llvm::ArrayRef<int64_t> axes, int64_t rank) const;
  mlir::FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank) const;

  //===--------------------------------------------------------------------===//
  // Outputs
  //===--------------------------------------------------------------------===//

  /// Records output `i`; an activation must have between 1 and
  /// kMaxActivationElements elements and at most maxConstantBytes
  /// (QUANTC_MAX_INPUT_BYTES) as float32, a constant a shape
  /// checkConstantShape accepts.
  mlir::LogicalResult setOutput(int i, Act a);
  mlir::LogicalResult setOutput(int i, ConstTensor t);
  mlir::LogicalResult setOutput(Act a) { return setOutput(0, std::move(a)); }
  mlir::LogicalResult setOutput(ConstTensor t) {
    return setOutput(0, std::move(t));
  }
  /// Fails with "<what>: too many elements" unless a constant of shape
  /// `dims` is within the limits and the constant budget
  /// (GraphState::constantBytes) has room for it (checked before computing
  /// one).
  mlir::LogicalResult checkConstantShape(llvm::ArrayRef<int64_t> dims,
                                         llvm::StringRef what) const;
  /// A copy of constant input `i` (to modify: Cast, Reshape, a fold), after
  /// checkConstantShape; failure after an error.
  mlir::FailureOr<ConstTensor> copyConstant(int i);
  /// GraphState::checkBudget, as broadcastElementwise's ShapeCheck.
  llvm::Error checkBudget(llvm::ArrayRef<int64_t> dims) const {
    return g.checkBudget(dims);
  }
  /// Whether the constant budget has room for a constant of `shape` in the
  /// IR, checked before its values are computed: 4 bytes an element in the
  /// attribute (charged by constant()) and 4 in the buffer it is built
  /// from. When there is none, emits the error and sets
  /// GraphState::overBudget: the import fails after the node, whatever the
  /// op builds instead.
  bool hasRoomInIr(llvm::ArrayRef<int64_t> shape);

  //===--------------------------------------------------------------------===//
  // IR helpers
  //===--------------------------------------------------------------------===//

  mlir::RankedTensorType f32(llvm::ArrayRef<int64_t> shape);
  mlir::Value constant(llvm::ArrayRef<int64_t> shape,
                       llvm::ArrayRef<float> values);
  /// `t` in the IR, after hasRoomInIr (a zero splat when it fails).
  mlir::Value constant(const ConstTensor &t) {
    return constantInLayout(t.dims, t.data, identityLayout(t.dims.size()));
  }
  /// A constant of shape [1, ..., 1] (`rank` ones) broadcasting `value`.
  mlir::Value splat(float value, int64_t rank);
  /// The constant `t` in the layout of an activation of the same rank.
  mlir::Value constantInLayout(const ConstTensor &t,
                               llvm::ArrayRef<int64_t> layout) {
    return constantInLayout(t.dims, t.data, layout);
  }
  /// The constant of shape `dims` holding `data` (ONNX order) in `layout`
  /// (IR dimension i holds dimension layout[i]), permuted straight into the
  /// attribute's values, after hasRoomInIr (a zero splat when it fails).
  mlir::Value constantInLayout(llvm::ArrayRef<int64_t> dims,
                               llvm::ArrayRef<double> data,
                               llvm::ArrayRef<int64_t> layout);
  /// The f32 `v` rounded to the precision of the ONNX float type `dtype`:
  /// for FLOAT16 and BFLOAT16 a tosa.cast there and back (round to nearest
  /// even, as ONNX Runtime's Cast; the int8 pipeline keeps it in float), `v`
  /// itself for FLOAT and DOUBLE. Code generation lowers it to the target's
  /// conversion instructions (F16C, AArch64) or to the libgcc calls
  /// __truncsfhf2 / __extendhfsf2 / __truncsfbf2 (the last one missing from
  /// GCC 12's libgcc, x86 objects define it: lib/Target/Emit.cpp).
  mlir::Value roundToPrecision(mlir::Value v, int32_t dtype);
  /// tosa.mul of f32 values (its shift operand is 0), built by
  /// qnt::createExactMul so that no folder changes a product by a zero
  /// constant.
  mlir::Value mul(mlir::Value lhs, mlir::Value rhs, mlir::Type type);
  mlir::Value transpose(mlir::Value v, llvm::ArrayRef<int64_t> perm);
  mlir::Value reshape(mlir::Value v, llvm::ArrayRef<int64_t> shape);
  /// `a`'s value in `layout`: itself, a reshape when only unit dimensions
  /// move, or a transpose.
  mlir::Value inLayout(const Act &a, llvm::ArrayRef<int64_t> layout);
  /// `a` in NHWC (rank 4 only).
  mlir::Value nhwc(const Act &a) { return inLayout(a, preferredLayout(4)); }
  /// `a` in ONNX's dimension order.
  mlir::Value onnxOrder(const Act &a) {
    return inLayout(a, identityLayout(a.rank()));
  }
  /// `a` reshaped to the ONNX shape `shape` (same element count), keeping
  /// its layout when the reshape only splits or merges dimensions that are
  /// adjacent and in order in IR; transposes first otherwise.
  Act reshapeAct(const Act &a, llvm::ArrayRef<int64_t> shape);
  /// Inputs `inputs` (activations or constants, at least one activation)
  /// broadcast by ONNX's multidirectional rules: values of equal rank in one
  /// layout, which is returned in `layout`, and the ONNX result shape.
  mlir::LogicalResult broadcast(llvm::ArrayRef<int> inputs,
                                llvm::SmallVectorImpl<mlir::Value> &values,
                                Layout &layout,
                                llvm::SmallVectorImpl<int64_t> &shape);

private:
  /// `v` if its magnitude is at most kMaxIntValue; else clamped or an error
  /// ("<what> holds <v>, out of range ...").
  mlir::FailureOr<int64_t> boundedInt(int64_t v, const llvm::Twine &what,
                                      OutOfRange outOfRange) const;

  GraphState &g;
  const onnx::NodeProto &n;
  int64_t version;
};

/// The ONNX shape `layout` puts in IR order: IR dim i = shape[layout[i]].
llvm::SmallVector<int64_t> toIrShape(llvm::ArrayRef<int64_t> onnxShape,
                                     llvm::ArrayRef<int64_t> layout);

} // namespace quantc::onnx_import

#endif // QUANTC_LIB_IMPORT_IMPORTER_H
