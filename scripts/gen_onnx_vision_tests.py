#!/usr/bin/python3
"""Writes the test models of test/Import/Inputs/vision: ConvTranspose, 1-D
convolutions and pools, DepthToSpace / SpaceToDepth.

Float models (test/Import/vision.mlir: imported, compiled, run, within 1e-4
of the output's magnitude), each <name>.onnx with <name>.input.npy and
<name>.output.npy:
  conv_transpose     PyTorch nn.ConvTranspose2d / 1d (strides, padding,
                     output_padding, dilation, groups, depthwise, no bias,
                     padding beyond dilation * (kernel - 1)), opset 13
  conv_transpose_attrs  onnx.helper ConvTranspose nodes (opset 11) with the
                     forms PyTorch never writes: auto_pad SAME_UPPER /
                     SAME_LOWER / VALID, output_shape (spatial and whole,
                     smaller and larger than the natural size); outputs from
                     the NumPy reference below (ONNX's reference semantics,
                     which ONNX Runtime 1.30 and ONNX's node tests share)
  audio1d            a PyTorch Conv1d / MaxPool1d / AvgPool1d /
                     ConvTranspose1d / adaptive pools model on [N, C, L]
  pools1d            onnx.helper 1-D GlobalMaxPool / GlobalAveragePool,
                     MaxPool (auto_pad SAME_UPPER), AveragePool
                     (count_include_pad, asymmetric pads), Conv (auto_pad
                     SAME_LOWER), outputs from NumPy
  pixel_shuffle      PyTorch PixelShuffle / PixelUnshuffle around convs
  depth_space        onnx.helper DepthToSpace (DCR and CRD, blocksize 2 and
                     3) and SpaceToDepth, outputs from NumPy (the ONNX spec's
                     reshape / transpose formulas)
int8 (test/Integration/Quantize/vision.mlir): the float models above
compiled with calibration data (<name>.calib.npy, 4 random samples), and
  qdq_conv_transpose a QDQ model (uint8 activations, int8 weights per output
                     channel, axis 1) of ConvTranspose(stride 2,
                     output_padding 1) + ReLU and a depthwise
                     ConvTranspose; its output is PyTorch 1.13's quantized
                     ConvTranspose2d (engine qnnpack: onednn refuses
                     per-channel weights and output_padding) with the same
                     scales and zero points.

Usage: /usr/bin/python3 scripts/gen_onnx_vision_tests.py [out_dir]
(Debian python3-torch 1.13 and python3-onnx.)
"""
import os
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from torch import nn

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "test", "Import",
    "Inputs", "vision")
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
rng = np.random.default_rng(0)


def save_io(name, x, y, calib=True):
    np.save(os.path.join(out, name + ".input.npy"), x.astype(np.float32))
    np.save(os.path.join(out, name + ".output.npy"), y.astype(np.float32))
    if calib:
        c = rng.standard_normal((4,) + x.shape[1:]).astype(np.float32)
        np.save(os.path.join(out, name + ".calib.npy"), c)


def export(model, shape, name):
    model.eval()
    x = torch.from_numpy(rng.standard_normal(shape).astype(np.float32))
    torch.onnx.export(model, x, os.path.join(out, name + ".onnx"),
                      opset_version=13, input_names=["input"],
                      output_names=["output"])
    with torch.no_grad():
        save_io(name, x.numpy(), model(x).numpy())


def randomize_bn(model):
    """BatchNorm statistics that are not the identity, so that folding them
    is tested."""
    for m in model.modules():
        if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.2, 0.2)


