//===- Npy.cpp - Reading NumPy .npy files ---------------------------------===//
//
// Format:
// https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html magic
// "\x93NUMPY", major/minor version, header length (u16 for v1, u32 for v2/v3),
// then a Python dict literal with 'descr', 'fortran_order', 'shape'.
//
//===----------------------------------------------------------------------===//

#include "quantc/Calibrate/Npy.h"
#include "Fail.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstring>
#include <limits>

using namespace llvm;

namespace {

Error fail(StringRef path, const Twine &message) {
  return quantc::detail::fail(path + ": " + message);
}

/// The value text of `key` in the header dict, up to the next top-level ','.
std::optional<StringRef> dictValue(StringRef header, StringRef key) {
  std::string quoted = ("'" + key + "'").str();
  size_t pos = header.find(quoted);
  if (pos == StringRef::npos)
    return std::nullopt;
  StringRef rest = header.drop_front(pos + quoted.size()).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  rest = rest.ltrim();
  if (rest.starts_with("(")) {
    size_t close = rest.find(')');
    if (close == StringRef::npos)
      return std::nullopt;
    return rest.take_front(close + 1);
  }
  return rest.take_until([](char c) { return c == ',' || c == '}'; }).trim();
}

} // namespace

Expected<quantc::NpyArray> quantc::readNpy(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!file)
    return fail(path, "cannot read: " + file.getError().message());
  return parseNpy((*file)->getBuffer(), path);
}

Expected<quantc::NpyArray> quantc::parseNpy(StringRef bytes, StringRef path) {
  if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10)
    return fail(path, "not a .npy file (bad magic)");
  uint8_t major = bytes[6];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return fail(path, "truncated header");
    headerLen = uint32_t(uint8_t(bytes[8])) | uint32_t(uint8_t(bytes[9])) << 8 |
                uint32_t(uint8_t(bytes[10])) << 16 |
                uint32_t(uint8_t(bytes[11])) << 24;
    headerStart = 12;
  } else {
    return fail(path, "unsupported .npy version " + Twine(major));
  }
  if (bytes.size() < headerStart + headerLen)
    return fail(path, "truncated header");
  StringRef header = bytes.substr(headerStart, headerLen);

  std::optional<StringRef> descr = dictValue(header, "descr");
  std::optional<StringRef> fortran = dictValue(header, "fortran_order");
  std::optional<StringRef> shapeText = dictValue(header, "shape");
  if (!descr || !fortran || !shapeText)
    return fail(path, "malformed header '" + header.trim() + "'");
  StringRef dtype = descr->trim("'\" ");
  if (dtype != "<f4" && dtype != "=f4")
    return fail(path, "dtype is '" + dtype +
                          "', expected float32 ('<f4'); convert with "
                          "array.astype(numpy.float32)");
  if (*fortran != "False")
    return fail(path, "Fortran-ordered arrays are not supported; save a "
                      "C-ordered array (numpy.ascontiguousarray)");

  NpyArray array;
  StringRef dims = shapeText->trim("() ");
  int64_t count = 1;
  while (!dims.empty()) {
    auto [dim, rest] = dims.split(',');
    dim = dim.trim();
    dims = rest.trim();
    if (dim.empty())
      continue;
    int64_t value;
    if (dim.getAsInteger(10, value) || value < 0)
      return fail(path, "malformed shape '" + *shapeText + "'");
    array.shape.push_back(value);
    // The element count (checked: a shape whose product overflows is no
    // array this file can hold).
    if (value != 0 && count > std::numeric_limits<int64_t>::max() /
                                  static_cast<int64_t>(sizeof(float)) / value)
      return fail(path, "shape '" + *shapeText +
                            "' has more elements than memory can hold");
    count *= value;
  }
  size_t dataStart = headerStart + headerLen;
  size_t expected = size_t(count) * sizeof(float);
  if (bytes.size() - dataStart < expected)
    return fail(path, "truncated data: expected " + Twine(expected) +
                          " bytes, found " + Twine(bytes.size() - dataStart));
  array.data.resize(count);
  if (expected > 0) // an empty vector's data() may be null
    std::memcpy(array.data.data(), bytes.data() + dataStart, expected);
  return array;
}

Error quantc::checkModelInputs(const NpyArray &samples, ArrayRef<int64_t> in,
                               StringRef source) {
  std::vector<int64_t> rest(in.begin() + (in.empty() ? 0 : 1), in.end());
  bool stacked =
      samples.shape.size() == in.size() && !in.empty() &&
      std::equal(rest.begin(), rest.end(), samples.shape.begin() + 1) &&
      samples.shape[0] % in[0] == 0;
  bool single = !in.empty() && in[0] == 1 && samples.shape == rest;
  if (stacked || single)
    return Error::success();
  std::string want, got;
  raw_string_ostream w(want), g(got);
  interleave(in, w, "x");
  interleave(samples.shape, g, "x");
  return quantc::detail::fail(
      source + ": shape " + got + " does not match the model input " + want +
      " (expected N samples stacked along the first dimension)");
}

Error quantc::writeNpy(StringRef path, const NpyArray &array) {
  std::string shape = "(";
  for (int64_t d : array.shape)
    shape += std::to_string(d) + ", ";
  if (array.shape.size() > 1)
    shape.resize(shape.size() - 2);
  else if (array.shape.size() == 1)
    shape.resize(shape.size() - 1);
  shape += ")";
  std::string header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so that the data starts at a multiple of 64 bytes; end with '\n'.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return fail(path, "cannot write: " + ec.message());
  os << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff)
     << char(header.size() >> 8) << header;
  os.write(reinterpret_cast<const char *>(array.data.data()),
           array.data.size() * sizeof(float));
  return Error::success();
}
