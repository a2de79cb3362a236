//===- Text.h - Model-supplied strings as generated text --------*- C++ -*-===//
//
// Everything quantc writes as text (the C header, its comments and macros,
// C identifiers, error messages and remarks on a terminal) may quote strings
// a model carries: graph, tensor and function names, layouts, paths. A
// model is untrusted input, and such a string may hold any byte: `*/`, a
// newline, a backslash before a newline, `??/`, NUL, an ANSI escape
// sequence, invalid UTF-8, ten megabytes. The functions here turn any byte
// sequence into text that keeps its meaning in one context and cannot
// leave it; every place that generates text from such a string goes
// through one of them (docs/hardening.md, "Names").
//
// Escapes are `\xNN` (two hex digits, upper case) unless a context says
// otherwise, so that the text stays pure printable ASCII and the original
// bytes can be read back.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_SUPPORT_TEXT_H
#define QUANTC_SUPPORT_TEXT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <string>

namespace quantc {

/// How many bytes of a string the header's comment quotes before it
/// stops with "..." and the length (the metadata JSON has the whole name).
inline constexpr size_t kMaxCommentBytes = 1024;
/// How many bytes of a string a message or remark quotes.
inline constexpr size_t kMaxPrintableBytes = 200;

/// `text` for the inside of a C block comment (`/* ... */`), on one line:
/// printable ASCII stays as it is, except `*` (so that neither `*/` nor
/// `/*` can form, whatever surrounds it), `\` (no line splice, no escape
/// that reads as another) and the second `?` of `??` (no trigraph), which
/// become `\xNN` like every other byte (control characters, DEL, bytes of
/// UTF-8 or not). Longer than `maxBytes` bytes: the first `maxBytes`
/// escaped, then "... (N bytes)".
std::string cComment(llvm::StringRef text, size_t maxBytes = kMaxCommentBytes);

/// `text` as the body of a C string literal (what goes between the double
/// quotes): printable ASCII as it is except `"` and `\` (escaped with a
/// backslash) and `?` (`\?`: no trigraph); every other byte, NUL
/// included, as a three-digit octal escape (`\000`, `\377`), which no
/// following digit can extend. The literal's value is exactly `text`.
std::string cStringLiteralBody(llvm::StringRef text);

/// A C identifier made from arbitrary bytes: ASCII letters, digits and `_`
/// stay, every other byte becomes `_`, and "model_" goes before an empty
/// result or a leading digit.
std::string cIdentifier(llvm::StringRef bytes);

/// Whether `text` is a C identifier: an ASCII letter or `_`, then ASCII
/// letters, digits and `_`.
bool isCIdentifier(llvm::StringRef text);

/// `text` as valid UTF-8, what JSON and XML can hold: each invalid sequence
/// becomes U+FFFD (llvm::json::fixUTF8; llvm::json::Value asserts on
/// invalid UTF-8 in a build with assertions).
std::string validUtf8(llvm::StringRef text);

/// `text` for a message, a remark or a table on a terminal, on one line:
/// printable ASCII stays (a `\` becomes `\\`), every other byte (newline,
/// ESC, DEL, NUL, bytes of UTF-8 or not) becomes `\xNN`, so that a name can
/// neither move the cursor, change colours or the title, nor pretend to be
/// another line. Longer than `maxBytes` bytes: the first `maxBytes`
/// escaped, then "... (N bytes)".
std::string printable(llvm::StringRef text,
                      size_t maxBytes = kMaxPrintableBytes);

/// `text` made safe for a terminal as a whole message: newlines and tabs
/// stay, and so does valid UTF-8 except the C1 controls (U+0080..U+009F);
/// every other control character (ESC, CR, backspace, DEL, ...) and every
/// byte of invalid UTF-8 becomes `\xNN`. For messages that may contain
/// names that the code building them did not pass through printable()
/// (the tools' error printer and diagnostic handler apply it to all).
std::string terminalSafe(llvm::StringRef text);

/// A stream that writes terminalSafe() text to another stream (stderr for
/// the tools' diagnostics) and forwards colour changes to it, so that the
/// colours of a diagnostic handler still work while the text cannot carry
/// escape sequences of its own. A UTF-8 sequence split across writes is
/// held back until it is complete.
class TerminalSafeStream : public llvm::raw_ostream {
public:
  explicit TerminalSafeStream(llvm::raw_ostream &out);
  ~TerminalSafeStream() override;

  bool has_colors() const override { return out.has_colors(); }
  bool is_displayed() const override { return out.is_displayed(); }
  raw_ostream &changeColor(enum Colors color, bool bold = false,
                           bool bg = false) override;
  raw_ostream &resetColor() override;
  raw_ostream &reverseColor() override;

private:
  void write_impl(const char *ptr, size_t size) override;
  uint64_t current_pos() const override { return position; }
  /// Writes what is pending, an incomplete UTF-8 sequence escaped.
  void drain();

  llvm::raw_ostream &out;
  std::string pending;
  uint64_t position = 0;
};

} // namespace quantc

#endif // QUANTC_SUPPORT_TEXT_H
