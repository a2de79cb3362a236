//===- FlattenConstantGlobals.cpp - Constant globals as flat arrays -------===//
//
// quantc-flatten-constant-globals: every constant llvm.mlir.global with a
// dense initializer becomes one flat array (of bytes where the byte order
// allows), so that LLVM sees one constant per global instead of one per
// innermost row (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "quantc/Transforms/ConstantGlobals.h"
#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/Support/SwapByteOrder.h"

namespace quantc {
#define GEN_PASS_DEF_FLATTENCONSTANTGLOBALS
#include "quantc/Transforms/Passes.h.inc"
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

struct FlattenConstantGlobals
    : quantc::impl::FlattenConstantGlobalsBase<FlattenConstantGlobals> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool asBytes = hostByteOrder(module);
    Builder b(&getContext());
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      DenseElementsAttr dense = quantc::denseConstantData(global);
      if (!dense)
        continue;
      Type element = dense.getElementType();
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
        int64_t count = dense.getNumElements();
        flatType = LLVM::LLVMArrayType::get(element, count);
        flat = dense.reshape(RankedTensorType::get({count}, element));
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

DenseElementsAttr quantc::denseConstantData(LLVM::GlobalOp global) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(global.getValueOrNull());
  if (!global.getConstant() || !dense || !global.getInitializerRegion().empty())
    return {};
  Type element = dense.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return {};
  Type type = global.getGlobalType();
  int64_t count = 1;
  while (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
    count *= array.getNumElements();
    type = array.getElementType();
  }
  if (type != element || count != dense.getNumElements())
    return {};
  return dense;
}
