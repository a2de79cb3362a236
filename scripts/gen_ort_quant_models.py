"""Generates ONNX Runtime operator-format (QOperator) and dynamically
quantized models, as onnxruntime.quantization writes them (crafted with
onnx.helper: onnxruntime's Python package is not needed), with test inputs,
for test/Integration/Compile/ortquant.mlir and test/Import/ortquant.mlir.

Writes to test/Import/Inputs/ortquant/:

  <name>.onnx           the model (batch 1, float input and output: it
                        starts with QuantizeLinear / DynamicQuantizeLinear
                        and ends with DequantizeLinear, or a float QGemm)
  <name>.input.npy      16 test samples (float32, stacked on dimension 0)
  <name>.scale          the output's scale (one LSB), as text
  <name>.float.npy      dynamic models: the outputs of the float model the
                        weights dequantize to (w_scale * (w_q - w_zp)),
                        computed here with torch's float32 ops
  invalid_*.onnx        models the importer must reject (one error each)

ONNX Runtime's outputs (<name>.ort.npy) come from
scripts/ort_quant_goldens.js, run after this script.

Operator format, as quantize_static(quant_format=QOperator) writes it: a
QuantizeLinear on the float input; QLinearConv (int8 weights per output
channel, or per tensor; int32 bias with scale x_scale * w_scale),
QLinearMatMul, and the com.microsoft QLinearAdd, QLinearMul,
QLinearSigmoid, QLinearLeakyRelu, QLinearGlobalAveragePool (channels_last
0 and 1), QLinearAveragePool, QLinearConcat, QGemm (per-column weights,
int32 C with scale alpha * a_scale * b_scale, quantized or float output),
QLinearSoftmax (opsets 13 and 11); MaxPool, Reshape, Pad (its constant
value uint8) and ArgMax run on the uint8 tensor; a DequantizeLinear at the
end.
Activations are uint8 (ONNX Runtime's default) or int8 (the *_s8 models).
Parameters are PyTorch's MinMaxObserver formulas over 64 calibration
samples.

MatMulInteger also on a QuantizeLinear output (integer_static: the
scale of its Mul is a constant, x_scale * w_scale).

Dynamic, as quantize_dynamic writes it: DynamicQuantizeLinear on the
activation, ConvInteger / MatMulInteger with the uint8 or int8 weight and
both zero points, Cast to float, Mul by (x_scale * w_scale), then the float
bias as Reshape + Add; a Transpose on the uint8 tensor before a
MatMulInteger (dynamic_transpose).

Usage: /usr/bin/python3 scripts/gen_ort_quant_models.py [out_dir]
"""
import os
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "test", "Import",
    "Inputs", "ortquant")
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(33)
F = torch.nn.functional
MS = "com.microsoft"
NSAMPLES = 16


def qrange(signed):
    return (-128, 127) if signed else (0, 255)


def quantize(x, scale, zp, signed):
    lo, hi = qrange(signed)
    return np.clip(np.rint(x.astype(np.float32) / np.float32(scale)) + zp,
                   lo, hi)


def dequantize(q, scale, zp):
    return ((q - zp).astype(np.float32) * np.float32(scale)).astype(
        np.float32)


def act_params(v, signed):
    """MinMaxObserver, affine: the range includes 0."""
    lo, hi = min(float(v.min()), 0.0), max(float(v.max()), 0.0)
    qlo, qhi = qrange(signed)
    scale = np.float32(max(hi - lo, 1e-6) / (qhi - qlo))
    zp = int(np.clip(qlo - np.rint(lo / scale), qlo, qhi))
    return scale, zp


