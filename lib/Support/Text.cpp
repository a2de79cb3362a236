//===- Text.cpp - Model-supplied strings as generated text ----------------===//
//
// The escaping functions of quantc/Support/Text.h. Each keeps a small set
// of bytes that cannot change the meaning of its context and escapes every
// other byte; none looks at more than one byte of context before it, so
// that what precedes or follows the result cannot combine with it.
//
//===----------------------------------------------------------------------===//

#include "quantc/Support/Text.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/JSON.h"

using namespace quantc;

/// Printable ASCII: space to '~'.
static bool isPrintableAscii(unsigned char c) { return c >= 0x20 && c < 0x7f; }

/// Appends `\xNN`.
static void appendHex(std::string &out, unsigned char c) {
  out += "\\x";
  out += llvm::hexdigit(c >> 4);
  out += llvm::hexdigit(c & 15);
}

/// What follows the first `maxBytes` bytes of a longer string.
static void appendTruncation(std::string &out, size_t size) {
  out += "... (" + std::to_string(size) + " bytes)";
}

std::string quantc::cComment(llvm::StringRef text, size_t maxBytes) {
  std::string out;
  llvm::StringRef head = text.take_front(maxBytes);
  out.reserve(head.size() + 16);
  char previous = 0;
  for (char ch : head) {
    auto c = static_cast<unsigned char>(ch);
    bool keep = isPrintableAscii(c) && c != '*' && c != '\\' &&
                !(c == '?' && previous == '?');
    if (keep)
      out += ch;
    else
      appendHex(out, c);
    // An escape ends in a hex digit: a '?' after it starts a new pair.
    previous = keep ? ch : 0;
  }
  if (head.size() < text.size())
    appendTruncation(out, text.size());
  return out;
}

std::string quantc::cStringLiteralBody(llvm::StringRef text) {
  std::string out;
  out.reserve(text.size() + 8);
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\' || c == '?') {
      out += '\\';
      out += ch;
    } else if (isPrintableAscii(c)) {
      out += ch;
    } else {
      out += '\\';
      out += static_cast<char>('0' + (c >> 6));
      out += static_cast<char>('0' + ((c >> 3) & 7));
      out += static_cast<char>('0' + (c & 7));
    }
  }
  return out;
}

bool quantc::isCIdentifier(llvm::StringRef text) {
  if (text.empty() || !(llvm::isAlpha(text[0]) || text[0] == '_'))
    return false;
  return llvm::all_of(text,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

std::string quantc::cIdentifier(llvm::StringRef bytes) {
  std::string name = bytes.str();
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  if (name.empty() || llvm::isDigit(name[0]))
    name = "model_" + name;
  return name;
}

std::string quantc::validUtf8(llvm::StringRef text) {
  return llvm::json::isUTF8(text) ? text.str() : llvm::json::fixUTF8(text);
}

std::string quantc::printable(llvm::StringRef text, size_t maxBytes) {
  std::string out;
  llvm::StringRef head = text.take_front(maxBytes);
  out.reserve(head.size() + 16);
  for (char ch : head) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '\\')
      out += "\\\\";
    else if (isPrintableAscii(c))
      out += ch;
    else
      appendHex(out, c);
  }
  if (head.size() < text.size())
    appendTruncation(out, text.size());
  return out;
}

/// Whether code point `cp` may reach a terminal: not a C0 control other
/// than newline and tab, not DEL, not a C1 control, and not one of the
/// Unicode controls that reorder or break what a terminal shows (bidi
/// embeddings, overrides and isolates, line and paragraph separators).
static bool isSafeCodePoint(uint32_t cp) {
  if (cp < 0x20)
    return cp == '\n' || cp == '\t';
  if (cp >= 0x7f && cp < 0xa0)
    return false;
  if ((cp >= 0x200e && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
      (cp >= 0x2066 && cp <= 0x2069) || cp == 0x061c)
    return false;
  return true;
}

/// The length of the valid UTF-8 sequence at the start of `text` and its
/// code point, or 0 if it is not one (invalid, or cut off by the end).
static size_t utf8Sequence(llvm::StringRef text, uint32_t &cp) {
  auto *begin = reinterpret_cast<const llvm::UTF8 *>(text.data());
  size_t length = llvm::getNumBytesForUTF8(begin[0]);
  if (length > text.size() || !llvm::isLegalUTF8Sequence(begin, begin + length))
    return 0;
  const llvm::UTF8 *source = begin;
  llvm::UTF32 point = 0;
  llvm::UTF32 *target = &point;
  if (llvm::ConvertUTF8toUTF32(&source, begin + length, &target, target + 1,
                               llvm::strictConversion) != llvm::conversionOK)
    return 0;
  cp = point;
  return length;
}

/// Appends the terminal-safe form of the complete sequences of `text` and
/// returns how many bytes at its end start a UTF-8 sequence that `text`
/// cuts off (with `final`, none: those are escaped too).
static size_t appendTerminalSafe(std::string &out, llvm::StringRef text,
                                 bool final) {
  size_t i = 0;
  while (i < text.size()) {
    auto c = static_cast<unsigned char>(text[i]);
    uint32_t cp = c;
    size_t length = c < 0x80 ? 1 : utf8Sequence(text.drop_front(i), cp);
    if (!length && !final && c >= 0xc2 && c <= 0xf4 &&
        i + llvm::getNumBytesForUTF8(c) > text.size()) {
      // A sequence the next write may complete, if what is there is a
      // valid beginning.
      bool prefix = llvm::all_of(text.drop_front(i + 1), [](char b) {
        return (static_cast<unsigned char>(b) & 0xc0) == 0x80;
      });
      if (prefix)
        return text.size() - i;
    }
    if (length && isSafeCodePoint(cp)) {
      out.append(text.data() + i, length);
    } else {
      for (size_t j = 0; j < std::max<size_t>(length, 1); ++j)
        appendHex(out, static_cast<unsigned char>(text[i + j]));
    }
    i += std::max<size_t>(length, 1);
  }
  return 0;
}

std::string quantc::terminalSafe(llvm::StringRef text) {
  std::string out;
  out.reserve(text.size());
  appendTerminalSafe(out, text, /*final=*/true);
  return out;
}

TerminalSafeStream::TerminalSafeStream(llvm::raw_ostream &out)
    : raw_ostream(/*unbuffered=*/true), out(out) {}

TerminalSafeStream::~TerminalSafeStream() {
  flush();
  drain();
}

void TerminalSafeStream::write_impl(const char *ptr, size_t size) {
  position += size;
  pending.append(ptr, size);
  std::string text;
  size_t held = appendTerminalSafe(text, pending, /*final=*/false);
  out << text;
  pending.erase(0, pending.size() - held);
}

void TerminalSafeStream::drain() {
  if (pending.empty())
    return;
  out << terminalSafe(pending);
  pending.clear();
}

llvm::raw_ostream &TerminalSafeStream::changeColor(enum Colors color, bool bold,
                                                   bool bg) {
  flush();
  drain();
  out.changeColor(color, bold, bg);
  return *this;
}

llvm::raw_ostream &TerminalSafeStream::resetColor() {
  flush();
  drain();
  out.resetColor();
  return *this;
}

llvm::raw_ostream &TerminalSafeStream::reverseColor() {
  flush();
  drain();
  out.reverseColor();
  return *this;
}
