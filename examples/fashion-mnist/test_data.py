#!/usr/bin/python3
"""Writes the 10,000 Fashion-MNIST test images and labels as .npy files.

  test_images.npy  float32, 10000 x 1 x 28 x 28, normalized like training
  test_labels.npy  int64, 10000

Usage: /usr/bin/python3 examples/fashion-mnist/test_data.py <out_dir>
Needs only numpy and Debian's dataset-fashion-mnist.
"""
import os
import sys

import numpy as np

import fashion_mnist as fm

if len(sys.argv) != 2:
    sys.exit("usage: test_data.py <out_dir>")
try:
    x, y = fm.load("test")
except OSError as e:
    sys.exit(f"test_data.py: {e} (install Debian's dataset-fashion-mnist)")
os.makedirs(sys.argv[1], exist_ok=True)
np.save(os.path.join(sys.argv[1], "test_images.npy"), x)
np.save(os.path.join(sys.argv[1], "test_labels.npy"), y)
