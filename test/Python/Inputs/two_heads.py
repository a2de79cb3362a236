#!/usr/bin/python3
"""Writes a model with two outputs whose second is the badly quantized one,
and its data, for test/Python/budget-outputs.mlir.

  two_heads.py OUT_DIR   -> two_heads.onnx, calib.npy, val.npy

x [1, 16] feeds two heads (Gemm = PyTorch's Linear, transB=1):
  scores = Gemm(Relu(Gemm(x, W1)), WA)      output 0, [1, 8]
  boxes  = Gemm(Relu(Gemm(Gemm(x, WB1), WB2)), WB3)   output 1, [1, 4]
The first head is an ordinary MLP: int8 keeps it near 35 dB. In the second,
WB1 copies x[15] times 100 into channel 0 of the hidden activation beside 31
ordinary channels, and WB2 ignores channel 0: one per-tensor scale for the
hidden activation spans channel 0's range (hundreds), so the channels the
head reads keep only a few levels, and boxes loses most of its signal.
Keeping boxes_hidden and boxes_mid in float (the hidden activation is then
never quantized) repairs it. Fixed seed; numpy and the standard library
only (onnx_bytes.py writes the ONNX bytes).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Hardening", "Inputs"))
import onnx_bytes as ob  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(45)


def linear(n_out, n_in):
    return (rng.standard_normal((n_out, n_in)) / np.sqrt(n_in)).astype(
        np.float32), (0.1 * rng.standard_normal(n_out)).astype(np.float32)


w1, b1 = linear(32, 16)
wa, ba = linear(8, 32)
wb1, bb1 = linear(32, 16)
wb1[0] = 0
wb1[0, 15] = 100
bb1[0] = 0
wb2, bb2 = linear(16, 32)
wb2[:, 0] = 0
wb3, bb3 = linear(4, 16)

inits = []
for name, array in (("w1", w1), ("b1", b1), ("wa", wa), ("ba", ba),
                    ("wb1", wb1), ("bb1", bb1), ("wb2", wb2), ("bb2", bb2),
                    ("wb3", wb3), ("bb3", bb3)):
    inits.append(ob.tensor(name, ob.FLOAT, list(array.shape),
                           [float(v) for v in array.ravel()]))
nodes = [
    ob.node("Gemm", ["x", "w1", "b1"], ["t0"], name="trunk", transB=1),
    ob.node("Relu", ["t0"], ["t"], name="trunk_relu"),
    ob.node("Gemm", ["t", "wa", "ba"], ["scores"], name="scores_head",
            transB=1),
    ob.node("Gemm", ["x", "wb1", "bb1"], ["hidden"], name="boxes_hidden",
            transB=1),
    ob.node("Gemm", ["hidden", "wb2", "bb2"], ["m0"], name="boxes_mid0",
            transB=1),
    ob.node("Relu", ["m0"], ["m"], name="boxes_mid"),
    ob.node("Gemm", ["m", "wb3", "bb3"], ["boxes"], name="boxes_head",
            transB=1),
]
model = ob.model(nodes, [ob.value_info("x", ob.FLOAT, [1, 16])],
                 [ob.value_info("scores", ob.FLOAT, [1, 8]),
                  ob.value_info("boxes", ob.FLOAT, [1, 4])], inits)
with open(os.path.join(out, "two_heads.onnx"), "wb") as f:
    f.write(model)
data = rng.standard_normal((128, 16)).astype(np.float32)
np.save(os.path.join(out, "calib.npy"), data[:64])
np.save(os.path.join(out, "val.npy"), data[64:])
