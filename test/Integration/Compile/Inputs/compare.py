"""Bitwise comparison of two float32 .npy files of stacked model outputs.

Usage: compare.py expected.npy actual.npy
Prints the number of samples and values that are bit-identical, and
BIT-IDENTICAL when all are; exits 1 on a shape mismatch.
"""
import sys

import numpy as np

expected = np.load(sys.argv[1])
actual = np.load(sys.argv[2])
if expected.shape != actual.shape or expected.dtype != actual.dtype:
    print(f"MISMATCH: {expected.shape} {expected.dtype} vs "
          f"{actual.shape} {actual.dtype}")
    sys.exit(1)
e = expected.reshape(expected.shape[0], -1).view(np.uint32)
a = actual.reshape(actual.shape[0], -1).view(np.uint32)
same = e == a
rows = int(same.all(axis=1).sum())
print(f"exact samples: {rows}/{e.shape[0]}, exact values: "
      f"{int(same.sum())}/{same.size}")
print("BIT-IDENTICAL" if rows == e.shape[0] else "DIFFERENT")
