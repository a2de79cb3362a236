//===- TextTest.cpp - Hostile strings through quantc/Support/Text.h -------===//
//
// Every escaping function against the byte sequences a hostile model can
// carry in a name: comment terminators and openers, trigraphs, line
// splices, NUL, 0xff, UTF-8 (valid, invalid, C1 and bidi controls), ANSI
// escape sequences, ten megabytes; then random bytes, where the properties
// of each context must hold and the string literal must decode back to the
// exact bytes.
//
//===----------------------------------------------------------------------===//

#include "quantc/Support/Text.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

using namespace quantc;

namespace {

using namespace std::string_literals;

/// The hostile names every test runs.
std::vector<std::string> hostileNames() {
  return {
      "*/ __attribute__((constructor)) static void evil(void){} /*",
      "/*",
      "*/",
      "a*",
      "/b",
      "?\?/",
      "?\?=define x",
      "?\?\?/\n*/",
      "line\\\nsplice",
      "trailing\\",
      "nul\0inside"s,
      "\xff\xfe\x80",
      "caf\xc3\xa9 \xe6\xa8\xa1\xe5\x9e\x8b",
      "\x1b[2J\x1b]0;title\x07\x1b[31mred",
      "\r\b\x7f\x9b"
      "31m",
      "\xc2\x9b"
      "31m \xe2\x80\xae"
      "gnp.exe",
      "\"quoted\" 'single' \\ back",
      "\n#define int void\n",
      "",
  };
}

/// Every byte of `s` is printable ASCII.
bool isPrintableAscii(const std::string &s) {
  return llvm::all_of(s, [](char c) { return c >= 0x20 && c < 0x7f; });
}

/// The bytes of the body of a C string literal, decoded as a C compiler
/// does (with trigraphs replaced first, as -trigraphs would).
std::string decodeLiteral(const std::string &body) {
  EXPECT_EQ(body.find("??"), std::string::npos) << body;
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') {
      EXPECT_NE(body[i], '"');
      out += body[i];
      continue;
    }
    char next = body.at(++i);
    if (next >= '0' && next <= '7') {
      int value = 0, digits = 0;
      for (; digits < 3 && i < body.size() && body[i] >= '0' && body[i] <= '7';
           ++digits, ++i)
        value = value * 8 + (body[i] - '0');
      --i;
      out += static_cast<char>(value);
      continue;
    }
    EXPECT_TRUE(next == '"' || next == '\\' || next == '?') << body;
    out += next;
  }
  return out;
}

/// The properties of comment text: printable ASCII, no comment delimiter,
/// no trigraph, every backslash the start of a \xNN escape.
void expectCommentSafe(const std::string &text) {
  EXPECT_TRUE(isPrintableAscii(text)) << text;
  EXPECT_EQ(text.find('*'), std::string::npos) << text;
  EXPECT_EQ(text.find("??"), std::string::npos) << text;
  for (size_t i = text.find('\\'); i != std::string::npos;
       i = text.find('\\', i + 1))
    EXPECT_TRUE(i + 3 < text.size() && text[i + 1] == 'x' &&
                llvm::isHexDigit(text[i + 2]) && llvm::isHexDigit(text[i + 3]))
        << text;
}

TEST(Text, CommentEscapesTerminatorsAndBytes) {
  EXPECT_EQ(cComment("input_1"), "input_1");
  EXPECT_EQ(cComment("models/x.onnx"), "models/x.onnx");
  EXPECT_EQ(cComment("*/ evil /*"), "\\x2A/ evil /\\x2A");
  EXPECT_EQ(cComment("a?\?/b"), "a?\\x3F/b");
  EXPECT_EQ(cComment("???"), "?\\x3F?");
  EXPECT_EQ(cComment("x\\\ny"), "x\\x5C\\x0Ay");
  EXPECT_EQ(cComment("nul\0x"s), "nul\\x00x");
  EXPECT_EQ(cComment("\xff"), "\\xFF");
  EXPECT_EQ(cComment("\xc3\xa9"), "\\xC3\\xA9");
  for (const std::string &name : hostileNames())
    expectCommentSafe(cComment(name));
}

TEST(Text, CommentCapsLength) {
  std::string huge(10 << 20, '*');
  std::string text = cComment(huge);
  expectCommentSafe(text);
  EXPECT_LT(text.size(), 5 * kMaxCommentBytes);
  EXPECT_NE(text.find("... (10485760 bytes)"), std::string::npos);
  EXPECT_EQ(cComment("abcdef", 3), "abc... (6 bytes)");
  EXPECT_EQ(cComment("abc", 3), "abc");
}

TEST(Text, StringLiteralRoundTrips) {
  EXPECT_EQ(cStringLiteralBody("int8"), "int8");
  EXPECT_EQ(cStringLiteralBody("a\"b\\c"), "a\\\"b\\\\c");
  EXPECT_EQ(cStringLiteralBody("?\?/"), "\\?\\?/");
  EXPECT_EQ(cStringLiteralBody("\0"s
                               "1"),
            "\\0001");
  EXPECT_EQ(cStringLiteralBody("\n\xff"), "\\012\\377");
  for (const std::string &name : hostileNames()) {
    std::string body = cStringLiteralBody(name);
    EXPECT_TRUE(isPrintableAscii(body)) << body;
    EXPECT_EQ(decodeLiteral(body), name);
  }
}

