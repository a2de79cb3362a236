//===- ConstantGlobals.h - Dense data of LLVM constant globals --*- C++ -*-===//
//
// Which constant llvm.mlir.global holds its data as plain bytes: shared by
// quantc-flatten-constant-globals (objects) and the calibration JIT, which
// hands such data to the compiled code in place.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_TRANSFORMS_CONSTANTGLOBALS_H
#define QUANTC_TRANSFORMS_CONSTANTGLOBALS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace quantc {

/// The initializer of the constant `global` when it is dense integer or
/// float data of whole bytes laid out as LLVM lays out the global: arrays of
/// arrays ... of the element, row-major as the attribute's storage (a splat
/// included); null otherwise (a mutable global, an initializer region, i1,
/// another element type).
mlir::DenseElementsAttr denseConstantData(mlir::LLVM::GlobalOp global);

} // namespace quantc

#endif // QUANTC_TRANSFORMS_CONSTANTGLOBALS_H
