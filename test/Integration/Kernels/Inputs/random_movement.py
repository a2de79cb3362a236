"""Writes N random quantized data-movement models (qnt-quantize form: qcast
-> ops -> dcast, f32 NHWC in and out) and an input for each, for
check_kernels.py --prefix=movement.

Each model is a chain of one to three ops on the quantized tensor, each
keeping its input's parameters:
* tosa.slice (random start and size on every dimension);
* tosa.pad with the zero point (random amounts before and after H, W, C);
* tosa.tile (random multiples of H, W, C);
* tosa.transpose (a random permutation of H, W, C);
* tosa.resize nearest with a random rational map (n, d, offset, border as
  the importer writes for ONNX's coordinate modes, and others);
* qnt.resize_bilinear with the same random maps (integer interpolation,
  rounded once);
* qnt.max_pool2d with a ceil-mode extension of the bottom / right padding;
* qnt.concat of the tensor with a requantized copy of itself (other
  parameters) along a random axis.
Shapes: H, W in 1-9, C in 1-40; u8 and i8 storage, narrowed ranges.
Usage: random_movement.py OUTDIR N SEED
"""
import os
import sys

import numpy as np

import random_types
from random_types import f32, ts

out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(seed)
os.makedirs(out, exist_ok=True)


def rand_type(signed=None, narrow=None):
    return random_types.rand_type(rng, signed, narrow)


class Model:
    def __init__(self):
        self.lines = []
        self.n = 0

    def op(self, text):
        self.n += 1
        v = f"%v{self.n}"
        self.lines.append(f"  {v} = {text}")
        return v

    def shape_const(self, values):
        return self.op(f"tosa.const_shape {{values = dense<[{', '.join(map(str, values))}]> : "
                       f"tensor<{len(values)}xindex>}} : () -> !tosa.shape<{len(values)}>")


def resize_map(size):
    """A random (n, d, offset, border, out) for one axis of `size`."""
    while True:
        n, d = int(rng.integers(1, 9)), int(rng.integers(1, 9))
        offset = int(rng.integers(-n + 1, n))
        out_size = int(rng.integers(1, 19))
        border = (out_size - 1) * d - (size - 1) * n + offset
        if -16 * n < border < 16 * n:
            return n, d, offset, border, out_size


