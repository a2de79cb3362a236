//===- Npy.cpp - NumPy .npy and .npz files --------------------------------===//
//
// .npy format:
// https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html magic
// "\x93NUMPY", major/minor version, header length (u16 for v1, u32 for v2/v3),
// then a Python dict literal with 'descr', 'fortran_order', 'shape'.
//
// .npz is a zip archive of .npy files (PKWARE APPNOTE 6.3): the archive is
// read from its central directory (zip64 records and extra fields included,
// numpy.savez forces zip64 members), each member stored or deflated (zlib's
// raw inflate), its CRC-32 checked.
//
//===----------------------------------------------------------------------===//

#include "quantc/Runtime/Npy.h"
#include "quantc/Support/Fail.h"
#include "quantc/Support/InputFile.h"
#include "quantc/Support/OutputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstring>
#include <limits>
#include <zlib.h>

using namespace llvm;

namespace {

Error failAt(StringRef path, const Twine &message) {
  return quantc::fail(path + ": " + message);
}

} // namespace

Expected<quantc::NpyArray> quantc::readNpy(StringRef path) {
  Expected<std::unique_ptr<MemoryBuffer>> file = readInputFile(path);
  if (!file)
    return file.takeError();
  return parseNpy((*file)->getBuffer(), path);
}

namespace quantc {
/// parseNpy. When `storage` holds `bytes` (a .npz member inflated into
/// it), the array takes its memory over, its data moved to the front,
/// instead of copying it: a member's size is needed once, not twice.
static Expected<NpyArray> decodeNpy(StringRef bytes, StringRef path,
                                    std::vector<float> *storage);
} // namespace quantc

Expected<quantc::NpyArray> quantc::parseNpy(StringRef bytes, StringRef path) {
  return decodeNpy(bytes, path, nullptr);
}

Expected<quantc::NpyArray> quantc::decodeNpy(StringRef bytes, StringRef path,
                                             std::vector<float> *storage) {
  if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10)
    return failAt(path, "not a .npy file (bad magic)");
  unsigned major = uint8_t(bytes[6]), minor = uint8_t(bytes[7]);
  if (minor != 0)
    return failAt(path, "unsupported .npy version " + Twine(major) + "." +
                            Twine(minor) + " (numpy writes 1.0, 2.0 and 3.0)");
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return failAt(path, "truncated header");
    headerLen = uint32_t(uint8_t(bytes[8])) | uint32_t(uint8_t(bytes[9])) << 8 |
                uint32_t(uint8_t(bytes[10])) << 16 |
                uint32_t(uint8_t(bytes[11])) << 24;
    headerStart = 12;
  } else {
    return failAt(path, "unsupported .npy version " + Twine(major));
  }
  if (bytes.size() < headerStart + headerLen)
    return failAt(path, "truncated header");
  StringRef header = bytes.substr(headerStart, headerLen);

  Expected<NpyHeader> parsed = parseNpyHeader(header);
  if (!parsed)
    return failAt(path, toString(parsed.takeError()));
  StringRef dtype = parsed->descr;
  if (dtype != "<f4" && dtype != "=f4")
    return failAt(path, "dtype is '" + dtype +
                            "', expected float32 ('<f4'); convert with "
                            "array.astype(numpy.float32)");
  if (parsed->fortranOrder)
    return failAt(path, "Fortran-ordered arrays are not supported; save a "
                        "C-ordered array (numpy.ascontiguousarray)");

  NpyArray array;
  int64_t count = 1;
  for (int64_t value : parsed->shape) {
    array.shape.push_back(value);
    // The element count (checked: a shape whose product overflows is no
    // array this file can hold).
    if (value != 0 && count > std::numeric_limits<int64_t>::max() /
                                  static_cast<int64_t>(sizeof(float)) / value)
      return failAt(
          path, "shape '(" +
                    join(map_range(parsed->shape,
                                   [](int64_t d) { return std::to_string(d); }),
                         ", ") +
                    (parsed->shape.size() == 1 ? ",)'" : ")'") +
                    " has more elements than memory can hold");
    count *= value;
  }
  size_t dataStart = headerStart + headerLen;
  size_t expected = size_t(count) * sizeof(float);
  if (bytes.size() - dataStart < expected)
    return failAt(path, "truncated data: expected " + Twine(expected) +
                            " bytes, found " + Twine(bytes.size() - dataStart));
  if (storage &&
      bytes.data() == reinterpret_cast<const char *>(storage->data())) {
    if (expected > 0)
      std::memmove(storage->data(), bytes.data() + dataStart, expected);
    storage->resize(count);
    array.data = std::move(*storage);
    return array;
  }
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
  return quantc::fail(
      source + ": shape " + got + " does not match the model input " + want +
      " (expected N samples stacked along the first dimension)");
}

