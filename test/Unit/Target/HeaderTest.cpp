//===- HeaderTest.cpp - The header and symbol prefix from hostile names ---===//
//
// quantc::modelName (the symbol prefix describeModel chooses) and
// quantc::emitHeader with names that try to leave the header's comment:
// the header of a model with hostile names has the same comments, lines
// and declarations as the header of the same model with harmless names.
//
//===----------------------------------------------------------------------===//

#include "quantc/Target/Compile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>

using namespace quantc;
using namespace std::string_literals;

namespace {

std::string nameOf(llvm::StringRef function, llvm::StringRef name,
                   llvm::StringRef path) {
  llvm::Expected<std::string> chosen = modelName(function, name, path);
  if (!chosen)
    return "error: " + llvm::toString(chosen.takeError());
  return *chosen;
}

TEST(Header, ModelName) {
  EXPECT_EQ(nameOf("main_graph", "", "out/m.o"), "main_graph");
  EXPECT_EQ(nameOf("main_graph", "net", "out/m.o"), "net");
  EXPECT_EQ(nameOf("Model from X.", "", "out/detector-v2.o"), "detector_v2");
  EXPECT_EQ(nameOf("*/ evil /*", "", "out/2x.o"), "model_2x");
  EXPECT_EQ(nameOf("_GLIBC", "", "out/m.o"), "m");
  EXPECT_EQ(nameOf("ok", "_stdint", "m.o").substr(0, 25),
            "error: '_stdint' starts l");
  EXPECT_EQ(nameOf("ok", "__x", "m.o").substr(0, 20), "error: '__x' starts ");
  EXPECT_TRUE(llvm::StringRef(nameOf("ok", "a\x1b[2J", "m.o"))
                  .starts_with("error: 'a\\x1B[2J' is not a C identifier"));
  EXPECT_EQ(nameOf("f", "", "out/_Foo.o").substr(0, 20),
            "f"); // a C identifier function name wins over the path
  EXPECT_EQ(nameOf("*", "", "out/_Foo.o").substr(0, 21),
            "error: '_Foo' starts ");
}

/// The header of a two-input, one-output model named m whose other strings
/// (function, tensor names, layouts, CPU, features, source) are all `text`.
std::string header(const std::string &text) {
  ModelInterface model;
  model.name = "m";
  model.function = text;
  model.parallelism = Parallelism::OpenMP;
  for (int i = 0; i < 3; ++i) {
    TensorInterface t;
    t.name = text;
    t.layout = text;
    t.shape = {1, 3};
    (i < 2 ? model.inputs : model.outputs).push_back(t);
  }
  CompileTarget target;
  target.triple = "x86_64-unknown-linux-gnu";
  TargetVariant v;
  v.cpu = text;
  v.features = text;
  v.cpuFeatures = {text, "avx2"};
  target.variants.push_back(v);
  std::string out;
  llvm::raw_string_ostream os(out);
  emitHeader(model, target, text, os);
  return out;
}

TEST(Header, HostileNamesStayInTheComment) {
  const std::string benign = header("n");
  for (const std::string &text :
       {"*/ __attribute__((constructor)) static void evil(void){} /*"s,
        "a\n#define m_run exit\n"s, "x\\\n*/ int y; /*"s, "?\?/\n*/"s,
        "nul\0*/"s, "\x1b[2J\xff\xc3\x28"s, std::string(5000, '*')}) {
    std::string hostile = header(text);
    auto count = [](const std::string &s, const char *what) {
      size_t n = 0;
      for (size_t i = s.find(what); i != std::string::npos;
           i = s.find(what, i + 1))
        ++n;
      return n;
    };
    EXPECT_EQ(count(hostile, "*/"), count(benign, "*/")) << text;
    EXPECT_EQ(count(hostile, "/*"), count(benign, "/*")) << text;
    // Every line of the comment is a comment line (the last is " " before
    // its " */").
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(hostile).take_front(hostile.find("*/")).split(lines, '\n');
    for (llvm::StringRef line : llvm::ArrayRef(lines).drop_front().drop_back())
      EXPECT_TRUE(line.starts_with(" *")) << line.str();
    EXPECT_EQ(hostile.find("??"), std::string::npos) << text;
    EXPECT_EQ(hostile.find('\0'), std::string::npos) << text;
    EXPECT_EQ(hostile.find("\\\n"), std::string::npos) << text;
    // Everything after the first comment (the code) is the same.
    EXPECT_EQ(hostile.substr(hostile.find("*/")),
              benign.substr(benign.find("*/")))
        << text;
  }
}

} // namespace
