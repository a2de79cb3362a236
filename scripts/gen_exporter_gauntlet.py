"""Generates the small models of test/Import/gauntlet.mlir: trained-model
architectures as other exporters ship them (the exporter gauntlet of issue
33), cut down to a few channels, with seeded weights, BatchNorm statistics
that are not the identity, and PyTorch's float32 outputs as the reference.

  /usr/bin/python3 scripts/gen_exporter_gauntlet.py

writes test/Import/Inputs/gauntlet/:
* pico_head.onnx: a PicoDet-style detection head as paddle2onnx writes it
  (opset 11, graph name "Model from PaddlePaddle.", input x [N, 4, H, W]
  with N, H, W free, BatchNorm not fused, Clip's min / max as Constant
  nodes of shape [1]): two levels of conv + BN + ReLU6, per level sigmoid
  class scores and the box side distributions ([N, HW, 4, R + 1], Softmax
  over the last axis) integrated by a MatMul with a 1-D weight
  arange(R + 1) (NumPy's matrix-vector product: the last dimension
  drops), concatenated over the levels: outputs scores [N, A, 3] and
  dist [N, A, 4]. pico_head.{a,b}.x.npy / .out.npz: two shapes.
* rec_head.onnx: an SVTR/CRNN-style text recognizer head (paddle2onnx,
  opset 11, input [N, 4, 8, W] with N, W free): conv + BN + HardSwish
  (HardSigmoid + Mul), an average pool to H = 1, Squeeze with its axes
  attribute, Transpose to [N, T, C], a LayerNorm written out as
  ReduceMean / Sub / Pow / Sqrt / Div, a Linear, and Softmax(axis = 2) on
  [N, T, classes] (opset 11's 2-D coercion: the last axis here).
  rec_head.{a,b}.x.npy / .out.npy.
* db_head.onnx: a PaddleOCR DB-style text detector (paddle2onnx, opset
  11, x [N, 4, H, W] free): conv + BN + ReLU6 at 1/2 and 1/4, the 1/4 map
  upsampled by a nearest Resize whose `sizes` come from paddle's
  Shape -> Slice -> Cast -> Mul -> Cast -> Concat sub-graph (roi and
  scales empty), added to the 1/2 map, then the head: conv + BN + ReLU,
  ConvTranspose 2x2 / 2 + BN + ReLU, ConvTranspose 2x2 / 2, Sigmoid
  (probability map [N, 1, 2H, 2W]). db_head.{a,b}.x.npy / .out.npy.
* yolo_head.onnx: an anchor-free detector's decoded output as PyTorch
  exports it (opset 13, x [N, 4, H, W] free): anchor points from Range of
  the feature size (Shape -> Gather -> Range -> meshgrid), boxes
  (points -+ exp(regression) * stride, pixels) and sigmoid class scores
  concatenated into one output [N, A, 4 + 3] (YOLOX / YOLOv8-style), with
  yolo_head.x.npy (4 samples, 1x4x16x24) and yolo_head.out.npy: int8 must
  keep the scores on their own grid (one shared scale over pixels and
  probabilities leaves them one or two steps).
* yolo_head_fp16.onnx: the same model through onnxconverter_common's
  float16 pass with keep_io_types (its algorithm, re-implemented in
  to_float16 below: float16 initializers and Constants, Cast(to=FLOAT)
  of the shape integers turned into Cast(to=FLOAT16), Range and the other
  ops of its block list kept float32 between Casts, the graph input and
  output Casts appended as the last nodes); reference: yolo_head.out.npy
  (float32), within the 1e-2 of float16 models.
Needs onnx, numpy and torch (Debian python3-onnx, python3-torch); the test
does not.
"""

import os

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
from onnx import helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "test", "Import", "Inputs", "gauntlet")


def seeded(model, seed):
    """Kaiming-normal conv weights and non-identity BatchNorm statistics."""
    g = torch.Generator().manual_seed(seed)
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            fan_in = m.weight[0].numel()
            m.weight.data = torch.randn(m.weight.shape, generator=g) * (2.0 / fan_in) ** 0.5
        if isinstance(m, (nn.BatchNorm2d, nn.LayerNorm)):
            c = m.weight.numel()
            m.weight.data = torch.rand(c, generator=g) + 0.5
            m.bias.data = torch.randn(c, generator=g) * 0.2
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.data = torch.randn(c, generator=g) * 0.2
            m.running_var.data = torch.rand(c, generator=g) + 0.5
    return model.eval()


