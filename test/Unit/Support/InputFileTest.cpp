//===- InputFileTest.cpp - quantc/Support/InputFile.h on hostile inputs ---===//
//
// The one reader of input files against what a path may name: regular files
// at and over the limit, an endless character device (/dev/zero), a fifo
// with a writer that never stops, one that writes a little and one without
// a writer, a directory, /proc files (regular, but of unknown size); and
// QUANTC_MAX_INPUT_BYTES's syntax. Every test sets the variable itself and
// works in its own temporary directory.
//
//===----------------------------------------------------------------------===//

#include "quantc/Support/InputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace quantc;

namespace {

/// Sets QUANTC_MAX_INPUT_BYTES for one test (unset: nullptr).
class LimitScope {
public:
  explicit LimitScope(const char *value) {
    if (value)
      ::setenv(kMaxInputBytesVariable.data(), value, 1);
    else
      ::unsetenv(kMaxInputBytesVariable.data());
  }
  ~LimitScope() { ::unsetenv(kMaxInputBytesVariable.data()); }
};

/// A temporary directory, removed with what it holds.
class TempDir {
public:
  TempDir() {
    EXPECT_FALSE(
        llvm::sys::fs::createUniqueDirectory("quantc-input-test", path));
  }
  ~TempDir() { (void)llvm::sys::fs::remove_directories(path); }
  std::string file(llvm::StringRef name) const {
    llvm::SmallString<128> p(path);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }

private:
  llvm::SmallString<128> path;
};

void writeFile(const std::string &path, size_t bytes) {
  std::string data(bytes, 'x');
  FILE *f = std::fopen(path.c_str(), "wb");
  ASSERT_TRUE(f);
  ASSERT_EQ(std::fwrite(data.data(), 1, data.size(), f), data.size());
  std::fclose(f);
}

std::string errorOf(llvm::StringRef path) {
  auto buffer = readInputFile(path);
  if (buffer)
    return "";
  return llvm::toString(buffer.takeError());
}

TEST(InputFileTest, LimitSyntax) {
  struct Case {
    const char *text;
    uint64_t bytes; // 0: refused
  } cases[] = {{nullptr, kDefaultMaxInputBytes},
               {"4096", 4096},
               {"1k", 1024},
               {"1K", 1024},
               {"2KiB", 2048},
               {"3M", 3u << 20},
               {"4G", uint64_t(4) << 30},
               {"4GB", uint64_t(4) << 30},
               {"1T", uint64_t(1) << 40},
               {" 8M ", 8u << 20},
               {"100B", 100},
               {"0", 0},
               {"", 0},
               {"-1", 0},
               {"4X", 0},
               {"4MM", 0},
               {"4iB", 0},
               {"1.5G", 0},
               {"lots", 0},
               {"99999999999999999999", 0},
               {"17179869184T", 0}};
  for (const Case &c : cases) {
    LimitScope scope(c.text);
    llvm::Expected<uint64_t> limit = maxInputBytes();
    if (c.bytes) {
      ASSERT_TRUE(bool(limit))
          << c.text << ": " << llvm::toString(limit.takeError());
      EXPECT_EQ(*limit, c.bytes) << c.text;
    } else {
      ASSERT_FALSE(bool(limit)) << c.text;
      EXPECT_NE(llvm::toString(limit.takeError()).find("is not a positive"),
                std::string::npos)
          << c.text;
    }
  }
}

TEST(InputFileTest, RegularFilesAtAndOverTheLimit) {
  TempDir dir;
  LimitScope scope("1000");
  writeFile(dir.file("at"), 1000);
  writeFile(dir.file("over"), 1001);
  writeFile(dir.file("empty"), 0);
  auto at = readInputFile(dir.file("at"));
  ASSERT_TRUE(bool(at)) << llvm::toString(at.takeError());
  EXPECT_EQ((*at)->getBufferSize(), 1000u);
  EXPECT_EQ((*at)->getBufferEnd()[0], '\0'); // null-terminated
  std::string over = errorOf(dir.file("over"));
  EXPECT_NE(over.find("has 1001 bytes, more than the input limit of 1000 "
                      "bytes; set QUANTC_MAX_INPUT_BYTES"),
            std::string::npos)
      << over;
  auto empty = readInputFile(dir.file("empty"));
  ASSERT_TRUE(bool(empty));
  EXPECT_EQ((*empty)->getBufferSize(), 0u);
  EXPECT_NE(errorOf(dir.file("missing")).find("cannot read '"),
            std::string::npos);
}

TEST(InputFileTest, EndlessDevice) {
  LimitScope scope("1M");
  std::string error = errorOf("/dev/zero");
  EXPECT_EQ(error, "'/dev/zero' (a character device) gives more than the "
                   "input limit of 1048576 bytes (1 MiB); set "
                   "QUANTC_MAX_INPUT_BYTES (e.g. QUANTC_MAX_INPUT_BYTES=8G) "
                   "to raise it");
  auto null = readInputFile("/dev/null");
  ASSERT_TRUE(bool(null));
  EXPECT_EQ((*null)->getBufferSize(), 0u);
}

TEST(InputFileTest, ProcFilesAreReadAsStreams) {
  LimitScope small("16");
  EXPECT_NE(errorOf("/proc/self/status").find("(a file of unknown size)"),
            std::string::npos);
  LimitScope large("1M");
  auto status = readInputFile("/proc/self/status");
  ASSERT_TRUE(bool(status)) << llvm::toString(status.takeError());
  EXPECT_TRUE((*status)->getBuffer().starts_with("Name:"));
}

TEST(InputFileTest, Directory) {
  TempDir dir;
  LimitScope scope(nullptr);
  EXPECT_NE(errorOf(dir.file("")).find("is a directory"), std::string::npos);
}

TEST(InputFileTest, Fifos) {
  TempDir dir;
  LimitScope scope("64k");
  std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::signal(SIGPIPE, SIG_IGN);
  // A writer that sends 1000 bytes, late: read whole.
  std::thread some([&] {
    ::usleep(200000);
    int fd = ::open(fifo.c_str(), O_WRONLY);
    std::string data(1000, 'y');
    EXPECT_EQ(::write(fd, data.data(), data.size()), 1000);
    ::close(fd);
  });
  auto read = readInputFile(fifo);
  some.join();
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ((*read)->getBufferSize(), 1000u);
  // A writer that never stops: refused at the limit; the writer then sees
  // the pipe closed.
  std::thread endless([&] {
    int fd = ::open(fifo.c_str(), O_WRONLY);
    std::string data(4096, 'z');
    while (::write(fd, data.data(), data.size()) > 0) {
    }
    ::close(fd);
  });
  std::string error = errorOf(fifo);
  endless.join();
  EXPECT_NE(error.find("(a pipe) gives more than the input limit of 65536 "
                       "bytes (64 KiB)"),
            std::string::npos)
      << error;
}

} // namespace
