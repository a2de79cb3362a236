//===- Samples.cpp - Model inputs read from .npy / .npz files -------------===//

#include "quantc/Runtime/Samples.h"
#include "quantc/Support/Fail.h"
#include "quantc/Support/Text.h"

#include "quantc/ModelAttributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cmath>

using namespace mlir;
using llvm::Error;
using llvm::Expected;

using quantc::fail;
using quantc::printable;

int64_t quantc::ModelTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t quantc::ModelTensor::elementBytes() const {
  if (dtype == "float32")
    return 4;
  if (dtype == "bool")
    return 1;
  StringRef bits = StringRef(dtype).drop_front(dtype[0] == 'u' ? 4 : 3);
  return std::stoi(bits.str()) / 8;
}

Expected<Operation *> quantc::findModelFunction(ModuleOp module,
                                                StringRef name) {
  func::FuncOp found;
  int matches = 0;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isDeclaration())
      continue;
    if (!name.empty() ? fn.getSymName() == name : fn.isPublic()) {
      found = fn;
      ++matches;
    }
  }
  if (!found)
    return fail(name.empty()
                    ? "the module has no public function"
                    : "no function '" + printable(name) + "' in the module");
  if (matches > 1)
    return fail("the module has several public functions; choose one with "
                "--function");
  return found.getOperation();
}

Expected<quantc::ModelSignature> quantc::modelSignature(Operation *function) {
  auto fn = cast<func::FuncOp>(function);
  auto staticF32 = [](Type t) {
    auto ranked = dyn_cast<RankedTensorType>(t);
    return ranked && ranked.hasStaticShape() && ranked.getElementType().isF32()
               ? ranked
               : RankedTensorType();
  };
  ModelSignature signature;
  auto inputNames = fn->getAttrOfType<ArrayAttr>(kInputNamesAttr);
  for (BlockArgument arg : fn.getArguments()) {
    RankedTensorType type = staticF32(arg.getType());
    if (!type)
      return fail("input " + llvm::Twine(arg.getArgNumber()) + " of '@" +
                  printable(fn.getSymName()) +
                  "' must be a statically shaped f32 tensor");
    ModelTensor t;
    t.shape.assign(type.getShape().begin(), type.getShape().end());
    unsigned i = arg.getArgNumber();
    if (auto name = inputNames && i < inputNames.size()
                        ? dyn_cast<StringAttr>(inputNames[i])
                        : StringAttr())
      t.name = name.str();
    else if (auto loc = dyn_cast<NameLoc>(arg.getLoc()))
      t.name = loc.getName().str();
    signature.inputs.push_back(std::move(t));
  }
  auto outputNames = fn->getAttrOfType<ArrayAttr>(kOutputNamesAttr);
  auto outputDtypes = fn->getAttrOfType<ArrayAttr>(kOutputDtypesAttr);
  for (auto [i, type] : llvm::enumerate(fn.getResultTypes())) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    Type element = ranked ? ranked.getElementType() : Type();
    unsigned width = element && element.isSignlessInteger()
                         ? element.getIntOrFloatBitWidth()
                         : 0;
    if (!ranked || !ranked.hasStaticShape() ||
        !(element.isF32() || llvm::is_contained({8u, 16u, 32u, 64u}, width)))
      return fail("result " + llvm::Twine(i) + " of '@" +
                  printable(fn.getSymName()) +
                  "' must be a statically shaped f32, i8, i16, i32 or i64 "
                  "tensor");
    ModelTensor t;
    t.shape.assign(ranked.getShape().begin(), ranked.getShape().end());
    if (width)
      t.dtype = "int" + std::to_string(width);
    if (outputDtypes && i < outputDtypes.size())
      if (auto dtype = dyn_cast<StringAttr>(outputDtypes[i])) {
        ModelTensor stated;
        stated.dtype = dtype.str();
        static constexpr llvm::StringLiteral known[] = {
            "float32", "int64",  "int32",  "int16", "int8",
            "uint64",  "uint32", "uint16", "uint8", "bool"};
        if (!llvm::is_contained(known, stated.dtype) ||
            stated.isFloat() != element.isF32() ||
            (width && stated.elementBytes() * 8 != width))
          return fail("result " + llvm::Twine(i) + " of '@" +
                      printable(fn.getSymName()) + "' is " +
                      (width ? "i" + std::to_string(width) : "f32") +
                      ", which cannot hold dtype '" + stated.dtype + "'");
        t.dtype = stated.dtype;
      }
    if (outputNames && i < outputNames.size())
      if (auto name = dyn_cast<StringAttr>(outputNames[i]))
        t.name = name.str();
    signature.outputs.push_back(std::move(t));
  }
  return signature;
}

/// Input `i` in messages: "'name'", or for an unnamed input its number,
/// after `word` ("input 1").
static std::string label(ArrayRef<quantc::ModelTensor> inputs, size_t i,
                         StringRef word) {
  if (!inputs[i].name.empty())
    return "'" + printable(inputs[i].name) + "'";
  return (word.empty() ? "" : (word + " ").str()) + std::to_string(i);
}

/// "'a', 'b'" (or "input 0, input 1" for unnamed inputs).
static std::string describeInputs(ArrayRef<quantc::ModelTensor> inputs) {
  std::string text;
  for (size_t i = 0; i < inputs.size(); ++i)
    text += (i ? ", " : "") + label(inputs, i, "input");
  return text;
}

