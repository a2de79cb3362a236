//===- conv_bench.cpp - int8 convolutions against oneDNN 2.6
//---------------===//
//
// For every convolution of the shape lists given on the command line (oneDNN
// benchdnn "desc" notation, batch 1), in one process, one thread:
//   (a) our int8 conv: a quantized `qnt.conv2d` (u8 input with zero point,
//       s8 per-channel weights, i32 bias, relu, u8 output) in a function whose
//       argument and result are the quantized tensors themselves, lowered by
//       quantc::buildInt8ToLLVMPipeline and JIT-compiled at -O3;
//   (b) oneDNN int8 conv: u8 src (src zero point attribute), s8 weights
//       reordered once outside the timed loop, s32 bias, per-channel output
//       scales, fused ReLU, u8 dst, NHWC;
//   (c) oneDNN fp32 conv: NHWC, fused ReLU;
//   (d) optionally our fp32 path (quantc::buildFloatToLLVMPipeline, plain
//       loops today): few runs only.
// The int8 outputs of (a) and (b) are compared on the same data (max diff,
// % exact). Timings are interleaved: warm-up, then min and median of N runs.
//
//   quantc-bench-conv [--isa=amx-int8|avx512-vnni|avx2|generic] [--zp=N]
//                     [--min-time=S] [--fp32-ours=none|all|small]
//                     [--filter=SUBSTR] [--threads=N] [--markdown]
//                     shapes.txt...
//
// --threads=N (default 1): ours compiled with parallel=omp and N threads per
// parallel region (LLVM's libomp, loaded into the JIT), oneDNN with
// omp_set_num_threads(N). oneDNN links libgomp.so.1; found through the
// LLVM library directory (this binary's run path) that is LLVM's libomp
// under its GNU name, so both share one runtime and one thread pool. If
// the process ends up with two different runtimes (GCC's libgomp and
// libomp), each one's idle threads spin on the other's cores between timed
// runs, so N > 1 then requires OMP_WAIT_POLICY=passive.
//
//===----------------------------------------------------------------------===//

#include "quantc/InitAll.h"
#include "quantc/Pipelines/Pipelines.h"
#include "quantc/Reference/Reference.h"
#include "quantc/Reference/Requantize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <omp.h>

#include <climits>
#include <cstdlib>
#include <link.h>

#include <cpuid.h>
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

using namespace mlir;

namespace {

[[noreturn]] void die(const std::string &message) {
  llvm::errs() << "quantc-bench-conv: " << message << "\n";
  std::exit(1);
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

struct Shape {
  std::string name;
  int64_t g = 1, ic = 0, ih = 0, oc = 0, oh = 0, kh = 0, sh = 1, ph = 0;
  int repeat = 1;
  int64_t icg() const { return ic / g; }
  int64_t macs() const { return oh * oh * oc * kh * kh * icg(); }
};

std::vector<Shape> parseShapes(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    die("cannot open " + path);
  std::vector<Shape> shapes;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    Shape s;
    size_t i = 0;
    while (i < line.size()) {
      if (line[i] == 'n' && i + 1 < line.size() && line[i + 1] == '"') {
        size_t end = line.find('"', i + 2);
        s.name = line.substr(i + 2, end - i - 2);
        break;
      }
      size_t j = i;
      while (j < line.size() && std::isalpha((unsigned char)line[j]))
        ++j;
      std::string key = line.substr(i, j - i);
      size_t k = j;
      while (k < line.size() && std::isdigit((unsigned char)line[k]))
        ++k;
      if (k == j)
        die("cannot parse '" + line + "'");
      int64_t v = std::stoll(line.substr(j, k - j));
      if (key == "g")
        s.g = v;
      else if (key == "ic")
        s.ic = v;
      else if (key == "ih")
        s.ih = v;
      else if (key == "oc")
        s.oc = v;
      else if (key == "oh")
        s.oh = v;
      else if (key == "kh")
        s.kh = v;
      else if (key == "sh")
        s.sh = v;
      else if (key == "ph")
        s.ph = v;
      else if (key == "mb" || key == "iw" || key == "ow" || key == "kw" ||
               key == "sw" || key == "pw") {
        // square shapes only in our lists
      } else
        die("unknown key '" + key + "' in '" + line + "'");
      i = k;
    }
    size_t star = s.name.rfind('*');
    if (star != std::string::npos) {
      s.repeat = std::stoi(s.name.substr(star + 1));
      s.name = s.name.substr(0, star);
    }
    int64_t derived = (s.ih + 2 * s.ph - s.kh) / s.sh + 1;
    if (s.oh == 0)
      s.oh = derived;
    else if (s.oh != derived)
      die("oh mismatch in '" + line + "'");
    shapes.push_back(s);
  }
  return shapes;
}

//===----------------------------------------------------------------------===//
// Machine: clock and int8 peak
//===----------------------------------------------------------------------===//

std::string realPath(const char *path) {
  char buf[PATH_MAX];
  return realpath(path, buf) ? std::string(buf) : std::string(path);
}

/// The file of the OpenMP runtime loaded into this process (through
/// oneDNN's libgomp.so.1 dependency).
std::string openmpRuntime() {
  std::string found = "none";
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        std::string name = info->dlpi_name ? info->dlpi_name : "";
        std::string base = name.substr(name.rfind('/') + 1);
        if (base.rfind("libgomp", 0) == 0 || base.rfind("libomp", 0) == 0 ||
            base.rfind("libiomp", 0) == 0)
          *static_cast<std::string *>(data) = realPath(name.c_str());
        return 0;
      },
      &found);
  return found;
}

double seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Core clock from a chain of dependent 64-bit imuls (3 cycles latency on
/// Zen and Intel cores). Not from a chain of `add $1, reg`: Golden Cove and
/// later Intel cores fold immediate adds in the renamer (on a Sapphire
/// Rapids Xeon such a chain ran at "21 GHz").
double measureGHz() {
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    uint64_t iters = 20'000'000, x = 1, m = 3;
    double t0 = seconds();
    for (uint64_t i = 0; i < iters; ++i)
      asm volatile("imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\t"
                   "imul %1, %0\n\t"
                   : "+r"(x)
                   : "r"(m));
    double t = seconds() - t0;
    best = std::max(best, 4.0 * 3 * iters / t / 1e9);
  }
  return best;
}

/// Measured u8 x s8 MAC/cycle of vpdpbusd (12 independent accumulators).
// GCC 12 warns about its own _mm512_castsi512_si128.
#pragma GCC diagnostic ignored "-Wuninitialized"
#define QUANTC_VNNI_PEAK(NAME, V, ZERO, SET1, DP, LOW, BYTES)                  \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) double NAME( \
      double ghz) {                                                            \
    V acc[12];                                                                 \
    V a = SET1(1), b = SET1(2);                                                \
    for (auto &v : acc)                                                        \
      v = ZERO();                                                              \
    const int64_t iters = 20'000'000;                                          \
    double best = 1e9;                                                         \
    for (int rep = 0; rep < 3; ++rep) {                                        \
      double t0 = seconds();                                                   \
      for (int64_t i = 0; i < iters; ++i) {                                    \
        asm volatile("" : "+x"(a));                                            \
        for (auto &v : acc)                                                    \
          v = DP(v, a, b);                                                     \
      }                                                                        \
      best = std::min(best, seconds() - t0);                                   \
    }                                                                          \
    int sink = 0;                                                              \
    for (auto &v : acc)                                                        \
      sink += _mm_cvtsi128_si32(LOW(v));                                       \
    if (sink == 42)                                                            \
      std::puts("");                                                           \
    return double(iters) * 12 * BYTES / best / (ghz * 1e9);                    \
  }
QUANTC_VNNI_PEAK(measureVnniYmm, __m256i, _mm256_setzero_si256,
                 _mm256_set1_epi8, _mm256_dpbusd_epi32, _mm256_castsi256_si128,
                 32)
QUANTC_VNNI_PEAK(measureVnniZmm, __m512i, _mm512_setzero_si512,
                 _mm512_set1_epi8, _mm512_dpbusd_epi32, _mm512_castsi512_si128,
                 64)

/// Whether this process may run AMX-INT8 (CPUID leaf 7 EDX bits 24-25,
/// XCR0 tile state, Linux's permission, requested here).
bool amxUsable() {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(d & (1u << 24)) ||
      !(d & (1u << 25)))
    return false;
  uint32_t lo, hi;
  asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 0x60000) != 0x60000)
    return false;
  unsigned long granted = 0;
  return syscall(SYS_arch_prctl, 0x1023, 18) == 0 &&
         syscall(SYS_arch_prctl, 0x1022, &granted) == 0 &&
         (granted & (1ul << 18));
}

/// Measured u8 x s8 GMAC/s of tdpbusd: 4 independent 16x16 int32
/// accumulator tiles, each step 16 x 16 x 64 MACs.
__attribute__((target("amx-tile,amx-int8"))) double measureTdpbusd() {
  struct alignas(64) Config {
    uint8_t palette, startRow, reserved[14];
    uint16_t colsb[16];
    uint8_t rows[16];
  } config = {};
  config.palette = 1;
  for (int t = 0; t < 6; ++t) {
    config.colsb[t] = 64;
    config.rows[t] = 16;
  }
  _tile_loadconfig(&config);
  alignas(64) static int8_t ab[16 * 64];
  for (int i = 0; i < 16 * 64; ++i)
    ab[i] = int8_t(i % 7 - 3);
  _tile_loadd(4, ab, 64);
  _tile_loadd(5, ab, 64);
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  const int64_t iters = 2'000'000;
  double best = 1e9;
  for (int rep = 0; rep < 3; ++rep) {
    double t0 = seconds();
    for (int64_t i = 0; i < iters; ++i) {
      _tile_dpbusd(0, 4, 5);
      _tile_dpbusd(1, 4, 5);
      _tile_dpbusd(2, 4, 5);
      _tile_dpbusd(3, 4, 5);
    }
    best = std::min(best, seconds() - t0);
  }
  alignas(64) static int32_t sink[16 * 16];
  _tile_stored(0, sink, 64);
  _tile_release();
  return double(iters) * 4 * 16 * 16 * 64 / best / 1e9;
}