def step(m, x, shape, t, zp, kind):
    """Applies one op of `kind` to x: (value, shape, type)."""
    _, h, w, c = shape
    if kind == "slice":
        start = [0] + [int(rng.integers(0, s)) for s in (h, w, c)]
        size = [1] + [int(rng.integers(1, s - b + 1)) for s, b in zip((h, w, c), start[1:])]
        a, b = m.shape_const(start), m.shape_const(size)
        y = m.op(f"tosa.slice {x}, {a}, {b} : ({ts(shape, t)}, !tosa.shape<4>, !tosa.shape<4>) -> {ts(size, t)}")
        return y, size, f"slice {start}+{size}"
    if kind == "pad":
        pads = [0, 0] + [int(v) for v in rng.integers(0, 4, 6)]
        new = [1] + [s + pads[2 * i + 2] + pads[2 * i + 3] for i, s in enumerate((h, w, c))]
        p = m.shape_const(pads)
        # The zero point's storage bits as i8 (a u8 zero point above 127
        # wraps).
        raw = zp - 256 if zp > 127 else zp
        cst = m.op(f"arith.constant dense<{raw}> : tensor<1xi8>")
        pv = m.op(f"quant.scast {cst} : tensor<1xi8> to {ts([1], t)}")
        y = m.op(f"tosa.pad {x}, {p}, {pv} : ({ts(shape, t)}, !tosa.shape<8>, {ts([1], t)}) -> {ts(new, t)}")
        return y, new, f"pad {pads[2:]}"
    if kind == "tile":
        mult = [1] + [int(rng.integers(1, 4)) for _ in range(3)]
        new = [s * k for s, k in zip(shape, mult)]
        p = m.shape_const(mult)
        y = m.op(f"tosa.tile {x}, {p} : ({ts(shape, t)}, !tosa.shape<4>) -> {ts(new, t)}")
        return y, new, f"tile {mult}"
    if kind == "transpose":
        perm = [0] + [int(v) + 1 for v in rng.permutation(3)]
        new = [shape[p] for p in perm]
        y = m.op(f"tosa.transpose {x} {{perms = array<i32: {', '.join(map(str, perm))}>}} : "
                 f"({ts(shape, t)}) -> {ts(new, t)}")
        return y, new, f"transpose {perm}"
    if kind in ("resize", "bilinear"):
        ny, dy, oy, by, oh = resize_map(h)
        nx, dx, ox, bx, ow = resize_map(w)
        new = [1, oh, ow, c]
        desc = f"{kind} n/d {ny}/{dy},{nx}/{dx} offset {oy},{ox} border {by},{bx}"
        if kind == "bilinear":
            y = m.op(f"qnt.resize_bilinear {x} {{scale = array<i64: {ny}, {dy}, {nx}, {dx}>, "
                     f"offset = array<i64: {oy}, {ox}>, border = array<i64: {by}, {bx}>}} : "
                     f"({ts(shape, t)}) -> {ts(new, t)}")
            return y, new, desc
        sc, off, bo = m.shape_const([ny, dy, nx, dx]), m.shape_const([oy, ox]), m.shape_const([by, bx])
        y = m.op(f"tosa.resize {x}, {sc}, {off}, {bo} {{mode = NEAREST_NEIGHBOR}} : "
                 f"({ts(shape, t)}, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> {ts(new, t)}")
        return y, new, desc
    if kind == "maxpool":
        kh, kw = int(rng.integers(1, min(h, 3) + 1)), int(rng.integers(1, min(w, 3) + 1))
        sh, sw = int(rng.integers(1, 3)), int(rng.integers(1, 3))
        # Ceil mode: extend the bottom / right padding for the last window.
        pad = [int(rng.integers(0, kh)), 0, int(rng.integers(0, kw)), 0]
        for i, (size, k, s) in enumerate(((h, kh, sh), (w, kw, sw))):
            span = size + pad[2 * i] - k
            extra = (-span) % s
            pad[2 * i + 1] = min(extra, k - 1)
        oh = (h + pad[0] + pad[1] - kh) // sh + 1
        ow = (w + pad[2] + pad[3] - kw) // sw + 1
        new = [1, oh, ow, c]
        y = m.op(f"qnt.max_pool2d {x} {{kernel = array<i64: {kh}, {kw}>, strides = array<i64: {sh}, {sw}>, "
                 f"pad = array<i64: {', '.join(map(str, pad))}>}} : ({ts(shape, t)}) -> {ts(new, t)}")
        return y, new, f"maxpool {kh}x{kw} s{sh}x{sw} pad {pad}"
    # concat with a requantized copy of itself along a random axis
    axis = int(rng.integers(1, 4))
    other = rand_type(signed=t.startswith("!quant.uniform<i8"))[0]
    r = m.op(f"qnt.requantize {x} : ({ts(shape, t)}) -> {ts(shape, other)}")
    new = list(shape)
    new[axis] *= 2
    first = bool(rng.integers(2))
    a, b = (x, r) if first else (r, x)
    at, bt = (t, other) if first else (other, t)
    y = m.op(f"qnt.concat {a}, {b} {{axis = {axis} : i64}} : ({ts(shape, at)}, {ts(shape, bt)}) -> {ts(new, t)}")
    return y, new, f"concat axis {axis} with a requantized copy"


manifest = []
kinds = ["slice", "pad", "tile", "transpose", "resize", "bilinear", "maxpool",
         "concat"]
for i in range(count):
    shape = [1, int(rng.integers(1, 10)), int(rng.integers(1, 10)), int(rng.integers(1, 41))]
    xt, x_signed, x_scale, x_zp, x_lo, x_hi = rand_type()
    m = Model()
    y = m.op(f"quant.qcast %x : {ts(shape, 'f32')} to {ts(shape, xt)}")
    cur, descs = list(shape), []
    for _ in range(int(rng.integers(1, 4))):
        kind = kinds[int(rng.integers(len(kinds)))]
        if kind == "maxpool" and (cur[1] < 1 or cur[2] < 1):
            continue
        if np.prod(cur) > 20000 and kind in ("tile", "pad", "resize", "bilinear",
                                              "concat"):
            continue
        y, cur, d = step(m, y, cur, xt, x_zp, kind)
        descs.append(d)
    dq = m.op(f"quant.dcast {y} : {ts(cur, xt)} to {ts(cur, 'f32')}")
    text = "\n".join([f"func.func @qconv(%x: {ts(shape, 'f32')}) -> {ts(cur, 'f32')} {{"]
                     + m.lines + [f"  return {dq} : {ts(cur, 'f32')}", "}"])
    with open(os.path.join(out, f"movement{i}.mlir"), "w") as f:
        f.write(text + "\n")
    x = rng.uniform(x_lo - 20, x_hi + 20, size=(3,) + tuple(shape[1:]))
    x = (x - x_zp) * x_scale
    np.save(os.path.join(out, f"movement{i}.npy"), x.astype(np.float32))
    manifest.append(f"movement{i} {shape} -> {cur}: {'; '.join(descs)}")
with open(os.path.join(out, "manifest.txt"), "w") as f:
    f.write("\n".join(manifest) + "\n")
