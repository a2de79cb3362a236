"""Generates the small models of test/Import/exporters.mlir: ONNX graphs as
exporters other than PyTorch 1.13 write them, with reference outputs.

  /usr/bin/python3 scripts/gen_exporter_models.py

writes test/Import/Inputs/exporters/:
* paddle_det.onnx: a PaddlePaddle-style detector (paddle2onnx, opset 11):
  input x [N, 3, H, W] with every dimension but C free, graph name
  "Model from PaddlePaddle.", an upsampling whose Resize `sizes` are computed
  from the input's shape (Shape -> Slice -> Cast -> Mul -> Floor -> Cast ->
  Concat),
  a Concat with the skip connection, and a detection head whose Reshape
  shape, grid offsets (Range) and prior (ConstantOfShape) come from shapes
  too. Inputs and reference outputs (PyTorch, float32) for two shapes:
  paddle_det.{a,b}.x.npy and paddle_det.{a,b}.out.npz (boxes, scores).
* fp16.onnx: what onnxconverter_common's float16 pass writes with
  keep_io_types (a float32 interface; float16 initializers in raw_data and
  in int32_data, a float16 Constant, an InstanceNormalization with float16
  scale and bias; Cast(float -> float16) after the input,
  appended as the LAST node, and Cast(float16 -> float) before the output),
  with fp16.x.npy and fp16.out.npy: the float16 model evaluated as ONNX
  Runtime does (float16 after every op), in NumPy.
* fp16_io.onnx: the same without keep_io_types (float16 input and output,
  no Casts), with fp16_io.x.npy (float16 values; the reference is
  fp16.out.npy).
* dtypes.onnx: DOUBLE and BFLOAT16 initializers, a FLOAT16 Constant in
  int32_data, a constant Cast to float16, and an activation Cast to
  bfloat16 and back (rounding), with dtypes.x.npy / dtypes.out.npy.
* fold_unary.onnx: Neg, Abs, Sqrt, Clip and Round of a shape, folded.
* error models: cycle.onnx (a real cycle), bad_dtype.onnx (a string
  initializer), bad_constant.onnx (a complex64 Constant), int_input.onnx
  (an int64 graph input), no_shape.onnx (an input without a declared shape),
  two_inputs.onnx (for --input-shape without a name).
Needs onnx, numpy and torch (Debian python3-onnx, python3-torch); the test
does not.
"""

import os

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "test", "Import", "Inputs", "exporters")


def save(model, name, check=True):
    if check:
        onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, name + ".onnx"))


def make_model(graph, opset):
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="gen_exporter_models")
    m.ir_version = 7
    return m


def i64(name, values):
    return numpy_helper.from_array(np.asarray(values, np.int64), name)


# --------------------------------------------------------------------------
# PaddlePaddle-style detector
# --------------------------------------------------------------------------