//===----------------------------------------------------------------------===//
// Our JIT: a function of one memref argument and one memref result (made an
// out-parameter by the pipeline), element type i8 / u8 or f32.
//===----------------------------------------------------------------------===//

struct Jit {
  std::unique_ptr<ExecutionEngine> engine;
  std::string name;
  // Looked up once: ExecutionEngine::invokePacked looks the symbol up in the
  // JIT on every call (~1 us here), which an AOT-compiled caller never pays.
  void (*packed)(void **) = nullptr;
  std::vector<int64_t> inShape, outShape;
  double compileSeconds = 0;

  void run(void *in, void *out) const {
    int64_t scalars[2 * (1 + 2 * 4)];
    void *ptrs[4] = {in, in, out, out};
    std::vector<void *> args;
    int s = 0;
    auto add = [&](void **p, const std::vector<int64_t> &shape) {
      args.push_back(p);
      args.push_back(p + 1);
      scalars[s] = 0;
      args.push_back(&scalars[s++]);
      for (int64_t d : shape) {
        scalars[s] = d;
        args.push_back(&scalars[s++]);
      }
      int64_t stride = 1;
      int64_t strides[4];
      for (int d = 3; d >= 0; --d) {
        strides[d] = stride;
        stride *= shape[d];
      }
      for (int d = 0; d < 4; ++d) {
        scalars[s] = strides[d];
        args.push_back(&scalars[s++]);
      }
    };
    add(&ptrs[0], inShape);
    add(&ptrs[2], outShape);
    packed(args.data());
  }
};

Jit compile(ModuleOp module, std::function<void(OpPassManager &)> pipeline,
            std::vector<int64_t> inShape, std::vector<int64_t> outShape) {
  double t0 = seconds();
  MLIRContext *ctx = module.getContext();
  PassManager pm(ctx);
  pipeline(pm);
  if (failed(pm.run(module)))
    die("cannot lower the conv module");
  quantc::stripBufferizationAttrs(module);
  ExecutionEngineOptions options;
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(3, 0, nullptr);
  options.transformer = optimize;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  SmallVector<StringRef> libs{QUANTC_C_RUNNER_UTILS};
  bool threaded = module
                      ->walk([](Operation *op) {
                        return op->getName().getDialectNamespace() == "omp"
                                   ? WalkResult::interrupt()
                                   : WalkResult::advance();
                      })
                      .wasInterrupted();
  if (threaded)
    libs.push_back(QUANTC_OMP_RUNTIME);
  options.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(module, options);
  if (!engine)
    die("JIT compilation failed: " + llvm::toString(engine.takeError()));
  Jit jit;
  jit.engine = std::move(*engine);
  jit.name = "conv";
  auto packed = jit.engine->lookupPacked(jit.name);
  if (!packed)
    die("no JIT-compiled function: " + llvm::toString(packed.takeError()));
  jit.packed = *packed;
  jit.inShape = std::move(inShape);
  jit.outShape = std::move(outShape);
  jit.compileSeconds = seconds() - t0;
  return jit;
}

std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string dims(std::initializer_list<int64_t> ds) {
  std::string s;
  for (int64_t d : ds)
    s += std::to_string(d) + "x";
  return s;
}

//===----------------------------------------------------------------------===//
// Layer data
//===----------------------------------------------------------------------===//

struct Layer {
  Shape s;
  bool sevenBit = false;
  int zpIn = 0;
  double sIn = 0.05, sOut = 0;
  std::vector<double> sW;        // per output channel
  std::vector<float> multiplier; // quantc::ref::requantMultiplier, per channel
  std::vector<int8_t> w;         // OHWI (I = ic / g)
  std::vector<int32_t> bias;
  std::vector<uint8_t> x; // NHWC
};

Layer makeLayer(const Shape &s, bool sevenBit, int zp, std::mt19937 &rng) {
  Layer l;
  l.s = s;
  l.sevenBit = sevenBit;
  int hi = sevenBit ? 127 : 255;
  l.zpIn = zp < 0 ? (hi + 1) / 2 : zp;
  std::uniform_int_distribution<int> xd(0, hi), wd(-127, 127);
  std::uniform_real_distribution<double> sd(0.004, 0.006);
  l.x.resize(s.ih * s.ih * s.ic);
  for (auto &v : l.x)
    v = (uint8_t)xd(rng);
  l.w.resize(s.oc * s.kh * s.kh * s.icg());
  for (auto &v : l.w)
    v = (int8_t)wd(rng);
  // Accumulator spread for uniform data: sqrt(K) * sigma_x * sigma_w.
  double sx = std::sqrt(double(hi + 1) * (hi + 1) / 12.0);
  double sigmaAcc = std::sqrt(double(s.kh * s.kh * s.icg())) * sx * 73.6;
  std::uniform_int_distribution<int32_t> bd(-(int32_t)sigmaAcc,
                                            (int32_t)sigmaAcc);
  l.bias.resize(s.oc);
  for (auto &v : l.bias)
    v = bd(rng);
  l.sW.resize(s.oc);
  for (auto &v : l.sW)
    v = (double)(float)sd(rng);
  // Map +-3 sigma to the u8 output range (about half the outputs are > 0).
  l.sOut = (double)(float)(l.sIn * 0.005 * 3 * sigmaAcc / 255.0);
  l.multiplier.resize(s.oc);
  // The multipliers our kernels use (from the f32 scales of the quantized
  // types); oneDNN gets the same ones as output scales.
  for (int64_t o = 0; o < s.oc; ++o)
    l.multiplier[o] = quantc::ref::requantMultiplier(
        float(l.sIn), float(l.sW[o]), float(l.sOut));
  return l;
}