def conv_transpose_ref(x, w, b, strides, dilations, begin, end, out_pad,
                       group=1):
    """ONNX ConvTranspose on NCHW `x`, weight [C, M / group, kh, kw]: the
    full output (every input pixel scatters its kernel), then `begin` /
    `end` cropped per spatial dimension (negative: zeros added)."""
    n, c, h, wd = x.shape
    _, cog, kh, kw = w.shape
    cig = c // group
    full = [(h - 1) * strides[0] + dilations[0] * (kh - 1) + 1 + out_pad[0],
            (wd - 1) * strides[1] + dilations[1] * (kw - 1) + 1 + out_pad[1]]
    y = np.zeros((n, cog * group, full[0], full[1]))
    for g in range(group):
        xs = x[:, g * cig:(g + 1) * cig].astype(np.float64)
        ws = w[g * cig:(g + 1) * cig].astype(np.float64)
        for a in range(kh):
            for e in range(kw):
                contrib = np.einsum("nchw,cm->nmhw", xs, ws[:, :, a, e])
                r0, c0 = a * dilations[0], e * dilations[1]
                y[:, g * cog:(g + 1) * cog,
                  r0:r0 + (h - 1) * strides[0] + 1:strides[0],
                  c0:c0 + (wd - 1) * strides[1] + 1:strides[1]] += contrib
    for axis, (b0, e0) in ((2, (begin[0], end[0])), (3, (begin[1], end[1]))):
        pad = [(0, 0)] * 4
        pad[axis] = (max(0, -b0), max(0, -e0))
        y = np.pad(y, pad)
        size = y.shape[axis]
        y = np.take(y, range(max(0, b0), size - max(0, e0)), axis=axis)
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


class ConvTransposes(nn.Module):
    """nn.ConvTranspose2d in the forms decoders use (U-Net, FCN heads,
    DCGAN: stride 2 with output_padding, 4x4 stride 2 padding 1, depthwise
    upsampling), and ConvTranspose1d on the image's rows."""

    def __init__(self):
        super().__init__()
        self.t = nn.ModuleList([
            nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1),
            nn.ConvTranspose2d(4, 4, (3, 2), stride=(2, 3), padding=(0, 1),
                               dilation=(2, 1), groups=2, bias=False),
            nn.ConvTranspose2d(4, 4, 4, stride=2, padding=1, groups=4),
            nn.ConvTranspose2d(4, 2, 1),
            nn.ConvTranspose2d(4, 2, 2, stride=2, padding=2),
            nn.ConvTranspose2d(4, 2, 3, stride=3, dilation=2,
                               output_padding=(1, 0)),
        ])
        self.t1d = nn.ConvTranspose1d(4, 3, 3, stride=2, padding=1,
                                      output_padding=1)

    def forward(self, x):  # x: [1, 4, 4, 5]
        ys = [t(x).flatten(1) for t in self.t]
        ys.append(self.t1d(x[:, :, 0]).flatten(1))
        return torch.cat(ys, 1)


