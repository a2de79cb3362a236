"""Runs every random model of a directory (random_convs.py) on the int8
reference and compiled with int8 kernels for each ISA given, and counts the
models whose outputs are bit-identical.

Usage: check_kernels.py QUANT_RUN DIR N ISA...
"""
import subprocess
import sys

import numpy as np

quant_run, d, n, isas = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
failures = 0
for isa in isas:
    same = 0
    for i in range(n):
        model, data = f"{d}/conv{i}.mlir", f"{d}/conv{i}.npy"
        ref, out = f"{d}/ref{i}.npy", f"{d}/{isa}{i}.npy"
        if isa == isas[0]:
            subprocess.run([quant_run, model, "--reference", "--input", data, "-o", ref], check=True)
        r = subprocess.run([quant_run, model, f"--int8-isa={isa}", "--input", data, "-o", out],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(f"{isa} conv{i}: compile/run failed: {r.stderr.strip().splitlines()[-1]}")
            continue
        a, b = np.load(ref), np.load(out)
        if a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32)):
            same += 1
        else:
            print(f"{isa} conv{i}: {int((a != b).sum())} of {a.size} outputs differ")
    print(f"{isa}: {same} of {n} models bit-identical to the int8 reference")
    failures += n - same
sys.exit(1 if failures else 0)
