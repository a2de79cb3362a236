"""Writes N random quantized matmul models (qnt.matmul of two activations,
qnt-quantize form: the f32 input sliced into the two operands, each
quantized with its own type, the product dequantized) and an input for
each, for check_kernels.py --prefix=matmul.

Shapes: batch 1-3, M 1-20, K 1-80, N 1-80 (row blocks of 6 / 4 with a
clamped last block, column panels of 16 / 8 with masked tails, K not a
multiple of 4); one model in eight is attention-sized (M = N = 50, K = 64,
or M = 50, K = 50, N = 64). Types: a third of the models have 7-bit u8
operands (the x86 default object's activations: avx2's vpmaddubsw path),
the rest random u8 / i8 types with random zero points, narrowed ranges
(the exact path on avx2); the output scale is drawn around the product's
spread so that the outputs cover the output's range.

With `tile`, every model is one amx-int8's tile kernel takes (M and N 16
or more, K 48 or more): M 16-80 (16- and 32-row steps, the last one
ending at row M - 1), K 48-200 (padded to whole 64-byte tile rows), N
16-100 (pairs of 16-column panels, a single one, a masked tail), one in
four attention-sized (12 heads of 197 x 64 x 197 or 197 x 197 x 64, as
ViT-B/16).
Usage: random_matmuls.py OUTDIR N SEED [tile]
"""
import os
import sys

import numpy as np

import random_types
from random_types import f32, ts

out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
tile = len(sys.argv) > 4 and sys.argv[4] == "tile"
rng = np.random.default_rng(seed)
os.makedirs(out, exist_ok=True)


def seven_bit():
    scale = f32(np.exp(rng.uniform(np.log(0.003), np.log(0.3))))
    zp = int(rng.integers(0, 128))
    return f"!quant.uniform<u8<0:127>:f32, {scale!r}:{zp}>", False, scale, zp, 0, 127


manifest = []
for i in range(count):
    if tile and i % 4 == 3:
        b, m, k, n = [(12, 197, 64, 197), (12, 197, 197, 64)][int(rng.integers(2))]
    elif tile:
        b, m, k, n = (int(rng.integers(1, 4)), int(rng.integers(16, 81)),
                      int(rng.integers(48, 201)), int(rng.integers(16, 101)))
    elif i % 8 == 7:
        b, m, k, n = [(2, 50, 64, 50), (2, 50, 50, 64)][int(rng.integers(2))]
    else:
        b, m, k, n = (int(rng.integers(1, 4)), int(rng.integers(1, 21)),
                      int(rng.integers(1, 81)), int(rng.integers(1, 81)))
    reduced = rng.integers(3) == 0
    at = seven_bit() if reduced else random_types.rand_type(rng)
    bt = seven_bit() if reduced else random_types.rand_type(rng)
    na, nb = b * m * k, b * k * n

    # Values over each operand's range and beyond (clamping).
    def values(t, size):
        _, _, scale, zp, lo, hi = t
        return (rng.uniform(lo - 10, hi + 10, size=(4, size)) - zp) * scale

    def centered(x, t, shape):
        _, _, scale, zp, lo, hi = t
        q = np.clip(np.round(x.astype(np.float32) / np.float32(scale)) + zp, lo, hi)
        return (q - zp).reshape((4,) + shape)

    xa, xb = values(at, na), values(bt, nb)
    acc = centered(xa, at, (b, m, k)) @ centered(xb, bt, (b, k, n))
    # The output scale from the accumulators' actual spread: most outputs
    # inside the range, some clamped.
    o_scale = f32(at[2] * bt[2] * max(np.abs(acc).max(), 1) / 127 * np.exp(rng.uniform(-0.7, 0.2)))
    o_zp = int(rng.integers(64, 192))
    ot = f"!quant.uniform<u8:f32, {o_scale!r}:{o_zp}>"
    lines = [f"func.func @qconv(%x: {ts([1, na + nb], 'f32')}) -> {ts([b, m, n], 'f32')} {{"]

    def operand(name, offset, size, shape, t):
        lines.append(f"  %{name}s = tosa.const_shape {{values = dense<[0, {offset}]> : tensor<2xindex>}} : () -> !tosa.shape<2>")
        lines.append(f"  %{name}z = tosa.const_shape {{values = dense<[1, {size}]> : tensor<2xindex>}} : () -> !tosa.shape<2>")
        lines.append(f"  %{name}f = tosa.slice %x, %{name}s, %{name}z : ({ts([1, na + nb], 'f32')}, !tosa.shape<2>, !tosa.shape<2>) -> {ts([1, size], 'f32')}")
        lines.append(f"  %{name}h = tosa.const_shape {{values = dense<[{', '.join(map(str, shape))}]> : tensor<3xindex>}} : () -> !tosa.shape<3>")
        lines.append(f"  %{name}r = tosa.reshape %{name}f, %{name}h : ({ts([1, size], 'f32')}, !tosa.shape<3>) -> {ts(shape, 'f32')}")
        lines.append(f"  %{name} = quant.qcast %{name}r : {ts(shape, 'f32')} to {ts(shape, t)}")

    operand("a", 0, na, [b, m, k], at[0])
    operand("b", na, nb, [b, k, n], bt[0])
    lines.append(f"  %y = qnt.matmul %a, %b : ({ts([b, m, k], at[0])}, {ts([b, k, n], bt[0])}) -> {ts([b, m, n], ot)}")
    lines.append(f"  %d = quant.dcast %y : {ts([b, m, n], ot)} to {ts([b, m, n], 'f32')}")
    lines.append(f"  return %d : {ts([b, m, n], 'f32')}")
    lines.append("}")
    with open(os.path.join(out, f"matmul{i}.mlir"), "w") as f:
        f.write("\n".join(lines) + "\n")

    x = np.concatenate([xa, xb], axis=1)
    np.save(os.path.join(out, f"matmul{i}.npy"), x.reshape(4, na + nb).astype(np.float32))
    manifest.append(f"matmul{i} [{b}, {m}, {k}] x [{b}, {k}, {n}] {'7-bit' if reduced else 'random types'}")
with open(os.path.join(out, "manifest.txt"), "w") as f:
    f.write("\n".join(manifest) + "\n")
