//===- OptionParsers.h - Strict parsers for numeric options ----*- C++ -*-===//
//
// llvm::cl's own parsers take some values no user means: its double parser
// reads an empty value ("--min-output-sqnr=") as 0 and accepts "nan" and
// "inf"; its integer parsers guess the radix, so "--batch=010" is 8. The
// tools' numeric options use these instead: a finite decimal number, and a
// decimal integer, anything else an error naming the option; for options
// with a value per model output, "NAME=NUMBER" as well.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTC_TOOLS_OPTIONPARSERS_H
#define QUANTC_TOOLS_OPTIONPARSERS_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

namespace quantc {

/// Reads a finite floating-point number (no empty value, NaN or infinity,
/// no trailing text) into `value`; false after an error naming `option`.
inline bool readFiniteDouble(llvm::cl::Option &option, llvm::StringRef arg,
                             double &value) {
  if (arg.trim().empty())
    return !option.error("needs a number (the value is empty)");
  if (!llvm::to_float(arg, value) || !std::isfinite(value))
    return !option.error("'" + arg + "' is not a finite number");
  return true;
}

/// A finite floating-point number (readFiniteDouble).
class FiniteDoubleParser : public llvm::cl::parser<double> {
public:
  using llvm::cl::parser<double>::parser;
  bool parse(llvm::cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             double &value) {
    return !readFiniteDouble(option, arg, value);
  }
};

/// A value of a per-output option: "NUMBER" (`output` empty: every output)
/// or "NAME=NUMBER" (output NAME).
struct PerOutputValue {
  std::string output;
  double value = 0;
};

/// "NUMBER" or "NAME=NUMBER", the number finite (readFiniteDouble); the
/// last '=' splits, so that a name may hold one.
class PerOutputDoubleParser : public llvm::cl::basic_parser<PerOutputValue> {
public:
  using llvm::cl::basic_parser<PerOutputValue>::basic_parser;
  bool parse(llvm::cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             PerOutputValue &value) {
    if (!arg.contains('='))
      return !readFiniteDouble(option, arg, value.value);
    auto [name, number] = arg.rsplit('=');
    if (name.empty())
      return option.error("'" + arg + "' names no output (NAME=NUMBER)");
    value.output = name.str();
    return !readFiniteDouble(option, number, value.value);
  }
  llvm::StringRef getValueName() const override { return "[NAME=]number"; }
};

/// A decimal integer of type T, optionally signed for signed T (no empty
/// value, no radix prefix or leading zeros that llvm::cl would read as
/// octal, hexadecimal or binary, no value outside T).
template <typename T> class DecimalIntParser : public llvm::cl::parser<T> {
public:
  using llvm::cl::parser<T>::parser;
  bool parse(llvm::cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             T &value) {
    llvm::StringRef digits = arg;
    if (std::is_signed_v<T>)
      digits.consume_front("-");
    if (digits.empty() || !llvm::all_of(digits, llvm::isDigit) ||
        (digits.size() > 1 && digits.front() == '0'))
      return option.error("'" + arg + "' is not a decimal integer");
    if (arg.getAsInteger(10, value))
      return option.error("'" + arg + "' is out of range");
    return false;
  }
};

/// The parsers of cl::opt<int64_t> and cl::opt<unsigned> options
/// (llvm::cl's parser<long>, int64_t's, is final: this one parses long
/// long, of the same width, and the option converts).
using Int64Parser = DecimalIntParser<long long>;
static_assert(sizeof(long long) == sizeof(int64_t));
using UnsignedParser = DecimalIntParser<unsigned>;

} // namespace quantc

#endif // QUANTC_TOOLS_OPTIONPARSERS_H