def conv_transpose_attrs():
    name = "conv_transpose_attrs"
    x = rng.standard_normal((1, 2, 4, 5)).astype(np.float32)
    nodes, inits, refs = [], [], []
    # (attributes, weight shape, group, begin/end of the crop per axis).
    cases = [
        (dict(auto_pad="SAME_UPPER", strides=[2, 2]), (2, 3, 3, 3), 1),
        (dict(auto_pad="SAME_LOWER", strides=[2, 3]), (2, 2, 3, 2), 1),
        (dict(auto_pad="SAME_UPPER", strides=[2, 2]), (2, 1, 1, 1), 2),
        (dict(auto_pad="VALID", strides=[2, 1], output_padding=[1, 0]),
         (2, 2, 3, 3), 1),
        (dict(output_shape=[9, 12], strides=[2, 2]), (2, 3, 3, 3), 1),
        (dict(output_shape=[10, 12], strides=[2, 2], dilations=[1, 2]),
         (2, 2, 3, 2), 2),
        (dict(output_shape=[8, 9], strides=[2, 2], auto_pad="SAME_UPPER"),
         (2, 3, 3, 3), 1),
        (dict(pads=[0, 2, 1, 0], strides=[1, 2], kernel_shape=[2, 3]),
         (2, 3, 2, 3), 1),
    ]
    for i, (attrs, wshape, group) in enumerate(cases):
        w = rng.standard_normal(wshape).astype(np.float32)
        b = rng.standard_normal(wshape[1] * group).astype(np.float32)
        inits += [numpy_helper.from_array(w, f"w{i}"),
                  numpy_helper.from_array(b, f"b{i}")]
        nodes.append(helper.make_node("ConvTranspose", ["x", f"w{i}", f"b{i}"],
                                      [f"t{i}"], group=group, **attrs))
        nodes.append(helper.make_node("Flatten", [f"t{i}"], [f"f{i}"]))
        s = attrs.get("strides", [1, 1])
        d = attrs.get("dilations", [1, 1])
        op = attrs.get("output_padding", [0, 0])
        k = wshape[2:]
        full = [(x.shape[2 + j] - 1) * s[j] + op[j] + (k[j] - 1) * d[j] + 1
                for j in range(2)]
        auto = attrs.get("auto_pad", "NOTSET")
        target = None
        if "output_shape" in attrs:
            target = attrs["output_shape"][-2:]
        elif auto in ("SAME_UPPER", "SAME_LOWER"):
            target = [x.shape[2 + j] * s[j] for j in range(2)]
        if target is not None:
            total = [full[j] - target[j] for j in range(2)]
            if "output_shape" not in attrs:
                # SAME never adds zeros (ONNX Runtime): a kernel smaller
                # than the stride gives less than in * stride.
                total = [max(t, 0) for t in total]
            if auto == "SAME_UPPER":
                begin = [t // 2 for t in total]
            else:
                begin = [t - t // 2 for t in total]
            end = [total[j] - begin[j] for j in range(2)]
        elif auto == "VALID":
            begin, end = [0, 0], [0, 0]
        else:
            p = attrs.get("pads", [0, 0, 0, 0])
            begin, end = p[:2], p[2:]
        refs.append(conv_transpose_ref(x, w, b, s, d, begin, end, op, group)
                    .reshape(1, -1))
    nodes.append(helper.make_node("Concat", [f"f{i}" for i in range(len(cases))],
                                  ["y"], axis=1))
    y = np.concatenate(refs, 1)
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    save_io(name, x, y)


class Audio1d(nn.Module):
    """A small 1-D audio / sequence CNN: strided, dilated, grouped Conv1d
    with BatchNorm and ReLU, MaxPool1d (padding, ceil_mode), AvgPool1d
    (count_include_pad both ways, ceil_mode), a ConvTranspose1d upsampler and
    adaptive (global) pools."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(4, 8, 5, stride=2, padding=2)
        self.b1 = nn.BatchNorm1d(8)
        self.c2 = nn.Conv1d(8, 8, 3, dilation=2, padding=2, groups=2)
        self.c3 = nn.Conv1d(8, 8, 3, padding=1, groups=8)
        self.up = nn.ConvTranspose1d(8, 4, 4, stride=2, padding=1)

    def forward(self, x):  # x: [1, 4, 32]
        y = torch.relu(self.b1(self.c1(x)))
        y = nn.functional.max_pool1d(y, 3, 2, padding=1)
        y = torch.relu(self.c2(y))
        a = nn.functional.avg_pool1d(y, 3, 2, padding=1)
        b = nn.functional.avg_pool1d(y, 3, 2, ceil_mode=True,
                                     count_include_pad=False)
        c = nn.functional.max_pool1d(self.c3(y), 2, 2, ceil_mode=True)
        u = self.up(y)
        g = nn.functional.adaptive_avg_pool1d(u, 1)
        m = nn.functional.adaptive_max_pool1d(y, 1)
        return torch.cat([a.flatten(1), b.flatten(1), c.flatten(1),
                          u.flatten(1), g.flatten(1), m.flatten(1)], 1)


def pools1d():
    """1-D forms PyTorch does not write: GlobalMaxPool / GlobalAveragePool
    on [N, C, L], MaxPool with auto_pad SAME_UPPER, AveragePool with
    count_include_pad and asymmetric pads, Conv with auto_pad SAME_LOWER;
    outputs from NumPy."""
    name = "pools1d"
    x = rng.standard_normal((1, 3, 10)).astype(np.float32)
    w = rng.standard_normal((2, 3, 4)).astype(np.float32)
    nodes = [
        helper.make_node("GlobalMaxPool", ["x"], ["p0"]),
        helper.make_node("GlobalAveragePool", ["x"], ["p1"]),
        helper.make_node("MaxPool", ["x"], ["p2"], kernel_shape=[3],
                         strides=[2], auto_pad="SAME_UPPER"),
        helper.make_node("AveragePool", ["x"], ["p3"], kernel_shape=[3],
                         pads=[1, 2], count_include_pad=1),
        helper.make_node("Conv", ["x", "w"], ["p4"], auto_pad="SAME_LOWER"),
    ]
    # SAME_UPPER, k3 s2 on 10: 5 outputs, total padding 1, at the end.
    xm = np.pad(x, ((0, 0), (0, 0), (0, 1)), constant_values=-np.inf)
    # count_include_pad: zeros count.
    xa = np.pad(x, ((0, 0), (0, 0), (1, 2)))
    # SAME_LOWER, k4 s1: total padding 3, 2 at the beginning.
    xc = np.pad(x, ((0, 0), (0, 0), (2, 1))).astype(np.float64)
    refs = [x.max(2, keepdims=True), x.mean(2, keepdims=True),
            np.stack([xm[:, :, 2 * i:2 * i + 3].max(2) for i in range(5)], 2),
            np.stack([xa[:, :, i:i + 3].mean(2) for i in range(11)], 2),
            np.stack([np.einsum("ncl,ocl->no", xc[:, :, i:i + 4], w)
                      for i in range(10)], 2)]
    for i in range(5):
        nodes.append(helper.make_node("Flatten", [f"p{i}"], [f"f{i}"]))
    nodes.append(helper.make_node("Concat", [f"f{i}" for i in range(5)], ["y"],
                                  axis=1))
    y = np.concatenate([r.reshape(1, -1) for r in refs], 1)
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)],
        [numpy_helper.from_array(w, "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    save_io(name, x, y)


class PixelShuffles(nn.Module):
    """Super-resolution style: conv -> PixelShuffle (DepthToSpace CRD) ->
    conv, and PixelUnshuffle (SpaceToDepth)."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 12, 3, padding=1)
        self.c2 = nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x):  # x: [1, 3, 4, 6]
        s = nn.functional.pixel_shuffle(torch.relu(self.c1(x)), 2)
        y = self.c2(s)
        u = nn.functional.pixel_unshuffle(y, 2)
        return torch.cat([s.flatten(1), u.flatten(1)], 1)


def depth_to_space(x, b, mode):
    n, c, h, w = x.shape
    if mode == "DCR":
        t = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        t = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return t.reshape(n, c // (b * b), h * b, w * b)


def space_to_depth(x, b):
    n, c, h, w = x.shape
    t = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return t.reshape(n, c * b * b, h // b, w // b)


def depth_space():
    name = "depth_space"
    x = rng.standard_normal((1, 9, 6, 6)).astype(np.float32)
    nodes = [
        helper.make_node("DepthToSpace", ["x"], ["d0"], blocksize=3),
        helper.make_node("DepthToSpace", ["x"], ["d1"], blocksize=3,
                         mode="CRD"),
        helper.make_node("SpaceToDepth", ["x"], ["d2"], blocksize=2),
        helper.make_node("SpaceToDepth", ["x"], ["s3"], blocksize=3),
        helper.make_node("DepthToSpace", ["s3"], ["d3"], blocksize=3,
                         mode="CRD"),
    ]
    refs = [depth_to_space(x, 3, "DCR"), depth_to_space(x, 3, "CRD"),
            space_to_depth(x, 2),
            depth_to_space(space_to_depth(x, 3), 3, "CRD")]
    for i in range(4):
        nodes.append(helper.make_node("Flatten", [f"d{i}"], [f"f{i}"]))
    nodes.append(helper.make_node("Concat", [f"f{i}" for i in range(4)], ["y"],
                                  axis=1))
    y = np.concatenate([r.reshape(1, -1) for r in refs], 1)
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    save_io(name, x, y)


def qdq_conv_transpose():
    """x -> Q/DQ -> ConvTranspose(4 -> 6, k3, stride 2, pad 1,
    output_padding 1) -> Relu -> Q/DQ -> ConvTranspose(depthwise
    6, k4, stride 2, pad 1) -> Q/DQ: uint8 activations, int8 weights (per
    output channel, axis 1; per tensor for the depthwise one), float biases (quantized to int32 by both
    sides); the output is PyTorch's quantized model on the same grid."""
    import torch.ao.nn.quantized as nnq
    torch.backends.quantized.engine = "qnnpack"
    name = "qdq_conv_transpose"
    x = rng.standard_normal((1, 4, 3, 4)).astype(np.float32)
    sx, zx, s1, z1, s2, z2 = 0.025, 128, 0.04, 0, 0.03, 120
    w1 = (rng.standard_normal((4, 6, 3, 3)) * 0.3).astype(np.float32)
    w2 = (rng.standard_normal((6, 1, 4, 4)) * 0.3).astype(np.float32)
    b1 = rng.standard_normal(6).astype(np.float32) * 0.1
    b2 = rng.standard_normal(6).astype(np.float32) * 0.1

    def per_channel(w):
        scale = np.abs(w).max(axis=(0, 2, 3)) / 127
        q = np.clip(np.round(w / scale.reshape(1, -1, 1, 1)), -127, 127)
        return scale.astype(np.float32), q.astype(np.int8)

    ws1, wq1 = per_channel(w1)
    # Depthwise: axis 1 has one value (Cout / group), so per tensor.
    ws2 = np.float32(np.abs(w2).max() / 127)
    wq2 = np.clip(np.round(w2 / ws2), -127, 127).astype(np.int8)
    # PyTorch: the same integer weights and scales.
    t1 = nnq.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1)
    t1.set_weight_bias(torch._make_per_channel_quantized_tensor(
        torch.from_numpy(wq1), torch.from_numpy(ws1.astype(np.float64)),
        torch.zeros(6, dtype=torch.long), 1), torch.from_numpy(b1))
    t1.scale, t1.zero_point = s1, z1
    t2 = nnq.ConvTranspose2d(6, 6, 4, stride=2, padding=1, groups=6)
    t2.set_weight_bias(torch._make_per_tensor_quantized_tensor(
        torch.from_numpy(wq2), float(ws2), 0), torch.from_numpy(b2))
    t2.scale, t2.zero_point = s2, z2
    xq = torch.quantize_per_tensor(torch.from_numpy(x), sx, zx, torch.quint8)
    # The ONNX graph's ReLU before a uint8 zero point 0: PyTorch's
    # requantization clamps at 0 already.
    y1 = t1(xq)
    y = t2(y1).dequantize().numpy()

    def const(name, value, dtype):
        return numpy_helper.from_array(np.asarray(value, dtype=dtype), name)

    inits = [
        const("sx", sx, np.float32), const("zx", zx, np.uint8),
        const("s1", s1, np.float32), const("z1", z1, np.uint8),
        const("s2", s2, np.float32), const("z2", z2, np.uint8),
        const("w1q", wq1, np.int8), const("w1s", ws1, np.float32),
        const("w1z", np.zeros(6), np.int8), const("b1", b1, np.float32),
        const("w2q", wq2, np.int8), const("w2s", ws2, np.float32),
        const("w2z", 0, np.int8), const("b2", b2, np.float32),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
        helper.make_node("DequantizeLinear", ["w1q", "w1s", "w1z"], ["w1"],
                         axis=1),
        helper.make_node("ConvTranspose", ["xd", "w1", "b1"], ["t1"],
                         strides=[2, 2], pads=[1, 1, 1, 1],
                         output_padding=[1, 1]),
        helper.make_node("Relu", ["t1"], ["r1"]),
        helper.make_node("QuantizeLinear", ["r1", "s1", "z1"], ["r1q"]),
        helper.make_node("DequantizeLinear", ["r1q", "s1", "z1"], ["r1d"]),
        helper.make_node("DequantizeLinear", ["w2q", "w2s", "w2z"], ["w2"]),
        helper.make_node("ConvTranspose", ["r1d", "w2", "b2"], ["t2"],
                         strides=[2, 2], pads=[1, 1, 1, 1], group=6),
        helper.make_node("QuantizeLinear", ["t2", "s2", "z2"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "s2", "z2"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    save_io(name, x, y, calib=False)


if __name__ == "__main__":
    m = ConvTransposes()
    export(m, (1, 4, 4, 5), "conv_transpose")
    conv_transpose_attrs()
    m = Audio1d()
    randomize_bn(m)
    export(m, (1, 4, 32), "audio1d")
    export(PixelShuffles(), (1, 3, 4, 6), "pixel_shuffle")
    depth_space()
    qdq_conv_transpose()
    pools1d()