/// The layer on the int8 reference (quantc::ref, which defines the
/// semantics the generated kernels must match).
std::vector<uint8_t> referenceOutput(const Layer &l) {
  const Shape &s = l.s;
  std::vector<uint8_t> y(s.oh * s.oh * s.oc);
  quantc::ref::QTensor in;
  in.data = const_cast<uint8_t *>(l.x.data());
  in.shape = {1, s.ih, s.ih, s.ic};
  in.scale = float(l.sIn);
  in.zeroPoint = l.zpIn;
  in.qmax = l.sevenBit ? 127 : 255;
  quantc::ref::QWeights w;
  w.data = l.w.data();
  w.shape = {s.oc, s.kh, s.kh, s.icg()};
  for (double sw : l.sW)
    w.scales.push_back(float(sw));
  quantc::ref::Conv2DParams params;
  params.window.strideH = params.window.strideW = s.sh;
  params.window.padTop = params.window.padBottom = s.ph;
  params.window.padLeft = params.window.padRight = s.ph;
  params.groups = s.g;
  params.activation.kind = quantc::ref::Activation::Relu;
  quantc::ref::QTensor out;
  out.data = y.data();
  out.shape = {1, s.oh, s.oh, s.oc};
  out.scale = float(l.sOut);
  if (quantc::Status s =
          quantc::ref::conv2d(in, w, l.bias.data(), params, nullptr, out);
      s.failed())
    die("int8 reference: " + s.message());
  return y;
}

std::string quantizedModule(const Layer &l) {
  const Shape &s = l.s;
  std::string in = "!quant.uniform<" +
                   std::string(l.sevenBit ? "u8<0:127>" : "u8") + ":f32, " +
                   fmt(l.sIn) + ":" + std::to_string(l.zpIn) + ">";
  std::string out = "!quant.uniform<u8:f32, " + fmt(l.sOut) + ">";
  std::string ws, bs;
  for (int64_t o = 0; o < s.oc; ++o) {
    ws += (o ? ", " : "") + fmt(l.sW[o]);
    bs += (o ? ", " : "") + fmt(l.sIn * l.sW[o]);
  }
  std::string wq = "!quant.uniform<i8:f32:0, {" + ws + "}>";
  std::string bq = "!quant.uniform<i32:f32:0, {" + bs + "}>";
  std::string inT = "tensor<" + dims({1, s.ih, s.ih, s.ic}) + in + ">";
  std::string outT = "tensor<" + dims({1, s.oh, s.oh, s.oc}) + out + ">";
  std::string wDims = dims({s.oc, s.kh, s.kh, s.icg()});
  std::string wT = "tensor<" + wDims + wq + ">";
  std::string bT = "tensor<" + std::to_string(s.oc) + "x" + bq + ">";
  std::string m;
  m += "func.func @conv(%x: " + inT + ") -> " + outT + " {\n";
  m += "  %wr = arith.constant dense<0> : tensor<" + wDims + "i8>\n";
  m += "  %w = quant.scast %wr : tensor<" + wDims + "i8> to " + wT + "\n";
  m += "  %br = arith.constant dense<0> : tensor<" + std::to_string(s.oc) +
       "xi32>\n";
  m += "  %b = quant.scast %br : tensor<" + std::to_string(s.oc) + "xi32> to " +
       bT + "\n";
  m += "  %y = qnt.conv2d %x, %w bias(%b) {strides = array<i64: " +
       std::to_string(s.sh) + ", " + std::to_string(s.sh) +
       ">, pad = array<i64: " + std::to_string(s.ph) + ", " +
       std::to_string(s.ph) + ", " + std::to_string(s.ph) + ", " +
       std::to_string(s.ph) + ">, groups = " + std::to_string(s.g) +
       " : i64, activation = #qnt<activation relu>} : (" + inT + ", " + wT +
       ", " + bT + ") -> " + outT + "\n";
  m += "  return %y : " + outT + "\n}\n";
  return m;
}

