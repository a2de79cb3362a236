"""Writes a transformer-style float model for SmoothQuant: a LayerNorm over
the last dimension (64 channels) read by two linear layers (matmul + bias,
as the query and key projections), their sum the output. Four channels of
the LayerNorm's gamma are x100 (the activation outliers trained
transformers have) and the weight rows reading them /100 (so they do not
dominate the output, as in trained models). Random weights (seed 11).

argv[1]/model.mlir      the model
argv[1]/absmax.mlir     the same with the LayerNorm's qnt.smooth_absmax
                        (max |output| per channel over the data, float64)
argv[1]/calib.npy       64 calibration inputs (1x16x64 each, stacked)
argv[1]/reference.npy   the model's outputs on them, NumPy float64"""
import os
import sys

import numpy as np

rng = np.random.default_rng(11)
out = sys.argv[1]
T, C, N, SAMPLES = 16, 64, 48, 64
OUTLIERS = [3, 17, 40, 58]


def nested(a):
    if a.ndim == 0:
        return repr(float(a))
    return "[" + ", ".join(nested(x) for x in a) + "]"


def ty(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def f32(a):
    return a.astype(np.float32).astype(np.float64)


gamma = rng.uniform(0.5, 1.5, C)
gamma[OUTLIERS] *= 100
gamma = f32(gamma)
beta = rng.normal(0, 0.1, C)
beta[OUTLIERS] *= 100
beta = f32(beta)
weights, biases = [], []
for _ in range(2):
    w = rng.normal(0, 0.1, (C, N))
    w[OUTLIERS] /= 100
    weights.append(f32(w))
    biases.append(f32(rng.normal(0, 0.1, N)))

x = f32(rng.normal(0, 1, (SAMPLES, T, C)) * rng.uniform(0.5, 2, C))
EPS = 1e-5
mean = x.mean(-1, keepdims=True)
var = ((x - mean) ** 2).mean(-1, keepdims=True)
y = (x - mean) / np.sqrt(var + EPS) * gamma + beta
ref = sum(y @ w + b for w, b in zip(weights, biases))
absmax = np.abs(y).max(axis=(0, 1))


def model(attr):
    const = lambda name, a: (
        f'  %{name} = "tosa.const"() <{{values = dense<{nested(a)}> : '
        f'{ty(a.shape)}}}> : () -> {ty(a.shape)}')
    lines = [f"func.func @smooth_test(%x: {ty([1, T, C])}) -> {ty([1, T, N])} {{",
             const("gamma", gamma), const("beta", beta),
             '  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> '
             ': () -> tensor<1xf32>']
    lines.append(f"  %y = qnt.layer_norm %x, %gamma, %beta {{axis = 2 : i64, "
                 f"epsilon = 1.0e-05 : f32{attr}}} : {ty([1, T, C])}, {ty([C])}")
    for i, (w, b) in enumerate(zip(weights, biases)):
        lines += [const(f"w{i}", w[None]), const(f"b{i}", b[None, None]),
                  f"  %m{i} = tosa.matmul %y, %w{i}, %zp, %zp : ({ty([1, T, C])}, "
                  f"{ty([1, C, N])}, tensor<1xf32>, tensor<1xf32>) -> {ty([1, T, N])}",
                  f"  %l{i} = tosa.add %m{i}, %b{i} : ({ty([1, T, N])}, "
                  f"{ty([1, 1, N])}) -> {ty([1, T, N])}"]
    lines += [f"  %s = tosa.add %l0, %l1 : ({ty([1, T, N])}, {ty([1, T, N])}) "
              f"-> {ty([1, T, N])}",
              f"  return %s : {ty([1, T, N])}", "}"]
    return "\n".join(lines) + "\n"


with open(os.path.join(out, "model.mlir"), "w") as f:
    f.write(model(""))
with open(os.path.join(out, "absmax.mlir"), "w") as f:
    values = ", ".join(repr(float(v)) for v in absmax.astype(np.float32))
    f.write(model(f", qnt.smooth_absmax = array<f32: {values}>"))
np.save(os.path.join(out, "calib.npy"), x.astype(np.float32))
np.save(os.path.join(out, "reference.npy"), ref.astype(np.float32))
spread = absmax.max() / np.sort(absmax)[(C - 1) // 2]
print(f"channel max|x| max/median {spread:.3g}")
