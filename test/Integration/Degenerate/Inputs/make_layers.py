"""Writes a float model with the degenerate layers of trained models, and
NumPy's float64 evaluation of it (docs/accuracy.md, "Degenerate layers").

The model (NHWC, float qnt.conv2d form, printed to stdout), input 1x8x8x3 in
[-1, 1]:
  conv0  3x3, 3 -> 8, relu. Channel 5: weights exactly 0, bias 0.3 (a
         constant channel); channel 6: weights 0, bias -1 (dead after the
         relu); channel 7: weights about 1e-20 and bias 2.54 (a dead channel
         after batch-norm folding: at per-channel weight scale 2^-23 its bias
         needs 2.7e9 > 2^31 int32 steps).
  conv1  1x1, 8 -> 4. Channel 3: weights exactly 0, bias 4 (overflows too).
  conv2  1x1, 8 -> 4 with all-zero weights and bias: a whole tensor of zeros
         (a zero-range activation, observed as [0, 0]), then relu.
  conv3  1x1, 4 -> 4 reading the zero tensor (input scale 2^-23): its bias
         [0.5, -3, 2, 0.1] is its output; -3 and 2 overflow at that scale.
  add    conv1 + conv3, reshaped to [1, 64, 4].
  fc4    a linear layer 4 -> 6 (matmul + bias add); output column 5 has
         weights about 1e-20 and bias 12.
Into argv[1]: data.npy (32 samples) and reference.npy (float64 outputs)."""
import os
import sys

import numpy as np

rng = np.random.default_rng(45)
out = sys.argv[1]
SAMPLES = 32


def nested(a):
    if a.ndim == 0:
        return repr(float(a))
    return "[" + ", ".join(nested(x) for x in a) + "]"


def ty(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def conv_ref(x, w, b, pad):
    """NHWC x, OHWI w, stride 1, in float64."""
    x = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    nb, h, wd, c = x.shape
    o, k, _, ci = w.shape
    oh, ow = h - k + 1, wd - k + 1
    y = np.zeros((nb, oh, ow, o)) + b
    for ky in range(k):
        for kx in range(k):
            y += x[:, ky:ky + oh, kx:kx + ow, :] @ w[:, ky, kx, :].T
    return y


def tiny(shape):
    return (rng.choice([-1.0, 1.0], shape) * 1e-20).astype(np.float32)


w0 = rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32)
b0 = rng.normal(0, 0.1, 8).astype(np.float32)
w0[5], b0[5] = 0, 0.3
w0[6], b0[6] = 0, -1
w0[7], b0[7] = tiny((3, 3, 3)), 2.54
w1 = rng.normal(0, 0.4, (4, 1, 1, 8)).astype(np.float32)
b1 = rng.normal(0, 0.1, 4).astype(np.float32)
w1[3], b1[3] = 0, 4
w2 = np.zeros((4, 1, 1, 8), np.float32)
b2 = np.zeros(4, np.float32)
w3 = rng.normal(0, 0.5, (4, 1, 1, 4)).astype(np.float32)
b3 = np.array([0.5, -3, 2, 0.1], np.float32)
w4 = rng.normal(0, 0.5, (4, 6)).astype(np.float32)
b4 = rng.normal(0, 0.1, 6).astype(np.float32)
w4[:, 5], b4[5] = tiny(4), 12

relu = "{max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32}"
X, H, Q = (1, 8, 8, 3), (1, 8, 8, 8), (1, 8, 8, 4)


def conv(name, res, inp, w, b, in_shape, out_shape, pad=0):
    return (f"  %{name}w = arith.constant dense<{nested(w)}> : {ty(w.shape)}\n"
            f"  %{name}b = arith.constant dense<{nested(b)}> : {ty(b.shape)}\n"
            f"  %{res} = qnt.conv2d %{inp}, %{name}w bias(%{name}b) "
            f"{{pad = array<i64: {pad}, {pad}, {pad}, {pad}>}} : "
            f"({ty(in_shape)}, {ty(w.shape)}, {ty(b.shape)}) -> "
            f"{ty(out_shape)} loc(\"{name}\")\n")


print(f"""func.func @model(%x: {ty(X)}) -> {ty((1, 64, 6))} {{
{conv("conv0", "c0", "x", w0, b0, X, H, 1)}\
  %r0 = tosa.clamp %c0 {relu} : ({ty(H)}) -> {ty(H)} loc("relu0")
{conv("conv1", "c1", "r0", w1, b1, H, Q)}\
{conv("conv2", "c2", "r0", w2, b2, H, Q)}\
  %r2 = tosa.clamp %c2 {relu} : ({ty(Q)}) -> {ty(Q)} loc("relu2")
{conv("conv3", "c3", "r2", w3, b3, Q, Q)}\
  %a = tosa.add %c1, %c3 : ({ty(Q)}, {ty(Q)}) -> {ty(Q)} loc("add")
  %s = tosa.const_shape {{values = dense<[1, 64, 4]> : tensor<3xindex>}} : () -> !tosa.shape<3>
  %f = tosa.reshape %a, %s : ({ty(Q)}, !tosa.shape<3>) -> {ty((1, 64, 4))}
  %zp = "tosa.const"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>
  %w4 = arith.constant dense<{nested(w4[None])}> : {ty((1, 4, 6))}
  %m = tosa.matmul %f, %w4, %zp, %zp : ({ty((1, 64, 4))}, {ty((1, 4, 6))}, tensor<1xf32>, tensor<1xf32>) -> {ty((1, 64, 6))} loc("fc4")
  %b4 = arith.constant dense<{nested(b4[None, None])}> : {ty((1, 1, 6))}
  %y = tosa.add %m, %b4 : ({ty((1, 64, 6))}, {ty((1, 1, 6))}) -> {ty((1, 64, 6))} loc("fc4.add")
  return %y : {ty((1, 64, 6))}
}}""")

x = rng.uniform(-1, 1, (SAMPLES,) + X[1:]).astype(np.float32)
np.save(os.path.join(out, "data.npy"), x)
f64 = lambda a: a.astype(np.float64)
r0 = np.maximum(conv_ref(f64(x), f64(w0), f64(b0), 1), 0)
c1 = conv_ref(r0, f64(w1), f64(b1), 0)
r2 = np.maximum(conv_ref(r0, f64(w2), f64(b2), 0), 0)
c3 = conv_ref(r2, f64(w3), f64(b3), 0)
y = (c1 + c3).reshape(SAMPLES, 64, 4) @ f64(w4) + f64(b4)
np.save(os.path.join(out, "reference.npy"), y)
