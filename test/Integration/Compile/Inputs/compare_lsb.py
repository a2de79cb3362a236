"""Compares two float32 .npy files of stacked model outputs that lie on the
grid of a quantized output (multiples of its scale): the differences in
units of the scale (LSBs).

Usage: compare_lsb.py expected.npy actual.npy scale max_lsb
Prints the largest difference in LSBs and how many values differ, and
WITHIN <max_lsb> LSB when no value differs by more; exits 1 otherwise.
"""
import sys

import numpy as np

expected = np.load(sys.argv[1]).astype(np.float64)
actual = np.load(sys.argv[2]).astype(np.float64)
scale, max_lsb = float(sys.argv[3]), int(sys.argv[4])
if expected.size != actual.size:
    print(f"MISMATCH: {expected.shape} vs {actual.shape}")
    sys.exit(1)
lsb = np.abs(expected.reshape(-1) - actual.reshape(-1)) / scale
worst = float(lsb.max())
print(f"max difference {worst:.3f} LSB, {int((lsb > 0.5).sum())}/{lsb.size} "
      f"values differ")
ok = worst <= max_lsb + 1e-3
print(f"WITHIN {max_lsb} LSB" if ok else f"MORE THAN {max_lsb} LSB")
sys.exit(0 if ok else 1)
