#!/usr/bin/python3
"""Writes the normalization / activation / index op test models of
test/Import/Inputs/normact.

Each model is an onnx.helper graph at the opset the op was introduced in
(or a PyTorch module exported at opset 13, as a user would), with a seeded
input and the output PyTorch / NumPy computes saved next to it as
<name>.input.npy and <name>.output.npy; test/Import/norm-act.mlir imports,
compiles and runs each one and compares with 1e-4 of the output's
magnitude, and test/Integration/Quantize/norm-act.mlir quantizes norms,
activations, seg_head and lp_head (calibrated on <name>.calib.npy).

  activations   Mish (18), Selu, Celu (12), ThresholdedRelu (10), Gelu (20,
                approximate none / tanh), Round (11, half to even), Sign (9)
                on one input of quarter steps (ties for Round, zeros for
                Sign, x == alpha for ThresholdedRelu), concatenated.
  group_norm18  GroupNormalization, opset 18 (scale / bias per group).
  group_norm21  GroupNormalization, opset 21 (scale / bias per channel).
  norms         nn.GroupNorm (2-D and on a [N, C, L] sequence) and
                nn.InstanceNorm2d / 1d between convolutions, exported at
                opset 13 (GroupNorm as Reshape, InstanceNormalization,
                Reshape, Mul, Add), with Mish / SELU / CELU / GELU.
  reductions    ReduceL2, ReduceL1 and ReduceSumSquare (axes as attribute,
                opset 13, and as input, opset 18; keepdims 0 / 1) and
                LpNormalization (p = 1, 2), flattened and concatenated.
  fnormalize    F.normalize (p = 2 and 1) as exported at opset 13.
  argmax        ArgMax / ArgMin (axis, keepdims, select_last_index) on an
                input with ties, each Cast to float, concatenated.
  lp_head       MatMul, then LpNormalization p = 2 and p = 1 of its rows,
                added (an embedding head; the int8 test's).
  seg_head      a small segmentation head (conv, GroupNorm, ReLU, conv to 5
                classes, argmax over the classes) exported at opset 13: the
                graph output is ArgMax's int64, written by the compiled
                model as float32.
  qdq_*         QuantizeLinear / DequantizeLinear around GroupNormalization,
                InstanceNormalization, Celu and Gelu with fixed parameters;
                the outputs are PyTorch's quantized::group_norm,
                instance_norm, celu and quantized GELU on the same input.
  invalid/      models each refused with an error naming the node.

Usage: /usr/bin/python3 scripts/gen_onnx_norm_act_tests.py [out_dir]
(Debian python3-torch 1.13, python3-onnx 1.12: opsets above 17 are written
with onnx.helper and not checked by onnx.checker, which does not know them.)
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
    "Inputs", "normact")
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
rng = np.random.default_rng(0)


def save_io(name, x, y):
    np.save(os.path.join(out, name + ".input.npy"), x.astype(np.float32))
    np.save(os.path.join(out, name + ".output.npy"), y.astype(np.float32))


def save_graph(name, nodes, shape, out_shape, opset, inits=()):
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT,
                                       out_shape)],
        initializer=list(inits))
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.save(model, os.path.join(out, name + ".onnx"))


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


# --- activations ------------------------------------------------------------
shape = [1, 2, 4, 8]
x = (rng.integers(-16, 17, size=shape) / 4.0).astype(np.float32)
t = torch.from_numpy(x)
nodes = [
    helper.make_node("Mish", ["input"], ["mish"]),
    helper.make_node("Selu", ["input"], ["selu"]),
    helper.make_node("Selu", ["input"], ["selu2"], alpha=1.5, gamma=0.75),
    helper.make_node("Celu", ["input"], ["celu"], alpha=0.5),
    helper.make_node("ThresholdedRelu", ["input"], ["thr"], alpha=0.25),
    helper.make_node("Gelu", ["input"], ["gelu"]),
    helper.make_node("Gelu", ["input"], ["gelu_tanh"], approximate="tanh"),
    helper.make_node("Round", ["input"], ["round"]),
    helper.make_node("Sign", ["input"], ["sign"]),
]
outs = [n.output[0] for n in nodes]
nodes.append(helper.make_node("Concat", outs, ["output"], axis=1))
refs = [
    F.mish(t), F.selu(t), 0.75 * F.elu(t, alpha=1.5), F.celu(t, alpha=0.5),
    torch.where(t > 0.25, t, torch.zeros_like(t)), F.gelu(t),
    F.gelu(t, approximate="tanh"), torch.round(t), torch.sign(t)
]
y = torch.cat(refs, 1).numpy()
save_graph("activations", nodes, shape, list(y.shape), 20)
save_io("activations", x, y)

# --- GroupNormalization (opsets 18 and 21) ----------------------------------
shape = [2, 6, 3, 4]
x = rng.standard_normal(shape).astype(np.float32) * 2 + 0.5
groups = 3
scale_g = rng.standard_normal(groups).astype(np.float32)
bias_g = rng.standard_normal(groups).astype(np.float32)
save_graph("group_norm18", [
    helper.make_node("GroupNormalization", ["input", "scale", "bias"],
                     ["output"], num_groups=groups, epsilon=1e-3)
], shape, shape, 18, [const("scale", scale_g), const("bias", bias_g)])
y = F.group_norm(torch.from_numpy(x), groups,
                 torch.from_numpy(np.repeat(scale_g, 2)),
                 torch.from_numpy(np.repeat(bias_g, 2)), eps=1e-3)
save_io("group_norm18", x, y.numpy())

scale_c = rng.standard_normal(6).astype(np.float32)
bias_c = rng.standard_normal(6).astype(np.float32)
save_graph("group_norm21", [
    helper.make_node("GroupNormalization", ["input", "scale", "bias"],
                     ["output"], num_groups=2)
], shape, shape, 21, [const("scale", scale_c), const("bias", bias_c)])
y = F.group_norm(torch.from_numpy(x), 2, torch.from_numpy(scale_c),
                 torch.from_numpy(bias_c))
save_io("group_norm21", x, y.numpy())


# --- PyTorch GroupNorm / InstanceNorm, exported at opset 13 -----------------
class Norms(nn.Module):
    """Convolutions with GroupNorm, InstanceNorm and the new activations
    between them (image and sequence forms)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.gn1 = nn.GroupNorm(4, 16)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1)
        self.in2 = nn.InstanceNorm2d(16, affine=True)
        self.conv3 = nn.Conv2d(16, 8, 1)
        self.gn3 = nn.GroupNorm(8, 8)  # one group per channel
        self.conv4 = nn.Conv1d(8, 8, 3, padding=1)
        self.gn4 = nn.GroupNorm(2, 8)
        self.in4 = nn.InstanceNorm1d(8)  # no affine, no running stats
        for m in (self.gn1, self.in2, self.gn3, self.gn4):
            nn.init.normal_(m.weight, 1.0, 0.3)
            nn.init.normal_(m.bias, 0.0, 0.3)

    def forward(self, x):
        x = F.mish(self.gn1(self.conv1(x)))
        x = F.selu(self.in2(self.conv2(x)))
        x = F.celu(self.gn3(self.conv3(x)), alpha=0.7)
        n, c, h, w = x.shape
        s = x.reshape(n, c, h * w)
        s = F.gelu(self.gn4(self.conv4(s)))
        return self.in4(s)


