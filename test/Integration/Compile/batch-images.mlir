// A batch whose images the model keeps apart runs as one call of the
// one-image code per image (quantc-batch-as-images; the fashion-mnist
// model's shuffle reshape [N, 2, 8, 14, 14] keeps them apart too): with
// OpenMP in parallel over the images, one thread each, while at most half
// the threads idle (1, 2, 8 threads for 4 images), else one image after the
// other with the layers' threads (16). Every int8 variant gives the
// batch-1 object's bytes, and the float object those of the float batch-1
// object.
//
// REQUIRES: libomp
// RUN: rm -rf %t && mkdir -p %t/q1 %t/q4 %t/f1 %t/f4 %t/w4
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --name fmnist --batch 4 --calibration-data %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy --parallel=omp --remarks -o %t/q4/model.o 2>&1 | FileCheck %s --check-prefix=IMAGES
// IMAGES: remark: computes the batch of 4 as 4 images, one at a time
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --name fmnist --calibration-data %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy --parallel=omp -o %t/q1/model.o
// RUN: cc -I%t/q4 -DMODEL=fmnist -DMODEL_UPPER=FMNIST %quantc_src_root/examples/common/run_model.c %t/q4/model.o %libomp -lm -o %t/q4/run
// RUN: cc -I%t/q1 -DMODEL=fmnist -DMODEL_UPPER=FMNIST %quantc_src_root/examples/common/run_model.c %t/q1/model.o %libomp -lm -o %t/q1/run
// RUN: %t/q1/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q1/out.npy 0 2
// RUN: %t/q4/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q4/t1.npy 0 1
// RUN: %t/q4/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q4/t2.npy 0 2
// RUN: %t/q4/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q4/t8.npy 0 8
// RUN: %python %S/Inputs/compare.py %t/q1/out.npy %t/q4/t1.npy | FileCheck %s --check-prefix=SAME
// RUN: %python %S/Inputs/compare.py %t/q1/out.npy %t/q4/t2.npy | FileCheck %s --check-prefix=SAME
// RUN: %python %S/Inputs/compare.py %t/q1/out.npy %t/q4/t8.npy | FileCheck %s --check-prefix=SAME
// RUN: %t/q4/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q4/t16.npy 0 16
// RUN: %python %S/Inputs/compare.py %t/q1/out.npy %t/q4/t16.npy | FileCheck %s --check-prefix=SAME
// SAME: BIT-IDENTICAL
//
// The other int8 variants of the objects (QUANTC_INT8_ISA picks one where
// the CPU has it, else the objects keep their usual choice).
// RUN: env QUANTC_INT8_ISA=avx512-vnni %t/q1/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q1/vnni.npy
// RUN: env QUANTC_INT8_ISA=avx512-vnni %t/q4/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q4/vnni.npy 0 2
// RUN: %python %S/Inputs/compare.py %t/q1/vnni.npy %t/q4/vnni.npy | FileCheck %s --check-prefix=SAME
// RUN: env QUANTC_INT8_ISA=avx-vnni %t/q1/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q1/avxvnni.npy
// RUN: env QUANTC_INT8_ISA=avx-vnni %t/q4/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q4/avxvnni.npy 0 2
// RUN: %python %S/Inputs/compare.py %t/q1/avxvnni.npy %t/q4/avxvnni.npy | FileCheck %s --check-prefix=SAME
// RUN: env QUANTC_INT8_ISA=avx2 %t/q1/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q1/avx2.npy
// RUN: env QUANTC_INT8_ISA=avx2 %t/q4/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/q4/avx2.npy 0 1
// RUN: %python %S/Inputs/compare.py %t/q1/avx2.npy %t/q4/avx2.npy | FileCheck %s --check-prefix=SAME
//
// Float, single-threaded: the batch-1 object's bytes.
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --name fmnist --batch 4 -o %t/f4/model.o
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --name fmnist -o %t/f1/model.o
// RUN: cc -I%t/f4 -DMODEL=fmnist -DMODEL_UPPER=FMNIST %quantc_src_root/examples/common/run_model.c %t/f4/model.o -lm -o %t/f4/run
// RUN: cc -I%t/f1 -DMODEL=fmnist -DMODEL_UPPER=FMNIST %quantc_src_root/examples/common/run_model.c %t/f1/model.o -lm -o %t/f1/run
// RUN: %t/f4/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/f4/out.npy
// RUN: %t/f1/run %quantc_src_root/examples/fashion-mnist-mobile/calibration.npy %t/f1/out.npy
// RUN: %python %S/Inputs/compare.py %t/f1/out.npy %t/f4/out.npy | FileCheck %s --check-prefix=SAME
//
// --batch-as-images=false computes the batch whole (no remark), as before.
// RUN: quant-compile %quantc_src_root/examples/fashion-mnist-mobile/model.onnx --name fmnist --batch 4 --batch-as-images=false --remarks -o %t/w4/model.o 2>&1 | FileCheck %s --check-prefix=WHOLE --allow-empty
// WHOLE-NOT: images