/// The .npy descr of a NumPy dtype name (NpyArray::dtype).
static std::string npyDescr(StringRef dtype) {
  if (dtype == "bool")
    return "|b1";
  if (dtype == "int8" || dtype == "uint8")
    return std::string("|") + dtype[0] + "1";
  bool isUnsigned = dtype.starts_with("uint");
  char kind = dtype.starts_with("float") ? 'f' : isUnsigned ? 'u' : 'i';
  int bits = std::stoi(dtype.drop_front(kind == 'f'   ? 5
                                        : kind == 'u' ? 4
                                                      : 3)
                           .str());
  return std::string("<") + kind + std::to_string(bits / 8);
}

/// `data` (integers exactly) as little-endian values of the integer dtype
/// `dtype`.
static std::string integerBytes(StringRef dtype, llvm::ArrayRef<float> data) {
  std::string bytes;
  raw_string_ostream os(bytes);
  support::endian::Writer w(os, endianness::little);
  for (float v : data) {
    if (dtype == "int64")
      w.write<int64_t>(static_cast<int64_t>(v));
    else if (dtype == "uint64")
      w.write<uint64_t>(static_cast<uint64_t>(v));
    else if (dtype == "int32")
      w.write<int32_t>(static_cast<int32_t>(v));
    else if (dtype == "uint32")
      w.write<uint32_t>(static_cast<uint32_t>(v));
    else if (dtype == "int16")
      w.write<int16_t>(static_cast<int16_t>(v));
    else if (dtype == "uint16")
      w.write<uint16_t>(static_cast<uint16_t>(v));
    else if (dtype == "int8")
      w.write<int8_t>(static_cast<int8_t>(v));
    else if (dtype == "uint8")
      w.write<uint8_t>(static_cast<uint8_t>(v));
    else
      w.write<uint8_t>(v != 0.0f);
  }
  return bytes;
}

/// The .npy header of `array` (magic, version 1.0, the padded dict): its
/// data follows.
static std::string npyHeader(const quantc::NpyArray &array) {
  std::string shape = "(";
  for (int64_t d : array.shape)
    shape += std::to_string(d) + ", ";
  if (array.shape.size() > 1)
    shape.resize(shape.size() - 2);
  else if (array.shape.size() == 1)
    shape.resize(shape.size() - 1);
  shape += ")";
  std::string dict = "{'descr': '" + npyDescr(array.dtype) +
                     "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so that the data starts at a multiple of 64 bytes; end with '\n'.
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::string header = "\x93NUMPY";
  header += char(1);
  header += char(0);
  header += char(dict.size() & 0xff);
  header += char(dict.size() >> 8);
  return header + dict;
}

/// The bytes of `array`'s data.
static StringRef npyData(const quantc::NpyArray &array) {
  return StringRef(reinterpret_cast<const char *>(array.data.data()),
                   array.data.size() * sizeof(float));
}

/// Writes `path` with `write` (quantc/Support/OutputFile.h): whole or not
/// at all; `-` is standard output and a character device (/dev/null) is
/// written through.
static Error writeWhole(StringRef path,
                        llvm::function_ref<void(raw_ostream &)> write) {
  quantc::OutputOptions options;
  options.allowCharDevice = true;
  return quantc::writeOutputFile(path, write, options);
}

Error quantc::writeNpy(StringRef path, const NpyArray &array) {
  std::string converted = array.dtype == "float32" || !array.bytes.empty()
                              ? ""
                              : integerBytes(array.dtype, array.data);
  return writeWhole(path, [&](raw_ostream &os) {
    os << npyHeader(array);
    if (array.dtype == "float32")
      os << npyData(array);
    else if (!array.bytes.empty())
      os << StringRef(array.bytes.data(), array.bytes.size());
    else
      os << converted;
  });
}

//===----------------------------------------------------------------------===//
// .npz
//===----------------------------------------------------------------------===//