std::string floatModule(const Shape &s) {
  std::string inT = "tensor<" + dims({1, s.ih, s.ih, s.ic}) + "f32>";
  std::string outT = "tensor<" + dims({1, s.oh, s.oh, s.oc}) + "f32>";
  std::string wT = "tensor<" + dims({s.oc, s.kh, s.kh, s.icg()}) + "f32>";
  std::string bT = "tensor<" + std::to_string(s.oc) + "xf32>";
  std::string m;
  m += "func.func @conv(%x: " + inT + ") -> " + outT + " {\n";
  m += "  %w = arith.constant dense<0.0> : " + wT + "\n";
  m += "  %b = arith.constant dense<0.0> : " + bT + "\n";
  m += "  %y = qnt.conv2d %x, %w bias(%b) {strides = array<i64: " +
       std::to_string(s.sh) + ", " + std::to_string(s.sh) +
       ">, pad = array<i64: " + std::to_string(s.ph) + ", " +
       std::to_string(s.ph) + ", " + std::to_string(s.ph) + ", " +
       std::to_string(s.ph) + ">, groups = " + std::to_string(s.g) +
       " : i64, activation = #qnt<activation relu>} : (" + inT + ", " + wT +
       ", " + bT + ") -> " + outT + "\n";
  m += "  return %y : " + outT + "\n}\n";
  return m;
}

/// Replaces the splat constants of `module` (in order: weights, bias) with
/// real data, so that large weights never go through text.
void setConstants(ModuleOp module, llvm::ArrayRef<Attribute> values) {
  size_t i = 0;
  module.walk([&](arith::ConstantOp op) {
    if (i < values.size())
      op.setValueAttr(cast<TypedAttr>(values[i++]));
  });
  if (i != values.size())
    die("constant count mismatch");
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

struct Stats {
  std::vector<double> t;
  double min() const { return *std::min_element(t.begin(), t.end()); }
  double median() const {
    std::vector<double> c = t;
    std::sort(c.begin(), c.end());
    return c[c.size() / 2];
  }
};

template <typename F> double timeOnce(F &&f) {
  double t0 = seconds();
  f();
  return seconds() - t0;
}

struct Options {
  std::string isa;
  int zp = -1; // -1: the middle of the input range
  double minTime = 0.3;
  std::string fp32Ours = "small";
  std::string filter; // only layers whose name contains it
  int threads = 1;
  std::vector<std::string> files;
};

/// A oneDNN convolution ready to time: the primitive with its buffers
/// bound, the weights reordered once from `userWeights` into the layout the
/// primitive chose (outside the timed loop).
struct DnnlConv {
  DnnlConv(const dnnl::convolution_forward::primitive_desc &pd,
           const dnnl::engine &eng, dnnl::stream &strm, void *src,
           const dnnl::memory::desc &userWeights, void *weights, void *bias,
           void *dst)
      : prim(pd), strm(strm) {
    dnnl::memory user(userWeights, eng, weights);
    dnnl::memory packed(pd.weights_desc(), eng);
    dnnl::reorder(user, packed).execute(strm, user, packed);
    strm.wait();
    args = {{DNNL_ARG_SRC, dnnl::memory(pd.src_desc(), eng, src)},
            {DNNL_ARG_WEIGHTS, packed},
            {DNNL_ARG_BIAS, dnnl::memory(pd.bias_desc(), eng, bias)},
            {DNNL_ARG_DST, dnnl::memory(pd.dst_desc(), eng, dst)},
            {DNNL_ARG_SCRATCHPAD, dnnl::memory(pd.scratchpad_desc(), eng)}};
  }
  void operator()() {
    prim.execute(strm, args);
    strm.wait();
  }

  dnnl::convolution_forward prim;
  dnnl::stream &strm;
  std::unordered_map<int, dnnl::memory> args;
};

struct Result {
  Shape s;
  double ours = 0, oursMed = 0, dnnl = 0, dnnlMed = 0, dnnlF32 = 0,
         dnnlF32Med = 0, oursF32 = -1;
  int maxDiff = 0, refDiffOurs = 0, refDiffDnnl = 0;
  double exact = 0;
  std::string impl, implF32;
  int runs = 0;
};

} // namespace

