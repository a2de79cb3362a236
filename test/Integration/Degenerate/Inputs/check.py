"""Checks of test/Integration/Degenerate.

  check.py sqnr reference.npy int8.npy MIN_DB [COLUMN=VALUE ...]
    The SQNR of the int8 outputs against NumPy's float64 outputs: SQNR OK
    when it is at least MIN_DB and every output is finite; for each
    COLUMN=VALUE (an index of the last dimension), COLUMN c EXACT when that
    column is VALUE everywhere to within 1e-4 relative (a constant channel).
  check.py scales LOG
    Every raised weight scale that quant-compile's warnings in LOG report
    ("bias B at input_scale * weight_scale = P): OLD -> NEW"): the bias
    fits int32 at the new scale and no smaller scale would do (the bias
    takes at least 99.9 % of int32: the weights of these channels are dead
    or tiny). SCALES CHECKED: n.
  check.py identical OUTPUTS.npz NAME=FILE.npy ...
    Each named member of OUTPUTS.npz (quant-run's outputs) bit-identical to
    FILE.npy (the compiled object's): BIT-IDENTICAL."""
import re
import sys

import numpy as np


def sqnr(args):
    ref = np.load(args[0]).astype(np.float64)
    out = np.load(args[1]).astype(np.float64).reshape(ref.shape)
    limit = float(args[2])
    err = out - ref
    db = 10 * np.log10((ref ** 2).sum() / max((err ** 2).sum(), 1e-300))
    print(f"SQNR {db:.2f} dB (limit {limit})")
    if np.isfinite(out).all() and db >= limit:
        print("SQNR OK")
    for spec in args[3:]:
        column, value = spec.split("=")
        got = out[..., int(column)]
        if np.allclose(got, float(value), rtol=1e-4, atol=0):
            print(f"COLUMN {column} EXACT")
        else:
            print(f"COLUMN {column}: {got.min()} .. {got.max()}, not {value}")


def scales(args):
    pattern = re.compile(r"bias ([-+0-9.e]+) at input_scale \* weight_scale = "
                         r"([-+0-9.e]+)\): ([-+0-9.e]+) -> ([-+0-9.e]+)")
    found = 0
    for line in open(args[0]):
        for bias, product, old, new in pattern.findall(line):
            bias, product, old, new = map(float, (bias, product, old, new))
            steps = abs(bias) / (product / old * new)  # at the new scale
            if not (new > old and 0.999 * 2**31 <= steps <= (1 + 1e-5) * 2**31):
                print(f"BAD SCALE: {line.strip()} ({steps} steps)")
                return
            found += 1
    print(f"SCALES CHECKED: {found}")


def identical(args):
    outputs = np.load(args[0])
    for spec in args[1:]:
        name, path = spec.split("=")
        a, b = outputs[name], np.load(path)
        if a.shape != b.shape or a.dtype != b.dtype or \
                a.tobytes() != b.tobytes():
            print(f"DIFFERENT: {name}")
            return
    print("BIT-IDENTICAL")


{"sqnr": sqnr, "scales": scales, "identical": identical}[sys.argv[1]](
    sys.argv[2:])
