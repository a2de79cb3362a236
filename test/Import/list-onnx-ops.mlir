// quant-translate --list-onnx-ops prints the importer's registry: every op
// type with the opsets of the default domain its handlers cover.
// RUN: quant-translate --list-onnx-ops | FileCheck %s
// RUN: not quant-translate --import-onnx 2>&1 | FileCheck %s --check-prefix=NOINPUT

// CHECK: # ONNX op types the importer handles ({{[0-9]+}}), and the opsets 7-21 of the default domain
// CHECK: {{^}}BatchNormalization  {{ *}}7-21{{$}}
// CHECK: {{^}}Einsum  {{ *}}12-21{{$}}
// CHECK: {{^}}Gemm  {{ *}}7-21{{$}}
// CHECK: {{^}}Softmax  {{ *}}7-12, 13-21{{$}}
// CHECK: {{^}}com.microsoft.QLinearAdd  {{ *}}7-21{{$}}

// NOINPUT: quant-translate: error: no input file
