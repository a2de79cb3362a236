#!/usr/bin/python3
"""Writes the per-category ONNX op test models of test/Import/Inputs/ops.

Each model is a small PyTorch module exported as a user would
(torch.onnx.export, opset 13 unless noted), or an onnx.helper graph for
forms PyTorch does not emit; its input (NCHW float32, seeded) and the output
PyTorch / NumPy computes are saved next to it as <name>.input.npy and
<name>.output.npy. test/Import/ops.mlir imports, compiles and runs each one
and compares with 1e-4 of the output's magnitude.

Usage: /usr/bin/python3 scripts/gen_onnx_op_tests.py [out_dir]
(Debian python3-torch 1.13 and python3-onnx.)
"""
import os
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper
from torch import nn

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "test", "Import",
    "Inputs", "ops")
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
rng = np.random.default_rng(0)


def save_io(name, x, y):
    np.save(os.path.join(out, name + ".input.npy"), x.astype(np.float32))
    np.save(os.path.join(out, name + ".output.npy"), y.astype(np.float32))


def export(model, shape, name, opset=13):
    model.eval()
    x = torch.from_numpy(rng.standard_normal(shape).astype(np.float32))
    try:
        torch.onnx.export(model, x, os.path.join(out, name + ".onnx"),
                          opset_version=opset, input_names=["input"],
                          output_names=["output"])
    except (torch.onnx.errors.CheckerError, onnx.checker.ValidationError):
        # Written, but the checker refuses what PyTorch 1.13 writes for
        # nn.LayerNorm without affine at opset 17: an empty Scale input.
        # Users get this file, so the importer reads it.
        pass
    with torch.no_grad():
        save_io(name, x.numpy(), model(x).numpy())


