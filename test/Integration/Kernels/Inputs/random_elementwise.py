"""Writes N random quantized element-wise models (qnt-quantize form: qcast ->
op -> dcast, f32 NHWC in and out) and an input for each, for
check_kernels.py --prefix=elementwise.

Each model is one of:
* qnt.lookup with a random table (every entry a random output storage
  value, so any wrong gather index shows), one per tensor or one per channel
  (1-40 channels);
* qnt.channel_affine with random per-channel multipliers and offsets and
  no activation, relu, relu6 or a random clamp;
* qnt.add / qnt.sub / qnt.mul, with or without relu, whose operands are the
  input or broadcast views of it made by average pools (and reshapes):
  [1, 1, 1, C] (a squeeze-excitation scale), [1, H, W, 1], [1, 1, W, C],
  [1, H, 1, C] or a scalar [1, 1, 1, 1], on either side; the result has the
  broadcast shape.
Shapes: H, W in 1-9, C in 1-40 (vector bodies of 16 lanes and scalar
tails); u8 and i8 storage, narrowed ranges, random scales (products and
ratios far from 1) and zero points. Usage: random_elementwise.py OUTDIR N
SEED [--lookups]; with --lookups every model is a per-tensor qnt.lookup of
1 x 1-40 x 1-40 x 1-64 elements (the byte-shuffle path: 32- or 16-lane
bodies over every input byte), half of them clipped ramps.
"""
import os
import sys

import numpy as np

import random_types
from random_types import f32, ts

out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lookups_only = "--lookups" in sys.argv[4:]
rng = np.random.default_rng(seed)
os.makedirs(out, exist_ok=True)


def rand_type(signed=None, narrow=None):
    return random_types.rand_type(rng, signed, narrow)


