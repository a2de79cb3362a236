//===- onnx-node-tests.cpp - ONNX's backend node tests through quantc -----===//
//
//   onnx-node-tests [--check-docs] [--update-expected] [--write-docs]
//                   [--filter REGEX] [-j N] [-v]
//
// Runs ONNX's backend node tests (Debian's libonnx-testdata:
// <data>/node/test_*/model.onnx with test_data_set_*/input_<i>.pb and
// output_<i>.pb, TensorProtos) through the importer and the float JIT, in
// this process's children (one per test, so that a crash or a hang fails
// one test), and compares the outputs with ONNX's backend tolerance
// (|y - ref| <= 1e-7 + 1e-3 |ref|, NaN where the reference has NaN).
//
// A test is a test of every op type in its model; it runs when one of them
// has an import handler (a model that also holds an op without one fails,
// naming it: ONNX's expanded function tests). Inputs that are not
// floating-point tensors of rank >= 1 (int64 axes, shapes and indices, scalar
// bounds; the importer computes float16 / bfloat16 / double inputs in float32
// and they are fed so), and float inputs the importer asks to be constant
// (weights, Resize's scales: "input 'W' must be a constant"), are given to the
// model as initializers holding the test's values: quantc compiles a model with
// its weights for fixed shapes, and those inputs are what an exported model has
// as initializers.
//
// Every test that runs passes or is listed in expected-failures.txt with
// its reason: an unlisted failure, a listed test that passes and a listed
// test that no longer runs all fail the runner (--update-expected rewrites
// the list). --write-docs writes docs/onnx-ops.md (per op: the opsets of
// its handlers, int8 support, node tests passed); --check-docs fails when
// the committed file differs. Without the test data the runner exits 77
// (ctest: skipped).
//
//===----------------------------------------------------------------------===//

#include "OnnxTensor.h"

#include "dialects/Qnt/IR/QntOps.h"
#include "quantc/Import/OnnxImporter.h"
#include "quantc/InitAll.h"
#include "quantc/Pipelines/Pipelines.h"
#include "quantc/Runtime/CompiledModel.h"
#include "quantc/Support/OutputFile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <fcntl.h>
#include <map>
#include <set>
#include <signal.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace llvm;
using namespace mlir;

static cl::opt<std::string>
    dataDir("data-dir", cl::desc("The node tests' directory"),
            cl::init("/usr/share/libonnx-testdata/data/node"));
static cl::opt<std::string>
    expectedFile("expected", cl::desc("The expected-failures list"),
                 cl::init(QUANTC_CONFORMANCE_DIR "/expected-failures.txt"));
static cl::opt<std::string> docsFile("docs", cl::desc("The generated op table"),
                                     cl::init(QUANTC_DOCS_DIR "/onnx-ops.md"));
static cl::opt<bool>
    updateExpected("update-expected",
                   cl::desc("Rewrite the expected-failures list from this "
                            "run's failures"),
                   cl::init(false));
static cl::opt<bool> writeDocs("write-docs", cl::desc("Write docs/onnx-ops.md"),
                               cl::init(false));
static cl::opt<bool>
    checkDocs("check-docs",
              cl::desc("Fail when docs/onnx-ops.md is not what this run "
                       "generates"),
              cl::init(false));
static cl::opt<std::string>
    filter("filter", cl::desc("Run only the tests whose name matches"),
           cl::init(""));
static cl::opt<unsigned>
    jobs("j", cl::desc("Tests run at once (default: the hardware threads)"),
         cl::init(0));
static cl::opt<unsigned> timeoutSeconds("timeout",
                                        cl::desc("Seconds one test may take"),
                                        cl::init(120));
static cl::opt<bool> verbose("v", cl::desc("Print every test's result"),
                             cl::init(false));

