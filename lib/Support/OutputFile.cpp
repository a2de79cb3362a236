//===- OutputFile.cpp - Output files written whole or not at all ----------===//
//
// quantc/Support/OutputFile.h: path checks, temporaries beside the target,
// checked writes and an all-or-nothing commit of several files. POSIX calls
// where LLVM's file system layer hides what matters here (lstat's file type,
// opening a device without O_CREAT, fsync, rename without replacing).
//
//===----------------------------------------------------------------------===//

#include "quantc/Support/OutputFile.h"

#include "quantc/Support/Fail.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace quantc;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

namespace {
/// Where an output's bytes go.
enum class Kind {
  File,     // a temporary renamed onto the target
  Reserved, // a temporary another program writes, renamed onto the target
  Stdout,   // standard output, as the bytes come
  Device,   // an existing character device, written through
};

/// An output path resolved: where its bytes go, and the file it names.
struct Resolved {
  Kind kind;
  /// The file replaced (a symbolic link's regular file), the device, or "-".
  std::string target;
};
} // namespace

struct OutputSet::Entry {
  Kind kind;
  /// The path as given, for messages.
  std::string path;
  OutputOptions options;
  std::string target;
  /// The temporary beside the target (File, Reserved).
  std::string temp;
  /// A hard link to the target's previous file while the set commits.
  std::string backup;
  std::unique_ptr<llvm::raw_fd_ostream> os;
  /// The stream's descriptor (raw_fd_ostream keeps its own protected).
  int fd = -1;
};

/// "cannot write 'PATH' (OPTION): WHY".
static Error refuse(StringRef path, const OutputOptions &options,
                    const Twine &why) {
  std::string option =
      options.option.empty() ? "" : (" (" + options.option + ")").str();
  return fail("cannot write '" + path + "'" + option + ": " + why);
}

/// errno's text.
static std::string osError(int error) {
  return std::error_code(error, std::generic_category()).message();
}

/// Why a file of type `mode` is not written.
static std::string describe(mode_t mode, const OutputOptions &options) {
  std::string toStdout =
      options.allowStdout ? "; use '-' for standard output" : "";
  if (S_ISDIR(mode))
    return "it is a directory; name a file in it";
  if (S_ISCHR(mode))
    return "it is a character device, not a regular file; this output is "
           "written to files only" +
           toStdout;
  if (S_ISBLK(mode))
    return "it is a block device, not a regular file";
  if (S_ISFIFO(mode))
    return "it is a fifo (named pipe), not a regular file" + toStdout;
  if (S_ISSOCK(mode))
    return "it is a socket, not a regular file";
  return "it is not a regular file";
}

/// Checks the directories above `file`: the nearest one that exists must be
/// a directory where files can be created (the temporary goes there; the
/// missing ones are created when the output is opened).
static Error checkParents(StringRef path, StringRef file,
                          const OutputOptions &options) {
  StringRef dir = llvm::sys::path::parent_path(file);
  for (; !dir.empty(); dir = llvm::sys::path::parent_path(dir)) {
    struct stat st;
    if (::stat(dir.str().c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode))
        return refuse(path, options, "'" + dir + "' is not a directory");
      break;
    }
    // ENOTDIR: a component above is not a directory; find which.
    if (errno != ENOENT && errno != ENOTDIR)
      return refuse(path, options, "'" + dir + "': " + osError(errno));
  }
  std::string existing = dir.empty() ? "." : dir.str();
  if (::access(existing.c_str(), W_OK | X_OK) != 0)
    return refuse(path, options,
                  "cannot create files in '" + existing +
                      "': " + osError(errno));
  return Error::success();
}

