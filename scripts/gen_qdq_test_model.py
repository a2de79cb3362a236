"""Generates a pre-quantized (QDQ) ONNX model in ONNX Runtime's QDQ format
and its expected outputs, for test/Integration/Compile/qdq.mlir.

  qdq_resnet.onnx         conv-relu, conv + residual add-relu, depthwise
                          conv-relu, max pool, global average pool, flatten,
                          Gemm; activations as QuantizeLinear ->
                          DequantizeLinear pairs (uint8, affine), weights as
                          int8 initializers + DequantizeLinear (per output
                          channel, symmetric; per tensor for the Gemm),
                          biases as int32 initializers + DequantizeLinear
                          (scale = input scale * weight scale), as
                          onnxruntime.quantization.quantize_static writes
                          them (onnxruntime itself is not needed)
  qdq_resnet.input.npy    64 test samples (NCHW float32)
  qdq_resnet.output.npy   the outputs under ONNX semantics, computed here
                          with numpy (QuantizeLinear: round half to even of
                          x / scale, + zero point, saturate;
                          DequantizeLinear: (q - zero point) * scale) and
                          torch's float32 convolutions

  qdq_fx.onnx             PyTorch 1.13's own path: prepare_fx / convert_fx
                          (onednn qconfig) of a conv-bn-relu, conv-bn +
                          residual add-relu, average pool, linear model,
                          exported with torch.onnx.export at opset 13
                          (QuantizeLinear -> Cast -> DequantizeLinear,
                          weights as Constant nodes, bias zero points from
                          ConstantOfShape -> Cast)
  qdq_fx.input.npy        32 test samples
  qdq_fx.output.npy       the converted (int8, onednn) PyTorch model's
                          outputs on them

For test/Import/Inputs/qdq.onnx (scripts/gen_onnx_test_models.py: weights
as float initializers + QuantizeLinear + DequantizeLinear) it writes
qdq.input.npy (32 samples) and qdq.output.npy (ONNX semantics) beside
qdq_resnet.*.

It also writes, to test/Import/Inputs, models whose DequantizeLinear of an
initializer the importer must reject (qdq_bad_dtype.onnx: a float
initializer; qdq_bad_zp.onnx: an int8 weight with a uint8 zero point;
qdq_bad_axis.onnx: 3 scales along an axis of size 4) and casts it must
reject (cast_*.onnx, constant_of_shape_*.onnx).

Quantization parameters come from min/max over 64 calibration samples
(PyTorch's MinMaxObserver formulas for quint8 affine activations and
per-channel symmetric qint8 weights).

Usage: /usr/bin/python3 scripts/gen_qdq_test_model.py [out_dir [import_dir]]
"""
import os
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "test", "Integration",
    "Compile", "Inputs")
import_out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "test", "Import",
    "Inputs")
rng = np.random.default_rng(6)
F = torch.nn.functional


def quantize_linear(x, scale, zp, lo, hi):
    """ONNX QuantizeLinear (float32 x / scale, round half to even)."""
    q = np.rint(x.astype(np.float32) / np.float32(scale)) + zp
    return np.clip(q, lo, hi)


def dequantize_linear(q, scale, zp):
    return ((q - zp).astype(np.float32) * np.float32(scale)).astype(
        np.float32)