namespace {

constexpr double kRtol = 1e-3, kAtol = 1e-7;

/// What a test's quantizable ops are, from the imported IR.
enum class Int8 { Unknown, None, Some, All };

struct TestCase {
  std::string name;
  std::string dir;
  std::set<std::string> ops;
  bool runs = false;
  bool passed = false;
  std::string reason;
  Int8 int8 = Int8::Unknown;
};

std::string oneLine(StringRef text) {
  std::string s = text.str();
  for (char &c : s)
    if (c == '\n' || c == '\t' || c == '\r')
      c = ' ';
  if (s.size() > 200)
    s = s.substr(0, 197) + "...";
  return s;
}

bool readProto(const std::string &path, google::protobuf::MessageLite &msg) {
  auto buffer = MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return false;
  return msg.ParseFromArray((*buffer)->getBufferStart(),
                            static_cast<int>((*buffer)->getBufferSize()));
}

/// The test data sets of a test directory, sorted.
std::vector<std::string> dataSets(const std::string &dir) {
  std::vector<std::string> sets;
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec))
    if (sys::path::filename(it->path()).starts_with("test_data_set_"))
      sets.push_back(it->path());
  llvm::sort(sets);
  return sets;
}

std::vector<onnx::TensorProto> readTensors(const std::string &dir,
                                           StringRef prefix) {
  std::vector<onnx::TensorProto> tensors;
  for (int i = 0;; ++i) {
    std::string path =
        dir + "/" + prefix.str() + "_" + std::to_string(i) + ".pb";
    if (!sys::fs::exists(path))
      break;
    onnx::TensorProto t;
    if (!readProto(path, t))
      break;
    tensors.push_back(std::move(t));
  }
  return tensors;
}

/// Whether the imported function's compute ops all (some, none) have a
/// quantized form (QuantizableOpInterface with a role other than
/// not_quantized).
Int8 int8Support(ModuleOp module) {
  int quantizable = 0, total = 0;
  module.walk([&](Operation *op) {
    if (isa<ModuleOp, func::FuncOp, func::ReturnOp, tosa::ConstOp,
            tosa::ConstShapeOp>(op))
      return;
    ++total;
    if (auto q = dyn_cast<qnt::QuantizableOpInterface>(op))
      if (q.getQuantRole() != qnt::QuantRole::not_quantized)
        ++quantizable;
  });
  if (total == 0)
    return Int8::Unknown;
  return quantizable == total ? Int8::All
         : quantizable        ? Int8::Some
                              : Int8::None;
}

/// Compares `got` (shape `shape`) with the reference; a message on mismatch.
std::optional<std::string> compare(const std::string &name,
                                   ArrayRef<int64_t> shape, ArrayRef<float> got,
                                   const onnx::TensorProto &expected) {
  quantc::onnx_import::ConstTensor ref;
  if (llvm::Error err = quantc::onnx_import::decodeTensor(expected, ref))
    return "cannot decode reference output '" + name +
           "': " + toString(std::move(err));
  // A scalar reference compares with a one-element output.
  bool sameShape = ArrayRef<int64_t>(ref.dims) == shape ||
                   (ref.dims.empty() && got.size() == 1);
  if (!sameShape) {
    std::string s;
    raw_string_ostream os(s);
    os << "output '" << name << "' has shape [";
    interleaveComma(shape, os);
    os << "], the reference [";
    interleaveComma(ref.dims, os);
    os << "]";
    return s;
  }
  double worst = 0;
  size_t worstAt = 0;
  bool bad = false;
  for (size_t i = 0; i < got.size(); ++i) {
    double y = got[i], r = ref.data[i];
    bool ok = std::isnan(r) ? std::isnan(y)
              : std::isinf(r)
                  ? y == r
                  : std::fabs(y - r) <= kAtol + kRtol * std::fabs(r);
    if (!ok) {
      double err = std::isnan(y) ? INFINITY : std::fabs(y - r);
      if (!bad || err > worst)
        worst = err, worstAt = i;
      bad = true;
    }
  }
  if (!bad)
    return std::nullopt;
  return formatv("output '{0}' differs: element {1} is {2}, the reference "
                 "{3}",
                 name, worstAt, got[worstAt], ref.data[worstAt])
      .str();
}

