"""check.py float REFERENCE A B: |A - B| <= 1e-5 * max|REFERENCE| (A: the
model compiled, B: the smoothed model compiled). Smoothing divides gamma and
beta by s and multiplies the weight rows by s, each rounded to f32 once: each
product x_k * w_kn moves by a few f32 roundings (2^-24 relative), summed over
64 channels far below 1e-5 of the output's magnitude.

check.py sqnr REFERENCE PLAIN SMOOTHED MARGIN: the int8 outputs' SQNR
against the float reference, without and with smoothing; smoothing must gain
at least MARGIN dB."""
import sys

import numpy as np


def load(path):
    return np.load(path).astype(np.float64).reshape(-1)


def sqnr(ref, q):
    return 10 * np.log10((ref ** 2).sum() / max(((ref - q) ** 2).sum(), 1e-30))


mode, ref = sys.argv[1], load(sys.argv[2])
if mode == "float":
    a, b = load(sys.argv[3]), load(sys.argv[4])
    scale = np.abs(ref).max()
    err = np.abs(a - b).max() / scale
    print(f"max |plain - smoothed| / max |reference| = {err:.3g}; "
          f"plain vs reference {np.abs(a - ref).max() / scale:.3g}")
    print("FLOAT UNCHANGED" if err <= 1e-5 else "FLOAT CHANGED")
    sys.exit(0 if err <= 1e-5 else 1)
plain, smoothed = sqnr(ref, load(sys.argv[3])), sqnr(ref, load(sys.argv[4]))
margin = float(sys.argv[5])
print(f"int8 SQNR {plain:.1f} dB -> {smoothed:.1f} dB smoothed")
ok = smoothed >= plain + margin
print("SMOOTHING GAINS" if ok else f"GAIN BELOW {margin} dB")
sys.exit(0 if ok else 1)
