//===- GoldenTest.cpp - The reference ops against PyTorch 1.13 goldens ----===//
//
// Runs every golden case of scripts/gen_reference_goldens.py through the
// reference and compares with PyTorch (onednn engine). Quantized outputs
// must be within 1 LSB on >= 99.9 % of the elements of each op family (and
// within 2 everywhere: a larger difference is a bug, not rounding);
// quantize and dequantize must be bit-exact. Each family prints its
// exact-match rate and maximum difference.
//
//===----------------------------------------------------------------------===//

#include "GoldenData.h"
#include "dialects/Qnt/IR/UnaryFunctions.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace quantc::ref;
using quantc::Status;
using namespace quantc::ref::test;

namespace {

/// Agreement of one op family (per source of the expected values).
struct Stats {
  int64_t cases = 0, elements = 0, exact = 0, withinOne = 0, maxDiff = 0;
  std::string worstCase;

  void add(const GoldenCase &c, const QTensor &got, const QTensor &want) {
    ++cases;
    for (int64_t i = 0; i < want.numElements(); ++i) {
      const int64_t diff = std::abs(int64_t(got.get(i)) - want.get(i));
      ++elements;
      exact += diff == 0;
      withinOne += diff <= 1;
      if (diff > maxDiff) {
        maxDiff = diff;
        worstCase = c.name;
      }
    }
  }

  void print(const std::string &family) const {
    std::printf("[ reference ] %-20s %3lld cases %7lld outputs: exact %.4f %%, "
                "<= 1 LSB %.4f %%, max diff %lld%s%s\n",
                family.c_str(), static_cast<long long>(cases),
                static_cast<long long>(elements), 100.0 * exact / elements,
                100.0 * withinOne / elements, static_cast<long long>(maxDiff),
                maxDiff ? " in " : "", maxDiff ? worstCase.c_str() : "");
  }
};

FusedActivation activationOf(const GoldenCase &c) {
  FusedActivation act;
  act.kind = static_cast<Activation>(c.param("act", {0})[0]);
  auto it = c.floatParams.find("clamp");
  if (it != c.floatParams.end()) {
    act.clampMin = it->second[0];
    act.clampMax = it->second[1];
  }
  return act;
}

Window2D windowOf(const GoldenCase &c) {
  Window2D w;
  std::vector<int64_t> s = c.param("stride", {1, 1});
  std::vector<int64_t> p = c.param("pad", {0, 0, 0, 0});
  std::vector<int64_t> d = c.param("dilation", {1, 1});
  w.strideH = s[0], w.strideW = s[1];
  w.padTop = p[0], w.padBottom = p[1], w.padLeft = p[2], w.padRight = p[3];
  w.dilationH = d[0], w.dilationW = d[1];
  return w;
}

const int32_t *biasOf(const GoldenCase &c) {
  auto it = c.tensors.find("bias");
  if (it == c.tensors.end())
    return nullptr;
  return reinterpret_cast<const int32_t *>(it->second.bytes.data());
}

QWeights weightsOf(const GoldenCase &c) {
  const RawTensor &t = c.tensors.at("weights");
  QWeights w;
  w.data = reinterpret_cast<const int8_t *>(t.bytes.data());
  w.shape = t.shape;
  w.scales = c.weightScales;
  return w;
}

/// Runs the reference op of `c` into `got`.
Status run(const GoldenCase &c, const QTensor &got) {
  if (c.op == "conv2d") {
    Conv2DParams p;
    p.window = windowOf(c);
    p.groups = c.param("groups", {1})[0];
    p.activation = activationOf(c);
    QTensor residual;
    const bool hasResidual = c.tensors.count("residual") != 0;
    if (hasResidual)
      residual = c.view("residual");
    return conv2d(c.view("input"), weightsOf(c), biasOf(c), p,
                  hasResidual ? &residual : nullptr, got);
  }
  if (c.op == "matmul")
    return matmul(c.view("input"), weightsOf(c), biasOf(c), activationOf(c),
                  got);
  if (c.op == "add")
    return add(c.view("lhs"), c.view("rhs"), activationOf(c), got);
  if (c.op == "maxpool" || c.op == "avgpool") {
    Pool2DParams p;
    std::vector<int64_t> k = c.param("kernel", {1, 1});
    p.kernelH = k[0], p.kernelW = k[1];
    p.window = windowOf(c);
    return c.op == "maxpool" ? maxPool2d(c.view("input"), p, got)
                             : avgPool2d(c.view("input"), p, got);
  }
  if (c.op == "gavgpool")
    return globalAvgPool2d(c.view("input"), got);
  if (c.op == "concat") {
    std::vector<QTensor> inputs;
    for (int i = 0; c.tensors.count("input" + std::to_string(i)); ++i)
      inputs.push_back(c.view("input" + std::to_string(i)));
    return concat(
        inputs,
        c.param("axis", {static_cast<int64_t>(got.shape.size()) - 1})[0], got);
  }
  if (c.op == "mul")
    return mul(c.view("lhs"), c.view("rhs"), activationOf(c), got);
  if (c.op == "lookup") {
    // The compiler's table for qnt.unary's function (UnaryFunctions.h).
    auto fn = static_cast<mlir::qnt::UnaryFn>(c.param("fn", {0})[0]);
    double alpha = c.floatParams.at("alpha")[0];
    double beta = c.floatParams.at("beta")[0];
    std::vector<int32_t> table = lookupTable(
        [&](double x) { return mlir::qnt::evalUnary(fn, x, alpha, beta); },
        c.view("input"), got);
    return lookup(c.view("input"), table, got);
  }
  if (c.op == "batchnorm") {
    // qnt-quantize's parameters (ref::batchNormAffine) and the op.
    auto floats = [&](const char *role) {
      const std::vector<uint8_t> &bytes = c.tensors.at(role).bytes;
      std::vector<float> v(bytes.size() / sizeof(float));
      std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
      return v;
    };
    std::vector<float> multipliers, offsets;
    QTensor in = c.view("input");
    QUANTC_TRY(batchNormAffine(floats("gamma"), floats("beta"), floats("mean"),
                               floats("var"), c.floatParams.at("eps")[0],
                               in.scale, got.scale, multipliers, offsets));
    return channelAffine(in, multipliers, offsets, activationOf(c), got);
  }
  if (c.op == "quantize")
    return quantizeTensor(
        reinterpret_cast<const float *>(c.tensors.at("input").bytes.data()),
        got);
  return Status::failure("unknown op " + c.op);
}

/// Runs every case of `op` and checks the family's agreement.
void checkFamily(const std::string &op, bool exact) {
  const GoldenData &data = goldenData();
  ASSERT_TRUE(data.error.empty()) << data.error;
  std::map<std::string, Stats> bySource;
  for (const GoldenCase &c : data.cases) {
    if (c.op != op)
      continue;
    std::vector<uint8_t> storage;
    QTensor got;
    c.makeOutput("output", storage, got);
    Status e = run(c, got);
    ASSERT_TRUE(e.ok()) << c.name << ": " << e.message();
    Stats one;
    one.add(c, got, c.view("output"));
    if (exact)
      EXPECT_EQ(one.maxDiff, 0) << c.name;
    else
      EXPECT_LE(one.maxDiff, 2) << c.name;
    bySource[c.source].add(c, got, c.view("output"));
  }
  ASSERT_FALSE(bySource.empty()) << "no golden case for " << op;
  for (const auto &[source, stats] : bySource) {
    stats.print(op + " (" + source + ")");
    EXPECT_GE(stats.withinOne * 1000, stats.elements * 999)
        << op << " (" << source << "): fewer than 99.9 % within 1 LSB";
  }
}

} // namespace

