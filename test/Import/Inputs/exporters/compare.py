"""Compares quant-run's outputs with reference outputs, .npy or .npz (every
array of the reference): |y - ref| <= TOL * max|ref| element-wise.

Usage: compare.py OUT REF TOL
"""
import sys

import numpy as np

out, ref, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])


def arrays(path):
    data = np.load(path)
    return dict(data) if path.endswith(".npz") else {"output": data}


ys, refs = arrays(out), arrays(ref)
ok = True
for name, r in refs.items():
    y = ys[name]
    assert y.shape == r.shape, (name, y.shape, r.shape)
    scale = float(np.abs(r).max())
    err = float(np.abs(y - r).max()) / scale
    print(f"{name} {'x'.join(map(str, r.shape))}: max |y - ref| / max |ref| "
          f"= {err:.3g}")
    ok = ok and scale > 0 and err <= tol
print("MATCH" if ok else "MISMATCH")
sys.exit(0 if ok else 1)
