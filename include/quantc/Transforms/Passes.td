//===- Passes.td - Transforms of quantc's lowered code -----*- tablegen -*-===//
//
// The passes that run on the lowered, bufferized code, between one-shot
// bufferization and the object file (in the order of the pipelines in
// lib/Pipelines/Pipelines.cpp and lib/Target/Emit.cpp): they rewrite
// memrefs, loops, functions and globals, and convert no dialect (but for
// the test-only quantc-amx-to-vector); quantc-batch-as-images runs before
// them, on the tensor model the AOT lowering starts from. Each has its
// folder in lib/Transforms, named after it.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_TRANSFORMS_PASSES_TD
#define QUANTC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def BatchAsImages : Pass<"quantc-batch-as-images", "::mlir::ModuleOp"> {
  let summary = "Compute a batch of B as B images: the model on one image";
  let description = [{
    A model compiled for a batch of B (`--batch B`) computes each op on B
    images at once: B times the activations of one image, which fall out of
    the caches between layers (ResNet-50's int8 activations and residuals
    leave L2 at batch 8). Where every op provably treats the images
    independently, this pass rewrites each public function whose inputs and
    results all have the extent B > 1 in front into the computation of one
    image (that dimension 1) and marks it `quantc.images = B`: the caller
    (the AOT entry point, lib/Target/Lowering.cpp) runs it once per image,
    on the image's slice of every input and output.

    Every value is followed with the dimension that carries the images
    (none for values computed from constants only). An op qualifies when
    its rule proves that image i of its results depends on image i of its
    operands only, and nothing else that has the images:
    * element-wise ops (TOSA's, `quant.qcast` / `dcast` / `scast`, `qnt`
      add, sub, mul, lookup, unary, requantize, channel_affine): every
      operand with images has them on the same dimension, not the last
      (per-channel parameters), and every other operand broadcasts along it
      (extent 1 there, or a lower rank aligned to the right);
    * NHWC ops (convolutions, pooling, resize, `qnt.group_norm`): the
      images on dimension 0;
    * ops along an `axis` (concat, softmax, batch_norm, TOSA reductions;
      `qnt.layer_norm` normalizes `[axis, rank)`): the images on another
      dimension (before `axis` for layer_norm), element-wise otherwise;
    * `tosa.transpose` moves the dimension; `tosa.reshape` keeps the images
      when the dimensions before them hold as many elements on both sides
      and the images have their own dimension in the result (ONNX Gemm's
      `8x2048 -> 1x8x2048`); `tosa.matmul` / `qnt.matmul` with the images
      on the rows of the left operand (a constant right one) or on the
      batch of both; `qnt.linear` with the images on any dimension but the
      last; `tosa.slice`, `tosa.pad` and `tosa.tile` where the result has
      all the images on their dimension (the slice's size follows).
    Anything else that touches the images (an op outside these rules, a
    region, a per-axis quantized type along the images, a function call)
    keeps the function as it is, with a remark naming the op. A rewritten
    function carries its remark too.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"",
           "The function to rewrite (default: every public one)">,
  ];
}

def DistinctResults
    : Pass<"quantc-distinct-results", "::mlir::func::FuncOp"> {
  let summary = "Give every memref a function returns its own buffer";
  let description = [{
    A model may return one value under two names (an ONNX graph listing an
    output twice, or `Identity` outputs of one tensor), which bufferizes to
    `return %alloc, %alloc`. `buffer-results-to-out-params` with
    `hoist-static-allocs` then replaces the allocation by the first out
    parameter and crashes on the second. This pass, run between
    bufferization and `buffer-results-to-out-params`, returns a copy in a
    new allocation for every result that repeats an earlier one, so that
    each out parameter receives the value.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def StaticMemoryPlan : Pass<"quantc-static-memory-plan", "::mlir::func::FuncOp"> {
  let summary = "Place a function's temporary buffers in one arena";
  let description = [{
    A static memory plan, as ahead-of-time compilers for neural networks
    make one (Glow bundles, IREE, TVM AOT): after buffer deallocation, every
    intermediate buffer of a model function is a `memref.alloc` (a malloc)
    freed by a `memref.dealloc`, and `buffer-deallocation-pipeline` puts the
    deallocs at the end of the function, so all buffers are live at once.
    This pass collects the `memref.alloc` ops directly in the body of a
    single-block function that have a static shape, the identity layout, the
    default memory space, an integer or float element type, and exactly one
    `memref.dealloc` in that block (allocs nested in loops or other regions
    are left alone). A buffer's live interval runs, in the order of the ops
    of the body, from its alloc to the last op that uses it or a value
    derived from it (views, loop results, extracted pointers); a use nested
    in a region counts as a use by the top-level op holding it, so a whole
    loop nest or parallel region is one point. Buffers are packed greedily,
    largest first, each at the best-fitting gap (byte offsets aligned to
    `alignment` and to the alloc's own alignment) between the buffers
    already placed whose intervals overlap its own; buffers whose lifetimes
    do not overlap share memory. The allocs become `memref.view`s of one
    `memref<Nxi8>` arena allocated at function entry, their deallocs are
    removed and the arena is freed before the return: one malloc per call,
    whose memory glibc keeps after the first call (it raises its mmap
    threshold when a mapped chunk is freed) instead of returning large
    buffers to the system and faulting them in again on every call.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
  ];
  let options = [
    Option<"alignment", "alignment", "unsigned", /*default=*/"64",
           "Byte alignment of every buffer in the arena (a power of two)">,
  ];
}

def LowerMemRefCopy : Pass<"quantc-lower-memref-copy"> {
  let summary = "Lower memref.copy to memcpy of contiguous rows or to loops";
  let description = [{
    `finalize-memref-to-llvm` lowers a `memref.copy` between contiguous
    memrefs into `llvm.memcpy`, and any other (e.g. into a subview made by
    bufferizing `tensor.insert_slice`) into a call to `memrefCopy` from
    MLIR's C runner utilities. Object files compiled ahead of time must
    link with libc only, so this pass rewrites every copy that is not
    contiguous on both sides:
    * when the innermost dimensions of both sides are contiguous for at
      least `min-row-bytes` bytes, into an `scf.parallel` nest over the
      other dimensions whose body copies one contiguous row (a rank-reduced
      `memref.subview` of each side): `llvm.memcpy` again. Swin's window
      shifts copy rows of 5 KB; as loops, LLVM vectorized and fully
      unrolled them into blocks of thousands of loads and stores, whose
      instruction scheduling took seconds each;
    * otherwise into `linalg.copy`, which becomes loops.
    Copies with dynamic shapes or strides become `linalg.copy`.
  }];
  let options = [
    Option<"minRowBytes", "min-row-bytes", "int64_t",
           /*default=*/"::quantc::kMemcpyRowBytes",
           "Copy contiguous rows of at least this many bytes with memcpy">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def SerializeSmallParallelLoops
    : Pass<"quantc-serialize-small-parallel-loops"> {
  let summary = "Turn scf.parallel loops with little work into scf.for nests";
  let description = [{
    Forking and joining a team of threads costs microseconds, so a parallel
    loop (one OpenMP region after `convert-scf-to-openmp`) pays off only
    above some amount of work. The work of an `scf.parallel` without
    reductions is estimated statically: the operations of its body, each
    `scf.for` nested in it counting its body's work times its trip count,
    times the parallel loop's own trip count. Loops whose estimate is below
    `min-work` become nests of `scf.for` (same iteration order as the
    sequential lowering); loops with a dynamic trip count anywhere stay
    parallel.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "Estimated operations below which a parallel loop runs "
           "sequentially">,
  ];
}

def OpenMPNoWait : Pass<"quantc-openmp-nowait"> {
  let summary = "Drop the barrier of a worksharing loop that ends its parallel region";
  let description = [{
    `convert-scf-to-openmp` turns each `scf.parallel` into an
    `omp.parallel` holding one `omp.wsloop`. A worksharing loop ends with an
    implicit barrier and the parallel region with another one (the join);
    when the loop is the last operation of the region (and has no
    reductions), the first barrier only delays the second. This pass marks
    such loops `nowait`, so each parallel region synchronizes its threads
    once instead of twice (a few microseconds per region on a 2-vCPU VM,
    against convolution layers of 3-50 us).
  }];
  let dependentDialects = ["::mlir::omp::OpenMPDialect"];
}

def OutlineLoopNests : Pass<"quantc-outline-loop-nests", "::mlir::ModuleOp"> {
  let summary = "Move each top-level loop nest into its own non-inlined function";
  let description = [{
    A lowered model is one function holding one loop nest per layer (several
    thousand loops for ResNet-50). LLVM's loop passes query ScalarEvolution,
    whose guard search (`isBasicBlockEntryGuardedByCond`) climbs the chain of
    preceding loop preheaders: in one huge function that is quadratic in
    the number of layers and dominates compile time. This pass replaces
    every loop (`LoopLikeOpInterface`: `scf.for`, `scf.parallel`, ...) and
    every OpenMP parallel region (`omp.parallel`, the loops of parallel=omp
    pipelines) directly in the body of a `func.func` with a call to a new
    private function (`<function>_loop<N>`, marked `no_inline` and given LLVM's
    `noinline` through `passthrough`, so that LLVM keeps it separate)
    holding the loop nest. Constants and
    `memref.get_global` results the nest uses are cloned into the new
    function, so that trip counts and globals stay visible to LLVM; every
    other value used from above becomes an argument (`quantc-merge-functions`
    then turns the data of functions that differ only in it into arguments).
    Functions with fewer than `min-loops` top-level loops are left alone.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let options = [
    Option<"minLoops", "min-loops", "unsigned", /*default=*/"2",
           "Outline only in functions with at least this many top-level "
           "loops">,
  ];
}

def MergeFunctions : Pass<"quantc-merge-functions", "::mlir::ModuleOp"> {
  let summary = "Merge private functions equal up to their data into one";
  let description = [{
    Models repeat their layers (ViT-B/16's 12 encoder blocks, a ResNet
    stage's bottlenecks), so after `quantc-outline-loop-nests` many loop-nest
    functions differ only in their data. This pass merges the private
    functions (called only, never referenced otherwise) that are equal up
    to their name and their data into the first of them; the constants that
    differ become arguments of the merged function, and each call passes
    its own. Data is a `memref.get_global` (weights, tables) or an
    `arith.constant` that is not an index or an `i1` (scales, zero points,
    clamp bounds); a splat vector constant becomes a scalar argument that
    the function broadcasts. Everything else must be equal: operations and
    their attributes, types, regions, the flow of values, index constants
    (trip counts and offsets, which LLVM unrolls and vectorizes by) and the
    data that is the same in every function of the group.

    LLVM's optimization and code generation then see each distinct loop
    nest once instead of once per layer.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
  let statistics = [
    Statistic<"numMerged", "merged-functions",
              "Functions merged into an equivalent one">,
    Statistic<"numArguments", "data-arguments",
              "Arguments added to merged functions for their data">,
  ];
}

def FlattenConstantGlobals
    : Pass<"quantc-flatten-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Store each dense constant global as one flat array";
  let description = [{
    Lowered from a memref of any rank, a constant `llvm.mlir.global` is an
    array of arrays: the int8 kernels' packed weights, whose innermost
    dimension is one register tile of 8 to 64 elements, become millions of
    nested LLVM constants. LLVM uniques each of them, its call graph visits
    each as a reference of the global, and the asm printer writes integers
    and floats that are not bytes one element at a time: for ViT-B/16,
    about 20 s of a compile went to its weights.

    This pass gives every constant global initialized with dense integer or
    float data (of whole bytes, not a splat) the type `!llvm.array<N x i8>`
    and the data's bytes: one LLVM constant, emitted as one block of bytes.
    Users are unaffected: a global's address is an opaque `!llvm.ptr`, and
    the accesses' `getelementptr`s carry their own element type. The bytes
    are the host's order, so the rewrite applies only when the module's
    data layout (`llvm.data_layout`, little-endian if absent) has the
    host's byte order; otherwise, and for splats, a global is only
    flattened to one array of its element type.
  }];
  let statistics = [
    Statistic<"numFlattened", "flattened-globals",
              "Constant globals stored as one flat array">,
  ];
}

def AmxToVector : Pass<"quantc-amx-to-vector"> {
  let summary = "Lower the amx dialect's integer tile ops to vector code (test-only)";
  let description = [{
    The portable twin of the amx-int8 tile kernels: QEMU cannot execute
    AMX and many development machines lack it, so this lowering runs the
    kernels' IR on any CPU, bit for bit as the tile unit would, and the
    tiling, packing, edges and epilogue of the kernels are checked against
    the int8 reference everywhere (`quant-compile --amx-portable-twin`,
    `quant-run --amx-portable-twin`). Every `!amx.tile<RxCxT>` becomes a
    `vector<RxCxT>` (also in `scf` loops' iter_args and `scf.if` results,
    through the SCF structural type conversion):
    * `amx.tile_zero`: a zero constant;
    * `amx.tile_load` / `amx.tile_store`: one `vector.load` / `vector.store`
      of C elements per row r, at the row's indices (the last index plus
      r times the stride, or without a stride the second innermost index
      plus r), the memory the instructions access;
    * `amx.tile_muli` (tdpbusd and its sign variants): for acc M x N i32,
      lhs M x 4K i8, rhs K x 4N i8, acc[m][n] += the sum over k < K, i < 4
      of ext(lhs[m][4k+i]) * ext(rhs[k][4n+i]), ext zero- or sign-extending
      as the `zext` flags say, in i32 with wrap-around. The rhs rows are
      widened once; an `scf.for` of M iterations carries the rows of lhs
      and acc, repeats each 4-byte group k of the widened lhs row 0 over 4N
      lanes (`vector.shuffle`), multiplies it by rhs row k, reduces the sum
      over k by groups of 4 into acc row 0, and yields the rows rotated by
      one: one row's arithmetic in the code, about 100 ops for a
      16 x 16 x 64 tile instead of 1,000 unrolled (a 2 x 2 block of tiles
      compiles in 0.06 s instead of 0.7).
    The tools run it right before the LLVM lowering (after bufferization
    and the loop passes), so that everything before it sees the IR the
    native build sees.
    `amx.tile_mulf` (bf16 / f16) has no twin: it fails to legalize.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // QUANTC_TRANSFORMS_PASSES_TD
