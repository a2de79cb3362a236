#!/usr/bin/python3
"""Generates the int8 reference goldens in test/Unit/Reference/data/.

Run with Debian's interpreter (python3-torch 1.13, numpy):
    /usr/bin/python3 scripts/gen_reference_goldens.py [--out DIR]

Every expected output comes from PyTorch 1.13's quantized CPU ops with
torch.backends.quantized.engine = 'onednn' (conv2d, linear go to oneDNN
2.6.3; add, pools, cat, quantize, dequantize are ATen's own kernels), except
the conv + residual cases ("numpy64", see below). Seeds are fixed: rerunning
on the same machine gives byte-identical files. The header of goldens.txt
records the oneDNN ISA the conv/linear outputs were computed with; the
cases are chosen so that the ISA does not matter (see "Saturation" below).

How the cases map onto PyTorch:
  * Layout: PyTorch is NCHW (weights OIHW); the files hold NHWC activations
    and OHWI weights, as the C++ reference takes them.
  * Integer data goes in as is: activations via
    torch._make_per_tensor_quantized_tensor, weights via
    torch._make_per_{tensor,channel}_quantized_tensor (symmetric, zero point
    0). Bias: the file holds the int32 bias b; PyTorch gets the float bias
    float32(b * s_in * s_w[o]), which its prepacking turns back into b.
  * Asymmetric padding: the input is padded with its zero point (real 0)
    before PyTorch's conv with padding 0; the file holds the unpadded input
    and the four pads.
  * relu6 / clamp: PyTorch 1.13 has no fused quantized conv-relu6; the case
    runs quantized conv2d and then torch.clamp on the quantized output,
    which quantizes the float bounds exactly like activationBounds does, so
    it equals the fused definition.
  * i8 activations: oneDNN in PyTorch 1.13 rejects qint8 activations
    ("data type of input should be QUint8"). An i8 tensor (x, z) has the
    same x - z as the u8 tensor (x + 128, z + 128), so i8 cases run PyTorch
    on the shifted u8 tensors (input and output) and shift the result back:
    the same integer computation, exactly.
  * Residual add fused into conv has no PyTorch 1.13 op; those cases use an
    independent numpy float64 evaluation of the real-domain formula
    acc * s_in * s_w / s_out + (r - z_r) * s_r / s_out (source "numpy64"),
    which can differ from the float32 definition at near-ties (<= 1 LSB).
  * Average pools run twice, on a channels-last input (source "torch") and
    on the NCHW input (source "torch-nchw"): ATen's two kernels round
    differently (see layouts()); the reference follows the channels-last one.
  * Saturation: on CPUs without VNNI, oneDNN's u8 x s8 kernels use
    vpmaddubsw, which saturates pairs of products at int16; PyTorch avoids it
    with reduce_range (7-bit activations). Cases with full-range u8 inputs
    are therefore kept to weights small enough that no pair can saturate
    (2 * 255 * 64 < 32767) unless the input is 7-bit ([0, 127]).

Goldens made elsewhere (e.g. with ONEDNN_MAX_CPU_ISA=AVX2 to see oneDNN's
non-VNNI kernels) can be checked without replacing the stored ones:
    ONEDNN_MAX_CPU_ISA=AVX2 /usr/bin/python3 scripts/gen_reference_goldens.py \
        --out /tmp/avx2
    QUANTC_REFERENCE_GOLDENS=/tmp/avx2 build/test/Unit/Reference/quantc-reference-tests

Files:
  tensors.bin  raw little-endian data of all tensors back to back
  goldens.txt  text manifest:
    case <op> <name> <source>       op: conv2d matmul add maxpool avgpool
                                        gavgpool concat quantize dequantize
                                        mul lookup batchnorm
    t <role> <u8|i8|i32|f32> <byte offset> <rank> <dims...>
    q <role> <scale bits> <zero point> <qmin> <qmax>
    ws <n> <scale bits...>          weight scales (1 or one per channel)
    p <key> <ints...>               stride, pad (t b l r), dilation, groups,
                                    kernel, act (0 none 1 relu 2 relu6 3 clamp),
                                    axis (concat, NHWC; default the last)
    f <key> <float bits...>         clamp (min max), eps (batch norm)
    end
  Float32 values are written as 8 hex digits of their bit pattern. Roles:
  input, weights, bias, residual, output (expected), lhs, rhs, input0..,
  gamma, beta, mean, var (batch norm, f32)
"""
import argparse
import os
import struct
import warnings

import numpy as np
import torch

warnings.filterwarnings("ignore")
torch.set_num_threads(1)
torch.backends.quantized.engine = "onednn"

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test",
                   "Unit", "Reference", "data")

ACT = {"none": 0, "relu": 1, "relu6": 2, "clamp": 3}


def bits(v):
    return "%08x" % struct.unpack("<I", struct.pack("<f", float(v)))[0]


def f32(v):
    return float(np.float32(v))


