"""Writes a float model whose consecutive layers have strongly imbalanced
per-channel weight ranges, in the fused form qnt-equalize works on:
conv 3x3 -> relu -> conv 1x1 -> relu -> depthwise 3x3 -> relu -> conv 1x1 ->
relu -> global average pool -> linear -> relu -> linear (one chain of five
pairs: conv-relu-conv, conv-dw, dw-conv, conv-pool-linear,
linear-relu-linear). Each pair's channels are multiplied by factors
spread log-uniformly over [1/30, 30] on the producer's side and divided by
them on the consumer's (a positive scale per channel commutes with relu,
pooling and the depthwise conv), so the function is that of a balanced
model while the weights and activations are not, as after folding batch
norms with very different gammas. Writes argv[1]/model.mlir, and random
inputs argv[1]/calib.npy (calibration) and argv[1]/input.npy (test)."""
import os
import sys

import numpy as np

rng = np.random.default_rng(11)
out = sys.argv[1]
C, H = 16, 8


def nested(a):
    if a.ndim == 0:
        return repr(float(a))
    return "[" + ", ".join(nested(x) for x in a) + "]"


def ty(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


lines, n = [], [0]


def const(a):
    n[0] += 1
    a = a.astype(np.float32)
    lines.append(f"    %k{n[0]} = arith.constant dense<{nested(a)}> : {ty(a.shape)}")
    return f"%k{n[0]}"


def value(text):
    n[0] += 1
    lines.append(f"    %v{n[0]} = {text}")
    return f"%v{n[0]}"


def factors(c):
    return np.exp(rng.uniform(np.log(1 / 30), np.log(30), c))


# Balanced weights (He-like scale), then imbalanced per channel.
w1 = rng.standard_normal((C, 3, 3, 4)) * np.sqrt(2 / 36)
b1 = rng.uniform(0.0, 0.2, C)
w2 = rng.standard_normal((C, 1, 1, C)) * np.sqrt(2 / C)
b2 = rng.uniform(0.0, 0.2, C)
w3 = rng.standard_normal((C, 3, 3, 1)) * np.sqrt(2 / 9)
b3 = rng.uniform(0.0, 0.2, C)
w4 = rng.standard_normal((C, 1, 1, C)) * np.sqrt(2 / C)
b4 = rng.uniform(0.0, 0.2, C)
w5 = rng.standard_normal((C, 32)) * np.sqrt(2 / C)
b5 = rng.uniform(0.0, 0.2, 32)
w6 = rng.standard_normal((32, 10)) * np.sqrt(1 / 32)
b6 = rng.uniform(-0.1, 0.1, 10)

f = factors(C)  # conv1 -> conv2
w1 *= f[:, None, None, None]; b1 *= f; w2 /= f[None, None, None, :]
f = factors(C)  # conv2 -> depthwise
w2 *= f[:, None, None, None]; b2 *= f; w3 /= f[:, None, None, None]
f = factors(C)  # depthwise -> conv4
w3 *= f[:, None, None, None]; b3 *= f; w4 /= f[None, None, None, :]
f = factors(C)  # conv4 -> pool -> linear
w4 *= f[:, None, None, None]; b4 *= f; w5 /= f[:, None]
f = factors(32)  # linear -> relu -> linear
w5 *= f[None, :]; b5 *= f; w6 /= f[:, None]

relu = "{activation = #qnt<activation relu>"
x = "%arg0"
zp = value('"tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>')
x = value(f"qnt.conv2d {x}, {const(w1)} bias({const(b1)}) {relu}, pad = array<i64: 1, 1, 1, 1>}} : "
          f"({ty((1, H, H, 4))}, {ty(w1.shape)}, {ty(b1.shape)}) -> {ty((1, H, H, C))}")
x = value(f"qnt.conv2d {x}, {const(w2)} bias({const(b2)}) {relu}}} : "
          f"({ty((1, H, H, C))}, {ty(w2.shape)}, {ty(b2.shape)}) -> {ty((1, H, H, C))}")
x = value(f"qnt.conv2d {x}, {const(w3)} bias({const(b3)}) {relu}, groups = {C} : i64, pad = array<i64: 1, 1, 1, 1>}} : "
          f"({ty((1, H, H, C))}, {ty(w3.shape)}, {ty(b3.shape)}) -> {ty((1, H, H, C))}")
x = value(f"qnt.conv2d {x}, {const(w4)} bias({const(b4)}) {relu}}} : "
          f"({ty((1, H, H, C))}, {ty(w4.shape)}, {ty(b4.shape)}) -> {ty((1, H, H, C))}")
x = value(f"tosa.avg_pool2d {x}, {zp}, {zp} {{acc_type = f32, kernel = array<i64: {H}, {H}>, "
          f"pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}} : "
          f"({ty((1, H, H, C))}, tensor<1xf32>, tensor<1xf32>) -> {ty((1, 1, 1, C))}")
s3 = value(f"tosa.const_shape {{values = dense<[1, 1, {C}]> : tensor<3xindex>}} : () -> !tosa.shape<3>")
x = value(f"tosa.reshape {x}, {s3} : ({ty((1, 1, 1, C))}, !tosa.shape<3>) -> {ty((1, 1, C))}")
x = value(f"tosa.matmul {x}, {const(w5[None])}, {zp}, {zp} : "
          f"({ty((1, 1, C))}, {ty((1, C, 32))}, tensor<1xf32>, tensor<1xf32>) -> {ty((1, 1, 32))}")
x = value(f"tosa.add {x}, {const(b5[None, None])} : ({ty((1, 1, 32))}, {ty((1, 1, 32))}) -> {ty((1, 1, 32))}")
s2a = value("tosa.const_shape {values = dense<[1, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>")
s3a = value("tosa.const_shape {values = dense<[1, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>")
x = value(f"tosa.clamp {x} {{max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32}} : "
          f"({ty((1, 1, 32))}) -> {ty((1, 1, 32))}")
# As ONNX Gemm -> Relu -> Gemm imports: back to 2-D and to 3-D between.
x = value(f"tosa.reshape {x}, {s2a} : ({ty((1, 1, 32))}, !tosa.shape<2>) -> {ty((1, 32))}")
x = value(f"tosa.reshape {x}, {s3a} : ({ty((1, 32))}, !tosa.shape<3>) -> {ty((1, 1, 32))}")
x = value(f"tosa.matmul {x}, {const(w6[None])}, {zp}, {zp} : "
          f"({ty((1, 1, 32))}, {ty((1, 32, 10))}, tensor<1xf32>, tensor<1xf32>) -> {ty((1, 1, 10))}")
x = value(f"tosa.add {x}, {const(b6[None, None])} : ({ty((1, 1, 10))}, {ty((1, 1, 10))}) -> {ty((1, 1, 10))}")
s2 = value("tosa.const_shape {values = dense<[1, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>")
x = value(f"tosa.reshape {x}, {s2} : ({ty((1, 1, 10))}, !tosa.shape<2>) -> {ty((1, 10))}")

with open(os.path.join(out, "model.mlir"), "w") as fh:
    fh.write(f"func.func @imbalanced(%arg0: {ty((1, H, H, 4))}) -> {ty((1, 10))} {{\n")
    fh.write("\n".join(lines) + f"\n    return {x} : {ty((1, 10))}\n}}\n")
np.save(os.path.join(out, "calib.npy"),
        rng.standard_normal((64, H, H, 4)).astype(np.float32))
np.save(os.path.join(out, "input.npy"),
        rng.standard_normal((64, H, H, 4)).astype(np.float32))