class Pads(nn.Module):
    """Reflect / edge / constant pads; a zero pad in front of a conv (folds
    into its padding) and AvgPool2d with padding (count_include_pad=True:
    exported as Pad + AveragePool)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, 3)
        self.pool = nn.AvgPool2d(3, stride=2, padding=1)

    def forward(self, x):
        a = F.pad(x, (1, 2, 1, 0), mode="reflect")
        b = F.pad(x, (2, 1, 0, 1), mode="replicate")
        c = F.pad(x, (1, 2, 2, 0), value=0.5)
        d = self.conv(F.pad(x, (1, 1, 1, 1)))
        e = self.pool(x)
        return torch.cat([a.flatten(1), b.flatten(1), c.flatten(1),
                          d.flatten(1), e.flatten(1)], 1)


class CeilPools(nn.Module):
    """MaxPool / AvgPool with ceil_mode (SqueezeNet, GoogLeNet)."""

    def forward(self, x):
        a = F.max_pool2d(x, 3, 2, ceil_mode=True)
        b = F.avg_pool2d(x, 3, 2, ceil_mode=True, count_include_pad=False)
        c = F.avg_pool2d(x, 2, 2, padding=1, ceil_mode=True)
        d = F.max_pool2d(x, 2, 2, padding=1, ceil_mode=True)
        return torch.cat([a.flatten(1), b.flatten(1), c.flatten(1),
                          d.flatten(1)], 1)


class Shuffle(nn.Module):
    """ShuffleNet v2: chunk, channel shuffle (view / transpose / view),
    strided and plain slices, Gather of one and of several channels,
    x.view(x.size(0), -1) (a shape sub-graph)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 1)

    def forward(self, x):
        a, b = x.chunk(2, dim=1)
        y = torch.cat([a, self.conv(b)], 1)
        n, c, h, w = y.shape
        y = y.view(n, 2, c // 2, h, w).transpose(1, 2).reshape(n, -1, h, w)
        s = y[:, 1:7, ::2, 1::3]
        g = y[:, 3] + y[:, [0, 5, 2]].sum(1)
        t = y.permute(0, 2, 3, 1)
        return torch.cat([s.reshape(n, -1), g.view(g.size(0), -1),
                          t.reshape(n, -1),
                          torch.split(x, [3, 5], dim=1)[1].flatten(1)], 1)


class Reductions(nn.Module):
    """ReduceMean over H, W (MNASNet's x.mean([2, 3])) and other axes,
    ReduceMax / Min / Sum, Squeeze / Unsqueeze."""

    def forward(self, x):
        a = x.mean([2, 3])
        b = x.mean(1, keepdim=True).flatten(1)
        c = x.amax(dim=(2, 3)).unsqueeze(-1).squeeze(-1)
        d = x.amin(dim=1).flatten(1)
        e = x.sum(-1).flatten(1)
        return torch.cat([a, b, c, d, e], 1)


class Activations(nn.Module):
    """Sigmoid, HardSigmoid, HardSwish and SiLU as PyTorch 1.13 exports
    them at opset 13, Tanh, LeakyReLU, ELU, Softplus, per-channel PReLU,
    ReLU6, and a squeeze-excitation Mul."""

    def __init__(self):
        super().__init__()
        self.prelu = nn.PReLU(6)
        with torch.no_grad():
            self.prelu.weight.copy_(torch.linspace(-0.5, 0.5, 6))

    def forward(self, x):
        x = x * 4
        se = torch.sigmoid(x.mean([2, 3], keepdim=True))
        parts = [torch.sigmoid(x), F.hardsigmoid(x), F.hardswish(x),
                 F.silu(x), torch.tanh(x), F.leaky_relu(x, 0.1), F.elu(x),
                 F.softplus(x), self.prelu(x), F.relu6(x), x * se]
        return torch.cat([p.flatten(1) for p in parts], 1)


class Arithmetic(nn.Module):
    """Sub / Mul / Div / Pow / Min / Max with broadcasting between
    activations and constants, Softmax and LogSoftmax."""

    def forward(self, x):
        y = x[:, :, :1, :]  # [N, C, 1, W] broadcast along H
        a = x * y - 1.5
        b = x / (y.abs() + 1.0)
        c = torch.minimum(x, y) + torch.maximum(x, 0.25 * y)
        d = x ** 2 - 2.0 / (x.abs() + 1.0)
        e = torch.softmax(x, dim=1)
        f = torch.log_softmax(x.flatten(1), dim=-1)
        return torch.cat([a.flatten(1), b.flatten(1), c.flatten(1),
                          d.flatten(1), e.flatten(1), f], 1)


class Resizes(nn.Module):
    """nn.Upsample nearest (scale 2), bilinear to a size (align_corners
    False and True, LR-ASPP / DeepLab's F.interpolate), nearest to a
    non-integer size."""

    def forward(self, x):
        a = F.interpolate(x, scale_factor=2, mode="nearest")
        b = F.interpolate(x, size=(11, 13), mode="bilinear",
                          align_corners=False)
        c = F.interpolate(x, size=(9, 7), mode="bilinear", align_corners=True)
        d = F.interpolate(x, size=(9, 14), mode="nearest")
        e = F.interpolate(x, size=x.shape[-2:], mode="bilinear",
                          align_corners=False)
        return torch.cat([a.flatten(1), b.flatten(1), c.flatten(1),
                          d.flatten(1), e.flatten(1)], 1)


class Gelus(nn.Module):
    """GELU as PyTorch 1.13 exports nn.GELU (Div, Erf, Add, Mul, Mul) and
    nn.GELU(approximate='tanh') (Mul, Mul, Add, Tanh, ...), a GELU written
    by hand with its factors in another order, and a plain Erf."""

    def forward(self, x):
        x = x * 3
        by_hand = (x * 0.5) * (1.0 + torch.erf(x * 0.7071067811865476))
        parts = [F.gelu(x), F.gelu(x, approximate="tanh"), by_hand,
                 torch.erf(x)]
        return torch.cat([p.flatten(1) for p in parts], 1)


def helper_graphs():
    """Forms PyTorch does not export: Constant attribute forms, variadic
    Sum / Min / Max / Mean, Upsample (opset 9) with linear mode, Expand and
    Tile, and Slice with negative indices."""
    x = rng.standard_normal((1, 2, 3, 4)).astype(np.float32)
    xi = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3, 4])
    nodes = [
        helper.make_node("Constant", [], ["c1"], value_float=0.5),
        helper.make_node("Constant", [], ["c2"], value_floats=[1.0, 2.0, 3.0,
                                                               4.0]),
        helper.make_node("Constant", [], ["shape"], value_ints=[1, 2, 3, 4]),
        helper.make_node("Sum", ["x", "c1", "c2"], ["s"]),
        helper.make_node("Min", ["s", "x"], ["mn"]),
        helper.make_node("Max", ["mn", "c1"], ["mx"]),
        helper.make_node("Mean", ["mx", "x", "s"], ["me"]),
        helper.make_node("Constant", [], ["ex_shape"],
                         value_ints=[1, 2, 3, 4]),
        helper.make_node("ReduceMean", ["me"], ["rm"], axes=[2],
                         keepdims=1),
        helper.make_node("Expand", ["rm", "ex_shape"], ["ex"]),
        helper.make_node("Constant", [], ["reps"], value_ints=[1, 1, 2, 1]),
        helper.make_node("Tile", ["ex", "reps"], ["tl"]),
        helper.make_node("Constant", [], ["starts"], value_ints=[-3, 0]),
        helper.make_node("Constant", [], ["ends"], value_ints=[-1, 100]),
        helper.make_node("Constant", [], ["axes"], value_ints=[3, 2]),
        helper.make_node("Slice", ["tl", "starts", "ends", "axes"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "constants", [xi],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 6, 2])])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "constants.onnx"))
    c2 = np.array([1, 2, 3, 4], np.float32)
    s = x + 0.5 + c2
    mn = np.minimum(s, x)
    mx = np.maximum(mn, 0.5)
    me = (mx + x + s) / 3
    rm = me.mean(axis=2, keepdims=True)
    tl = np.tile(np.broadcast_to(rm, (1, 2, 3, 4)), (1, 1, 2, 1))
    save_io("constants", x, tl[:, :, :, 1:3])

    # Upsample (opset 9): nearest and linear, asymmetric coordinates.
    x = rng.standard_normal((1, 2, 3, 4)).astype(np.float32)
    scales = numpy_helper.from_array(np.array([1, 1, 2, 1.5], np.float32),
                                     "scales")
    nodes = [
        helper.make_node("Upsample", ["x", "scales"], ["a"], mode="nearest"),
        helper.make_node("Upsample", ["x", "scales"], ["b"], mode="linear"),
        helper.make_node("Concat", ["a", "b"], ["y"], axis=1),
    ]
    graph = helper.make_graph(
        nodes, "upsample", [xi],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [scales])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 9)])
    onnx.save(model, os.path.join(out, "upsample.onnx"))

    def upsample(x, mode):
        oh, ow = 6, 6
        ys, xs = np.arange(oh) / 2.0, np.arange(ow) / 1.5
        if mode == "nearest":
            return x[:, :, np.floor(ys).astype(int)][:, :, :,
                                                     np.floor(xs).astype(int)]
        y0 = np.floor(ys).astype(int)
        y1 = np.minimum(y0 + 1, 2)
        x0 = np.floor(xs).astype(int)
        x1 = np.minimum(x0 + 1, 3)
        fy = (ys - y0)[:, None]
        fx = (xs - x0)[None, :]
        g = lambda yy, xx: x[:, :, yy][:, :, :, xx]
        return ((1 - fy) * (1 - fx) * g(y0, x0) + (1 - fy) * fx * g(y0, x1) +
                fy * (1 - fx) * g(y1, x0) + fy * fx * g(y1, x1))

    save_io("upsample", x, np.concatenate(
        [upsample(x, "nearest"), upsample(x, "linear")], 1))


