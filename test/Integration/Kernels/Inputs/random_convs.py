"""Writes N random quantized convolution / linear models (qnt-quantize form:
qcast -> conv2d -> dcast, f32 NHWC in and out) and an input for each.

Covers: stride 1/2, padding (symmetric and not), dilation 1/2, groups 1/2,
depthwise (multiplier 1 and 2, 1-39 channels, often 16-144), channel counts that are and
are not multiples of 4, 8 and 16, wide layers (20-160 input and 40-149
output channels: several 64-channel blocks and a tail; 1x1 without padding,
read in place), widths that are and are not multiples of 4, u8 and i8
activations, 7-bit (reduce_range) and full-range activations, per-channel
and per-tensor weights, weights of -128..127 and of small magnitude, bias or
none, residual or none, activations none / relu / relu6 / clamp, and linear
layers. Usage: random_convs.py OUTDIR N SEED [wide | depthwise]

With `wide`, every model has whole 64-channel blocks (the avx512-vnni
kernels' packed-order paths): depthwise with 16-192 channels (multiples of
16) or dense / linear layers with 64-259 output channels (dense: or
16, 32 or 48, whose pixel runs are stored 64 bytes at a time), and one in four
gets an output scale 1e7 times smaller, whose requantization multipliers are
large enough that the rounded value could overflow int32 (the kernels then
clamp in float before converting).

With `depthwise`, every model is a depthwise layer 3-30 pixels wide with
16, 32, 48, 64, 96, 144, 160 or 192 channels in turn (the avx512-vnni
depthwise kernel's block kinds: pixels per vector, 64-channel blocks with
and without an overlapping last block, 16-channel blocks), mostly at stride 1
along rows for 16 and 32 channels, one in four with large multipliers.
"""
import os
import sys

import numpy as np

out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
mode = sys.argv[4] if len(sys.argv) > 4 else ""
wide = mode == "wide"
depthwise = mode == "depthwise"
tile = mode == "tile"
rng = np.random.default_rng(seed)
os.makedirs(out, exist_ok=True)


def qtype(signed, scale, zp, lo=None, hi=None):
    st = "i8" if signed else "u8"
    rng_ = f"<{lo}:{hi}>" if lo is not None else ""
    return f"!quant.uniform<{st}{rng_}:f32, {scale!r}:{zp}>"


def dense(a, ty):
    flat = ", ".join(str(int(v)) for v in a.ravel())
    return f"dense<[{flat}]> : tensor<{'x'.join(map(str, a.shape))}x{ty}>" if a.ndim == 1 else \
        "dense<" + nested(a) + f"> : tensor<{'x'.join(map(str, a.shape))}x{ty}>"


def nested(a):
    if a.ndim == 0:
        return str(int(a))
    return "[" + ", ".join(nested(x) for x in a) + "]"