/// Imports, compiles and runs one data set of a test with the inputs
/// `folded` as initializers; fills `int8`. `retry` names an input the
/// importer wants constant (a weight, Resize's scales) when that failed.
std::optional<std::string> runDataSet(const onnx::ModelProto &original,
                                      const std::string &setDir,
                                      const std::set<std::string> &folded,
                                      Int8 &int8, std::string &retry);

/// As above, folding what the importer needs constant.
std::optional<std::string> runDataSet(const onnx::ModelProto &original,
                                      const std::string &setDir, Int8 &int8) {
  std::set<std::string> folded;
  for (int tries = 0;; ++tries) {
    std::string retry;
    std::optional<std::string> failure =
        runDataSet(original, setDir, folded, int8, retry);
    if (!failure || retry.empty() || folded.count(retry) || tries > 8)
      return failure;
    folded.insert(retry);
  }
}

std::optional<std::string> runDataSet(const onnx::ModelProto &original,
                                      const std::string &setDir,
                                      const std::set<std::string> &folded,
                                      Int8 &int8, std::string &retry) {
  onnx::ModelProto model = original;
  std::vector<onnx::TensorProto> inputs = readTensors(setDir, "input");
  std::vector<onnx::TensorProto> outputs = readTensors(setDir, "output");
  onnx::GraphProto &graph = *model.mutable_graph();
  std::set<std::string> initialized;
  for (const onnx::TensorProto &t : graph.initializer())
    initialized.insert(t.name());
  // Input i of the data set is the i-th graph input without an initializer.
  llvm::StringMap<const onnx::TensorProto *> feeds;
  size_t next = 0;
  for (const onnx::ValueInfoProto &in : graph.input()) {
    if (initialized.count(in.name()))
      continue;
    if (next >= inputs.size())
      return "the data set has no input for '" + in.name() + "'";
    const onnx::TensorProto &t = inputs[next++];
    bool floating = t.data_type() == onnx::TensorProto::FLOAT ||
                    t.data_type() == onnx::TensorProto::FLOAT16 ||
                    t.data_type() == onnx::TensorProto::BFLOAT16 ||
                    t.data_type() == onnx::TensorProto::DOUBLE;
    if (!floating || t.dims_size() == 0 || folded.count(in.name())) {
      onnx::TensorProto *init = graph.add_initializer();
      *init = t;
      init->set_name(in.name());
    } else {
      feeds[in.name()] = &t;
    }
  }
  if (static_cast<size_t>(graph.output_size()) != outputs.size())
    return "the data set has " + std::to_string(outputs.size()) +
           " outputs, the graph " + std::to_string(graph.output_size());
  std::string bytes;
  model.SerializeToString(&bytes);

  DialectRegistry registry;
  quantc::registerAllDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  // Warnings (a declared output shape the importer corrects) stay quiet.
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  llvm::Expected<OwningOpRef<ModuleOp>> imported =
      quantc::importOnnxOrError(bytes, ctx, quantc::OnnxImportOptions{});
  if (!imported) {
    std::string error = toString(imported.takeError());
    // "input 'W' must be a constant (initializer)": a weight the test feeds
    // as an input; the model quantc compiles has it as an initializer.
    SmallVector<StringRef> match;
    if (Regex("input '([^']+)' must be a constant").match(error, &match) &&
        feeds.count(match[1]))
      retry = match[1].str();
    return "import: " + error;
  }
  OwningOpRef<ModuleOp> module = std::move(*imported);
  if (failed(verify(*module)))
    return std::string("import: the imported module does not verify");
  int8 = int8Support(*module);
  auto compiled =
      quantc::CompiledModel::create(*module, "", [](OpPassManager &pm) {
        quantc::buildFloatToLLVMPipeline(pm);
      });
  if (!compiled)
    return "compile: " + toString(compiled.takeError());
  const quantc::CompiledModel &m = **compiled;
  std::vector<const float *> in;
  std::vector<std::vector<float>> inData;
  for (const quantc::ModelTensor &t : m.inputs()) {
    auto it = feeds.find(t.name);
    if (it == feeds.end())
      return "no data for the compiled model's input '" + t.name + "'";
    quantc::onnx_import::ConstTensor c;
    if (llvm::Error err = quantc::onnx_import::decodeTensor(*it->second, c))
      return "cannot decode input '" + t.name +
             "': " + toString(std::move(err));
    if (c.numElements() != t.numElements())
      return "input '" + t.name + "' has " + std::to_string(c.numElements()) +
             " elements, the model " + std::to_string(t.numElements());
    inData.push_back(c.floats());
  }
  for (auto &d : inData)
    in.push_back(d.data());
  std::vector<std::vector<float>> outData;
  std::vector<float *> out;
  for (const quantc::ModelTensor &t : m.outputs())
    outData.emplace_back(t.numElements());
  for (auto &d : outData)
    out.push_back(d.data());
  if (Error e = m.run(in, out))
    return "run: " + toString(std::move(e));
  for (size_t i = 0; i < outData.size(); ++i)
    if (auto err = compare(graph.output(i).name(), m.outputs()[i].shape,
                           outData[i], outputs[i]))
      return err;
  return std::nullopt;
}