def export(model, shape, name, opset=13):
    model.eval()
    x = torch.from_numpy(rng.standard_normal(shape).astype(np.float32))
    torch.onnx.export(model, x, os.path.join(out, name + ".onnx"),
                      opset_version=opset, input_names=["input"],
                      output_names=["output"])
    with torch.no_grad():
        save_io(name, x.numpy(), model(x).numpy())


export(Norms(), (1, 3, 8, 8), "norms")

# --- ReduceL2, ReduceSumSquare, LpNormalization -----------------------------
shape = [2, 3, 4, 5]
x = rng.standard_normal(shape).astype(np.float32)
x[1, :, 2, :] = 0.0  # an all-zero slice along the channels: Lp norm 0
flat = helper.make_tensor("flat", TensorProto.INT64, [2], [1, -1])


def reductions(opset):
    nodes, refs = [], []
    if opset >= 18:
        axes = {"l2": [1], "ss": [2, 3], "l2b": [-1], "l1": [0, 3]}
        inits = [const(k, np.array(v, np.int64)) for k, v in axes.items()]
        nodes += [
            helper.make_node("ReduceL2", ["input", "l2"], ["r0"]),
            helper.make_node("ReduceSumSquare", ["input", "ss"], ["r1"],
                             keepdims=0),
            helper.make_node("ReduceL2", ["input", "l2b"], ["r2"], keepdims=0),
        ]
    else:
        inits = []
        nodes += [
            helper.make_node("ReduceL2", ["input"], ["r0"], axes=[1]),
            helper.make_node("ReduceSumSquare", ["input"], ["r1"],
                             axes=[2, 3], keepdims=0),
            helper.make_node("ReduceL2", ["input"], ["r2"], axes=[-1],
                             keepdims=0),
        ]
    nodes += [
        helper.make_node("ReduceL1", ["input"], ["r6"], axes=[0, 3])
        if opset < 18 else helper.make_node("ReduceL1", ["input", "l1"],
                                            ["r6"]),
        helper.make_node("ReduceSumSquare", ["input"], ["r3"]),  # all axes
        helper.make_node("LpNormalization", ["input"], ["r4"], axis=1, p=2),
        helper.make_node("LpNormalization", ["input"], ["r5"], p=1),
    ]
    t = np.sqrt((x**2).sum(1, keepdims=True))
    refs = [
        t, (x**2).sum((2, 3)), np.sqrt((x**2).sum(-1)),
        (x**2).sum(keepdims=True)
    ]
    n2 = np.sqrt((x**2).sum(1, keepdims=True))
    refs.append(np.where(n2 > 0, x / np.maximum(n2, 1e-30), 0.0))
    n1 = np.abs(x).sum(-1, keepdims=True)
    refs.append(np.where(n1 > 0, x / np.maximum(n1, 1e-30), 0.0))
    refs.append(np.abs(x).sum((0, 3), keepdims=True))
    for i in range(7):
        nodes.append(helper.make_node("Reshape", [f"r{i}", "flat"], [f"f{i}"]))
    nodes.append(
        helper.make_node("Concat", [f"f{i}" for i in range(7)], ["output"],
                         axis=1))
    y = np.concatenate([r.reshape(1, -1) for r in refs], 1)
    return nodes, inits + [flat], y


