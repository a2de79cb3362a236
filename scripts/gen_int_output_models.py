#!/usr/bin/env python3
"""Generates the models and goldens of the integer-output tests
(test/Import/int-outputs.mlir, test/Integration/Compile/int-outputs.mlir,
test/Python/Inputs/test_package.py's integer check) in
test/Integration/Compile/Inputs/intout/:

- seg.onnx: a segmentation-like model exported by PyTorch 1.13 (opset 13):
  conv + ReLU, conv to 5 classes, bilinear Resize x2, then ArgMax(axis=1,
  keepdims=0) as output "classes" (int64), the same indices Cast to INT32 as
  "classes_i32" and to UINT8 as "classes_u8"; seg.input.npy (4 images of
  3x8x8), seg.calib.npy (8 other images, for int8 calibration) and the
  goldens seg.classes.npy (int64; the int32 and uint8 outputs are its
  values in their types) from PyTorch.
- casts.onnx: onnx.helper graph, Cast of a float activation to INT8, UINT8,
  INT16, INT32, BOOL, and INT32 then FLOAT (the tag cleared: float32
  output); casts.input.npy holds values in [-300, 300] with fractions and
  exact integers, casts.<output>.npy the goldens from NumPy by ONNX's rule
  (truncate toward zero, then the integer conversion wraps, as ONNX Runtime's
  static_cast does on x86).
- casts_wide.onnx: Casts to UINT16 / UINT32 / UINT64 / INT64 of negative
  and large values (the unsigned wrap happens in the integer result).
- argmax_ops.onnx: ArgMin (keepdims, select_last_index, ties), ArgMax then
  Unsqueeze (the int64 type carries through data movement), ArgMax then
  Cast to FLOAT then Mul (float32); goldens from NumPy.
- invalid_cast_string.onnx: a Cast of an activation to STRING (refused).

Usage: /usr/bin/python3 scripts/gen_int_output_models.py
"""
import os

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "test", "Integration", "Compile", "Inputs", "intout")


class Seg(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(8, 5, 3, padding=1)

    def forward(self, x):
        y = F.relu(self.conv1(x))
        y = F.interpolate(self.conv2(y), scale_factor=2, mode="bilinear",
                          align_corners=False)
        classes = torch.argmax(y, dim=1)
        return classes, classes.to(torch.int32), classes.to(torch.uint8)


def images(rng, n):
    # Smooth images (a low-resolution pattern upsampled) so that the class
    # map has regions, as a segmentation map does.
    low = rng.standard_normal((n, 3, 4, 4)).astype(np.float32)
    return np.ascontiguousarray(
        low.repeat(2, axis=2).repeat(2, axis=3)
        + 0.3 * rng.standard_normal((n, 3, 8, 8)).astype(np.float32))


def seg():
    torch.manual_seed(33)
    model = Seg().eval()
    rng = np.random.default_rng(33)
    x = images(rng, 4)
    calib = images(rng, 8)
    path = os.path.join(OUT, "seg.onnx")
    torch.onnx.export(model, torch.from_numpy(x[:1]), path, opset_version=13,
                      input_names=["image"],
                      output_names=["classes", "classes_i32", "classes_u8"])
    ops = [n.op_type for n in onnx.load(path).graph.node]
    assert "ArgMax" in ops and ops.count("Cast") >= 2, ops
    with torch.no_grad():
        classes = torch.cat([model(torch.from_numpy(x[i:i + 1]))[0]
                             for i in range(len(x))]).numpy()
    assert classes.dtype == np.int64
    np.save(os.path.join(OUT, "seg.input.npy"), x)
    np.save(os.path.join(OUT, "seg.calib.npy"), calib)
    np.save(os.path.join(OUT, "seg.classes.npy"), classes)
    print("seg:", ops, "classes", np.bincount(classes.ravel(), minlength=5))


def casts():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 6])
    targets = [("i8", TensorProto.INT8, np.int8),
               ("u8", TensorProto.UINT8, np.uint8),
               ("i16", TensorProto.INT16, np.int16),
               ("i32", TensorProto.INT32, np.int32),
               ("b", TensorProto.BOOL, np.bool_)]
    nodes, outputs = [], []
    for name, to, _ in targets:
        nodes.append(helper.make_node("Cast", ["x"], [name], name="to_" + name,
                                      to=to))
        outputs.append(helper.make_tensor_value_info(name, to, [1, 4, 6]))
    nodes += [helper.make_node("Cast", ["i32"], ["back"], name="back",
                               to=TensorProto.FLOAT),
              helper.make_node("Relu", ["back"], ["f"], name="relu")]
    outputs.append(helper.make_tensor_value_info("f", TensorProto.FLOAT,
                                                 [1, 4, 6]))
    graph = helper.make_graph(nodes, "casts", [x], outputs)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(OUT, "casts.onnx"))
    rng = np.random.default_rng(34)
    v = rng.uniform(-300, 300, (1, 4, 6)).astype(np.float32)
    v[0, 0, :] = [0.0, -0.0, 0.99, -0.99, 127.0, -129.0]  # exact / near 0
    np.save(os.path.join(OUT, "casts.input.npy"), v)
    wide = np.trunc(v).astype(np.int64)
    for name, _, dtype in targets:
        ref = (v != 0) if dtype is np.bool_ else wide.astype(dtype)
        np.save(os.path.join(OUT, f"casts.{name}.npy"), ref)
    np.save(os.path.join(OUT, "casts.f.npy"),
            np.maximum(wide.astype(np.int32), 0).astype(np.float32))


