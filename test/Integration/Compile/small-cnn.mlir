// Ahead-of-time compilation of the bundled example, quantized: the object
// file linked with a plain C driver (libc + libm) computes outputs
// bit-identical to the int8 reference (quant-run --reference).
//
// REQUIRES: avx2
// RUN: rm -rf %t && mkdir -p %t
// RUN: quant-opt %quantc_src_root/examples/small-cnn/model.mlir --qnt-fuse --qnt-insert-observers -o %t/observed.mlir
// RUN: quant-calibrate %t/observed.mlir --max-samples 64 --data %quantc_src_root/examples/small-cnn/calibration.npy --quiet -o %t/calibrated.mlir
// RUN: quant-opt %t/calibrated.mlir --qnt-fold-observers --qnt-quantize -o %t/int8.mlir
// RUN: quant-compile %t/int8.mlir -o %t/model.o -v 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/model.h
// RUN: quant-compile %t/int8.mlir --remarks --emit=llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: int8 kernel: avx2
// RUN: cc -I%t -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN %quantc_src_root/examples/common/run_model.c %t/model.o -lm -o %t/run
// RUN: %t/run %quantc_src_root/examples/small-cnn/calibration.npy %t/compiled.npy
// RUN: quant-run %t/int8.mlir --reference --input %quantc_src_root/examples/small-cnn/calibration.npy -o %t/reference.npy
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/compiled.npy | FileCheck %s
//
// Reentrant and leak-free: concurrent calls agree, memory stays flat.
// RUN: cc -I%t -DMODEL=small_cnn %S/Inputs/threads.c %t/model.o -lm -lpthread -o %t/threads
// RUN: %t/threads | FileCheck %s --check-prefix=THREADS
// THREADS: mismatches: 0
// THREADS: RSS STABLE
//
// Only the entry point is exported; weights are read-only data; nothing
// but libc is needed. The one writable word is the cached CPU check (4
// bytes of .bss).
// RUN: llvm-nm -g %t/model.o | FileCheck %s --check-prefix=SYMBOLS
// RUN: llvm-readelf -S %t/model.o | FileCheck %s --check-prefix=SECTIONS
//
// TARGET: quant-compile: target x86_64-{{.*}}-linux-gnu, int8 kernels amx-int8 (cpu x86-64-v4 +avx512vnni,+amx-tile,+amx-int8), avx512-vnni (cpu x86-64-v4 +avx512vnni), avx-vnni (cpu x86-64-v3 +avxvnni), avx2 (cpu x86-64-v3) chosen at run time
//
// CHECK: exact samples: 256/256, exact values: 2560/2560
// CHECK: BIT-IDENTICAL
//
// HEADER: Model: function @small_cnn of int8.mlir
// HEADER: Target: x86_64-{{.*}}-linux-gnu
// HEADER-NEXT: Variants for 4 instruction sets
// HEADER: input0{{.*}}: float32[1, 28, 28, 1], NHWC, 784 floats
// HEADER-NEXT: quantized inside to u8, scale {{[0-9.e-]+}}, zero point {{[0-9]+}}
// HEADER: output0: float32[1, 1, 10], row-major, 10 floats
// HEADER-NEXT: dequantized from u8, scale {{[0-9.e-]+}}, zero point {{[0-9]+}}
// HEADER: #ifndef SMALL_CNN_H
// HEADER: #define SMALL_CNN_INPUT0_RANK 4
// HEADER: #define SMALL_CNN_INPUT0_SHAPE {1, 28, 28, 1}
// HEADER: #define SMALL_CNN_OUTPUT0_SHAPE {1, 1, 10}
// HEADER: #define SMALL_CNN_INPUT_SIZES {784}
// HEADER-NEXT: #define SMALL_CNN_INPUT_RANKS {4}
// HEADER-NEXT: #define SMALL_CNN_INPUT_SHAPES {1, 28, 28, 1}
// HEADER-NEXT: #define SMALL_CNN_OUTPUT_SIZES {10}
// HEADER-NEXT: #define SMALL_CNN_OUTPUT_RANKS {3}
// HEADER-NEXT: #define SMALL_CNN_OUTPUT_SHAPES {1, 1, 10}
// HEADER: small_cnn_input0_size = 784,
// HEADER: small_cnn_output0_size = 10,
// HEADER: int small_cnn_run(const float *input0, float *output0);
// HEADER-NEXT: int small_cnn_runv(const float *const inputs[], float *const outputs[]);
// HEADER-NEXT: const char *small_cnn_int8_isa(void);
//
// SYMBOLS-NOT: small_cnn_model
// SYMBOLS: U free
// SYMBOLS: U malloc
// SYMBOLS: T small_cnn_int8_isa
// SYMBOLS: T small_cnn_run
// SYMBOLS: T small_cnn_runv
// SYMBOLS-NOT: memrefCopy
//
// SECTIONS-NOT: .data
// SECTIONS: .bss NOBITS {{[0-9a-f]+}} {{[0-9a-f]+}} 000004
// SECTIONS-NOT: .data
