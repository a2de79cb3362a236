//===- Lowering.cpp - A model to the LLVM dialect with a C entry point ----===//
//
// The AOT lowering is the JIT's: quantc-int8-to-llvm (qnt-lower-quantized,
// then the float pipeline: bufferization with results as out-parameters,
// deallocation, loops, LLVM; a float model passes the first step
// unchanged). The model function
// then takes memref descriptors (allocated, aligned, offset, sizes, strides
// per input, then per output); `<name>_run` builds them from raw pointers,
// so callers need no MLIR runtime. Threaded models (OpenMP) read their
// thread count from a global that `<name>_set_num_threads` sets. A batch
// whose images the model provably keeps apart (quantc-batch-as-images) is
// run as one call of the one-image function per image: in parallel over
// the images, one thread each, unless there are more than twice as many
// threads as images; then one after the other, each with the parallel
// loops of its layers.
//
//===----------------------------------------------------------------------===//

#include "quantc/Target/Compile.h"

#include "quantc/Pipelines/Pipelines.h"
#include "quantc/Support/Text.h"
#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace quantc;

/// Marks the parallel region over the images of a batch for addThreadCount.
static constexpr llvm::StringLiteral kImageLoopAttr = "quantc.image_loop";

/// Adds the thread count of the parallel regions: an internal i32 global
/// (0: the runtime's default), its external setter, and a num_threads
/// clause on every omp.parallel that reads it: `n > 0 ? n :
/// omp_get_max_threads()`. Monotonic atomics: a count set while another
/// thread runs the model applies to its later parallel regions. The region
/// over the `images` of a batch (kImageLoopAttr) runs on min(count, images)
/// threads, each image on one (the layers' regions nested in an active team
/// run on one thread), while that leaves at most half the threads idle
/// (count <= 2 * images); with more threads on one (an inactive region),
/// the images one after the other with the threads of the layers' regions.
/// (MobileNetV2's layers run 3.6x faster on 16 threads than on one: on a
/// 16-core Xeon, 8 threads over 8 images take 0.34 ms per image, 16
/// threads per image 0.73 ms; over 2 images that order flips.)
static void addThreadCount(ModuleOp module, StringRef setterName,
                           StringRef globalName, int64_t images) {
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  auto i32 = IntegerType::get(ctx, 32);
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto global = LLVM::GlobalOp::create(b, loc, i32, /*isConstant=*/false,
                                       LLVM::Linkage::Internal, globalName,
                                       b.getI32IntegerAttr(0), /*alignment=*/4);
  auto maxThreads = LLVM::LLVMFuncOp::create(
      b, loc, "omp_get_max_threads", LLVM::LLVMFunctionType::get(i32, {}));

  auto setter = LLVM::LLVMFuncOp::create(
      b, loc, setterName,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {i32}));
  Block *entry = setter.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  Value address = LLVM::AddressOfOp::create(b, loc, global);
  LLVM::StoreOp::create(b, loc, entry->getArgument(0), address,
                        /*alignment=*/4, /*isVolatile=*/false,
                        /*isNonTemporal=*/false, /*isInvariantGroup=*/false,
                        LLVM::AtomicOrdering::monotonic);
  LLVM::ReturnOp::create(b, loc, ValueRange{});

  module.walk([&](omp::ParallelOp parallel) {
    b.setInsertionPoint(parallel);
    Location l = parallel.getLoc();
    Value at = LLVM::AddressOfOp::create(b, l, global);
    Value n = LLVM::LoadOp::create(b, l, i32, at, /*alignment=*/4,
                                   /*isVolatile=*/false,
                                   /*isNonTemporal=*/false,
                                   /*isInvariant=*/false,
                                   /*isInvariantGroup=*/false,
                                   LLVM::AtomicOrdering::monotonic);
    Value zero = LLVM::ConstantOp::create(b, l, i32, b.getI32IntegerAttr(0));
    Value set = LLVM::ICmpOp::create(b, l, LLVM::ICmpPredicate::sgt, n, zero);
    Value fallback =
        LLVM::CallOp::create(b, l, maxThreads, ValueRange{}).getResult();
    Value count = LLVM::SelectOp::create(b, l, set, n, fallback);
    if (parallel->removeAttr(kImageLoopAttr)) {
      auto constant = [&](int64_t v) {
        return LLVM::ConstantOp::create(b, l, i32, b.getI32IntegerAttr(v));
      };
      Value most = constant(images);
      Value fits =
          LLVM::ICmpOp::create(b, l, LLVM::ICmpPredicate::sle, count, most);
      Value perImage = LLVM::SelectOp::create(b, l, fits, count, most);
      Value halfIdle = LLVM::ICmpOp::create(b, l, LLVM::ICmpPredicate::sle,
                                            count, constant(2 * images));
      count = LLVM::SelectOp::create(b, l, halfIdle, perImage, constant(1));
    }
    parallel.getNumThreadsMutable().assign(count);
  });
}

