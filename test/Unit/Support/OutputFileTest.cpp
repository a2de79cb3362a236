//===- OutputFileTest.cpp - quantc/Support/OutputFile.h on hostile paths --===//
//
// The output writer against what a path may name (directories, fifos,
// devices, links, a regular file as a parent), real write errors (a file
// size limit makes the kernel refuse writes with EFBIG; /dev/full gives
// ENOSPC), and the all-or-nothing commit of several outputs, including the
// rollback of a target already renamed. Every test works in its own
// temporary directory and checks that nothing but the outputs is left in it.
//
//===----------------------------------------------------------------------===//

#include "quantc/Support/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace quantc;

namespace {

class OutputFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> path;
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("quantc-output-test", path));
    dir = std::string(path);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  std::string at(llvm::StringRef name) const {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  }
  /// The names in the directory (hidden ones too), sorted.
  std::vector<std::string> names(llvm::StringRef sub = "") const {
    std::vector<std::string> result;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(sub.empty() ? dir : at(sub), ec),
         end;
         it != end && !ec; it.increment(ec))
      result.push_back(llvm::sys::path::filename(it->path()).str());
    std::sort(result.begin(), result.end());
    return result;
  }
  static std::string read(const std::string &path) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    return buffer ? (*buffer)->getBuffer().str() : "<missing>";
  }
  static void write(const std::string &path, llvm::StringRef text) {
    ASSERT_FALSE(
        writeOutputFile(path, [&](llvm::raw_ostream &os) { os << text; }));
  }
  /// The error's message, consumed ("" for success).
  static std::string message(llvm::Error e) {
    return e ? llvm::toString(std::move(e)) : "";
  }

  std::string dir;
};

TEST_F(OutputFileTest, WritesNewFileAndLeavesNoTemporary) {
  write(at("model.o"), "object");
  EXPECT_EQ(read(at("model.o")), "object");
  EXPECT_EQ(names(), std::vector<std::string>{"model.o"});
}

TEST_F(OutputFileTest, CreatesParentDirectories) {
  write(at("a/b/model.o"), "object");
  EXPECT_EQ(read(at("a/b/model.o")), "object");
}

