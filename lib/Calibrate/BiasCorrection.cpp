//===- BiasCorrection.cpp - Input statistics for bias correction ---------===//
//
// attachInputMeans: the layers with observed weights are tagged, a float
// probe returns their inputs, and per layer the sums of the input values
// each filter tap reads are accumulated in double over the data; their
// means become `qnt.input_mean` (see BiasCorrection.h, qnt-correct-bias).
//
//===----------------------------------------------------------------------===//

#include "quantc/Calibrate/BiasCorrection.h"
#include "quantc/Calibrate/Probe.h"
#include "quantc/Support/Fail.h"

#include "dialects/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using llvm::Error;
using llvm::Expected;

/// Tags a measured layer with its index while the probe is built.
static constexpr StringLiteral kProbeIndex = "qnt.bias_probe_index";

namespace {

/// What one layer reads and the sums of it.
struct LayerInputs {
  Operation *op;
  /// A convolution's geometry (a linear layer: kh = kw = 1, no padding).
  int64_t kh = 1, kw = 1, outH = 1, outW = 1;
  int64_t strideH = 1, strideW = 1, dilH = 1, dilW = 1, padTop = 0, padLeft = 0;
  bool linear = false;
  /// Per tap and channel, [kh, kw, c]; and how many output positions.
  std::vector<double> sums;
  int64_t positions = 0;

  void add(ArrayRef<float> x, ArrayRef<int64_t> shape);
  void addImage(const float *x, int64_t h, int64_t w, int64_t c);
};

} // namespace

/// The input rows (or columns) that tap `k` reads over the `out` output
/// positions, inside [0, size).
static SmallVector<int64_t> tapReads(int64_t k, int64_t out, int64_t stride,
                                     int64_t dilation, int64_t pad,
                                     int64_t size) {
  SmallVector<int64_t> reads;
  for (int64_t o = 0; o < out; ++o) {
    int64_t i = o * stride - pad + k * dilation;
    if (i >= 0 && i < size)
      reads.push_back(i);
  }
  return reads;
}

/// One NHWC image: for each filter column, the sums over the columns it
/// reads of every row (h x c), then for each filter row the rows it reads.
void LayerInputs::addImage(const float *x, int64_t h, int64_t w, int64_t c) {
  std::vector<double> rowSums(h * c);
  for (int64_t j = 0; j < kw; ++j) {
    SmallVector<int64_t> cols = tapReads(j, outW, strideW, dilW, padLeft, w);
    std::fill(rowSums.begin(), rowSums.end(), 0.0);
    for (int64_t r = 0; r < h; ++r)
      for (int64_t col : cols)
        for (int64_t ch = 0; ch < c; ++ch)
          rowSums[r * c + ch] += x[(r * w + col) * c + ch];
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t r : tapReads(i, outH, strideH, dilH, padTop, h))
        for (int64_t ch = 0; ch < c; ++ch)
          sums[(i * kw + j) * c + ch] += rowSums[r * c + ch];
  }
  positions += outH * outW;
}

void LayerInputs::add(ArrayRef<float> x, ArrayRef<int64_t> shape) {
  if (linear) {
    // [B, M, K]: every row is one position.
    int64_t k = shape.back();
    for (size_t i = 0; i < x.size(); ++i)
      sums[i % k] += x[i];
    positions += static_cast<int64_t>(x.size()) / k;
    return;
  }
  int64_t h = shape[1], w = shape[2], c = shape[3];
  for (int64_t n = 0; n < shape[0]; ++n)
    addImage(x.data() + n * h * w * c, h, w, c);
}

/// Whether `v` is an observed constant (a weight before folding).
static bool isObservedWeight(Value v) {
  auto observe = v.getDefiningOp<qnt::ObserveOp>();
  return observe && matchPattern(observe.getInput(), m_Constant());
}

/// The layers to measure, with their geometry.
static std::vector<LayerInputs> findLayers(ModuleOp module) {
  std::vector<LayerInputs> layers;
  module.walk([&](Operation *op) {
    LayerInputs l;
    l.op = op;
    if (auto conv = dyn_cast<qnt::Conv2DOp>(op)) {
      if (conv.isQuantized() || !isObservedWeight(conv.getFilter()))
        return;
      ArrayRef<int64_t> f = conv.getFilter().getType().getShape();
      ArrayRef<int64_t> out = conv.getOutput().getType().getShape();
      l.kh = f[1];
      l.kw = f[2];
      l.outH = out[1];
      l.outW = out[2];
      l.strideH = conv.getStrides()[0];
      l.strideW = conv.getStrides()[1];
      l.dilH = conv.getDilations()[0];
      l.dilW = conv.getDilations()[1];
      l.padTop = conv.getPad()[0];
      l.padLeft = conv.getPad()[2];
      l.sums.assign(l.kh * l.kw * conv.getInput().getType().getDimSize(3), 0);
    } else if (auto matmul = dyn_cast<tosa::MatMulOp>(op)) {
      auto w = cast<ShapedType>(matmul.getB().getType());
      if (!isObservedWeight(matmul.getB()) || w.getDimSize(0) != 1)
        return;
      l.linear = true;
      l.sums.assign(w.getDimSize(1), 0);
    } else {
      return;
    }
    layers.push_back(std::move(l));
  });
  return layers;
}

/// The inputs of the tagged layers of the probe's function, by tag.
static Expected<SmallVector<Value>> taggedInputs(func::FuncOp fn,
                                                 size_t count) {
  SmallVector<Value> inputs(count);
  fn.walk([&](Operation *op) {
    if (auto index = op->getAttrOfType<IntegerAttr>(kProbeIndex))
      inputs[index.getInt()] = op->getOperand(0);
  });
  if (llvm::is_contained(inputs, Value()))
    return quantc::fail("bias correction: a measured layer is not in the "
                        "model function");
  return inputs;
}

Expected<int64_t> quantc::attachInputMeans(ModuleOp module, StringRef function,
                                           ArrayRef<std::string> data,
                                           int64_t maxSamples) {
  std::vector<LayerInputs> layers = findLayers(module);
  if (layers.empty())
    return 0;
  Builder b(module.getContext());
  for (auto [i, l] : llvm::enumerate(layers))
    l.op->setAttr(kProbeIndex, b.getI64IntegerAttr(i));
  Expected<std::unique_ptr<ValueProbe>> probe =
      ValueProbe::create(module, function, [&](func::FuncOp fn) {
        return taggedInputs(fn, layers.size());
      });
  for (LayerInputs &l : layers)
    l.op->removeAttr(kProbeIndex);
  if (!probe)
    return probe.takeError();
  ValueProbe &p = **probe;
  Error e = forEachSample(data, maxSamples, p.inputs(), /*sources=*/nullptr,
                          [&](ArrayRef<const float *> x) -> Error {
                            if (Error e = p.run(x))
                              return e;
                            for (auto [i, l] : llvm::enumerate(layers))
                              l.add(p.value(i), p.shape(i));
                            return Error::success();
                          });
  if (e)
    return std::move(e);
  for (LayerInputs &l : layers) {
    SmallVector<float> means;
    for (double s : l.sums)
      means.push_back(l.positions ? static_cast<float>(s / l.positions) : 0);
    l.op->setAttr("qnt.input_mean", b.getDenseF32ArrayAttr(means));
  }
  return static_cast<int64_t>(layers.size());
}