/// The lowered model function's arguments for `<name>_run`'s pointers (the
/// arguments of `entry`): a memref descriptor per input and output, of the
/// whole tensor (`images` 1), or of image `image` of the `images` the batch
/// holds (the one-image function of quantc-batch-as-images).
static SmallVector<Value> descriptorArgs(OpBuilder &b, Location loc,
                                         const ModelInterface &model,
                                         Block *entry, int64_t images,
                                         Value image) {
  auto i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto constant = [&](int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  SmallVector<Value> args;
  size_t argIndex = 0;
  for (const auto *list : {&model.inputs, &model.outputs})
    for (const TensorInterface &t : *list) {
      Value data = entry->getArgument(argIndex++);
      std::vector<int64_t> shape = t.shape;
      int64_t elements = t.numElements() / images;
      if (image) {
        shape.front() /= images;
        Value offset = LLVM::MulOp::create(
            b, loc, image, constant(elements * t.elementBytes()));
        data = LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), data,
                                   ValueRange{offset});
      }
      args.append({data, data, constant(0)});
      for (int64_t d : shape)
        args.push_back(constant(d));
      int64_t stride = elements;
      for (int64_t d : shape) {
        stride /= d;
        args.push_back(constant(stride));
      }
    }
  return args;
}

/// Calls the one-image function `fn` on each of the `images` of the batch,
/// at the end of `entry`: with OpenMP in a worksharing loop over the images
/// (whose threads addThreadCount sets), else in a loop of blocks; `b` then
/// inserts after it.
static void callPerImage(OpBuilder &b, Location loc, LLVM::LLVMFuncOp fn,
                         const ModelInterface &model, int64_t images,
                         Block *entry) {
  auto i64 = b.getI64Type();
  auto constant = [&](int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  Value zero = constant(0), one = constant(1), count = constant(images);
  if (model.parallelism == Parallelism::OpenMP) {
    auto parallel = omp::ParallelOp::create(b, loc, omp::ParallelOperands{});
    parallel->setAttr(kImageLoopAttr, b.getUnitAttr());
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&parallel.getRegion());
    auto wsloop = omp::WsloopOp::create(b, loc, omp::WsloopOperands{});
    omp::TerminatorOp::create(b, loc);
    b.createBlock(&wsloop.getRegion());
    omp::LoopNestOperands bounds;
    bounds.loopLowerBounds.push_back(zero);
    bounds.loopUpperBounds.push_back(count);
    bounds.loopSteps.push_back(one);
    auto nest = omp::LoopNestOp::create(b, loc, bounds);
    Block *body = b.createBlock(&nest.getRegion(), {}, {i64}, {loc});
    LLVM::CallOp::create(
        b, loc, fn,
        descriptorArgs(b, loc, model, entry, images, body->getArgument(0)));
    omp::YieldOp::create(b, loc, ValueRange{});
    return;
  }
  Region *region = entry->getParent();
  Block *loop = b.createBlock(region, region->end(), {i64}, {loc});
  Block *exit = b.createBlock(region, region->end());
  b.setInsertionPointToEnd(entry);
  LLVM::BrOp::create(b, loc, ValueRange{zero}, loop);
  b.setInsertionPointToStart(loop);
  Value image = loop->getArgument(0);
  LLVM::CallOp::create(b, loc, fn,
                       descriptorArgs(b, loc, model, entry, images, image));
  Value next = LLVM::AddOp::create(b, loc, image, one);
  Value done =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, next, count);
  LLVM::CondBrOp::create(b, loc, done, exit, ValueRange{}, loop,
                         ValueRange{next});
  b.setInsertionPointToStart(exit);
}

/// Fails with an error on the symbol of `module` named `name`, if any: the
/// names quantc gives the model's symbols must be free.
static LogicalResult checkSymbolFree(ModuleOp module, StringRef name) {
  if (Operation *other = module.lookupSymbol(name))
    return other->emitError()
           << "symbol '" << name
           << "' is taken; choose another prefix with --name";
  return success();
}

