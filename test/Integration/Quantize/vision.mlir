// The vision ops in int8 (scripts/gen_onnx_vision_tests.py): ConvTranspose
// (a zero-inserting reshape / pad / reshape, which stays int8 with the zero
// point as the inserted value, then a qnt.conv2d with per-channel weights),
// 1-D Conv / pools (the 2-D int8 ops with H = 1; a 1-D conv's BatchNorm
// and ReLU fold into it through the reshape back to [N, C, L]), and
// DepthToSpace / SpaceToDepth (transposes of storage integers).
//
// REQUIRES: avx2
// RUN: rm -rf %t && mkdir -p %t
//
// quant-compile with calibration data (4 random samples) leaves no op in
// float.
// RUN: for m in conv_transpose conv_transpose_attrs audio1d pools1d pixel_shuffle depth_space; do \
// RUN:   echo "$m" && quant-compile %quantc_src_root/test/Import/Inputs/vision/$m.onnx \
// RUN:     --calibration-data %quantc_src_root/test/Import/Inputs/vision/$m.calib.npy -v -o %t/$m.o 2>&1 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=COMPILE
// COMPILE: conv_transpose
// COMPILE: 0 op(s) computed in float
// COMPILE: conv_transpose_attrs
// COMPILE: 0 op(s) computed in float
// COMPILE: audio1d
// COMPILE: 0 op(s) computed in float
// COMPILE: pools1d
// COMPILE: 0 op(s) computed in float
// COMPILE: pixel_shuffle
// COMPILE: 0 op(s) computed in float
// COMPILE: depth_space
// COMPILE: 0 op(s) computed in float
//
// Step by step: the int8 IR computes the same bits in the reference, the
// generic and the avx2 kernels, and its SQNR against PyTorch's / NumPy's
// float output is above the limit given (measured: 25.8, 22.0, 40.9, 38.5,
// 26.5, 44.1 dB; the outputs concatenate branches of different ranges on one
// scale; a kernel not flipped gives below 3 dB).
// RUN: for m in "conv_transpose 22" "conv_transpose_attrs 19" "audio1d 37" "pools1d 35" "pixel_shuffle 23" "depth_space 40"; do \
// RUN:   set -- $m; V=%quantc_src_root/test/Import/Inputs/vision; \
// RUN:   quant-translate --import-onnx $V/$1.onnx -o %t/$1.mlir && \
// RUN:   quant-opt %t/$1.mlir --qnt-fuse --qnt-insert-observers -o %t/$1.observed.mlir && \
// RUN:   quant-calibrate %t/$1.observed.mlir --data $V/$1.calib.npy --quiet -o %t/$1.calibrated.mlir && \
// RUN:   quant-opt %t/$1.calibrated.mlir --qnt-fold-observers --qnt-quantize -o %t/$1.int8.mlir && \
// RUN:   quant-run %t/$1.int8.mlir --reference --input $V/$1.input.npy -o %t/$1.ref.npy 2>/dev/null && \
// RUN:   quant-run %t/$1.int8.mlir --int8-isa=generic --input $V/$1.input.npy -o %t/$1.generic.npy 2>/dev/null && \
// RUN:   quant-run %t/$1.int8.mlir --int8-isa=avx2 --input $V/$1.input.npy -o %t/$1.avx2.npy 2>/dev/null && \
// RUN:   cmp %t/$1.ref.npy %t/$1.generic.npy && cmp %t/$1.generic.npy %t/$1.avx2.npy && \
// RUN:   echo "$1" && %python %quantc_src_root/scripts/sqnr.py $V/$1.output.npy %t/$1.avx2.npy $2 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SQNR
// SQNR: conv_transpose
// SQNR: ACCURATE
// SQNR: conv_transpose_attrs
// SQNR: ACCURATE
// SQNR: audio1d
// SQNR: ACCURATE
// SQNR: pools1d
// SQNR: ACCURATE
// SQNR: pixel_shuffle
// SQNR: ACCURATE
// SQNR: depth_space
// SQNR: ACCURATE
//
// Every ConvTranspose is a quantized conv (6 + the 1-D one; 8 in the
// attribute forms), per channel, with its zero insertion on int8 storage.
// RUN: FileCheck %s --check-prefix=CT --input-file %t/conv_transpose.int8.mlir
// CT: tosa.pad {{.*}} -> tensor<1x4x2x5x2x4x!quant.uniform<u8:f32, {{.*}}>>
// CT: qnt.conv2d {{.*}}tensor<3x3x3x4x!quant.uniform<i8:f32:0, {
// RUN: grep -c "qnt.conv2d" %t/conv_transpose.int8.mlir | FileCheck %s --check-prefix=SEVEN
// SEVEN: 7
// RUN: grep -c "qnt.conv2d" %t/conv_transpose_attrs.int8.mlir | FileCheck %s --check-prefix=EIGHT
// EIGHT: 8
// RUN: not grep -E "tosa.conv2d|tosa.depthwise_conv2d" %t/conv_transpose.int8.mlir
//
// The audio model: conv-bn-relu, grouped and depthwise 1-D convs and the
// 1-D ConvTranspose as qnt.conv2d (BatchNorm folded, ReLU fused), pools
// as int8 pools.
// RUN: FileCheck %s --check-prefix=AUDIO --input-file %t/audio1d.int8.mlir
// AUDIO: qnt.conv2d {{.*}}activation = #qnt<activation relu>{{.*}} -> tensor<1x1x16x8x!quant.uniform
// AUDIO: qnt.max_pool2d
// AUDIO-NOT: qnt.batch_norm
// AUDIO-NOT: tosa.clamp
// RUN: grep -c "qnt.max_pool2d\|qnt.avg_pool2d" %t/audio1d.int8.mlir | FileCheck %s --check-prefix=POOLS
// POOLS: 6
//
// A QDQ ConvTranspose model (uint8 activations, int8 weights per output
// channel on ONNX axis 1, and per tensor for a depthwise one) keeps its
// parameters: the same bits as PyTorch 1.13's quantized ConvTranspose2d
// (qnnpack) on the same grid (measured: 0 of 1152 values differ; ONNX
// Runtime 1.30 computes the same), in the reference, generic and avx2.
// RUN: quant-translate --import-onnx %quantc_src_root/test/Import/Inputs/vision/qdq_conv_transpose.onnx -o %t/qdq.mlir
// RUN: quant-opt %t/qdq.mlir --qnt-fuse --qnt-quantize -o %t/qdq.int8.mlir
// RUN: FileCheck %s --check-prefix=QDQ --input-file %t/qdq.int8.mlir
// QDQ: tosa.pad {{.*}} -> tensor<1x3x2x4x2x4x!quant.uniform<u8:f32, 0.02500000037252903:128>>
// QDQ: qnt.conv2d {{.*}}activation = #qnt<activation relu>{{.*}}tensor<6x3x3x4x!quant.uniform<i8:f32:0, {
// QDQ: qnt.conv2d {{.*}}groups = 6 {{.*}} -> tensor<1x12x16x6x!quant.uniform<u8:f32, 0.029999999329447746:120>>
// QDQ-NOT: qnt.fake_quant
// RUN: quant-run %t/qdq.int8.mlir --reference --input %quantc_src_root/test/Import/Inputs/vision/qdq_conv_transpose.input.npy -o %t/qdq.ref.npy 2>/dev/null
// RUN: quant-run %t/qdq.int8.mlir --int8-isa=generic --input %quantc_src_root/test/Import/Inputs/vision/qdq_conv_transpose.input.npy -o %t/qdq.generic.npy 2>/dev/null
// RUN: quant-run %t/qdq.int8.mlir --int8-isa=avx2 --input %quantc_src_root/test/Import/Inputs/vision/qdq_conv_transpose.input.npy -o %t/qdq.avx2.npy 2>/dev/null
// RUN: cmp %t/qdq.ref.npy %t/qdq.generic.npy
// RUN: cmp %t/qdq.generic.npy %t/qdq.avx2.npy
// RUN: %python %quantc_src_root/test/Integration/Compile/Inputs/compare_lsb.py %quantc_src_root/test/Import/Inputs/vision/qdq_conv_transpose.output.npy %t/qdq.avx2.npy 0.03 1 | FileCheck %s --check-prefix=LSB
// LSB: 0/1152 values differ
// LSB: WITHIN 1 LSB