TEST(Text, Identifiers) {
  EXPECT_EQ(cIdentifier("detector-v2"), "detector_v2");
  EXPECT_EQ(cIdentifier("2fast"), "model_2fast");
  EXPECT_EQ(cIdentifier(""), "model_");
  EXPECT_EQ(cIdentifier("caf\xc3\xa9"), "caf__");
  EXPECT_EQ(cIdentifier("a\0b"s), "a_b");
  for (const std::string &name : hostileNames())
    EXPECT_TRUE(isCIdentifier(cIdentifier(name))) << cIdentifier(name);
  EXPECT_TRUE(isCIdentifier("_x9"));
  EXPECT_FALSE(isCIdentifier(""));
  EXPECT_FALSE(isCIdentifier("9x"));
  EXPECT_FALSE(isCIdentifier("a-b"));
  EXPECT_FALSE(isCIdentifier("caf\xc3\xa9"));
  EXPECT_FALSE(isCIdentifier("a\0b"s));
}

TEST(Text, PrintableForMessages) {
  EXPECT_EQ(printable("conv1/weight"), "conv1/weight");
  EXPECT_EQ(printable("\x1b[2J"), "\\x1B[2J");
  EXPECT_EQ(printable("a\nb\\c"), "a\\x0Ab\\\\c");
  EXPECT_EQ(printable("\xc3\xa9\x9b\x7f"), "\\xC3\\xA9\\x9B\\x7F");
  for (const std::string &name : hostileNames()) {
    std::string text = printable(name);
    EXPECT_TRUE(isPrintableAscii(text)) << text;
  }
  std::string text = printable(std::string(10 << 20, '\x1b'));
  EXPECT_TRUE(isPrintableAscii(text));
  EXPECT_EQ(text.size(),
            4 * kMaxPrintableBytes + strlen("... (10485760 bytes)"));
}

TEST(Text, TerminalSafeKeepsTextAndUtf8) {
  EXPECT_EQ(terminalSafe("error: a\n\tb"), "error: a\n\tb");
  EXPECT_EQ(terminalSafe("caf\xc3\xa9 \xe6\xa8\xa1"),
            "caf\xc3\xa9 \xe6\xa8\xa1");
  EXPECT_EQ(terminalSafe("\x1b[2J\r\b\x7f"), "\\x1B[2J\\x0D\\x08\\x7F");
  // C1 CSI as a raw byte and as UTF-8, the right-to-left override, invalid
  // and overlong UTF-8, a cut-off sequence at the end.
  EXPECT_EQ(terminalSafe("\x9b\xc2\x9b\xe2\x80\xae"),
            "\\x9B\\xC2\\x9B\\xE2\\x80\\xAE");
  EXPECT_EQ(terminalSafe("\xff\xc0\xaf\xe6\xa8"), "\\xFF\\xC0\\xAF\\xE6\\xA8");
  EXPECT_EQ(terminalSafe("nul\0"s), "nul\\x00");
}

TEST(Text, ValidUtf8ForJsonAndHtml) {
  EXPECT_EQ(validUtf8("caf\xc3\xa9 \x1b"), "caf\xc3\xa9 \x1b");
  EXPECT_EQ(validUtf8("a\xff"
                      "b\xc3"),
            "a\xef\xbf\xbd"
            "b\xef\xbf\xbd");
  EXPECT_EQ(validUtf8("nul\0"s), "nul\0"s);
}

TEST(Text, TerminalSafeStreamJoinsSplitSequences) {
  std::string out;
  {
    llvm::raw_string_ostream target(out);
    TerminalSafeStream stream(target);
    stream << "caf\xc3";
    stream << "\xa9 \x1b[31m";
    stream << "\xe6";
  }
  EXPECT_EQ(out, "caf\xc3\xa9 \\x1B[31m\\xE6");
}

TEST(Text, RandomBytesKeepEveryProperty) {
  std::mt19937 random(44);
  const char alphabet[] = {'*', '/',    '?',    '\\',   '\n',   '"',   '\0',
                           'a', '\x1b', '\xff', '\xc3', '\xa9', '\x80'};
  for (int round = 0; round < 2000; ++round) {
    std::string name(random() % 24, ' ');
    for (char &c : name)
      c = random() % 2 ? alphabet[random() % sizeof(alphabet)]
                       : static_cast<char>(random());
    expectCommentSafe(cComment(name));
    EXPECT_EQ(decodeLiteral(cStringLiteralBody(name)), name);
    EXPECT_TRUE(isCIdentifier(cIdentifier(name)));
    EXPECT_TRUE(isPrintableAscii(printable(name)));
    std::string safe = terminalSafe(name);
    EXPECT_EQ(safe.find('\x1b'), std::string::npos);
    EXPECT_EQ(safe.find('\0'), std::string::npos);
    EXPECT_EQ(safe.find('\r'), std::string::npos);
  }
}

} // namespace