export(Pads(), (1, 3, 6, 7), "pads")
export(CeilPools(), (1, 3, 10, 11), "ceil_pools")
export(Shuffle(), (1, 8, 5, 6), "shuffle")
export(Reductions(), (1, 4, 5, 6), "reductions")
export(Activations(), (1, 6, 4, 5), "activations")
export(Arithmetic(), (1, 3, 4, 5), "arithmetic")
export(Resizes(), (1, 2, 5, 6), "resizes")
helper_graphs()
export(Gelus(), (1, 4, 5, 6), "gelus")


def transformers():
    """Small instances of torchvision's own ViT, Swin and ConvNeXt classes,
    so that the exports have the real models' patterns: batched MatMul of
    two activations (Q x K^T, scores x V), Softmax, LayerNorm decomposed
    into ReduceMean / Sub / Pow / Sqrt / Div, Erf GELU, the class token's
    Expand through Equal / Where, Swin's roll (Slice + Concat), its window
    padding and shifted-window masks (Mod, Range, ScatterND, ...) and
    ConvNeXt's permuted LayerNorm and layer scale."""
    from torchvision.models import swin_transformer, vision_transformer
    from torchvision.models.convnext import CNBlockConfig, ConvNeXt

    vit = vision_transformer.VisionTransformer(
        image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=16,
        mlp_dim=32, num_classes=10)
    # torchvision zero-initializes the head.
    nn.init.normal_(vit.heads.head.weight, std=0.5)
    export(vit, (1, 3, 32, 32), "vit_tiny")
    # 40 x 40 images: 10 x 10 patches, padded to 12 x 12 for 4 x 4 windows.
    swin = swin_transformer.SwinTransformer(
        patch_size=[4, 4], embed_dim=16, depths=[2, 2], num_heads=[2, 4],
        window_size=[4, 4], num_classes=10)
    export(swin, (1, 3, 40, 40), "swin_tiny")
    cnx = ConvNeXt([CNBlockConfig(16, 32, 1), CNBlockConfig(32, None, 1)],
                   num_classes=10)
    with torch.no_grad():
        for name, p in cnx.named_parameters():
            if name.endswith("layer_scale"):  # 1e-6 would hide the block
                p.fill_(1.0)
    export(cnx, (1, 3, 32, 32), "convnext_tiny")


