#!/usr/bin/python3
"""Writes the ONNX models and reference data of test/Import/Inputs.

Models (random weights, seed 0, batch norms with non-trivial statistics):
  resnet_block.onnx  conv-bn-relu, residual conv-bn + add + relu, maxpool,
                     stride-2 conv (padding trimmed in TOSA), global average
                     pooling, flatten, linear
  mobile.onnx        depthwise conv + Clip(0, 6), grouped conv (groups 2),
                     average pooling with padding (count_include_pad=0),
                     concat on channels, flatten of a 4-D tensor with spatial
                     size > 1, Gemm
  two_tower.onnx     two inputs ("image" [1, 3, 12, 12], "features" [1, 6])
                     and two outputs ("scores" [1, 10], "embedding" [1, 8]):
                     a conv tower and a linear tower, concatenated into a
                     classifier, added into an embedding; with
                     two_tower.calib.npz (32 samples of each input) and its
                     inputs and PyTorch's outputs as .npy files
                     (two_tower.{image,features,scores,embedding}.npy)
  qdq.onnx           QuantizeLinear/DequantizeLinear pairs (per tensor on the
                     activation, per axis on the weight) around a conv, built
                     with onnx.helper
  bad_op.onnx        a graph with an op the importer does not support
  missing_init.onnx  a node input that is neither a graph input, an
                     initializer nor a node output
Each runnable model also gets <name>.input.npy (NCHW float32) and
<name>.output.npy (the output torch/onnx computes).

Usage: /usr/bin/python3 scripts/gen_onnx_test_models.py [out_dir]
(Debian python3-torch 1.13 and python3-onnx.)
"""
import os
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "test", "Import",
    "Inputs")
torch.manual_seed(0)
rng = np.random.default_rng(0)


def randomize_bn(m):
    for mod in m.modules():
        if isinstance(mod, torch.nn.BatchNorm2d):
            c = mod.num_features
            mod.weight.data = torch.empty(c).uniform_(0.5, 1.5)
            mod.bias.data = torch.randn(c) * 0.1
            mod.running_mean = torch.randn(c) * 0.1
            mod.running_var = torch.empty(c).uniform_(0.5, 2.0)


class ResNetBlock(torch.nn.Module):
    def __init__(self):
        super().__init__()
        nn = torch.nn
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(8)
        self.conv3 = nn.Conv2d(8, 8, 3, padding=1)
        self.bn3 = nn.BatchNorm2d(8)
        self.conv4 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.pool(torch.relu(self.bn1(self.conv1(x))))
        y = torch.relu(self.bn2(self.conv2(x)))
        y = self.bn3(self.conv3(y))
        x = torch.relu(x + y)
        x = torch.relu(self.conv4(x))
        return self.fc(torch.flatten(self.gap(x), 1))


class Mobile(torch.nn.Module):
    def __init__(self):
        super().__init__()
        nn = torch.nn
        self.dw = nn.Conv2d(4, 4, 3, padding=1, groups=4)
        self.bn = nn.BatchNorm2d(4)
        self.grouped = nn.Conv2d(4, 8, 3, padding=1, groups=2)
        self.pool = nn.AvgPool2d(3, stride=2, padding=1,
                                 count_include_pad=False)
        self.side = nn.Conv2d(4, 4, 1, stride=2)
        self.fc = nn.Linear(12 * 5 * 5, 6)

    def forward(self, x):
        x = torch.clamp(self.bn(self.dw(x)), 0, 6)
        a = self.pool(self.grouped(x))
        b = self.side(x)
        return self.fc(torch.flatten(torch.cat([a, b], 1), 1))


class TwoTower(torch.nn.Module):
    def __init__(self):
        super().__init__()
        nn = torch.nn
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.linear = nn.Linear(6, 16)
        self.classifier = nn.Linear(32, 10)
        self.project = nn.Linear(16, 8)

    def forward(self, image, features):
        x = self.pool(torch.relu(self.bn1(self.conv1(image))))
        x = torch.flatten(self.gap(torch.relu(self.conv2(x))), 1)
        y = torch.relu(self.linear(features))
        scores = self.classifier(torch.cat([x, y], 1))
        return scores, self.project(x + y)


