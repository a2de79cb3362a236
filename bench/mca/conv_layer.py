#!/usr/bin/python3
"""Writes one quantized convolution (qnt-quantize form: qcast -> qnt.conv2d
with fused ReLU -> dcast, NHWC f32 in and out) with random int8 weights, for
looking at the generated kernel. Activations are u8 with zero point 0 (as
after a ReLU), weights per-channel i8 in [-127, 127], int32 bias.

Usage: conv_layer.py OUT.mlir IC IH OC KH STRIDE PAD GROUPS
"""
import sys

import numpy as np

out = sys.argv[1]
ic, ih, oc, kh, stride, pad, groups = map(int, sys.argv[2:9])
rng = np.random.default_rng(0)
cg = ic // groups
oh = (ih + 2 * pad - kh) // stride + 1
in_scale, out_scale = 0.05, 0.1
w_scales = [float(np.float32(s)) for s in rng.uniform(0.001, 0.01, oc)]
weights = rng.integers(-127, 128, size=(oc, kh, kh, cg))
bias = rng.integers(-1000, 1000, size=oc)


def ts(shape, elem):
    return f"tensor<{'x'.join(map(str, shape))}x{elem}>"


def nested(a):
    if a.ndim == 1:
        return "[" + ", ".join(str(int(v)) for v in a) + "]"
    return "[" + ", ".join(nested(x) for x in a) + "]"


xt = f"!quant.uniform<u8:f32, {in_scale}>"
yt = f"!quant.uniform<u8:f32, {out_scale}>"
wt = "!quant.uniform<i8:f32:0, {" + ",".join(map(repr, w_scales)) + "}>"
bt = "!quant.uniform<i32:f32:0, {" + ",".join(
    repr(float(np.float64(np.float32(in_scale)) * np.float64(s)))
    for s in w_scales) + "}>"
xs, ys, wsh = (1, ih, ih, ic), (1, oh, oh, oc), (oc, kh, kh, cg)
text = f"""func.func @layer(%x: {ts(xs, 'f32')}) -> {ts(ys, 'f32')} {{
  %q = quant.qcast %x : {ts(xs, 'f32')} to {ts(xs, xt)}
  %wr = arith.constant dense<{nested(weights)}> : {ts(wsh, 'i8')}
  %w = quant.scast %wr : {ts(wsh, 'i8')} to {ts(wsh, wt)}
  %br = arith.constant dense<{nested(bias)}> : {ts((oc,), 'i32')}
  %b = quant.scast %br : {ts((oc,), 'i32')} to {ts((oc,), bt)}
  %y = qnt.conv2d %q, %w bias(%b) {{activation = #qnt<activation relu>, strides = array<i64: {stride}, {stride}>, pad = array<i64: {pad}, {pad}, {pad}, {pad}>, groups = {groups} : i64}} : ({ts(xs, xt)}, {ts(wsh, wt)}, {ts((oc,), bt)}) -> {ts(ys, yt)}
  %d = quant.dcast %y : {ts(ys, yt)} to {ts(ys, 'f32')}
  return %d : {ts(ys, 'f32')}
}}
"""
with open(out, "w") as f:
    f.write(text)
