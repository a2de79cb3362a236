//===- header-fuzzer.cpp - libFuzzer target: the generated C header -------===//
//
// Every name a model or a command line gives the header (the function, the
// inputs and outputs, their layouts, the source path, the output path the
// symbol prefix may come from, the CPU and its features) comes from the
// fuzz input (FuzzedDataProvider: any bytes, NUL included); the tensors'
// count, shapes, types, quantization and the threading are drawn too.
// quantc::emitHeader writes the header, and a C compiler (gcc, or
// $QUANTC_FUZZ_CC; run with posix_spawn in a private temporary directory)
// checks it:
//   - it compiles: -fsyntax-only -std=c99 -Wall -Werror (ISO C enables
//     trigraphs; -Wall's -Wcomment refuses a `/*` inside a comment);
//   - it declares exactly <name>_run, _runv, _int8_isa, _metadata (and
//     _set_num_threads with threads) and defines no function (gcc
//     -aux-info lists every function declared or defined);
//   - preprocessed (-E -P -dD: comments gone, macros kept), it is the same
//     text as the header of the same model with harmless names: names may
//     change comments only.
// And the metadata JSON parses back with each name (invalid UTF-8 as
// U+FFFD). Anything else is a finding: the header and the compiler's
// messages are printed, then abort().
//
//   scripts/fuzz.sh [minutes] header
//
//===----------------------------------------------------------------------===//

#include "quantc/Support/Text.h"
#include "quantc/Target/Compile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace {

/// The private directory of this process's files, removed at exit (a
/// plain array: the exit handler runs after static objects are destroyed).
char privateDir[4096];

std::string workDir() {
  if (!privateDir[0]) {
    const char *tmp = std::getenv("TMPDIR");
    std::snprintf(privateDir, sizeof(privateDir),
                  "%s/quantc-header-fuzzer.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(privateDir)) {
      std::perror("header-fuzzer: mkdtemp");
      std::abort();
    }
    std::atexit([] {
      char path[sizeof(privateDir) + 16];
      for (const char *f : {"/h.h", "/aux.txt", "/log.txt", "/pp.txt"}) {
        std::snprintf(path, sizeof(path), "%s%s", privateDir, f);
        std::remove(path);
      }
      rmdir(privateDir);
    });
  }
  return privateDir;
}

std::string compiler() {
  const char *cc = std::getenv("QUANTC_FUZZ_CC");
  return cc && *cc ? cc : "gcc";
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) {
    std::fprintf(stderr, "header-fuzzer: cannot write %s\n", path.c_str());
    std::abort();
  }
}