def paddle_det(rng):
    w1 = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32)
    b1 = (rng.standard_normal(8) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((16, 8, 3, 3)) * 0.2).astype(np.float32)
    b2 = (rng.standard_normal(16) * 0.1).astype(np.float32)
    wh = (rng.standard_normal((6, 24, 1, 1)) * 0.2).astype(np.float32)
    bh = (rng.standard_normal(6) * 0.1).astype(np.float32)
    inits = [numpy_helper.from_array(w1, "conv1.w"),
             numpy_helper.from_array(b1, "conv1.b"),
             numpy_helper.from_array(w2, "conv2.w"),
             numpy_helper.from_array(b2, "conv2.b"),
             numpy_helper.from_array(wh, "head.w"),
             numpy_helper.from_array(bh, "head.b"),
             i64("c0", [0]), i64("c2", [2]), i64("c4", [4]),
             i64("c3", [3]), i64("cm1", [-1]),
             numpy_helper.from_array(np.array([2.0, 2.0], np.float32),
                                     "scale"),
             numpy_helper.from_array(np.array(0.0, np.float32), "zero"),
             numpy_helper.from_array(np.array(1.0, np.float32), "one"),
             numpy_helper.from_array(np.array([], np.float32), "empty")]
    N = helper.make_node
    nodes = [
        N("Conv", ["x", "conv1.w", "conv1.b"], ["c1"], name="conv1",
          strides=[2, 2], pads=[1, 1, 1, 1]),
        N("Relu", ["c1"], ["f1"], name="relu1"),
        N("Conv", ["f1", "conv2.w", "conv2.b"], ["c2o"], name="conv2",
          strides=[2, 2], pads=[1, 1, 1, 1]),
        N("Relu", ["c2o"], ["f2"], name="relu2"),
        # paddle.nn.functional.interpolate(f2, scale_factor=2): the output
        # size computed from the input's shape.
        N("Shape", ["f2"], ["f2.shape"], name="shape0"),
        N("Slice", ["f2.shape", "c2", "c4", "c0"], ["f2.hw"], name="slice_hw"),
        N("Cast", ["f2.hw"], ["f2.hw.f"], name="cast0", to=TensorProto.FLOAT),
        N("Mul", ["f2.hw.f", "scale"], ["up.hw.s"], name="mul0"),
        N("Floor", ["up.hw.s"], ["up.hw.f"], name="floor0"),
        N("Cast", ["up.hw.f"], ["up.hw"], name="cast1", to=TensorProto.INT64),
        N("Slice", ["f2.shape", "c0", "c2", "c0"], ["f2.nc"], name="slice_nc"),
        N("Concat", ["f2.nc", "up.hw"], ["up.sizes"], name="concat0", axis=0),
        N("Resize", ["f2", "empty", "empty", "up.sizes"], ["up"], name="resize0",
          mode="nearest", coordinate_transformation_mode="asymmetric",
          nearest_mode="floor"),
        N("Concat", ["f1", "up"], ["cat"], name="concat1", axis=1),
        N("Conv", ["cat", "head.w", "head.b"], ["head"], name="head_conv"),
        N("Split", ["head"], ["box", "cls"], name="split0", axis=1,
          split=[4, 2]),
        # Grid offsets along W: Range(0, W', 1) from the head's shape.
        N("Shape", ["box"], ["box.shape"], name="shape1"),
        N("Gather", ["box.shape", "c3"], ["box.w"], name="gather_w", axis=0),
        N("Cast", ["box.w"], ["box.w.f"], name="cast2", to=TensorProto.FLOAT),
        N("Squeeze", ["box.w.f"], ["box.w.s"], name="squeeze_w", axes=[0]),
        N("Range", ["zero", "box.w.s", "one"], ["grid"], name="range0"),
        N("Add", ["box", "grid"], ["box.g"], name="add_grid"),
        # [N, 4, H', W'] -> [N, 4, H'W'] -> [N, H'W', 4], the shape from
        # Shape -> Gather -> Concat.
        N("Shape", ["x"], ["x.shape"], name="shape2"),
        N("Gather", ["x.shape", "c0"], ["x.n"], name="gather_n", axis=0),
        N("Concat", ["x.n", "c4", "cm1"], ["box.rs"], name="concat2", axis=0),
        N("Reshape", ["box.g", "box.rs"], ["box.flat"], name="reshape0"),
        N("Transpose", ["box.flat"], ["boxes"], name="transpose0",
          perm=[0, 2, 1]),
        # Scores: sigmoid plus a prior filled by ConstantOfShape.
        N("Sigmoid", ["cls"], ["cls.s"], name="sigmoid0"),
        N("Shape", ["cls"], ["cls.shape"], name="shape3"),
        N("ConstantOfShape", ["cls.shape"], ["prior"], name="prior0",
          value=helper.make_tensor("v", TensorProto.FLOAT, [1], [0.25])),
        N("Mul", ["cls.s", "prior"], ["cls.p"], name="mul1"),
        N("Concat", ["x.n", "c2", "cm1"], ["cls.rs"], name="concat3", axis=0),
        N("Reshape", ["cls.p", "cls.rs"], ["cls.flat"], name="reshape1"),
        N("Transpose", ["cls.flat"], ["scores"], name="transpose1",
          perm=[0, 2, 1]),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                      ["N", 3, "H", "W"])
    outs = [helper.make_tensor_value_info("boxes", TensorProto.FLOAT,
                                          ["N", None, 4]),
            helper.make_tensor_value_info("scores", TensorProto.FLOAT,
                                          ["N", None, 2])]
    graph = helper.make_graph(nodes, "Model from PaddlePaddle.", [x], outs,
                              inits)
    save(make_model(graph, 11), "paddle_det")

    def reference(xv):
        t = torch.from_numpy(xv)
        f1 = F.relu(F.conv2d(t, torch.from_numpy(w1), torch.from_numpy(b1),
                             stride=2, padding=1))
        f2 = F.relu(F.conv2d(f1, torch.from_numpy(w2), torch.from_numpy(b2),
                             stride=2, padding=1))
        up = F.interpolate(f2, size=(2 * f2.shape[2], 2 * f2.shape[3]),
                           mode="nearest")
        head = F.conv2d(torch.cat([f1, up], 1), torch.from_numpy(wh),
                        torch.from_numpy(bh))
        box, cls = head[:, :4], head[:, 4:]
        box = box + torch.arange(box.shape[3], dtype=torch.float32)
        boxes = box.reshape(xv.shape[0], 4, -1).permute(0, 2, 1)
        scores = (torch.sigmoid(cls) * 0.25).reshape(xv.shape[0], 2, -1)
        return boxes.numpy(), scores.permute(0, 2, 1).numpy()

    for tag, shape in (("a", (1, 3, 24, 24)), ("b", (2, 3, 16, 24))):
        xv = rng.standard_normal(shape).astype(np.float32)
        boxes, scores = reference(xv)
        np.save(os.path.join(OUT, f"paddle_det.{tag}.x.npy"), xv)
        np.savez(os.path.join(OUT, f"paddle_det.{tag}.out.npz"),
                 boxes=np.ascontiguousarray(boxes),
                 scores=np.ascontiguousarray(scores))


