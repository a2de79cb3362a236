"""Writes N random float convolution layers (fused qnt.conv2d: bias,
residual add, activation) as DIR/fconv<i>.mlir with an input DIR/fconv<i>.npy
(two samples) and the float64 NumPy result DIR/fconv<i>.ref.npy, plus the
error bound of each output element DIR/fconv<i>.tol.npy.

Usage: random_float_convs.py DIR N SEED

The layers cover what the float kernels (quantc-float-conv-kernels) branch
on: 1x1 (input in place) and KxK, padding, strides, dilations, batches,
output channels that are not a multiple of a vector (masked tail blocks),
few input channels (a stem), depthwise (channel tails, strides, 5x5), the
bias, the residual and the four activations; one grouped layer in ten
(the TOSA path).

The bound: a float32 sum of K products (the kernel's FMA chain in any
order) is within K * 2^-24 * sum |terms| of the exact sum, doubled for the
bias, residual and activation; the tests compare against it element by
element.
"""
import os
import sys

import numpy as np

d, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(seed)
os.makedirs(d, exist_ok=True)


def dense(a):
    """A float32 array as a dense attribute (hex, little-endian)."""
    return 'dense<"0x' + np.ascontiguousarray(a, dtype="<f4").tobytes().hex().upper() + '">'


