//===- QLinear.h - Nodes imported as the ops they stand for -----*- C++ -*-===//
//
// Private to lib/Import/Ops (QLinear.cpp, IntegerOps.cpp): ONNX Runtime's
// operator-format and integer ops import as the ops they stand for
// (DequantizeLinear, Conv, QuantizeLinear, ...), built as ONNX nodes here
// and imported by those ops' own handlers.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_LIB_IMPORT_OPS_QLINEAR_H
#define QUANTC_LIB_IMPORT_OPS_QLINEAR_H

#include "../OpRegistry.h"

namespace quantc::onnx_import {

/// A node built for the handler of another op, named as the node being
/// imported (its diagnostics name that node).
struct SubNode {
  SubNode(NodeImporter &n, llvm::StringRef opType) {
    proto.set_op_type(opType.str());
    proto.set_name(n.node().name().empty() ? n.node().output(0)
                                           : n.node().name());
  }
  SubNode &in(llvm::StringRef name) {
    proto.add_input(name.str());
    return *this;
  }
  SubNode &out(llvm::StringRef name) {
    proto.add_output(name.str());
    return *this;
  }
  SubNode &attr(llvm::StringRef name, int64_t v) {
    onnx::AttributeProto *a = proto.add_attribute();
    a->set_name(name.str());
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
    return *this;
  }
  SubNode &attr(llvm::StringRef name, float v) {
    onnx::AttributeProto *a = proto.add_attribute();
    a->set_name(name.str());
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
    return *this;
  }
  SubNode &attr(llvm::StringRef name, llvm::ArrayRef<int64_t> v) {
    onnx::AttributeProto *a = proto.add_attribute();
    a->set_name(name.str());
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v)
      a->add_ints(x);
    return *this;
  }
  /// The attributes of `node` but those named in `except`.
  SubNode &attrsOf(const onnx::NodeProto &node,
                   llvm::ArrayRef<llvm::StringRef> except = {}) {
    for (const onnx::AttributeProto &a : node.attribute())
      if (!llvm::is_contained(except, a.name()))
        *proto.add_attribute() = a;
    return *this;
  }

  onnx::NodeProto proto;
};

/// Imports `node` with the handler its op type has at `opset` (0: `n`'s).
mlir::LogicalResult runNode(NodeImporter &n, const onnx::NodeProto &node,
                            int64_t opset = 0);
inline mlir::LogicalResult runNode(NodeImporter &n, const SubNode &node,
                                   int64_t opset = 0) {
  return runNode(n, node.proto, opset);
}

/// A name for an internal value of the node being imported.
std::string internalName(NodeImporter &n, llvm::StringRef what);

/// Defines the constant `t` under an internal name and returns the name.
std::string defineConstant(NodeImporter &n, llvm::StringRef what,
                           ConstTensor t);

/// "int8", "uint8", "int32", ... for messages.
const char *typeName(int32_t dtype);

/// The error for input `i`, which holds the integer value `v` that only the
/// integer ops (and the Cast and Mul after them) read.
mlir::InFlightDiagnostic integerMisuse(NodeImporter &n, int i,
                                       const IntegerValue &v);

/// Cast and Mul of integer values (IntegerOps.cpp): the int32 result of
/// ConvInteger / MatMulInteger cast to float, and multiplied by its scales.
mlir::LogicalResult castInteger(NodeImporter &n);
mlir::LogicalResult mulInteger(NodeImporter &n);

/// An op that moves values (Transpose, Reshape, ...) on a dynamically
/// quantized value (IntegerOps.cpp): a dynamically quantized value again.
mlir::LogicalResult moveInteger(NodeImporter &n, OpHandler handler);

/// ConvInteger, MatMulInteger and DynamicQuantizeLinear (IntegerOps.cpp).
void registerIntegerOps(OpRegistry &registry);

} // namespace quantc::onnx_import

#endif // QUANTC_LIB_IMPORT_OPS_QLINEAR_H
