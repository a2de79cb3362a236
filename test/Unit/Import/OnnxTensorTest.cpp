//===- OnnxTensorTest.cpp - 16-bit floats and --input-shape parsing -------===//
//
// float16 / bfloat16 decoding and rounding (round to nearest even, as ONNX
// Runtime's Cast and NumPy's astype), FLOAT16 / BFLOAT16 / DOUBLE tensors in
// raw_data and the typed fields, and parseInputShape.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/OnnxTensor.h"

#include "quantc/Import/OnnxImporter.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace quantc;
using namespace quantc::onnx_import;

namespace {

TEST(Float16, Bits) {
  EXPECT_EQ(float16FromBits(0x3c00), 1.0);
  EXPECT_EQ(float16FromBits(0xc000), -2.0);
  EXPECT_EQ(float16FromBits(0x7bff), 65504.0);
  EXPECT_EQ(float16FromBits(0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(float16FromBits(0x0400), std::ldexp(1.0, -14));
  EXPECT_EQ(float16FromBits(0x3555), 0.333251953125);
  EXPECT_TRUE(std::isinf(float16FromBits(0x7c00)));
  EXPECT_TRUE(std::isnan(float16FromBits(0x7e00)));
  EXPECT_TRUE(std::signbit(float16FromBits(0x8000)));
}

TEST(Float16, RoundsToNearestEven) {
  // Ties between neighbours go to the even one.
  EXPECT_EQ(roundToFloat16(1.0 + std::ldexp(1.0, -11)), 1.0);
  EXPECT_EQ(roundToFloat16(1.0 + 3 * std::ldexp(1.0, -11)),
            1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(roundToFloat16(1.0 + std::ldexp(1.1, -11)),
            1.0 + std::ldexp(1.0, -10));
  // Subnormals: a fixed quantum of 2^-24.
  EXPECT_EQ(roundToFloat16(std::ldexp(1.0, -25)), 0.0);
  EXPECT_EQ(roundToFloat16(std::ldexp(3.0, -25)), std::ldexp(1.0, -23));
  EXPECT_EQ(roundToFloat16(std::ldexp(1.2, -20)), std::ldexp(19.0, -24));
  // Overflow: at and beyond the midpoint to 2^16.
  EXPECT_EQ(roundToFloat16(65519.0), 65504.0);
  EXPECT_TRUE(std::isinf(roundToFloat16(65520.0)));
  EXPECT_EQ(roundToFloat16(-1e6), -INFINITY);
  EXPECT_EQ(castTo(0.1, onnx::TensorProto::FLOAT16), 0.0999755859375);
}

TEST(Float16, EveryPatternIsFixedAndOrdered) {
  double previous = -INFINITY;
  // Positive finite patterns in ascending order.
  for (uint32_t bits = 0; bits < 0x7c00; ++bits) {
    double v = float16FromBits(bits);
    EXPECT_EQ(roundToFloat16(v), v) << bits;
    EXPECT_EQ(roundToFloat16(-v), -v) << bits;
    EXPECT_GT(v, previous) << bits;
    if (bits > 0) {
      // The midpoint to the previous value goes to the even pattern.
      double mid = (v + previous) / 2;
      EXPECT_EQ(roundToFloat16(mid), (bits & 1) ? previous : v) << bits;
    }
    previous = v;
  }
}

TEST(BFloat16, BitsAndRounding) {
  EXPECT_EQ(bfloat16FromBits(0x3f80), 1.0);
  EXPECT_EQ(bfloat16FromBits(0x4049), 3.140625);
  EXPECT_EQ(roundToBFloat16(1.0 + std::ldexp(1.0, -8)), 1.0);
  EXPECT_EQ(roundToBFloat16(1.0 + 3 * std::ldexp(1.0, -8)),
            1.0 + std::ldexp(1.0, -6));
  EXPECT_EQ(roundToBFloat16(3.14159265), 3.140625);
  EXPECT_TRUE(std::isinf(roundToBFloat16(3.4e38)));
  EXPECT_EQ(roundToBFloat16(3.38e38), bfloat16FromBits(0x7f7e));
}

onnx::TensorProto tensor(int32_t dtype, std::vector<int64_t> dims) {
  onnx::TensorProto t;
  t.set_name("t");
  t.set_data_type(dtype);
  for (int64_t d : dims)
    t.add_dims(d);
  return t;
}

TEST(DecodeTensor, SixteenBitFloats) {
  // float16 [1, -2, 65504] in raw_data and in int32_data.
  const uint16_t bits[] = {0x3c00, 0xc000, 0x7bff};
  onnx::TensorProto raw = tensor(onnx::TensorProto::FLOAT16, {3});
  raw.set_raw_data(std::string(reinterpret_cast<const char *>(bits), 6));
  onnx::TensorProto typed = tensor(onnx::TensorProto::FLOAT16, {3});
  for (uint16_t b : bits)
    typed.add_int32_data(b);
  for (const onnx::TensorProto *t : {&raw, &typed}) {
    ConstTensor c;
    ASSERT_FALSE(llvm::errorToBool(decodeTensor(*t, c)));
    EXPECT_EQ(c.dtype, onnx::TensorProto::FLOAT); // computed in float32
    EXPECT_EQ(c.data, (std::vector<double>{1.0, -2.0, 65504.0}));
  }
  onnx::TensorProto bf = tensor(onnx::TensorProto::BFLOAT16, {2});
  bf.add_int32_data(0x3f80);
  bf.add_int32_data(0xc049);
  ConstTensor c;
  ASSERT_FALSE(llvm::errorToBool(decodeTensor(bf, c)));
  EXPECT_EQ(c.data, (std::vector<double>{1.0, -3.140625}));
  bf.add_int32_data(0x10000);
  llvm::Error err = decodeTensor(bf, c);
  ASSERT_TRUE(bool(err));
  EXPECT_EQ(toString(std::move(err)),
            "tensor 't' holds 65536 in int32_data, not a 16-bit "
            "pattern of its type (bfloat16)");
}

TEST(DecodeTensor, DoubleAndUnsupported) {
  onnx::TensorProto d = tensor(onnx::TensorProto::DOUBLE, {2});
  double values[] = {0.1, -1e30};
  d.set_raw_data(std::string(reinterpret_cast<const char *>(values), 16));
  ConstTensor c;
  ASSERT_FALSE(llvm::errorToBool(decodeTensor(d, c)));
  EXPECT_EQ(c.dtype, onnx::TensorProto::FLOAT);
  EXPECT_EQ(c.data, (std::vector<double>{0.1f, -1e30f}));
  onnx::TensorProto s = tensor(onnx::TensorProto::COMPLEX64, {1});
  llvm::Error err = decodeTensor(s, c);
  ASSERT_TRUE(bool(err));
  EXPECT_EQ(toString(std::move(err)),
            "tensor 't' has unsupported data type 14 (complex64; "
            "supported: float32, float16, bfloat16, double, int64, "
            "int32, int8, uint8, bool)");
}

/// decodeTensor's error for a one-element tensor of `dtype` whose raw data
/// is `value`'s bytes ("" when it decodes).
template <typename T> std::string decodeError(int32_t dtype, T value) {
  onnx::TensorProto t = tensor(dtype, {1});
  t.set_raw_data(
      std::string(reinterpret_cast<const char *>(&value), sizeof(value)));
  ConstTensor c;
  llvm::Error err = decodeTensor(t, c);
  return err ? toString(std::move(err)) : "";
}

TEST(DecodeTensor, DoubleNarrowing) {
  // Rounded inside float32's range (subnormals included), refused where
  // float32 would make it inf or 0; infinities and NaN stay.
  EXPECT_EQ(decodeError(onnx::TensorProto::DOUBLE, 3.4028234663852886e38), "");
  EXPECT_EQ(decodeError(onnx::TensorProto::DOUBLE, 1e-45), "");
  EXPECT_EQ(decodeError(onnx::TensorProto::DOUBLE, -double(INFINITY)), "");
  EXPECT_EQ(decodeError(onnx::TensorProto::DOUBLE, double(NAN)), "");
  EXPECT_EQ(decodeError(onnx::TensorProto::DOUBLE, -1e39),
            "tensor 't' holds -9.9999999999999994e+38 (element 0), which "
            "float32 cannot represent (beyond +-3.4028235e38); quantc "
            "computes in float32: scale the model's values into float32's "
            "range or convert the model to float32");
  EXPECT_NE(
      decodeError(onnx::TensorProto::DOUBLE, 1e-46).find("(it would become 0)"),
      std::string::npos);
  // Half-way above FLT_MAX rounds to inf (IEEE), just below to FLT_MAX.
  EXPECT_NE(decodeError(onnx::TensorProto::DOUBLE, 0x1.ffffffp127), "");
  EXPECT_EQ(decodeError(onnx::TensorProto::DOUBLE, 0x1.fffffefp127), "");
  EXPECT_EQ(roundToFloat32(0x1.fffffefp127), 0x1.fffffep127);
  EXPECT_EQ(roundToFloat32(0.1), double(0.1f));
  EXPECT_TRUE(std::signbit(roundToFloat32(-1e-50)));
}

TEST(DecodeTensor, Int64Exactness) {
  EXPECT_EQ(decodeError(onnx::TensorProto::INT64, int64_t(1) << 53), "");
  EXPECT_EQ(decodeError(onnx::TensorProto::INT64, int64_t(1) << 62), "");
  EXPECT_EQ(decodeError(onnx::TensorProto::INT64, INT64_MAX), "");
  EXPECT_EQ(decodeError(onnx::TensorProto::INT64, INT64_MIN), "");
  EXPECT_EQ(decodeError(onnx::TensorProto::INT64, (int64_t(1) << 53) + 1),
            "tensor 't' holds 9007199254740993 (element 0), which the "
            "importer cannot hold exactly (an integer beyond 2^53 must be "
            "exact in double, or at least 2^62 in magnitude: a sentinel "
            "such as INT64_MAX)");
  EXPECT_EQ(decodeError(onnx::TensorProto::INT64, -INT64_MAX), "");
  EXPECT_NE(decodeError(onnx::TensorProto::INT64, (int64_t(1) << 62) - 1), "");
}

std::string parseError(llvm::StringRef spec) {
  OnnxImportOptions options;
  llvm::Error e = parseInputShape(spec, options);
  return e ? llvm::toString(std::move(e)) : "";
}

TEST(InputShape, Parses) {
  OnnxImportOptions options;
  ASSERT_FALSE(
      parseInputShapes({"images=1x3x640x640", "im_shape=1,2"}, options));
  ASSERT_EQ(options.inputShapes.size(), 2u);
  EXPECT_EQ(options.inputShapes[0].name, "images");
  EXPECT_EQ(options.inputShapes[0].dims,
            (llvm::SmallVector<int64_t>{1, 3, 640, 640}));
  EXPECT_EQ(options.inputShapes[1].dims, (llvm::SmallVector<int64_t>{1, 2}));
  OnnxImportOptions unnamed;
  ASSERT_FALSE(parseInputShape("8", unnamed));
  EXPECT_EQ(unnamed.inputShapes[0].name, "");
  // The name is split off at the last '='.
  OnnxImportOptions odd;
  ASSERT_FALSE(parseInputShape("a=b=2x2", odd));
  EXPECT_EQ(odd.inputShapes[0].name, "a=b");
}

TEST(InputShape, Refuses) {
  EXPECT_EQ(parseError("x=1x-3"),
            "bad --input-shape 'x=1x-3': dimension '-3' is not a positive "
            "integer (expected e.g. 1x3x224x224)");
  EXPECT_EQ(parseError("x=1xx3"),
            "bad --input-shape 'x=1xx3': dimension '' is not a positive "
            "integer (expected e.g. 1x3x224x224)");
  EXPECT_EQ(parseError("x=1x0"),
            "bad --input-shape 'x=1x0': dimension 0: empty tensors are not "
            "supported");
  EXPECT_EQ(parseError("x=99999999999"),
            "bad --input-shape 'x=99999999999': dimension 99999999999 is too "
            "large (at most 1073741824)");
  EXPECT_EQ(parseError("x=65536x65536"),
            "bad --input-shape 'x=65536x65536': the shape has more than "
            "2147483648 elements");
  EXPECT_EQ(parseError("=3"),
            "bad --input-shape '=3': the input name before '=' is empty");
  EXPECT_EQ(parseError("x="), "bad --input-shape 'x=': no dimensions "
                              "(expected e.g. 1x3x224x224)");
}

} // namespace
