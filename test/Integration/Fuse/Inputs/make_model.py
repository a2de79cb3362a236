"""Writes a float model exercising every fusion: conv-bn-relu, stride 2 with
padding TOSA must trim, dilation, a grouped conv (qnt.conv2d float form,
groups 2, no bias) + bn, depthwise (multiplier 2) + bn + relu6, a residual
conv + add + relu, a conv + clip. Random weights (seed 7); random inputs in
argv[1]/input.npy and the unfused model's outputs on them, computed by NumPy
in float64 layer by layer as written (batch norms unfolded), in
argv[1]/reference.npy: the float pipeline (quantc-float-to-llvm) starts
with qnt-fuse, so the compiled unfused model is no independent reference."""
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
# The graph in NumPy: name -> function of the environment (float64 values).
graph = {}


def conv_ref(x, w, b, stride, pad, dil, groups):
    """NHWC x, OHWI w (I = C / groups)."""
    x = np.pad(x, ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0)))
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


def const(a):
    n[0] += 1
    a = a.astype(np.float32).astype(np.float64)
    graph[f"%k{n[0]}"] = a
    lines.append(f'    %k{n[0]} = "tosa.const"() <{{values = dense<{nested(a)}> : {ty(a.shape)}}}> : () -> {ty(a.shape)}')
    return f"%k{n[0]}"


def bn(x, shape):
    c = shape[-1]
    g, b = const(rng.uniform(0.5, 2, c)), const(rng.normal(0, 0.3, c))
    m, v = const(rng.normal(0, 0.3, c)), const(rng.uniform(0.2, 3, c))
    n[0] += 1
    lines.append(f"    %v{n[0]} = qnt.batch_norm {x}, {g}, {b}, {m}, {v} {{epsilon = 1.0e-05 : f32}} : {ty(shape)}, tensor<{c}xf32>")
    graph[f"%v{n[0]}"] = (x, g, b, m, v)
    return f"%v{n[0]}"


def clamp(x, shape, lo, hi):
    n[0] += 1
    lines.append(f"    %v{n[0]} = tosa.clamp {x} {{max_val = {hi} : f32, min_val = {lo} : f32}} : ({ty(shape)}) -> {ty(shape)}")
    graph[f"%v{n[0]}"] = ("clamp", x, float(lo), float(hi))
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
    graph[f"%v{n[0]}"] = ("conv", x, w, b, stride, pad, dil, 1)
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
graph[f"%v{n[0]}"] = ("conv", b, w, None, 1, (0, 0, 0, 0), 1, 2)
g = bn(f"%v{n[0]}", s2)
# depthwise multiplier 2 (TOSA HWCM) + bn + relu6
dw = const(rng.normal(0, np.sqrt(2.0 / 9), (3, 3, 8, 2)))
db = const(rng.normal(0, 0.2, 16))
zp = const(np.zeros(1))
n[0] += 1
s3 = (1, 5, 5, 16)
lines.append(f"    %v{n[0]} = tosa.depthwise_conv2d {g}, {dw}, {db}, {zp}, {zp} {{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}} : ({ty(s2)}, {ty((3, 3, 8, 2))}, {ty((16,))}, tensor<1xf32>, tensor<1xf32>) -> {ty(s3)}")
graph[f"%v{n[0]}"] = ("depthwise", g, dw, db)
d = clamp(bn(f"%v{n[0]}", s3), s3, "0.0", "6.0")
# residual: conv + bn + add + relu
r, _ = conv(d, s3, 16, 3, pad=(1, 1, 1, 1))
r = bn(r, s3)
n[0] += 1
lines.append(f"    %v{n[0]} = tosa.add {r}, {d} : ({ty(s3)}, {ty(s3)}) -> {ty(s3)}")
graph[f"%v{n[0]}"] = ("add", r, d)
r = clamp(f"%v{n[0]}", s3, "0.0", "3.40282347E+38")
# conv + clip
e, s4 = conv(r, s3, 4, 1)
e = clamp(e, s4, "-0.5", "1.5")

print("func.func @model(%x: " + ty(s0) + ") -> " + ty(s4) + " {")
print("\n".join(lines))
print(f"    return {e} : {ty(s4)}")
print("}")
inputs = rng.standard_normal((16,) + s0[1:]).astype(np.float32)
np.save(os.path.join(out, "input.npy"), inputs)


def value(name, env):
    if name not in env:
        node = graph[name]
        if isinstance(node, np.ndarray):
            env[name] = node
        elif node[0] == "conv":
            _, x, w, b, stride, pad, dil, groups = node
            env[name] = conv_ref(value(x, env), value(w, env),
                                 None if b is None else value(b, env), stride, pad, dil, groups)
        elif node[0] == "depthwise":  # TOSA HWCM filter, output channel c * M + m
            _, x, w, b = node
            hwcm = value(w, env)
            kh, kw, c, m = hwcm.shape
            ohwi = hwcm.transpose(2, 3, 0, 1).reshape(c * m, kh, kw, 1)
            env[name] = conv_ref(value(x, env), ohwi, value(b, env), 1, (1, 1, 1, 1), 1, c)
        elif node[0] == "clamp":
            env[name] = np.clip(value(node[1], env), node[2], node[3])
        elif node[0] == "add":
            env[name] = value(node[1], env) + value(node[2], env)
        else:  # batch norm
            x, g, b, m, v = (value(t, env) for t in node)
            env[name] = (x - m) / np.sqrt(v + 1e-5) * g + b
    return env[name]


# Per sample, as quant-run runs the batch-1 model.
ref = np.concatenate([value(e, {"%x": inputs[i:i + 1].astype(np.float64)}) for i in range(len(inputs))])
np.save(os.path.join(out, "reference.npy"), ref.astype(np.float32))
