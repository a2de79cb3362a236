//===- Passes.td - Conversion passes of quantc -------------*- tablegen -*-===//
//
// The lowerings to loops and vectors: qnt-lower-quantized (int8 ops) and
// quantc-tile-and-vectorize (float linalg ops). The passes that run on the
// bufferized code are in include/quantc/Transforms/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_CONVERSION_PASSES_TD
#define QUANTC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def QntLowerQuantized : Pass<"qnt-lower-quantized", "::mlir::ModuleOp"> {
  let summary = "Lower quantized qnt ops and quant casts to loops and vectors";
  let description = [{
    Rewrites every op on `!quant.uniform` tensors into loops over memrefs of
    the storage integer type (i8 for 8-bit storage, i32 for 32-bit), with
    vector code along the innermost (NHWC channel) dimension and scalar
    tails: `qnt.conv2d` and `qnt.linear` (kernels chosen for `isa`),
    `qnt.add`, `qnt.max_pool2d`, `qnt.avg_pool2d`, `qnt.concat`,
    `qnt.requantize`, `tosa.reshape`, `quant.qcast`, `quant.dcast` and
    `quant.scast`; function signatures, returns and calls are converted too.
    Each op reads its operands through `bufferization.to_buffer`, fills a
    `memref.alloc` and returns it with `bufferization.to_tensor restrict
    writable`, so one-shot bufferization and the usual LLVM lowering apply
    afterwards. The arithmetic is exactly that of the int8 reference
    (`quantc::ref`): multipliers and bounds are computed by it at compile
    time, requantization is float32 with round-half-to-even. A quantized op
    without a lowering is an error naming the op.
  }];
  let dependentDialects = [
    // The amx-int8 kernels' tiles.
    "::mlir::amx::AMXDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
    // The quantization roles of TOSA ops (data movement) load with it.
    "::mlir::qnt::QntDialect",
  ];
  let options = [
    Option<"isa", "isa", "std::string", /*default=*/"\"generic\"",
           "Int8 instructions to generate kernels for: a name of the table "
           "in include/quantc/Isa/Int8Isa.h (quant-compile --list-isas)">,
  ];
}

def TileAndVectorizeFloat
    : Pass<"quantc-tile-and-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Register-tile and vectorize float linalg ops on tensors";
  let description = [{
    The float code generation (used for float models, the calibration build
    and float layers of int8 models): every float convolution, depthwise
    convolution, pooling, matmul, fill, transpose and elementwise
    `linalg.generic` with static shapes is tiled with `scf.for` loops into register-sized blocks
    (output pixels along W x output channels for convolutions, reductions
    innermost), 2-D convolutions and poolings are decomposed into 1-D ones
    and the tiles are vectorized with upstream `linalg::vectorize`
    (convolutions become `vector.contract`). `linalg.conv_2d_nhwc_fhwc` is
    first rewritten to `linalg.conv_2d_nhwc_hwcf` (a constant filter is
    transposed at compile time). Tile sizes divide the op's dimensions, so
    no masking is needed: an elementwise op whose innermost dimension is
    longer than 8 vectors but has no divisor of a vector or more (ViT's 197
    tokens, a prime) is first split (`linalg::splitOp`) at the last multiple
    of 8 vectors, and each part is tiled by its own divisors instead of
    by 1 (scalar code). Ops that cannot be vectorized stay as they are and
    become loops later. Transposes are tiled like elementwise ops: vectorized
    whole, one (e.g. NHWC -> NCHW before a flatten) would be unrolled into
    one scalar extract and insert per element. A transpose that keeps its
    innermost dimensions in place, rows of at least 256 bytes (Swin's window
    partitions), becomes an `scf.forall` copying one row per iteration
    (`tensor.extract_slice` / `tensor.parallel_insert_slice`, a memcpy once
    bufferized): as vector tiles, LLVM unrolled its loops into blocks of
    thousands of loads and stores that took seconds to schedule. Run `loop-invariant-subset-hoisting` afterwards to
    keep the accumulators in registers across the reduction loops.

    Matmuls (`linalg.matmul`, `linalg.batch_matmul`: linear layers and
    attention) become register-blocked loops of vector FMAs instead: blocks
    of 6 rows x 16 output columns (with `vector-bits=512`, AVX-512's 32
    registers: 12 x 32), one B vector and one broadcast A element per FMA,
    the accumulators in registers across the whole reduction; constant
    weights are packed at compile time into contiguous column panels. The
    full column blocks of every batch are one `scf.forall` over (batch,
    column block), each iteration writing its own slice of the output: the
    parallel pipeline runs them on threads.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"256",
           "Width of the target's vector registers (512: AVX-512), which "
           "sizes the matmul register blocks">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FloatConvKernels
    : Pass<"quantc-float-conv-kernels", "::mlir::func::FuncOp"> {
  let summary = "Float qnt.conv2d to packed register-blocked FMA kernels";
  let description = [{
    Replaces each float `qnt.conv2d` (the fused layer: bias, residual add,
    activation) with static shapes and a constant filter and bias, with one
    group or depthwise, by a kernel on buffers (`bufferization.to_buffer` /
    `memref.alloc` / `to_tensor`, as the int8 kernels): the filter packed at
    compile time per block of output channels, register blocks of
    accumulators that start from the bias, the residual add, the
    activation and a `qnt.unary` that is the result's only use (SiLU, hard
    swish) applied in registers before the one store, the input read in
    place (a zero-padded copy for padded layers). Convolutions are an
    implicit GEMM of pixels x output-channel vectors (one broadcast input
    value and nv weight vectors per step); depthwise ones run vectors of
    channels along output rows, loading each input column once per filter
    row. The outer loops are an `scf.parallel` (threads with the parallel
    pipeline). Everything else (grouped convolutions, non-constant filters,
    dynamic shapes) is left to `qnt-lower-float`. Run before it.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"256",
           "Width of the target's vector registers (512: AVX-512, 128: "
           "NEON), which sizes the register blocks">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

#endif // QUANTC_CONVERSION_PASSES_TD
