//===- Patterns.h - Pattern sets of the quantized-op lowering ---*- C++ -*-===//
//
// Internal to lib/Conversion/LowerQuantized: one populate function per file,
// gathered by populateQuantizedOpLoweringPatterns (LowerQuantized.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_LIB_CONVERSION_LOWERQUANTIZED_PATTERNS_H
#define QUANTC_LIB_CONVERSION_LOWERQUANTIZED_PATTERNS_H

#include "quantc/Isa/Int8Isa.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;
} // namespace mlir

namespace quantc::lowering {

/// qnt.add, qnt.sub, qnt.mul, qnt.lookup, qnt.channel_affine,
/// qnt.requantize, quant.qcast, quant.dcast (Elementwise.cpp); `isa`'s
/// kernel family picks qnt.lookup's byte shuffles.
void populateElementwisePatterns(mlir::TypeConverter &typeConverter,
                                 mlir::RewritePatternSet &patterns,
                                 Int8Isa isa);
/// qnt.max_pool2d, qnt.avg_pool2d (Pool.cpp).
void populatePoolPatterns(mlir::TypeConverter &typeConverter,
                          mlir::RewritePatternSet &patterns);
/// qnt.resize_bilinear (Resize.cpp).
void populateResizePatterns(mlir::TypeConverter &typeConverter,
                            mlir::RewritePatternSet &patterns);
/// qnt.concat (Concat.cpp).
void populateConcatPatterns(mlir::TypeConverter &typeConverter,
                            mlir::RewritePatternSet &patterns);
/// quant.scast, tosa.reshape and data movement on quantized tensors
/// (Casts.cpp).
void populateCastPatterns(mlir::TypeConverter &typeConverter,
                          mlir::RewritePatternSet &patterns);

} // namespace quantc::lowering

#endif // QUANTC_LIB_CONVERSION_LOWERQUANTIZED_PATTERNS_H
