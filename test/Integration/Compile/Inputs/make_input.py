"""Writes random float32 model inputs: make_input.py out.npy SAMPLES DIM...

Normal values scaled by 3 (many outside the quantized ranges, so clamping
is exercised) plus exact quantization midpoints (round half to even).
"""
import sys

import numpy as np

out, samples = sys.argv[1], int(sys.argv[2])
shape = [samples] + [int(d) for d in sys.argv[3:]]
rng = np.random.default_rng(7)
x = (rng.standard_normal(shape) * 3).astype(np.float32)
flat = x.reshape(-1)
flat[::7] = (rng.integers(-300, 300, flat[::7].shape) + 0.5) * np.float32(0.02)
np.save(out, x)
