"""A detector whose score head decides by its sign, as single-shot face
detectors do: a backbone conv (3 -> 8, relu) and two 1x1 heads, each
reaching its model output through Transpose + Reshape (tf2onnx's layout):

  scores [1, 256, 2]: logits = b - sum_c |w[c]| * 60 * feature[c]: +3 where
                      the backbone is dark (no feature), down to about -6000
                      elsewhere, so one per-tensor 8-bit scale (about 24 per
                      step, zero point 255) rounds every positive score to 0;
  boxes  [1, 256, 4]: an ordinary regression head.

Writes model.onnx, calib.npy (32 images) and test.npy (16 others) to the
directory given. Python's standard library + NumPy only (onnx_bytes).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "Hardening", "Inputs"))
import onnx_bytes as ob  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(45)


def init(name, array):
    array = np.asarray(array, np.float32)
    return ob.tensor(name, ob.FLOAT, list(array.shape),
                     array.reshape(-1).tolist())


def images(n):
    # Dark images with a few bright blobs: the backbone fires on the blobs.
    x = rng.normal(0.0, 0.05, (n, 3, 16, 16)).astype(np.float32)
    for i in range(n):
        for _ in range(3):
            y0, x0 = rng.integers(0, 12, 2)
            x[i, :, y0:y0 + 4, x0:x0 + 4] += rng.uniform(0.5, 2.0)
    return x


w1 = rng.normal(0, 0.4, (8, 3, 3, 3))
b1 = np.full(8, -0.3)
ws = np.zeros((2, 8, 1, 1))
ws[:, :, 0, 0] = -60.0 * np.abs(rng.normal(1.0, 0.3, (2, 8)))
bs = np.array([3.0, 2.0])
wb = rng.normal(0, 0.5, (4, 8, 1, 1))
bb = rng.normal(0, 0.1, 4)
shape = [1, 3, 16, 16]
nodes = [
    ob.node("Conv", ["image", "w1", "b1"], ["f"], name="backbone",
            kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    ob.node("Relu", ["f"], ["r"], name="backbone_relu"),
    ob.node("Conv", ["r", "ws", "bs"], ["s"], name="score_head",
            kernel_shape=[1, 1]),
    ob.node("Transpose", ["s"], ["st"], name="score_nhwc", perm=[0, 2, 3, 1]),
    ob.node("Reshape", ["st", "score_shape"], ["scores"], name="score_rows"),
    ob.node("Conv", ["r", "wb", "bb"], ["b"], name="box_head",
            kernel_shape=[1, 1]),
    ob.node("Transpose", ["b"], ["bt"], name="box_nhwc", perm=[0, 2, 3, 1]),
    ob.node("Reshape", ["bt", "box_shape"], ["boxes"], name="box_rows"),
]
inits = [init("w1", w1), init("b1", b1), init("ws", ws), init("bs", bs),
         init("wb", wb), init("bb", bb),
         ob.tensor("score_shape", ob.INT64, [3], [1, 256, 2]),
         ob.tensor("box_shape", ob.INT64, [3], [1, 256, 4])]
model = ob.model(nodes, [ob.value_info("image", ob.FLOAT, shape)],
                 [ob.value_info("scores", ob.FLOAT, [1, 256, 2]),
                  ob.value_info("boxes", ob.FLOAT, [1, 256, 4])],
                 inits, graph_name="detector")
with open(os.path.join(out, "model.onnx"), "wb") as f:
    f.write(model)
np.save(os.path.join(out, "calib.npy"), images(32))
np.save(os.path.join(out, "test.npy"), images(16))
