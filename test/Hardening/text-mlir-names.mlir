// An MLIR model states more of its interface as text than an ONNX model:
// the function's name, the layouts (quantc.input_layouts /
// output_layouts), the tensors' names (quantc.input_names / output_names,
// or the arguments' locations). All of it reaches the header only as
// quantc::cComment text, the metadata as JSON, and the object's symbols
// never: the model function and what is derived from it are named after
// the C identifier (here from the output's file name).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: quant-compile %s -o %t/net.o
// RUN: FileCheck %s --input-file %t/net.h
// CHECK: * Model: function @f\x2A/ extern int puts(const char \x2A); __attribute__((constructor)) static void evil(void) { puts("INJ" "ECTED"); } /\x2A\x0A\x1B[2J of text-mlir-names.mlir
// CHECK: *   input0 ("x\x5C\x0A\x2A/ int evil_line; /\x2A"): float32[1, 4], \x2A/ int evil_layout; /\x2A, 4 floats
// CHECK-NEXT: *     quantized inside to u8, scale 0.02, zero point 128
// CHECK-NEXT: *   output0 ("y\xFF\x00z"): float32[1, 4], ?\x3F/\x0A\x2A/ int evil_out; /\x2A \x1B]0;t\x07, 4 floats
// CHECK-NEXT: *     dequantized from u8, scale 0.02, zero point 128
// CHECK-NEXT: */
// CHECK: int net_run(const float *input0, float *output0);
// RUN: cc -fsyntax-only -std=c99 -Wall -Wextra -Werror -x c %t/net.h
// RUN: c++ -fsyntax-only -Wall -Werror -x c++ %t/net.h
// RUN: cc -Wall -Werror -include %t/net.h -DMODEL=net %S/Inputs/text_driver.c %t/net.o -lm -o %t/net-run
// RUN: %t/net-run | FileCheck %s --check-prefix=RAN --implicit-check-not=INJECTED
// RAN: rc 0: -1 2 -2.56 2.54
// RAN-NEXT: metadata {"function":"f*/ extern int puts(const char *); __attribute__((constructor)) static void evil(void) { puts(\"INJ\" \"ECTED\"); } /*\n\u001b[2J",
// RAN-SAME: "layout":"*/ int evil_layout; /*","name":"x\\\n*/ int evil_line; /*"
// RAN-SAME: "name":"net"
// RUN: llvm-nm %t/net.o | %python %S/Inputs/check_symbols.py net | FileCheck %s --check-prefix=SYMBOLS
// SYMBOLS: SYMBOLS OK
//
// A prefix C reserves once upper-cased is refused: its header guard could
// be a system header's (_STDINT_H).
// RUN: not quant-compile %s --name=_stdint -o %t/r.o 2>&1 | FileCheck %s --check-prefix=RESERVED
// RESERVED: quant-compile: error: '_stdint' starts like a name C reserves ('__' or '_' and a letter, as its header's macros are upper case); choose a symbol prefix with --name
// RUN: not ls %t/r.o %t/r.h
//
// The same in LLVM IR and assembly: no name but those of <name>.
// RUN: quant-compile %s --emit=asm -o %t/net.s
// RUN: quant-compile %s --emit=llvm -o %t/net.ll
// The metadata's string is the only text that mentions the function.
// RUN: sed -n '/evil/{/\.asci/!p}' %t/net.s | count 0
// RUN: sed -n '/evil/{/ c"/!p}' %t/net.ll | count 0

!in = !quant.uniform<u8:f32, 0.02:128>
func.func @"f*/ extern int puts(const char *); __attribute__((constructor)) static void evil(void) { puts(\"INJ\" \"ECTED\"); } /*\0A\1B[2J"(%x: tensor<1x4xf32> loc("x\\\0A*/ int evil_line; /*")) -> tensor<1x4xf32> attributes {quantc.input_layouts = ["*/ int evil_layout; /*"], quantc.output_layouts = ["??/\0A*/ int evil_out; /* \1B]0;t\07"], quantc.output_names = ["y\FF\00z"]} {
  %q = quant.qcast %x : tensor<1x4xf32> to tensor<1x4x!in>
  %y = quant.dcast %q : tensor<1x4x!in> to tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}