/// Runs one test (in a child process): "PASS\t<int8>" or
/// "FAIL\t<int8>\t<reason>".
std::string runTest(const TestCase &test) {
  onnx::ModelProto model;
  Int8 int8 = Int8::Unknown;
  std::optional<std::string> failure;
  if (!readProto(test.dir + "/model.onnx", model))
    failure = "cannot parse model.onnx";
  std::vector<std::string> sets = dataSets(test.dir);
  if (!failure && sets.empty())
    failure = "no test data set";
  for (const std::string &set : sets) {
    if (failure)
      break;
    failure = runDataSet(model, set, int8);
  }
  // Say when the test is about another element type than float32.
  if (failure) {
    std::string types;
    auto note = [&](const onnx::ValueInfoProto &v, const char *what) {
      int32_t t = v.type().tensor_type().elem_type();
      bool floating =
          t == onnx::TensorProto::FLOAT || t == onnx::TensorProto::FLOAT16 ||
          t == onnx::TensorProto::BFLOAT16 || t == onnx::TensorProto::DOUBLE;
      if (!floating && types.empty())
        types = std::string(what) + " '" + v.name() + "' is " +
                onnx::TensorProto::DataType_Name(
                    static_cast<onnx::TensorProto::DataType>(t));
    };
    // Data comes first in the node tests; later integer inputs are axes,
    // shapes and indices, which fold.
    if (model.graph().input_size())
      note(model.graph().input(0), "input");
    for (const onnx::ValueInfoProto &v : model.graph().output())
      note(v, "output");
    if (!types.empty())
      failure = "non-float: " + types + "; " + *failure;
  }
  std::string result = failure ? "FAIL\t" : "PASS\t";
  result += std::to_string(static_cast<int>(int8));
  if (failure)
    result += "\t" + oneLine(*failure);
  return result;
}