for opset, name in ((13, "reductions13"), (18, "reductions18")):
    nodes, inits, y = reductions(opset)
    save_graph(name, nodes, shape, list(y.shape), opset, inits)
    save_io(name, x, y)

# --- ArgMax / ArgMin --------------------------------------------------------
shape = [2, 3, 4, 5]
x = (rng.integers(-2, 3, size=shape) * 0.5).astype(np.float32)  # many ties
cases = [("ArgMax", dict(axis=1), lambda a: a.argmax(1)[:, None]),
         ("ArgMax", dict(axis=-1, keepdims=0), lambda a: a.argmax(-1)),
         ("ArgMin", dict(axis=2), lambda a: a.argmin(2)[:, :, None]),
         ("ArgMax", dict(axis=3, select_last_index=1),
          lambda a: (a.shape[3] - 1 - a[..., ::-1].argmax(3))[..., None]),
         ("ArgMin", dict(axis=0, keepdims=0, select_last_index=1),
          lambda a: a.shape[0] - 1 - a[::-1].argmin(0))]
nodes, refs = [], []
for i, (op, attrs, ref) in enumerate(cases):
    nodes.append(helper.make_node(op, ["input"], [f"i{i}"], **attrs))
    nodes.append(
        helper.make_node("Cast", [f"i{i}"], [f"c{i}"], to=TensorProto.FLOAT))
    nodes.append(helper.make_node("Reshape", [f"c{i}", "flat"], [f"f{i}"]))
    refs.append(ref(x).reshape(1, -1))
nodes.append(
    helper.make_node("Concat", [f"f{i}" for i in range(len(cases))],
                     ["output"], axis=1))
