// Cross compilation for AArch64 (NEON dot product), linked with the cross
// gcc and run under qemu: outputs bit-identical to the x86 build and to the
// int8 reference, for the example CNN and for Inputs/ops.mlir.
//
// UNSUPPORTED: no-aarch64-cross
// RUN: rm -rf %t && mkdir -p %t/x86 %t/a64 %t/ops
// RUN: quant-opt %quantc_src_root/examples/small-cnn/model.mlir --qnt-fuse --qnt-insert-observers -o %t/observed.mlir
// RUN: quant-calibrate %t/observed.mlir --max-samples 64 --data %quantc_src_root/examples/small-cnn/calibration.npy --quiet -o %t/calibrated.mlir
// RUN: quant-opt %t/calibrated.mlir --qnt-fold-observers --qnt-float-outputs --qnt-quantize -o %t/int8.mlir
// RUN: quant-run %t/int8.mlir --reference --input %quantc_src_root/examples/small-cnn/calibration.npy -o %t/reference.npy
//
// RUN: quant-compile %t/int8.mlir --target aarch64-linux-gnu --mattr=+dotprod -o %t/a64/model.o -v 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: aarch64-linux-gnu-gcc -I%t/a64 -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN %quantc_src_root/examples/common/run_model.c %t/a64/model.o -lm -o %t/a64/run
// RUN: qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu %t/a64/run %quantc_src_root/examples/small-cnn/calibration.npy %t/a64/out.npy
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/a64/out.npy | FileCheck %s
//
// The int8 matrix multiply extension (smmla) gives the same bits.
// RUN: mkdir -p %t/i8mm
// RUN: quant-compile %t/int8.mlir --target aarch64-linux-gnu --mattr=+dotprod,+i8mm -o %t/i8mm/model.o -v 2>&1 | FileCheck %s --check-prefix=I8MM
// RUN: aarch64-linux-gnu-gcc -I%t/i8mm -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN %quantc_src_root/examples/common/run_model.c %t/i8mm/model.o -lm -o %t/i8mm/run
// RUN: qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu %t/i8mm/run %quantc_src_root/examples/small-cnn/calibration.npy %t/i8mm/out.npy
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/i8mm/out.npy | FileCheck %s
//
// The x86 build of the same model (portable code: runs on any x86-64).
// RUN: quant-compile %t/int8.mlir --target x86_64-linux-gnu --cpu x86-64 -o %t/x86/model.o
// RUN: cc -I%t/x86 -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN %quantc_src_root/examples/common/run_model.c %t/x86/model.o -lm -o %t/x86/run
// RUN: %t/x86/run %quantc_src_root/examples/small-cnn/calibration.npy %t/x86/out.npy
// RUN: %python %S/Inputs/compare.py %t/x86/out.npy %t/a64/out.npy | FileCheck %s
//
// Without --mattr the object carries neon-i8mm, neon-dot and generic NEON
// kernels and picks one at its first call: qemu's max CPU has i8mm,
// Neoverse N1 the dot product, Cortex-A53 neither; all compute the same bits.
// RUN: mkdir -p %t/dispatch
// RUN: quant-compile %t/int8.mlir --target aarch64-linux-gnu -v -o %t/dispatch/model.o 2>&1 | FileCheck %s --check-prefix=DISPATCH
// DISPATCH: int8 kernels neon-i8mm (cpu generic +dotprod,+i8mm), neon-dot (cpu generic +dotprod), generic (cpu generic) chosen at run time
// RUN: aarch64-linux-gnu-gcc -I%t/dispatch -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN %quantc_src_root/examples/common/run_model.c %t/dispatch/model.o -lm -o %t/dispatch/run
// RUN: qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu %t/dispatch/run %quantc_src_root/examples/small-cnn/calibration.npy %t/dispatch/max.npy | FileCheck %s --check-prefix=MAX
// MAX: int8 kernels: neon-i8mm
// RUN: qemu-aarch64 -cpu neoverse-n1 -L /usr/aarch64-linux-gnu %t/dispatch/run %quantc_src_root/examples/small-cnn/calibration.npy %t/dispatch/n1.npy | FileCheck %s --check-prefix=N1
// N1: int8 kernels: neon-dot
// RUN: qemu-aarch64 -cpu cortex-a53 -L /usr/aarch64-linux-gnu %t/dispatch/run %quantc_src_root/examples/small-cnn/calibration.npy %t/dispatch/a53.npy | FileCheck %s --check-prefix=A53
// A53: int8 kernels: generic
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/dispatch/max.npy | FileCheck %s
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/dispatch/n1.npy | FileCheck %s
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/dispatch/a53.npy | FileCheck %s
//
// RUN: %python %S/Inputs/make_input.py %t/ops/in.npy 16 7 7 20
// RUN: quant-run %S/Inputs/ops.mlir --reference --input %t/ops/in.npy -o %t/ops/reference.npy
// RUN: quant-compile %S/Inputs/ops.mlir --target aarch64-linux-gnu --mattr=+dotprod -o %t/ops/model.o
// RUN: aarch64-linux-gnu-gcc -I%t/ops -DMODEL=ops -DMODEL_UPPER=OPS %quantc_src_root/examples/common/run_model.c %t/ops/model.o -lm -o %t/ops/run
// RUN: qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu %t/ops/run %t/ops/in.npy %t/ops/out.npy
// RUN: %python %S/Inputs/compare.py %t/ops/reference.npy %t/ops/out.npy | FileCheck %s
//
// TARGET: target aarch64-unknown-linux-gnu, int8 kernels neon-dot (cpu generic +dotprod), threads none
// I8MM: int8 kernels neon-i8mm (cpu generic +dotprod,+i8mm)
// CHECK: BIT-IDENTICAL
