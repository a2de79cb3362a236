// Objects compiled with --parallel=omp (OpenMP parallel loops, LLVM's libomp)
// compute bit-identical outputs with 1 and 2 threads:
// * Inputs/ops-large.mlir: every non-convolution quantized op, each large
//   enough for parallel loops, against the int8 reference;
// * the example model, quantized and float, against the same model
//   compiled with --parallel=none (the float loops keep their reduction
//   order, so float outputs are bit-identical too).
//
// REQUIRES: avx2, libomp
// RUN: rm -rf %t && mkdir -p %t/ops %t/int8 %t/int8-seq %t/float %t/float-seq
//
// RUN: %python %S/Inputs/make_input.py %t/in.npy 4 96 96 20
// RUN: quant-run %S/Inputs/ops-large.mlir --reference --input %t/in.npy -o %t/reference.npy
// RUN: quant-compile %S/Inputs/ops-large.mlir --parallel=omp -o %t/ops/model.o -v 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t/ops/model.h
// RUN: llvm-nm %t/ops/model.o | FileCheck %s --check-prefix=SYMBOLS
// RUN: cc -I%t/ops -DMODEL=ops_large -DMODEL_UPPER=OPS_LARGE %quantc_src_root/examples/common/run_model.c %t/ops/model.o %libomp -lm -o %t/ops/run
// RUN: %t/ops/run %t/in.npy %t/ops/t1.npy 1 1 | FileCheck %s --check-prefix=ONE
// RUN: %t/ops/run %t/in.npy %t/ops/t2.npy 1 2 | FileCheck %s --check-prefix=TWO
// RUN: env OMP_NUM_THREADS=2 %t/ops/run %t/in.npy %t/ops/default.npy 1 | FileCheck %s --check-prefix=DEFAULT
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/ops/t1.npy | FileCheck %s --check-prefix=OPS
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/ops/t2.npy | FileCheck %s --check-prefix=OPS
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/ops/default.npy | FileCheck %s --check-prefix=OPS
// The JIT (quant-run) loads libomp for threaded code.
// RUN: quant-run %S/Inputs/ops-large.mlir --int8-isa=avx2 --num-threads=2 --input %t/in.npy -o %t/ops/jit.npy
// RUN: %python %S/Inputs/compare.py %t/reference.npy %t/ops/jit.npy | FileCheck %s --check-prefix=OPS
//
// Cross-compiled, the header cannot name this machine's libomp.
// RUN: mkdir -p %t/a64
// RUN: quant-compile %S/Inputs/ops-large.mlir --target aarch64-linux-gnu --parallel=omp -o %t/a64/model.o
// RUN: FileCheck %s --check-prefix=A64 --input-file %t/a64/model.h
// RUN: llvm-nm %t/a64/model.o | FileCheck %s --check-prefix=SYMBOLS
// A64: cc driver.c ops_large.o -L<the target's libomp directory> -lomp -lm
//
// TARGET: int8 kernels amx-int8 {{.*}}, avx512-vnni {{.*}}, avx2 (cpu x86-64-v3) chosen at run time, threads omp
// HEADER: Threads: the parallel loops run on OpenMP threads (LLVM's libomp).
// HEADER: void ops_large_set_num_threads(int n) sets the threads of later runs
// HEADER: cc driver.c ops_large.o -L{{.*}}/lib -Wl,-rpath,{{.*}}/lib -lomp -lm
// HEADER: int ops_large_run(const float *input0, float *output0);
// HEADER: #define OPS_LARGE_HAS_THREADS 1
// HEADER-NEXT: void ops_large_set_num_threads(int n);
// SYMBOLS: U __kmpc_fork_call
// SYMBOLS: U __kmpc_push_num_threads
// SYMBOLS: U omp_get_max_threads
// SYMBOLS: t ops_large_model_loop{{[0-9]+}}.{{[a-z0-9_]+}}..omp_par
// SYMBOLS: b ops_large_num_threads
// SYMBOLS: T ops_large_run
// SYMBOLS: T ops_large_set_num_threads
// ONE: 1 threads)
// TWO: 2 threads)
// DEFAULT: default threads)
// OPS: exact samples: 4/4, exact values: 368640/368640
// OPS: BIT-IDENTICAL
//
// The example model, quantized as the quick start does.
// RUN: quant-opt %quantc_src_root/examples/small-cnn/model.mlir --qnt-fuse --qnt-insert-observers=target=x86 -o %t/observed.mlir
// RUN: quant-calibrate %t/observed.mlir --max-samples 64 --data %quantc_src_root/examples/small-cnn/calibration.npy --quiet -o %t/calibrated.mlir
// RUN: quant-opt %t/calibrated.mlir --qnt-fold-observers --qnt-float-outputs --qnt-quantize -o %t/int8.mlir
// RUN: quant-compile %t/int8.mlir --name small_cnn --parallel=omp -o %t/int8/model.o
// RUN: quant-compile %t/int8.mlir --name small_cnn -o %t/int8-seq/model.o
// RUN: cc -I%t/int8 -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN %quantc_src_root/examples/common/run_model.c %t/int8/model.o %libomp -lm -o %t/int8/run
// RUN: cc -I%t/int8-seq -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN %quantc_src_root/examples/common/run_model.c %t/int8-seq/model.o -lm -o %t/int8-seq/run
// RUN: %t/int8-seq/run %quantc_src_root/examples/small-cnn/calibration.npy %t/int8-seq/out.npy
// RUN: %t/int8/run %quantc_src_root/examples/small-cnn/calibration.npy %t/int8/t1.npy 0 1
// RUN: %t/int8/run %quantc_src_root/examples/small-cnn/calibration.npy %t/int8/t2.npy 0 2
// RUN: %python %S/Inputs/compare.py %t/int8-seq/out.npy %t/int8/t1.npy | FileCheck %s --check-prefix=CNN
// RUN: %python %S/Inputs/compare.py %t/int8-seq/out.npy %t/int8/t2.npy | FileCheck %s --check-prefix=CNN
//
// RUN: quant-compile %quantc_src_root/examples/small-cnn/model.mlir --name small_cnn --parallel=omp -o %t/float/model.o
// RUN: quant-compile %quantc_src_root/examples/small-cnn/model.mlir --name small_cnn -o %t/float-seq/model.o
// RUN: cc -I%t/float -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN %quantc_src_root/examples/common/run_model.c %t/float/model.o %libomp -lm -o %t/float/run
// RUN: cc -I%t/float-seq -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN %quantc_src_root/examples/common/run_model.c %t/float-seq/model.o -lm -o %t/float-seq/run
// RUN: %t/float-seq/run %quantc_src_root/examples/small-cnn/calibration.npy %t/float-seq/out.npy
// RUN: %t/float/run %quantc_src_root/examples/small-cnn/calibration.npy %t/float/t1.npy 0 1
// RUN: %t/float/run %quantc_src_root/examples/small-cnn/calibration.npy %t/float/t2.npy 0 2
// RUN: %python %S/Inputs/compare.py %t/float-seq/out.npy %t/float/t1.npy | FileCheck %s --check-prefix=CNN
// RUN: %python %S/Inputs/compare.py %t/float-seq/out.npy %t/float/t2.npy | FileCheck %s --check-prefix=CNN
// RUN: llvm-nm %t/float/model.o | FileCheck %s --check-prefix=FLOAT
//
// CNN: exact samples: 256/256, exact values: 2560/2560
// CNN: BIT-IDENTICAL
// FLOAT: U __kmpc_fork_call
// FLOAT: t small_cnn_model_loop{{[0-9]+}}.{{[a-z0-9_]+}}..omp_par