class Writer:
    def __init__(self):
        self.blob = bytearray()
        self.lines = []
        self.counts = {}

    def case(self, op, name, source):
        self.lines.append("case %s %s %s" % (op, name, source))
        self.counts[op] = self.counts.get(op, 0) + 1

    def tensor(self, role, arr):
        kind = {np.dtype(np.uint8): "u8", np.dtype(np.int8): "i8",
                np.dtype(np.int32): "i32", np.dtype(np.float32): "f32"}
        arr = np.ascontiguousarray(arr)
        off = len(self.blob)
        self.blob += arr.astype(arr.dtype.newbyteorder("<")).tobytes()
        while len(self.blob) % 4:
            self.blob.append(0)
        self.lines.append("t %s %s %d %d %s" % (
            role, kind[arr.dtype], off, arr.ndim,
            " ".join(str(d) for d in arr.shape)))

    def qparams(self, role, scale, zp, qmin, qmax):
        self.lines.append("q %s %s %d %d %d" % (role, bits(scale), zp, qmin,
                                                 qmax))

    def param(self, key, *vals):
        self.lines.append("p %s %s" % (key, " ".join(str(int(v)) for v in vals)))

    def fparam(self, key, *vals):
        self.lines.append("f %s %s" % (key, " ".join(bits(v) for v in vals)))

    def wscales(self, scales):
        self.lines.append("ws %d %s" % (len(scales),
                                        " ".join(bits(s) for s in scales)))

    def end(self):
        self.lines.append("end")


def storage(signed):
    return (-128, 127) if signed else (0, 255)


def qtensor(ints, scale, zp, signed):
    """A PyTorch quint8 tensor holding `ints` (shifted by 128 when i8)."""
    if signed:
        ints = ints.astype(np.int32) + 128
        zp = zp + 128
    return torch._make_per_tensor_quantized_tensor(
        torch.from_numpy(ints.astype(np.uint8)), float(scale), int(zp))


def ints_of(q, signed):
    r = q.int_repr().numpy().astype(np.int32)
    return (r - 128).astype(np.int8) if signed else r.astype(np.uint8)


def nhwc(a):
    return np.ascontiguousarray(a.transpose(0, 2, 3, 1))


def rand_scale(rng, lo, hi):
    return f32(np.exp(rng.uniform(np.log(lo), np.log(hi))))


def pick_output_params(rng, real, signed):
    """Scale / zero point covering most of `real` (some values clip)."""
    qmin, qmax = storage(signed)
    lo, hi = np.percentile(real, 0.5), np.percentile(real, 99.5)
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi - lo < 1e-6:
        hi = lo + 1.0
    scale = f32((hi - lo) / (qmax - qmin) * rng.uniform(0.8, 1.1))
    zp = int(np.clip(np.round(qmin - lo / scale), qmin, qmax))
    return scale, zp


