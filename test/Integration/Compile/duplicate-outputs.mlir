// A model that returns one value more than once (an ONNX graph listing an
// output twice, and an Identity of it) compiles, and every output receives
// the value. This used to crash buffer-results-to-out-params.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: quant-compile %S/Inputs/duplicate_outputs.onnx -o %t/model.o
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/model.h
// HEADER: int g_run(const float *input0, float *output0, float *output1, float *output2);
// RUN: cc -I%t %S/Inputs/duplicate_outputs.c %t/model.o -lm -o %t/run
// RUN: %t/run | FileCheck %s
// CHECK: OK
