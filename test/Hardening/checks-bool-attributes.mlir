// A 0 / 1 attribute (keepdims, select_last_index, transA / transB,
// ceil_mode, count_include_pad, noop_with_empty_axes, allowzero,
// training_mode, antialias, exclude_outside, fmod, spatial, channels_last)
// holding another value is refused, naming the node, the attribute and the
// value (NodeImporter::boolAttr, used for every such attribute), where it
// was once read as "not 0".
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/numerics_checks.py %t
// RUN: not quant-translate --import-onnx %t/attr_argmax_select_last.onnx -o %t/argmax_select_last.mlir 2>&1 | FileCheck %s --check-prefix=ARGMAX_SELECT_LAST
// RUN: not test -e %t/argmax_select_last.mlir
// ARGMAX_SELECT_LAST: error: '{{.*}}attr_argmax_select_last.onnx': node 'n' (ArgMax): attribute 'select_last_index' is 5; it must be 0 or 1
// RUN: not quant-translate --import-onnx %t/attr_argmax_keepdims.onnx -o %t/argmax_keepdims.mlir 2>&1 | FileCheck %s --check-prefix=ARGMAX_KEEPDIMS
// RUN: not test -e %t/argmax_keepdims.mlir
// ARGMAX_KEEPDIMS: error: '{{.*}}attr_argmax_keepdims.onnx': node 'n' (ArgMax): attribute 'keepdims' is 2; it must be 0 or 1
// RUN: not quant-translate --import-onnx %t/attr_argmin_keepdims.onnx -o %t/argmin_keepdims.mlir 2>&1 | FileCheck %s --check-prefix=ARGMIN_KEEPDIMS
// RUN: not test -e %t/argmin_keepdims.mlir
// ARGMIN_KEEPDIMS: error: '{{.*}}attr_argmin_keepdims.onnx': node 'n' (ArgMin): attribute 'keepdims' is -1; it must be 0 or 1
// RUN: not quant-translate --import-onnx %t/attr_reducemean_keepdims.onnx -o %t/reducemean_keepdims.mlir 2>&1 | FileCheck %s --check-prefix=REDUCEMEAN_KEEPDIMS
// RUN: not test -e %t/reducemean_keepdims.mlir
// REDUCEMEAN_KEEPDIMS: error: '{{.*}}attr_reducemean_keepdims.onnx': node 'n' (ReduceMean): attribute 'keepdims' is 3; it must be 0 or 1
// RUN: not quant-translate --import-onnx %t/attr_reducesum_noop.onnx -o %t/reducesum_noop.mlir 2>&1 | FileCheck %s --check-prefix=REDUCESUM_NOOP
// RUN: not test -e %t/reducesum_noop.mlir
// REDUCESUM_NOOP: error: '{{.*}}attr_reducesum_noop.onnx': node 'n' (ReduceSum): attribute 'noop_with_empty_axes' is 2; it must be 0 or 1
// RUN: not quant-translate --import-onnx %t/attr_gemm_transb.onnx -o %t/gemm_transb.mlir 2>&1 | FileCheck %s --check-prefix=GEMM_TRANSB
// RUN: not test -e %t/gemm_transb.mlir
// GEMM_TRANSB: error: '{{.*}}attr_gemm_transb.onnx': node 'n' (Gemm): attribute 'transB' is 2; it must be 0 or 1
// RUN: not quant-translate --import-onnx %t/attr_gemm_transa.onnx -o %t/gemm_transa.mlir 2>&1 | FileCheck %s --check-prefix=GEMM_TRANSA
// RUN: not test -e %t/gemm_transa.mlir
// GEMM_TRANSA: error: '{{.*}}attr_gemm_transa.onnx': node 'n' (Gemm): attribute 'transA' is -1; it must be 0 or 1
// RUN: not quant-translate --import-onnx %t/attr_maxpool_ceil.onnx -o %t/maxpool_ceil.mlir 2>&1 | FileCheck %s --check-prefix=MAXPOOL_CEIL
// RUN: not test -e %t/maxpool_ceil.mlir
// MAXPOOL_CEIL: error: '{{.*}}attr_maxpool_ceil.onnx': node 'n' (MaxPool): attribute 'ceil_mode' is 3; it must be 0 or 1
// RUN: not quant-translate --import-onnx %t/attr_avgpool_count_pad.onnx -o %t/avgpool_count_pad.mlir 2>&1 | FileCheck %s --check-prefix=AVGPOOL_COUNT_PAD
// RUN: not test -e %t/avgpool_count_pad.mlir
// AVGPOOL_COUNT_PAD: error: '{{.*}}attr_avgpool_count_pad.onnx': node 'n' (AveragePool): attribute 'count_include_pad' is 7; it must be 0 or 1
// RUN: not quant-translate --import-onnx %t/attr_reshape_allowzero.onnx -o %t/reshape_allowzero.mlir 2>&1 | FileCheck %s --check-prefix=RESHAPE_ALLOWZERO
// RUN: not test -e %t/reshape_allowzero.mlir
// RESHAPE_ALLOWZERO: error: '{{.*}}attr_reshape_allowzero.onnx': node 'n' (Reshape): attribute 'allowzero' is 2; it must be 0 or 1
// RUN: not quant-translate --import-onnx %t/attr_batchnorm_training.onnx -o %t/batchnorm_training.mlir 2>&1 | FileCheck %s --check-prefix=BATCHNORM_TRAINING
// RUN: not test -e %t/batchnorm_training.mlir
// BATCHNORM_TRAINING: error: '{{.*}}attr_batchnorm_training.onnx': node 'n' (BatchNormalization): attribute 'training_mode' is 2; it must be 0 or 1