/// Runs the compiler with `args` (stdout and stderr into log.txt); its
/// exit status.
int runCompiler(const std::vector<std::string> &args) {
  std::vector<std::string> argv{compiler()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char *> raw;
  for (std::string &a : argv)
    raw.push_back(a.data());
  raw.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  std::string log = workDir() + "/log.txt";
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid;
  int rc = posix_spawnp(&pid, raw[0], &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    std::fprintf(stderr, "header-fuzzer: cannot run %s\n", raw[0]);
    std::abort();
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    ;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

[[noreturn]] void finding(const std::string &what, const std::string &header) {
  std::fprintf(stderr,
               "header-fuzzer: %s\n--- header ---\n%s\n--- %s says ---\n%s\n",
               what.c_str(), header.c_str(), compiler().c_str(),
               readFile(workDir() + "/log.txt").c_str());
  std::abort();
}

/// The functions the header declares (gcc -aux-info), or a finding where
/// it defines one.
std::set<std::string> declaredFunctions(const std::string &header) {
  std::string path = workDir() + "/h.h", aux = workDir() + "/aux.txt";
  writeFile(path, header);
  std::remove(aux.c_str());
  if (runCompiler({"-fsyntax-only", "-std=c99", "-Wall", "-Werror", "-aux-info",
                   aux, "-x", "c", path}) != 0)
    finding("the header does not compile", header);
  std::set<std::string> names;
  std::istringstream lines(readFile(aux));
  for (std::string line; std::getline(lines, line);) {
    llvm::StringRef l(line);
    if (l.starts_with("/* compiled from"))
      continue;
    size_t flags = l.find("*/");
    if (flags == llvm::StringRef::npos || flags < 3 || l[flags - 2] != 'C')
      finding("the header defines a function: " + line, header);
    size_t paren = l.find(" (", flags);
    llvm::StringRef head = l.take_front(paren).rtrim();
    size_t start = head.find_last_not_of(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    names.insert(head.drop_front(start + 1).str());
  }
  return names;
}

/// The header without its comments: preprocessed, macros kept, blank
/// lines dropped (comments of different lengths leave different ones).
std::string preprocessed(const std::string &header) {
  std::string path = workDir() + "/h.h", out = workDir() + "/pp.txt";
  writeFile(path, header);
  if (runCompiler(
          {"-E", "-P", "-dD", "-std=c99", "-x", "c", path, "-o", out}) != 0)
    finding("the header does not preprocess", header);
  std::string text;
  std::istringstream lines(readFile(out));
  for (std::string line; std::getline(lines, line);)
    if (!llvm::StringRef(line).trim().empty())
      text += line + "\n";
  return text;
}

/// The metadata's tensors carry the names and layouts, as JSON strings.
void checkMetadata(const quantc::ModelInterface &model,
                   const quantc::CompileTarget &target,
                   const std::string &header) {
  std::string text = quantc::modelMetadata(model, target);
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    finding("the metadata is not JSON: " + llvm::toString(parsed.takeError()),
            header);
  const llvm::json::Object *root = parsed->getAsObject();
  for (auto [key, list] : {std::pair("inputs", &model.inputs),
                           std::pair("outputs", &model.outputs)}) {
    const llvm::json::Array *array = root->getArray(key);
    if (!array || array->size() != list->size())
      finding("the metadata lists the wrong tensors", header);
    for (auto [i, t] : llvm::enumerate(*list)) {
      const llvm::json::Object *o = (*array)[i].getAsObject();
      if (o->getString("name") != quantc::validUtf8(t.name) ||
          o->getString("layout") != quantc::validUtf8(t.layout))
        finding("the metadata changes a name or a layout", header);
    }
  }
}

/// A string of any bytes, up to `max`.
std::string anyString(FuzzedDataProvider &data, size_t max = 64) {
  return data.ConsumeRandomLengthString(max);
}

quantc::TensorInterface anyTensor(FuzzedDataProvider &data, bool output) {
  static const char *const dtypes[] = {"float32", "int64",  "int32",  "int16",
                                       "int8",    "uint64", "uint32", "uint16",
                                       "uint8",   "bool"};
  quantc::TensorInterface t;
  t.name = anyString(data);
  t.layout = anyString(data);
  size_t rank = data.ConsumeIntegralInRange<size_t>(0, 5);
  for (size_t i = 0; i < rank; ++i)
    t.shape.push_back(data.ConsumeIntegralInRange<int64_t>(1, 7));
  if (output)
    t.dtype = dtypes[data.ConsumeIntegralInRange<size_t>(0, 9)];
  if (data.ConsumeBool()) {
    quantc::TensorQuantization q;
    q.storage = data.ConsumeBool() ? "i8" : "u8<0:127>";
    q.scale = data.ConsumeFloatingPoint<double>();
    q.zeroPoint = data.ConsumeIntegral<int8_t>();
    t.quantization = q;
  }
  return t;
}

/// The same model with names that cannot mean anything to C.
quantc::ModelInterface harmless(quantc::ModelInterface model) {
  model.function = model.name;
  for (auto *list : {&model.inputs, &model.outputs})
    for (quantc::TensorInterface &t : *list)
      t.name = t.layout = "n";
  return model;
}

quantc::CompileTarget harmless(const quantc::CompileTarget &target) {
  quantc::CompileTarget copy;
  copy.triple = target.triple;
  copy.variants = target.variants;
  for (quantc::TargetVariant &v : copy.variants) {
    v.cpu = "c";
    v.features = v.features.empty() ? "" : "f";
    for (std::string &f : v.cpuFeatures)
      f = "f";
  }
  return copy;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  FuzzedDataProvider data(bytes, size);
  quantc::ModelInterface model;
  model.function = anyString(data);
  std::string output = anyString(data), symbolName = anyString(data, 16);
  std::string source = anyString(data);
  llvm::Expected<std::string> name =
      quantc::modelName(model.function, symbolName, output);
  if (!name) {
    llvm::consumeError(name.takeError());
    return 0; // describeModel refuses it
  }
  model.name = std::move(*name);
  model.parallelism = data.ConsumeBool() ? quantc::Parallelism::OpenMP
                                         : quantc::Parallelism::None;
  size_t inputs = data.ConsumeIntegralInRange<size_t>(1, 3);
  size_t outputs = data.ConsumeIntegralInRange<size_t>(1, 3);
  for (size_t i = 0; i < inputs; ++i)
    model.inputs.push_back(anyTensor(data, false));
  for (size_t i = 0; i < outputs; ++i)
    model.outputs.push_back(anyTensor(data, true));
  model.quantized = data.ConsumeBool();

  quantc::CompileTarget target;
  target.triple = data.ConsumeBool() ? "x86_64-unknown-linux-gnu"
                                     : "aarch64-unknown-linux-gnu";
  size_t variants = data.ConsumeIntegralInRange<size_t>(1, 3);
  for (size_t i = 0; i < variants; ++i) {
    quantc::TargetVariant v;
    v.isa = data.ConsumeBool() ? quantc::Int8Isa::Generic
                               : quantc::Int8Isa::AMXINT8;
    v.cpu = anyString(data, 16);
    v.features = anyString(data, 16);
    size_t features = data.ConsumeIntegralInRange<size_t>(0, 3);
    for (size_t f = 0; f < features; ++f)
      v.cpuFeatures.push_back(anyString(data, 16));
    target.variants.push_back(std::move(v));
  }

  std::string header, expected;
  {
    llvm::raw_string_ostream os(header);
    quantc::emitHeader(model, target, source, os);
    llvm::raw_string_ostream benign(expected);
    quantc::emitHeader(harmless(model), harmless(target), "s", benign);
  }
  std::set<std::string> want{model.name + "_run", model.name + "_runv",
                             model.name + "_int8_isa",
                             model.name + "_metadata"};
  if (model.parallelism == quantc::Parallelism::OpenMP)
    want.insert(model.name + "_set_num_threads");
  if (declaredFunctions(header) != want)
    finding("the header declares other functions than " + model.name +
                "_run, _runv, _int8_isa, _metadata (_set_num_threads)",
            header);
  if (preprocessed(header) != preprocessed(expected))
    finding("the names change the header outside its comments", header);
  checkMetadata(model, target, header);
  return 0;
}