std::vector<const float *> quantc::ModelSamples::run(int64_t r) const {
  std::vector<const float *> pointers;
  for (const NpyArray &a : inputs)
    pointers.push_back(a.data.data() + r * (a.data.size() / runs));
  return pointers;
}

/// Whether the .npz key `key` names input `i` of `inputs`.
static bool names(StringRef key, ArrayRef<quantc::ModelTensor> inputs,
                  size_t i) {
  if (!inputs[i].name.empty() && key == inputs[i].name)
    return true;
  return key == "arr_" + std::to_string(i) ||
         key == "input" + std::to_string(i);
}

Expected<quantc::ModelSamples>
quantc::readModelSamples(StringRef file, ArrayRef<ModelTensor> inputs) {
  ModelSamples samples;
  samples.source = file.str();
  if (inputs.empty())
    return fail(file + ": the model has no inputs to feed");
  if (llvm::sys::path::extension(file) == ".npz") {
    Expected<std::vector<NamedArray>> arrays = readNpz(file);
    if (!arrays)
      return arrays.takeError();
    std::vector<std::optional<NpyArray>> matched(inputs.size());
    for (NamedArray &a : *arrays) {
      std::optional<size_t> input;
      for (size_t i = 0; i < inputs.size() && !input; ++i)
        if (names(a.name, inputs, i))
          input = i;
      // An array under another name is an error even where it is the only
      // one for a one-input model: a name that names nothing is a mistake
      // (another model's data, a renamed input), as the README says.
      if (!input)
        return fail(
            file + ": array '" + printable(a.name) +
            "' names no model input (the inputs: " + describeInputs(inputs) +
            "; positional names arr_0, arr_1, ... also work)");
      if (matched[*input])
        return fail(file + ": two arrays for the model input " +
                    label(inputs, *input, ""));
      matched[*input] = std::move(a.array);
    }
    for (auto [i, m] : llvm::enumerate(matched)) {
      if (!m)
        return fail(file + ": no array for the model input " +
                    label(inputs, i, "") + " (the archive's arrays: " +
                    llvm::join(llvm::map_range(*arrays,
                                               [](const NamedArray &a) {
                                                 return "'" +
                                                        printable(a.name) + "'";
                                               }),
                               ", ") +
                    ")");
      samples.inputs.push_back(std::move(*m));
    }
  } else {
    if (inputs.size() != 1)
      return fail(file + ": the model has " + llvm::Twine(inputs.size()) +
                  " inputs (" + describeInputs(inputs) +
                  "); give .npz archives with one array per input name "
                  "(numpy.savez(path, name=array, ...))");
    Expected<NpyArray> array = readNpy(file);
    if (!array)
      return array.takeError();
    samples.inputs.push_back(std::move(*array));
  }

  for (auto [i, a] : llvm::enumerate(samples.inputs)) {
    std::string what =
        inputs.size() == 1
            ? file.str()
            : (file + " (input " + label(inputs, i, "") + ")").str();
    if (Error e = checkModelInputs(a, inputs[i].shape, what))
      return std::move(e);
    int64_t size = inputs[i].numElements();
    int64_t runs = size ? static_cast<int64_t>(a.data.size()) / size : 0;
    if (runs == 0)
      return fail(what + ": no samples (empty array)");
    if (i == 0)
      samples.runs = runs;
    else if (runs != samples.runs)
      return fail(file + ": the arrays hold different numbers of samples (" +
                  llvm::Twine(samples.runs) + " runs for " +
                  label(inputs, 0, "input") + ", " + llvm::Twine(runs) +
                  " for " + label(inputs, i, "input") + ")");
    for (size_t k = 0; k < a.data.size(); ++k)
      if (!std::isfinite(a.data[k]))
        return fail(what + ": sample " + llvm::Twine(k / size) +
                    " contains NaN or Inf; model inputs must be finite");
  }
  return samples;
}

Expected<std::vector<std::string>> quantc::expandSampleFiles(StringRef path) {
  if (!llvm::sys::fs::is_directory(path))
    return std::vector<std::string>{path.str()};
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
       it.increment(ec)) {
    StringRef ext = llvm::sys::path::extension(it->path());
    if (ext == ".npy" || ext == ".npz")
      files.push_back(it->path());
  }
  if (ec)
    return fail(path + ": " + ec.message());
  if (files.empty())
    return fail(path + ": no .npy or .npz files in the directory");
  llvm::sort(files);
  return files;
}

Error quantc::forEachSampleFile(
    ArrayRef<std::string> paths, ArrayRef<ModelTensor> inputs,
    llvm::function_ref<Error(const ModelSamples &, bool &stop)> body) {
  bool stop = false;
  for (const std::string &path : paths) {
    Expected<std::vector<std::string>> files = expandSampleFiles(path);
    if (!files)
      return files.takeError();
    for (const std::string &file : *files) {
      if (stop)
        return Error::success();
      Expected<ModelSamples> samples = readModelSamples(file, inputs);
      if (!samples)
        return samples.takeError();
      if (Error e = body(*samples, stop))
        return e;
    }
  }
  return Error::success();
}
