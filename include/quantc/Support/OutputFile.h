//===- OutputFile.h - Output files written whole or not at all --*- C++ -*-===//
//
// The one way quantc writes a file (every tool and library: objects, shared
// libraries, headers, IR, profiles, reports, .npy / .npz). An output is
// written to a temporary file created exclusively in its target's own
// directory, every write, flush, fsync and close is checked, and only then is
// the temporary renamed onto the target, which must be a new name or a
// regular file. The outputs of one command form an OutputSet and appear
// together or not at all; on failure nothing is left behind: no temporary,
// no partial file, no directory that the set created, no replaced file.
//
// What a path may name (docs/hardening.md, "Output files"):
// - a new name in an existing directory, or under directories that can be
//   created (they are, and removed again if the set fails);
// - an existing regular file: replaced atomically (its permission bits are
//   kept), never written in place;
// - a symbolic link to a regular file: that file is replaced (the link
//   stays); a dangling link or a link to anything else is refused, so that
//   no file is created or replaced at a place the path does not name;
// - `-` for standard output, where the caller allows it;
// - an existing character device (/dev/null, a terminal), where the caller
//   allows it (text and data outputs, not objects): opened without O_CREAT
//   or O_TRUNC and written through, never replaced;
// - anything else (a directory, a fifo, a socket, a block device, a path
//   below a regular file, an empty path or one ending in `/`) is refused
//   with the path and the reason.
//
// A set ignores SIGXFSZ, so that a write past a file size limit (ulimit -f)
// fails with EFBIG and is reported like a full disk, instead of killing the
// process.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_SUPPORT_OUTPUTFILE_H
#define QUANTC_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace quantc {

/// How one output may be written besides a new name or a regular file.
struct OutputOptions {
  /// The option that named the path ("-o", "--header"), quoted in errors.
  llvm::StringRef option;
  /// `-` is standard output.
  bool allowStdout = true;
  /// An existing character device is written through (text and data that
  /// may be discarded to /dev/null; not objects, which need a file).
  bool allowCharDevice = false;
};

/// Checks that `path` can be written as `options` allow, without creating
/// anything: the path itself, and that its nearest existing ancestor is a
/// directory. Tools call it before their work, so that a bad -o fails in
/// milliseconds rather than after the compilation.
llvm::Error checkOutputPath(llvm::StringRef path,
                            const OutputOptions &options = {});

/// The output files of one command: each written to a temporary beside its
/// target, all renamed onto their targets by commit(), or all discarded.
/// Destroying a set that was not committed discards it.
class OutputSet {
public:
  OutputSet();
  ~OutputSet();
  OutputSet(const OutputSet &) = delete;
  OutputSet &operator=(const OutputSet &) = delete;

  /// Checks `path` as checkOutputPath does and remembers it: a second
  /// output that resolves to the same file is refused.
  llvm::Error check(llvm::StringRef path, const OutputOptions &options = {});

  /// A stream whose bytes become `path` when commit() succeeds (standard
  /// output and character devices are written as the bytes come). Creates
  /// the missing parent directories. The stream stays valid until the set
  /// is committed or discarded; its errors are collected by commit().
  llvm::Expected<llvm::raw_pwrite_stream &>
  open(llvm::StringRef path, const OutputOptions &options = {});

  /// For an output another program writes (the C compiler linking a shared
  /// library): the path of an empty temporary file beside `path` that the
  /// program may write or replace; commit() renames it onto `path`. Only
  /// new names and regular files (no `-`, no devices).
  llvm::Expected<std::string> reserve(llvm::StringRef path,
                                      const OutputOptions &options = {});

  /// Finishes every output (flush, fsync, close, each checked), checks the
  /// targets again, then renames every temporary onto its target. If
  /// anything fails, no target changes (targets renamed before the failure
  /// are restored or removed), nothing is left behind, and the error names
  /// the path and the OS's reason. The set is empty afterwards.
  llvm::Error commit();

  /// Removes every temporary and the directories the set created.
  void discard();

  struct Entry;

private:
  llvm::Error finish(Entry &entry);
  llvm::Error rename(std::vector<Entry *> &renamed);
  llvm::Expected<Entry &> add(llvm::StringRef path,
                              const OutputOptions &options, bool reserved);

  std::vector<std::unique_ptr<Entry>> entries;
  /// Directories created for the outputs, parents first.
  std::vector<std::string> createdDirs;
  /// The resolved targets check() has seen.
  std::vector<std::string> checked;
};

/// Makes a tool's exit report a failed write to standard output (a full
/// disk, /dev/full) as "<tool>: error: cannot write to standard output:
/// <reason>" with exit code 1, where LLVM would end in its fatal "IO failure
/// on output stream" when outs() is destroyed. Call at the start of main,
/// after InitLLVM.
void reportStdoutErrorsAtExit(llvm::StringLiteral tool);

/// Writes one output: `write`'s bytes become `path`, or nothing does.
llvm::Error writeOutputFile(llvm::StringRef path,
                            llvm::function_ref<void(llvm::raw_ostream &)> write,
                            const OutputOptions &options = {});

} // namespace quantc

#endif // QUANTC_SUPPORT_OUTPUTFILE_H