/// Runs the tests `jobs` at a time, one child process each.
void runAll(std::vector<TestCase *> &tests, unsigned parallel) {
  struct Child {
    TestCase *test;
    int fd;
    std::chrono::steady_clock::time_point start;
  };
  std::map<pid_t, Child> running;
  size_t next = 0, done = 0;
  auto finish = [&](pid_t pid, int status) {
    Child c = running[pid];
    running.erase(pid);
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = read(c.fd, buf, sizeof(buf))) > 0)
      text.append(buf, n);
    close(c.fd);
    TestCase &t = *c.test;
    SmallVector<StringRef, 3> fields;
    StringRef(text).trim().split(fields, '\t', 2);
    if (fields.size() >= 2 && (fields[0] == "PASS" || fields[0] == "FAIL")) {
      t.passed = fields[0] == "PASS";
      int v = 0;
      fields[1].getAsInteger(10, v);
      t.int8 = static_cast<Int8>(v);
      t.reason = fields.size() > 2 ? fields[2].str() : "";
    } else if (WIFSIGNALED(status)) {
      t.passed = false;
      t.reason =
          WTERMSIG(status) == SIGKILL
              ? "timeout (over " + std::to_string(timeoutSeconds) + " s)"
              : "crash (signal " + std::to_string(WTERMSIG(status)) + ")";
    } else {
      t.passed = false;
      t.reason = "the test process exited with " +
                 std::to_string(WEXITSTATUS(status)) + " and no result";
    }
    ++done;
    if (verbose)
      outs() << "[" << done << "/" << tests.size() << "] " << t.name << ": "
             << (t.passed ? "PASS" : "FAIL " + t.reason) << "\n";
    outs().flush();
  };
  while (next < tests.size() || !running.empty()) {
    while (next < tests.size() && running.size() < parallel) {
      int fds[2];
      if (pipe(fds) != 0) {
        perror("pipe");
        exit(2);
      }
      outs().flush();
      errs().flush();
      pid_t pid = fork();
      if (pid == 0) {
        close(fds[0]);
        // The compiler's own messages (a pass failure's IR) are noise here
        // unless asked for.
        if (!verbose) {
          int devnull = open("/dev/null", O_WRONLY);
          dup2(devnull, 2);
        }
        std::string r = runTest(*tests[next]) + "\n";
        (void)!write(fds[1], r.data(), r.size());
        close(fds[1]);
        _exit(0);
      }
      close(fds[1]);
      running[pid] = {tests[next], fds[0], std::chrono::steady_clock::now()};
      ++next;
    }
    int status;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      finish(pid, status);
      continue;
    }
    auto now = std::chrono::steady_clock::now();
    for (auto &[p, c] : running)
      if (now - c.start > std::chrono::seconds(timeoutSeconds))
        kill(p, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

/// The expected failures: test name -> reason.
std::map<std::string, std::string> readExpected(const std::string &path) {
  std::map<std::string, std::string> expected;
  auto buffer = MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return expected;
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (StringRef line : lines) {
    line = line.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    auto [name, reason] = line.split(' ');
    expected[name.str()] = reason.trim().str();
  }
  return expected;
}

bool writeFile(const std::string &path, StringRef text) {
  if (Error e =
          quantc::writeOutputFile(path, [&](raw_ostream &os) { os << text; })) {
    errs() << "onnx-node-tests: " << toString(std::move(e)) << "\n";
    return false;
  }
  return true;
}

std::string expectedText(const std::vector<TestCase> &tests) {
  std::string s;
  raw_string_ostream os(s);
  os << "# ONNX backend node tests (Debian libonnx-testdata) that\n"
        "# test/Conformance/onnx-node-tests.cpp runs and expects to fail: one "
        "line\n"
        "# per test, `test_name  reason` (the reason is the runner's "
        "message).\n"
        "# The runner fails on a failure not listed here, on a listed test "
        "that\n"
        "# passes and on a listed test that no longer runs. After adding or "
        "fixing\n"
        "# an op, regenerate this file and docs/onnx-ops.md with one "
        "command:\n"
        "#   build/bin/onnx-node-tests --update-expected --write-docs\n";
  for (const TestCase &t : tests)
    if (t.runs && !t.passed)
      os << t.name << "  " << t.reason << "\n";
  return s;
}

std::string docsText(const std::vector<TestCase> &tests, size_t totalTests) {
  auto [lo, hi] = quantc::onnxOpsetRange();
  std::string s;
  raw_string_ostream os(s);
  size_t run = 0, passed = 0;
  for (const TestCase &t : tests)
    if (t.runs)
      ++run, passed += t.passed;
  os << "<!-- Generated by test/Conformance/onnx-node-tests.cpp "
        "(build/bin/onnx-node-tests --write-docs); do not edit. -->\n"
     << "# ONNX ops quantc imports\n\n"
     << "Every op type the importer has a handler for (`lib/Import/Ops`), "
        "for the\n"
     << "default domain's opsets " << lo << "-" << hi
     << " (a model's other opsets are refused).\n\n"
     << "* **opsets**: the opset ranges of its handlers (an op's semantics "
        "change\n"
     << "  at the opsets where a new range starts).\n"
     << "* **float**: imported and compiled in float32.\n"
     << "* **int8**: whether the IR it imports to quantizes "
        "(QuantizableOpInterface:\n"
     << "  every op of its node tests' imported graphs has a role other than\n"
     << "  `not_quantized`): *yes*; *partly* (some of its ops, or some of its "
        "tests,\n"
     << "  stay float: an island between int8 ops); *no* (a float island); "
        "*-* when none\n"
     << "  of its single-op node tests imports. Constant sub-graphs (shapes, "
        "axes)\n"
     << "  fold at import and need no int8 form. In a node test the op is "
        "the graph's\n"
     << "  output: Softmax reads *no* since a Softmax output stays float "
        "(inside a\n"
     << "  model it quantizes).\n"
     << "* **node tests**: ONNX's backend node tests (libonnx-testdata "
        "1.12, opsets\n"
     << "  up to 17) whose model holds the op (and any others: ONNX's "
        "expanded\n"
     << "  function tests hold many), run in float through the JIT with "
        "ONNX's\n"
     << "  tolerance (rtol 1e-3, atol 1e-7); the failures and their reasons "
        "are in\n"
     << "  `test/Conformance/expected-failures.txt`. Two of them are ONNX's "
        "reference\n"
     << "  against ONNX Runtime: "
        "test_resize_downsample_scales_{linear,cubic}_align_corners\n"
     << "  divide by the fractional output length (in x scale - 1); quantc, "
        "like ONNX\n"
     << "  Runtime 1.30 (same values), by the integer one.\n\n"
     << "Node tests: " << passed << " passed of " << run << " run (of the "
     << totalTests << " in the suite).\n\n"
     << "| op | opsets | float | int8 | node tests passed |\n"
     << "|---|---|---|---|---|\n";
  for (const quantc::OnnxImportedOp &op : quantc::onnxImportedOps()) {
    size_t opRun = 0, opPassed = 0;
    int all = 0, some = 0, none = 0;
    for (const TestCase &t : tests) {
      if (!t.runs || !t.ops.count(op.opType))
        continue;
      ++opRun;
      opPassed += t.passed;
      // int8 from the tests of this op alone (the others say more about
      // their other ops).
      if (t.ops.size() == 1) {
        all += t.int8 == Int8::All;
        some += t.int8 == Int8::Some;
        none += t.int8 == Int8::None;
      }
    }
    const char *int8 = all + some + none == 0  ? "-"
                       : all && !some && !none ? "yes"
                       : !all && !some         ? "no"
                                               : "partly";
    // Another domain's op (com.microsoft.QLinearAdd) has its domain's
    // versions, not the default domain's opsets.
    std::string opsets = StringRef(op.opType).contains('.')
                             ? std::string("its domain's")
                             : quantc::onnxOpsetsText(op.since);
    os << "| " << op.opType << " | " << opsets << " | yes | " << int8 << " | "
       << opPassed << " / " << opRun << " |\n";
  }
  return s;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  quantc::registerAllPasses();
  cl::ParseCommandLineOptions(argc, argv,
                              "onnx-node-tests: ONNX's backend node tests "
                              "through the importer and the float JIT\n");
  if (!sys::fs::is_directory(dataDir)) {
    outs() << "onnx-node-tests: SKIPPED: the ONNX node tests are not "
              "installed ('"
           << dataDir
           << "' is missing; Debian package libonnx-testdata, installed by "
              "scripts/install-deps.sh)\n";
    return 77;
  }
  std::set<std::string> registered;
  for (const quantc::OnnxImportedOp &op : quantc::onnxImportedOps())
    registered.insert(op.opType);

  std::vector<TestCase> tests;
  std::error_code ec;
  for (sys::fs::directory_iterator it(dataDir, ec), end; !ec && it != end;
       it.increment(ec)) {
    TestCase t;
    t.name = sys::path::filename(it->path()).str();
    t.dir = it->path();
    onnx::ModelProto model;
    if (!readProto(t.dir + "/model.onnx", model))
      continue;
    for (const onnx::NodeProto &n : model.graph().node())
      t.ops.insert(n.domain().empty() || n.domain() == "ai.onnx"
                       ? n.op_type()
                       : n.domain() + "." + n.op_type());
    tests.push_back(std::move(t));
  }
  llvm::sort(tests, [](const TestCase &a, const TestCase &b) {
    return a.name < b.name;
  });
  Regex only(filter);
  std::vector<TestCase *> toRun;
  for (TestCase &t : tests) {
    t.runs = llvm::any_of(
        t.ops, [&](const std::string &op) { return registered.count(op); });
    if (t.runs && (filter.empty() || only.match(t.name)))
      toRun.push_back(&t);
  }
  unsigned parallel =
      jobs ? jobs : std::max(1u, std::thread::hardware_concurrency());
  auto start = std::chrono::steady_clock::now();
  runAll(toRun, parallel);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  size_t passed = 0;
  for (TestCase *t : toRun)
    passed += t->passed;
  outs() << "onnx-node-tests: " << passed << " of " << toRun.size()
         << " node tests passed (" << tests.size() << " in " << dataDir << "; "
         << registered.size() << " op types imported) in "
         << formatv("{0:f1}", seconds) << " s\n";
  if (!filter.empty())
    return passed == toRun.size() ? 0 : 1;

  int status = 0;
  if (updateExpected) {
    if (!writeFile(expectedFile, expectedText(tests)))
      return 2;
    outs() << "onnx-node-tests: wrote " << expectedFile << "\n";
  } else {
    std::map<std::string, std::string> expected = readExpected(expectedFile);
    for (const TestCase &t : tests) {
      bool listed = expected.count(t.name);
      if (t.runs && !t.passed && !listed) {
        outs() << "UNEXPECTED FAILURE: " << t.name << ": " << t.reason << "\n";
        status = 1;
      } else if (t.runs && t.passed && listed) {
        outs() << "UNEXPECTED PASS: " << t.name
               << " (remove it from the expected failures)\n";
        status = 1;
      } else if (!t.runs && listed) {
        outs() << "NOT RUN: " << t.name
               << " is listed as an expected failure but no longer runs\n";
        status = 1;
      }
    }
    for (const auto &entry : expected) {
      const std::string &name = entry.first;
      if (llvm::none_of(tests,
                        [&](const TestCase &t) { return t.name == name; })) {
        outs() << "UNKNOWN: " << name
               << " is listed as an expected failure but is no node test\n";
        status = 1;
      }
    }
  }
  std::string docs = docsText(tests, tests.size());
  if (writeDocs) {
    if (!writeFile(docsFile, docs))
      return 2;
    outs() << "onnx-node-tests: wrote " << docsFile << "\n";
  } else if (checkDocs) {
    auto buffer = MemoryBuffer::getFile(docsFile, /*IsText=*/true);
    if (!buffer || (*buffer)->getBuffer() != docs) {
      outs() << "OUT OF DATE: " << docsFile
             << " (regenerate: build/bin/onnx-node-tests --update-expected "
                "--write-docs)\n";
      status = 1;
    }
  }
  if (status)
    outs() << "onnx-node-tests: FAILED (to accept this run's results: "
              "build/bin/onnx-node-tests --update-expected --write-docs)\n";
  return status;
}
