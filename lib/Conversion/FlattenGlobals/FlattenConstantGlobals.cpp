//===- FlattenConstantGlobals.cpp - Constant globals as flat arrays -------===//
//
// quantc-flatten-constant-globals: every constant llvm.mlir.global with a
// dense initializer becomes one flat array (of bytes where the byte order
// allows), so that LLVM sees one constant per global instead of one per
// innermost row (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "quantc/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/Support/SwapByteOrder.h"

namespace quantc {
#define GEN_PASS_DEF_FLATTENCONSTANTGLOBALS
#include "quantc/Conversion/Passes.h.inc"
} // namespace quantc

using namespace mlir;

namespace {

/// Whether the module's data layout stores values in the host's byte order.
bool hostByteOrder(ModuleOp module) {
  bool bigEndian = false;
  if (auto layout = module->getAttrOfType<StringAttr>(
          LLVM::LLVMDialect::getDataLayoutAttrName()))
    bigEndian = llvm::DataLayout(layout.getValue()).isBigEndian();
  return bigEndian == llvm::sys::IsBigEndianHost;
}

/// The number of `element`s in the nested arrays `type`, or 0 when `type`
/// is not arrays of `element`.
uint64_t elementCount(Type type, Type element) {
  uint64_t count = 1;
  while (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
    count *= array.getNumElements();
    type = array.getElementType();
  }
  return type == element ? count : 0;
}

struct FlattenConstantGlobals
    : quantc::impl::FlattenConstantGlobalsBase<FlattenConstantGlobals> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool asBytes = hostByteOrder(module);
    Builder b(&getContext());
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      auto dense = dyn_cast_or_null<DenseElementsAttr>(global.getValueOrNull());
      if (!global.getConstant() || !dense ||
          !global.getInitializerRegion().empty())
        continue;
      Type element = dense.getElementType();
      if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
        continue;
      uint64_t count = elementCount(global.getGlobalType(), element);
      if (count == 0 || static_cast<int64_t>(count) != dense.getNumElements())
        continue;
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      bool nested = array && isa<LLVM::LLVMArrayType>(array.getElementType());
      bool bytes =
          asBytes && !dense.isSplat() && (nested || !element.isInteger(8));
      Type flatType;
      DenseElementsAttr flat;
      if (bytes) {
        ArrayRef<char> raw = dense.getRawData();
        auto size = static_cast<int64_t>(raw.size());
        flatType = LLVM::LLVMArrayType::get(b.getI8Type(), size);
        flat = DenseElementsAttr::getFromRawBuffer(
            RankedTensorType::get({size}, b.getI8Type()), raw);
      } else if (nested) {
        // A splat, or bytes in the wrong order: one array of the element.
        flatType = LLVM::LLVMArrayType::get(element, count);
        flat = dense.reshape(
            RankedTensorType::get({static_cast<int64_t>(count)}, element));
      } else {
        continue;
      }
      global.setGlobalTypeAttr(TypeAttr::get(flatType));
      global.setValueAttr(flat);
      ++numFlattened;
    }
  }
};

} // namespace
