"""Calibration data and numpy reference ranges for the calibration tests.

Writes into the directory given as argv[1]:
  data.npy, part1.npy, part2.npy  samples for ranges.mlir's model (seeded)
  expected.json                   numpy min/max of every observed tensor
  nan.npy, f64.npy, shape.npy, empty.npy, truncated.npy,
  overflow.npy                                             bad inputs
The model (ranges.mlir) is y = relu(bn(conv1x1(x, w) + b)) followed by
y + x; its weights and batch-norm parameters are repeated here.
"""
import json
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(1234)
# 96 samples of [1, 4, 4, 2] (NHWC), a skewed distribution.
x = (rng.standard_normal((96, 4, 4, 2)) * [1.5, 0.5] + [0.3, -2.0]).astype(np.float32)
np.save(os.path.join(out, "data.npy"), x)
np.save(os.path.join(out, "part1.npy"), x[:40])
np.save(os.path.join(out, "part2.npy"), x[40:])

w = np.array([[0.5, -0.25], [1.0, 0.75]], dtype=np.float64)  # [out, in]
b = np.array([0.1, -0.2], dtype=np.float64)
conv = np.einsum("nhwc,oc->nhwo", x.astype(np.float64), w) + b
gamma, beta = np.array([1.5, 0.5]), np.array([0.1, 0.0])
mean, var = np.array([0.2, -0.1]), np.array([4.0, 0.25])
bn = (conv - mean) / np.sqrt(var + np.float32(1e-5)) * gamma + beta
relu = np.maximum(bn, 0.0)
added = relu + x
expected = {
    "input": [float(x.min()), float(x.max())],
    "relu": [float(relu.min()), float(relu.max())],
    "add": [float(added.min()), float(added.max())],
    "conv.weight": [w.min(axis=1).tolist(), w.max(axis=1).tolist()],
}
with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump(expected, f)

bad = x[:4].copy()
bad[2, 1, 1, 0] = np.nan
np.save(os.path.join(out, "nan.npy"), bad)
np.save(os.path.join(out, "f64.npy"), x[:4].astype(np.float64))
np.save(os.path.join(out, "shape.npy"), x[:4].reshape(4, 2, 8, 2))
np.save(os.path.join(out, "empty.npy"), x[:0])
with open(os.path.join(out, "data.npy"), "rb") as f:
    blob = f.read()
with open(os.path.join(out, "truncated.npy"), "wb") as f:
    f.write(blob[: len(blob) // 2])
# A header whose shape product wraps around int64 (no data follows).
header = ("{'descr': '<f4', 'fortran_order': False, "
          "'shape': (4294967296, 4294967296, 4), }")
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(os.path.join(out, "overflow.npy"), "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little")
            + header.encode())
