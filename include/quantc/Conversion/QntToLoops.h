//===- QntToLoops.h - Quantized qnt ops to vector loops ---------*- C++ -*-===//
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

#ifndef QUANTC_CONVERSION_QNTTOLOOPS_H
#define QUANTC_CONVERSION_QNTTOLOOPS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlir {
class RewritePatternSet;
class TypeConverter;
} // namespace mlir

namespace quantc {

/// The int8 dot-product instructions kernels are generated for.
enum class Int8Isa {
  /// Portable vector code (no target intrinsics).
  Generic,
  /// x86 AVX2: vpmaddubsw + vpmaddwd (when 16-bit pair sums provably cannot
  /// saturate), else an exact 16/32-bit path.
  AVX2,
  /// x86 AVX-512 VNNI (vpdpbusd).
  AVX512VNNI,
  /// AArch64 NEON with the dot-product extension (sdot).
  NeonDot,
  /// AArch64 NEON with the int8 matrix multiply extension (smmla / usdot).
  NeonI8MM,
};

/// Parses "generic", "avx2", "avx512-vnni", "neon-dot", "neon-i8mm".
bool parseInt8Isa(llvm::StringRef name, Int8Isa &isa);
/// The spelling parseInt8Isa accepts.
const char *toString(Int8Isa isa);

/// Patterns lowering quantized `qnt.conv2d` and `qnt.linear` to packed-weight
/// vector kernels for `isa` (lib/Conversion/QntToLoops/Conv.cpp). Each
/// pattern emits a remark naming the kernel it chose (e.g. "vpmaddubsw: 16-bit
/// pair sums cannot saturate" or "exact 16-bit path").
void populateConvLoweringPatterns(mlir::TypeConverter &typeConverter,
                                  mlir::RewritePatternSet &patterns,
                                  Int8Isa isa);

/// Patterns lowering the other quantized ops: qnt.add, qnt.max_pool2d,
/// qnt.avg_pool2d, qnt.concat, qnt.requantize, tosa.reshape on quantized
/// tensors, quant.qcast / dcast / scast.
void populateQuantizedOpLoweringPatterns(mlir::TypeConverter &typeConverter,
                                         mlir::RewritePatternSet &patterns);

/// Quantized tensor types -> tensors of their storage type; everything else
/// unchanged.
void populateQuantTypeConversion(mlir::TypeConverter &typeConverter);

} // namespace quantc

#endif // QUANTC_CONVERSION_QNTTOLOOPS_H
