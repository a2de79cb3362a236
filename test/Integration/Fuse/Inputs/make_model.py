"""Writes a float model exercising every fusion: conv-bn-relu, stride 2 with
padding TOSA must trim, dilation, a grouped conv (qnt.conv2d float form,
groups 2, no bias) + bn, depthwise (multiplier 2) + bn + relu6, a residual
conv + add + relu, a conv + clip. Random weights (seed 7); random inputs in
argv[1]/input.npy."""
import os
import sys

import numpy as np

rng = np.random.default_rng(7)
out = sys.argv[1]


def nested(a):
    if a.ndim == 0:
        return repr(float(a))
    return "[" + ", ".join(nested(x) for x in a) + "]"


def ty(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


lines, n = [], [0]


def const(a):
    n[0] += 1
    a = a.astype(np.float32).astype(np.float64)
    lines.append(f'    %k{n[0]} = "tosa.const"() <{{values = dense<{nested(a)}> : {ty(a.shape)}}}> : () -> {ty(a.shape)}')
    return f"%k{n[0]}"


def bn(x, shape):
    c = shape[-1]
    g, b = const(rng.uniform(0.5, 2, c)), const(rng.normal(0, 0.3, c))
    m, v = const(rng.normal(0, 0.3, c)), const(rng.uniform(0.2, 3, c))
    n[0] += 1
    lines.append(f"    %v{n[0]} = qnt.batch_norm {x}, {g}, {b}, {m}, {v} {{epsilon = 1.0e-05 : f32}} : {ty(shape)}, tensor<{c}xf32>")
    return f"%v{n[0]}"


def clamp(x, shape, lo, hi):
    n[0] += 1
    lines.append(f"    %v{n[0]} = tosa.clamp {x} {{max_val = {hi} : f32, min_val = {lo} : f32}} : ({ty(shape)}) -> {ty(shape)}")
    return f"%v{n[0]}"


def conv(x, shape, cout, k, stride=1, pad=(0, 0, 0, 0), dil=1):
    # He-style scale keeps activations O(1), as in a trained network.
    w = const(rng.normal(0, np.sqrt(2.0 / (k * k * shape[3])), (cout, k, k, shape[3])))
    b = const(rng.normal(0, 0.2, cout))
    oh = (shape[1] + pad[0] + pad[1] - dil * (k - 1) - 1) // stride + 1
    ow = (shape[2] + pad[2] + pad[3] - dil * (k - 1) - 1) // stride + 1
    oshape = (shape[0], oh, ow, cout)
    n[0] += 1
    # The float qnt.conv2d takes floor-mode sizes like PyTorch/ONNX.
    lines.append(f"    %v{n[0]} = qnt.conv2d {x}, {w} bias({b}) {{pad = array<i64: {', '.join(map(str, pad))}>, strides = array<i64: {stride}, {stride}>, dilations = array<i64: {dil}, {dil}>}} : ({ty(shape)}, {ty((cout, k, k, shape[3]))}, {ty((cout,))}) -> {ty(oshape)}")
    return f"%v{n[0]}", oshape


s0 = (1, 10, 10, 4)  # stride 2 over 10 rows: TOSA needs the bottom pad trimmed
x = "%x"
a, s1 = conv(x, s0, 8, 3, stride=2, pad=(1, 1, 1, 1))          # 5x5, trims padding
a = clamp(bn(a, s1), s1, "0.0", "3.40282347E+38")
b, s2 = conv(a, s1, 8, 3, pad=(2, 2, 2, 2), dil=2)              # dilation 2
b = bn(b, s2)
# grouped conv, groups 2, no bias
w = const(rng.normal(0, np.sqrt(2.0 / 4), (8, 1, 1, 4)))
n[0] += 1
lines.append(f"    %v{n[0]} = qnt.conv2d {b}, {w} {{groups = 2 : i64}} : ({ty(s2)}, {ty((8, 1, 1, 4))}) -> {ty(s2)}")
g = bn(f"%v{n[0]}", s2)
# depthwise multiplier 2 (TOSA HWCM) + bn + relu6
dw = const(rng.normal(0, np.sqrt(2.0 / 9), (3, 3, 8, 2)))
db = const(rng.normal(0, 0.2, 16))
zp = const(np.zeros(1))
n[0] += 1
s3 = (1, 5, 5, 16)
lines.append(f"    %v{n[0]} = tosa.depthwise_conv2d {g}, {dw}, {db}, {zp}, {zp} {{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}} : ({ty(s2)}, {ty((3, 3, 8, 2))}, {ty((16,))}, tensor<1xf32>, tensor<1xf32>) -> {ty(s3)}")
d = clamp(bn(f"%v{n[0]}", s3), s3, "0.0", "6.0")
# residual: conv + bn + add + relu
r, _ = conv(d, s3, 16, 3, pad=(1, 1, 1, 1))
r = bn(r, s3)
n[0] += 1
lines.append(f"    %v{n[0]} = tosa.add {r}, {d} : ({ty(s3)}, {ty(s3)}) -> {ty(s3)}")
r = clamp(f"%v{n[0]}", s3, "0.0", "3.40282347E+38")
# conv + clip
e, s4 = conv(r, s3, 4, 1)
e = clamp(e, s4, "-0.5", "1.5")

print("func.func @model(%x: " + ty(s0) + ") -> " + ty(s4) + " {")
print("\n".join(lines))
print(f"    return {e} : {ty(s4)}")
print("}")
np.save(os.path.join(out, "input.npy"), rng.standard_normal((16,) + s0[1:]).astype(np.float32))
