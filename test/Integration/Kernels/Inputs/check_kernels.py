"""Runs every random model of a directory (random_convs.py) on the int8
reference and compiled with int8 kernels, and counts the models whose
outputs are bit-identical.

Usage: check_kernels.py BINDIR SRCROOT DIR N [--prefix=P] MODE...
Models are DIR/<P><i>.mlir with inputs DIR/<P><i>.npy (P: conv).
MODE: jit-<isa>          quant-run --int8-isa=<isa> (JIT on this machine)
      aot                quant-compile (default: the kernels of every x86
                         instruction set, this machine's chosen at run time)
                         + cc + the C driver
      aot-<isa>          quant-compile --int8-isas=<isa> (that variant alone)
      aot-vnni           quant-compile --cpu=cascadelake (pinned)
      aot-a64-dot        quant-compile for aarch64 +dotprod, aarch64 gcc, qemu
      aot-a64-i8mm       the same with +dotprod,+i8mm (smmla)
      <mode>-twin        <mode> with --amx-portable-twin: the amx-int8 tile
                         kernels as ordinary vector code, bit for bit the
                         same, on any CPU with AVX-512 VNNI (e.g.
                         jit-amx-int8-twin, aot-amx-int8-twin)
"""
import os
import subprocess
import sys

import numpy as np

bindir, src, d, n, modes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
prefix = "conv"
if modes and modes[0].startswith("--prefix="):
    prefix, modes = modes[0][len("--prefix="):], modes[1:]
driver = os.path.join(src, "examples", "common", "run_model.c")
qemu = ["qemu-aarch64", "-cpu", "max", "-L", "/usr/aarch64-linux-gnu"]


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def compiled(mode, i, model, data, out):
    twin = ["--amx-portable-twin"] if mode.endswith("-twin") else []
    work = f"{d}/{mode}{i}"
    mode = mode.removesuffix("-twin")
    if mode.startswith("jit-"):
        return run([f"{bindir}/quant-run", model, f"--int8-isa={mode[4:]}", "--input", data, "-o", out] + twin)
    os.makedirs(work, exist_ok=True)
    flags = {"aot": [], "aot-vnni": ["--cpu=cascadelake"],
             "aot-a64-dot": ["--target", "aarch64-linux-gnu", "--mattr=+dotprod"],
             "aot-a64-i8mm": ["--target", "aarch64-linux-gnu", "--mattr=+dotprod,+i8mm"]}.get(
                 mode, [f"--int8-isas={mode[4:]}"])
    r = run([f"{bindir}/quant-compile", model, "--name", "qconv", "-o", f"{work}/model.o"] + flags + twin)
    if r.returncode:
        return r
    cc = "aarch64-linux-gnu-gcc" if "a64" in mode else "cc"
    r = run([cc, f"-I{work}", "-DMODEL=qconv", "-DMODEL_UPPER=QCONV", driver, f"{work}/model.o", "-lm", "-o", f"{work}/run"])
    if r.returncode:
        return r
    return run((qemu if "a64" in mode else []) + [f"{work}/run", data, out])


failures = 0
for mode in modes:
    same = 0
    for i in range(n):
        model, data = f"{d}/{prefix}{i}.mlir", f"{d}/{prefix}{i}.npy"
        ref, out = f"{d}/ref{i}.npy", f"{d}/{mode}-out{i}.npy"
        if not os.path.exists(ref):
            subprocess.run([f"{bindir}/quant-run", model, "--reference", "--input", data, "-o", ref], check=True)
        r = compiled(mode, i, model, data, out)
        if r.returncode != 0:
            print(f"{mode} {prefix}{i}: failed: {(r.stderr.strip().splitlines() or ['?'])[-1]}")
            continue
        a, b = np.load(ref), np.load(out)
        if a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32)):
            same += 1
        else:
            print(f"{mode} {prefix}{i}: {int((a != b).sum())} of {a.size} outputs differ")
    print(f"{mode}: {same} of {n} models bit-identical to the int8 reference")
    failures += n - same
sys.exit(1 if failures else 0)