# --------------------------------------------------------------------------
# float16 (onnxconverter_common's float16 pass, keep_io_types=True)
# --------------------------------------------------------------------------

def fp16_tensor_int32(name, array):
    """A FLOAT16 tensor in int32_data (one bit pattern per entry)."""
    a = np.asarray(array, np.float16)
    t = TensorProto()
    t.name = name
    t.data_type = TensorProto.FLOAT16
    t.dims.extend(a.shape)
    t.int32_data.extend(a.view(np.uint16).astype(np.int32).ravel().tolist())
    return t


def fp16_model(rng):
    # (Its own generator, so that the other models' data stay as they were.)
    norm_rng = np.random.default_rng(16)
    in_scale = norm_rng.uniform(0.5, 1.5, 8).astype(np.float16)
    in_bias = (norm_rng.standard_normal(8) * 0.1).astype(np.float16)
    w = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float16)
    b = (rng.standard_normal(8) * 0.1).astype(np.float16)
    w2 = (rng.standard_normal((4, 8, 1, 1)) * 0.3).astype(np.float16)
    bias = (rng.standard_normal((1, 4, 1, 1)) * 0.1).astype(np.float16)
    inits = [numpy_helper.from_array(w, "conv.w"),      # raw_data
             fp16_tensor_int32("conv.b", b),            # int32_data
             numpy_helper.from_array(w2, "proj.w"),
             fp16_tensor_int32("bias", bias),
             numpy_helper.from_array(in_scale, "in.s"),
             fp16_tensor_int32("in.b", in_bias)]
    N = helper.make_node
    nodes = [
        N("Conv", ["x_fp16", "conv.w", "conv.b"], ["c"], name="conv",
          pads=[1, 1, 1, 1]),
        N("Relu", ["c"], ["r"], name="relu"),
        N("InstanceNormalization", ["r", "in.s", "in.b"], ["rn"],
          name="inorm", epsilon=1e-5),
        N("Constant", [], ["k"], name="k",
          value=fp16_tensor_int32("kv", np.array([1.7], np.float16))),
        N("Mul", ["rn", "k"], ["m"], name="mul"),
        N("Conv", ["m", "proj.w"], ["p"], name="proj"),
        N("Add", ["p", "bias"], ["y_fp16"], name="add"),
        N("Cast", ["y_fp16"], ["y"], name="graph_output_cast0",
          to=TensorProto.FLOAT),
        # The converter inserts the input's Cast last.
        N("Cast", ["x"], ["x_fp16"], name="graph_input_cast0",
          to=TensorProto.FLOAT16),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])
    graph = helper.make_graph(nodes, "torch_jit", [x], [y], inits)
    # The checker refuses the node order ONNX Runtime accepts: check a
    # sorted copy.
    sorted_graph = onnx.GraphProto()
    sorted_graph.CopyFrom(graph)
    del sorted_graph.node[:]
    sorted_graph.node.extend([nodes[-1]] + nodes[:-1])
    onnx.checker.check_model(make_model(sorted_graph, 13))
    save(make_model(graph, 13), "fp16", check=False)

    # ONNX Runtime's float16 kernels: each op's result rounded to float16.
    xv = (rng.standard_normal((1, 3, 8, 8)) * 2).astype(np.float32)
    h = lambda t: torch.from_numpy(np.asarray(t, np.float16).astype(np.float32))
    r16 = lambda t: t.numpy().astype(np.float16).astype(np.float32)
    c = r16(F.conv2d(h(xv), h(w), h(b), padding=1))
    rn = r16(F.instance_norm(torch.from_numpy(np.maximum(c, 0)),
                             weight=h(in_scale), bias=h(in_bias), eps=1e-5))
    m = r16(torch.from_numpy(rn * np.float32(np.float16(1.7))))
    p = r16(F.conv2d(torch.from_numpy(m), h(w2)))
    y = r16(torch.from_numpy(p + bias.astype(np.float32)))
    np.save(os.path.join(OUT, "fp16.x.npy"), xv)
    np.save(os.path.join(OUT, "fp16.out.npy"), y)

    # Without keep_io_types: float16 graph input and output, no Casts (the
    # compiled interface is float32; the input given is float16's values).
    io_nodes = [n for n in nodes if n.op_type != "Cast"]
    io_nodes[0].input[0] = "x"
    io_nodes[-1].output[0] = "y"
    graph = helper.make_graph(
        io_nodes, "torch_jit",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [1, 4, 8, 8])],
        inits)
    save(make_model(graph, 13), "fp16_io")
    np.save(os.path.join(OUT, "fp16_io.x.npy"),
            xv.astype(np.float16).astype(np.float32))


