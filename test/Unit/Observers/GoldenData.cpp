//===- GoldenData.cpp - Reader for the observer golden vectors -----------===//
//
// Parses the text manifest and the raw little-endian float32 blobs produced
// by scripts/gen_observer_goldens.py. No dependencies beyond the standard
// library; errors are reported through GoldenData::error (no exceptions).
//
//===----------------------------------------------------------------------===//

#include "GoldenData.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace quantc::obs;
using namespace quantc::obs::test;

uint32_t quantc::obs::test::floatBits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

static std::string dataDir() {
  return std::string(QUANTC_UNIT_DATA_DIR) + "/Observers/data/";
}

static bool readFloats(const std::string &path, std::vector<float> &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  out.resize(bytes.size() / 4);
  // The files are little-endian; so is every host this project targets.
  std::memcpy(out.data(), bytes.data(), out.size() * 4);
  return true;
}

static float parseBits(const std::string &tok) {
  uint32_t b = static_cast<uint32_t>(std::strtoul(tok.c_str(), nullptr, 16));
  float v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

static std::optional<int64_t> parseOptInt(const std::string &tok) {
  if (tok == "-")
    return std::nullopt;
  return std::strtoll(tok.c_str(), nullptr, 10);
}

static void readPair(std::istringstream &ls, std::vector<float> &a,
                     std::vector<float> &b) {
  size_t n = 0;
  ls >> n;
  std::string tok;
  a.resize(n);
  b.resize(n);
  for (size_t i = 0; i < n; ++i)
    ls >> tok, a[i] = parseBits(tok);
  for (size_t i = 0; i < n; ++i)
    ls >> tok, b[i] = parseBits(tok);
}

static GoldenData load() {
  GoldenData d;
  std::vector<float> inputs, hists;
  if (!readFloats(dataDir() + "inputs.bin", inputs) ||
      !readFloats(dataDir() + "hist.bin", hists)) {
    d.error = "cannot read " + dataDir() + "{inputs,hist}.bin";
    return d;
  }
  std::ifstream in(dataDir() + "goldens.txt");
  if (!in) {
    d.error = "cannot read " + dataDir() + "goldens.txt";
    return d;
  }
  std::string line, currentSet;
  std::map<std::string, int> nameCount;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string tag;
    ls >> tag;
    if (tag.empty() || tag[0] == '#')
      continue;
    if (tag == "dataset") {
      ls >> currentSet;
      d.datasets[currentSet];
    } else if (tag == "batch") {
      int64_t offset = 0, rank = 0, n = 1;
      ls >> offset >> rank;
      Batch b;
      b.shape.resize(rank);
      for (int64_t &dim : b.shape)
        ls >> dim, n *= dim;
      if (offset + n > static_cast<int64_t>(inputs.size())) {
        d.error = "batch out of range in inputs.bin";
        return d;
      }
      b.values.assign(inputs.begin() + offset, inputs.begin() + offset + n);
      d.datasets[currentSet].push_back(std::move(b));
    } else if (tag == "case") {
      GoldenCase c;
      std::string kind, dtype, qscheme, qmin, qmax, avg, pct;
      int rr = 0;
      ls >> kind >> c.dataset >> dtype >> qscheme >> rr >> qmin >> qmax >>
          c.config.chAxis >> avg >> pct;
      c.config.kind = *parseObserverKind(kind);
      c.config.dtype = *parseDtype(dtype);
      c.config.qscheme = *parseQScheme(qscheme);
      c.config.reduceRange = rr != 0;
      c.config.quantMin = parseOptInt(qmin);
      c.config.quantMax = parseOptInt(qmax);
      c.config.averagingConstant = std::strtod(avg.c_str(), nullptr);
      c.config.percentile = std::strtod(pct.c_str(), nullptr);
      std::string base = kind + "_" + c.dataset + "_" + dtype + "_" + qscheme +
                         (rr ? "_rr" : "") +
                         (c.config.quantMin ? "_q" + qmin + "_" + qmax : "");
      for (char &ch : base)
        if (ch == '-')
          ch = 'm';
      c.name = base + "_" + std::to_string(nameCount[base]++);
      d.cases.push_back(std::move(c));
    } else if (tag == "state") {
      ls >> d.cases.back().batches;
      readPair(ls, d.cases.back().min, d.cases.back().max);
    } else if (tag == "hist") {
      std::string off, lo, hi;
      ls >> off;
      GoldenCase &c = d.cases.back();
      if (off != "-") {
        ls >> lo >> hi;
        int64_t o = std::strtoll(off.c_str(), nullptr, 10);
        const int64_t bins = c.config.bins;
        if (o + bins > static_cast<int64_t>(hists.size())) {
          d.error = "histogram out of range in hist.bin";
          return d;
        }
        c.hasHist = true;
        c.hist.assign(hists.begin() + o, hists.begin() + o + bins);
        c.histMin = parseBits(lo);
        c.histMax = parseBits(hi);
      }
    } else if (tag == "range") {
      readPair(ls, d.cases.back().rangeLo, d.cases.back().rangeHi);
    } else if (tag == "qparams") {
      GoldenCase &c = d.cases.back();
      size_t n = 0;
      ls >> n;
      std::string tok;
      c.scale.resize(n);
      c.zeroPoint.resize(n);
      for (float &s : c.scale)
        ls >> tok, s = parseBits(tok);
      for (int32_t &z : c.zeroPoint)
        ls >> z;
    } else if (tag == "sum") {
      int64_t off = 0, n = 0;
      std::string want;
      ls >> off >> n >> want;
      if (off + n > static_cast<int64_t>(inputs.size())) {
        d.error = "sum record out of range in inputs.bin";
        return d;
      }
      d.sums.push_back(
          {{inputs.begin() + off, inputs.begin() + off + n}, parseBits(want)});
    } else if (tag == "histc") {
      int64_t off = 0, n = 0, hoff = 0;
      std::string lo, hi;
      HistcRecord r;
      ls >> off >> n >> r.bins >> lo >> hi >> hoff;
      if (off + n > static_cast<int64_t>(inputs.size()) ||
          hoff + r.bins > static_cast<int64_t>(hists.size())) {
        d.error = "histc record out of range";
        return d;
      }
      r.values.assign(inputs.begin() + off, inputs.begin() + off + n);
      r.lo = std::strtod(lo.c_str(), nullptr);
      r.hi = std::strtod(hi.c_str(), nullptr);
      r.hist.assign(hists.begin() + hoff, hists.begin() + hoff + r.bins);
      d.histcs.push_back(std::move(r));
    } else if (tag == "divfloor") {
      std::string a, b, q;
      ls >> a >> b >> q;
      d.divFloors.push_back({parseBits(a), parseBits(b), parseBits(q)});
    } else {
      d.error = "unknown record '" + tag + "' in goldens.txt";
      return d;
    }
  }
  return d;
}

const GoldenData &quantc::obs::test::goldenData() {
  static const GoldenData data = load();
  return data;
}
