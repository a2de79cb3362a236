#!/usr/bin/python3
"""ONNX Runtime's int8 contestant for bench/peers: a QDQ model as ORT's own
static quantization (onnxruntime.quantization.quantize_static, QDQ format,
MinMax calibration) would write it, generated with the onnx and numpy
packages only (ORT's quantization tools are Python-only and not installed:
the ORT contestant is onnxruntime-node).

Format (ORT's defaults for quantize_static(quant_format=QDQ,
activation_type=QUInt8, weight_type=QInt8, per_channel=True)):
- activations: uint8, asymmetric, per tensor, from the MinMax range of the
  float model over the calibration images (the range extended to include 0;
  scale = (max - min) / 255, zero point = round(-min / scale));
- weights of Conv and Gemm: int8, symmetric (zero point 0, [-127, 127]),
  per output channel (axis 0; Gemm with transB=0: axis 1), with
  DequantizeLinear(axis); MatMul's constant operand per tensor;
- biases: int32, scale in_scale * w_scale per channel, zero point 0, with
  DequantizeLinear;
- QuantizeLinear -> DequantizeLinear pairs on the float inputs and outputs
  of Conv, Gemm, MatMul, Add, Mul, Sigmoid, GlobalAveragePool, AveragePool,
  Concat (ORT's session turns each DQ -> op -> Q group into QLinearConv,
  QGemm, QLinearMatMul, QLinearAdd, QLinearMul, QLinearSigmoid,
  QLinearGlobalAveragePool, QLinearAveragePool, QLinearConcat);
- MaxPool, Reshape, Transpose, Squeeze, Unsqueeze: output quantized with
  its input's parameters (ORT drops the pair: the op runs on uint8);
- Relu and Clip(min 0) right after a quantized op whose output feeds only
  them are removed, their output's range taken for that op's output (ORT's
  QDQRemovableActivation: the zero point 0 clamps at 0, the range's max at
  the top);
- ops on integers (shape arithmetic) are left alone;
- every other op (Flatten, HardSigmoid, ...) stays float between the
  DequantizeLinear of its input and the QuantizeLinear of its consumer;
- first, Constant nodes and Identity nodes of initializers become
  initializers (ORT's quantization pre-processing does as much).
A quantized tensor feeds all its consumers through one DequantizeLinear.

Usage:
  qdq.py augment model.onnx augmented.onnx
      the model with every float activation tensor as a graph output (run
      it with ort_bench.js ranges to get ranges.json)
  qdq.py quantize model.onnx ranges.json calib.npy qdq.onnx
      the QDQ model (calib.npy: the calibration images, for the input's
      range)
  qdq.py rebatch model.onnx out.onnx B
      the model with the batch dimension of its inputs and outputs set to B
      (value_info dropped; for models whose Reshapes do not fix the batch,
      e.g. torchvision's, which use Flatten)
  qdq.py histogram optimized.onnx
      the op types of a graph with their counts, as JSON
"""
import collections
import json
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

QUANTIZED_OPS = {"Conv", "Gemm", "MatMul", "Add", "Mul", "Sigmoid",
                 "GlobalAveragePool", "AveragePool", "Concat"}
SHARED_OPS = {"MaxPool", "Reshape", "Transpose", "Squeeze", "Unsqueeze"}
REMOVABLE_OPS = {"Relu", "Clip"}


def float_tensors(model):
    """Names of the float32 tensors produced by the graph's nodes."""
    inferred = onnx.shape_inference.infer_shapes(model)
    types = {v.name: v.type.tensor_type.elem_type
             for v in list(inferred.graph.value_info) +
             list(inferred.graph.output)}
    names = []
    for node in model.graph.node:
        for out in node.output:
            if out and types.get(out) == TensorProto.FLOAT:
                names.append(out)
    return names