def bf16_tensor_int32(name, array):
    """A BFLOAT16 tensor in int32_data (round to nearest even)."""
    a = np.asarray(array, np.float32)
    bits = a.view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16).astype(np.int32)
    t = TensorProto()
    t.name = name
    t.data_type = TensorProto.BFLOAT16
    t.dims.extend(a.shape)
    t.int32_data.extend(bits.ravel().tolist())
    return t, (bits.astype(np.uint32) << 16).view(np.float32).reshape(a.shape)


def dtypes_model(rng):
    dscale = rng.uniform(0.5, 1.5, (1, 4, 1, 1))  # float64
    bf, bf_value = bf16_tensor_int32(
        "bshift", rng.standard_normal((1, 4, 1, 1)).astype(np.float32))
    inits = [numpy_helper.from_array(dscale, "dscale"), bf]
    N = helper.make_node
    nodes = [
        N("Cast", ["dscale"], ["scale"], name="cast_scale",
          to=TensorProto.FLOAT),
        N("Cast", ["bshift"], ["shift"], name="cast_shift",
          to=TensorProto.FLOAT),
        N("Constant", [], ["third16"], name="third",
          value=fp16_tensor_int32("t", np.array([1 / 3], np.float16))),
        N("Cast", ["third16"], ["third"], name="cast_third",
          to=TensorProto.FLOAT),
        N("Mul", ["x", "scale"], ["a"], name="mul"),
        N("Add", ["a", "shift"], ["b"], name="add"),
        N("Cast", ["b"], ["b16"], name="to_bf16", to=TensorProto.BFLOAT16),
        N("Cast", ["b16"], ["b32"], name="from_bf16", to=TensorProto.FLOAT),
        N("Cast", ["b32"], ["h16"], name="to_fp16", to=TensorProto.FLOAT16),
        N("Cast", ["h16"], ["h32"], name="from_fp16", to=TensorProto.FLOAT),
        N("Mul", ["h32", "third"], ["y"], name="mul_third"),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4, 3, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4, 3, 3])
    graph = helper.make_graph(nodes, "dtypes", [x], [y], inits)
    save(make_model(graph, 13), "dtypes")
    xv = (rng.standard_normal((2, 4, 3, 3)) * 100).astype(np.float32)
    b = xv * dscale.astype(np.float32) + bf_value
    # float32 -> bfloat16 (round to nearest even) -> float16 -> * (1/3)_fp16
    bits = b.view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16).astype(np.uint32)
    b = (bits << 16).view(np.float32).reshape(b.shape)
    y = b.astype(np.float16).astype(np.float32) * np.float32(np.float16(1 / 3))
    np.save(os.path.join(OUT, "dtypes.x.npy"), xv)
    np.save(os.path.join(OUT, "dtypes.out.npy"), y.astype(np.float32))


