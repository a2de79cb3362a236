//===- OnnxMutator.h - Structure-level mutations of ONNX models -*- C++ -*-===//
//
// Mutates a parsed onnx::ModelProto the way a hostile or broken exporter
// would write one, below the level of valid models but above byte flips
// (which rarely get past protobuf's parser): node op types, input and
// output lists and order, attributes (values at and beyond their ranges,
// wrong types, missing or extra), tensors (dims, data types, truncated or
// special-valued data, QDQ scales and zero points), graph inputs and
// outputs (shapes, types, duplicates, none) and the opset.
//
// Shared by the libFuzzer target fuzz/onnx-import-fuzzer (its custom
// mutator) and the onnx-mutate tool that scripts/onnx-mutants.sh uses to run
// a mutation campaign through quant-translate and quant-compile.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_FUZZ_ONNXMUTATOR_H
#define QUANTC_FUZZ_ONNXMUTATOR_H

#include <onnx/onnx_pb.h>

#include <random>

namespace quantc::fuzz {

/// Applies one to `maxMutations` random mutations to `model`.
void mutateOnnxModel(onnx::ModelProto &model, std::mt19937_64 &rng,
                     int maxMutations = 3);

} // namespace quantc::fuzz

#endif // QUANTC_FUZZ_ONNXMUTATOR_H