/// Where `path`'s bytes go, or why they cannot.
static Expected<Resolved> resolve(StringRef path,
                                  const OutputOptions &options) {
  if (path.empty())
    return refuse(path, options, "the path is empty");
  if (path == "-") {
    if (options.allowStdout)
      return Resolved{Kind::Stdout, "-"};
    return refuse(path, options,
                  "this output cannot go to standard output; name a file");
  }
  StringRef name = llvm::sys::path::filename(path);
  if (path.ends_with("/") || name == "." || name == "..")
    return refuse(path, options, "it names a directory; name a file");
  std::string file = path.str();
  struct stat st;
  if (::lstat(file.c_str(), &st) != 0) {
    int error = errno;
    if (error == ENOENT || error == ENOTDIR) {
      if (Error e = checkParents(path, file, options))
        return std::move(e);
      if (error == ENOENT)
        return Resolved{Kind::File, file};
    }
    return refuse(path, options, osError(error));
  }
  if (S_ISLNK(st.st_mode)) {
    // A link to a regular file: that file. Anything else: refused, so that
    // nothing is created or replaced where the path does not name it.
    if (::stat(file.c_str(), &st) != 0)
      return refuse(path, options,
                    errno == ENOENT
                        ? "it is a symbolic link to a missing file (outputs "
                          "are not created through links)"
                        : "it is a symbolic link that cannot be followed: " +
                              osError(errno));
    if (S_ISREG(st.st_mode)) {
      llvm::SmallString<256> real;
      if (std::error_code ec = llvm::sys::fs::real_path(file, real))
        return refuse(path, options, ec.message());
      if (Error e = checkParents(path, real, options))
        return std::move(e);
      return Resolved{Kind::File, std::string(real)};
    }
  }
  if (S_ISREG(st.st_mode)) {
    if (Error e = checkParents(path, file, options))
      return std::move(e);
    return Resolved{Kind::File, file};
  }
  if (S_ISCHR(st.st_mode) && options.allowCharDevice)
    return Resolved{Kind::Device, file};
  return refuse(path, options, describe(st.st_mode, options));
}

/// A key that is the same for two paths of one file (absolute, without `.`
/// and `..`), for refusing one file given as two outputs.
static std::string fileKey(const Resolved &resolved) {
  llvm::SmallString<256> key(resolved.target);
  if (resolved.kind != Kind::Stdout) {
    (void)llvm::sys::fs::make_absolute(key);
    llvm::sys::path::remove_dots(key, /*remove_dot_dot=*/true);
  }
  return std::string(key);
}

Error quantc::checkOutputPath(StringRef path, const OutputOptions &options) {
  Expected<Resolved> resolved = resolve(path, options);
  return resolved ? Error::success() : resolved.takeError();
}

/// A write past the file size limit (ulimit -f) raises SIGXFSZ, which kills
/// the process (after LLVM's handler printed a stack dump). Ignored, the
/// write fails with EFBIG instead, which the set reports like a full disk.
/// Called after every registration of LLVM's signal handlers, which would
/// take the signal back.
static void ignoreFileSizeSignal() { std::signal(SIGXFSZ, SIG_IGN); }

OutputSet::OutputSet() { ignoreFileSizeSignal(); }

OutputSet::~OutputSet() { discard(); }

Error OutputSet::check(StringRef path, const OutputOptions &options) {
  Expected<Resolved> resolved = resolve(path, options);
  if (!resolved)
    return resolved.takeError();
  if (resolved->kind == Kind::Device)
    return Error::success();
  std::string key = fileKey(*resolved);
  if (llvm::is_contained(checked, key))
    return refuse(path, options, "it is also given as another output");
  checked.push_back(std::move(key));
  return Error::success();
}

/// Creates the directories above `file` that do not exist, recording them
/// in `created` (parents first).
static Error createParents(StringRef path, StringRef file,
                           const OutputOptions &options,
                           std::vector<std::string> &created) {
  llvm::SmallVector<StringRef> missing;
  for (StringRef dir = llvm::sys::path::parent_path(file);
       !dir.empty() && !llvm::sys::fs::exists(dir);
       dir = llvm::sys::path::parent_path(dir))
    missing.push_back(dir);
  for (StringRef dir : llvm::reverse(missing)) {
    std::error_code ec =
        llvm::sys::fs::create_directory(dir, /*IgnoreExisting=*/false);
    if (ec == llvm::errc::file_exists && llvm::sys::fs::is_directory(dir))
      continue;
    if (ec)
      return refuse(path, options,
                    "cannot create the directory '" + dir +
                        "': " + ec.message());
    created.push_back(dir.str());
  }
  return Error::success();
}

/// A unique name beside `target`: ".<name>.<what>-XXXXXXXX" (the name cut
/// so that the whole stays within NAME_MAX).
static std::string besideModel(StringRef target, StringRef what) {
  llvm::SmallString<256> model(llvm::sys::path::parent_path(target));
  llvm::sys::path::append(
      model, "." + llvm::sys::path::filename(target).take_front(200) + "." +
                 what + "-%%%%%%%%");
  return std::string(model);
}

