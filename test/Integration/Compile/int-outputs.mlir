// A segmentation-like model whose outputs are integer tensors
// (scripts/gen_int_output_models.py: conv layers, bilinear Resize, ArgMax
// over the classes as int64, its Casts to INT32 and UINT8) compiled to
// objects, float and int8, and run by examples/common/run_model.c: the
// header declares int64_t / int32_t / uint8_t output buffers, the driver
// writes .npy files of those dtypes.
//
// RUN: rm -rf %t && mkdir -p %t/f %t/q
// RUN: quant-compile %S/Inputs/intout/seg.onnx -o %t/f/model.o
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/f/model.h
// HEADER: output0 ("classes"): int64[1, 16, 16], row-major, 256 values (int64_t)
// HEADER-NEXT: output1 ("classes_i32"): int32[1, 16, 16], row-major, 256 values (int32_t)
// HEADER-NEXT: output2 ("classes_u8"): uint8[1, 16, 16], row-major, 256 values (uint8_t)
// HEADER: #include <stdint.h>
// HEADER: #define TORCH_JIT_OUTPUT_SHAPES {1, 16, 16, 1, 16, 16, 1, 16, 16}
// HEADER-NEXT: #define TORCH_JIT_OUTPUT_DTYPES {"int64", "int32", "uint8"}
// HEADER-NEXT: #define TORCH_JIT_OUTPUT_ELEMENT_BYTES {8, 4, 1}
// HEADER: int torch_jit_run(const float *input0, int64_t *output0, int32_t *output1, uint8_t *output2);
// HEADER-NEXT: int torch_jit_runv(const float *const inputs[], void *const outputs[]);
//
// The metadata says the same (quantc.load reads it).
// RUN: printf '#include "model.h"\n#include <stdio.h>\nint main(void) { puts(torch_jit_metadata()); return 0; }\n' > %t/f/meta.c
// RUN: cc -I%t/f %t/f/meta.c %t/f/model.o -lm -o %t/f/meta && %t/f/meta | %python -c "import json, sys; print('DTYPES', [o['dtype'] for o in json.load(sys.stdin)['outputs']])" | FileCheck %s --check-prefix=META
// META: DTYPES ['int64', 'int32', 'uint8']
//
// Float: the indices equal PyTorch's.
// RUN: cc -Wall -Werror -I%t/f -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/f/model.o -lm -o %t/f/run
// RUN: %t/f/run %S/Inputs/intout/seg.input.npy %t/f/c64.npy %t/f/c32.npy %t/f/c8.npy | FileCheck %s --check-prefix=RAN
// RAN: ran 4 samples
// RUN: %python %S/Inputs/intout/check.py %t/f/c64.npy %S/Inputs/intout/seg.classes.npy int64 %t/f/c32.npy %S/Inputs/intout/seg.classes.npy int32 %t/f/c8.npy %S/Inputs/intout/seg.classes.npy uint8 | FileCheck %s --check-prefix=FLOAT
// FLOAT: int64 (4, 16, 16): 1024 of 1024 equal
// FLOAT: EXACT
//
// int8 (calibrated on 8 other images): the convolutions are int8, ArgMax
// reads the last one's dequantized output and the indices stay integers
// (no quantization after it). Near-ties between class scores flip under
// int8 rounding: at least 95% of the pixels keep PyTorch's class (measured:
// 1012 of 1024).
// RUN: quant-compile %S/Inputs/intout/seg.onnx --calibration-data %S/Inputs/intout/seg.calib.npy -v -o %t/q/model.o 2>&1 | FileCheck %s --check-prefix=INT8
// INT8: op(s) computed in float: tosa.argmax (/ArgMax), tosa.cast (/ArgMax), tosa.cast (/Cast_1), tosa.bitwise_and (/Cast_1), tosa.cast (/Cast_1), tosa.cast (classes), tosa.cast (classes_i32), tosa.cast (classes_u8), tosa.cast (classes_u8)
// RUN: cc -I%t/q -DMODEL=torch_jit -DMODEL_UPPER=TORCH_JIT %quantc_src_root/examples/common/run_model.c %t/q/model.o -lm -o %t/q/run
// RUN: %t/q/run %S/Inputs/intout/seg.input.npy %t/q/c64.npy %t/q/c32.npy %t/q/c8.npy
// RUN: %python %S/Inputs/intout/check.py --agree 0.95 %t/q/c64.npy %S/Inputs/intout/seg.classes.npy int64 %t/q/c32.npy %S/Inputs/intout/seg.classes.npy int32 %t/q/c8.npy %S/Inputs/intout/seg.classes.npy uint8 | FileCheck %s --check-prefix=Q
// Q: int64 (4, 16, 16): {{[0-9]+}} of 1024 equal
// Q: AGREE
// The three outputs are the same indices.
// RUN: %python %S/Inputs/intout/check.py %t/q/c32.npy %t/q/c64.npy int32 %t/q/c8.npy %t/q/c64.npy uint8
//
// The calibration report: an integer first output has no SQNR (null) but
// the fraction of its elements equal in float and int8.
// RUN: quant-calibrate %S/Inputs/intout/seg.onnx --data %S/Inputs/intout/seg.calib.npy --report %t/report --quiet -o %t/calibrated.mlir
// RUN: %python -c "import json; s = json.load(open('%t/report/report.json'))['summary']; print('REPORT', s['output_dtype'], s['output_sqnr_db'], s['output_agreement'] >= 0.95)" | FileCheck %s --check-prefix=REPORT
// REPORT: REPORT int64 None True
// RUN: %python %quantc_src_root/scripts/show_report.py %t/report/report.json | FileCheck %s --check-prefix=SHOW
// SHOW: model output classes (1, 16, 16): int64, equal to float on {{[0-9.]+}} % of the elements
