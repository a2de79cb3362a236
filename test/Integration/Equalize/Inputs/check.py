"""Checks cross-layer equalization's outputs (.npy):

  check.py float BEFORE AFTER
      the float model's outputs after qnt-equalize equal those before to
      1e-5 of the output magnitude. Equalization only rescales weights by
      positive factors that cancel exactly in real arithmetic; in f32 each
      weight and bias is rounded once (relative error 2^-24 = 6e-8) and
      the sums are accumulated in a different magnitude, so the outputs
      differ by a few f32 roundings of the largest accumulations (5e-7 of
      the magnitude measured on this model), far below 1e-5 and far below
      what one int8 step changes (1/256 of a range).
  check.py sqnr FLOAT PLAIN EQUALIZED MARGIN
      the int8 output's SQNR against float (dB) is at least MARGIN dB
      higher with equalization than without."""
import sys

import numpy as np


def sqnr(f, q):
    f, q = f.astype(np.float64), q.astype(np.float64)
    return 10 * np.log10((f ** 2).sum() / max(((f - q) ** 2).sum(), 1e-30))


mode = sys.argv[1]
if mode == "float":
    a, b = np.load(sys.argv[2]), np.load(sys.argv[3])
    assert a.shape == b.shape, (a.shape, b.shape)
    err = float(np.abs(a - b).max() / np.abs(a).max())
    print(f"max |after - before| / max |before| = {err:.3g}")
    print("FLOAT UNCHANGED" if err <= 1e-5 else "FLOAT CHANGED")
    sys.exit(0 if err <= 1e-5 else 1)
if mode == "sqnr":
    f = np.load(sys.argv[2])
    plain, equalized = sqnr(f, np.load(sys.argv[3])), sqnr(f, np.load(sys.argv[4]))
    margin = float(sys.argv[5])
    print(f"int8 SQNR {plain:.1f} dB -> {equalized:.1f} dB with equalization")
    ok = equalized >= plain + margin
    print("SQNR IMPROVES" if ok else f"SQNR DOES NOT IMPROVE BY {margin} dB")
    sys.exit(0 if ok else 1)
sys.exit(f"unknown mode {mode}")