def logic_graph():
    """Comparisons, logic, Where, Mod, Range, ScatterND and Expand on
    constants (opset 16), applied to an activation."""
    x = rng.standard_normal((1, 2, 3, 4)).astype(np.float32)
    xi = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3, 4])

    def const(name, value, dtype=np.int64):
        return helper.make_node("Constant", [], [name],
                                value=numpy_helper.from_array(
                                    np.array(value, dtype), name))

    nodes = [
        const("a", [-7, -2, 0, 5]),
        const("b", [3, -3, 4, 2]),
        const("start", 0), const("limit", 4), const("delta", 1),
        helper.make_node("Range", ["start", "limit", "delta"], ["r"]),
        helper.make_node("Mod", ["a", "b"], ["mod"]),
        helper.make_node("Mod", ["a", "b"], ["fmod"], fmod=1),
        helper.make_node("Equal", ["r", "b"], ["eq"]),
        helper.make_node("Less", ["a", "b"], ["lt"]),
        helper.make_node("Greater", ["a", "r"], ["gt"]),
        helper.make_node("LessOrEqual", ["mod", "fmod"], ["le"]),
        helper.make_node("GreaterOrEqual", ["a", "mod"], ["ge"]),
        helper.make_node("Or", ["eq", "lt"], ["or"]),
        helper.make_node("And", ["or", "ge"], ["and"]),
        helper.make_node("Xor", ["and", "gt"], ["xor"]),
        helper.make_node("Not", ["le"], ["not"]),
        helper.make_node("Where", ["xor", "mod", "fmod"], ["w1"]),
        helper.make_node("Where", ["not", "w1", "r"], ["w"]),
        # ScatterND: rows 2 and 0 of a [3, 4] zero tensor, then added to.
        const("zeros", np.zeros((3, 4)), np.float32),
        const("idx", [[2], [0]]),
        const("rows", [[1, 2, 3, 4], [5, 6, 7, 8]], np.float32),
        const("idx2", [[0, 1], [2, 3], [0, 1]]),
        const("add", [10, 20, 30], np.float32),
        helper.make_node("ScatterND", ["zeros", "idx", "rows"], ["sc"]),
        helper.make_node("ScatterND", ["sc", "idx2", "add"], ["sc2"],
                         reduction="add"),
        helper.make_node("Cast", ["w"], ["wf"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["sc2", "wf"], ["m"]),
        const("shape", [1, 2, 3, 4]),
        helper.make_node("Expand", ["m", "shape"], ["ex"]),
        helper.make_node("Add", ["x", "ex"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "logic", [xi],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 3, 4])])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 16)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "logic.onnx"))
    a, b, r = np.array([-7, -2, 0, 5]), np.array([3, -3, 4, 2]), np.arange(4)
    mod, fmod = np.mod(a, b), np.fmod(a, b)
    xor = ((r == b) | (a < b)) & (a >= mod) ^ (a > r)
    w = np.where(~(mod <= fmod), np.where(xor, mod, fmod), r)
    sc = np.zeros((3, 4), np.float32)
    sc[2], sc[0] = [1, 2, 3, 4], [5, 6, 7, 8]
    sc[0, 1] += 10 + 30
    sc[2, 3] += 20
    save_io("logic", x, x + sc * w.astype(np.float32))