int main(int argc, char **argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--isa=", 0) == 0)
      opt.isa = a.substr(6);
    else if (a.rfind("--zp=", 0) == 0)
      opt.zp = std::stoi(a.substr(5));
    else if (a.rfind("--min-time=", 0) == 0)
      opt.minTime = std::stod(a.substr(11));
    else if (a.rfind("--fp32-ours=", 0) == 0)
      opt.fp32Ours = a.substr(12);
    else if (a.rfind("--filter=", 0) == 0)
      opt.filter = a.substr(9);
    else if (a.rfind("--threads=", 0) == 0)
      opt.threads = std::stoi(a.substr(10));
    else if (a[0] == '-')
      die("unknown option " + a);
    else
      opt.files.push_back(a);
  }
  if (opt.files.empty())
    die("usage: quantc-bench-conv [--isa=...] [--zp=N] [--min-time=S] "
        "[--fp32-ours=none|small|all] [--filter=SUBSTR] [--threads=N] "
        "shapes.txt...");
  if (opt.threads < 1)
    die("--threads must be at least 1");
  omp_set_num_threads(opt.threads);
  std::string runtime = openmpRuntime();
  const char *waitPolicy = std::getenv("OMP_WAIT_POLICY");
  if (opt.threads > 1 && runtime != realPath(QUANTC_OMP_RUNTIME) &&
      (!waitPolicy || std::string(waitPolicy) != std::string("passive")))
    die("oneDNN's OpenMP runtime " + runtime + " is not ours (" +
        realPath(QUANTC_OMP_RUNTIME) +
        "): two runtimes would spin on each other's cores; --threads > 1 "
        "then needs OMP_WAIT_POLICY=passive");
  quantc::ParallelOptions parallel;
  if (opt.threads > 1)
    parallel = {quantc::Parallelism::OpenMP, unsigned(opt.threads)};
  __builtin_cpu_init();
  bool vnni = __builtin_cpu_supports("avx512vnni");
  bool amx = amxUsable();
  if (opt.isa.empty())
    opt.isa = amx ? "amx-int8" : vnni ? "avx512-vnni" : "avx2";
  bool sevenBit = opt.isa == "avx2";

  double ghz = measureGHz();
  double vnniY = vnni ? measureVnniYmm(ghz) : 0;
  double vnniZ = vnni ? measureVnniZmm(ghz) : 0;
  double tileRate = amx ? measureTdpbusd() : 0; // GMAC/s
  // The int8 peak of one core, measured: tdpbusd's rate for amx-int8 (its
  // layers without tiles run vpdpbusd, slower), vpdpbusd zmm's for
  // avx512-vnni; 32 MAC/cycle (AVX2 vpmaddubsw) otherwise. GMAC/s, one
  // core per thread (the vCPUs here measured as separate cores: two
  // threads of oneDNN reach twice one core's vpdpbusd rate).
  double corePeak = opt.isa == "amx-int8"      ? tileRate
                    : opt.isa == "avx512-vnni" ? vnniZ * ghz
                                               : 32 * ghz;
  double peak = corePeak * opt.threads;

  quantc::registerAllPasses();
  DialectRegistry registry;
  quantc::registerAllDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  using dt = dnnl::memory::data_type;
  using tag = dnnl::memory::format_tag;

  std::printf("isa: %s (%s activations, input zero point %s)\n",
              opt.isa.c_str(), sevenBit ? "7-bit" : "8-bit",
              opt.zp < 0 ? "mid-range" : std::to_string(opt.zp).c_str());
  std::printf("clock: %.3f GHz (chain of dependent imuls, 3 cycles each); "
              "measured int8 throughput of one core: vpdpbusd %.1f MAC/cycle "
              "ymm, %.1f zmm (%.1f GMAC/s)%s\n",
              ghz, vnniY, vnniZ, vnniZ * ghz,
              amx ? (", tdpbusd " + std::to_string(int(tileRate + 0.5)) +
                     " GMAC/s (" + std::to_string(int(tileRate / ghz + 0.5)) +
                     " MAC/cycle)")
                        .c_str()
                  : ", no AMX");
  std::printf("int8 peak used (%s): %.1f GMAC/s x %d core%s = %.1f GMAC/s\n",
              opt.isa.c_str(), corePeak, opt.threads,
              opt.threads > 1 ? "s" : "", peak);
  std::printf("threads: %d (ours: %s; oneDNN: omp_set_num_threads; OpenMP "
              "runtime %s)\n",
              opt.threads, opt.threads > 1 ? "parallel=omp" : "sequential code",
              runtime.c_str());

  std::mt19937 rng(1234);
  for (const std::string &file : opt.files) {
    std::vector<Shape> shapes = parseShapes(file);
    std::vector<Result> results;
    for (const Shape &s : shapes) {
      if (s.name.find(opt.filter) == std::string::npos)
        continue;
      Result r;
      r.s = s;
      Layer l = makeLayer(s, sevenBit, opt.zp, rng);

      // (a) ours, int8.
      OwningOpRef<ModuleOp> qm =
          parseSourceString<ModuleOp>(quantizedModule(l), &ctx);
      if (!qm)
        die("cannot parse the generated module for " + s.name);
      auto wType = RankedTensorType::get({s.oc, s.kh, s.kh, s.icg()},
                                         IntegerType::get(&ctx, 8));
      auto bType = RankedTensorType::get({s.oc}, IntegerType::get(&ctx, 32));
      setConstants(*qm,
                   {DenseElementsAttr::get(wType, llvm::ArrayRef(l.w)),
                    DenseElementsAttr::get(bType, llvm::ArrayRef(l.bias))});
      std::string isa = opt.isa;
      Jit ours = compile(*qm,
                         [&](OpPassManager &pm) {
                           quantc::buildInt8ToLLVMPipeline(pm, isa, parallel);
                         },
                         {1, s.ih, s.ih, s.ic}, {1, s.oh, s.oh, s.oc});
      std::vector<uint8_t> yOurs(s.oh * s.oh * s.oc), yDnnl(yOurs.size());

      // (b) oneDNN int8.
      dnnl::memory::dims srcD{1, s.ic, s.ih, s.ih}, dstD{1, s.oc, s.oh, s.oh},
          biasD{s.oc}, strides{s.sh, s.sh}, pad{s.ph, s.ph};
      dnnl::memory::dims wD =
          s.g == 1 ? dnnl::memory::dims{s.oc, s.ic, s.kh, s.kh}
                   : dnnl::memory::dims{s.g, s.oc / s.g, s.icg(), s.kh, s.kh};
      tag userWTag = s.g == 1 ? tag::ohwi : tag::gohwi;
      dnnl::convolution_forward::desc qd(
          dnnl::prop_kind::forward_inference,
          dnnl::algorithm::convolution_direct,
          dnnl::memory::desc(srcD, dt::u8, tag::nhwc),
          dnnl::memory::desc(wD, dt::s8, tag::any),
          dnnl::memory::desc(biasD, dt::s32, tag::x),
          dnnl::memory::desc(dstD, dt::u8, tag::nhwc), strides, pad, pad);
      dnnl::primitive_attr qattr;
      qattr.set_output_scales(1 << 1, l.multiplier);
      dnnl::post_ops ops;
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
      qattr.set_post_ops(ops);
      if (l.zpIn != 0)
        qattr.set_zero_points(DNNL_ARG_SRC, 0, {l.zpIn});
      dnnl::convolution_forward::primitive_desc qpd(qd, qattr, eng);
      r.impl = qpd.impl_info_str();
      DnnlConv runDnnl(qpd, eng, strm, l.x.data(), {wD, dt::s8, userWTag},
                       l.w.data(), l.bias.data(), yDnnl.data());

      // (c) oneDNN fp32 on the dequantized data.
      std::vector<float> xf(l.x.size()), wf(l.w.size()), bf(s.oc),
          yf(yOurs.size());
      for (size_t i = 0; i < xf.size(); ++i)
        xf[i] = float(l.sIn * (int(l.x[i]) - l.zpIn));
      for (int64_t o = 0; o < s.oc; ++o) {
        int64_t per = s.kh * s.kh * s.icg();
        for (int64_t i = 0; i < per; ++i)
          wf[o * per + i] = float(l.sW[o] * l.w[o * per + i]);
        bf[o] = float(l.sIn * l.sW[o] * l.bias[o]);
      }
      dnnl::convolution_forward::desc fd(
          dnnl::prop_kind::forward_inference,
          dnnl::algorithm::convolution_direct,
          dnnl::memory::desc(srcD, dt::f32, tag::nhwc),
          dnnl::memory::desc(wD, dt::f32, tag::any),
          dnnl::memory::desc(biasD, dt::f32, tag::x),
          dnnl::memory::desc(dstD, dt::f32, tag::nhwc), strides, pad, pad);
      dnnl::primitive_attr fattr;
      fattr.set_post_ops(ops);
      dnnl::convolution_forward::primitive_desc fpd(fd, fattr, eng);
      r.implF32 = fpd.impl_info_str();
      DnnlConv runF32(fpd, eng, strm, xf.data(), {wD, dt::f32, userWTag},
                      wf.data(), bf.data(), yf.data());
      auto runOurs = [&] { ours.run(l.x.data(), yOurs.data()); };

      // Correctness: ours vs oneDNN int8 on the same data.
      runOurs();
      runDnnl();
      int64_t same = 0;
      for (size_t i = 0; i < yOurs.size(); ++i) {
        int d = std::abs(int(yOurs[i]) - int(yDnnl[i]));
        r.maxDiff = std::max(r.maxDiff, d);
        same += d == 0;
      }
      r.exact = 100.0 * same / yOurs.size();
      std::vector<uint8_t> yRef = referenceOutput(l);
      for (size_t i = 0; i < yRef.size(); ++i) {
        r.refDiffOurs =
            std::max(r.refDiffOurs, std::abs(int(yOurs[i]) - int(yRef[i])));
        r.refDiffDnnl =
            std::max(r.refDiffDnnl, std::abs(int(yDnnl[i]) - int(yRef[i])));
      }

      // Timing: warm-up, then interleaved runs.
      double probe = 0;
      for (int i = 0; i < 3; ++i) {
        probe = timeOnce(runOurs);
        timeOnce(runDnnl);
        timeOnce(runF32);
      }
      int runs = std::clamp(int(opt.minTime / std::max(probe, 1e-6)), 7, 2000);
      r.runs = runs;
      Stats so, sd, sf;
      for (int i = 0; i < runs; ++i) {
        so.t.push_back(timeOnce(runOurs));
        sd.t.push_back(timeOnce(runDnnl));
        sf.t.push_back(timeOnce(runF32));
      }
      r.ours = so.min();
      r.oursMed = so.median();
      r.dnnl = sd.min();
      r.dnnlMed = sd.median();
      r.dnnlF32 = sf.min();
      r.dnnlF32Med = sf.median();

      // (d) ours, fp32 (plain loops): cheap layers only unless asked.
      bool doF32 = opt.fp32Ours == "all" ||
                   (opt.fp32Ours == "small" && s.macs() <= 30'000'000);
      if (doF32) {
        OwningOpRef<ModuleOp> fm =
            parseSourceString<ModuleOp>(floatModule(s), &ctx);
        if (!fm)
          die("cannot parse the float module for " + s.name);
        auto fwT = RankedTensorType::get({s.oc, s.kh, s.kh, s.icg()},
                                         Float32Type::get(&ctx));
        auto fbT = RankedTensorType::get({s.oc}, Float32Type::get(&ctx));
        setConstants(*fm, {DenseElementsAttr::get(fwT, llvm::ArrayRef(wf)),
                           DenseElementsAttr::get(fbT, llvm::ArrayRef(bf))});
        Jit fj = compile(*fm,
                         [&](OpPassManager &pm) {
                           quantc::buildFloatToLLVMPipeline(pm, parallel);
                         },
                         {1, s.ih, s.ih, s.ic}, {1, s.oh, s.oh, s.oc});
        std::vector<float> yo(yf.size());
        fj.run(xf.data(), yo.data());
        double best = 1e9;
        for (int i = 0; i < 3; ++i)
          best =
              std::min(best, timeOnce([&] { fj.run(xf.data(), yo.data()); }));
        r.oursF32 = best;
      }
      results.push_back(r);
      std::fprintf(stderr,
                   "%s: ours %.3f ms, oneDNN %.3f ms, diff %d (vs quantc::ref "
                   "reference: ours %d, oneDNN %d) [%s]\n",
                   s.name.c_str(), r.ours * 1e3, r.dnnl * 1e3, r.maxDiff,
                   r.refDiffOurs, r.refDiffDnnl, r.impl.c_str());
    }

    // Markdown table.
    std::printf("\n#### %s (%zu layers)\n\n",
                file.substr(file.rfind('/') + 1).c_str(), results.size());
    std::printf("| layer | x | MMAC | ours int8 us (med) | GMAC/s | %% peak | "
                "oneDNN int8 us (med) | GMAC/s | %% peak | ours/oneDNN | "
                "oneDNN fp32 us | ours fp32 us | max diff | %% exact | ref "
                "diff ours / oneDNN |\n");
    std::printf(
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    double tOurs = 0, tDnnl = 0, tF32 = 0, logSum = 0, wSum = 0, macSum = 0;
    int worstDiff = 0;
    double minExact = 100;
    for (const Result &r : results) {
      double mm = r.s.macs() / 1e6;
      double go = r.s.macs() / r.ours / 1e9, gd = r.s.macs() / r.dnnl / 1e9;
      double ratio = r.dnnl / r.ours; // throughput ours / oneDNN
      char f32o[32] = "-";
      if (r.oursF32 >= 0)
        std::snprintf(f32o, sizeof f32o, "%.0f", r.oursF32 * 1e6);
      std::printf("| %s | %d | %.1f | %.1f (%.1f) | %.1f | %.0f | %.1f (%.1f) "
                  "| %.1f | %.0f | %.2f | %.1f | %s | %d | %.2f | %d / %d |\n",
                  r.s.name.c_str(), r.s.repeat, mm, r.ours * 1e6,
                  r.oursMed * 1e6, go, 100 * go / peak, r.dnnl * 1e6,
                  r.dnnlMed * 1e6, gd, 100 * gd / peak, ratio, r.dnnlF32 * 1e6,
                  f32o, r.maxDiff, r.exact, r.refDiffOurs, r.refDiffDnnl);
      tOurs += r.s.repeat * r.ours;
      tDnnl += r.s.repeat * r.dnnl;
      tF32 += r.s.repeat * r.dnnlF32;
      logSum += r.s.repeat * std::log(ratio);
      wSum += r.s.repeat;
      macSum += r.s.repeat * double(r.s.macs());
      worstDiff = std::max(worstDiff, r.maxDiff);
      minExact = std::min(minExact, r.exact);
    }
    std::printf("\nClock re-measured after this list: %.3f GHz.\n",
                measureGHz());
    std::printf("\nWhole network (each layer x its repeat count, %.2f GMAC): "
                "ours int8 %.2f ms (%.1f GMAC/s, %.0f %% of peak), oneDNN "
                "int8 %.2f ms (%.1f GMAC/s, %.0f %% of peak), oneDNN fp32 "
                "%.2f ms. Throughput ours / oneDNN int8: %.2f (total time), "
                "%.2f (geomean of per-layer ratios, weighted by repeats). "
                "Correctness vs oneDNN int8: max diff %d LSB, worst layer "
                "%.2f %% exact.\n",
                macSum / 1e9, tOurs * 1e3, macSum / tOurs / 1e9,
                100 * macSum / tOurs / 1e9 / peak, tDnnl * 1e3,
                macSum / tDnnl / 1e9, 100 * macSum / tDnnl / 1e9 / peak,
                tF32 * 1e3, tDnnl / tOurs, std::exp(logSum / wSum), worstDiff,
                minExact);
    std::printf("\noneDNN implementations (int8 / fp32): ");
    std::vector<std::string> seen;
    for (const Result &r : results) {
      std::string k = r.impl + " / " + r.implF32;
      if (std::find(seen.begin(), seen.end(), k) == seen.end()) {
        seen.push_back(k);
        std::printf("%s`%s`", seen.size() > 1 ? ", " : "", k.c_str());
      }
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