def augment(model):
    """Every float activation tensor of `model` as an extra graph output."""
    model = onnx.ModelProto.FromString(model.SerializeToString())
    existing = {o.name for o in model.graph.output}
    for name in float_tensors(model):
        if name not in existing:
            model.graph.output.append(
                helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
    return model


def constant_value(graph, name):
    """The value of an initializer or Constant node output, else None."""
    for init in graph.initializer:
        if init.name == name:
            return numpy_helper.to_array(init)
    for node in graph.node:
        if node.op_type == "Constant" and node.output[0] == name:
            for a in node.attribute:
                if a.name == "value":
                    return numpy_helper.to_array(a.t)
    return None


def fold_constants(model):
    """Constant nodes and Identity nodes of initializers (torch.onnx.export
    shares equal initializers through Identity, e.g. the all-zero biases of
    several Convs) become initializers, as ORT's quantization pre-processing
    (its basic graph optimizations) does; else those weights and biases
    would be taken for activations."""
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    kept = []
    for node in graph.node:
        if node.op_type == "Constant" and len(node.attribute) == 1 \
                and node.attribute[0].name == "value":
            tensor = onnx.TensorProto()
            tensor.CopyFrom(node.attribute[0].t)
            tensor.name = node.output[0]
            graph.initializer.append(tensor)
            inits[tensor.name] = tensor
        elif node.op_type == "Identity" and node.input[0] in inits:
            tensor = onnx.TensorProto()
            tensor.CopyFrom(inits[node.input[0]])
            tensor.name = node.output[0]
            graph.initializer.append(tensor)
            inits[tensor.name] = tensor
        else:
            kept.append(node)
    del graph.node[:]
    graph.node.extend(kept)
    return model


def activation_params(lo, hi):
    """uint8 asymmetric (scale, zero point) for the range [lo, hi]."""
    lo, hi = min(float(lo), 0.0), max(float(hi), 0.0)
    scale = (hi - lo) / 255.0
    if scale == 0.0:
        scale = 1.0
    zero_point = int(np.clip(round(-lo / scale), 0, 255))
    return np.float32(scale), zero_point


def quantize(model, ranges, input_range):
    """The QDQ model (see the module docstring). `ranges`: tensor name ->
    [min, max] over the calibration images; `input_range`: the graph
    input's [min, max]."""
    model = fold_constants(onnx.ModelProto.FromString(
        model.SerializeToString()))
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    graph_inputs = [i.name for i in graph.input if i.name not in inits]
    graph_outputs = {o.name for o in graph.output}
    ranges = dict(ranges)
    for name in graph_inputs:
        ranges[name] = list(input_range)

    def consumers_of(nodes):
        result = collections.defaultdict(list)
        for node in nodes:
            for name in node.input:
                result[name].append(node)
        return result

    # Relu / Clip(min 0) after a quantized op whose output feeds only them:
    # the op writes the activation's output directly.
    nodes = list(graph.node)
    producer = {out: node for node in nodes for out in node.output}
    consumers = consumers_of(nodes)
    removed = set()
    for node in nodes:
        if node.op_type not in REMOVABLE_OPS:
            continue
        if node.op_type == "Clip":
            low = (constant_value(graph, node.input[1])
                   if len(node.input) > 1 and node.input[1] else None)
            if low is None or float(low) != 0.0:
                continue
        source = node.input[0]
        up = producer.get(source)
        if (up is None or up.op_type not in QUANTIZED_OPS
                or len(consumers[source]) != 1 or source in graph_outputs
                or node.output[0] not in ranges):
            continue
        for i, out in enumerate(up.output):
            if out == source:
                up.output[i] = node.output[0]
        removed.add(id(node))
    nodes = [n for n in nodes if id(n) not in removed]
    producer = {out: node for node in nodes for out in node.output}
    consumers = consumers_of(nodes)

    # Which activations are quantized, with which (scale, zero point)
    # initializers: `params[tensor] = (scale name, zero point name)`.
    quantized = {}   # tensor -> (scale, zero point) or a tensor it shares
    weight_inputs = {"Conv": (1, 2), "Gemm": (1, 2), "MatMul": (1, None)}

    def on_floats(node):
        # Shape arithmetic (an int64 Mul of a ViT's reshape) stays as is:
        # every input a float activation (one with a range) or a float
        # initializer (or an int32 bias).
        w, b = weight_inputs.get(node.op_type, (None, None))
        for i, name in enumerate(node.input):
            if not name:
                continue
            if name in inits:
                if inits[name].data_type != TensorProto.FLOAT and i != b:
                    return False
            elif name not in ranges:
                return False
        return True

    for node in nodes:
        if node.op_type not in QUANTIZED_OPS or not on_floats(node):
            continue
        w, b = weight_inputs.get(node.op_type, (None, None))
        for i, name in enumerate(node.input):
            if not name or i in (w, b) and name in inits:
                continue
            if name in inits or name in ranges:
                quantized.setdefault(name, None)
        if node.output[0] in ranges:
            quantized.setdefault(node.output[0], None)
    shared = {}
    for node in nodes:  # topological order: a chain shares its first params
        if node.op_type in SHARED_OPS and node.input[0] in quantized:
            source = shared.get(node.input[0], node.input[0])
            shared[node.output[0]] = source
            quantized[node.output[0]] = None

    new_inits = []
    params = {}
    for name in quantized:
        if name in shared:
            continue
        if name in inits:
            value = numpy_helper.to_array(inits[name])
            lo, hi = float(value.min()), float(value.max())
        else:
            lo, hi = ranges[name]
        scale, zero_point = activation_params(lo, hi)
        s, z = f"{name}_scale", f"{name}_zero_point"
        new_inits.append(numpy_helper.from_array(np.array(scale), s))
        new_inits.append(numpy_helper.from_array(
            np.array(zero_point, np.uint8), z))
        params[name] = (s, z, float(scale))
    for name, source in shared.items():
        params[name] = params[source]

    # Weights and biases.
    dq_nodes = []
    replaced_inputs = {}  # (node id, input index) -> new tensor name
    for node in nodes:
        if node.op_type not in weight_inputs or not on_floats(node):
            continue
        w, b = weight_inputs[node.op_type]
        if len(node.input) <= w or node.input[w] not in inits:
            continue
        if node.input[0] not in params:
            continue
        weight = numpy_helper.to_array(inits[node.input[w]]).astype(np.float32)
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        if node.op_type == "Conv":
            axis = 0
        elif node.op_type == "Gemm":
            axis = 0 if attrs.get("transB", 0) else 1
        else:
            axis = None  # MatMul: per tensor
        if axis is None:
            absmax = np.array(np.abs(weight).max(), np.float32)
        else:
            other = tuple(d for d in range(weight.ndim) if d != axis)
            absmax = np.abs(weight).max(axis=other)
        w_scale = np.where(absmax > 0, absmax / 127.0, 1.0).astype(np.float32)
        shape = [1] * weight.ndim
        if axis is not None:
            shape[axis] = -1
        q = np.clip(np.round(weight / w_scale.reshape(shape)), -127, 127)
        base = f"{node.name or node.output[0]}_{node.input[w]}"
        wq, ws, wz, wd = (f"{base}_quantized", f"{base}_scale",
                          f"{base}_zero_point", f"{base}_dequantized")
        new_inits += [numpy_helper.from_array(q.astype(np.int8), wq),
                      numpy_helper.from_array(w_scale, ws),
                      numpy_helper.from_array(
                          np.zeros(w_scale.shape, np.int8), wz)]
        dq_attrs = {"axis": axis} if axis is not None else {}
        dq_nodes.append(helper.make_node("DequantizeLinear", [wq, ws, wz],
                                         [wd], name=f"{base}_DequantizeLinear",
                                         **dq_attrs))
        replaced_inputs[(id(node), w)] = wd
        if b is not None and len(node.input) > b and node.input[b] in inits:
            bias = numpy_helper.to_array(inits[node.input[b]]).astype(
                np.float64)
            b_scale = (params[node.input[0]][2] *
                       w_scale.astype(np.float64)).astype(np.float32)
            b_scale = np.broadcast_to(b_scale, bias.shape).copy()
            bq = np.round(bias / b_scale).astype(np.int32)
            base = f"{node.name or node.output[0]}_{node.input[b]}"
            bqn, bs, bz, bd = (f"{base}_quantized", f"{base}_scale",
                               f"{base}_zero_point", f"{base}_dequantized")
            new_inits += [numpy_helper.from_array(bq, bqn),
                          numpy_helper.from_array(b_scale, bs),
                          numpy_helper.from_array(
                              np.zeros(bias.shape, np.int32), bz)]
            dq_nodes.append(helper.make_node(
                "DequantizeLinear", [bqn, bs, bz], [bd],
                name=f"{base}_DequantizeLinear", axis=0))
            replaced_inputs[(id(node), b)] = bd

    # Q -> DQ pairs. A graph output keeps its name: its producer writes
    # <name>_float instead.
    def qdq(tensor, source):
        s, z, _ = params[tensor]
        qn, dq = f"{tensor}_QuantizeLinear_Output", (
            tensor if tensor in graph_outputs
            else f"{tensor}_DequantizeLinear_Output")
        return [helper.make_node("QuantizeLinear", [source, s, z], [qn],
                                 name=f"{tensor}_QuantizeLinear"),
                helper.make_node("DequantizeLinear", [qn, s, z], [dq],
                                 name=f"{tensor}_DequantizeLinear")], dq

    dequantized = {}
    out_nodes = list(dq_nodes)
    for name in graph_inputs:
        if name in params:
            pair, dequantized[name] = qdq(name, name)
            out_nodes += pair
    for name in quantized:  # constant operands of Add / Mul / Concat
        if name in inits:
            s, z, scale = params[name]
            value = numpy_helper.to_array(inits[name]).astype(np.float32)
            zp = numpy_helper.to_array(
                next(i for i in new_inits if i.name == z))
            q = np.clip(np.round(value / scale) + zp, 0, 255).astype(np.uint8)
            new_inits.append(numpy_helper.from_array(q, f"{name}_quantized"))
            dequantized[name] = f"{name}_dequantized"
            out_nodes.append(helper.make_node(
                "DequantizeLinear", [f"{name}_quantized", s, z],
                [dequantized[name]], name=f"{name}_DequantizeLinear"))
    pending = []
    for node in nodes:
        for i, name in enumerate(node.input):
            if (id(node), i) in replaced_inputs:
                node.input[i] = replaced_inputs[(id(node), i)]
            elif name in dequantized:
                node.input[i] = dequantized[name]
        for i, out in enumerate(node.output):
            if out in params and out not in graph_inputs:
                source = out
                if out in graph_outputs:
                    source = f"{out}_float"
                    node.output[i] = source
                pair, dequantized[out] = qdq(out, source)
                pending.append(pair)
        out_nodes.append(node)
        for pair in pending:
            out_nodes += pair
        pending = []

    # Constant nodes only the removed Clips read (their min and max).
    used = {name for node in out_nodes for name in node.input} | graph_outputs
    out_nodes = [n for n in out_nodes if n.op_type != "Constant"
                 or any(o in used for o in n.output)]
    kept = [i for i in graph.initializer if i.name in used]
    del graph.node[:]
    graph.node.extend(out_nodes)
    del graph.initializer[:]
    graph.initializer.extend(kept + [i for i in new_inits if i.name in used])
    del graph.value_info[:]
    onnx.checker.check_model(model)
    return model


def rebatch(model, batch):
    """`model` with its inputs' and outputs' first dimension set to
    `batch` and its value_info dropped."""
    model = onnx.ModelProto.FromString(model.SerializeToString())
    inits = {i.name for i in model.graph.initializer}
    for v in list(model.graph.input) + list(model.graph.output):
        if v.name in inits:
            continue
        dims = v.type.tensor_type.shape.dim
        if dims:
            dims[0].Clear()
            dims[0].dim_value = batch
    del model.graph.value_info[:]
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    for v in inferred.graph.output:
        dims = v.type.tensor_type.shape.dim
        if dims and dims[0].dim_value not in (0, batch):
            raise SystemExit(f"qdq.py rebatch: output {v.name} has batch "
                             f"{dims[0].dim_value}, not {batch}")
    return model


def histogram(model):
    counts = collections.Counter(
        (f"{n.domain}." if n.domain not in ("", "ai.onnx") else "") +
        n.op_type for n in model.graph.node)
    return dict(counts.most_common())


def main(argv):
    if len(argv) == 3 and argv[0] == "augment":
        onnx.save(augment(onnx.load(argv[1])), argv[2])
    elif len(argv) == 5 and argv[0] == "quantize":
        with open(argv[2]) as f:
            ranges = json.load(f)
        images = np.load(argv[3])
        model = quantize(onnx.load(argv[1]), ranges,
                         (float(images.min()), float(images.max())))
        onnx.save(model, argv[4])
    elif len(argv) == 4 and argv[0] == "rebatch":
        onnx.save(rebatch(onnx.load(argv[1]), int(argv[3])), argv[2])
    elif len(argv) == 2 and argv[0] == "histogram":
        print(json.dumps(histogram(onnx.load(argv[1]))))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