def fold_unary():
    """Unary ops and Clip on a shape: folded at import."""
    N = helper.make_node
    nodes = [N("Shape", ["x"], ["s"], name="shape"),
             N("Cast", ["s"], ["sf"], name="cast", to=TensorProto.FLOAT),
             N("Neg", ["sf"], ["n"], name="neg"),
             N("Abs", ["n"], ["a"], name="abs"),
             N("Sqrt", ["a"], ["q"], name="sqrt"),
             N("Clip", ["q", "lo", "hi"], ["c"], name="clip"),
             N("Round", ["c"], ["r"], name="round"),
             N("Add", ["x", "r"], ["y"], name="add")]
    inits = [numpy_helper.from_array(np.array(1.2, np.float32), "lo"),
             numpy_helper.from_array(np.array(2.6, np.float32), "hi")]
    graph = helper.make_graph(
        nodes, "fold_unary",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 2, 3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 2, 3, 4])],
        inits)
    save(make_model(graph, 13), "fold_unary")


# --------------------------------------------------------------------------
# Malformed models
# --------------------------------------------------------------------------

def error_models():
    N = helper.make_node
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 4, 4])
    # relu_a reads relu_c's output: a -> b -> c -> a.
    nodes = [N("Relu", ["x"], ["r0"], name="relu0"),
             N("Add", ["r0", "c"], ["a"], name="add_a"),
             N("Relu", ["a"], ["b"], name="relu_b"),
             N("Relu", ["b"], ["c"], name="relu_c"),
             N("Relu", ["c"], ["y"], name="relu_y")]
    m = make_model(helper.make_graph(nodes, "cycle", [x], [y]), 13)
    onnx.save(m, os.path.join(OUT, "cycle.onnx"))  # the checker refuses it

    s = TensorProto()
    s.name = "names"
    s.data_type = TensorProto.STRING
    s.dims.extend([1])
    s.string_data.append(b"cat")
    nodes = [N("Relu", ["x"], ["y"], name="relu")]
    m = make_model(helper.make_graph(nodes, "bad_dtype", [x], [y], [s]), 13)
    onnx.save(m, os.path.join(OUT, "bad_dtype.onnx"))

    c = N("Constant", [], ["k"], name="k",
          value=helper.make_tensor("kv", TensorProto.COMPLEX64, [1], [1 + 2j]))
    nodes_k = [c, N("Relu", ["x"], ["y"], name="relu")]
    m = make_model(helper.make_graph(nodes_k, "bad_constant", [x], [y]), 13)
    onnx.save(m, os.path.join(OUT, "bad_constant.onnx"))

    xi = helper.make_tensor_value_info("x", TensorProto.INT64, [1, 2, 4, 4])
    m = make_model(helper.make_graph(
        [N("Cast", ["x"], ["y"], name="cast", to=TensorProto.FLOAT)],
        "int_input", [xi], [y]), 13)
    save(m, "int_input")

    xs = helper.make_tensor_value_info("x", TensorProto.FLOAT, None)
    m = make_model(helper.make_graph(nodes, "no_shape", [xs], [y]), 13)
    save(m, "no_shape", check=False)  # the checker wants a shape

    x2 = helper.make_tensor_value_info("x2", TensorProto.FLOAT,
                                       ["N", 2, "H", "W"])
    x1 = helper.make_tensor_value_info("x1", TensorProto.FLOAT,
                                       ["N", 2, "H", "W"])
    nodes = [N("Add", ["x1", "x2"], ["y"], name="add")]
    m = make_model(helper.make_graph(nodes, "two_inputs", [x1, x2], [y]), 13)
    save(m, "two_inputs")


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(33)
    torch.manual_seed(0)
    paddle_det(rng)
    fp16_model(rng)
    dtypes_model(rng)
    fold_unary()
    error_models()


if __name__ == "__main__":
    main()