def conv_acc(x, w, bias, zp, stride, pads, dil, groups):
    """Exact int64 accumulators, NCHW in, OIHW weights, NCHW out."""
    n, c, h, wd = x.shape
    o, ig, kh, kw = w.shape
    t, b, l, r = pads
    xp = np.zeros((n, c, h + t + b, wd + l + r), np.int64)
    xp[:, :, t:t + h, l:l + wd] = x.astype(np.int64) - zp
    oh = (h + t + b - dil[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + l + r - dil[1] * (kw - 1) - 1) // stride[1] + 1
    acc = np.zeros((n, o, oh, ow), np.int64)
    opg = o // groups
    for oc in range(o):
        g = oc // opg
        for ky in range(kh):
            for kx in range(kw):
                ys = ky * dil[0]
                xs = kx * dil[1]
                patch = xp[:, g * ig:(g + 1) * ig,
                           ys:ys + stride[0] * (oh - 1) + 1:stride[0],
                           xs:xs + stride[1] * (ow - 1) + 1:stride[1]]
                acc[:, oc] += np.einsum("ncyx,c->nyx", patch,
                                        w[oc, :, ky, kx].astype(np.int64))
    acc += bias.astype(np.int64)[None, :, None, None]
    return acc


def conv_case(wr, rng, name, n, c, h, w, o, k, stride=1, pad=(0, 0, 0, 0),
              dil=1, groups=1, act="none", per_channel=True, signed=False,
              in_range=None, wmax=64, residual=False, clamp=(-1.0, 2.0)):
    kh, kw = (k, k) if isinstance(k, int) else k
    stride = (stride, stride) if isinstance(stride, int) else stride
    dil = (dil, dil) if isinstance(dil, int) else dil
    qmin, qmax = in_range or storage(signed)
    x = rng.integers(qmin, qmax + 1, (n, c, h, w)).astype(np.int32)
    s_in = rand_scale(rng, 0.005, 0.1)
    zp_in = int(rng.integers(qmin, (qmin + qmax) // 2 + 1))
    wq = rng.integers(-wmax, wmax + 1, (o, c // groups, kh, kw)).astype(np.int8)
    if per_channel:
        s_w = [rand_scale(rng, 0.002, 0.05) for _ in range(o)]
    else:
        s_w = [rand_scale(rng, 0.002, 0.05)]
    sw_o = np.array([s_w[i if per_channel else 0] for i in range(o)])
    bias = rng.integers(-3000, 3001, o).astype(np.int32)
    acc = conv_acc(x, wq, bias, zp_in, stride, pad, dil, groups)
    real = acc * (s_in * sw_o)[None, :, None, None]
    s_out, zp_out = pick_output_params(rng, real, signed)

    source = "torch"
    if residual:
        source = "numpy64"
        s_res = rand_scale(rng, 0.005, 0.1)
        rq = storage(signed)
        res = rng.integers(rq[0], rq[1] + 1, acc.shape).astype(np.int32)
        zp_res = int(rng.integers(rq[0], rq[1] + 1))
        oq = storage(signed)
        v = (acc.astype(np.float64) * (float(s_in) * sw_o[None, :, None, None])
             / float(s_out) + (res - zp_res) * float(s_res) / float(s_out))
        lo, hi = oq
        if act in ("relu", "relu6"):
            lo = max(lo, zp_out)
        if act == "relu6":
            hi = min(hi, zp_out + int(np.rint(6.0 / float(s_out))))
        out = np.clip(np.rint(v) + zp_out, lo, hi).astype(
            np.int8 if signed else np.uint8)
    else:
        t, b, l, r = pad
        xt = x
        tpad = pad
        if t != b or l != r:  # asymmetric: pad explicitly with the zero point
            xt = np.full((n, c, h + t + b, w + l + r), zp_in, np.int32)
            xt[:, :, t:t + h, l:l + w] = x
            tpad = (0, 0, 0, 0)
        xq = qtensor(xt, s_in, zp_in, signed)
        if per_channel:
            wt = torch._make_per_channel_quantized_tensor(
                torch.from_numpy(wq), torch.tensor(s_w, dtype=torch.double),
                torch.zeros(o, dtype=torch.long), 0)
        else:
            wt = torch._make_per_tensor_quantized_tensor(
                torch.from_numpy(wq), s_w[0], 0)
        bias_f = torch.tensor([f32(float(bias[i]) * s_in * sw_o[i])
                               for i in range(o)], dtype=torch.float)
        packed = torch.ops.quantized.conv2d_prepack(
            wt, bias_f, list(stride), [tpad[0], tpad[2]], list(dil), groups)
        zp_t = zp_out + 128 if signed else zp_out
        if act == "relu":
            y = torch.ops.quantized.conv2d_relu(xq, packed, s_out, zp_t)
        else:
            y = torch.ops.quantized.conv2d(xq, packed, s_out, zp_t)
            if act == "relu6":
                y = torch.clamp(y, 0.0, 6.0)
            elif act == "clamp":
                y = torch.clamp(y, clamp[0], clamp[1])
        out = ints_of(y, signed)
        assert out.shape == acc.shape, (out.shape, acc.shape)

    dt = np.int8 if signed else np.uint8
    wr.case("conv2d", name, source)
    wr.tensor("input", nhwc(x.astype(dt)))
    wr.qparams("input", s_in, zp_in, *storage(signed))
    wr.tensor("weights", np.ascontiguousarray(wq.transpose(0, 2, 3, 1)))
    wr.wscales(s_w)
    wr.tensor("bias", bias)
    if residual:
        wr.tensor("residual", nhwc(res.astype(dt)))
        wr.qparams("residual", s_res, zp_res, *storage(signed))
    wr.tensor("output", nhwc(out))
    wr.qparams("output", s_out, zp_out, *storage(signed))
    wr.param("stride", *stride)
    wr.param("pad", *pad)
    wr.param("dilation", *dil)
    wr.param("groups", groups)
    wr.param("act", ACT[act])
    if act == "clamp":
        wr.fparam("clamp", *clamp)
    wr.end()


def conv_cases(wr, rng):
    cases = [
        # name, kwargs
        ("basic", dict(n=1, c=8, h=9, w=9, o=8, k=3)),
        ("stride2", dict(n=2, c=8, h=11, w=10, o=12, k=3, stride=2)),
        ("pad1", dict(n=1, c=6, h=8, w=8, o=8, k=3, pad=(1, 1, 1, 1))),
        ("pad2", dict(n=1, c=4, h=7, w=9, o=6, k=5, pad=(2, 2, 2, 2))),
        ("pad1_stride2", dict(n=1, c=8, h=12, w=12, o=16, k=3, stride=2,
                              pad=(1, 1, 1, 1))),
        ("pad_asym", dict(n=1, c=8, h=9, w=9, o=8, k=3, pad=(0, 1, 1, 2))),
        ("pad_asym_stride2", dict(n=1, c=4, h=10, w=10, o=8, k=3, stride=2,
                                  pad=(1, 0, 2, 1))),
        ("dilation2", dict(n=1, c=8, h=11, w=11, o=8, k=3, dil=2)),
        ("dilation2_pad2", dict(n=1, c=8, h=9, w=9, o=8, k=3, dil=2,
                                pad=(2, 2, 2, 2))),
        ("groups2", dict(n=1, c=8, h=9, w=9, o=12, k=3, groups=2,
                         pad=(1, 1, 1, 1))),
        ("groups4", dict(n=1, c=16, h=8, w=8, o=16, k=3, groups=4)),
        ("depthwise", dict(n=1, c=16, h=10, w=10, o=16, k=3, groups=16,
                           pad=(1, 1, 1, 1))),
        ("depthwise_mult2", dict(n=1, c=8, h=10, w=10, o=16, k=3, groups=8,
                                 pad=(1, 1, 1, 1))),
        ("depthwise_stride2", dict(n=1, c=16, h=11, w=11, o=16, k=3,
                                   stride=2, groups=16, pad=(1, 1, 1, 1))),
        ("pointwise", dict(n=2, c=32, h=6, w=6, o=24, k=1)),
        ("rect_kernel", dict(n=1, c=8, h=9, w=12, o=8, k=(1, 3),
                             pad=(0, 0, 1, 1))),
        ("per_tensor", dict(n=1, c=8, h=9, w=9, o=8, k=3, per_channel=False)),
        ("per_tensor_depthwise", dict(n=1, c=8, h=9, w=9, o=8, k=3, groups=8,
                                      per_channel=False)),
        ("relu", dict(n=1, c=8, h=9, w=9, o=8, k=3, act="relu",
                      pad=(1, 1, 1, 1))),
        ("relu_depthwise", dict(n=1, c=16, h=9, w=9, o=16, k=3, groups=16,
                                act="relu")),
        ("relu6", dict(n=1, c=8, h=9, w=9, o=8, k=3, act="relu6")),
        ("relu6_depthwise", dict(n=1, c=16, h=9, w=9, o=16, k=3, groups=16,
                                 act="relu6", pad=(1, 1, 1, 1))),
        ("clamp", dict(n=1, c=8, h=9, w=9, o=8, k=3, act="clamp")),
        ("reduce_range_input", dict(n=1, c=16, h=9, w=9, o=16, k=3,
                                    in_range=(0, 127), wmax=127)),
        ("full_weights_w128", dict(n=1, c=8, h=7, w=7, o=8, k=3, wmax=128,
                                   in_range=(0, 127))),
        ("i8", dict(n=1, c=8, h=9, w=9, o=8, k=3, signed=True)),
        ("i8_relu_pad1", dict(n=1, c=8, h=9, w=9, o=8, k=3, signed=True,
                              act="relu", pad=(1, 1, 1, 1))),
        ("i8_depthwise_relu6", dict(n=1, c=8, h=9, w=9, o=8, k=3, groups=8,
                                    signed=True, act="relu6",
                                    pad=(1, 1, 1, 1))),
        ("i8_groups2_stride2", dict(n=1, c=8, h=10, w=10, o=8, k=3, groups=2,
                                    stride=2, signed=True)),
        ("residual", dict(n=1, c=8, h=9, w=9, o=8, k=3, residual=True,
                          pad=(1, 1, 1, 1))),
        ("residual_relu", dict(n=1, c=8, h=9, w=9, o=8, k=3, residual=True,
                               act="relu")),
        ("residual_i8_relu6", dict(n=1, c=8, h=9, w=9, o=8, k=3,
                                   residual=True, signed=True, act="relu6")),
    ]
    for name, kw in cases:
        kw.setdefault("wmax", 64)
        if kw["wmax"] > 64 and kw.get("in_range") is None and not kw.get(
                "signed"):
            raise ValueError(name + ": full-range u8 input needs wmax <= 64")
        conv_case(wr, rng, name, **kw)
    # Random configurations on top of the hand-picked ones.
    for i in range(24):
        groups = int(rng.choice([1, 2, 4]))
        c = groups * int(rng.integers(1, 5))
        o = groups * int(rng.integers(1, 5))
        k = int(rng.choice([1, 2, 3]))
        p = int(rng.integers(0, 3)) if k > 1 else 0
        conv_case(wr, rng, "random%d" % i, n=int(rng.integers(1, 3)), c=c,
                  h=int(rng.integers(6, 12)), w=int(rng.integers(6, 12)), o=o,
                  k=k, stride=int(rng.integers(1, 3)), pad=(p, p, p, p),
                  dil=int(rng.integers(1, 3)), groups=groups,
                  act=str(rng.choice(["none", "relu", "relu6"])),
                  per_channel=bool(rng.integers(0, 2)),
                  signed=bool(rng.integers(0, 2)))


def matmul_cases(wr, rng):
    for i, (m, k, n, act, signed, per_channel) in enumerate([
            (4, 16, 8, "none", False, True), (7, 64, 10, "relu", False, True),
            (16, 100, 32, "none", False, False), (3, 256, 16, "relu", True,
                                                  True),
            (32, 48, 24, "none", True, True), (9, 33, 17, "relu6", False,
                                               True)]):
        qmin, qmax = storage(signed)
        x = rng.integers(qmin, qmax + 1, (m, k)).astype(np.int32)
        s_in = rand_scale(rng, 0.005, 0.1)
        zp_in = int(rng.integers(qmin, (qmin + qmax) // 2 + 1))
        wq = rng.integers(-64, 65, (n, k)).astype(np.int8)
        s_w = [rand_scale(rng, 0.002, 0.05)
               for _ in range(n if per_channel else 1)]
        sw_o = np.array([s_w[j if per_channel else 0] for j in range(n)])
        bias = rng.integers(-3000, 3001, n).astype(np.int32)
        acc = (x.astype(np.int64) - zp_in) @ wq.astype(np.int64).T + bias
        s_out, zp_out = pick_output_params(rng, acc * float(s_in) * sw_o,
                                           signed)
        if per_channel:
            wt = torch._make_per_channel_quantized_tensor(
                torch.from_numpy(wq), torch.tensor(s_w, dtype=torch.double),
                torch.zeros(n, dtype=torch.long), 0)
        else:
            wt = torch._make_per_tensor_quantized_tensor(
                torch.from_numpy(wq), s_w[0], 0)
        bias_f = torch.tensor([f32(float(bias[j]) * s_in * sw_o[j])
                               for j in range(n)], dtype=torch.float)
        packed = torch.ops.quantized.linear_prepack(wt, bias_f)
        zp_t = zp_out + 128 if signed else zp_out
        xq = qtensor(x, s_in, zp_in, signed)
        if act == "relu":
            y = torch.ops.quantized.linear_relu(xq, packed, s_out, zp_t)
        else:
            y = torch.ops.quantized.linear(xq, packed, s_out, zp_t)
            if act == "relu6":
                y = torch.clamp(y, 0.0, 6.0)
        dt = np.int8 if signed else np.uint8
        wr.case("matmul", "linear%d" % i, "torch")
        wr.tensor("input", x.astype(dt))
        wr.qparams("input", s_in, zp_in, qmin, qmax)
        wr.tensor("weights", wq)
        wr.wscales(s_w)
        wr.tensor("bias", bias)
        wr.tensor("output", ints_of(y, signed))
        wr.qparams("output", s_out, zp_out, qmin, qmax)
        wr.param("act", ACT[act])
        wr.end()


def rand_qtensor(rng, shape, signed):
    qmin, qmax = storage(signed)
    x = rng.integers(qmin, qmax + 1, shape).astype(np.int32)
    return x, rand_scale(rng, 0.005, 0.2), int(rng.integers(qmin, qmax + 1))


def write_binary(wr, family, name, signed, relu, lhs, rhs, out):
    """One case of a binary op: lhs / rhs (ints, scale, zero point), out
    (PyTorch's quantized result, scale, zero point), NCHW -> NHWC."""
    dt = np.int8 if signed else np.uint8
    wr.case(family, name, "torch")
    for role, (ints, scale, zp) in (("lhs", lhs), ("rhs", rhs)):
        wr.tensor(role, nhwc(ints.astype(dt)))
        wr.qparams(role, scale, zp, *storage(signed))
    y, so, zo = out
    wr.tensor("output", nhwc(ints_of(y, signed)))
    wr.qparams("output", so, zo, *storage(signed))
    wr.param("act", ACT["relu" if relu else "none"])
    wr.end()


def add_cases(wr, rng):
    for i, (relu, signed) in enumerate([(False, False), (True, False),
                                        (False, True), (True, True),
                                        (False, False), (True, False)]):
        shape = (2, 16, 12, 12)
        a, sa, za = rand_qtensor(rng, shape, signed)
        b, sb, zb = rand_qtensor(rng, shape, signed)
        if i >= 4:  # equal input scales, and the output scale too
            sb = sa
        real = (a - za) * float(sa) + (b - zb) * float(sb)
        so, zo = pick_output_params(rng, real, signed)
        if i == 5:
            so = sa
        zo_t = zo + 128 if signed else zo
        op = torch.ops.quantized.add_relu if relu else torch.ops.quantized.add
        y = op(qtensor(a, sa, za, signed), qtensor(b, sb, zb, signed), so, zo_t)
        write_binary(wr, "add", "add%d" % i, signed, relu, (a, sa, za),
                     (b, sb, zb), (y, so, zo))


def layouts(xq):
    """The average pools run on both layouts: ATen's channels-last kernel
    rounds float(sum) * (1 / count) and then adds the zero point (our
    definition), its NCHW kernel rounds float(sum) * (1 / count) + zp, which
    resolves exact ties (frequent: sum / count = k + 0.5) differently."""
    return [("torch", xq.contiguous(memory_format=torch.channels_last)),
            ("torch-nchw", xq)]


def pool_cases(wr, rng):
    F = torch.nn.functional
    configs = [  # kernel, stride, pad, dilation
        (2, 2, 0, 1), (3, 2, 1, 1), (3, 1, 1, 1), (3, 2, 0, 1), (2, 1, 1, 1),
        (5, 3, 2, 1), (3, 1, 1, 2), (4, 2, 2, 1)]
    for i, (k, s, p, d) in enumerate(configs):
        for signed in (False, True):
            x, sc, zp = rand_qtensor(rng, (2, 8, 11, 13), signed)
            xq = qtensor(x, sc, zp, signed)
            dt = np.int8 if signed else np.uint8
            tag = "_i8" if signed else ""
            outs = [("maxpool", "torch", F.max_pool2d(xq, k, s, p, d))]
            if d == 1:
                for source, t in layouts(xq):
                    outs.append(("avgpool", source, F.avg_pool2d(
                        t, k, s, p, count_include_pad=False)))
            for op, source, y in outs:
                wr.case(op, "%s%d%s" % (op, i, tag), source)
                wr.tensor("input", nhwc(x.astype(dt)))
                wr.qparams("input", sc, zp, *storage(signed))
                wr.tensor("output", nhwc(ints_of(y, signed)))
                wr.qparams("output", y.q_scale(), y.q_zero_point() -
                           (128 if signed else 0), *storage(signed))
                wr.param("kernel", k, k)
                wr.param("stride", s, s)
                wr.param("pad", p, p, p, p)
                wr.param("dilation", d, d)
                wr.end()
    for i, (shape, signed) in enumerate([((2, 16, 7, 7), False),
                                         ((1, 32, 5, 9), False),
                                         ((3, 8, 13, 11), True),
                                         ((1, 64, 1, 1), False),
                                         ((2, 24, 14, 14), True),
                                         ((4, 16, 2, 2), False),
                                         ((2, 32, 4, 4), True)]):
        x, sc, zp = rand_qtensor(rng, shape, signed)
        dt = np.int8 if signed else np.uint8
        for source, t in layouts(qtensor(x, sc, zp, signed)):
            y = F.adaptive_avg_pool2d(t, 1)
            wr.case("gavgpool", "gavgpool%d" % i, source)
            wr.tensor("input", nhwc(x.astype(dt)))
            wr.qparams("input", sc, zp, *storage(signed))
            wr.tensor("output", nhwc(ints_of(y, signed)))
            wr.qparams("output", y.q_scale(), y.q_zero_point() -
                       (128 if signed else 0), *storage(signed))
            wr.end()


def write_concat(wr, name, ins, dim, so, zo, signed):
    """One concat case: PyTorch's quantized cat of `ins` ((ints, scale, zp)
    NCHW) along NCHW `dim` to (so, zo); the axis parameter (NHWC) is written
    unless it is the channel axis (the test's default)."""
    zo_t = zo + 128 if signed else zo
    y = torch.ops.quantized.cat(
        [qtensor(x, s, z, signed) for x, s, z in ins], dim, so, zo_t)
    dt = np.int8 if signed else np.uint8
    wr.case("concat", name, "torch")
    if dim != 1:
        wr.param("axis", {2: 1, 3: 2}[dim])
    for j, (x, s, z) in enumerate(ins):
        wr.tensor("input%d" % j, nhwc(x.astype(dt)))
        wr.qparams("input%d" % j, s, z, *storage(signed))
    wr.tensor("output", nhwc(ints_of(y, signed)))
    wr.qparams("output", so, zo, *storage(signed))
    wr.end()


def concat_cases(wr, rng):
    for i, (nin, same, signed) in enumerate([(2, False, False),
                                             (3, False, False),
                                             (2, True, False),
                                             (3, False, True)]):
        ins = []
        for j in range(nin):
            ins.append(rand_qtensor(rng, (2, int(rng.integers(1, 9)), 6, 7),
                                    signed))
        if same:
            ins = [(x, ins[0][1], ins[0][2]) for x, _, _ in ins]
            so, zo = ins[0][1], ins[0][2]
        else:
            so, zo = rand_scale(rng, 0.005, 0.2), int(
                rng.integers(*storage(signed)))
        write_concat(wr, "concat%d" % i, ins, 1, so, zo, signed)


def concat_axis_cases(wr, rng):
    """Concatenation along H and W (NCHW dims 2 and 3, NHWC axes 1 and 2):
    a nearest-upsampling skip path concatenates images, not channels."""
    for i, (dim, signed) in enumerate([(2, False), (3, True), (2, True)]):
        ins = []
        for j in range(2):
            shape = [2, 5, 4, 3]
            shape[dim] = int(rng.integers(1, 6))
            ins.append(rand_qtensor(rng, tuple(shape), signed))
        so, zo = rand_scale(rng, 0.005, 0.2), int(rng.integers(*storage(signed)))
        write_concat(wr, "concat_axis%d" % i, ins, dim, so, zo, signed)


def batch_norm_cases(wr, rng):
    """PyTorch's quantized batch norm (quint8), with and without its fused
    relu: a batch norm that follows no convolution."""
    for i, relu in enumerate([False, True, True]):
        c = int(rng.integers(1, 20))
        x, s, z = rand_qtensor(rng, (2, c, 5, 4), False)
        gamma = rng.uniform(-2, 2, c).astype(np.float32)
        beta = rng.uniform(-1, 1, c).astype(np.float32)
        mean = rng.uniform(-1, 1, c).astype(np.float32)
        var = rng.uniform(0.05, 3, c).astype(np.float32)
        eps = 1e-5
        so = rand_scale(rng, 0.005, 0.2)
        zo = int(rng.integers(0, 256))
        fn = (torch.ops.quantized.batch_norm2d_relu if relu
              else torch.ops.quantized.batch_norm2d)
        y = fn(qtensor(x, s, z, False), torch.from_numpy(gamma),
               torch.from_numpy(beta), torch.from_numpy(mean),
               torch.from_numpy(var), eps, so, zo)
        wr.case("batchnorm", "batchnorm%d" % i, "torch")
        wr.param("act", 1 if relu else 0)
        wr.fparam("eps", eps)
        wr.tensor("input", nhwc(x.astype(np.uint8)))
        wr.qparams("input", s, z, 0, 255)
        for role, v in (("gamma", gamma), ("beta", beta), ("mean", mean),
                        ("var", var)):
            wr.tensor(role, v)
        wr.tensor("output", nhwc(ints_of(y, False)))
        wr.qparams("output", so, zo, 0, 255)
        wr.end()


def quantize_cases(wr, rng):
    for i, (signed, scale, zp) in enumerate([(False, 0.1, 3), (True, 0.1, -5),
                                             (False, 0.0372, 128),
                                             (True, 0.25, 0), (False, 3e-3, 0),
                                             (True, 0.0123, 17)]):
        scale = f32(scale)
        qmin, qmax = storage(signed)
        # Random values plus values at and next to the rounding ties. No
        # value with |x / scale| >= 2^63: PyTorch converts it to int64 with
        # undefined behaviour (x86 gives INT64_MIN, so 1e30 quantizes to
        # qmin); the reference saturates instead (1e30 -> qmax).
        ties = ((np.arange(qmin - zp - 4, qmax - zp + 4) + 0.5) *
                np.float64(scale)).astype(np.float32)
        x = np.concatenate([
            (rng.standard_normal(2000) * scale * 60).astype(np.float32), ties,
            np.nextafter(ties, np.float32(np.inf)),
            np.nextafter(ties, np.float32(-np.inf)),
            np.array([0.0, -0.0, 1e10, -1e10], np.float32)]).astype(np.float32)
        q = torch.quantize_per_tensor(torch.from_numpy(x), float(scale), zp,
                                      torch.qint8 if signed else torch.quint8)
        rq = q.int_repr().numpy()
        wr.case("quantize", "quantize%d" % i, "torch")
        wr.tensor("input", x)
        wr.tensor("output", rq)
        wr.qparams("output", scale, zp, qmin, qmax)
        wr.end()
        wr.case("dequantize", "dequantize%d" % i, "torch")
        wr.tensor("input", rq)
        wr.qparams("input", scale, zp, qmin, qmax)
        wr.tensor("output", q.dequantize().numpy().astype(np.float32))
        wr.end()


def binary_cases(wr, rng, family, prefix, configs, real_of, op, op_relu):
    """Random binary cases of PyTorch's `op` / `op_relu` for configs of
    (lhs shape, rhs shape, relu, signed); real_of(a, b) is the real result
    the output parameters are picked for (a, b: real operands)."""
    for i, (sa_shape, sb_shape, relu, signed) in enumerate(configs):
        a, sa, za = rand_qtensor(rng, sa_shape, signed)
        b, sb, zb = rand_qtensor(rng, sb_shape, signed)
        real = real_of((a - za) * float(sa), (b - zb) * float(sb))
        so, zo = pick_output_params(rng, real, signed)
        zo_t = zo + 128 if signed else zo
        y = (op_relu if relu else op)(qtensor(a, sa, za, signed),
                                      qtensor(b, sb, zb, signed), so, zo_t)
        write_binary(wr, family, "%s%d" % (prefix, i), signed, relu,
                     (a, sa, za), (b, sb, zb), (y, so, zo))


def mul_cases(wr, rng):
    """quantized::mul / mul_relu: same shapes, a squeeze-excitation scale
    [N, C, 1, 1], a scalar [1, 1, 1, 1]; u8 and i8."""
    binary_cases(wr, rng, "mul", "mul",
                 [((2, 16, 12, 12), (2, 16, 12, 12), False, False),
                  ((2, 16, 12, 12), (2, 16, 1, 1), False, False),
                  ((2, 16, 12, 12), (2, 16, 1, 1), True, False),
                  ((1, 24, 7, 7), (1, 24, 1, 1), False, True),
                  ((1, 8, 5, 5), (1, 1, 1, 1), True, True),
                  ((1, 8, 5, 5), (1, 8, 5, 5), False, True)],
                 lambda a, b: a * b, torch.ops.quantized.mul,
                 torch.ops.quantized.mul_relu)


def broadcast_add_cases(wr, rng):
    """quantized::add with a broadcast operand (either side)."""
    binary_cases(wr, rng, "add", "add_broadcast",
                 [((1, 16, 9, 9), (1, 16, 1, 1), False, False),
                  ((1, 1, 1, 16), (1, 16, 9, 1), True, True)],
                 lambda a, b: a + b, torch.ops.quantized.add,
                 torch.ops.quantized.add_relu)


# qnt.unary's functions (dialects/Qnt/IR/QntEnums.td, Qnt_UnaryFn).
UNARY_FN = {"sigmoid": 0, "tanh": 1, "hard_sigmoid": 2, "hard_swish": 3,
            "silu": 4, "gelu": 5, "gelu_tanh": 6, "leaky_relu": 7, "elu": 8}


def unary_cases(wr, rng):
    """Element-wise activations on quantized tensors, which the compiler
    runs as lookup tables: PyTorch's quantized kernels (fixed output
    parameters for sigmoid, tanh and hardsigmoid; gelu keeps the input's),
    and for SiLU, which has none, float32 silu of the dequantized input
    quantized again (what PyTorch runs between dequantize and quantize)."""
    F = torch.nn.functional
    fixed = {"sigmoid": (1.0 / 256, 0), "hard_sigmoid": (1.0 / 256, 0),
             "tanh": (2.0 / 256, 128)}
    for i, (name, signed, alpha) in enumerate([
            ("sigmoid", False, 0), ("sigmoid", True, 0), ("tanh", False, 0),
            ("tanh", True, 0), ("hard_sigmoid", False, 1.0 / 6),
            ("hard_swish", False, 0), ("hard_swish", True, 0),
            ("leaky_relu", False, 0.01), ("leaky_relu", True, 0.2),
            ("elu", False, 1.0), ("gelu", False, 0), ("gelu_tanh", True, 0),
            ("silu", False, 0), ("silu", True, 0)]):
        x, sx, zx = rand_qtensor(rng, (1, 16, 8, 8), signed)
        sx = rand_scale(rng, 0.01, 0.08)
        xq = qtensor(x, sx, zx, signed)
        real = (x - zx) * float(sx)
        source = "torch"
        if name in fixed:
            so, zo_t = fixed[name]
            so = f32(so)
            y = {"sigmoid": torch.sigmoid, "tanh": torch.tanh,
                 "hard_sigmoid": F.hardsigmoid}[name](xq)
            assert abs(y.q_scale() - so) == 0 and y.q_zero_point() == zo_t
        elif name in ("gelu", "gelu_tanh"):
            so, zo_t = f32(sx), zx + 128 if signed else zx
            y = F.gelu(xq, approximate="tanh" if name == "gelu_tanh"
                       else "none")
        else:
            ref = {"hard_swish": F.hardswish,
                   "leaky_relu": lambda t: F.leaky_relu(t, alpha),
                   "elu": lambda t: F.elu(t, alpha),
                   "silu": F.silu}[name](torch.from_numpy(
                       real.astype(np.float32)))
            so, zo = pick_output_params(rng, ref.numpy(), signed)
            zo_t = zo + 128 if signed else zo
            if name == "hard_swish":
                y = torch.ops.quantized.hardswish(xq, so, zo_t)
            elif name == "leaky_relu":
                y = torch.ops.quantized.leaky_relu(xq, alpha, False, so, zo_t)
            elif name == "elu":
                y = torch.ops.quantized.elu(xq, so, zo_t, alpha)
            else:
                source = "torch-float"
                y = torch.quantize_per_tensor(F.silu(xq.dequantize()), so,
                                              zo_t, torch.quint8)
        zo = zo_t - 128 if signed else zo_t
        dt = np.int8 if signed else np.uint8
        wr.case("lookup", "%s%d" % (name, i), source)
        wr.tensor("input", nhwc(x.astype(dt)))
        wr.qparams("input", sx, zx, *storage(signed))
        wr.tensor("output", nhwc(ints_of(y, signed)))
        wr.qparams("output", so, zo, *storage(signed))
        wr.param("fn", UNARY_FN[name])
        wr.fparam("alpha", alpha)
        wr.fparam("beta", 0.5 if name == "hard_sigmoid" else 0.0)
        wr.end()


def onednn_isa():
    """The ISA oneDNN dispatches to (its verbose header line)."""
    import subprocess
    import sys
    code = ("import torch; torch.backends.quantized.engine='onednn';"
            "x=torch.quantize_per_tensor(torch.rand(1,4,4,4),0.1,0,"
            "torch.quint8);c=torch.ao.nn.quantized.Conv2d(4,4,1);c(x)")
    env = dict(os.environ, DNNL_VERBOSE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        if ",isa:" in line:
            return line.split(",isa:")[1].strip()
    return "unknown"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    wr = Writer()
    rng = np.random.default_rng(20240613)
    torch.manual_seed(0)
    conv_cases(wr, rng)
    matmul_cases(wr, rng)
    add_cases(wr, rng)
    pool_cases(wr, rng)
    concat_cases(wr, rng)
    quantize_cases(wr, rng)
    mul_cases(wr, rng)
    broadcast_add_cases(wr, rng)
    unary_cases(wr, rng)
    concat_axis_cases(wr, rng)
    batch_norm_cases(wr, rng)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "tensors.bin"), "wb") as f:
        f.write(bytes(wr.blob))
    with open(os.path.join(args.out, "goldens.txt"), "w") as f:
        f.write("# Generated by scripts/gen_reference_goldens.py; do not "
                "edit.\n")
        f.write("# torch %s, engine onednn, oneDNN ISA: %s\n" % (
            torch.__version__, onednn_isa()))
        f.write("\n".join(wr.lines) + "\n")
    print("wrote %d bytes of tensors, cases: %s" % (len(wr.blob), wr.counts))


if __name__ == "__main__":
    main()