def casts_wide():
    """Casts to UINT16, UINT32, UINT64 and INT64, negative and large values
    included: the unsigned wrap of a negative value is done in the integer
    result (int64 bits truncated), so the compiled model writes ONNX
    Runtime's (x86) bits, which float32 could not hold."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])
    targets = [("u16", TensorProto.UINT16, np.uint16),
               ("u32", TensorProto.UINT32, np.uint32),
               ("u64", TensorProto.UINT64, np.uint64),
               ("i64", TensorProto.INT64, np.int64)]
    graph = helper.make_graph(
        [helper.make_node("Cast", ["x"], [n], name="to_" + n, to=t)
         for n, t, _ in targets], "casts_wide", [x],
        [helper.make_tensor_value_info(n, t, [1, 8]) for n, t, _ in targets])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(OUT, "casts_wide.onnx"))
    v = np.array([[0.5, -0.5, 70000.7, -3.2, 65535.9, 1e6, -70000.2, 12.0]],
                 np.float32)
    np.save(os.path.join(OUT, "casts_wide.input.npy"), v)
    wide = np.trunc(v).astype(np.int64)
    for name, _, dtype in targets:
        np.save(os.path.join(OUT, f"casts_wide.{name}.npy"), wide.astype(dtype))


def argmax_ops():
    """ArgMin keepdims=1 with select_last_index (ties: integer inputs),
    ArgMax then Unsqueeze (keeps int64), ArgMax then Cast to FLOAT and Mul
    (float32 again)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 5, 3, 4])
    axes = helper.make_tensor("axes", TensorProto.INT64, [1], [1])
    half = helper.make_tensor("half", TensorProto.FLOAT, [], [0.5])
    nodes = [
        helper.make_node("ArgMin", ["x"], ["kept"], name="argmin", axis=1,
                         keepdims=1, select_last_index=1),
        helper.make_node("ArgMax", ["x"], ["idx"], name="argmax", axis=1,
                         keepdims=0),
        helper.make_node("Unsqueeze", ["idx", "axes"], ["unsq"],
                         name="unsqueeze"),
        helper.make_node("Cast", ["idx"], ["idxf"], name="to_float",
                         to=TensorProto.FLOAT),
        helper.make_node("Mul", ["idxf", "half"], ["scaled"], name="mul")]
    outputs = [
        helper.make_tensor_value_info("kept", TensorProto.INT64, [1, 1, 3, 4]),
        helper.make_tensor_value_info("unsq", TensorProto.INT64, [1, 1, 3, 4]),
        helper.make_tensor_value_info("scaled", TensorProto.FLOAT, [1, 3, 4])]
    graph = helper.make_graph(nodes, "argmax_ops", [x], outputs, [axes, half])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(OUT, "argmax_ops.onnx"))
    rng = np.random.default_rng(35)
    v = rng.integers(0, 3, (2, 5, 3, 4)).astype(np.float32)
    np.save(os.path.join(OUT, "argmax_ops.input.npy"), v)
    last_min = 4 - np.argmin(v[:, ::-1], axis=1)
    np.save(os.path.join(OUT, "argmax_ops.kept.npy"),
            last_min[:, None].astype(np.int64))
    idx = np.argmax(v, axis=1)
    np.save(os.path.join(OUT, "argmax_ops.unsq.npy"), idx[:, None])
    np.save(os.path.join(OUT, "argmax_ops.scaled.npy"),
            (idx * 0.5).astype(np.float32))


def invalid():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
    y = helper.make_tensor_value_info("y", TensorProto.STRING, [1, 4])
    graph = helper.make_graph(
        [helper.make_node("Cast", ["x"], ["y"], name="to_string",
                          to=TensorProto.STRING)], "bad", [x], [y])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(m, os.path.join(OUT, "invalid_cast_string.onnx"))


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    seg()
    casts()
    casts_wide()
    argmax_ops()
    invalid()
