"""Prints every array of a .npy / .npz file as `name: v v v ...`, each value
as Python's repr of the float (so -0.0, nan and inf show as such), for
FileCheck.

  python3 print_arrays.py FILE
"""
import sys

import numpy as np

data = np.load(sys.argv[1])
arrays = dict(data) if sys.argv[1].endswith(".npz") else {"output": data}
for name, a in arrays.items():
    print(f"{name}: " + " ".join(repr(float(v)) for v in a.ravel()))
