//===- QuantizableTosaOps.h - Quantization roles of TOSA ops ----*- C++ -*-===//

#ifndef QNT_IR_QUANTIZABLETOSAOPS_H
#define QNT_IR_QUANTIZABLETOSAOPS_H

namespace mlir {
class MLIRContext;
namespace qnt {
/// Attaches QuantizableOpInterface to the TOSA ops of the float graph (the
/// qnt dialect does this when it loads; TOSA is one of its dependencies).
void attachQuantizableTosaModels(MLIRContext &ctx);
} // namespace qnt
} // namespace mlir

#endif // QNT_IR_QUANTIZABLETOSAOPS_H