y = np.concatenate(refs, 1).astype(np.float32)
save_graph("argmax", nodes, shape, list(y.shape), 13, [flat])
save_io("argmax", x, y)


# --- A segmentation head whose output is ArgMax's int64 ---------------------
class SegHead(nn.Module):

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.gn = nn.GroupNorm(4, 16)
        self.conv2 = nn.Conv2d(16, 5, 1)

    def forward(self, x):
        return self.conv2(F.relu(self.gn(self.conv1(x)))).argmax(1)


model = SegHead().eval()
x = torch.from_numpy(rng.standard_normal((1, 3, 16, 16)).astype(np.float32))
torch.onnx.export(model, x, os.path.join(out, "seg_head.onnx"),
                  opset_version=13, input_names=["input"],
                  output_names=["output"])
with torch.no_grad():
    logits = model.conv2(F.relu(model.gn(model.conv1(x))))
    save_io("seg_head", x.numpy(), model(x).numpy())
    np.save(os.path.join(out, "seg_head.logits.npy"), logits.numpy())

# --- An embedding head: MatMul, then the L2 and L1 normalized rows, added -
x = rng.standard_normal((8, 32)).astype(np.float32)
w = (rng.standard_normal((32, 16)) / np.sqrt(32)).astype(np.float32)
save_graph("lp_head", [
    helper.make_node("MatMul", ["input", "w"], ["y"]),
    helper.make_node("LpNormalization", ["y"], ["l2"], axis=1, p=2),
    helper.make_node("LpNormalization", ["y"], ["l1"], axis=-1, p=1),
    helper.make_node("Add", ["l2", "l1"], ["output"]),
], [8, 32], [8, 16], 13, [const("w", w)])
y = x @ w
save_io("lp_head", x,
        y / np.linalg.norm(y, 2, 1, keepdims=True) +
        y / np.abs(y).sum(1, keepdims=True))

# --- Calibration data for the int8 tests: seeded samples, 4 each (16 for
# norms, whose five chained normalizations amplify the clipping of ranges
# seen on fewer: 15 dB on 4, 25 dB on 16) ----------------------------------
for name in ("norms", "activations", "seg_head", "lp_head"):
    x = np.load(os.path.join(out, name + ".input.npy"))
    samples = 16 if name == "norms" else 4
    shape = (samples * x.shape[0],) + x.shape[1:]
    if name == "activations":
        calib = rng.integers(-16, 17, size=shape) / 4.0
    else:
        calib = rng.standard_normal(shape)
    np.save(os.path.join(out, name + ".calib.npy"), calib.astype(np.float32))

# --- QDQ models against PyTorch's quantized ops ---------------------------
# QuantizeLinear / DequantizeLinear around one op, with fixed parameters:
# the int8 model computes what PyTorch's quantized form computes on the same
# quantized input (quantized::group_norm / instance_norm, dequantize -> float
# -> quantize; quantized::celu and gelu on a quantized tensor, the same
# function through a lookup table here). The input lies on the input grid.
IN_SCALE, IN_ZP, OUT_SCALE, OUT_ZP = 0.05, 128, 0.03, 120


def qdq_model(name, op_nodes, shape, opset, inits, ref, out_qparams=None):
    s_out, zp_out = out_qparams or (OUT_SCALE, OUT_ZP)
    nodes = [
        helper.make_node("QuantizeLinear", ["input", "si", "zi"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "si", "zi"], ["x"]),
    ] + op_nodes + [
        helper.make_node("QuantizeLinear", ["y", "so", "zo"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "so", "zo"], ["output"]),
    ]
    inits = list(inits) + [
        const("si", np.float32(IN_SCALE)),
        const("zi", np.uint8(IN_ZP)),
        const("so", np.float32(s_out)),
        const("zo", np.uint8(zp_out)),
    ]
    save_graph(name, nodes, shape, shape, opset, inits)
    q = rng.integers(0, 256, size=shape)
    x = ((q - IN_ZP) * IN_SCALE).astype(np.float32)
    qx = torch.quantize_per_tensor(torch.from_numpy(x), IN_SCALE, IN_ZP,
                                   torch.quint8)
    assert (qx.int_repr().numpy() == q).all()
    save_io(name, x, ref(qx).dequantize().numpy())