namespace {

constexpr uint32_t kLocalHeader = 0x04034b50, kCentralHeader = 0x02014b50,
                   kEndOfDirectory = 0x06054b50, kZip64End = 0x06064b50,
                   kZip64Locator = 0x07064b50;

/// Bounds-checked little-endian reads from an archive.
struct Reader {
  StringRef bytes;
  bool has(uint64_t offset, uint64_t size) const {
    return offset <= bytes.size() && size <= bytes.size() - offset;
  }
  uint16_t u16(uint64_t offset) const {
    return support::endian::read16le(bytes.data() + offset);
  }
  uint32_t u32(uint64_t offset) const {
    return support::endian::read32le(bytes.data() + offset);
  }
  uint64_t u64(uint64_t offset) const {
    return support::endian::read64le(bytes.data() + offset);
  }
};

/// Inflates the raw deflate stream `in` into exactly `size` bytes (the size
/// the archive declares: inflating stops there).
Error inflateRaw(StringRef in, uint64_t size, char *out) {
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
    return quantc::fail("cannot initialize zlib");
  uint64_t inDone = 0, outDone = 0;
  int status = Z_OK;
  // zlib counts in uInt: feed and drain in chunks below 4 GiB.
  const uint64_t chunk = 1u << 30;
  while (status == Z_OK) {
    z.next_in =
        reinterpret_cast<Bytef *>(const_cast<char *>(in.data())) + inDone;
    z.avail_in = static_cast<uInt>(std::min(chunk, in.size() - inDone));
    z.next_out = reinterpret_cast<Bytef *>(out) + outDone;
    z.avail_out = static_cast<uInt>(std::min(chunk, size - outDone));
    uInt inBefore = z.avail_in, outBefore = z.avail_out;
    status = inflate(&z, Z_NO_FLUSH);
    inDone += inBefore - z.avail_in;
    outDone += outBefore - z.avail_out;
    if (status == Z_BUF_ERROR && inBefore != z.avail_in)
      status = Z_OK; // progress was made; go on
    if (status == Z_OK && inBefore == z.avail_in && outBefore == z.avail_out)
      status = Z_DATA_ERROR; // no progress: truncated or oversized
  }
  inflateEnd(&z);
  if (status == Z_STREAM_END && outDone == size)
    return Error::success();
  if (status == Z_STREAM_END)
    return quantc::fail("inflates to " + Twine(outDone) + " bytes, not the " +
                        Twine(size) + " its header declares");
  if (outDone == size)
    return quantc::fail("inflates to more than the " + Twine(size) +
                        " bytes its header declares");
  return quantc::fail("corrupt deflate data");
}

} // namespace

Expected<std::vector<quantc::NamedArray>> quantc::readNpz(StringRef path) {
  Expected<std::unique_ptr<MemoryBuffer>> file = readInputFile(path);
  if (!file)
    return file.takeError();
  return parseNpz((*file)->getBuffer(), path);
}

