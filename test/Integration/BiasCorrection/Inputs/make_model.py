"""Writes a float model built to show the output shift that weight
quantization causes, and NumPy's float64 evaluation of it.

The model (NHWC, float qnt.conv2d form, printed to stdout): a 3x3 conv
(3 -> 8 channels, stride 2, padding 1) + relu, a depthwise 3x3 conv
(dilation 2, padding 2) + relu, a 1x1 conv without bias, and a linear layer
(reshape to [1, 36, 8], matmul, bias add) applied to each position. Few input
channels per output, inputs with a large mean (uniform in [1, 3]) and one
outlier weight per tensor (8 sigma, so that a per-tensor scale rounds the
other weights coarsely) make the shift visible.

Into argv[1]: data.npy (64 samples), weights.npz (each layer's float weight
and bias as written, OHWI / [K, N]), inputs.npz (each layer's float64 input
over the data: layer0 .. layer3) and reference.npy (the model's float64
outputs, per sample)."""
import os
import sys

import numpy as np

rng = np.random.default_rng(11)
out = sys.argv[1]
SAMPLES = 64


def nested(a):
    if a.ndim == 0:
        return repr(float(a))
    return "[" + ", ".join(nested(x) for x in a) + "]"


def ty(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def weight(shape, fan_in):
    w = rng.normal(0, np.sqrt(1.0 / fan_in), shape)
    w.flat[rng.integers(w.size)] = 8 * np.sqrt(1.0 / fan_in)
    return w.astype(np.float32)


def conv_ref(x, w, b, stride, pad, dil, groups):
    """NHWC x, OHWI w (I = C / groups), in float64."""
    x = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    nb, h, wd, c = x.shape
    o, k, _, ci = w.shape
    oh = (h - dil * (k - 1) - 1) // stride + 1
    ow = (wd - dil * (k - 1) - 1) // stride + 1
    og = o // groups
    y = np.zeros((nb, oh, ow, o)) + (0.0 if b is None else b)
    for ky in range(k):
        for kx in range(k):
            p = x[:, ky * dil:ky * dil + stride * (oh - 1) + 1:stride,
                  kx * dil:kx * dil + stride * (ow - 1) + 1:stride, :]
            for g in range(groups):
                y[..., g * og:(g + 1) * og] += (
                    p[..., g * ci:(g + 1) * ci] @ w[g * og:(g + 1) * og, ky, kx, :].T)
    return y


w0, b0 = weight((8, 3, 3, 3), 27), rng.normal(0, 0.2, 8).astype(np.float32)
w1, b1 = weight((8, 3, 3, 1), 9), rng.normal(0, 0.2, 8).astype(np.float32)
w2 = weight((8, 1, 1, 8), 8)
w3, b3 = weight((8, 4), 8), rng.normal(0, 0.2, 4).astype(np.float32)
np.savez(os.path.join(out, "weights.npz"), w0=w0, b0=b0, w1=w1, b1=b1, w2=w2,
         w3=w3, b3=b3)

relu = "{max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32}"
print(f"""func.func @model(%x: {ty((1, 12, 12, 3))}) -> {ty((1, 36, 4))} {{
  %w0 = arith.constant dense<{nested(w0)}> : {ty(w0.shape)}
  %b0 = arith.constant dense<{nested(b0)}> : {ty(b0.shape)}
  %c0 = qnt.conv2d %x, %w0 bias(%b0) {{pad = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}} : ({ty((1, 12, 12, 3))}, {ty(w0.shape)}, {ty(b0.shape)}) -> {ty((1, 6, 6, 8))} loc("conv0")
  %r0 = tosa.clamp %c0 {relu} : ({ty((1, 6, 6, 8))}) -> {ty((1, 6, 6, 8))} loc("relu0")
  %w1 = arith.constant dense<{nested(w1)}> : {ty(w1.shape)}
  %b1 = arith.constant dense<{nested(b1)}> : {ty(b1.shape)}
  %c1 = qnt.conv2d %r0, %w1 bias(%b1) {{groups = 8 : i64, pad = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>}} : ({ty((1, 6, 6, 8))}, {ty(w1.shape)}, {ty(b1.shape)}) -> {ty((1, 6, 6, 8))} loc("dw1")
  %r1 = tosa.clamp %c1 {relu} : ({ty((1, 6, 6, 8))}) -> {ty((1, 6, 6, 8))} loc("relu1")
  %w2 = arith.constant dense<{nested(w2)}> : {ty(w2.shape)}
  %c2 = qnt.conv2d %r1, %w2 : ({ty((1, 6, 6, 8))}, {ty(w2.shape)}) -> {ty((1, 6, 6, 8))} loc("pw2")
  %s = tosa.const_shape {{values = dense<[1, 36, 8]> : tensor<3xindex>}} : () -> !tosa.shape<3>
  %f = tosa.reshape %c2, %s : ({ty((1, 6, 6, 8))}, !tosa.shape<3>) -> {ty((1, 36, 8))}
  %zp = "tosa.const"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>
  %w3 = arith.constant dense<{nested(w3[None])}> : {ty((1, 8, 4))}
  %m = tosa.matmul %f, %w3, %zp, %zp : ({ty((1, 36, 8))}, {ty((1, 8, 4))}, tensor<1xf32>, tensor<1xf32>) -> {ty((1, 36, 4))} loc("fc3")
  %b3 = arith.constant dense<{nested(b3[None, None])}> : {ty((1, 1, 4))}
  %y = tosa.add %m, %b3 : ({ty((1, 36, 4))}, {ty((1, 1, 4))}) -> {ty((1, 36, 4))} loc("fc3.add")
  return %y : {ty((1, 36, 4))}
}}""")

x = rng.uniform(1, 3, (SAMPLES, 12, 12, 3)).astype(np.float32)
np.save(os.path.join(out, "data.npy"), x)
f64 = lambda a: a.astype(np.float64)
l0 = f64(x)
l1 = np.maximum(conv_ref(l0, f64(w0), f64(b0), 2, 1, 1, 1), 0)
l2 = np.maximum(conv_ref(l1, f64(w1), f64(b1), 1, 2, 2, 8), 0)
l3 = conv_ref(l2, f64(w2), None, 1, 0, 1, 1).reshape(SAMPLES, 36, 8)
y = l3 @ f64(w3) + f64(b3)
np.savez(os.path.join(out, "inputs.npz"), layer0=l0, layer1=l1, layer2=l2,
         layer3=l3)
np.save(os.path.join(out, "reference.npy"), y)
