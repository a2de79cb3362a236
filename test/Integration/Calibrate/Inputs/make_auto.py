"""Writes the model and data of auto-observer.mlir into DIR:

  make_auto.py DIR

model.mlir: input (1x16x16x4, NHWC) -> 1x1 conv1 (4 -> 8) clamped to [-1, 1]
-> 1x1 conv2 (8 -> 4) -> result. data.npy: 64 samples drawn from Student's t
with 3 degrees of freedom (a long, thin tail: 99.9 % of the values within
+-10, the largest near +-50), so the input tensor wants clipping, while conv1's
clamped output (its mass piled at the clamp bounds) wants its full range.
w1.npy / w2.npy: the filters (OHWI), for the NumPy recomputation."""
import os
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(37)
data = rng.standard_t(3, size=(64, 16, 16, 4)).astype(np.float32)
w1 = (rng.standard_normal((8, 1, 1, 4)) * 0.6).astype(np.float32)
w2 = (rng.standard_normal((4, 1, 1, 8)) * 0.5).astype(np.float32)
b1 = (rng.standard_normal(8) * 0.1).astype(np.float32)
b2 = (rng.standard_normal(4) * 0.1).astype(np.float32)
np.save(os.path.join(out, "data.npy"), data)
np.save(os.path.join(out, "w1.npy"), w1)
np.save(os.path.join(out, "w2.npy"), w2)


def dense(a):
    body = np.array2string(a, separator=", ", threshold=1 << 30,
                           floatmode="unique").replace("\n", "")
    return f"dense<{body}> : tensor<{'x'.join(map(str, a.shape))}xf32>"


def conv(x, w, b, shape_in, shape_out, name):
    return (f'    %{name} = tosa.conv2d %{x}, %{name}.w, %{name}.b, %zp, %zp '
            '{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: '
            '0, 0, 0, 0>, stride = array<i64: 1, 1>} : '
            f'(tensor<{shape_in}xf32>, tensor<{"x".join(map(str, w.shape))}'
            f'xf32>, tensor<{b.shape[0]}xf32>, tensor<1xf32>, tensor<1xf32>)'
            f' -> tensor<{shape_out}xf32> loc("{name}")\n')


text = f"""module {{
  func.func @auto_model(%input: tensor<1x16x16x4xf32> loc("input")) -> tensor<1x16x16x4xf32> {{
    %zp = "tosa.const"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>
    %conv1.w = "tosa.const"() <{{values = {dense(w1)}}}> : () -> tensor<8x1x1x4xf32>
    %conv1.b = "tosa.const"() <{{values = {dense(b1)}}}> : () -> tensor<8xf32>
    %conv2.w = "tosa.const"() <{{values = {dense(w2)}}}> : () -> tensor<4x1x1x8xf32>
    %conv2.b = "tosa.const"() <{{values = {dense(b2)}}}> : () -> tensor<4xf32>
{conv("input", w1, b1, "1x16x16x4", "1x16x16x8", "conv1")}    %clamp1 = tosa.clamp %conv1 {{max_val = 1.0 : f32, min_val = -1.0 : f32}} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32> loc("clamp1")
{conv("clamp1", w2, b2, "1x16x16x8", "1x16x16x4", "conv2")}    return %conv2 : tensor<1x16x16x4xf32>
  }}
}}
"""
open(os.path.join(out, "model.mlir"), "w").write(text)