class PicoHead(nn.Module):
    def __init__(self, classes=3, reg_max=3):
        super().__init__()
        self.c1 = nn.Conv2d(4, 6, 3, 2, 1, bias=False)
        self.b1 = nn.BatchNorm2d(6)
        self.c2 = nn.Conv2d(6, 8, 3, 2, 1, bias=False)
        self.b2 = nn.BatchNorm2d(8)
        self.cls = nn.ModuleList([nn.Conv2d(c, classes, 1) for c in (6, 8)])
        self.reg = nn.ModuleList(
            [nn.Conv2d(c, 4 * (reg_max + 1), 1) for c in (6, 8)])
        self.reg_max = reg_max
        self.register_buffer("proj", torch.arange(reg_max + 1, dtype=torch.float32))

    def forward(self, x):
        f1 = F.relu6(self.b1(self.c1(x)))
        f2 = F.relu6(self.b2(self.c2(f1)))
        scores, dists = [], []
        for f, c, r in zip((f1, f2), self.cls, self.reg):
            n = f.shape[0]
            scores.append(torch.sigmoid(c(f)).flatten(2).permute(0, 2, 1))
            d = r(f).flatten(2).permute(0, 2, 1).reshape(n, -1, 4, self.reg_max + 1)
            dists.append(F.softmax(d, -1) @ self.proj)
        return torch.cat(scores, 1), torch.cat(dists, 1)


class RecHead(nn.Module):
    def __init__(self, classes=5):
        super().__init__()
        self.c = nn.Conv2d(4, 8, 3, (2, 1), 1, bias=False)
        self.b = nn.BatchNorm2d(8)
        self.n = nn.LayerNorm(8)
        self.fc = nn.Linear(8, classes)

    def forward(self, x):
        y = F.hardswish(self.b(self.c(x)))
        y = F.avg_pool2d(y, (4, 2), (4, 2)).squeeze(2).permute(0, 2, 1)
        return F.softmax(self.fc(self.n(y)) * 4.0, dim=2)


class DBHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(4, 6, 3, 2, 1, bias=False)
        self.b1 = nn.BatchNorm2d(6)
        self.c2 = nn.Conv2d(6, 6, 3, 2, 1, bias=False)
        self.b2 = nn.BatchNorm2d(6)
        self.h = nn.Conv2d(6, 4, 3, 1, 1, bias=False)
        self.hb = nn.BatchNorm2d(4)
        self.t1 = nn.ConvTranspose2d(4, 4, 2, 2)
        self.tb = nn.BatchNorm2d(4)
        self.t2 = nn.ConvTranspose2d(4, 1, 2, 2)

    def forward(self, x):
        f2 = F.relu6(self.b1(self.c1(x)))
        f4 = F.relu6(self.b2(self.c2(f2)))
        y = f2 + F.interpolate(f4, scale_factor=2.0, mode="nearest")
        y = F.relu(self.hb(self.h(y)))
        y = F.relu(self.tb(self.t1(y)))
        return torch.sigmoid(self.t2(y))


def paddle_resize_sizes(path):
    """Each Resize's scales as paddle's sizes sub-graph of its input's shape:
    Shape -> Slice [2:4] -> Cast float -> Mul scale -> Cast int64, Concat
    with Slice [0:2]; roi and scales empty Constants."""
    m = onnx.load(path)
    g = m.graph
    consts = {n.output[0]: n for n in g.node if n.op_type == "Constant"}
    inits = {t.name: t for t in g.initializer}
    nodes = []
    for i, n in enumerate(g.node):
        if n.op_type == "Resize":
            src = n.input[2]
            scales = numpy_helper.to_array(inits[src] if src in inits else consts[src].attribute[0].t)
            x, p = n.input[0], f"resize{i}_"

            def const(name, values, dtype):
                return helper.make_node("Constant", [], [p + name], value=numpy_helper.from_array(
                    np.array(values, dtype), p + name))
            nodes += [helper.make_node("Shape", [x], [p + "shape"]),
                      const("two", [2], np.int64), const("four", [4], np.int64),
                      const("zero", [0], np.int64),
                      helper.make_node("Slice", [p + "shape", p + "two", p + "four", p + "zero"], [p + "hw"]),
                      helper.make_node("Cast", [p + "hw"], [p + "hwf"], to=onnx.TensorProto.FLOAT),
                      const("scale", scales[2:], np.float32),
                      helper.make_node("Mul", [p + "hwf", p + "scale"], [p + "hws"]),
                      helper.make_node("Cast", [p + "hws"], [p + "hwi"], to=onnx.TensorProto.INT64),
                      helper.make_node("Slice", [p + "shape", p + "zero", p + "two", p + "zero"], [p + "nc"]),
                      helper.make_node("Concat", [p + "nc", p + "hwi"], [p + "sizes"], axis=0),
                      const("empty", np.zeros(0), np.float32)]
            n.input[:] = [x, p + "empty", p + "empty", p + "sizes"]
        nodes.append(n)
    del g.node[:]
    g.node.extend(nodes)
    onnx.save(m, path)


