// --emit: the LLVM dialect module, optimized LLVM IR and assembly as text;
// --name chooses the symbol prefix; --header writes the header anywhere.
//
// RUN: quant-compile %S/Inputs/ops.mlir --emit=mlir | FileCheck %s --check-prefix=MLIR
// MLIR: llvm.func internal @ops_model(
// MLIR: llvm.func @ops_run(%[[IN:.*]]: !llvm.ptr, %[[OUT:.*]]: !llvm.ptr) -> i32 {
// MLIR: llvm.call @ops_model(%[[IN]], %[[IN]], %{{.*}}, %[[OUT]], %[[OUT]],
// MLIR: llvm.return %{{.*}} : i32
//
// RUN: quant-compile %S/Inputs/ops.mlir --emit=llvm -o - | FileCheck %s --check-prefix=LLVM
// LLVM: target triple = "x86_64-
// LLVM: define {{.*}}i32 @ops_run(ptr {{.*}}%0, ptr {{.*}}%1)
// LLVM: "target-cpu"="x86-64-v3"
//
// The layers' loop nests are functions of their own (quantc-outline-loop-
// nests), internal, before the entry point, named after <name>_model (never
// after the model's own function name, which may hold any byte).
// RUN: quant-compile %S/Inputs/ops.mlir --emit=asm -o - | FileCheck %s --check-prefix=ASM
// ASM: ops_model_loop0.{{[a-z0-9_]+}}:
// ASM: vroundps
// ASM: .globl ops_run
// ASM: ops_run:
//
// RUN: quant-compile %S/Inputs/ops.mlir --target aarch64-linux-gnu --emit=asm -o - | FileCheck %s --check-prefix=A64
// A64: frintn v{{[0-9]+}}.4s
// A64: ops_run:
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: quant-compile %S/Inputs/ops.mlir --name=pool_net -o %t/net.o --header=%t/include/net.h
// RUN: llvm-nm -g %t/net.o | FileCheck %s --check-prefix=NAME
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/include/net.h
// NAME: T pool_net_run
// HEADER: Model: function @ops of ops.mlir
// HEADER: input0 ("image"): float32[1, 7, 7, 20], NHWC, 980 floats
// HEADER: quantized inside to u8, scale 0.02, zero point 128
// HEADER: output0: float32[1, 16, 40], row-major, 640 floats
// HEADER: dequantized from i8, scale 0.04, zero point -10
// HEADER: #define POOL_NET_INPUT0_SHAPE {1, 7, 7, 20}
// HEADER: #define POOL_NET_INPUT0_SCALE 0.02f
// HEADER: #define POOL_NET_INPUT0_ZERO_POINT 128
// HEADER: pool_net_input0_size = 980,
// HEADER: pool_net_output0_size = 640,
// HEADER: int pool_net_run(const float *input0, float *output0);
//
// A float model compiles through the float pipeline.
// RUN: quant-compile %quantc_src_root/examples/small-cnn/model.mlir -o %t/float.o
// RUN: FileCheck %s --check-prefix=FLOAT --input-file %t/float.h
// FLOAT: The model is float32 throughout.
// FLOAT-NOT: quantized inside
// FLOAT: int small_cnn_run(const float *input0, float *output0);
