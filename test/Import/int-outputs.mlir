// Integer graph outputs (scripts/gen_int_output_models.py): ArgMax's int64
// indices and Casts of activations to integer types are integer results of
// the model function (a tosa.cast of the f32 values the importer computes
// with, which hold integers exactly below 2^24), named by
// quantc.output_dtypes; quant-run writes them in their dtype.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: quant-translate --import-onnx %quantc_src_root/test/Integration/Compile/Inputs/intout/seg.onnx -o %t/seg.mlir
// RUN: FileCheck %s --check-prefix=SEG --input-file %t/seg.mlir
// SEG: func.func @torch_jit(%arg0: tensor<1x3x8x8xf32>) -> (tensor<1x16x16xi64>, tensor<1x16x16xi32>, tensor<1x16x16xi8>)
// SEG-SAME: quantc.output_dtypes = ["int64", "int32", "uint8"]
// SEG: %[[I:.*]] = tosa.argmax {{.*}} {axis = 3 : i32} : (tensor<1x16x16x5xf32>) -> tensor<1x16x16xi32>
// SEG: %[[F:.*]] = tosa.cast %[[I]] : (tensor<1x16x16xi32>) -> tensor<1x16x16xf32>
// The UINT8 Cast wraps through int32 (the low 8 bits), in integer ops.
// SEG: tosa.bitwise_and
// SEG: %[[C64:.*]] = tosa.cast %[[F]] : (tensor<1x16x16xf32>) -> tensor<1x16x16xi64>
// SEG: %[[C32:.*]] = tosa.cast %[[F]] : (tensor<1x16x16xf32>) -> tensor<1x16x16xi32>
// SEG: return %[[C64]], %[[C32]], %{{.*}} : tensor<1x16x16xi64>, tensor<1x16x16xi32>, tensor<1x16x16xi8>
//
// quant-run (float JIT) writes int64 / int32 / uint8 arrays equal to
// PyTorch's indices.
// RUN: quant-run %t/seg.mlir --input %quantc_src_root/test/Integration/Compile/Inputs/intout/seg.input.npy -o %t/seg.npz
// RUN: cd %t && %python -c "import numpy as np; d = np.load('seg.npz'); [np.save(k + '.npy', d[k]) for k in d]"
// RUN: %python %quantc_src_root/test/Integration/Compile/Inputs/intout/check.py %t/classes.npy %quantc_src_root/test/Integration/Compile/Inputs/intout/seg.classes.npy int64 %t/classes_i32.npy %quantc_src_root/test/Integration/Compile/Inputs/intout/seg.classes.npy int32 %t/classes_u8.npy %quantc_src_root/test/Integration/Compile/Inputs/intout/seg.classes.npy uint8 | FileCheck %s --check-prefix=SEGOUT
// SEGOUT: int64 (4, 16, 16): 1024 of 1024 equal
// SEGOUT: int32 (4, 16, 16): 1024 of 1024 equal
// SEGOUT: uint8 (4, 16, 16): 1024 of 1024 equal
// SEGOUT: EXACT
//
// Casts of a float activation: truncation toward zero, 8/16-bit wrap, bool;
// a Cast back to FLOAT gives a float32 output again. Equal to NumPy's
// trunc-then-convert on values in [-300, 300].
// RUN: quant-translate --import-onnx %quantc_src_root/test/Integration/Compile/Inputs/intout/casts.onnx -o %t/casts.mlir
// RUN: FileCheck %s --check-prefix=CASTS --input-file %t/casts.mlir
// CASTS: -> (tensor<1x4x6xi8>, tensor<1x4x6xi8>, tensor<1x4x6xi16>, tensor<1x4x6xi32>, tensor<1x4x6xi8>, tensor<1x4x6xf32>)
// CASTS-SAME: quantc.output_dtypes = ["int8", "uint8", "int16", "int32", "bool", "float32"]
// CASTS: tosa.floor
// CASTS: tosa.ceil
// RUN: mkdir -p %t/casts && quant-run %t/casts.mlir --input %quantc_src_root/test/Integration/Compile/Inputs/intout/casts.input.npy -o %t/casts.npz
// RUN: cd %t/casts && %python -c "import numpy as np; d = np.load('../casts.npz'); [np.save(k + '.npy', d[k]) for k in d]"
// RUN: cd %quantc_src_root/test/Integration/Compile/Inputs/intout && %python check.py %t/casts/i8.npy casts.i8.npy int8 %t/casts/u8.npy casts.u8.npy uint8 %t/casts/i16.npy casts.i16.npy int16 %t/casts/i32.npy casts.i32.npy int32 %t/casts/b.npy casts.b.npy bool %t/casts/f.npy casts.f.npy float32 | FileCheck %s --check-prefix=CASTOUT
// CASTOUT: int8 (1, 4, 6): 24 of 24 equal
// CASTOUT: bool (1, 4, 6): 24 of 24 equal
// CASTOUT: float32 (1, 4, 6): 24 of 24 equal
// CASTOUT: EXACT
//
// Casts to UINT16 / UINT32 / UINT64 / INT64 of negative and large values:
// the unsigned wrap of a negative value happens in the integer result
// (int64 bits truncated), so quant-run writes NumPy's (and ONNX Runtime's
// x86) bits, 2^32 - 70000 included, which float32 cannot hold.
// RUN: mkdir -p %t/wide && quant-run %quantc_src_root/test/Integration/Compile/Inputs/intout/casts_wide.onnx --input %quantc_src_root/test/Integration/Compile/Inputs/intout/casts_wide.input.npy -o %t/wide.npz
// RUN: cd %t/wide && %python -c "import numpy as np; d = np.load('../wide.npz'); [np.save(k + '.npy', d[k]) for k in d]"
// RUN: cd %quantc_src_root/test/Integration/Compile/Inputs/intout && %python check.py %t/wide/u16.npy casts_wide.u16.npy uint16 %t/wide/u32.npy casts_wide.u32.npy uint32 %t/wide/u64.npy casts_wide.u64.npy uint64 %t/wide/i64.npy casts_wide.i64.npy int64 | FileCheck %s --check-prefix=WIDE
// WIDE: uint16 (1, 8): 8 of 8 equal
// WIDE: uint32 (1, 8): 8 of 8 equal
// WIDE: uint64 (1, 8): 8 of 8 equal
// WIDE: int64 (1, 8): 8 of 8 equal
// WIDE: EXACT
//
// ArgMin with keepdims and select_last_index on ties, ArgMax then
// Unsqueeze (data movement keeps int64), ArgMax then Cast to FLOAT then Mul
// (float32 again): equal to NumPy.
// RUN: quant-translate --import-onnx %quantc_src_root/test/Integration/Compile/Inputs/intout/argmax_ops.onnx | FileCheck %s --check-prefix=OPS
// OPS: -> (tensor<1x1x3x4xi64>, tensor<1x1x3x4xi64>, tensor<1x3x4xf32>)
// OPS-SAME: quantc.output_dtypes = ["int64", "int64", "float32"]
// RUN: mkdir -p %t/ops && quant-run %quantc_src_root/test/Integration/Compile/Inputs/intout/argmax_ops.onnx --input %quantc_src_root/test/Integration/Compile/Inputs/intout/argmax_ops.input.npy -o %t/ops.npz
// RUN: cd %t/ops && %python -c "import numpy as np; d = np.load('../ops.npz'); [np.save(k + '.npy', d[k]) for k in d]"
// RUN: cd %quantc_src_root/test/Integration/Compile/Inputs/intout && %python check.py %t/ops/kept.npy argmax_ops.kept.npy int64 %t/ops/unsq.npy argmax_ops.unsq.npy int64 %t/ops/scaled.npy argmax_ops.scaled.npy float32 | FileCheck %s --check-prefix=OPSOUT
// OPSOUT: int64 (2, 1, 3, 4): 24 of 24 equal
// OPSOUT: int64 (2, 1, 3, 4): 24 of 24 equal
// OPSOUT: float32 (2, 3, 4): 24 of 24 equal
// OPSOUT: EXACT
//
// A Cast of an activation to a type the interface has no dtype for.
// RUN: not quant-translate --import-onnx %quantc_src_root/test/Integration/Compile/Inputs/intout/invalid_cast_string.onnx 2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID: error: '{{.*}}invalid_cast_string.onnx': node 'to_string' (Cast): unsupported target type 8 (string) for an activation