/// Adds `<name>_run(ptr..., ptr...) -> i32` calling the lowered model.
static LogicalResult addEntryPoint(ModuleOp module, const ModelInterface &model,
                                   int64_t images) {
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(model.function);
  if (!fn)
    return module.emitError() << "lowered model function '@"
                              << printable(model.function) << "' not found";
  size_t expected = 0;
  for (const auto *list : {&model.inputs, &model.outputs})
    for (const TensorInterface &t : *list)
      expected += 3 + 2 * t.shape.size();
  LLVM::LLVMFunctionType fnType = fn.getFunctionType();
  if (fnType.getNumParams() != expected ||
      !isa<LLVM::LLVMVoidType>(fnType.getReturnType()))
    return fn.emitError() << "unexpected signature of the lowered model "
                             "(expected memref descriptors of the inputs and "
                             "output buffers, no results): "
                          << fnType;

  // Only the entry point (and with threads its setter) is exported:
  // everything else becomes internal, the model under the name
  // renameModelFunction gave it (<name>_model).
  const std::string runName = model.name + "_run";
  const std::string setThreadsName = model.name + "_set_num_threads";
  const std::string threadsName = model.name + "_num_threads";
  const std::string isaName = model.name + "_int8_isa";
  const std::string metadataName = model.name + "_metadata";
  const std::string arrayName = model.name + "_runv";
  SmallVector<StringRef> names{runName, isaName, metadataName, arrayName};
  if (model.parallelism == Parallelism::OpenMP)
    names.append({setThreadsName, threadsName});
  for (StringRef name : names)
    if (failed(checkSymbolFree(module, name)))
      return failure();
  module.walk([](LLVM::LLVMFuncOp f) {
    if (!f.isExternal())
      f.setLinkage(LLVM::Linkage::Internal);
  });

  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = fn.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32);
  const size_t numArgs = model.inputs.size() + model.outputs.size();
  auto runType =
      LLVM::LLVMFunctionType::get(i32, SmallVector<Type>(numArgs, ptr));
  auto run = LLVM::LLVMFuncOp::create(b, loc, runName, runType);
  Block *entry = run.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  if (images > 1)
    callPerImage(b, loc, fn, model, images, entry);
  else
    LLVM::CallOp::create(b, loc, fn,
                         descriptorArgs(b, loc, model, entry, 1, Value()));
  LLVM::ReturnOp::create(b, loc,
                         ValueRange{LLVM::ConstantOp::create(
                             b, loc, i32, b.getI32IntegerAttr(0))});
  if (model.parallelism == Parallelism::OpenMP)
    addThreadCount(module, setThreadsName, threadsName, images);
  return success();
}

/// Renames the model function to `<name>_model` before anything derives
/// symbols from its name (outlined loop nests, OpenMP regions, the
/// one-image function): a model's function name (an ONNX graph name) may
/// hold any byte, and the object's symbols come from the C identifier
/// model.name only.
static LogicalResult renameModelFunction(ModuleOp module, func::FuncOp fn,
                                         StringRef implName) {
  if (fn.getSymName() == implName)
    return success();
  if (failed(checkSymbolFree(module, implName)))
    return failure();
  if (failed(SymbolTable::replaceAllSymbolUses(
          fn, StringAttr::get(module.getContext(), implName), module)))
    return fn.emitError() << "cannot rename the model function";
  SymbolTable::setSymbolName(fn, implName);
  return success();
}

LogicalResult quantc::lowerToLLVMDialect(ModuleOp module,
                                         const ModelInterface &described,
                                         const TargetVariant &variant,
                                         TimingScope *timing,
                                         bool verifyEachPass) {
  auto fn = module.lookupSymbol<func::FuncOp>(described.function);
  if (!fn)
    return module.emitError()
           << "no function '@" << printable(described.function) << "'";
  ModelInterface model = described;
  model.function = model.name + "_model";
  if (failed(renameModelFunction(module, fn, model.function)))
    return failure();
  // The caller's input buffers are const: bufferization copies rather than
  // writing into them.
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
    fn.setArgAttr(i, "bufferization.writable",
                  BoolAttr::get(module.getContext(), false));

  // A batch of images the model keeps apart: the one-image function.
  PassManager batchPm(module.getContext());
  if (timing)
    batchPm.enableTiming(*timing);
  batchPm.addPass(createBatchAsImages(BatchAsImagesOptions{model.function}));
  if (model.batchAsImages && failed(batchPm.run(module)))
    return failure();
  auto imagesAttr = fn->getAttrOfType<IntegerAttr>(kImagesAttr);
  int64_t images = imagesAttr ? imagesAttr.getInt() : 1;

  PassManager pm(module.getContext());
  if (timing)
    pm.enableTiming(*timing);
  pm.enableVerifier(verifyEachPass);
  buildInt8ToLLVMPipeline(pm, toString(variant.isa), {model.parallelism, 0},
                          variant.amxPortableTwin);
  if (failed(pm.run(module)) || failed(verify(module)))
    return failure();
  stripBufferizationAttrs(module);
  return addEntryPoint(module, model, images);
}
