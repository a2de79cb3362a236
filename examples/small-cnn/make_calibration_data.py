#!/usr/bin/python3
"""Writes calibration.npy: 256 Fashion-MNIST training images for the example.

Images come from Debian's dataset-fashion-mnist package, scaled to [0, 1] and
normalised with the dataset's mean/std (0.2860, 0.3530), stacked as
[256, 28, 28, 1] float32 (NHWC; with one channel the bytes equal NCHW).

Usage: /usr/bin/python3 examples/small-cnn/make_calibration_data.py
"""
import gzip
import os

import numpy as np

SRC = "/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibration.npy")

with gzip.open(SRC, "rb") as f:
    data = f.read()
magic, count, rows, cols = np.frombuffer(data[:16], dtype=">u4")
assert magic == 2051, "not an IDX image file"
images = np.frombuffer(data[16:], dtype=np.uint8).reshape(count, rows, cols)
# Every 100th training image: a spread of all classes, reproducible.
subset = images[::100][:256].astype(np.float32) / 255.0
subset = (subset - 0.2860) / 0.3530
np.save(OUT, subset.reshape(-1, rows, cols, 1).astype(np.float32))
print(f"wrote {OUT}: {subset.shape[0]} images")