class YoloHead(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.c1 = nn.Conv2d(4, 8, 3, 2, 1)
        self.c2 = nn.Conv2d(8, 8, 3, 2, 1)
        self.reg = nn.Conv2d(8, 4, 1)
        self.cls = nn.Conv2d(8, classes, 1)

    def forward(self, x):
        f = F.relu(self.c2(F.relu(self.c1(x))))
        h, w = f.shape[2], f.shape[3]
        ys = torch.arange(h, dtype=torch.float32)
        xs = torch.arange(w, dtype=torch.float32)
        gy, gx = torch.meshgrid(ys, xs, indexing="ij")
        grid = torch.stack([gx, gy], 0).reshape(1, 2, h * w) * 16.0 + 8.0
        r = torch.exp(self.reg(f).clamp(max=3.0)).flatten(2) * 16.0
        boxes = torch.cat([grid - r[:, :2], grid + r[:, 2:]], 1)
        scores = torch.sigmoid(self.cls(f)).flatten(2)
        return torch.cat([boxes, scores], 1).permute(0, 2, 1)


# onnxconverter_common.float16.DEFAULT_OP_BLOCK_LIST's ops that vision
# graphs hold: kept float32 between Casts.
FLOAT16_BLOCK = {"Resize", "Upsample", "Range", "Min", "Max", "CumSum", "TopK",
                 "NonMaxSuppression", "RoiAlign"}


def to_float16(model):
    """convert_float_to_float16(model, keep_io_types=True), step by step."""
    model = onnx.shape_inference.infer_shapes(model)
    g = model.graph

    def tensor16(t):
        if t.data_type != onnx.TensorProto.FLOAT:
            return
        a = numpy_helper.to_array(t).astype(np.float32)
        # min_positive_val 1e-7 / max_finite_val 1e4, sign kept.
        a = np.where((a > 0) & (a < 1e-7), 1e-7, a)
        a = np.where((a < 0) & (a > -1e-7), -1e-7, a)
        a = np.where(np.isfinite(a), np.clip(a, -1e4, 1e4), a)
        t.CopyFrom(numpy_helper.from_array(a.astype(np.float16), t.name))

    rename, io_casts = {}, []
    for i, v in enumerate(g.input):
        if v.type.tensor_type.elem_type == onnx.TensorProto.FLOAT:
            rename[v.name] = f"graph_input_cast_{i}"
            io_casts.append(helper.make_node("Cast", [v.name], [rename[v.name]], to=10,
                                             name=f"graph_input_cast{i}"))
    for i, v in enumerate(g.output):
        if v.type.tensor_type.elem_type == onnx.TensorProto.FLOAT:
            rename[v.name] = f"graph_output_cast_{i}"
            io_casts.append(helper.make_node("Cast", [rename[v.name]], [v.name], to=1,
                                             name=f"graph_output_cast{i}"))
    blocked = []
    for n in g.node:
        n.input[:] = [rename.get(v, v) for v in n.input]
        n.output[:] = [rename.get(v, v) for v in n.output]
        if n.op_type in FLOAT16_BLOCK:
            blocked.append(n)
            continue
        for a in n.attribute:
            if n.op_type == "Cast" and a.name == "to" and a.i == onnx.TensorProto.FLOAT:
                a.i = onnx.TensorProto.FLOAT16
            if a.type == onnx.AttributeProto.TENSOR:
                tensor16(a.t)
    half = set(rename.values())
    for t in g.initializer:
        if t.data_type == onnx.TensorProto.FLOAT:
            tensor16(t)
            half.add(t.name)
    for v in g.value_info:
        if v.type.tensor_type.elem_type == onnx.TensorProto.FLOAT:
            half.add(v.name)
    casts = []
    for n in blocked:
        for j, v in enumerate(n.input):
            if v in half:
                name = f"{n.name}_input_cast_{j}"
                casts.append(helper.make_node("Cast", [v], [name], to=1,
                                              name=f"{n.name}_input_cast{j}"))
                n.input[j] = name
        for j, v in enumerate(n.output):
            if v in half:
                name = f"{n.name}_output_cast_{j}"
                casts.append(helper.make_node("Cast", [name], [v], to=10,
                                              name=f"{n.name}_output_cast{j}"))
                n.output[j] = name
    g.node.extend(io_casts + casts)
    del g.value_info[:]
    return model


def paddleize(path):
    """paddle2onnx's idioms: the graph name, Clip bounds as [1] Constants."""
    m = onnx.load(path)
    g = m.graph
    g.name = "Model from PaddlePaddle."
    m.producer_name = "PaddlePaddle"
    inits = {t.name: t for t in g.initializer}
    consts = {n.output[0]: n for n in g.node if n.op_type == "Constant"}
    front = []
    for n in g.node:
        if n.op_type != "Clip":
            continue
        for j in (1, 2):
            if j >= len(n.input) or not n.input[j]:
                continue
            src = n.input[j]
            v = numpy_helper.to_array(inits[src] if src in inits else consts[src].attribute[0].t)
            name = f"{n.name or n.output[0]}_bound{j}"
            front.append(helper.make_node(
                "Constant", [], [name],
                value=numpy_helper.from_array(np.array(v, np.float32).reshape(1), name)))
            n.input[j] = name
    nodes = front + list(g.node)
    del g.node[:]
    g.node.extend(nodes)
    onnx.checker.check_model(m)
    onnx.save(m, path)


def export(model, shape, name, dyn, outs):
    x = torch.zeros(*shape)
    path = os.path.join(OUT, name + ".onnx")
    axes = {"x": dyn}
    axes.update({o: {0: "N"} for o in outs})
    torch.onnx.export(model, x, path, opset_version=11, input_names=["x"],
                      output_names=list(outs), dynamic_axes=axes,
                      training=torch.onnx.TrainingMode.PRESERVE,
                      do_constant_folding=True)
    paddleize(path)


def reference(model, name, tag, shape, outs, seed):
    x = torch.from_numpy(np.random.RandomState(seed).uniform(-1, 1, shape).astype(np.float32))
    np.save(os.path.join(OUT, f"{name}.{tag}.x.npy"), x.numpy())
    with torch.no_grad():
        y = model(x)
    if len(outs) == 1:
        np.save(os.path.join(OUT, f"{name}.{tag}.out.npy"), y.numpy())
    else:
        np.savez(os.path.join(OUT, f"{name}.{tag}.out.npz"),
                 **{o: v.numpy() for o, v in zip(outs, y)})


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(0)
    pico = seeded(PicoHead(), 1)
    outs = ("scores", "dist")
    export(pico, (1, 4, 16, 16), "pico_head", {0: "N", 2: "H", 3: "W"}, outs)
    reference(pico, "pico_head", "a", (1, 4, 16, 24), outs, 2)
    reference(pico, "pico_head", "b", (2, 4, 8, 16), outs, 3)
    rec = seeded(RecHead(), 4)
    export(rec, (1, 4, 8, 16), "rec_head", {0: "N", 3: "W"}, ("out",))
    reference(rec, "rec_head", "a", (1, 4, 8, 20), ("out",), 5)
    reference(rec, "rec_head", "b", (3, 4, 8, 12), ("out",), 6)
    yolo = seeded(YoloHead(), 7)
    path = os.path.join(OUT, "yolo_head.onnx")
    torch.onnx.export(yolo, torch.zeros(1, 4, 16, 24), path, opset_version=13,
                      input_names=["x"], output_names=["out"],
                      dynamic_axes={"x": {0: "N", 2: "H", 3: "W"},
                                    "out": {0: "N", 1: "A"}})
    x = torch.from_numpy(np.random.RandomState(8).uniform(-1, 1, (4, 4, 16, 24)).astype(np.float32))
    np.save(os.path.join(OUT, "yolo_head.x.npy"), x.numpy())
    with torch.no_grad():
        np.save(os.path.join(OUT, "yolo_head.out.npy"), yolo(x).numpy())
    onnx.save(to_float16(onnx.load(path)), os.path.join(OUT, "yolo_head_fp16.onnx"))
    db = seeded(DBHead(), 9)
    export(db, (1, 4, 16, 16), "db_head", {0: "N", 2: "H", 3: "W"}, ("out",))
    paddle_resize_sizes(os.path.join(OUT, "db_head.onnx"))
    reference(db, "db_head", "a", (1, 4, 16, 24), ("out",), 10)
    reference(db, "db_head", "b", (2, 4, 8, 8), ("out",), 11)


if __name__ == "__main__":
    main()