class LayerNorms(nn.Module):
    """nn.LayerNorm over the last dimension and over the last two, with and
    without elementwise affine; exported at opset 17 as LayerNormalization
    (opset 13 writes the ReduceMean / Sub / Pow / Sqrt / Div pattern the
    transformer models above test)."""

    def __init__(self):
        super().__init__()
        self.last = nn.LayerNorm(6, eps=1e-6)
        self.two = nn.LayerNorm([5, 6])
        self.plain = nn.LayerNorm(5, elementwise_affine=False)
        with torch.no_grad():
            for p in list(self.last.parameters()) + list(self.two.parameters()):
                p.copy_(torch.randn(p.shape))

    def forward(self, x):
        x = x * 3 + 1
        parts = [self.last(x), self.two(x), self.plain(x.transpose(2, 3))]
        return torch.cat([p.flatten(1) for p in parts], 1)


class Einsums(nn.Module):
    """torch.einsum as models write it (exported as Einsum, opset 12+):
    attention's two batched products in MaxViT's spelling (upper case,
    spaces), a linear layer with the weight second and first, an ellipsis,
    an implicit output, a subscript summed before the product, and one
    operand permuted or summed."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(6, 5))

    def forward(self, x):  # x: [1, 2, 4, 6]
        q, k = x, x.flip(2) * 0.5 + 1
        scores = torch.einsum("B H I D, B H J D -> B H I J", q, k)
        attn = torch.einsum("bhij,bhjd->bhid", scores.softmax(-1), k)
        linear = torch.einsum("bhnd,de->bhne", x, self.w)
        first = torch.einsum("de,bhnd->benh", self.w, x)
        dots = torch.einsum("...ij,...kj->...ik", x, k)
        implicit = torch.einsum("hid,hjd", x[0], k[0])
        summed = torch.einsum("bhid,bhjd->bhd", x, k)
        parts = [scores, attn, linear, first, dots, implicit, summed,
                 torch.einsum("bhij->bjhi", x), torch.einsum("bhij->bj", x)]
        return torch.cat([p.flatten() for p in parts]).unsqueeze(0)


def maxvit_tiny():
    """A small instance of torchvision's MaxViT: attention as Einsum, its
    relative position bias, MBConv blocks with squeeze-and-excitation
    (Sigmoid), BatchNorm and depthwise convolutions."""
    from torchvision.models.maxvit import MaxVit

    model = MaxVit(input_size=(32, 32), stem_channels=8, partition_size=4,
                   block_channels=[16, 32], block_layers=[1, 1], head_dim=8,
                   stochastic_depth_prob=0.0, num_classes=10)
    export(model, (1, 3, 32, 32), "maxvit_tiny")


transformers()
logic_graph()
export(LayerNorms(), (1, 4, 5, 6), "layer_norms", opset=17)
export(Einsums(), (1, 2, 4, 6), "einsums")
maxvit_tiny()