def conv(x, w, b, stride, pad, dil, groups):
    """NHWC x, OHWI w: the exact result and sum of |terms|, float64."""
    x = np.pad(x, ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0)))
    nb, h, wd, c = x.shape
    o, kh, kw, ci = w.shape
    oh = (h - dil[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dil[1] * (kw - 1) - 1) // stride[1] + 1
    og = o // groups
    out = np.zeros((nb, oh, ow, o)) + b
    mag = np.zeros((nb, oh, ow, o)) + np.abs(b)
    for ky in range(kh):
        for kx in range(kw):
            ys = ky * dil[0]
            xs = kx * dil[1]
            patch = x[:, ys:ys + stride[0] * (oh - 1) + 1:stride[0],
                      xs:xs + stride[1] * (ow - 1) + 1:stride[1], :]
            for g in range(groups):
                p = patch[..., g * ci:(g + 1) * ci]
                wg = w[g * og:(g + 1) * og, ky, kx, :]
                out[..., g * og:(g + 1) * og] += p @ wg.T
                mag[..., g * og:(g + 1) * og] += np.abs(p) @ np.abs(wg).T
    return out, mag, kh * kw * ci


for i in range(n):
    kind = rng.choice(["gemm", "gemm", "gemm", "depthwise", "depthwise", "grouped"]) if i % 10 else "grouped"
    nb = int(rng.choice([1, 1, 2]))
    k = int(rng.choice([1, 1, 3, 3, 5, 7]))
    kh, kw = k, k
    stride = [int(rng.choice([1, 1, 2]))] * 2
    dil = [int(rng.choice([1, 1, 1, 2]))] * 2 if k > 1 else [1, 1]
    pad = [int(rng.integers(0, k)) for _ in range(4)] if k > 1 and rng.random() < 0.8 else [0] * 4
    h, wd = int(rng.integers(k * dil[0], 15)), int(rng.integers(k * dil[1], 15))
    if kind == "depthwise":
        c = int(rng.choice([8, 16, 24, 32, 40, 48, 96, 5]))
        o, groups, ci = c, c, 1
    elif kind == "grouped":
        groups = int(rng.choice([2, 4]))
        ci = int(rng.choice([2, 4, 8]))
        c, o = ci * groups, groups * int(rng.choice([2, 4, 8]))
    else:
        c = int(rng.choice([3, 4, 16, 24, 64, 72, 130]))
        o = int(rng.choice([8, 16, 24, 40, 64, 72, 100, 200]))
        groups, ci = 1, c
    x = rng.standard_normal((nb, h, wd, c)).astype(np.float32)
    w = (rng.standard_normal((o, kh, kw, ci)) / np.sqrt(kh * kw * ci)).astype(np.float32)
    b = rng.standard_normal(o).astype(np.float32) if rng.random() < 0.8 else None
    ref, mag, terms = conv(x.astype(np.float64), w.astype(np.float64),
                           0.0 if b is None else b.astype(np.float64), stride, pad, dil, groups)
    oh, ow = ref.shape[1], ref.shape[2]
    res = rng.standard_normal(ref.shape).astype(np.float32) if rng.random() < 0.3 else None
    if res is not None:
        ref = ref + res
        mag = mag + np.abs(res)
    act = rng.choice(["none", "relu", "relu6", "clamp"])
    lo, hi = {"none": (-np.inf, np.inf), "relu": (0, np.inf), "relu6": (0, 6), "clamp": (-0.5, 1.5)}[act]
    ref = np.clip(ref, lo, hi)
    tol = 2 * (terms + 2) * 2.0 ** -24 * mag + 1e-30
    # A following qnt.unary the kernel fuses (its derivative is at most 1.1
    # in magnitude; exp's polynomial and the division add 1e-6 relative).
    fn = rng.choice(["none", "none", "silu", "sigmoid", "hard_swish"])
    unary = {"none": lambda v: v, "silu": lambda v: v / (1 + np.exp(-v)),
             "sigmoid": lambda v: 1 / (1 + np.exp(-v)),
             "hard_swish": lambda v: v * np.clip(v + 3, 0, 6) / 6}[fn]
    xs = np.stack([x, rng.standard_normal(x.shape).astype(np.float32)])
    # Two runs, stacked along the first (batch) dimension.
    # The second sample's reference.
    ref2, mag2, _ = conv(xs[1].astype(np.float64), w.astype(np.float64),
                         0.0 if b is None else b.astype(np.float64), stride, pad, dil, groups)
    if res is not None:
        ref2, mag2 = ref2 + res, mag2 + np.abs(res)
    ref2 = np.clip(ref2, lo, hi)
    tol2 = 2 * (terms + 2) * 2.0 ** -24 * mag2 + 1e-30
    if fn != "none":
        ref, ref2 = unary(ref), unary(ref2)
        tol = 1.1 * tol + 1e-6 * np.abs(ref) + 1e-7
        tol2 = 1.1 * tol2 + 1e-6 * np.abs(ref2) + 1e-7
    np.save(f"{d}/fconv{i}.npy", np.concatenate(xs))
    np.save(f"{d}/fconv{i}.ref.npy", np.stack([ref, ref2]))
    np.save(f"{d}/fconv{i}.tol.npy", np.stack([tol, tol2]))
    it, ot = f"tensor<{nb}x{h}x{wd}x{c}xf32>", f"tensor<{nb}x{oh}x{ow}x{o}xf32>"
    wt = f"tensor<{o}x{kh}x{kw}x{ci}xf32>"
    attrs = [f"strides = array<i64: {stride[0]}, {stride[1]}>",
             f"pad = array<i64: {pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}>",
             f"dilations = array<i64: {dil[0]}, {dil[1]}>", f"groups = {groups} : i64"]
    if act != "none":
        attrs.append(f"activation = #qnt<activation {act}>")
    if act == "clamp":
        attrs += ["clamp_min = -5.000000e-01 : f32", "clamp_max = 1.500000e+00 : f32"]
    lines = [f"func.func @fconv(%x: {it}) -> {ot} {{",
             f"  %w = arith.constant {dense(w)} : {wt}"]
    operands, types = "%x, %w", f"{it}, {wt}"
    if b is not None:
        lines.append(f"  %b = arith.constant {dense(b)} : tensor<{o}xf32>")
        operands += " bias(%b)"
        types += f", tensor<{o}xf32>"
    if res is not None:
        lines.append(f"  %r = arith.constant {dense(res)} : {ot}")
        operands += " residual(%r)"
        types += f", {ot}"
    lines.append(f"  %y = qnt.conv2d {operands} {{{', '.join(attrs)}}} : ({types}) -> {ot}")
    if fn != "none":
        lines.append(f"  %u = qnt.unary {fn} %y : {ot}")
        lines.append(f"  return %u : {ot}")
    else:
        lines.append(f"  return %y : {ot}")
    lines.append("}")
    with open(f"{d}/fconv{i}.mlir", "w") as f:
        f.write("\n".join(lines) + "\n")
