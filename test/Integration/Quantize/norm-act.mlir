// The normalization, activation and index ops of issue 33 in int8
// (scripts/gen_onnx_norm_act_tests.py). Activations (Mish, Selu, Celu,
// ThresholdedRelu, Gelu, Round, Sign) are 256-entry lookup tables
// (qnt.lookup); GroupNorm / InstanceNorm compute in float between a
// dequantize and a quantize, as PyTorch's quantized group_norm /
// instance_norm do; LpNormalization's squares and product are int8
// qnt.mul, its sums and reciprocal float; ArgMax runs on the dequantized
// logits of the last int8 layer.
//
// REQUIRES: avx2
// RUN: rm -rf %t && mkdir -p %t
//
// quant-compile with calibration data (seeded random samples): only the
// normalizations (and the ReLU computed in the group norm's float island,
// ArgMax and its casts, LpNormalization's reductions) stay float.
// RUN: for m in norms activations seg_head lp_head; do \
// RUN:   echo "$m" && quant-compile %quantc_src_root/test/Import/Inputs/normact/$m.onnx \
// RUN:     --calibration-data %quantc_src_root/test/Import/Inputs/normact/$m.calib.npy -v -o %t/$m.o 2>&1 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=COMPILE
// COMPILE-LABEL: norms
// COMPILE: 5 op(s) computed in float: qnt.group_norm (/gn1/Add), qnt.group_norm (/in2/InstanceNormalization), qnt.group_norm (/gn3/Add), qnt.group_norm (/gn4/Add), qnt.group_norm (/in4/InstanceNormalization)
// COMPILE-LABEL: activations
// COMPILE: 0 op(s) computed in float
// COMPILE-LABEL: seg_head
// COMPILE: {{[0-9]+}} op(s) computed in float: qnt.group_norm (/gn/Add), tosa.clamp (/Relu), tosa.argmax (/ArgMax), tosa.cast (/ArgMax)
// COMPILE-LABEL: lp_head
// COMPILE: 8 op(s) computed in float: tosa.reduce_sum (l2), tosa.pow (l2), tosa.maximum (l2), tosa.reciprocal (l2), tosa.abs (l1), tosa.reduce_sum (l1), tosa.maximum (l1), tosa.reciprocal (l1)
//
// Step by step.
// RUN: for m in norms activations seg_head lp_head; do \
// RUN:   V=%quantc_src_root/test/Import/Inputs/normact; \
// RUN:   quant-translate --import-onnx $V/$m.onnx -o %t/$m.mlir && \
// RUN:   quant-opt %t/$m.mlir --qnt-fuse --qnt-insert-observers -o %t/$m.observed.mlir && \
// RUN:   quant-calibrate %t/$m.observed.mlir --data $V/$m.calib.npy --quiet -o %t/$m.calibrated.mlir && \
// RUN:   quant-opt %t/$m.calibrated.mlir --qnt-fold-observers --qnt-quantize -o %t/$m.int8.mlir && \
// RUN:   quant-run %t/$m.int8.mlir --int8-isa=generic --input $V/$m.input.npy -o %t/$m.generic.npy 2>/dev/null && \
// RUN:   quant-run %t/$m.int8.mlir --int8-isa=avx2 --input $V/$m.input.npy -o %t/$m.avx2.npy 2>/dev/null && \
// RUN:   cmp %t/$m.generic.npy %t/$m.avx2.npy || exit 1; \
// RUN: done
//
// Every activation is a lookup table; no qnt.unary is left.
// RUN: grep -c "qnt.lookup" %t/norms.int8.mlir | FileCheck %s --check-prefix=FOUR
// FOUR: 4
// RUN: grep -c "qnt.lookup" %t/activations.int8.mlir | FileCheck %s --check-prefix=NINE
// NINE: 9
// RUN: not grep "qnt.unary" %t/norms.int8.mlir %t/activations.int8.mlir
// A group norm reads a dequantized int8 tensor and its result is quantized
// for the next int8 op.
// RUN: FileCheck %s --check-prefix=GN --input-file %t/norms.int8.mlir
// GN: %[[D:.*]] = quant.dcast %{{.*}} : tensor<1x8x8x16x!quant.uniform<u8:f32, {{.*}}>> to tensor<1x8x8x16xf32>
// GN-NEXT: %[[G:.*]] = qnt.group_norm %[[D]], {{.*}} {groups = 4 : i64}
// GN-NEXT: quant.qcast %[[G]] {{.*}} : tensor<1x8x8x16xf32> to tensor<1x8x8x16x!quant.uniform<u8:f32, {{.*}}>>
// ArgMax reads the last convolution's dequantized output.
// RUN: FileCheck %s --check-prefix=ARG --input-file %t/seg_head.int8.mlir
// ARG: %[[L:.*]] = quant.dcast %{{.*}} : tensor<1x16x16x5x!quant.uniform<u8:f32, {{.*}}>> to tensor<1x16x16x5xf32>
// ARG-NEXT: tosa.argmax %[[L]] {axis = 3 : i32}
// RUN: grep -c "qnt.mul" %t/lp_head.int8.mlir | FileCheck %s --check-prefix=THREE
// THREE: 3
//
// SQNR against PyTorch's / NumPy's float outputs above the limits given
// (measured on a Xeon: norms 18.1 dB, five chained normalizations of random
// weights, calibrated on 16 random samples, whose ranges set the clipping
// that each normalization then amplifies: 15 to 25 dB for other draws;
// activations 25.2 dB, nine functions concatenated on one scale; lp_head
// 37.1 dB); the segmentation map's classes agree with float's on at least
// 95 % of the pixels (measured: 254 of 256).
// RUN: for m in "norms 14" "activations 21" "lp_head 30"; do \
// RUN:   set -- $m; \
// RUN:   %python %quantc_src_root/scripts/sqnr.py %quantc_src_root/test/Import/Inputs/normact/$1.output.npy %t/$1.avx2.npy $2 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SQNR
// SQNR-COUNT-3: ACCURATE
// RUN: %python -c "import numpy as np; a = np.load('%t/seg_head.avx2.npy'); r = np.load('%quantc_src_root/test/Import/Inputs/normact/seg_head.output.npy'); print('AGREE' if (a == r).mean() >= 0.95 else 'DISAGREE', (a == r).sum(), a.size)" | FileCheck %s --check-prefix=SEG
// SEG: AGREE
//
// Against PyTorch's int8 forms: QDQ models of one op with fixed parameters
// (QuantizeLinear / DequantizeLinear around it, the input on its grid)
// give the bits of PyTorch's quantized::group_norm, quantized::
// instance_norm, quantized::celu and quantized GELU on the same quantized
// input: 0 of 192 values off (the generic and avx2 kernels alike).
// RUN: for m in qdq_group_norm qdq_instance_norm qdq_celu qdq_gelu; do \
// RUN:   V=%quantc_src_root/test/Import/Inputs/normact; \
// RUN:   quant-translate --import-onnx $V/$m.onnx -o %t/$m.mlir && \
// RUN:   quant-opt %t/$m.mlir --qnt-fuse --qnt-quantize -o %t/$m.int8.mlir && \
// RUN:   quant-run %t/$m.int8.mlir --int8-isa=generic --input $V/$m.input.npy -o %t/$m.generic.npy 2>/dev/null && \
// RUN:   quant-run %t/$m.int8.mlir --int8-isa=avx2 --input $V/$m.input.npy -o %t/$m.avx2.npy 2>/dev/null && \
// RUN:   cmp %t/$m.generic.npy %t/$m.avx2.npy && \
// RUN:   %python -c "import numpy as np; y = np.load('%t/'+'$m'+'.avx2.npy'); r = np.load('$V/'+'$m'+'.output.npy'); print('$m', int((np.abs(y - r) > 1e-6).sum()), 'of', r.size, 'off')" || exit 1; \
// RUN: done | FileCheck %s --check-prefix=QDQ
// QDQ: qdq_group_norm 0 of 192 off
// QDQ: qdq_instance_norm 0 of 192 off
// QDQ: qdq_celu 0 of 192 off
// QDQ: qdq_gelu 0 of 192 off
// The norms are float islands with the QDQ model's parameters, the
// activations lookup tables.
// RUN: FileCheck %s --check-prefix=QGN --input-file %t/qdq_group_norm.int8.mlir
// QGN: quant.dcast %{{.*}} : tensor<2x3x4x8x!quant.uniform<u8:f32, 0.05000000074505806:128>> to tensor<2x3x4x8xf32>
// QGN-NEXT: qnt.group_norm
// QGN-NEXT: quant.qcast %{{.*}} : tensor<2x3x4x8xf32> to tensor<2x3x4x8x!quant.uniform<u8:f32, 0.029999999329447746:120>>
// RUN: grep -c "qnt.lookup" %t/qdq_celu.int8.mlir %t/qdq_gelu.int8.mlir | FileCheck %s --check-prefix=LUT
// LUT: qdq_celu.int8.mlir:1
// LUT: qdq_gelu.int8.mlir:1
