//===- Header.cpp - A model's C interface and its header ------------------===//

#include "quantc/Target/Compile.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "dialects/Qnt/IR/QuantParams.h"
#include "quantc/Runtime/Samples.h"
#include "quantc/Support/Fail.h"
#include "quantc/Support/Text.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace quantc;

int64_t TensorInterface::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

static std::optional<TensorQuantization> quantizationOf(Type type) {
  std::optional<qnt::QuantParams> p = qnt::quantParams(type);
  if (!p || p->axis)
    return std::nullopt;
  TensorQuantization result;
  result.storage = (p->isSigned ? "i" : "u") + std::to_string(p->storageWidth);
  if (!p->fullRange())
    result.storage +=
        "<" + std::to_string(p->qmin) + ":" + std::to_string(p->qmax) + ">";
  result.scale = p->scales[0];
  result.zeroPoint = p->zeroPoints[0];
  return result;
}

static bool hasQuantizedType(Operation *op) {
  auto quantized = [](Type t) {
    if (auto shaped = dyn_cast<ShapedType>(t))
      t = shaped.getElementType();
    return isa<quant::QuantizedType>(t);
  };
  return llvm::any_of(op->getOperandTypes(), quantized) ||
         llvm::any_of(op->getResultTypes(), quantized);
}

std::string quantc::cIdentifierFromPath(StringRef path) {
  return cIdentifier(llvm::sys::path::stem(path));
}

/// Whether `name` upper-cased starts like an identifier C reserves (`__`,
/// `_` and a capital): the header's guard <NAME>_H and its macros would
/// be reserved names, and could be a system header's guard (_STDINT_H).
static bool reservedWhenUpper(StringRef name) {
  return name.size() >= 2 && name[0] == '_' &&
         (llvm::isAlpha(name[1]) || name[1] == '_');
}

llvm::Expected<std::string> quantc::modelName(StringRef function,
                                              StringRef name, StringRef path) {
  std::string chosen = name.str();
  if (chosen.empty())
    chosen = (isCIdentifier(function) && !reservedWhenUpper(function)) ||
                     path.empty()
                 ? function.str()
                 : cIdentifierFromPath(path);
  if (!isCIdentifier(chosen))
    return fail("'" + printable(chosen) +
                "' is not a C identifier; choose a symbol prefix with --name");
  if (reservedWhenUpper(chosen))
    return fail("'" + printable(chosen) +
                "' starts like a name C reserves ('__' or '_' and a letter, "
                "as its header's macros are upper case); choose a symbol "
                "prefix with --name");
  return chosen;
}

llvm::Expected<ModelInterface> quantc::describeModel(ModuleOp module,
                                                     StringRef function,
                                                     StringRef name,
                                                     StringRef path) {
  llvm::Expected<Operation *> found = findModelFunction(module, function);
  if (!found)
    return found.takeError();
  auto fn = cast<func::FuncOp>(*found);
  ModelInterface model;
  model.function = fn.getSymName().str();
  llvm::Expected<std::string> chosen = modelName(model.function, name, path);
  if (!chosen)
    return chosen.takeError();
  model.name = std::move(*chosen);

  llvm::Expected<ModelSignature> signature = modelSignature(fn);
  if (!signature)
    return signature.takeError();
  // Layouts the model states (the ONNX importer does), by position.
  auto layouts = [&](StringRef attr, size_t count) {
    std::vector<std::string> names(count);
    if (auto array = fn->getAttrOfType<ArrayAttr>(attr))
      for (auto [i, entry] : llvm::enumerate(array.getValue()))
        if (auto str = dyn_cast<StringAttr>(entry); str && i < count)
          names[i] = str.str();
    return names;
  };
  std::vector<std::string> inputLayouts =
      layouts(kInputLayoutsAttr, fn.getNumArguments());
  std::vector<std::string> outputLayouts =
      layouts(kOutputLayoutsAttr, fn.getNumResults());
  auto describe = [](const ModelTensor &tensor, const std::string &stated) {
    TensorInterface t;
    t.name = tensor.name;
    t.shape = tensor.shape;
    t.dtype = tensor.dtype;
    t.layout = !stated.empty()            ? stated
               : tensor.shape.size() == 4 ? "NHWC"
                                          : "row-major";
    return t;
  };
  for (BlockArgument arg : fn.getArguments()) {
    unsigned i = arg.getArgNumber();
    TensorInterface t = describe(signature->inputs[i], inputLayouts[i]);
    for (Operation *user : arg.getUsers())
      if (auto qcast = dyn_cast<quant::QuantizeCastOp>(user)) {
        t.quantization = quantizationOf(qcast.getResult().getType());
        break;
      }
    model.inputs.push_back(std::move(t));
  }
  Operation *terminator = fn.getBody().front().getTerminator();
  for (auto [i, result] : llvm::enumerate(terminator->getOperands())) {
    TensorInterface t = describe(signature->outputs[i], outputLayouts[i]);
    if (auto dcast = result.getDefiningOp<quant::DequantizeCastOp>())
      t.quantization = quantizationOf(dcast.getInput().getType());
    model.outputs.push_back(std::move(t));
  }
  // A function of one image of a batch (quantc-batch-as-images): the
  // interface holds the whole batch.
  if (auto images = fn->getAttrOfType<IntegerAttr>(kImagesAttr))
    for (auto *list : {&model.inputs, &model.outputs})
      for (TensorInterface &t : *list)
        t.shape.front() *= images.getInt();
  model.quantized = module
                        .walk([](Operation *op) {
                          return hasQuantizedType(op) ? WalkResult::interrupt()
                                                      : WalkResult::advance();
                        })
                        .wasInterrupted();
  return model;
}