TEST_F(OutputFileTest, ReplacesRegularFileKeepingPermissions) {
  write(at("model.o"), "old");
  ASSERT_EQ(::chmod(at("model.o").c_str(), 0640), 0);
  write(at("model.o"), "new");
  EXPECT_EQ(read(at("model.o")), "new");
  struct stat st;
  ASSERT_EQ(::stat(at("model.o").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  EXPECT_EQ(names(), std::vector<std::string>{"model.o"});
}

TEST_F(OutputFileTest, RefusesDirectoriesAndPathsNamingThem) {
  ASSERT_FALSE(llvm::sys::fs::create_directory(at("d")));
  for (std::string path :
       {at("d"), at("d") + "/", at("new") + "/", at("d") + "/.", at("d/..")}) {
    std::string m = message(checkOutputPath(path, {"-o"}));
    EXPECT_NE(m.find("directory"), std::string::npos) << path << ": " << m;
    EXPECT_NE(m.find("(-o)"), std::string::npos) << m;
    EXPECT_NE(message(writeOutputFile(
                  path, [](llvm::raw_ostream &os) { os << "x"; })),
              "");
  }
  EXPECT_NE(message(checkOutputPath("")), "");
  EXPECT_EQ(names(), std::vector<std::string>{"d"});
  EXPECT_TRUE(names("d").empty());
}

TEST_F(OutputFileTest, RefusesFifoAndLeavesIt) {
  ASSERT_EQ(::mkfifo(at("pipe").c_str(), 0600), 0);
  OutputOptions text;
  text.allowCharDevice = true;
  for (const OutputOptions &options : {OutputOptions(), text}) {
    std::string m = message(writeOutputFile(
        at("pipe"), [](llvm::raw_ostream &os) { os << "x"; }, options));
    EXPECT_NE(m.find("fifo"), std::string::npos) << m;
  }
  struct stat st;
  ASSERT_EQ(::lstat(at("pipe").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(names(), std::vector<std::string>{"pipe"});
}

TEST_F(OutputFileTest, CharacterDeviceOnlyWhereAllowed) {
  // Checked only: nothing is written to /dev/null.
  std::string m = message(checkOutputPath("/dev/null", {"-o"}));
  EXPECT_NE(m.find("character device"), std::string::npos) << m;
  OutputOptions text;
  text.allowCharDevice = true;
  EXPECT_EQ(message(checkOutputPath("/dev/null", text)), "");
  EXPECT_NE(message(checkOutputPath("/dev/null/x.o")), "");
  // Writing through a device reports its error: /dev/full has no space.
  struct stat st;
  if (::stat("/dev/full", &st) != 0 || !S_ISCHR(st.st_mode))
    GTEST_SKIP() << "no /dev/full";
  m = message(writeOutputFile(
      "/dev/full",
      [](llvm::raw_ostream &os) { os << std::string(1 << 16, 'x'); }, text));
  EXPECT_NE(m.find("No space left on device"), std::string::npos) << m;
  EXPECT_NE(m.find("'/dev/full'"), std::string::npos) << m;
}

TEST_F(OutputFileTest, RefusesPathBelowRegularFile) {
  write(at("file"), "data");
  for (std::string path : {at("file/x.o"), at("file/deep/er/x.o")}) {
    std::string m = message(
        writeOutputFile(path, [](llvm::raw_ostream &os) { os << "x"; }));
    EXPECT_NE(m.find("is not a directory"), std::string::npos) << m;
  }
  EXPECT_EQ(read(at("file")), "data");
  EXPECT_EQ(names(), std::vector<std::string>{"file"});
}

TEST_F(OutputFileTest, SymbolicLinks) {
  // To a regular file: that file is replaced, the link stays.
  write(at("real.o"), "old");
  ASSERT_EQ(::symlink("real.o", at("link.o").c_str()), 0);
  write(at("link.o"), "new");
  EXPECT_EQ(read(at("real.o")), "new");
  struct stat st;
  ASSERT_EQ(::lstat(at("link.o").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  // Dangling, or to a directory: refused, nothing created.
  ASSERT_EQ(::symlink("missing.o", at("dangling.o").c_str()), 0);
  ASSERT_EQ(::symlink(".", at("dir.o").c_str()), 0);
  EXPECT_NE(message(checkOutputPath(at("dangling.o"))).find("missing file"),
            std::string::npos);
  EXPECT_NE(message(writeOutputFile(at("dangling.o"),
                                    [](llvm::raw_ostream &os) { os << "x"; })),
            "");
  EXPECT_NE(message(checkOutputPath(at("dir.o"))).find("directory"),
            std::string::npos);
  EXPECT_EQ(names(), (std::vector<std::string>{"dangling.o", "dir.o", "link.o",
                                               "real.o"}));
}

TEST_F(OutputFileTest, WriteErrorLeavesNothing) {
  // A file size limit: the kernel refuses the write (EFBIG), as it would
  // with a full disk (SIGXFSZ ignored, as a shell's `trap '' XFSZ` does).
  write(at("model.o"), "old");
  struct rlimit saved;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto previous = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit limit = saved;
  limit.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0);
  std::string m = message(writeOutputFile(
      at("model.o"), [](auto &os) { os << std::string(1 << 20, 'x'); }));
  std::string m2 = message(writeOutputFile(
      at("new/model.o"), [](auto &os) { os << std::string(1 << 20, 'x'); }));
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous);
  EXPECT_EQ(m, "cannot write '" + at("model.o") + "': File too large");
  EXPECT_EQ(m2, "cannot write '" + at("new/model.o") + "': File too large");
  EXPECT_EQ(read(at("model.o")), "old");
  EXPECT_EQ(names(), std::vector<std::string>{"model.o"});
}

TEST_F(OutputFileTest, SetCommitsTogether) {
  OutputSet outputs;
  auto object = outputs.open(at("model.o"));
  ASSERT_TRUE(bool(object));
  *object << "object";
  auto header = outputs.open(at("include/model.h"));
  ASSERT_TRUE(bool(header));
  *header << "header";
  // Nothing appears before the commit.
  EXPECT_EQ(llvm::sys::fs::exists(at("model.o")), false);
  ASSERT_EQ(message(outputs.commit()), "");
  EXPECT_EQ(read(at("model.o")), "object");
  EXPECT_EQ(read(at("include/model.h")), "header");
  EXPECT_EQ(names(), (std::vector<std::string>{"include", "model.o"}));
}

TEST_F(OutputFileTest, FailedSetChangesNothing) {
  write(at("old.o"), "old");
  {
    OutputSet outputs;
    auto a = outputs.open(at("old.o"));
    auto b = outputs.open(at("new.o"));
    auto c = outputs.open(at("sub/late.h"));
    ASSERT_TRUE(a && b && c);
    *a << "A";
    *b << "B";
    *c << "C";
    // The last target turns into a directory before the commit: the two
    // renamed before it are rolled back (the old file restored).
    ASSERT_FALSE(llvm::sys::fs::create_directory(at("sub/late.h")));
    std::string m = message(outputs.commit());
    EXPECT_NE(m.find("late.h"), std::string::npos) << m;
    EXPECT_NE(m.find("directory"), std::string::npos) << m;
  }
  EXPECT_EQ(read(at("old.o")), "old");
  EXPECT_FALSE(llvm::sys::fs::exists(at("new.o")));
  EXPECT_EQ(names(), (std::vector<std::string>{"old.o", "sub"}));
  EXPECT_EQ(names("sub"), std::vector<std::string>{"late.h"});
}

TEST_F(OutputFileTest, DiscardRemovesCreatedDirectories) {
  {
    OutputSet outputs;
    auto a = outputs.open(at("x/y/z.o"));
    ASSERT_TRUE(bool(a));
    *a << "A";
  }
  EXPECT_TRUE(names().empty());
}

TEST_F(OutputFileTest, SameFileTwiceRefused) {
  OutputSet outputs;
  ASSERT_EQ(message(outputs.check(at("m.o"), {"-o"})), "");
  EXPECT_NE(message(outputs.check(at("./m.o"), {"--header"})), "");
  ASSERT_TRUE(bool(outputs.open(at("m.o"))));
  auto again = outputs.open(dir + "/sub/../m.o");
  EXPECT_FALSE(bool(again));
  EXPECT_NE(message(again.takeError()).find("also given"), std::string::npos);
}

TEST_F(OutputFileTest, ReservedForAnotherProgram) {
  OutputSet outputs;
  llvm::Expected<std::string> temp = outputs.reserve(at("lib.so"));
  ASSERT_TRUE(bool(temp));
  EXPECT_EQ(llvm::sys::path::parent_path(*temp), dir);
  // The program replaces the file, as a linker does.
  ASSERT_EQ(::unlink(temp->c_str()), 0);
  write(*temp, "library");
  ASSERT_EQ(message(outputs.commit()), "");
  EXPECT_EQ(read(at("lib.so")), "library");
  EXPECT_EQ(names(), std::vector<std::string>{"lib.so"});
  // A program that left nothing: an error, nothing renamed.
  OutputSet failed;
  temp = failed.reserve(at("other.so"));
  ASSERT_TRUE(bool(temp));
  ASSERT_EQ(::unlink(temp->c_str()), 0);
  EXPECT_NE(message(failed.commit()), "");
  EXPECT_EQ(names(), std::vector<std::string>{"lib.so"});
  EXPECT_FALSE(bool(failed.reserve("-")));
}

} // namespace
