//===- NpyHeader.cpp - The header dictionary of a .npy file ---------------===//
//
// numpy.lib.format reads the header with ast.literal_eval and then checks
// that the result is a dict with exactly the keys 'descr', 'fortran_order'
// and 'shape', 'fortran_order' a bool and 'shape' a tuple of ints. A Python
// dict literal keeps the last of two equal keys, so a reader that searched
// the text for a key (as this one once did) could see another array than
// numpy does. This parser accepts the subset of Python literal syntax that
// numpy and other writers produce, every key once, and refuses everything
// else with a message that names the problem.
//
//===----------------------------------------------------------------------===//

#include "quantc/Runtime/Npy.h"
#include "quantc/Support/Fail.h"

#include "llvm/ADT/StringExtras.h"

#include <limits>

using namespace llvm;

namespace {

/// A cursor over the header text.
class HeaderParser {
public:
  explicit HeaderParser(StringRef text) : rest(text) {}

  Expected<quantc::NpyHeader> parse();

private:
  void skipSpace() { rest = rest.ltrim(" \t\n\r\f\v"); }
  bool consume(char c) {
    skipSpace();
    return rest.consume_front(StringRef(&c, 1));
  }
  Error expected(StringRef what) const {
    StringRef at = rest.take_front(16);
    return quantc::fail("malformed header: expected " + what + " at '" +
                        (rest.empty() ? StringRef("<end>") : at) + "'");
  }
  Expected<std::string> string();
  Expected<bool> boolean();
  Expected<std::vector<int64_t>> tuple();
  Expected<int64_t> integer();

  StringRef rest;
};

/// A quoted Python string without escapes ('<f4' or "<f4").
Expected<std::string> HeaderParser::string() {
  skipSpace();
  if (rest.empty() || (rest.front() != '\'' && rest.front() != '"'))
    return expected("a quoted string");
  char quote = rest.front();
  size_t end = rest.find(quote, 1);
  if (end == StringRef::npos)
    return expected("a closing quote");
  StringRef text = rest.slice(1, end);
  if (text.contains('\\') || text.contains('\n'))
    return quantc::fail("malformed header: string " + rest.take_front(end + 1) +
                        " has an escape or a line break");
  rest = rest.drop_front(end + 1);
  return text.str();
}

Expected<bool> HeaderParser::boolean() {
  skipSpace();
  if (rest.consume_front("True"))
    return true;
  if (rest.consume_front("False"))
    return false;
  return expected("True or False");
}

/// A non-negative decimal integer as Python writes it (no sign, no leading
/// zeros, no underscores).
Expected<int64_t> HeaderParser::integer() {
  skipSpace();
  StringRef digits = rest.take_while(isDigit);
  if (digits.empty())
    return expected("a non-negative integer");
  if (digits.size() > 1 && digits.front() == '0')
    return quantc::fail("malformed header: integer '" + digits +
                        "' has a leading zero");
  uint64_t value;
  if (digits.getAsInteger(10, value) ||
      value > uint64_t(std::numeric_limits<int64_t>::max()))
    return quantc::fail("malformed header: dimension " + digits +
                        " is too large");
  rest = rest.drop_front(digits.size());
  return static_cast<int64_t>(value);
}

/// A tuple of integers: (), (3,), (2, 3) or (2, 3,). (3) is the integer 3
/// in Python, not a tuple, and numpy refuses it as a shape.
Expected<std::vector<int64_t>> HeaderParser::tuple() {
  if (!consume('('))
    return expected("a tuple '(...)'");
  std::vector<int64_t> values;
  bool comma = false;
  while (!consume(')')) {
    if (!values.empty() && !comma)
      return expected("',' or ')'");
    Expected<int64_t> v = integer();
    if (!v)
      return v.takeError();
    values.push_back(*v);
    comma = consume(',');
  }
  if (values.size() == 1 && !comma)
    return quantc::fail("malformed header: shape (" + Twine(values[0]) +
                        ") is not a tuple; a 1-D shape is written (" +
                        Twine(values[0]) + ",)");
  return values;
}

Expected<quantc::NpyHeader> HeaderParser::parse() {
  quantc::NpyHeader header;
  bool seen[3] = {false, false, false};
  static constexpr StringLiteral keys[3] = {"descr", "fortran_order", "shape"};
  if (!consume('{'))
    return expected("'{'");
  bool comma = true;
  while (!consume('}')) {
    if (!comma)
      return expected("',' or '}'");
    Expected<std::string> key = string();
    if (!key)
      return key.takeError();
    int k = 0;
    while (k < 3 && keys[k] != *key)
      ++k;
    if (k == 3)
      return quantc::fail("unknown header key '" + *key +
                          "' (a .npy header has exactly 'descr', "
                          "'fortran_order' and 'shape')");
    if (seen[k])
      return quantc::fail("header key '" + *key +
                          "' appears twice (readers disagree on which value "
                          "counts: save the array again with numpy.save)");
    seen[k] = true;
    if (!consume(':'))
      return expected("':'");
    if (k == 0) {
      Expected<std::string> descr = string();
      if (!descr)
        return descr.takeError();
      header.descr = *descr;
    } else if (k == 1) {
      Expected<bool> fortran = boolean();
      if (!fortran)
        return fortran.takeError();
      header.fortranOrder = *fortran;
    } else {
      Expected<std::vector<int64_t>> shape = tuple();
      if (!shape)
        return shape.takeError();
      header.shape = std::move(*shape);
    }
    comma = consume(',');
  }
  skipSpace();
  if (!rest.empty())
    return quantc::fail("malformed header: text after the dictionary ('" +
                        rest.take_front(16) + "')");
  for (int k = 0; k < 3; ++k)
    if (!seen[k])
      return quantc::fail("header has no '" + keys[k] + "' key");
  return header;
}

} // namespace

Expected<quantc::NpyHeader> quantc::parseNpyHeader(StringRef text) {
  if (text.size() > kMaxNpyHeaderBytes)
    return fail("header of " + Twine(text.size()) + " bytes is longer than " +
                Twine(kMaxNpyHeaderBytes) +
                " (numpy.load's max_header_size refuses it too)");
  return HeaderParser(text).parse();
}
