#!/usr/bin/env python3
"""Generates test/Conformance/Inputs: a tiny suite in the layout of ONNX's
backend node tests (<test>/model.onnx, <test>/test_data_set_0/input_<i>.pb
and output_<i>.pb) for test/Conformance/runner.mlir, which checks the
conformance runner itself: a passing test, a failing one (a wrong reference),
one with a folded int64 input and one whose op quantc does not import.

Usage: /usr/bin/python3 scripts/gen_conformance_runner_tests.py
"""
import os

import numpy as np
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "test", "Conformance", "Inputs", "node")


def write(name, node, inputs, outputs):
    """`inputs` / `outputs`: (name, array) pairs."""
    def info(n, a):
        dtype = TensorProto.INT64 if a.dtype == np.int64 else TensorProto.FLOAT
        return helper.make_tensor_value_info(n, dtype, list(a.shape))
    graph = helper.make_graph([node], name, [info(*i) for i in inputs],
                              [info(*o) for o in outputs])
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 13), helper.make_opsetid("com.example", 1)])
    model.ir_version = 8
    d = os.path.join(OUT, name, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(OUT, name, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    for kind, values in (("input", inputs), ("output", outputs)):
        for i, (n, a) in enumerate(values):
            with open(os.path.join(d, f"{kind}_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(a, n).SerializeToString())


def main():
    x = np.float32([[-1.5, 0.25], [2.0, -0.5]])
    write("test_relu", helper.make_node("Relu", ["x"], ["y"]), [("x", x)],
          [("y", np.maximum(x, 0))])
    write("test_relu_wrong_reference", helper.make_node("Relu", ["x"], ["y"]),
          [("x", x)], [("y", np.maximum(x, 0) + np.float32(0.01))])
    write("test_reshape_int64_shape",
          helper.make_node("Reshape", ["x", "shape"], ["y"]),
          [("x", x), ("shape", np.int64([4]))], [("y", x.reshape(4))])
    write("test_unimported_op",
          helper.make_node("Foo", ["x"], ["y"], domain="com.example"),
          [("x", x)], [("y", x)])


if __name__ == "__main__":
    main()