Expected<std::vector<quantc::NamedArray>> quantc::parseNpz(StringRef bytes,
                                                           StringRef path) {
  Reader r{bytes};
  // The end of central directory record: 22 bytes and a comment of up to
  // 64 KiB, searched from the end.
  if (bytes.size() < 22)
    return failAt(path, "not a .npz archive (too short for a zip file)");
  uint64_t end = bytes.size() - 22;
  uint64_t lowest = end > 0xffff ? end - 0xffff : 0;
  while (r.u32(end) != kEndOfDirectory) {
    if (end == lowest)
      return failAt(path, "not a .npz archive (no zip end of central "
                          "directory record)");
    --end;
  }
  uint64_t entries = r.u16(end + 10), dirSize = r.u32(end + 12),
           dirOffset = r.u32(end + 16);
  if (entries == 0xffff || dirSize == 0xffffffff || dirOffset == 0xffffffff) {
    // Zip64: a locator right before points at the zip64 end record.
    if (end < 20 || r.u32(end - 20) != kZip64Locator)
      return failAt(path, "zip64 archive without its locator record");
    uint64_t zip64End = r.u64(end - 20 + 8);
    if (!r.has(zip64End, 56) || r.u32(zip64End) != kZip64End)
      return failAt(path, "bad zip64 end of central directory record");
    entries = r.u64(zip64End + 32);
    dirSize = r.u64(zip64End + 40);
    dirOffset = r.u64(zip64End + 48);
  }
  if (!r.has(dirOffset, dirSize))
    return failAt(path, "the central directory lies outside the file");

  Expected<uint64_t> limit = maxInputBytes();
  if (!limit)
    return limit.takeError();
  std::vector<NamedArray> arrays;
  StringSet<> names;
  // The bytes the members declare, checked against the input limit before
  // each is inflated: what the archive may decode to is bounded whatever it
  // declares.
  uint64_t declared = 0;
  uint64_t at = dirOffset;
  for (uint64_t i = 0; i < entries; ++i) {
    if (!r.has(at, 46) || at + 46 > dirOffset + dirSize ||
        r.u32(at) != kCentralHeader)
      return failAt(path, "bad central directory entry #" + Twine(i));
    uint16_t flags = r.u16(at + 8), method = r.u16(at + 10);
    uint32_t crc = r.u32(at + 16);
    uint64_t packed = r.u32(at + 20), size = r.u32(at + 24);
    uint16_t nameLen = r.u16(at + 28), extraLen = r.u16(at + 30),
             commentLen = r.u16(at + 32);
    uint64_t local = r.u32(at + 42);
    if (!r.has(at + 46, uint64_t(nameLen) + extraLen + commentLen))
      return failAt(path, "truncated central directory entry #" + Twine(i));
    StringRef member = bytes.substr(at + 46, nameLen);
    // The zip64 extra field holds, in order, the 64-bit values of the
    // fields set to 0xffffffff.
    StringRef extra = bytes.substr(at + 46 + nameLen, extraLen);
    while (extra.size() >= 4) {
      uint16_t id = support::endian::read16le(extra.data());
      uint16_t len = support::endian::read16le(extra.data() + 2);
      if (extra.size() - 4 < len)
        return failAt(path, "member '" + member + "': bad extra field");
      if (id == 0x0001) {
        StringRef values = extra.substr(4, len);
        auto take = [&](uint64_t &field) {
          if (field != 0xffffffff)
            return true;
          if (values.size() < 8)
            return false;
          field = support::endian::read64le(values.data());
          values = values.drop_front(8);
          return true;
        };
        if (!take(size) || !take(packed) || !take(local))
          return failAt(path, "member '" + member + "': bad zip64 extra field");
      }
      extra = extra.drop_front(4 + len);
    }
    at += 46 + uint64_t(nameLen) + extraLen + commentLen;

    if (flags & 1)
      return failAt(path, "member '" + member + "' is encrypted");
    if (!member.ends_with(".npy"))
      return failAt(path, "member '" + member +
                              "' is not a .npy file; a .npz archive holds "
                              "arrays (numpy.savez)");
    std::string name = member.drop_back(4).str();
    if (!names.insert(name).second)
      return failAt(path, "two members are named '" + member + "'");
    if (!r.has(local, 30) || r.u32(local) != kLocalHeader)
      return failAt(path, "member '" + member + "': bad local header");
    uint64_t data = local + 30 + r.u16(local + 26) + r.u16(local + 28);
    if (!r.has(data, packed))
      return failAt(path, "member '" + member + "' is truncated");
    StringRef stored = bytes.substr(data, packed);
    if (size > *limit - declared) {
      std::string total = declared ? " (" + std::to_string(declared + size) +
                                         " with the members before it)"
                                   : "";
      return failAt(path, "member '" + member + "' declares " + Twine(size) +
                              " bytes" + total + ", more than " +
                              inputLimitText(*limit));
    }
    declared += size;
    // A deflated member is inflated into float storage that its array then
    // takes over (decodeNpy).
    std::vector<float> inflated;
    StringRef npy;
    if (method == 0) {
      if (packed != size)
        return failAt(path, "member '" + member + "': stored size " +
                                Twine(packed) + " differs from its size " +
                                Twine(size));
      npy = stored;
    } else if (method == 8) {
      // A deflate stream expands at most ~1032:1; a larger stated size is
      // a corrupt header, not a reason to allocate it.
      if (size / 1032 > packed + 1)
        return failAt(path, "member '" + member + "': implausible size " +
                                Twine(size));
      inflated.resize(std::max<uint64_t>(1, (size + 3) / sizeof(float)));
      if (Error e = inflateRaw(stored, size,
                               reinterpret_cast<char *>(inflated.data())))
        return failAt(path,
                      "member '" + member + "': " + toString(std::move(e)));
      npy = StringRef(reinterpret_cast<const char *>(inflated.data()), size);
    } else {
      return failAt(path, "member '" + member +
                              "' uses zip compression method " + Twine(method) +
                              "; numpy.savez (stored) and savez_compressed "
                              "(deflate) are supported");
    }
    if (llvm::crc32(arrayRefFromStringRef(npy)) != crc)
      return failAt(path, "member '" + member + "' fails its CRC-32 check");
    Expected<NpyArray> array = decodeNpy(npy, (path + ":" + member).str(),
                                         method == 8 ? &inflated : nullptr);
    if (!array)
      return array.takeError();
    arrays.push_back({std::move(name), std::move(*array)});
  }
  if (arrays.empty())
    return failAt(path, "the archive holds no arrays");
  return arrays;
}