class Builder:
    def __init__(self, calib, test):
        self.nodes, self.inits = [], []
        # Values of every tensor on calibration and test inputs.
        self.calib, self.test = calib, test
        self.count = 0

    def init(self, name, array):
        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def node(self, op, inputs, name, **attrs):
        self.nodes.append(helper.make_node(op, inputs, [name], name=name,
                                           **attrs))
        return name

    def qdq(self, name, calib, test):
        """Q/DQ pair on an activation, uint8 affine from its min/max."""
        lo = min(float(calib.min()), 0.0)
        hi = max(float(calib.max()), 0.0)
        scale = np.float32((hi - lo) / 255.0)
        zp = int(np.clip(np.rint(-lo / scale), 0, 255))
        s = self.init(name + "_scale", scale)
        z = self.init(name + "_zp", np.array(zp, np.uint8))
        self.node("QuantizeLinear", [name, s, z], name + "_q")
        dq = self.node("DequantizeLinear", [name + "_q", s, z], name + "_dq")

        def fq(v):
            return dequantize_linear(quantize_linear(v, scale, zp, 0, 255),
                                     scale, zp)
        return dq, fq(calib), fq(test), scale

    def weight(self, name, w, per_channel):
        """int8 symmetric weight initializer + DequantizeLinear (axis 0)."""
        amax = np.abs(w).reshape(w.shape[0], -1).max(1) if per_channel \
            else np.array([np.abs(w).max()])
        scale = (amax / 127.0).astype(np.float32)
        bshape = (-1,) + (1,) * (w.ndim - 1) if per_channel else ()
        sc = scale.reshape(bshape) if per_channel else scale[0]
        q = quantize_linear(w, sc, 0, -128, 127).astype(np.int8)
        self.init(name + "_q", q)
        self.init(name + "_scale", scale if per_channel else scale[0])
        self.init(name + "_zp", np.zeros(scale.shape if per_channel else (),
                                          np.int8))
        self.node("DequantizeLinear",
                  [name + "_q", name + "_scale", name + "_zp"], name,
                  axis=0)
        return name, dequantize_linear(q, sc, 0), scale

    def bias(self, name, b, in_scale, w_scale):
        """int32 bias initializer + DequantizeLinear, scale s_in * s_w."""
        scale = (np.float32(in_scale) * w_scale).astype(np.float32)
        q = np.rint(b / scale).astype(np.int32)
        self.init(name + "_q", q)
        self.init(name + "_scale", scale)
        self.init(name + "_zp", np.zeros(scale.shape, np.int32))
        self.node("DequantizeLinear",
                  [name + "_q", name + "_scale", name + "_zp"], name,
                  axis=0)
        return name, dequantize_linear(q, scale, 0)


