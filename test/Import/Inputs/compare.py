"""Compares quant-run's output with the ONNX/torch reference output:
|y - ref| <= 1e-4 * max|ref| element-wise (shapes may differ by reshape)."""
import sys

import numpy as np

y, ref = np.load(sys.argv[1]), np.load(sys.argv[2])
assert y.size == ref.size, (y.shape, ref.shape)
y = y.reshape(ref.shape)
scale = float(np.abs(ref).max())
err = float(np.abs(y - ref).max()) / scale
print(f"max |y - ref| / max |ref| = {err:.3g} over {ref.size} values")
print("MATCH" if err <= 1e-4 and scale > 0 else "MISMATCH")
sys.exit(0 if err <= 1e-4 else 1)
