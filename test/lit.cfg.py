# -*- Python -*-
# The fast lit suite: FileCheck tests of quant-opt and the other tools.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "QUANTC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.quantc_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Unit",
                   "Inputs"]

config.substitutions.append(("%quantc_src_root", config.quantc_src_root))
config.substitutions.append(("%quantc_tools_dir", config.quantc_tools_dir))
# Linking an object compiled with --parallel=omp: LLVM's libomp.
config.substitutions.append(
    ("%libomp", "-L{0} -Wl,-rpath,{0} -lomp".format(config.quantc_omp_library_dir)))
if os.path.exists(os.path.join(config.quantc_omp_library_dir, "libomp.so")):
    config.available_features.add("libomp")
# Tools built with AddressSanitizer (scripts/sanitize.sh, QUANTC_SANITIZE)
# reserve terabytes of address space: tests that bound it with `ulimit -v`
# do not apply.
if config.quantc_sanitize:
    config.available_features.add("asan")

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# `not` and `count` at the start of a RUN line are found on PATH.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.quantc_tools_dir, config.llvm_tools_dir]
tools = ["quant-opt", "quant-calibrate", "quant-run", "quant-compile",
         "quant-translate"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Host int8 instruction sets, for tests that run native int8 kernels: the
# names of quant-compile's table (quantc/Isa/Int8Isa.h) this machine has
# (marked "*" by --list-isas) become features (avx2, avx512-vnni, ...);
# %host_int8_isa is the one a dispatching object picks here (the first).
import subprocess
host_isas = []
listing = subprocess.run(
    [os.path.join(config.quantc_tools_dir, "quant-compile"), "--list-isas"],
    capture_output=True, text=True)
for line in listing.stdout.splitlines():
    if line.startswith("* "):
        host_isas.append(line.split()[1])
config.available_features.update(host_isas)
config.substitutions.append(
    ("%host_int8_isa", host_isas[0] if host_isas else "none"))
# CPU features no int8 instruction set needs, for the CPU-check tests:
# AVX-512 FP16, AMD's SSE4a. They come from the objects' own run-time check
# (CPUID and XCR0, quant-compile --list-host-cpu-features), never from
# /proc/cpuinfo, whose flags a kernel or VM may hide although CPUID reports
# them (an AMD EPYC Zen 5 VM lists no sse4a).
host_cpu_features = subprocess.run(
    [os.path.join(config.quantc_tools_dir, "quant-compile"),
     "--list-host-cpu-features"],
    capture_output=True, text=True).stdout.split()
for feature in ("avx512fp16", "sse4a"):
    if feature in host_cpu_features:
        config.available_features.add(feature)
if shutil.which("strace"):
    config.available_features.add("strace")
if shutil.which("qemu-x86_64"):
    config.available_features.add("qemu-x86_64")

# The zoo slice (test/Zoo) needs Debian's PyTorch, torchvision and onnx
# (scripts/install-deps.sh --with-reference, which CI runs).
if subprocess.run(["/usr/bin/python3", "-c", "import torchvision, onnx"],
                  capture_output=True).returncode == 0:
    config.available_features.add("torchvision")
# The Python package's from_torch test needs PyTorch (and onnx for its
# exporter) in the python running the tests.
import sys
if subprocess.run([sys.executable, "-c", "import torch, onnx"],
                  capture_output=True).returncode == 0:
    config.available_features.add("torch")

# AArch64 cross tests (test/Integration/Compile) need a cross compiler and
# qemu; without them they are UNSUPPORTED.
if not (shutil.which("aarch64-linux-gnu-gcc") and shutil.which("qemu-aarch64")):
    config.available_features.add("no-aarch64-cross")