class Model:
    """A graph under construction; every quantized tensor is (name, scale,
    zp, signed, calibration values, test values), the values dequantized."""

    def __init__(self, name, shape, signed=False):
        self.name, self.signed = name, signed
        self.nodes, self.inits = [], []
        self.calib = rng.normal(0, 1, (64,) + shape[1:]).astype(np.float32)
        self.test = rng.normal(0, 1, (NSAMPLES,) + shape[1:]).astype(
            np.float32)
        self.shape = shape
        self.count = 0
        self.opsets = {""}

    def init(self, name, array):
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(self, op, inputs, outputs, domain="", **attrs):
        self.count += 1
        if domain:
            self.opsets.add(domain)
        self.nodes.append(helper.make_node(
            op, inputs, outputs, name=f"{op.lower()}{self.count}",
            domain=domain or None, **attrs))
        return outputs[0]

    def qparams(self, name, scale, zp, signed):
        s = self.init(name + "_scale", np.float32(scale))
        z = self.init(name + "_zp", np.array(zp, np.int8 if signed
                                             else np.uint8))
        return s, z

    def quantized(self, name, calib, test, signed=None):
        """Output parameters for float values (calib, test) of a tensor:
        returns the quantized tensor with its dequantized values."""
        signed = self.signed if signed is None else signed
        scale, zp = act_params(calib, signed)

        def fq(v):
            return dequantize(quantize(v, scale, zp, signed), scale, zp)
        s, z = self.qparams(name, scale, zp, signed)
        return dict(name=name, s=s, z=z, scale=scale, zp=zp, signed=signed,
                    calib=fq(calib), test=fq(test))

    def input(self):
        t = self.quantized("x_q", self.calib, self.test)
        self.node("QuantizeLinear", ["x", t["s"], t["z"]], ["x_q"])
        return t

    def weight(self, name, w, axis, per_channel, signed=True):
        """int8 symmetric (or uint8 affine) weight initializer."""
        if per_channel:
            moved = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
            lo, hi = np.minimum(moved.min(1), 0), np.maximum(moved.max(1), 0)
        else:
            lo, hi = np.array([min(w.min(), 0)]), np.array([max(w.max(), 0)])
        if signed:
            scale = (np.maximum(np.abs(lo), np.abs(hi)) / 127.0).astype(
                np.float32)
            zp = np.zeros(scale.shape, np.int64)
        else:
            scale = ((hi - lo) / 255.0).astype(np.float32)
            zp = np.clip(np.rint(-lo / scale), 0, 255).astype(np.int64)
        bshape = [1] * w.ndim
        bshape[axis] = -1
        sc = scale.reshape(bshape) if per_channel else scale[0]
        zb = zp.reshape(bshape) if per_channel else zp[0]
        q = quantize(w, sc, zb, signed)
        dt = np.int8 if signed else np.uint8
        self.init(name, q.astype(dt))
        self.init(name + "_scale", scale if per_channel else scale[0])
        self.init(name + "_zp", (zp if per_channel else zp[0]).astype(dt))
        return name, dequantize(q, sc, zb), scale

    def bias(self, name, b, x_scale, w_scale, alpha=1.0):
        scale = (np.float32(alpha) * np.float32(x_scale) * w_scale).astype(
            np.float32)
        q = np.rint(b / scale).astype(np.int32)
        self.init(name, q)
        return name, (q.astype(np.float32) * scale).astype(np.float32)

    def finish(self, y, float_output=None):
        """DequantizeLinear of quantized y (or the float output) and save."""
        if float_output is None:
            self.node("DequantizeLinear", [y["name"], y["s"], y["z"]], ["y"])
            result, scale = y["test"], y["scale"]
        else:
            result, scale = float_output
        out_shape = list(result.shape)
        out_shape[0] = 1
        graph = helper.make_graph(
            self.nodes, self.name,
            [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                           list(self.shape))],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                           out_shape)], self.inits)
        opsets = [helper.make_opsetid("", 13)]
        if MS in self.opsets:
            opsets.append(helper.make_opsetid(MS, 1))
        model = helper.make_model(graph, opset_imports=opsets)
        model.ir_version = 8
        onnx.checker.check_model(model)
        onnx.save(model, os.path.join(out, self.name + ".onnx"))
        np.save(os.path.join(out, self.name + ".input.npy"), self.test)
        with open(os.path.join(out, self.name + ".scale"), "w") as f:
            f.write(f"{float(scale):.9g}\n")
        return result


