"""Compares two .npy outputs: |a - b| <= 1e-5 * max|a| element-wise.

Fusion reorders float arithmetic (the batch norm is folded into the weights),
so results differ by rounding relative to the size of the accumulations, not
of each element; the bound is relative to the tensor's magnitude."""
import sys

import numpy as np

a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
assert a.shape == b.shape, (a.shape, b.shape)
scale = float(np.abs(a).max())
err = float(np.abs(a - b).max()) / scale
print(f"max |a - b| / max |a| = {err:.3g} over {a.size} values (max |a| = {scale:.3g})")
print("EQUIVALENT" if err <= 1e-5 and scale > 0 else "DIFFERENT")
sys.exit(0 if err <= 1e-5 else 1)