Expected<OutputSet::Entry &>
OutputSet::add(StringRef path, const OutputOptions &options, bool reserved) {
  Expected<Resolved> resolved = resolve(path, options);
  if (!resolved)
    return resolved.takeError();
  auto entry = std::make_unique<Entry>();
  entry->kind = resolved->kind;
  entry->path = path.str();
  entry->options = options;
  entry->target = resolved->target;
  if (entry->kind != Kind::Device) {
    std::string key = fileKey(*resolved);
    for (const std::unique_ptr<Entry> &other : entries)
      if (other->kind != Kind::Device &&
          fileKey({other->kind, other->target}) == key)
        return refuse(path, options, "it is also given as another output");
  }
  if (reserved && entry->kind != Kind::File)
    return refuse(path, options, "this output is written to files only");
  switch (entry->kind) {
  case Kind::Stdout:
    break;
  case Kind::Device: {
    // Without O_CREAT or O_TRUNC: the device, never a file in its place.
    int fd = ::open(entry->target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
      return refuse(path, options, osError(errno));
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode)) {
      ::close(fd);
      return refuse(path, options, "it changed while it was opened");
    }
    entry->os = std::make_unique<llvm::raw_fd_ostream>(fd, true);
    entry->fd = fd;
    break;
  }
  case Kind::File:
  case Kind::Reserved: {
    if (Error e = createParents(path, entry->target, options, createdDirs))
      return std::move(e);
    int fd;
    llvm::SmallString<256> temp;
    if (std::error_code ec = llvm::sys::fs::createUniqueFile(
            besideModel(entry->target, "tmp"), fd, temp))
      return refuse(path, options,
                    "cannot create a temporary file beside it: " +
                        ec.message());
    entry->temp = std::string(temp);
    llvm::sys::RemoveFileOnSignal(entry->temp);
    ignoreFileSizeSignal();
    if (reserved) {
      entry->kind = Kind::Reserved;
      ::close(fd);
    } else {
      entry->os = std::make_unique<llvm::raw_fd_ostream>(fd, true);
      entry->fd = fd;
    }
    break;
  }
  }
  entries.push_back(std::move(entry));
  return *entries.back();
}

Expected<llvm::raw_pwrite_stream &>
OutputSet::open(StringRef path, const OutputOptions &options) {
  Expected<Entry &> entry = add(path, options, /*reserved=*/false);
  if (!entry)
    return entry.takeError();
  if (entry->kind == Kind::Stdout)
    return llvm::outs();
  return *entry->os;
}

Expected<std::string> OutputSet::reserve(StringRef path,
                                         const OutputOptions &options) {
  Expected<Entry &> entry = add(path, options, /*reserved=*/true);
  if (!entry)
    return entry.takeError();
  return entry->temp;
}

/// Flushes, syncs and closes `os`; the first error, with the stream's error
/// cleared (an error left in a raw_fd_ostream is fatal when it is
/// destroyed).
static std::error_code closeStream(llvm::raw_fd_ostream &os, int fd,
                                   bool sync) {
  os.flush();
  std::error_code ec = os.error();
  if (!ec && sync && ::fsync(fd) != 0)
    ec = std::error_code(errno, std::generic_category());
  os.close();
  if (!ec)
    ec = os.error();
  os.clear_error();
  return ec;
}

Error OutputSet::finish(Entry &entry) {
  switch (entry.kind) {
  case Kind::Stdout: {
    llvm::raw_fd_ostream &out = llvm::outs();
    out.flush();
    if (std::error_code ec = out.error()) {
      out.clear_error();
      return refuse("-", entry.options, "standard output: " + ec.message());
    }
    return Error::success();
  }
  case Kind::Device:
  case Kind::File: {
    std::error_code ec =
        closeStream(*entry.os, entry.fd, entry.kind == Kind::File);
    entry.os.reset();
    return ec ? refuse(entry.path, entry.options, ec.message())
              : Error::success();
  }
  case Kind::Reserved: {
    // The program may have replaced the temporary: it must be a regular
    // file still.
    int fd = ::open(entry.temp.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      int error = fd < 0 ? errno : EINVAL;
      if (fd >= 0)
        ::close(fd);
      return refuse(entry.path, entry.options,
                    "the written file is gone: " + osError(error));
    }
    int rc = ::fsync(fd);
    int error = errno;
    ::close(fd);
    return rc ? refuse(entry.path, entry.options, osError(error))
              : Error::success();
  }
  }
  return Error::success();
}

/// Renames `temp` onto `target`, which must not exist (RENAME_NOREPLACE
/// where the file system has it: a target that appeared is not replaced).
static int renameNew(const std::string &temp, const std::string &target) {
#ifdef RENAME_NOREPLACE
  if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, target.c_str(),
                  RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS)
    return -1;
#endif
  return ::rename(temp.c_str(), target.c_str());
}