TEST(ReferenceGolden, Conv2d) { checkFamily("conv2d", false); }
TEST(ReferenceGolden, Matmul) { checkFamily("matmul", false); }
TEST(ReferenceGolden, Add) { checkFamily("add", false); }
TEST(ReferenceGolden, Mul) { checkFamily("mul", false); }
TEST(ReferenceGolden, Lookup) { checkFamily("lookup", false); }
TEST(ReferenceGolden, MaxPool) { checkFamily("maxpool", true); }
TEST(ReferenceGolden, AvgPool) { checkFamily("avgpool", false); }
TEST(ReferenceGolden, GlobalAvgPool) { checkFamily("gavgpool", false); }
TEST(ReferenceGolden, Concat) { checkFamily("concat", false); }
TEST(ReferenceGolden, BatchNorm) { checkFamily("batchnorm", false); }
TEST(ReferenceGolden, Quantize) { checkFamily("quantize", true); }

// Dequantize produces float32: compared bit for bit.
TEST(ReferenceGolden, Dequantize) {
  const GoldenData &data = goldenData();
  ASSERT_TRUE(data.error.empty()) << data.error;
  int64_t cases = 0, elements = 0, mismatches = 0;
  for (const GoldenCase &c : data.cases) {
    if (c.op != "dequantize")
      continue;
    const RawTensor &want = c.tensors.at("output");
    std::vector<float> got(want.bytes.size() / 4);
    Status e = dequantizeTensor(c.view("input"), got.data());
    ASSERT_TRUE(e.ok()) << c.name << ": " << e.message();
    ++cases;
    for (size_t i = 0; i < got.size(); ++i) {
      ++elements;
      mismatches += std::memcmp(&got[i], want.bytes.data() + 4 * i, 4) != 0;
    }
  }
  ASSERT_GT(cases, 0);
  std::printf("[ reference ] %-20s %3lld cases %7lld outputs: bit-exact "
              "%.4f %%\n",
              "dequantize (torch)", static_cast<long long>(cases),
              static_cast<long long>(elements),
              100.0 * (elements - mismatches) / elements);
  EXPECT_EQ(mismatches, 0);
}
