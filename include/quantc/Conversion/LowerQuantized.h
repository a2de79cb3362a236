//===- LowerQuantized.h - Quantized qnt ops to vector loops --- -*- C++ -*-===//
//
// Lowering of the quantized qnt ops (and quant.qcast / dcast / scast) to
// loops over memrefs of storage integer types with vector code, ready for
// the standard LLVM lowering. Each op pattern works on tensors: it reads its
// operands through `bufferization.to_buffer`, allocates and fills its result
// buffer with loops, and returns it through `bufferization.to_tensor
// restrict`; one-shot bufferization then handles the rest of the function.
// Quantized element types become their storage types (i8 for u8 and i8
// storage, i32 for biases); quantization parameters become constants.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CONVERSION_LOWERQUANTIZED_H
#define QUANTC_CONVERSION_LOWERQUANTIZED_H

#include "quantc/Isa/Int8Isa.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;
} // namespace mlir

namespace quantc {

/// Patterns lowering quantized `qnt.conv2d`, `qnt.linear` and `qnt.matmul`
/// to packed-weight vector kernels for `isa` (lib/Conversion/LowerQuantized/
/// Conv.cpp, Matmul.cpp; the instruction sets are include/quantc/Isa/
/// Int8Isa.h's table, their kernel families lib/Conversion/LowerQuantized/
/// Isa/). Each pattern emits a remark naming the kernel it chose (e.g.
/// "int8 kernel: avx2: vpmaddubsw + vpmaddwd (every 16-bit pair sum is
/// provably within int16)" or "int8 kernel: generic: exact 32-bit vector
/// path").
void populateConvLoweringPatterns(mlir::TypeConverter &typeConverter,
                                  mlir::RewritePatternSet &patterns,
                                  Int8Isa isa);

/// Patterns lowering the other quantized ops: qnt.add, qnt.max_pool2d,
/// qnt.avg_pool2d, qnt.concat, qnt.requantize, qnt.lookup, tosa.reshape on
/// quantized tensors, quant.qcast / dcast / scast. `isa`'s kernel family
/// picks qnt.lookup's byte-shuffle instructions (vpshufb, tbl4).
void populateQuantizedOpLoweringPatterns(mlir::TypeConverter &typeConverter,
                                         mlir::RewritePatternSet &patterns,
                                         Int8Isa isa);

/// Quantized tensor types -> tensors of their storage type; everything else
/// unchanged.
void populateQuantTypeConversion(mlir::TypeConverter &typeConverter);

} // namespace quantc

#endif // QUANTC_CONVERSION_LOWERQUANTIZED_H