Error quantc::writeNpz(StringRef path, ArrayRef<NamedArray> arrays) {
  // Each member is its .npy header then its data, stored; the archive is
  // written as it is laid out, the data straight from the arrays.
  struct Member {
    std::string name, header;
    StringRef data;
    uint32_t crc, size, offset;
  };
  std::vector<Member> members;
  // The data of arrays written as an integer dtype.
  std::vector<std::string> converted(arrays.size());
  uint64_t offset = 0;
  for (auto [a, bytes] : llvm::zip(arrays, converted)) {
    StringRef data = npyData(a.array);
    if (a.array.dtype != "float32")
      data = !a.array.bytes.empty()
                 ? StringRef(a.array.bytes.data(), a.array.bytes.size())
                 : StringRef(bytes = integerBytes(a.array.dtype, a.array.data));
    Member m{a.name + ".npy", npyHeader(a.array), data, 0, 0, 0};
    uint64_t size = m.header.size() + m.data.size();
    if (size >= 0xffffffffu || offset >= 0xffffffffu || m.name.size() > 0xffff)
      return failAt(path, "array '" + a.name +
                              "' is too large for a zip archive without zip64");
    m.crc = llvm::crc32(llvm::crc32(arrayRefFromStringRef(m.header)),
                        arrayRefFromStringRef(m.data));
    m.size = static_cast<uint32_t>(size);
    m.offset = static_cast<uint32_t>(offset);
    offset += 30 + m.name.size() + size;
    members.push_back(std::move(m));
  }
  uint64_t directorySize = 0;
  for (const Member &m : members)
    directorySize += 46 + m.name.size();
  if (offset + directorySize >= 0xffffffffu || members.size() >= 0xffff)
    return failAt(path, "too large for a zip archive without zip64");

  return writeWhole(path, [&](raw_ostream &os) {
    support::endian::Writer w(os, endianness::little);
    // The fields local and central headers share, from "version needed":
    // version 2.0, no flags, stored, no time (1980-01-01), CRC, sizes, name
    // length, no extra field.
    auto entry = [&](const Member &m) {
      w.write<uint16_t>(20);
      w.write<uint16_t>(0);
      w.write<uint16_t>(0);
      w.write<uint16_t>(0);
      w.write<uint16_t>(0x21);
      w.write<uint32_t>(m.crc);
      w.write<uint32_t>(m.size);
      w.write<uint32_t>(m.size);
      w.write<uint16_t>(m.name.size());
      w.write<uint16_t>(0);
    };
    for (const Member &m : members) {
      w.write<uint32_t>(kLocalHeader);
      entry(m);
      os << m.name << m.header << m.data;
    }
    for (const Member &m : members) {
      w.write<uint32_t>(kCentralHeader);
      w.write<uint16_t>(20); // version made by
      entry(m);
      w.write<uint16_t>(0); // comment length
      w.write<uint16_t>(0); // disk
      w.write<uint16_t>(0); // internal attributes
      w.write<uint32_t>(0); // external attributes
      w.write<uint32_t>(m.offset);
      os << m.name;
    }
    w.write<uint32_t>(kEndOfDirectory);
    w.write<uint16_t>(0);
    w.write<uint16_t>(0);
    w.write<uint16_t>(members.size());
    w.write<uint16_t>(members.size());
    w.write<uint32_t>(directorySize);
    w.write<uint32_t>(offset);
    w.write<uint16_t>(0);
  });
}