def two_tower():
    model = TwoTower().eval()
    randomize_bn(model)
    image = rng.standard_normal((32, 3, 12, 12)).astype(np.float32)
    features = (rng.standard_normal((32, 6)) * 2).astype(np.float32)
    torch.onnx.export(model, (torch.from_numpy(image[:1]),
                              torch.from_numpy(features[:1])),
                      os.path.join(out, "two_tower.onnx"), opset_version=13,
                      input_names=["image", "features"],
                      output_names=["scores", "embedding"],
                      do_constant_folding=True)
    with torch.no_grad():
        scores, embedding = model(torch.from_numpy(image),
                                  torch.from_numpy(features))
    np.savez(os.path.join(out, "two_tower.calib.npz"), image=image,
             features=features)
    for name, array in (("image", image), ("features", features),
                        ("scores", scores.numpy()),
                        ("embedding", embedding.numpy())):
        np.save(os.path.join(out, f"two_tower.{name}.npy"), array)


def export(model, shape, name):
    model.eval()
    randomize_bn(model)
    x = torch.from_numpy(rng.standard_normal(shape).astype(np.float32))
    path = os.path.join(out, name + ".onnx")
    torch.onnx.export(model, x, path, opset_version=13,
                      training=torch.onnx.TrainingMode.PRESERVE,
                      input_names=["input"], output_names=["output"],
                      do_constant_folding=True)
    with torch.no_grad():
        y = model(x).numpy()
    np.save(os.path.join(out, name + ".input.npy"), x.numpy())
    np.save(os.path.join(out, name + ".output.npy"), y)


def qdq_model():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 6, 6])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 6, 6])
    w = rng.normal(0, 0.5, (3, 2, 3, 3)).astype(np.float32)
    wscale = (np.abs(w).reshape(3, -1).max(1) / 127).astype(np.float32)
    inits = [
        numpy_helper.from_array(w, "w"),
        numpy_helper.from_array(np.array(0.05, np.float32), "x_scale"),
        numpy_helper.from_array(np.array(128, np.uint8), "x_zp"),
        numpy_helper.from_array(wscale, "w_scale"),
        numpy_helper.from_array(np.zeros(3, np.int8), "w_zp"),
        numpy_helper.from_array(np.array(0.1, np.float32), "y_scale"),
        numpy_helper.from_array(np.array(-3, np.int8), "y_zp"),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_scale", "x_zp"], ["xq"],
                         name="x_quant"),
        helper.make_node("DequantizeLinear", ["xq", "x_scale", "x_zp"],
                         ["xdq"], name="x_dequant"),
        helper.make_node("QuantizeLinear", ["w", "w_scale", "w_zp"], ["wq"],
                         name="w_quant", axis=0),
        helper.make_node("DequantizeLinear", ["wq", "w_scale", "w_zp"],
                         ["wdq"], name="w_dequant", axis=0),
        helper.make_node("Conv", ["xdq", "wdq"], ["c"], name="conv",
                         pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("QuantizeLinear", ["r", "y_scale", "y_zp"], ["rq"],
                         name="r_quant"),
        helper.make_node("DequantizeLinear", ["rq", "y_scale", "y_zp"], ["y"],
                         name="r_dequant"),
    ]
    graph = helper.make_graph(nodes, "qdq", [x], [y], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "qdq.onnx"))


def error_models():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 4, 4])
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"], name="relu"),
         helper.make_node("Hardmax", ["r"], ["y"], name="hardmax")],
        "bad_op", [x], [y])
    onnx.save(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 13)]),
        os.path.join(out, "bad_op.onnx"))
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "bias"], ["y"], name="add_bias")],
        "missing_init", [x], [y])
    onnx.save(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 13)]),
        os.path.join(out, "missing_init.onnx"))
    xd = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       ["N", 2, 4, 4])
    yd = helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       ["N", 2, 4, 4])
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"], name="relu")],
        "dynamic", [xd], [yd])
    onnx.save(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 13)]),
        os.path.join(out, "dynamic.onnx"))


os.makedirs(out, exist_ok=True)
export(ResNetBlock(), (1, 3, 16, 16), "resnet_block")
export(Mobile(), (1, 4, 10, 10), "mobile")
qdq_model()
error_models()
two_tower()