/// A hard link to `target` beside it, so that a failed commit can put the
/// file back; empty where links are not possible (then the commit can only
/// remove what it wrote).
static std::string linkBackup(const std::string &target) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    llvm::SmallString<256> backup;
    llvm::sys::fs::createUniquePath(besideModel(target, "old"), backup,
                                    /*MakeAbsolute=*/false);
    if (::link(target.c_str(), backup.c_str()) == 0)
      return std::string(backup);
    if (errno != EEXIST)
      break;
  }
  return "";
}

Error OutputSet::rename(std::vector<Entry *> &renamed) {
  size_t files = llvm::count_if(entries, [](const auto &e) {
    return e->kind == Kind::File || e->kind == Kind::Reserved;
  });
  for (const std::unique_ptr<Entry> &entry : entries) {
    if (entry->kind != Kind::File && entry->kind != Kind::Reserved)
      continue;
    // The target again: it may have changed while the outputs were written.
    struct stat st;
    bool exists = ::lstat(entry->target.c_str(), &st) == 0;
    if (!exists && errno != ENOENT)
      return refuse(entry->path, entry->options, osError(errno));
    if (exists && !S_ISREG(st.st_mode))
      return refuse(entry->path, entry->options,
                    describe(st.st_mode, entry->options));
    int rc;
    if (exists) {
      // The file it replaces keeps its permission bits.
      ::chmod(entry->temp.c_str(), st.st_mode & 0777);
      if (files > 1)
        entry->backup = linkBackup(entry->target);
      rc = ::rename(entry->temp.c_str(), entry->target.c_str());
    } else {
      rc = renameNew(entry->temp, entry->target);
    }
    if (rc != 0) {
      int error = errno;
      if (!entry->backup.empty())
        ::unlink(entry->backup.c_str());
      entry->backup.clear();
      return refuse(entry->path, entry->options, osError(error));
    }
    llvm::sys::DontRemoveFileOnSignal(entry->temp);
    entry->temp.clear();
    renamed.push_back(entry.get());
  }
  return Error::success();
}

Error OutputSet::commit() {
  Error first = Error::success();
  for (const std::unique_ptr<Entry> &entry : entries)
    if (Error e = finish(*entry)) {
      first = std::move(e);
      break;
    }
  std::vector<Entry *> renamed;
  if (!first)
    first = rename(renamed);
  if (first) {
    // Put back what was renamed: the previous file, or no file.
    for (Entry *entry : llvm::reverse(renamed)) {
      if (!entry->backup.empty())
        ::rename(entry->backup.c_str(), entry->target.c_str());
      else
        ::unlink(entry->target.c_str());
      entry->backup.clear();
    }
    discard();
    return first;
  }
  for (Entry *entry : renamed)
    if (!entry->backup.empty())
      ::unlink(entry->backup.c_str());
  entries.clear();
  createdDirs.clear();
  checked.clear();
  return Error::success();
}

void OutputSet::discard() {
  for (const std::unique_ptr<Entry> &entry : entries) {
    if (entry->os) {
      entry->os->close();
      entry->os->clear_error();
      entry->os.reset();
    }
    if (entry->kind == Kind::Stdout)
      llvm::outs().clear_error();
    if (!entry->temp.empty()) {
      ::unlink(entry->temp.c_str());
      llvm::sys::DontRemoveFileOnSignal(entry->temp);
    }
    if (!entry->backup.empty())
      ::unlink(entry->backup.c_str());
  }
  entries.clear();
  for (const std::string &dir : llvm::reverse(createdDirs))
    ::rmdir(dir.c_str());
  createdDirs.clear();
  checked.clear();
}

/// The tool reportStdoutErrorsAtExit names.
static llvm::StringLiteral stdoutTool = "";

/// At exit, before outs() is destroyed: its error as a diagnosed one.
static void checkStdoutAtExit() {
  llvm::raw_fd_ostream &out = llvm::outs();
  out.flush();
  std::error_code ec = out.error();
  if (!ec)
    return;
  out.clear_error();
  llvm::errs() << stdoutTool
               << ": error: cannot write to standard output: " << ec.message()
               << "\n";
  llvm::errs().flush();
  std::_Exit(1);
}

void quantc::reportStdoutErrorsAtExit(llvm::StringLiteral tool) {
  stdoutTool = tool;
  // Constructed before the handler is registered, destroyed after it runs.
  (void)llvm::errs();
  (void)llvm::outs();
  std::atexit(checkStdoutAtExit);
}

Error quantc::writeOutputFile(
    StringRef path, llvm::function_ref<void(llvm::raw_ostream &)> write,
    const OutputOptions &options) {
  OutputSet outputs;
  Expected<llvm::raw_pwrite_stream &> os = outputs.open(path, options);
  if (!os)
    return os.takeError();
  write(*os);
  return outputs.commit();
}
