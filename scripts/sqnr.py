"""Signal-to-quantization-noise ratio of int8 vs float outputs (.npy) and
top-1 agreement of the rows (argmax over the last axis)."""
import sys

import numpy as np

f = np.load(sys.argv[1]).astype(np.float64)
q = np.load(sys.argv[2]).astype(np.float64)
assert f.shape == q.shape, (f.shape, q.shape)
sqnr = 10 * np.log10((f ** 2).sum() / max(((f - q) ** 2).sum(), 1e-30))
rows_f, rows_q = f.reshape(-1, f.shape[-1]), q.reshape(-1, q.shape[-1])
agree = float((rows_f.argmax(1) == rows_q.argmax(1)).mean())
print(f"SQNR {sqnr:.1f} dB, top-1 agreement {100 * agree:.1f} %")
limit = float(sys.argv[3])
print("ACCURATE" if sqnr >= limit else f"SQNR BELOW {limit} dB")
sys.exit(0 if sqnr >= limit else 1)