shape = [2, 8, 3, 4]
gamma = rng.standard_normal(8).astype(np.float32)
beta = rng.standard_normal(8).astype(np.float32)
qdq_model("qdq_group_norm", [
    helper.make_node("GroupNormalization", ["x", "gs", "gb"], ["y"],
                     num_groups=2)
], shape, 21, [const("gs", gamma), const("gb", beta)],
          lambda qx: torch.ops.quantized.group_norm(
              qx, 2, torch.from_numpy(gamma), torch.from_numpy(beta), 1e-5,
              OUT_SCALE, OUT_ZP))
qdq_model("qdq_instance_norm", [
    helper.make_node("InstanceNormalization", ["x", "gs", "gb"], ["y"])
], shape, 13, [const("gs", gamma), const("gb", beta)],
          lambda qx: torch.ops.quantized.instance_norm(
              qx, torch.from_numpy(gamma), torch.from_numpy(beta), 1e-5,
              OUT_SCALE, OUT_ZP))
qdq_model("qdq_celu", [helper.make_node("Celu", ["x"], ["y"], alpha=1.5)],
          shape, 13, [],
          lambda qx: torch.ops.quantized.celu(qx, OUT_SCALE, OUT_ZP, 1.5))
# PyTorch's quantized GELU keeps the input's parameters.
qdq_model("qdq_gelu", [helper.make_node("Gelu", ["x"], ["y"])], shape, 20, [],
          lambda qx: F.gelu(qx), (IN_SCALE, IN_ZP))

# --- F.normalize as PyTorch exports it (ReduceL2 / ReduceL1, Clip, Expand,
# Div), opset 13 -------------------------------------------------------------
class Normalize(nn.Module):

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 16)

    def forward(self, x):
        y = self.fc(x)
        return F.normalize(y, dim=1) + F.normalize(y, p=1, dim=-1)


export(Normalize(), (4, 32), "fnormalize")

# --- Invalid models: each is refused with an error naming the node ----------
inv = os.path.join(out, "invalid")
os.makedirs(inv, exist_ok=True)


def save_invalid(name, node, shape, opset, inits=()):
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, None)],
        initializer=list(inits))
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.save(model, os.path.join(inv, name + ".onnx"))


ones = lambda n, name: const(name, np.ones(n, np.float32))
save_invalid("group_norm_groups",
             helper.make_node("GroupNormalization", ["input", "s", "b"],
                              ["output"], name="gn", num_groups=4),
             [1, 6, 2, 2], 18, [ones(4, "s"), ones(4, "b")])
save_invalid("group_norm_scale",
             helper.make_node("GroupNormalization", ["input", "s", "b"],
                              ["output"], name="gn", num_groups=2),
             [1, 6, 2, 2], 18, [ones(6, "s"), ones(2, "b")])
save_invalid("instance_norm_rank",
             helper.make_node("InstanceNormalization", ["input", "s", "b"],
                              ["output"], name="in"),
             [2, 6], 13, [ones(6, "s"), ones(6, "b")])
save_invalid("instance_norm_scale",
             helper.make_node("InstanceNormalization", ["input", "s", "b"],
                              ["output"], name="in"),
             [1, 6, 2, 2], 13, [ones(3, "s"), ones(6, "b")])
save_invalid("lp_norm_p",
             helper.make_node("LpNormalization", ["input"], ["output"],
                              name="lp", p=3), [1, 6], 13)
save_invalid("gelu_approximate",
             helper.make_node("Gelu", ["input"], ["output"], name="gelu",
                              approximate="fast"), [1, 6], 20)
save_invalid("celu_alpha",
             helper.make_node("Celu", ["input"], ["output"], name="celu",
                              alpha=0.0), [1, 6], 13)
save_invalid("argmax_axis",
             helper.make_node("ArgMax", ["input"], ["output"], name="am",
                              axis=2), [1, 6], 13)
save_invalid("mish_opset",
             helper.make_node("Mish", ["input"], ["output"], name="mish"),
             [1, 6], 17)
