//===- InputFile.cpp - Every input file read within one size limit --------===//
//
// readInputFile (quantc/Support/InputFile.h). A regular file is checked
// against the limit from fstat() and then read (or mapped) by LLVM; a
// stream is read into one growing malloc() block, which realloc() extends
// in place or by remapping, so that reading N bytes never holds more than
// N plus a little. A named pipe or device is opened non-blocking (opening a
// FIFO nobody writes to would block in open()) and every read waits for
// data with poll() at most kInputIdleSeconds.
//
//===----------------------------------------------------------------------===//

#include "quantc/Support/InputFile.h"

#include "quantc/Support/Fail.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;
using quantc::fail;

Expected<uint64_t> quantc::maxInputBytes() {
  const char *value = std::getenv(kMaxInputBytesVariable.data());
  if (!value)
    return kDefaultMaxInputBytes;
  StringRef text = StringRef(value).trim();
  auto bad = [&] {
    return fail(kMaxInputBytesVariable + "='" + value +
                "' is not a positive byte count (e.g. 4294967296, 4096M or "
                "4G)");
  };
  StringRef number = text.take_while(isDigit),
            suffix = text.drop_front(number.size());
  uint64_t bytes;
  if (number.empty() || number.getAsInteger(10, bytes) || bytes == 0)
    return bad();
  // An optional K, M, G or T (powers of 1024), then an optional "iB" after
  // one of them, or "B".
  unsigned shift = 0;
  size_t unit = suffix.empty() ? StringRef::npos
                               : StringRef("KMGT").find(toUpper(suffix[0]));
  if (unit != StringRef::npos) {
    shift = 10 * static_cast<unsigned>(unit + 1);
    suffix = suffix.drop_front();
    if (suffix.equals_insensitive("ib"))
      suffix = "";
  }
  if (suffix.equals_insensitive("b"))
    suffix = "";
  if (!suffix.empty() || (shift && bytes > (UINT64_MAX >> shift)))
    return bad();
  return bytes << shift;
}

