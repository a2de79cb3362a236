#!/usr/bin/python3
"""A test of ort_threads.py where onnxruntime's Python package is missing
(here ONNX Runtime is onnxruntime-node): a fake `onnxruntime` module with the
parts of its API that ort_threads.py uses (SessionOptions with the real
attribute names only, ExecutionMode, GraphOptimizationLevel, InferenceSession
from model bytes, get_inputs, run) computes a global average pool; the test
makes a run directory with a one-node model per kind and checks the printed
lines, the session options, the passes and the notes (identical outputs,
the difference from quantc's outputs, outputs that differ between thread
counts). Also runs --dry-run, which loads the models with onnx.

Run: /usr/bin/python3 bench/threads/test_ort_threads.py   (prints "ok")
"""
import contextlib
import gzip
import io
import os
import sys
import tempfile
import types

import numpy as np
import onnx
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ort_threads  # noqa: E402

SHAPE = [1, 3, 8, 8]
sessions = []  # (options, providers) of every session made


def fake_onnxruntime(wobble):
    """The fake module; `wobble`: outputs depend on the thread count."""
    ort = types.ModuleType("onnxruntime")
    ort.ExecutionMode = types.SimpleNamespace(ORT_SEQUENTIAL="sequential",
                                              ORT_PARALLEL="parallel")
    ort.GraphOptimizationLevel = types.SimpleNamespace(
        ORT_DISABLE_ALL="disable", ORT_ENABLE_ALL="all")

    class SessionOptions:
        __slots__ = ("intra_op_num_threads", "inter_op_num_threads",
                     "execution_mode", "graph_optimization_level",
                     "log_severity_level")

    class InferenceSession:
        def __init__(self, path_or_bytes, sess_options=None, providers=None):
            assert isinstance(path_or_bytes, bytes)
            model = onnx.load_from_string(path_or_bytes)
            self.input = model.graph.input[0].name
            self.threads = sess_options.intra_op_num_threads
            sessions.append((sess_options, providers))

        def get_inputs(self):
            return [types.SimpleNamespace(name=self.input, shape=SHAPE)]

        def run(self, output_names, feeds):
            assert output_names is None and list(feeds) == [self.input]
            x = feeds[self.input]
            assert x.shape == tuple(SHAPE) and x.dtype == np.float32
            y = x.mean(axis=(2, 3))
            return [y + (self.threads * 1e-3 if wobble else 0)]

    ort.SessionOptions = SessionOptions
    ort.InferenceSession = InferenceSession
    return ort


def make_dir(d):
    graph = helper.make_graph(
        [helper.make_node("GlobalAveragePool", ["x"], ["p"]),
         helper.make_node("Flatten", ["p"], ["y"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, SHAPE)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])])
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 13)])
    os.makedirs(os.path.join(d, "ort"))
    for kind in ("int8", "float"):
        with gzip.open(os.path.join(d, "ort", f"m-{kind}.onnx.gz"), "wb") as f:
            f.write(model.SerializeToString())
    with open(os.path.join(d, "models.tsv"), "w") as f:
        f.write("model\tlabel\tkind\tdriver\tregions\tonnx\n"
                "m\tM\tint8\tbin/m-int8\t3\tort/m-int8.onnx.gz\n"
                "m\tM\tfloat\tbin/m-float.gz\t2\tort/m-float.onnx.gz\n"
                "n\tN\tint8\tbin/n-int8\t1\t-\n")
    images = np.random.default_rng(0).random([4] + SHAPE[1:], np.float32)
    np.save(os.path.join(d, "test.npy"), images)
    # quantc's float outputs, 1e-6 off the pool
    np.save(os.path.join(d, "quantc-m-float.npy"),
            images.mean(axis=(2, 3)) * (1 + 1e-6))


def run(argv, wobble=False):
    sys.modules["onnxruntime"] = fake_onnxruntime(wobble)
    sessions.clear()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        ort_threads.main(argv)
    return [line.split("\t") for line in out.getvalue().splitlines()]


def main():
    with tempfile.TemporaryDirectory() as d:
        make_dir(d)
        lines = run(["--dir", d, "--threads", "1,2 4", "--budget", "0.01",
                     "--quantc-outputs", d])
        times = [l for l in lines if l[2] != "note"]
        assert [(l[0], l[1], l[2]) for l in times] == [
            ("m", k, t) for k in ("int8", "float") for t in "124"], lines
        assert all(float(l[3]) > 0 and int(l[4]) >= 3 for l in times), lines
        notes = {l[1]: l[3] for l in lines if l[2] == "note"}
        assert notes["int8"] == "identical", notes
        same, diff = notes["float"].split(", vs quantc ")
        assert same == "identical" and 5e-7 < float(diff) < 2e-6, notes
        assert [o.intra_op_num_threads for o, _ in sessions] == [1, 2, 4] * 2
        for options, providers in sessions:
            assert options.inter_op_num_threads == 1
            assert options.execution_mode == "sequential"
            assert options.graph_optimization_level == "all"
            assert providers == ["CPUExecutionProvider"]

        lines = run(["--dir", d, "--threads", "1 2", "--passes", "5",
                     "--models", "m"], wobble=True)
        assert all(int(l[4]) == 5 for l in lines if l[2] != "note"), lines
        notes = {l[1]: l[3] for l in lines if l[2] == "note"}
        assert notes == {"int8": "differ at 2 threads",
                         "float": "differ at 2 threads"}, notes

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            ort_threads.main(["--dir", d, "--dry-run"])
        assert out.getvalue().count("2 nodes, input [1, 3, 8, 8]") == 2, \
            out.getvalue()
    print("ok")


if __name__ == "__main__":
    main()
