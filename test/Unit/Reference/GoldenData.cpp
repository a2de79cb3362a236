//===- GoldenData.cpp - Reader for the int8 reference goldens -------------===//
//
// Parses the text manifest and the raw little-endian tensor blob produced by
// scripts/gen_reference_goldens.py. Errors are reported through
// GoldenData::error (no exceptions).
//
//===----------------------------------------------------------------------===//

#include "GoldenData.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace quantc::ref;
using namespace quantc::ref::test;

/// The stored goldens, or the directory QUANTC_REFERENCE_GOLDENS names (to
/// check goldens generated elsewhere, see the generator's docstring).
static std::string dataDir() {
  if (const char *dir = std::getenv("QUANTC_REFERENCE_GOLDENS"))
    return std::string(dir) + "/";
  return std::string(QUANTC_UNIT_DATA_DIR) + "/Reference/data/";
}

static float parseBits(const std::string &tok) {
  uint32_t b = static_cast<uint32_t>(std::strtoul(tok.c_str(), nullptr, 16));
  float v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

static size_t elementSize(const std::string &type) {
  return type == "u8" || type == "i8" ? 1 : 4;
}

QTensor GoldenCase::view(const std::string &role) const {
  const RawTensor &t = tensors.at(role);
  QTensor q;
  q.data = const_cast<uint8_t *>(t.bytes.data());
  q.isSigned = t.type == "i8";
  q.shape = t.shape;
  q.scale = t.scale;
  q.zeroPoint = t.zeroPoint;
  q.qmin = t.qmin;
  q.qmax = t.qmax;
  return q;
}

void GoldenCase::makeOutput(const std::string &role,
                            std::vector<uint8_t> &storage, QTensor &out) const {
  storage.assign(tensors.at(role).bytes.size(), 0);
  out = view(role);
  out.data = storage.data();
}

std::vector<int64_t> GoldenCase::param(const std::string &key,
                                       std::vector<int64_t> fallback) const {
  auto it = params.find(key);
  return it == params.end() ? fallback : it->second;
}

static GoldenData load() {
  GoldenData d;
  std::ifstream blobIn(dataDir() + "tensors.bin", std::ios::binary);
  std::ifstream in(dataDir() + "goldens.txt");
  if (!blobIn || !in) {
    d.error = "cannot read " + dataDir() + "{goldens.txt,tensors.bin}";
    return d;
  }
  const std::string blob((std::istreambuf_iterator<char>(blobIn)),
                         std::istreambuf_iterator<char>());
  std::string line;
  GoldenCase current;
  bool open = false;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string tag;
    ls >> tag;
    if (tag.empty() || tag[0] == '#')
      continue;
    if (tag == "case") {
      current = GoldenCase();
      ls >> current.op >> current.name >> current.source;
      open = true;
    } else if (!open) {
      d.error = "record '" + tag + "' outside a case";
      return d;
    } else if (tag == "t") {
      std::string role;
      RawTensor t;
      int64_t offset = 0, rank = 0, n = 1;
      ls >> role >> t.type >> offset >> rank;
      t.shape.resize(rank);
      for (int64_t &dim : t.shape)
        ls >> dim, n *= dim;
      const int64_t bytes = n * static_cast<int64_t>(elementSize(t.type));
      if (offset < 0 || offset + bytes > static_cast<int64_t>(blob.size())) {
        d.error = current.name + ": tensor " + role + " out of range";
        return d;
      }
      t.bytes.assign(blob.begin() + offset, blob.begin() + offset + bytes);
      current.tensors[role] = std::move(t);
    } else if (tag == "q") {
      std::string role, scale;
      ls >> role >> scale;
      RawTensor &t = current.tensors[role];
      t.hasQParams = true;
      t.scale = parseBits(scale);
      ls >> t.zeroPoint >> t.qmin >> t.qmax;
    } else if (tag == "ws") {
      size_t n = 0;
      ls >> n;
      std::string tok;
      current.weightScales.resize(n);
      for (float &s : current.weightScales)
        ls >> tok, s = parseBits(tok);
    } else if (tag == "p") {
      std::string key;
      ls >> key;
      int64_t v;
      std::vector<int64_t> &vals = current.params[key];
      while (ls >> v)
        vals.push_back(v);
    } else if (tag == "f") {
      std::string key, tok;
      ls >> key;
      std::vector<float> &vals = current.floatParams[key];
      while (ls >> tok)
        vals.push_back(parseBits(tok));
    } else if (tag == "end") {
      d.cases.push_back(std::move(current));
      open = false;
    } else {
      d.error = "unknown record '" + tag + "' in goldens.txt";
      return d;
    }
  }
  if (open)
    d.error = "goldens.txt ends inside a case";
  return d;
}

const GoldenData &quantc::ref::test::goldenData() {
  static const GoldenData data = load();
  return data;
}
