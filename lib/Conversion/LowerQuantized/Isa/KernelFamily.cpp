//===- KernelFamily.cpp - The kernel families and their defaults ----------===//
//
// KernelFamily::of, the one place that maps a row's Int8Kernel to its
// family's object, and the defaults: the 8-lane kernels of ConvVector8.cpp,
// no single-instruction rounding, no byte-shuffle lookup.
//
//===----------------------------------------------------------------------===//

#include "KernelFamily.h"

#include "../ConvEmitter.h"

using namespace mlir;
using namespace mlir::qnt::conv;
using quantc::Int8Kernel;

const KernelFamily &KernelFamily::of(const quantc::Int8IsaInfo &info) {
  switch (info.kernel) {
  case Int8Kernel::ZmmDot:
    return zmmDotFamily();
  case Int8Kernel::Dot8:
    return dot8Family(info.dot);
  case Int8Kernel::Widening16:
    return widening16Family();
  case Int8Kernel::Matrix:
    return matrixFamily();
  case Int8Kernel::Exact:
    return exactFamily();
  case Int8Kernel::Tile:
    return tileFamily();
  }
  llvm_unreachable("Int8Kernel without a family");
}

Value mlir::qnt::conv::intrinsic(OpBuilder &b, Location loc, Type result,
                                 StringRef name, ValueRange args) {
  return PureIntrinsicOp::create(b, loc, result,
                                 StringAttr::get(b.getContext(), name), args)
      .getResult();
}

Value KernelFamily::emitConv(ConvEmitter &e, Value input,
                             Value residual) const {
  return e.isDepthwise() ? e.emitDepthwise(input, residual)
                         : e.emitVector8(input, residual);
}

std::string KernelFamily::convPath(const ConvEmitter &e) const {
  if (e.isDepthwise())
    return "depthwise: 8 channels per vector, int32 multiply-add";
  return e.p.info().name.str() + ": " + densePath(e.p);
}

Value KernelFamily::dot4(ConvEmitter &, Value, Value, Value) const {
  llvm_unreachable("dot4 on a family without the DotQuads layout");
}

Value KernelFamily::dotPair(ConvEmitter &, Value, Value, Value) const {
  llvm_unreachable("dotPair on a family without the Pairs16 layout");
}

Value KernelFamily::madd16(ConvEmitter &, Value, Value) const {
  llvm_unreachable("madd16 on a family without 16-bit pairs");
}

void KernelFamily::emitPixelBlock(ConvEmitter &e, Value xp, Value packed,
                                  Value comp, Value mult, Value out,
                                  Value residual, Value n, Value oy, Value ox0,
                                  int64_t pixels, Value g, Value block,
                                  int64_t valid, int64_t nb) const {
  e.emitPixels(xp, packed, comp, mult, out, residual, n, oy, ox0, pixels, g,
               block, valid, nb);
}

Value KernelFamily::lookup(OpBuilder &, Location, Value, bool,
                           ArrayRef<int8_t>) const {
  llvm_unreachable("lookup on a family without byte shuffles");
}