/// `bytes` for people: "2 GiB", "512 MiB", "1.5 GiB", "100 bytes".
static std::string humanSize(uint64_t bytes) {
  static const char *const units[] = {"bytes", "KiB", "MiB", "GiB",
                                      "TiB",   "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 6) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof(text), "%.4g %s", value, units[unit]);
  return text;
}

std::string quantc::inputLimitText(uint64_t limit) {
  std::string human = limit < 1024 ? "" : " (" + humanSize(limit) + ")";
  return "the input limit of " + std::to_string(limit) + " bytes" + human +
         "; set " + kMaxInputBytesVariable.str() + " (e.g. " +
         kMaxInputBytesVariable.str() + "=8G) to raise it";
}

namespace {

/// A buffer that owns a malloc() block (streams are read into one).
class MallocBuffer final : public MemoryBuffer {
public:
  MallocBuffer(char *data, size_t size, StringRef name)
      : data(data), name(name.str()) {
    data[size] = '\0';
    init(data, data + size, /*RequiresNullTerminator=*/true);
  }
  ~MallocBuffer() override { std::free(data); }
  StringRef getBufferIdentifier() const override { return name; }
  BufferKind getBufferKind() const override { return MemoryBuffer_Malloc; }

private:
  char *data;
  std::string name;
};

/// Closes a descriptor it owns.
struct FileDescriptor {
  int fd = -1;
  bool owned = false;
  ~FileDescriptor() {
    if (owned && fd >= 0)
      ::close(fd);
  }
};

/// What `mode` is, for messages.
const char *fileKind(mode_t mode) {
  if (S_ISFIFO(mode))
    return "a pipe";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "a file";
}

/// Waits until `fd` can be read; false after kInputIdleSeconds of nothing.
bool waitReadable(int fd) {
  struct pollfd p = {fd, POLLIN, 0};
  for (;;) {
    int ready = ::poll(&p, 1, quantc::kInputIdleSeconds * 1000);
    if (ready > 0)
      return true;
    if (ready == 0)
      return false;
    if (errno != EINTR)
      return true; // let read() report the error
  }
}

/// Reads `fd` to its end into a MallocBuffer, failing past `limit` bytes;
/// `timed` reads wait at most kInputIdleSeconds for data.
Expected<std::unique_ptr<MemoryBuffer>> readStream(int fd, StringRef path,
                                                   const char *kind,
                                                   uint64_t limit, bool timed) {
  size_t capacity = 0, size = 0;
  char *data = nullptr;
  auto failWith = [&](const Twine &message) {
    std::free(data);
    return fail("'" + path + "' (" + kind + ") " + message);
  };
  for (;;) {
    if (size == capacity) {
      if (size > limit)
        return failWith("gives more than " + quantc::inputLimitText(limit));
      // Room for limit + 1 bytes (to see that the stream goes past the
      // limit) and the null terminator.
      size_t wanted = static_cast<size_t>(std::min<uint64_t>(
          std::max<size_t>(2 * capacity, 1 << 16), limit + 1));
      char *grown = static_cast<char *>(std::realloc(data, wanted + 1));
      if (!grown)
        return failWith("cannot be read: out of memory after " + Twine(size) +
                        " bytes");
      data = grown;
      capacity = wanted;
    }
    if (timed && !waitReadable(fd))
      return failWith("sent nothing for " + Twine(quantc::kInputIdleSeconds) +
                      " s (a pipe nobody writes to?); write the input to a "
                      "regular file");
    ssize_t got = ::read(fd, data + size, capacity - size);
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN)
        continue;
      return failWith("cannot be read: " + Twine(std::strerror(errno)));
    }
    if (got == 0)
      break;
    size += static_cast<size_t>(got);
  }
  if (size > limit)
    return failWith("gives more than " + quantc::inputLimitText(limit));
  return std::unique_ptr<MemoryBuffer>(new MallocBuffer(data, size, path));
}

} // namespace

Expected<std::unique_ptr<MemoryBuffer>> quantc::readInputFile(StringRef path) {
  Expected<uint64_t> limit = maxInputBytes();
  if (!limit)
    return limit.takeError();
  FileDescriptor file;
  bool isStdin = path == "-";
  if (isStdin) {
    file.fd = STDIN_FILENO;
  } else {
    // Non-blocking: opening a FIFO for reading blocks until a writer comes.
    file.fd = ::open(path.str().c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (file.fd < 0)
      return fail("cannot read '" + path + "': " + std::strerror(errno));
    file.owned = true;
  }
  struct stat st;
  if (::fstat(file.fd, &st) != 0)
    return fail("cannot read '" + path + "': " + std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    return fail("'" + path + "' is a directory, not a file");
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    uint64_t size = static_cast<uint64_t>(st.st_size);
    if (size > *limit)
      return fail("'" + path + "' has " + Twine(size) + " bytes, more than " +
                  inputLimitText(*limit));
    if (!isStdin) {
      int flags = ::fcntl(file.fd, F_GETFL);
      if (flags >= 0)
        (void)::fcntl(file.fd, F_SETFL, flags & ~O_NONBLOCK);
    }
    ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getOpenFile(
        sys::fs::convertFDToNativeFile(file.fd), path, size,
        /*RequiresNullTerminator=*/true);
    if (!buffer)
      return fail("cannot read '" + path + "': " + buffer.getError().message());
    return std::move(*buffer);
  }
  // A stream (pipe, device, stdin) or a file whose size stat() does not
  // know (/proc): read it to its end, within the limit.
  return readStream(file.fd, path,
                    S_ISREG(st.st_mode) ? "a file of unknown size"
                                        : fileKind(st.st_mode),
                    *limit, /*timed=*/!isStdin && !S_ISREG(st.st_mode));
}
