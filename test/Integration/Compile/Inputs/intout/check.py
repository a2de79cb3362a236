"""Compares integer outputs with their goldens: check.py [--agree MIN]
OUT GOLDEN DTYPE [OUT GOLDEN DTYPE ...]. Each OUT must have dtype DTYPE and
(without --agree) equal GOLDEN element for element; with --agree, the
fraction of equal elements must be at least MIN. Prints one line per
output and EXACT / AGREE, or raises."""
import sys

import numpy as np

args = sys.argv[1:]
agree = None
if args[0] == "--agree":
    agree, args = float(args[1]), args[2:]
for out, golden, dtype in zip(args[0::3], args[1::3], args[2::3]):
    a, g = np.load(out), np.load(golden)
    assert a.dtype == np.dtype(dtype), (out, a.dtype, dtype)
    assert a.shape == g.shape, (out, a.shape, g.shape)
    same = float((a == g).mean())
    print(f"{dtype} {a.shape}: {int((a == g).sum())} of {a.size} equal "
          f"({same:.4f})")
    if agree is None:
        assert same == 1.0, out
    else:
        assert same >= agree, (out, same)
print("AGREE" if agree is not None else "EXACT")