def torch_op(fn, *arrays):
    return fn(*[torch.from_numpy(a) for a in arrays]).numpy()


# --- operator-format building blocks ---------------------------------------

def qconv(m, x, cin, cout, k=3, stride=1, pad=1, groups=1, per_channel=True,
          relu=False, wsigned=True):
    tag = f"c{m.count + 1}"
    w = rng.normal(0, np.sqrt(2.0 / (cin // groups * k * k)),
                   (cout, cin // groups, k, k)).astype(np.float32)
    b = rng.normal(0, 0.2, cout).astype(np.float32)
    wname, wf, ws = m.weight(tag + "_w", w, 0, per_channel, wsigned)
    bname, bf = m.bias(tag + "_b", b, x["scale"], ws)

    def run(v):
        r = torch_op(lambda a, ww, bb: F.conv2d(a, ww, bb, stride, pad,
                                                groups=groups), v, wf, bf)
        # ONNX Runtime folds a Relu into the output range (it removes the
        # Relu): the output quantization clips below 0.
        return np.maximum(r, 0) if relu else r
    y = m.quantized(tag + "_y", run(x["calib"]), run(x["test"]))
    m.node("QLinearConv", [x["name"], x["s"], x["z"], wname, wname + "_scale",
                           wname + "_zp", y["s"], y["z"], bname],
           [y["name"]], kernel_shape=[k, k], pads=[pad] * 4,
           strides=[stride, stride], group=groups)
    return y


def qbinary(m, op, a, b, fn):
    tag = f"{op.lower()}{m.count + 1}"
    y = m.quantized(tag + "_y", fn(a["calib"], b["calib"]),
                    fn(a["test"], b["test"]))
    m.node(op, [a["name"], a["s"], a["z"], b["name"], b["s"], b["z"],
                y["s"], y["z"]], [y["name"]], domain=MS)
    return y


def qunary(m, op, x, fn, **attrs):
    tag = f"{op.lower()}{m.count + 1}"
    y = m.quantized(tag + "_y", fn(x["calib"]), fn(x["test"]))
    m.node(op, [x["name"], x["s"], x["z"], y["s"], y["z"]], [y["name"]],
           domain=MS, **attrs)
    return y


def direct(m, op, x, fn, inputs=(), **attrs):
    """An op on the 8-bit tensor itself (same parameters)."""
    name = f"{op.lower()}{m.count + 1}_q"
    m.node(op, [x["name"]] + list(inputs), [name], **attrs)
    return dict(x, name=name, calib=fn(x["calib"]), test=fn(x["test"]))


def const_q(m, name, v, signed):
    """A quantized constant operand (initializer) with its parameters."""
    scale, zp = act_params(v, signed)
    q = quantize(v, scale, zp, signed)
    m.init(name, q.astype(np.int8 if signed else np.uint8))
    s, z = m.qparams(name, scale, zp, signed)
    d = dequantize(q, scale, zp)
    return dict(name=name, s=s, z=z, scale=scale, zp=zp, signed=signed,
                calib=d, test=d)


def gap(v):
    return v.mean(axis=(2, 3), keepdims=True, dtype=np.float32)


def qgemm(m, x, k, n, per_channel=True, alpha=1.0, quantized_out=True,
          trans_b=1):
    tag = f"g{m.count + 1}"
    w = rng.normal(0, 1.0 / np.sqrt(k), (n, k)).astype(np.float32)
    wt = w if trans_b else np.ascontiguousarray(w.T)
    wname, wf, ws = m.weight(tag + "_w", wt, 0 if trans_b else 1,
                             per_channel)
    b = rng.normal(0, 0.2, n).astype(np.float32)
    bname, bf = m.bias(tag + "_b", b, x["scale"], ws, alpha)
    wmat = wf if trans_b else wf.T

    def run(v):
        return (np.float32(alpha) * (v.reshape(v.shape[0], -1) @ wmat.T)
                + bf).astype(np.float32)
    inputs = [x["name"], x["s"], x["z"], wname, wname + "_scale",
              wname + "_zp", bname]
    attrs = dict(transB=trans_b)
    if alpha != 1.0:
        attrs["alpha"] = alpha
    if not quantized_out:
        m.node("QGemm", inputs, ["y"], domain=MS, **attrs)
        return None, run(x["test"])
    y = m.quantized(tag + "_y", run(x["calib"]), run(x["test"]))
    m.node("QGemm", inputs + [y["s"], y["z"]], [y["name"]], domain=MS,
           **attrs)
    return y, None


# --- the models ------------------------------------------------------------

def conv_models():
    m = Model("qlinear_conv_u8", (1, 3, 8, 8))
    x = m.input()
    y = qconv(m, x, 3, 8, relu=True)
    y = qconv(m, y, 8, 8, stride=2, groups=8, per_channel=False)
    m.finish(y)

    m = Model("qlinear_conv_s8", (1, 4, 8, 8), signed=True)
    x = m.input()
    y = qconv(m, x, 4, 6, k=3, pad=0)
    y = qconv(m, y, 6, 6, k=1, pad=0, per_channel=False)
    m.finish(y)

    m = Model("qlinear_conv_u8w", (1, 3, 6, 6))
    x = m.input()
    y = qconv(m, x, 3, 4, per_channel=False, wsigned=False)
    m.finish(y)


def matmul_model():
    m = Model("qlinear_matmul", (1, 4, 16))
    x = m.input()
    w = rng.normal(0, 0.25, (16, 8)).astype(np.float32)
    wname, wf, ws = m.weight("mm_w", w, 1, per_channel=True)

    def run(v):
        return (v @ wf).astype(np.float32)
    y = m.quantized("mm_y", run(x["calib"]), run(x["test"]))
    m.node("QLinearMatMul", [x["name"], x["s"], x["z"], wname,
                             wname + "_scale", wname + "_zp", y["s"],
                             y["z"]], [y["name"]])
    m.finish(y)


def binary_models():
    for op, fn in (("QLinearAdd", np.add), ("QLinearMul", np.multiply)):
        for signed in (False, True):
            name = op.lower().replace("qlinear", "qlinear_") + \
                ("_s8" if signed else "_u8")
            m = Model(name, (1, 4, 5, 5), signed)
            x = m.input()
            c = qconv(m, x, 4, 4)
            y = qbinary(m, op, x, c, fn)
            # A constant operand broadcast per channel.
            k = const_q(m, "k", rng.normal(0.5, 0.5, (4, 1, 1)).astype(
                np.float32), signed)
            y = qbinary(m, op, y, k, fn)
            m.finish(y)


def unary_models():
    def sigmoid(v):
        return (1.0 / (1.0 + np.exp(-v.astype(np.float64)))).astype(
            np.float32)

    def leaky(v):
        return np.where(v >= 0, v, np.float32(0.1) * v).astype(np.float32)
    for signed in (False, True):
        suffix = "_s8" if signed else "_u8"
        m = Model("qlinear_sigmoid" + suffix, (1, 4, 5, 5), signed)
        y = qunary(m, "QLinearSigmoid", m.input(), sigmoid)
        m.finish(y)
        m = Model("qlinear_leakyrelu" + suffix, (1, 4, 5, 5), signed)
        y = qunary(m, "QLinearLeakyRelu", m.input(), leaky, alpha=0.1)
        m.finish(y)

    m = Model("qlinear_gap", (1, 6, 5, 5))
    y = qunary(m, "QLinearGlobalAveragePool", m.input(), gap)
    m.finish(y)

    def gap_last(v):
        return v.mean(axis=(1, 2), keepdims=True, dtype=np.float32)
    m = Model("qlinear_gap_nhwc", (1, 5, 5, 6))
    y = qunary(m, "QLinearGlobalAveragePool", m.input(), gap_last,
               channels_last=1)
    m.finish(y)

    def avg(v):
        return torch_op(lambda a: F.avg_pool2d(a, 2, 2), v)
    m = Model("qlinear_avgpool", (1, 4, 6, 6))
    y = qunary(m, "QLinearAveragePool", m.input(), avg, kernel_shape=[2, 2],
               strides=[2, 2])
    m.finish(y)


def concat_model():
    m = Model("qlinear_concat", (1, 3, 6, 6))
    x = m.input()
    a = qconv(m, x, 3, 4)
    b = qconv(m, x, 3, 2, relu=True)

    def cat(u, v):
        return np.concatenate([u, v], axis=1)
    y = m.quantized("cat_y", cat(a["calib"], b["calib"]),
                    cat(a["test"], b["test"]))
    m.node("QLinearConcat", [y["s"], y["z"], a["name"], a["s"], a["z"],
                             b["name"], b["s"], b["z"]], [y["name"]],
           domain=MS, axis=1)
    m.finish(y)


def gemm_models():
    m = Model("qgemm", (1, 12))
    x = m.input()
    y, _ = qgemm(m, x, 12, 7, alpha=0.5)
    y, _ = qgemm(m, y, 7, 5, per_channel=False, trans_b=0)
    m.finish(y)

    m = Model("qgemm_float", (1, 12))
    x = m.input()
    _, result = qgemm(m, x, 12, 6, quantized_out=False)
    # The float output: its quantization error is that of its inputs;
    # "LSB" here is the product scale of the last layer's inputs.
    ws = numpy_helper.to_array(
        [i for i in m.inits if i.name.endswith("_w_scale")][0])
    m.finish(None, (result, float(x["scale"] * ws.max())))


def cnn_model(matmul_head):
    """QuantizeLinear -> QLinearConv -> QLinearConv -> QLinearAdd ->
    MaxPool (uint8) -> QLinearGlobalAveragePool -> Reshape (uint8) ->
    QGemm or QLinearMatMul -> DequantizeLinear."""
    name = "qcnn_matmul" if matmul_head else "qcnn"
    m = Model(name, (1, 3, 12, 12))
    x = m.input()
    a = qconv(m, x, 3, 8, relu=True)
    b = qconv(m, a, 8, 8, relu=False)
    s = qbinary(m, "QLinearAdd", a, b, np.add)

    def maxpool(v):
        return torch_op(lambda t: F.max_pool2d(t, 2, 2), v)
    p = direct(m, "MaxPool", s, maxpool, kernel_shape=[2, 2], strides=[2, 2])
    g = qunary(m, "QLinearGlobalAveragePool", p, gap)
    shape = m.init("flat_shape", np.array([1, 8], np.int64))
    f = direct(m, "Reshape", g, lambda v: v.reshape(v.shape[0], 8), [shape])
    if matmul_head:
        w = rng.normal(0, 0.35, (8, 10)).astype(np.float32)
        wname, wf, _ = m.weight("fc_w", w, 1, per_channel=True)
        y = m.quantized("fc_y", f["calib"] @ wf, f["test"] @ wf)
        m.node("QLinearMatMul", [f["name"], f["s"], f["z"], wname,
                                 wname + "_scale", wname + "_zp", y["s"],
                                 y["z"]], [y["name"]])
    else:
        y, _ = qgemm(m, f, 8, 10)
    m.finish(y)


def dynamic_model(wsigned):
    """quantize_dynamic: conv (ConvInteger) + relu + flatten + matmul
    (MatMulInteger) + bias."""
    name = "dynamic_s8" if wsigned else "dynamic_u8"
    m = Model(name, (1, 3, 8, 8))
    w = rng.normal(0, 0.3, (4, 3, 3, 3)).astype(np.float32)
    b = rng.normal(0, 0.2, 4).astype(np.float32)
    wname, wf, _ = m.weight("conv_w", w, 0, per_channel=False,
                            signed=wsigned)
    m.init("conv_b", b)
    m.node("DynamicQuantizeLinear", ["x"], ["x_q", "x_scale", "x_zp"])
    m.node("ConvInteger", ["x_q", wname, "x_zp", wname + "_zp"],
           ["conv_int"], pads=[1, 1, 1, 1], kernel_shape=[3, 3])
    m.node("Cast", ["conv_int"], ["conv_f"], to=TensorProto.FLOAT)
    m.node("Mul", ["x_scale", wname + "_scale"], ["conv_scale"])
    m.node("Mul", ["conv_f", "conv_scale"], ["conv_out"])
    m.init("conv_b_shape", np.array([1, -1, 1, 1], np.int64))
    m.node("Reshape", ["conv_b", "conv_b_shape"], ["conv_b_r"])
    m.node("Add", ["conv_out", "conv_b_r"], ["conv_y"])
    m.node("Relu", ["conv_y"], ["relu"])
    m.node("Flatten", ["relu"], ["flat"], axis=1)
    v = rng.normal(0, 0.1, (256, 10)).astype(np.float32)
    c = rng.normal(0, 0.2, 10).astype(np.float32)
    # MatMul weights per column (quantize_dynamic(per_channel=True)).
    vname, vf, _ = m.weight("fc_w", v, 1, per_channel=True, signed=wsigned)
    m.init("fc_b", c)
    m.node("DynamicQuantizeLinear", ["flat"], ["flat_q", "flat_scale",
                                               "flat_zp"])
    m.node("MatMulInteger", ["flat_q", vname, "flat_zp", vname + "_zp"],
           ["fc_int"])
    m.node("Cast", ["fc_int"], ["fc_f"], to=TensorProto.FLOAT)
    m.node("Mul", ["flat_scale", vname + "_scale"], ["fc_scale"])
    m.node("Mul", ["fc_f", "fc_scale"], ["fc_out"])
    m.node("Add", ["fc_out", "fc_b"], ["y"])

    def run(t):
        r = torch_op(lambda a, ww, bb: F.conv2d(a, ww, bb, padding=1), t, wf,
                     b)
        r = np.maximum(r, 0).reshape(t.shape[0], -1)
        return (r @ vf + c).astype(np.float32)
    result = run(m.test)
    np.save(os.path.join(out, name + ".float.npy"), result)
    m.finish(None, (result, float(np.abs(result).max() / 127)))


# --- invalid models --------------------------------------------------------

def invalid_models():
    def save(name, nodes, inits, in_shape=(1, 2, 4, 4), domains=()):
        graph = helper.make_graph(
            nodes, name,
            [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                           list(in_shape))],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
            [numpy_helper.from_array(np.asarray(v), k)
             for k, v in inits.items()])
        opsets = [helper.make_opsetid("", 13)] + [
            helper.make_opsetid(d, 1) for d in domains]
        onnx.save(helper.make_model(graph, opset_imports=opsets),
                  os.path.join(out, name + ".onnx"))

    q = helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"],
                         name="q")
    dq = helper.make_node("DequantizeLinear", ["yq", "ys", "yz"], ["y"],
                          name="dq")
    base = {"xs": np.float32(0.05), "xz": np.uint8(128),
            "ys": np.float32(0.1), "yz": np.uint8(128),
            "w": np.ones((2, 2, 3, 3), np.int8),
            "ws": np.full(2, 0.01, np.float32), "wz": np.zeros(2, np.int8)}

    def conv(inputs, **kw):
        return helper.make_node("QLinearConv", inputs, ["yq"], name="qconv",
                                pads=[1, 1, 1, 1], **kw)
    conv_in = ["xq", "xs", "xz", "w", "ws", "wz", "ys", "yz"]
    save("invalid_qconv_zero_scale", [q, conv(conv_in), dq],
         dict(base, ws=np.array([0.01, 0.0], np.float32)))
    save("invalid_qconv_zp_dtype", [q, conv(conv_in), dq],
         dict(base, wz=np.zeros(2, np.uint8)))
    save("invalid_qconv_channels", [q, conv(conv_in), dq],
         dict(base, ws=np.full(3, 0.01, np.float32),
              wz=np.zeros(3, np.int8)))
    save("invalid_qconv_missing", [q, conv(conv_in[:6]), dq], base)
    bad = conv_in[:]
    bad[1] = "xs2"
    save("invalid_qconv_x_scale", [q, conv(bad), dq],
         dict(base, xs2=np.float32(0.07)))
    save("invalid_qconv_bias", [q, conv(conv_in + ["b"]), dq],
         dict(base, b=np.zeros(2, np.float32)))
    save("invalid_qconv_float_input",
         [conv(["x"] + conv_in[1:]), dq], base)
    save("invalid_unknown_ms_op",
         [q, helper.make_node("QLinearWhere", ["xq", "xs", "xz", "ys",
                                                 "yz"], ["yq"],
                              name="qwhere", domain=MS), dq],
         base, domains=[MS])
    save("invalid_unknown_domain",
         [helper.make_node("Relu", ["x"], ["y"], name="relu",
                           domain="org.example")], {},
         domains=["org.example"])
    # Dynamic: the int32 result used as a float, a scale that is not the
    # product of the dynamic scales.
    dyn = {"w": np.ones((2, 2, 3, 3), np.int8), "wz": np.int8(0),
           "ws": np.float32(0.01)}
    dql = helper.make_node("DynamicQuantizeLinear", ["x"],
                           ["xq", "xsc", "xzp"], name="dql")
    ci = helper.make_node("ConvInteger", ["xq", "w", "xzp", "wz"], ["ci"],
                          name="convint", pads=[1, 1, 1, 1])
    save("invalid_dynamic_relu", [
        dql, ci, helper.make_node("Relu", ["ci"], ["y"], name="relu")], dyn)
    save("invalid_dynamic_scale", [
        dql, ci,
        helper.make_node("Cast", ["ci"], ["cf"], name="cast",
                         to=TensorProto.FLOAT),
        helper.make_node("Mul", ["cf", "ws"], ["y"], name="scale")], dyn)
    save("invalid_dynamic_zp", [
        dql, helper.make_node("ConvInteger", ["xq", "w", "wz", "wz"],
                              ["y"], name="convint", pads=[1, 1, 1, 1])],
         dyn)


def integer_static_model():
    """MatMulInteger on a statically quantized activation (QuantizeLinear)
    and an int8 weight per column, then Cast, Mul by x_scale * w_scale (a
    constant) and the bias: a float output."""
    m = Model("integer_static", (1, 3, 16))
    x = m.input()
    w = rng.normal(0, 0.25, (16, 6)).astype(np.float32)
    wname, wf, ws = m.weight("mm_w", w, 1, per_channel=True)
    b = rng.normal(0, 0.2, 6).astype(np.float32)
    m.init("mm_b", b)
    scale = m.init("mm_scale", (np.float32(x["scale"]) * ws).astype(
        np.float32))
    m.node("MatMulInteger", [x["name"], wname, x["z"], wname + "_zp"],
           ["mm_int"])
    m.node("Cast", ["mm_int"], ["mm_f"], to=TensorProto.FLOAT)
    m.node("Mul", ["mm_f", scale], ["mm_out"])
    m.node("Add", ["mm_out", "mm_b"], ["y"])
    result = (x["test"] @ wf + b).astype(np.float32)
    m.finish(None, (result, 1e-6))



def pad_model():
    """Pad on the uint8 tensor (ONNX Runtime's QPad: the constant value is
    quantized with the tensor's parameters), then a QLinearConv."""
    m = Model("qpad", (1, 3, 6, 6))
    x = m.input()
    value = np.float32(0.5)
    qv = int(quantize(np.array(value), x["scale"], x["zp"], False))
    m.init("pad_pads", np.array([0, 0, 1, 2, 0, 0, 2, 1], np.int64))
    m.init("pad_value", np.array(qv, np.uint8))
    dv = dequantize(np.array(qv), x["scale"], x["zp"])

    def pad(v):
        return np.pad(v, ((0, 0), (0, 0), (1, 2), (2, 1)),
                      constant_values=dv).astype(np.float32)
    p = direct(m, "Pad", x, pad, ["pad_pads", "pad_value"], mode="constant")
    y = qconv(m, p, 3, 4, pad=0)
    m.finish(y)



def softmax_argmax_models():
    """QLinearSoftmax (output scale 1/256, as ONNX Runtime fixes it) at
    opset 13 (one axis) and 11 (2-D coercion from axis 1); ArgMax on the
    uint8 output of a QLinearConv (a segmentation head), cast to float."""
    def softmax(v, axis, coerce):
        shape = v.shape
        if coerce:
            v = v.reshape(shape[0], -1)
            axis = 1
        e = np.exp(v - v.max(axis=axis, keepdims=True))
        return (e / e.sum(axis=axis, keepdims=True)).reshape(shape).astype(
            np.float32)
    for opset, axis in ((13, -1), (11, 1)):
        m = Model(f"qlinear_softmax{opset}", (1, 4, 10))
        x = m.input()
        fn = (lambda v, a=axis, c=opset < 13: softmax(v, a, c))
        s, z = m.qparams("sm_y", np.float32(1 / 256), 0, False)
        y = dict(name="sm_y", s=s, z=z, scale=np.float32(1 / 256), zp=0,
                 signed=False, calib=fn(x["calib"]), test=fn(x["test"]))
        m.node("QLinearSoftmax", [x["name"], x["s"], x["z"], s, z],
               [y["name"]], domain=MS, axis=axis, opset=opset)
        m.finish(y)

    m = Model("qargmax", (1, 3, 6, 6))
    x = m.input()
    c = qconv(m, x, 3, 5)
    m.node("ArgMax", [c["name"]], ["idx"], axis=1, keepdims=1)
    m.node("Cast", ["idx"], ["y"], to=TensorProto.FLOAT)
    m.finish(None, (c["test"].argmax(1)[:, None].astype(np.float32), 1.0))



def dynamic_transpose_model():
    """quantize_dynamic runs Transpose on the uint8 tensor (a Direct8BitOp
    on a quantized input) before a MatMulInteger, with the zero point of
    the DynamicQuantizeLinear before it."""
    m = Model("dynamic_transpose", (1, 8, 6))
    w = rng.normal(0, 0.3, (8, 5)).astype(np.float32)
    wname, wf, _ = m.weight("mm_w", w, 1, per_channel=False)
    m.node("DynamicQuantizeLinear", ["x"], ["x_q", "x_scale", "x_zp"])
    m.node("Transpose", ["x_q"], ["x_t"], perm=[0, 2, 1])
    m.node("MatMulInteger", ["x_t", wname, "x_zp", wname + "_zp"],
           ["mm_int"])
    m.node("Cast", ["mm_int"], ["mm_f"], to=TensorProto.FLOAT)
    m.node("Mul", ["x_scale", wname + "_scale"], ["mm_scale"])
    m.node("Mul", ["mm_f", "mm_scale"], ["y"])
    result = (m.test.transpose(0, 2, 1) @ wf).astype(np.float32)
    np.save(os.path.join(out, "dynamic_transpose.float.npy"), result)
    m.finish(None, (result, 1e-6))


conv_models()
matmul_model()
binary_models()
unary_models()
concat_model()
gemm_models()
cnn_model(False)
cnn_model(True)
dynamic_model(True)
dynamic_model(False)
invalid_models()
integer_static_model()
pad_model()
softmax_argmax_models()
dynamic_transpose_model()
