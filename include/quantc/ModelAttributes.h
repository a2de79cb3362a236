//===- ModelAttributes.h - What a model function says about itself -*- C++ -*-//
//
// Function attributes that describe a model's interface. The ONNX importer
// writes them; the header, the metadata, the tools' data matching and the
// Python package read them. They are attributes, not locations, so that
// they survive printing without debug info.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_MODELATTRIBUTES_H
#define QUANTC_MODELATTRIBUTES_H

#include "llvm/ADT/StringRef.h"

namespace quantc {

/// Arrays of strings, one per argument / result, naming the layout of each
/// tensor of the interface, e.g. "NCHW".
inline constexpr llvm::StringLiteral kInputLayoutsAttr = "quantc.input_layouts";
inline constexpr llvm::StringLiteral kOutputLayoutsAttr =
    "quantc.output_layouts";
/// Arrays of strings, one per argument / result: the model's input and
/// output names (the ONNX graph's). An input without this attribute is
/// named by its argument's NameLoc, if any.
inline constexpr llvm::StringLiteral kInputNamesAttr = "quantc.input_names";
inline constexpr llvm::StringLiteral kOutputNamesAttr = "quantc.output_names";
/// Array of strings, one per result: the NumPy dtype of each output
/// ("float32", "int64", "int32", "int16", "int8", "uint8", "uint16",
/// "uint32", "uint64", "bool"), written by the ONNX importer when an output
/// is not float32 (ArgMax indices, a Cast to an integer type). The result's
/// element type has the dtype's width (bool: i8); signedness, which the
/// signless IR type does not hold, comes from here. Without the attribute,
/// f32 results are float32 and iN results intN.
inline constexpr llvm::StringLiteral kOutputDtypesAttr = "quantc.output_dtypes";
/// Unit attribute: the model was quantized dynamically (ONNX Runtime's
/// DynamicQuantizeLinear + ConvInteger / MatMulInteger) and imported as the
/// float model its weights dequantize to; quant-compile quantizes it only
/// with calibration data.
inline constexpr llvm::StringLiteral kDynamicQuantizationAttr =
    "quantc.dynamic_quantization";
/// i64: the function computes one image of a batch of this many, which the
/// interface (arguments and results) holds along its first dimension
/// (quantc-batch-as-images); the AOT entry point calls it once per image.
inline constexpr llvm::StringLiteral kImagesAttr = "quantc.images";

} // namespace quantc

#endif // QUANTC_MODELATTRIBUTES_H
