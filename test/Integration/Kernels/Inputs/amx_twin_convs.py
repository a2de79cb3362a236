"""Writes two quantized convolutions that amx-int8 runs on tiles (qnt-quantize
form: qcast -> conv2d -> dcast, f32 NHWC in and out, as random_convs.py) and
an input of 2 samples for each, for amx-twin-options.mlir:
  tile0: 3x3, pad 1, 128 -> 80 channels on 9x11 pixels, u8 activations,
         per-channel weights, bias, relu (edges in pixels and channels);
  tile1: 1x1, 64 -> 48 channels on 5x7 pixels, i8 activations, per-tensor
         weights.
Usage: amx_twin_convs.py OUTDIR SEED
"""
import os
import sys

import numpy as np

out, seed = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(seed)
os.makedirs(out, exist_ok=True)


def nested(a):
    return str(int(a)) if a.ndim == 0 else "[" + ", ".join(nested(x) for x in a) + "]"


def tensor(shape, elem):
    return f"tensor<{'x'.join(map(str, shape))}x{elem}>"


def model(name, h, w, c, o, k, signed, per_channel, bias):
    in_scale, in_zp = 0.05, (-3 if signed else 120)
    xt = f"!quant.uniform<{'i8' if signed else 'u8'}:f32, {in_scale!r}:{in_zp}>"
    w_scales = [float(np.float32(s)) for s in rng.uniform(0.002, 0.02, o if per_channel else 1)]
    if per_channel:
        wt = "!quant.uniform<i8:f32:0, {" + ",".join(map(repr, w_scales)) + "}>"
        bt = "!quant.uniform<i32:f32:0, {" + ",".join(repr(in_scale * s) for s in w_scales) + "}>"
    else:
        wt = f"!quant.uniform<i8:f32, {w_scales[0]!r}>"
        bt = f"!quant.uniform<i32:f32, {in_scale * w_scales[0]!r}>"
    out_scale = float(np.float32(in_scale * np.mean(w_scales) * np.sqrt(k * k * c) * 40))
    yt = f"!quant.uniform<u8:f32, {out_scale!r}:{7 if bias else 128}>"
    pad = k // 2
    xs, ys, ws = (1, h, w, c), (1, h, w, o), (o, k, k, c)
    weights = rng.integers(-128, 128, size=ws)
    lines = [f"func.func @model(%x: {tensor(xs, 'f32')}) -> {tensor(ys, 'f32')} {{",
             f"  %q = quant.qcast %x : {tensor(xs, 'f32')} to {tensor(xs, xt)}",
             f"  %wr = arith.constant dense<{nested(weights)}> : {tensor(ws, 'i8')}",
             f"  %w = quant.scast %wr : {tensor(ws, 'i8')} to {tensor(ws, wt)}"]
    operands, types = "%q, %w", f"{tensor(xs, xt)}, {tensor(ws, wt)}"
    if bias:
        lines += [f"  %br = arith.constant dense<{nested(rng.integers(-3000, 3000, size=o))}> : {tensor((o,), 'i32')}",
                  f"  %b = quant.scast %br : {tensor((o,), 'i32')} to {tensor((o,), bt)}"]
        operands += " bias(%b)"
        types += f", {tensor((o,), bt)}"
    lines += [f"  %y = qnt.conv2d {operands} {{activation = #qnt<activation {'relu' if bias else 'none'}>, "
              f"strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pad = array<i64: {pad}, {pad}, {pad}, {pad}>, "
              f"groups = 1 : i64}} : ({types}) -> {tensor(ys, yt)}",
              f"  %d = quant.dcast %y : {tensor(ys, yt)} to {tensor(ys, 'f32')}",
              f"  return %d : {tensor(ys, 'f32')}", "}"]
    with open(os.path.join(out, f"{name}.mlir"), "w") as f:
        f.write("\n".join(lines) + "\n")
    lo = -128 if signed else 0
    x = (rng.integers(lo, lo + 256, size=(2,) + xs[1:]) - in_zp) * in_scale
    np.save(os.path.join(out, f"{name}.npy"), x.astype(np.float32))


model("tile0", 9, 11, 128, 80, 3, signed=False, per_channel=True, bias=True)
model("tile1", 5, 7, 64, 48, 1, signed=True, per_channel=False, bias=False)
