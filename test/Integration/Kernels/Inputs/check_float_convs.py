"""Runs the random float layers of a directory (random_float_convs.py)
compiled, and counts those whose every output element is within the
float32 bound of the float64 NumPy result.

Usage: check_float_convs.py BINDIR SRCROOT DIR N MODE...
MODE: jit          quant-run (JIT for this machine)
      aot-<isa>    quant-compile --int8-isas=<isa> + cc + the C driver (the
                   float code of that variant: avx512-vnni 512-bit vectors,
                   avx2 256-bit)
      aot-a64      quant-compile for aarch64 (NEON, 128-bit vectors),
                   aarch64-linux-gnu-gcc, qemu-aarch64
"""
import os
import subprocess
import sys

import numpy as np

bindir, src, d, n, modes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
driver = os.path.join(src, "examples", "common", "run_model.c")
qemu = ["qemu-aarch64", "-cpu", "max", "-L", "/usr/aarch64-linux-gnu"]


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def compiled(mode, i, model, data, out):
    if mode == "jit":
        return run([f"{bindir}/quant-run", model, "--input", data, "-o", out])
    work = f"{d}/{mode}{i}"
    os.makedirs(work, exist_ok=True)
    a64 = mode == "aot-a64"
    flags = ["--target", "aarch64-linux-gnu"] if a64 else [f"--int8-isas={mode[4:]}"]
    r = run([f"{bindir}/quant-compile", model, "--name", "fconv", "-o", f"{work}/model.o"] + flags)
    if r.returncode:
        return r
    cc = "aarch64-linux-gnu-gcc" if a64 else "cc"
    r = run([cc, f"-I{work}", "-DMODEL=fconv", "-DMODEL_UPPER=FCONV", driver, f"{work}/model.o", "-lm", "-o", f"{work}/run"])
    if r.returncode:
        return r
    return run((qemu if a64 else []) + [f"{work}/run", data, out])


failures = 0
for mode in modes:
    ok = 0
    for i in range(n):
        model, data, out = f"{d}/fconv{i}.mlir", f"{d}/fconv{i}.npy", f"{d}/fconv{i}.{mode}.npy"
        r = compiled(mode, i, model, data, out)
        if r.returncode:
            print(f"{mode} fconv{i}: failed: {r.stderr[-400:]}")
            continue
        ref, tol = np.load(f"{d}/fconv{i}.ref.npy"), np.load(f"{d}/fconv{i}.tol.npy")
        y = np.load(out).reshape(ref.shape)
        bad = ~(np.abs(y.astype(np.float64) - ref) <= tol)
        if bad.any():
            print(f"{mode} fconv{i}: {bad.sum()} of {bad.size} outputs outside the bound, "
                  f"largest error {np.nanmax(np.abs(y - ref)):.3g}")
        else:
            ok += 1
    print(f"{mode}: {ok} of {n} layers within the float32 bound")