def conv(b, name, x, cin, cout, groups=1, relu=True):
    """Conv (+ Relu) on the dequantized input x = (name, calib, test,
    scale); returns its quantized output in the same form."""
    xname, xc, xt, xs = x
    w = rng.normal(0, np.sqrt(2.0 / (cin // groups * 9)),
                   (cout, cin // groups, 3, 3)).astype(np.float32)
    bias = rng.normal(0, 0.1, cout).astype(np.float32)
    wname, wf, ws = b.weight(name + "_w", w, per_channel=True)
    bname, bf = b.bias(name + "_b", bias, xs, ws)
    y = b.node("Conv", [xname, wname, bname], name, pads=[1, 1, 1, 1],
               group=groups)

    def run(v):
        r = F.conv2d(torch.from_numpy(v), torch.from_numpy(wf),
                     torch.from_numpy(bf), padding=1, groups=groups).numpy()
        return np.maximum(r, 0) if relu else r
    if relu:
        y = b.node("Relu", [y], name + "_relu")
    return b.qdq(y, run(xc), run(xt))


def build():
    calib = rng.normal(0, 1, (64, 3, 8, 8)).astype(np.float32)
    test = np.random.default_rng(7).normal(0, 1, (64, 3, 8, 8)).astype(
        np.float32)
    b = Builder(calib, test)
    x = b.qdq("x", calib, test)
    a = conv(b, "conv1", x, 3, 8)
    c = conv(b, "conv2", a, 8, 8, relu=False)
    # Residual: Add(dq(a), dq(c)) -> Relu -> Q/DQ.
    s = b.node("Add", [a[0], c[0]], "add")
    s = b.node("Relu", [s], "add_relu")
    r = b.qdq(s, np.maximum(a[1] + c[1], 0), np.maximum(a[2] + c[2], 0))
    d = conv(b, "dw", r, 8, 8, groups=8)
    # Max pool keeps the scale (ORT wraps it in Q/DQ with the same
    # parameters: a no-op on quantized values).
    p = b.node("MaxPool", [d[0]], "pool", kernel_shape=[2, 2],
               strides=[2, 2])

    def maxpool(v):
        return F.max_pool2d(torch.from_numpy(v), 2).numpy()
    p = b.qdq(p, maxpool(d[1]), maxpool(d[2]))
    g = b.node("GlobalAveragePool", [p[0]], "gap")

    def gap(v):
        return v.mean(axis=(2, 3), keepdims=True, dtype=np.float32)
    g = b.qdq(g, gap(p[1]), gap(p[2]))
    f = b.node("Flatten", [g[0]], "flatten", axis=1)
    w = rng.normal(0, 0.5, (10, 8)).astype(np.float32)
    bias = rng.normal(0, 0.1, 10).astype(np.float32)
    wname, wf, ws = b.weight("fc_w", w, per_channel=False)
    bname, bf = b.bias("fc_b", bias, g[3], ws)
    y = b.node("Gemm", [f, wname, bname], "fc", transB=1)

    def fc(v):
        return (v.reshape(v.shape[0], -1) @ wf.T + bf).astype(np.float32)
    y = b.qdq(y, fc(g[1]), fc(g[2]))
    b.node("Identity", [y[0]], "output")
    graph = helper.make_graph(
        b.nodes, "qdq_resnet",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       [1, 3, 8, 8])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT,
                                       [1, 10])], b.inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    os.makedirs(out, exist_ok=True)
    onnx.save(model, os.path.join(out, "qdq_resnet.onnx"))
    np.save(os.path.join(out, "qdq_resnet.input.npy"), test)
    np.save(os.path.join(out, "qdq_resnet.output.npy"), y[2])
    print(f"output scale {y[3]:.9g}")


def bad_models():
    """A DequantizeLinear of an initializer feeding a conv weight."""
    def save(name, w, scale, zp, axis):
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                          [1, 4, 4, 4])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                          [1, 4, 4, 4])
        inits = [numpy_helper.from_array(w, "w"),
                 numpy_helper.from_array(scale, "w_scale"),
                 numpy_helper.from_array(zp, "w_zp")]
        nodes = [helper.make_node("DequantizeLinear", ["w", "w_scale", "w_zp"],
                                  ["wdq"], name="w_dequant", axis=axis),
                 helper.make_node("Conv", ["x", "wdq"], ["y"], name="conv",
                                  pads=[1, 1, 1, 1])]
        graph = helper.make_graph(nodes, name, [x], [y], inits)
        onnx.save(helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", 13)]),
            os.path.join(import_out, name + ".onnx"))
    w = np.ones((4, 4, 3, 3), np.int8)
    save("qdq_bad_dtype", w.astype(np.float32), np.float32(0.1),
         np.float32(0), 0)
    save("qdq_bad_zp", w, np.full(4, 0.1, np.float32), np.zeros(4, np.uint8),
         0)
    save("qdq_bad_axis", w, np.full(3, 0.1, np.float32), np.zeros(3, np.int8),
         0)


def small_qdq_outputs():
    """Inputs and ONNX-semantics outputs of test/Import/Inputs/qdq.onnx."""
    model = onnx.load(os.path.join(import_out, "qdq.onnx"))
    t = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    x = np.random.default_rng(8).normal(0, 2, (32, 2, 6, 6)).astype(
        np.float32)
    lo, hi = (0, 255) if t["x_zp"].dtype == np.uint8 else (-128, 127)
    xq = dequantize_linear(
        quantize_linear(x, t["x_scale"], t["x_zp"].astype(np.int64), lo, hi),
        t["x_scale"], t["x_zp"].astype(np.int64))
    ws = t["w_scale"].reshape(-1, 1, 1, 1)
    wq = dequantize_linear(quantize_linear(t["w"], ws, 0, -128, 127), ws, 0)
    c = F.conv2d(torch.from_numpy(xq), torch.from_numpy(wq),
                 padding=1).numpy()
    r = np.maximum(c, 0)
    yzp = t["y_zp"].astype(np.int64)
    y = dequantize_linear(quantize_linear(r, t["y_scale"], yzp, -128, 127),
                          t["y_scale"], yzp)
    np.save(os.path.join(out, "qdq.input.npy"), x)
    np.save(os.path.join(out, "qdq.output.npy"), y)


class FxNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        nn = torch.nn
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(8)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(x))
        x = torch.relu(x + y)
        return self.fc(torch.flatten(self.pool(x), 1))


def fx_model():
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
    torch.manual_seed(6)
    torch.backends.quantized.engine = "onednn"
    model = FxNet().eval()
    for bn in (model.bn1, model.bn2):
        bn.weight.data.uniform_(0.5, 1.5)
        bn.bias.data.normal_(0, 0.1)
        bn.running_mean.normal_(0, 0.1)
        bn.running_var.uniform_(0.5, 2.0)
    example = torch.randn(1, 3, 8, 8)
    prepared = prepare_fx(model, get_default_qconfig_mapping("onednn"),
                          (example,))
    with torch.no_grad():
        prepared(torch.randn(64, 3, 8, 8))
    converted = convert_fx(prepared)
    torch.onnx.export(converted, example, os.path.join(out, "qdq_fx.onnx"),
                      opset_version=13, input_names=["x"],
                      output_names=["y"])
    x = torch.from_numpy(np.random.default_rng(9).normal(
        0, 1, (32, 3, 8, 8)).astype(np.float32))
    with torch.no_grad():
        y = converted(x).numpy()
    np.save(os.path.join(out, "qdq_fx.input.npy"), x.numpy())
    np.save(os.path.join(out, "qdq_fx.output.npy"), y)
    print(f"qdq_fx output scale {converted.fc.scale:.9g}")


def bad_cast_models():
    """Cast / ConstantOfShape the importer must reject."""
    def save(name, nodes, inits=()):
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                          [1, 2, 4, 4])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                          [1, 2, 4, 4])
        graph = helper.make_graph(nodes, name, [x], [y], list(inits))
        onnx.save(helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", 13)]),
            os.path.join(import_out, name + ".onnx"))
    qparams = [numpy_helper.from_array(np.float32(0.1), "s"),
               numpy_helper.from_array(np.uint8(128), "z")]
    save("cast_quantized", [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], name="q"),
        helper.make_node("Cast", ["q"], ["c"], name="to_int8",
                         to=TensorProto.INT8),
        helper.make_node("DequantizeLinear", ["c", "s", "z"], ["y"],
                         name="dq")], qparams)
    save("cast_activation", [
        helper.make_node("Cast", ["x"], ["y"], name="to_int32",
                         to=TensorProto.INT32)])
    save("cast_constant", [
        helper.make_node("Cast", ["s"], ["h"], name="to_string",
                         to=TensorProto.STRING),
        helper.make_node("Relu", ["x"], ["y"], name="relu")], qparams)
    save("cast_undefined", [
        helper.make_node("Cast", ["nope"], ["y"], name="cast",
                         to=TensorProto.FLOAT)])
    shape = numpy_helper.from_array(np.array([2, -1], np.int64), "shape")
    save("constant_of_shape_negative", [
        helper.make_node("ConstantOfShape", ["shape"], ["c"], name="fill"),
        helper.make_node("Relu", ["x"], ["y"], name="relu")], [shape])
    save("constant_of_shape_value", [
        helper.make_node("ConstantOfShape", ["shape"], ["c"], name="fill",
                         value=numpy_helper.from_array(
                             np.zeros(2, np.float32))),
        helper.make_node("Relu", ["x"], ["y"], name="relu")], [shape])


build()
bad_cast_models()
fx_model()
small_qdq_outputs()
bad_models()