/// The C type of an element of `t` (the header's pointer type).
static std::string cType(const TensorInterface &t) {
  if (t.dtype == "float32")
    return "float";
  if (t.dtype == "bool")
    return "uint8_t";
  return t.dtype + "_t";
}

int64_t TensorInterface::elementBytes() const {
  if (dtype == "float32")
    return 4;
  if (dtype == "bool")
    return 1;
  llvm::StringRef bits = llvm::StringRef(dtype).drop_front(
      llvm::StringRef(dtype).starts_with("u") ? 4 : 3);
  return std::stoi(bits.str()) / 8;
}

static std::string shapeList(const std::vector<int64_t> &shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s;
}

std::string quantc::modelMetadata(const ModelInterface &model,
                                  const CompileTarget &target) {
  auto tensors = [](const std::vector<TensorInterface> &list) {
    llvm::json::Array array;
    for (const TensorInterface &t : list) {
      llvm::json::Object o{{"name", validUtf8(t.name)},
                           {"shape", llvm::json::Array(t.shape)},
                           {"layout", validUtf8(t.layout)},
                           {"dtype", validUtf8(t.dtype)}};
      if (t.quantization)
        o["quantization"] =
            llvm::json::Object{{"storage", t.quantization->storage},
                               {"scale", t.quantization->scale},
                               {"zero_point", t.quantization->zeroPoint}};
      array.push_back(std::move(o));
    }
    return array;
  };
  llvm::json::Array isas;
  for (const TargetVariant &v : target.variants)
    isas.push_back(toString(v.isa).str());
  llvm::json::Object root{{"name", validUtf8(model.name)},
                          {"function", validUtf8(model.function)},
                          {"triple", validUtf8(target.triple)},
                          {"int8_isas", std::move(isas)},
                          {"quantized", model.quantized},
                          {"threads", model.parallelism == Parallelism::OpenMP},
                          {"inputs", tensors(model.inputs)},
                          {"outputs", tensors(model.outputs)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(root));
  return text;
}

std::vector<std::string> quantc::runtimeLibraries(const ModelInterface &model) {
  if (model.parallelism != Parallelism::OpenMP)
    return {"-lm"};
  return {"-L" QUANTC_OMP_LIBRARY_DIR, "-Wl,-rpath," QUANTC_OMP_LIBRARY_DIR,
          "-lomp", "-lm"};
}

/// Whether objects for `target` run here (the header's link line names this
/// machine's libomp only then).
static bool isHost(const CompileTarget &target) {
  return llvm::Triple(target.triple).getArch() ==
         llvm::Triple(llvm::sys::getDefaultTargetTriple()).getArch();
}

/// One line of the header comment per tensor: name, type, shape, layout,
/// and the quantization inside. The name and the layout come from the
/// model, hence cComment.
static void describeTensor(llvm::raw_ostream &os, const TensorInterface &t,
                           const char *kind, size_t i, bool isInput) {
  os << " *   " << kind << i;
  if (!t.name.empty())
    os << " (\"" << cComment(t.name) << "\")";
  os << ": " << cComment(t.dtype) << "[" << shapeList(t.shape) << "], "
     << cComment(t.layout) << ", " << t.numElements()
     << (t.dtype == "float32" ? " floats"
                              : " values (" + cComment(cType(t)) + ")")
     << "\n";
  if (t.quantization)
    os << " *     " << (isInput ? "quantized inside to " : "dequantized from ")
       << cComment(t.quantization->storage) << ", scale "
       << llvm::format("%.9g", t.quantization->scale) << ", zero point "
       << t.quantization->zeroPoint << "\n";
}

/// A list of CPU features, wrapped after `column`.
static void featureList(llvm::raw_ostream &os, ArrayRef<std::string> features,
                        size_t column) {
  for (const std::string &feature : features) {
    std::string f = cComment(feature);
    if (column + f.size() + 1 > 78) {
      os << "\n *     ";
      column = 7;
    }
    os << " " << f;
    column += f.size() + 1;
  }
  os << "\n";
}

/// The header comment's target: the triple, then the CPU and features of
/// the one variant or the list of variants.
static void describeTarget(llvm::raw_ostream &os, const CompileTarget &target) {
  os << " * Target: " << cComment(target.triple);
  const std::vector<TargetVariant> &variants = target.variants;
  if (!target.dispatches()) {
    const TargetVariant &v = variants.front();
    os << ", cpu " << cComment(v.cpu);
    if (!v.features.empty())
      os << ", features " << cComment(v.features);
    os << ", int8 kernels: " << toString(v.isa) << "\n";
    if (!v.cpuFeatures.empty()) {
      os << " * Needs CPU features:";
      featureList(os, v.cpuFeatures, 26);
    }
    return;
  }
  os << "\n * Variants for " << variants.size()
     << " instruction sets; the first call chooses the first one\n"
     << " * whose CPU features the CPU has:\n";
  for (const TargetVariant &v : variants) {
    std::string head =
        " *   " + toString(v.isa).str() + " (cpu " + cComment(v.cpu) +
        (v.features.empty() ? "" : " " + cComment(v.features)) + ")";
    os << head;
    if (v.cpuFeatures.empty()) {
      os << ": any CPU\n";
      continue;
    }
    os << ", needs";
    featureList(os, v.cpuFeatures, head.size() + 7);
  }
}

/// The header comment's functions: _run, _runv, _metadata, _int8_isa.
static void describeFunctions(llvm::raw_ostream &os,
                              const ModelInterface &model,
                              const CompileTarget &target) {
  bool anyCpu = target.variants.back().cpuFeatures.empty();
  os << " *\n"
     << " * int " << model.name << "_run(inputs..., outputs...) runs the model "
     << "once; returns 0.\n"
     << " * int " << model.name
     << "_runv(inputs[], outputs[]) does the same with arrays of "
        "pointers.\n";
  if (!anyCpu)
    os << " * On a CPU without " << (target.dispatches() ? "any of " : "")
       << "the features above it returns 1 and runs nothing\n"
       << " * (checked once, at the first call).\n";
  bool tiles = llvm::any_of(target.variants, [](const TargetVariant &v) {
    return llvm::is_contained(v.cpuFeatures, "amx-tile");
  });
  if (tiles && llvm::Triple(target.triple).isOSLinux())
    os << " * Before taking a variant with AMX tiles, that call asks Linux for "
          "the\n"
       << " * tile state (arch_prctl ARCH_REQ_XCOMP_PERM: process-wide, signal "
          "frames\n"
       << " * grow to about 12 KB); if refused, "
       << (target.dispatches() ? "the next variant runs" : "it returns 1")
       << ".\n";
  os << " * const char *" << model.name
     << "_metadata(void): this interface as JSON (names, shapes, layouts,\n"
     << " * quantization, instruction sets, threads), for loaders.\n"
     << " * const char *" << model.name
     << "_int8_isa(void) names the int8 kernels this CPU runs\n"
     << " * (NULL when it returns 1).";
  if (target.dispatches())
    os << " " << kInt8IsaVariable
       << "=<name> in the environment takes that variant\n"
       << " * instead, if this CPU has its features (e.g. to measure what "
          "an older CPU\n"
       << " * gets).";
  os << "\n";
}

/// The header comment's arguments: buffers, integer outputs, quantization.
static void describeArguments(llvm::raw_ostream &os,
                              const ModelInterface &model, bool anyInteger) {
  os << " * Arguments: dense (C-order) float32 buffers of the shapes below, "
        "whose\n"
     << " * dimensions mean what the layout after each shape says (a model "
        "imported\n"
     << " * from ONNX keeps ONNX's NCHW), the inputs then the outputs, in "
        "model order.\n";
  if (anyInteger)
    os << " * Integer outputs (ArgMax indices, Casts to integer types) are "
          "buffers of\n"
       << " * their C type, whose values the model computes as float32 "
          "integers\n"
       << " * (exact below 2^24); " << model.name
       << "_runv takes them as void pointers.\n";
  if (model.quantized)
    os << " * Inputs are quantized inside; outputs are dequantized from "
          "8 bits (the\n"
       << " * model's quant.qcast / quant.dcast; parameters below, for "
          "information)\n"
       << " * or, without parameters below, computed in float by the layer "
          "that\n"
       << " * produces them.\n";
  else
    os << " * The model is float32 throughout.\n";
}

/// The header comment's threads, reentrancy and link line.
static void describeRuntime(llvm::raw_ostream &os, const ModelInterface &model,
                            const CompileTarget &target) {
  if (model.parallelism == Parallelism::OpenMP) {
    os << " * Threads: the parallel loops run on OpenMP threads (LLVM's "
          "libomp).\n"
       << " * void " << model.name
       << "_set_num_threads(int n) sets the threads of later runs\n"
       << " * (every caller; n <= 0: the OpenMP default, OMP_NUM_THREADS or "
          "one per\n"
       << " * CPU). Reentrant: the thread count"
       << " and the kernels' choice (atomic ints) are"
       << " the only\n"
       << " * global mutable state; concurrent runs each get their own "
          "threads. Weights are\n"
       << " * read-only data in the object; intermediate buffers are "
          "allocated (malloc)\n"
       << " * and freed within each call, so no workspace is needed. Needs "
          "libc, libm\n"
       << " * and libomp (Debian: libomp-22-dev):\n";
    if (isHost(target))
      os << " *   cc driver.c " << model.name << ".o -L"
         << QUANTC_OMP_LIBRARY_DIR << " -Wl,-rpath," << QUANTC_OMP_LIBRARY_DIR
         << " -lomp -lm\n";
    else
      os << " *   cc driver.c " << model.name
         << ".o -L<the target's libomp directory> -lomp -lm\n";
    os << " *\n";
    return;
  }
  os << " * Reentrant: the kernels' choice (an atomic int) is the "
        "only global\n * mutable state."
     << " Weights are read-only data in the\n"
     << " * object; intermediate buffers are allocated (malloc) and freed "
        "within each\n"
     << " * call, so no workspace is needed. Single-threaded (compiled "
        "with\n"
     << " * --parallel=none). Needs libc and libm only:\n"
     << " *   cc driver.c " << model.name << ".o -lm\n"
     << " *\n";
}

/// <NAME>_INPUT<i>_RANK / _SHAPE (/ _SCALE / _ZERO_POINT) for each tensor.
static void shapeMacros(llvm::raw_ostream &os, StringRef upper,
                        const std::vector<TensorInterface> &ts,
                        const char *kind) {
  for (auto [i, t] : llvm::enumerate(ts)) {
    std::string prefix =
        upper.str() + "_" + llvm::StringRef(kind).upper() + std::to_string(i);
    os << "#define " << prefix << "_RANK " << t.shape.size() << "\n"
       << "#define " << prefix << "_SHAPE {" << shapeList(t.shape) << "}\n";
    if (t.quantization)
      os << "#define " << prefix << "_SCALE "
         << llvm::format("%.9g", t.quantization->scale) << "f\n"
         << "#define " << prefix << "_ZERO_POINT " << t.quantization->zeroPoint
         << "\n";
  }
}

/// <NAME>_INPUT_SIZES / _RANKS / _SHAPES: the same by index.
static void indexMacros(llvm::raw_ostream &os, StringRef upper,
                        const std::vector<TensorInterface> &ts,
                        const char *kind) {
  std::string prefix = upper.str() + "_" + llvm::StringRef(kind).upper();
  std::vector<int64_t> sizes, ranks, shapes;
  for (const TensorInterface &t : ts) {
    sizes.push_back(t.numElements());
    ranks.push_back(t.shape.size());
    llvm::append_range(shapes, t.shape);
  }
  os << "#define " << prefix << "_SIZES {" << shapeList(sizes) << "}\n"
     << "#define " << prefix << "_RANKS {" << shapeList(ranks) << "}\n"
     << "#define " << prefix << "_SHAPES {" << shapeList(shapes) << "}\n";
}

/// The outputs' element types: NumPy dtype names and bytes per element (for
/// drivers that allocate and save them; run_model.c does).
static void outputTypeMacros(llvm::raw_ostream &os, StringRef upper,
                             const ModelInterface &model) {
  std::string prefix = upper.str() + "_OUTPUT";
  std::vector<int64_t> bytes;
  os << "#define " << prefix << "_DTYPES {";
  for (auto [i, t] : llvm::enumerate(model.outputs)) {
    os << (i ? ", " : "") << "\"" << cStringLiteralBody(t.dtype) << "\"";
    bytes.push_back(t.elementBytes());
  }
  os << "}\n"
     << "#define " << prefix << "_ELEMENT_BYTES {" << shapeList(bytes) << "}\n";
}

/// The enum of tensor counts and sizes, and the function prototypes.
static void declarations(llvm::raw_ostream &os, StringRef upper,
                         const ModelInterface &model, bool anyInteger) {
  os << "\nenum {\n"
     << "  " << model.name << "_num_inputs = " << model.inputs.size() << ",\n"
     << "  " << model.name << "_num_outputs = " << model.outputs.size()
     << ",\n";
  for (auto [i, t] : llvm::enumerate(model.inputs))
    os << "  " << model.name << "_input" << i << "_size = " << t.numElements()
       << ",\n";
  for (auto [i, t] : llvm::enumerate(model.outputs))
    os << "  " << model.name << "_output" << i << "_size = " << t.numElements()
       << ",\n";
  os << "};\n\n";

  os << "int " << model.name << "_run(";
  bool first = true;
  for (size_t i = 0; i < model.inputs.size(); ++i, first = false)
    os << (first ? "" : ", ") << "const float *input" << i;
  for (size_t i = 0; i < model.outputs.size(); ++i, first = false)
    os << (first ? "" : ", ") << cType(model.outputs[i]) << " *output" << i;
  if (first)
    os << "void";
  os << ");\n"
     << "int " << model.name << "_runv(const float *const inputs[], "
     << (anyInteger ? "void" : "float") << " *const outputs[]);\n"
     << "const char *" << model.name << "_int8_isa(void);\n"
     << "const char *" << model.name << "_metadata(void);\n";
  if (model.parallelism == Parallelism::OpenMP)
    os << "\n/* Threads of later runs (n <= 0: the OpenMP default). */\n"
       << "#define " << upper << "_HAS_THREADS 1\n"
       << "void " << model.name << "_set_num_threads(int n);\n";
}

void quantc::emitHeader(const ModelInterface &model,
                        const CompileTarget &target, StringRef source,
                        llvm::raw_ostream &os) {
  const std::string upper = llvm::StringRef(model.name).upper();
  const bool anyInteger =
      llvm::any_of(model.outputs, [](const TensorInterface &t) {
        return t.dtype != "float32";
      });
  os << "/* The C interface of " << model.name
     << "_run, generated by quant-compile; do not edit.\n"
     << " *\n"
     << " * Model: function @" << cComment(model.function) << " of "
     << cComment(source) << "\n";
  describeTarget(os, target);
  describeFunctions(os, model, target);
  describeArguments(os, model, anyInteger);
  describeRuntime(os, model, target);
  for (auto [i, t] : llvm::enumerate(model.inputs))
    describeTensor(os, t, "input", i, true);
  for (auto [i, t] : llvm::enumerate(model.outputs))
    describeTensor(os, t, "output", i, false);
  os << " */\n\n";

  os << "#ifndef " << upper << "_H\n#define " << upper << "_H\n\n"
     << (anyInteger ? "#include <stdint.h>\n\n" : "")
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  shapeMacros(os, upper, model.inputs, "input");
  shapeMacros(os, upper, model.outputs, "output");
  os << "\n/* By index, for loops over the tensors (with " << model.name
     << "_runv): element\n * counts, ranks, and the shapes one after "
        "another. */\n";
  indexMacros(os, upper, model.inputs, "input");
  indexMacros(os, upper, model.outputs, "output");
  outputTypeMacros(os, upper, model);
  declarations(os, upper, model, anyInteger);
  os << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << upper << "_H */\n";
}