manifest = []
for i in range(count):
    linear = (i % 10 == 9 or (tile and i % 5 == 4)) and not depthwise
    signed = bool(rng.integers(2))
    reduced = bool(rng.integers(2))
    if signed:
        lo, hi = (-64, 63) if reduced else (-128, 127)
    else:
        lo, hi = (0, 127) if reduced else (0, 255)
    in_zp = int(rng.integers(lo, hi + 1))
    in_scale = float(np.float32(rng.uniform(0.01, 0.1)))
    if linear:
        n, h, w = 1, 1, int(rng.integers(1, 6))
        c = int(rng.integers(1, 70))
        groups, kh, kw, sh, sw, dh, dw = 1, 1, 1, 1, 1, 1, 1
        pads = [0, 0, 0, 0]
        o = int(rng.integers(64, 260)) if wide else int(rng.integers(1, 40))
        if tile:  # rows: a 16-row block or more, the last one overlapping
            w = int(rng.integers(16, 80))
            c = 64 * int(rng.integers(1, 4))
            o = int(rng.choice([rng.integers(1, 260), 64 * rng.integers(1, 4)]))
    elif tile:
        # amx-int8's tile kernel: input channels per group a multiple of 64,
        # stride 1, 16 or more virtual pixels per image; 1x1 without padding
        # read in place, others from the padded copy (a row's pitch - OW
        # dropped pixels); output channels in 64-channel blocks and a tail.
        n = int(rng.integers(1, 3))
        h, w = int(rng.integers(2, 10)), int(rng.integers(2, 14))
        groups = int(rng.choice([1, 1, 1, 2]))
        c = groups * 64 * int(rng.integers(1, 3))
        o = groups * int(rng.choice([rng.integers(1, 100), 64 * rng.integers(1, 3)]))
        kh = kw = int(rng.choice([1, 1, 3]))
        if rng.integers(4) == 0:
            kw = int(rng.choice([1, 3]))
        # Strided: the padded copy split into stride phases.
        sh = sw = int(rng.choice([1, 1, 2]))
        if rng.integers(6) == 0:
            sh, sw = int(rng.choice([1, 2, 3])), int(rng.choice([1, 2, 3]))
        dh, dw = int(rng.choice([1, 1, 2])), int(rng.choice([1, 1, 2]))
        pads = [int(rng.integers(0, 3)) for _ in range(4)] if kh * kw > 1 or rng.integers(2) else [0, 0, 0, 0]
        if i % 5 == 3:
            # Few input channels (an RGB stem, 7x7 at stride 2): the
            # whole reduction as one im2col row per pixel.
            groups = 1
            c = int(rng.choice([3, 3, 8, 20, 40]))
            o = int(rng.choice([rng.integers(1, 100), 64]))
            kh = kw = int(rng.choice([3, 5, 7]))
            pads = [kh // 2] * 4
        while dh * (kh - 1) + 1 > h + pads[0] + pads[1]:
            pads[1] += 1
        while dw * (kw - 1) + 1 > w + pads[2] + pads[3]:
            pads[3] += 1
        while ((h + pads[0] + pads[1] - dh * (kh - 1) - 1) // sh + 1) * ((w + pads[2] + pads[3] + sw - 1) // sw) < 20:
            h += 1
    else:
        n = 1
        h, w = int(rng.integers(3, 12)), int(rng.integers(3, 14))
        kind = rng.choice([0, 4]) if wide else rng.integers(5)
        if depthwise:
            kind = 0
            w = int(rng.integers(3, 31))
        if kind == 0 and depthwise:
            c = [16, 32, 48, 64, 96, 144, 160, 192][i % 8]
            groups, o = c, c
        elif kind == 0 and wide:
            # 64-192: 64-channel blocks (the last one overlapping the one
            # before when C is not a multiple of 64); 16 / 32: 4 / 2 pixels
            # per vector at stride 1; 48: 16-channel blocks.
            c = 16 * int(rng.integers(1, 13))
            groups, o = c, c
        elif kind == 0:  # depthwise
            # Multiples of 16: the avx512-vnni kernel reads them in place
            # (64-channel blocks and a 16-channel tail from 64 up).
            c = int(rng.choice([rng.integers(1, 40), 16 * rng.integers(1, 10)]))
            groups = c
            o = c * int(rng.integers(1, 3))
        elif kind == 1:  # grouped
            groups = 2
            c = 2 * int(rng.integers(1, 9))
            o = 2 * int(rng.integers(1, 12))
        elif kind == 4:  # wide: several 64-channel blocks, long reductions
            groups = 1
            c = int(rng.choice([rng.integers(20, 161), 4 * rng.integers(8, 40)]))
            if wide:  # several 64-channel blocks, or 16-48 channels
                o = int(rng.choice([rng.integers(64, 260), 16 * rng.integers(1, 4)]))
            else:
                o = int(rng.integers(40, 150))
        else:
            groups = 1
            # 3 channels (RGB): the padded copy spreads them to 4-byte slots.
            c = 3 if rng.integers(4) == 0 else int(rng.integers(1, 40))
            o = int(rng.integers(1, 40))
            if c == 3:  # rows of several 16-pixel chunks and a tail
                w = int(rng.integers(16, 40))
        kh, kw = int(rng.choice([1, 3, 5])), int(rng.choice([1, 3]))
        sh, sw = int(rng.choice([1, 2])), int(rng.choice([1, 2]))
        dh, dw = int(rng.choice([1, 1, 2])), int(rng.choice([1, 1, 2]))
        pads = [int(rng.integers(0, 3)) for _ in range(4)]
        if kind == 0 and (wide or depthwise) and c <= 32 and i % 4 < 3:
            sw = 1  # the pixels-per-vector kernel (stride 1 along rows)
        if kind == 4:
            kh = kw = int(rng.choice([1, 3]))
            dh = dw = 1
            if kh == 1 and rng.integers(2):  # read in place: no padded copy
                pads = [0, 0, 0, 0]
        # Keep the dilated kernel inside the padded input.
        while dh * (kh - 1) + 1 > h + pads[0] + pads[1]:
            pads[1] += 1
        while dw * (kw - 1) + 1 > w + pads[2] + pads[3]:
            pads[3] += 1
    cg = c // groups
    oh = (h + pads[0] + pads[1] - dh * (kh - 1) - 1) // sh + 1
    ow = (w + pads[2] + pads[3] - dw * (kw - 1) - 1) // sw + 1
    small = bool(rng.integers(2))
    wmax = 20 if small else 127
    weights = rng.integers(-wmax - (0 if small else 1), wmax + 1, size=(o, kh, kw, cg)).astype(np.int64)
    per_channel = bool(rng.integers(2)) or linear
    w_scales = [float(np.float32(rng.uniform(0.001, 0.02))) for _ in range(o if per_channel else 1)]
    out_signed = bool(rng.integers(2))
    out_lo, out_hi = (-128, 127) if out_signed else (0, 255)
    out_zp = int(rng.integers(out_lo, out_hi + 1))
    # An output scale that keeps results mostly in range.
    out_scale = float(np.float32(in_scale * np.mean(w_scales) * max(1.0, np.sqrt(kh * kw * cg)) * rng.uniform(5, 40)))
    if (wide or depthwise or tile) and rng.integers(4) == 0:
        out_scale = float(np.float32(out_scale * 1e-7))
    act = ["none", "relu", "relu6", "clamp"][int(rng.integers(4))]
    has_bias = bool(rng.integers(3))
    residual = (not linear) and bool(rng.integers(4) == 0)
    bias = rng.integers(-3000, 3000, size=o) if has_bias else None

    xt = qtype(signed, in_scale, in_zp, lo, hi) if reduced else qtype(signed, in_scale, in_zp)
    yt = qtype(out_signed, out_scale, out_zp)
    if per_channel:
        wt = "!quant.uniform<i8:f32:0, {" + ",".join(repr(s) for s in w_scales) + "}>"
        bt = "!quant.uniform<i32:f32:0, {" + ",".join(repr(float(np.float64(np.float32(in_scale)) * np.float64(np.float32(s)))) for s in w_scales) + "}>"
    else:
        wt = f"!quant.uniform<i8:f32, {w_scales[0]!r}>"
        bt = f"!quant.uniform<i32:f32, {float(np.float64(np.float32(in_scale)) * np.float64(np.float32(w_scales[0])))!r}>"
    lines = []
    if linear:
        in_shape, out_shape = (1, w, c), (1, w, o)
        wshape = (o, c)
        wvals = weights.reshape(o, c)
    else:
        in_shape, out_shape = (n, h, w, c), (n, oh, ow, o)
        wshape = (o, kh, kw, cg)
        wvals = weights
    ts = lambda s, e: f"tensor<{'x'.join(map(str, s))}x{e}>"
    lines.append(f"func.func @model(%x: {ts(in_shape, 'f32')}) -> {ts(out_shape, 'f32')} {{")
    lines.append(f"  %q = quant.qcast %x : {ts(in_shape, 'f32')} to {ts(in_shape, xt)}")
    lines.append(f"  %wr = arith.constant {dense(wvals, 'i8')}")
    lines.append(f"  %w = quant.scast %wr : {ts(wshape, 'i8')} to {ts(wshape, wt)}")
    operands, types = "%q, %w", f"{ts(in_shape, xt)}, {ts(wshape, wt)}"
    if has_bias:
        lines.append(f"  %br = arith.constant {dense(bias, 'i32')}")
        lines.append(f"  %b = quant.scast %br : {ts((o,), 'i32')} to {ts((o,), bt)}")
        operands += " bias(%b)"
        types += f", {ts((o,), bt)}"
    attrs = [f"activation = #qnt<activation {act}>"]
    if act == "clamp":
        attrs += [f"clamp_min = {float(np.float32(-out_scale * 20))!r} : f32", f"clamp_max = {float(np.float32(out_scale * 60))!r} : f32"]
    if residual:
        r_signed = bool(rng.integers(2))
        rt = qtype(r_signed, float(np.float32(out_scale * rng.uniform(0.5, 2))), int(rng.integers(-100, 100) if r_signed else rng.integers(0, 255)))
        lines.append(f"  %rq = quant.qcast %r : {ts(out_shape, 'f32')} to {ts(out_shape, rt)}")
        operands += " residual(%rq)"
        types += f", {ts(out_shape, rt)}"
    if linear:
        op = f"qnt.linear %q, %w{' bias(%b)' if has_bias else ''} {{{', '.join(attrs)}}} : ({types}) -> {ts(out_shape, yt)}"
    else:
        attrs += [f"strides = array<i64: {sh}, {sw}>", f"dilations = array<i64: {dh}, {dw}>",
                  f"pad = array<i64: {', '.join(map(str, pads))}>", f"groups = {groups} : i64"]
        op = f"qnt.conv2d {operands} {{{', '.join(attrs)}}} : ({types}) -> {ts(out_shape, yt)}"
    lines.append(f"  %y = {op}")
    lines.append(f"  %d = quant.dcast %y : {ts(out_shape, yt)} to {ts(out_shape, 'f32')}")
    lines.append(f"  return %d : {ts(out_shape, 'f32')}")
    lines.append("}")
    text = "\n".join(lines)
    if residual:
        # The residual is a constant float tensor quantized in the model.
        rvals = rng.uniform(-1, 1, size=out_shape).astype(np.float32) * np.float32(out_scale * 40)

        def fnested(a):
            if a.ndim == 0:
                return repr(float(a))
            return "[" + ", ".join(fnested(v) for v in a) + "]"
        text = text.replace("  %rq = quant.qcast %r", f"  %r = arith.constant dense<{fnested(rvals)}> : {ts(out_shape, 'f32')}\n  %rq = quant.qcast %r")
    with open(os.path.join(out, f"conv{i}.mlir"), "w") as f:
        f.write(text + "\n")
    x = rng.uniform(-1, 1, size=(4,) + in_shape[1:]).astype(np.float32) * in_scale * (hi - lo) / 2 + in_scale * ((hi + lo) / 2 - in_zp)
    np.save(os.path.join(out, f"conv{i}.npy"), x.astype(np.float32))
    manifest.append(f"conv{i} {'linear' if linear else 'conv'} c={c} o={o} g={groups} k={kh}x{kw} s={sh}x{sw} d={dh}x{dw} pad={pads} in={'i8' if signed else 'u8'}{'-7bit' if reduced else ''} w={'small' if small else 'full'} act={act} bias={has_bias} res={residual}")
with open(os.path.join(out, "manifest.txt"), "w") as f:
    f.write("\n".join(manifest) + "\n")