class Model:
    def __init__(self, shape):
        self.lines = []
        self.n = 0
        self.shape = shape

    def value(self):
        self.n += 1
        return f"%v{self.n}"

    def op(self, text):
        v = self.value()
        self.lines.append(f"  {v} = {text}")
        return v

    def pool(self, x, shape, xt, kernel):
        """An average pool of NHWC `x` with a kernel (kh, kw) = whole dims."""
        kh, kw = kernel
        out_shape = [shape[0], shape[1] // kh, shape[2] // kw, shape[3]]
        t = rand_type()[0]
        y = self.op(f"qnt.avg_pool2d {x} {{kernel = array<i64: {kh}, {kw}>}} : "
                    f"({ts(shape, xt)}) -> {ts(out_shape, t)}")
        return y, out_shape, t

    def reshape(self, x, shape, new, t):
        c = self.op(f"tosa.const_shape {{values = dense<[{', '.join(map(str, new))}]> : "
                    f"tensor<{len(new)}xindex>}} : () -> !tosa.shape<{len(new)}>")
        return self.op(f"tosa.reshape {x}, {c} : ({ts(shape, t)}, !tosa.shape<{len(new)}>) -> {ts(new, t)}")

    def view(self, x, xt, kind):
        """A broadcast view of x [1, H, W, C]: (value, shape, type)."""
        _, h, w, c = self.shape
        if kind == "full":
            return x, list(self.shape), xt
        if kind == "c":
            return self.pool(x, self.shape, xt, (h, w))
        if kind == "w":
            return self.pool(x, self.shape, xt, (h, 1))
        if kind == "h":
            return self.pool(x, self.shape, xt, (1, w))
        # Channels pooled: view [1, H*W, C, 1], pool (1, C), back to
        # [1, H, W, 1]; the scalar pools that over (H, W) too.
        r = self.reshape(x, self.shape, [1, h * w, c, 1], xt)
        y, _, t = self.pool(r, [1, h * w, c, 1], xt, (1, c))
        y = self.reshape(y, [1, h * w, 1, 1], [1, h, w, 1], t)
        if kind == "hw":
            return y, [1, h, w, 1], t
        return self.pool(y, [1, h, w, 1], t, (h, w))


manifest = []
for i in range(count):
    if lookups_only:
        h, w, c = int(rng.integers(1, 41)), int(rng.integers(1, 41)), int(rng.integers(1, 65))
    else:
        h, w, c = int(rng.integers(1, 10)), int(rng.integers(1, 10)), int(rng.integers(1, 41))
    shape = [1, h, w, c]
    m = Model(shape)
    xt, x_signed, x_scale, x_zp, x_lo, x_hi = rand_type()
    kind = "lookup" if lookups_only else ["lookup", "affine", "add", "sub", "mul"][int(rng.integers(5))]
    q = m.op(f"quant.qcast %x : {ts(shape, 'f32')} to {ts(shape, xt)}")
    if kind == "lookup":
        yt, _, _, _, lo, hi = rand_type()
        per_channel = not lookups_only and bool(rng.integers(2))
        table = rng.integers(lo, hi + 1, (c if per_channel else 1) * 256)
        if not per_channel and rng.integers(2):
            # A clipped ramp: runs of 16 equal entries at both ends, as
            # GELU's or a sigmoid's table has (the byte-shuffle lookup
            # skips the runs equal to its first slice).
            table = np.clip(np.arange(256) + int(rng.integers(-200, 201)) + lo, lo, hi)
        entries = ", ".join(str(int(v)) for v in table)
        y = m.op(f"qnt.lookup {q} {{table = array<i32: {entries}>}} : "
                 f"({ts(shape, xt)}) -> {ts(shape, yt)}")
        out_shape = shape
        desc = f"lookup {'per-channel' if per_channel else 'per-tensor'}"
    elif kind == "affine":
        yt, _, y_scale, _, _, _ = rand_type()
        mult = [f32(v) for v in rng.uniform(-3, 3, c) * x_scale / y_scale]
        off = [f32(v) for v in rng.uniform(-40, 40, c)]
        act = ["none", "relu", "relu6", "clamp"][int(rng.integers(4))]
        attrs = f"multiplier = array<f32: {', '.join(map(repr, mult))}>, offset = array<f32: {', '.join(map(repr, off))}>"
        if act != "none":
            attrs += f", activation = #qnt<activation {act}>"
        if act == "clamp":
            attrs += f", clamp_min = {f32(-y_scale * 20)!r} : f32, clamp_max = {f32(y_scale * 30)!r} : f32"
        y = m.op(f"qnt.channel_affine {q} {{{attrs}}} : ({ts(shape, xt)}) -> {ts(shape, yt)}")
        out_shape = shape
        desc = f"channel_affine {act}"
    else:
        kinds = ["full", "full", "c", "hw", "w", "h", "scalar"]
        lk, rk = kinds[int(rng.integers(len(kinds)))], kinds[int(rng.integers(len(kinds)))]
        a, a_shape, at = m.view(q, xt, lk)
        b, b_shape, bt = m.view(q, xt, rk)
        out_shape = [max(p, r) for p, r in zip(a_shape, b_shape)]
        yt = rand_type()[0]
        relu = bool(rng.integers(2))
        attr = " {activation = #qnt<activation relu>}" if relu else ""
        y = m.op(f"qnt.{kind} {a}, {b}{attr} : ({ts(a_shape, at)}, {ts(b_shape, bt)}) -> {ts(out_shape, yt)}")
        desc = f"{kind} {lk} x {rk}{' relu' if relu else ''}"
    d = m.op(f"quant.dcast {y} : {ts(out_shape, yt)} to {ts(out_shape, 'f32')}")
    text = "\n".join([f"func.func @qconv(%x: {ts(shape, 'f32')}) -> {ts(out_shape, 'f32')} {{"]
                     + m.lines + [f"  return {d} : {ts(out_shape, 'f32')}", "}"])
    with open(os.path.join(out, f"elementwise{i}.mlir"), "w") as f:
        f.write(text + "\n")
    # Values over the input's range and beyond (clamping), plus exact
    # quantization midpoints.
    x = rng.uniform(x_lo - 20, x_hi + 20, size=(4,) + tuple(shape[1:]))
    x = (x - x_zp) * x_scale
    flat = x.reshape(-1)
    flat[::5] = (np.round(flat[::5] / x_scale) + 0.5) * x_scale
    np.save(os.path.join(out, f"elementwise{i}.npy"), x.astype(np.float32))
    manifest.append(f"elementwise{i} {desc} shape={shape} -> {out_shape} in={'i8' if x_signed else 'u8'}")
with open(os.path.join(out, "manifest.txt"), "w") as f:
    f.write("\n".join(manifest) + "\n")
