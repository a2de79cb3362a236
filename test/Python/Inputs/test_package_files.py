"""The Python package's files on hostile input: quantc.load on truncated,
corrupt and non-regular "libraries" raises QuantcError instead of dying of
SIGBUS inside dlopen, and quantc.compile leaves no temporary directory
behind (success, failed compile, exception before the compile).

Usage: test_package_files.py TOOLS_DIR SRC_ROOT WORK
TMPDIR must be an empty directory the test checks after each step.
Prints one line per check; a failed check raises.
"""
import os
import struct
import sys
import tempfile

import numpy as np

tools, src, work = sys.argv[1:4]
sys.path.insert(0, os.path.join(src, "python"))
import quantc  # noqa: E402

tmp = tempfile.gettempdir()
assert os.path.abspath(tmp) == os.path.abspath(os.environ["TMPDIR"]), tmp
compile_tool = os.path.join(tools, "quant-compile")
example = os.path.join(src, "examples", "fashion-mnist")
images = np.load(os.path.join(example, "calibration.npy"))[:4]


def left_in_tmp():
    return sorted(os.listdir(tmp))


# compile() without output: the library is loaded, its directory gone.
model = quantc.compile(os.path.join(example, "model.onnx"),
                       quant_compile=compile_tool)
assert left_in_tmp() == [], left_in_tmp()
assert model.path is None
out = model(images)
assert out.shape == (4, 10)
print("compiled without output:", model, "- TMPDIR empty, runs:", out.shape)

# A failed compile, and an exception before quant-compile runs.
for bad, kwargs in [(os.path.join(work, "missing.onnx"), {}),
                    (os.path.join(example, "model.onnx"),
                     {"calibration": np.array(["not a number"])})]:
    try:
        quantc.compile(bad, quant_compile=compile_tool, **kwargs)
    except (quantc.QuantcError, ValueError) as e:
        print(f"refused: {type(e).__name__}: TMPDIR {left_in_tmp()}")
    else:
        raise AssertionError("compiled " + bad)
    assert left_in_tmp() == [], left_in_tmp()

# A library with an output path, then damaged copies of it.
good = os.path.join(work, "good.so")
quantc.compile(os.path.join(example, "model.onnx"), output=good,
               quant_compile=compile_tool)
data = open(good, "rb").read()
phoff, shoff = struct.unpack_from("<QQ", data, 0x20)
phnum = struct.unpack_from("<H", data, 0x38)[0]
# The end of the last PT_LOAD segment's file bytes.
load_end = max(offset + filesz for (kind, offset, filesz) in
               (struct.unpack_from("<I4xQ16xQ", data, phoff + 56 * i)
                for i in range(phnum)) if kind == 1)


def damaged(name, content):
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(content)
    return path


def patched(offset, fmt, value):
    copy = bytearray(data)
    struct.pack_into(fmt, copy, offset, value)
    return bytes(copy)


def gnu_hash():
    """(offset, size) of the .gnu.hash section (the dynamic symbol lookup's
    hash table)."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", data, 0x3C)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + 64 * i)
                for i in range(shnum)]
    names = sections[shstrndx][4]
    for s in sections:
        if data[names + s[0]:data.index(b"\0", names + s[0])] == \
                b".gnu.hash":
            return s[4], s[5]
    raise AssertionError("no .gnu.hash section")


# Headers that pass the checks but kill the dynamic loader: ld.so's
# assertion exits, or a lookup far outside the table (SIGSEGV). Only the
# child process that quantc.load runs first dies.
hash_at, hash_size = gnu_hash()
hash_garbage = bytearray(data)
hash_garbage[hash_at:hash_at + hash_size] = b"\xff" * hash_size

cases = [
    ("empty", damaged("empty.so", b"")),
    ("40 bytes", damaged("head.so", data[:40])),
    ("header only", damaged("header.so", data[:64])),
    ("half the first segment", damaged("half.so", data[:load_end // 2])),
    ("the last segment cut", damaged("cut.so", data[:load_end - 1])),
    ("section headers cut", damaged("tail.so", data[:len(data) - 1])),
    ("program headers past the end", damaged("phoff.so",
                                             patched(0x20, "<Q", 1 << 40))),
    ("section headers past the end", damaged("shoff.so",
                                             patched(0x28, "<Q", 1 << 40))),
    ("another machine", damaged("machine.so", patched(0x12, "<H", 21))),
    ("an executable", damaged("exec.so", patched(0x10, "<H", 2))),
    ("32-bit", damaged("class.so", patched(4, "<B", 1))),
    ("not ELF", damaged("text.so", b"#!/bin/sh\n" * 100)),
    ("hash table garbage", damaged("hash.so", bytes(hash_garbage))),
    ("2^31-1 hash buckets", damaged("buckets.so",
                                    patched(hash_at, "<I", 0x7fffffff))),
    ("a directory", work),
    ("missing", os.path.join(work, "missing.so")),
    ("a character device", "/dev/zero"),
]
fifo = os.path.join(work, "fifo.so")
os.mkfifo(fifo)
cases.append(("a fifo", fifo))
for what, path in cases:
    try:
        quantc.load(path)
    except quantc.QuantcError as e:
        print(f"{what}: QuantcError: {str(e).replace(work, '<work>')}")
    else:
        raise AssertionError(f"loaded {what}")
    assert left_in_tmp() == [], left_in_tmp()

# The good library still loads, and keeps running after its file is gone.
again = quantc.load(good)
assert np.array_equal(again(images), quantc.load(good)(images))
os.unlink(good)
assert np.array_equal(again(images), out)
assert left_in_tmp() == [], left_in_tmp()
print("loaded after the damaged ones; runs after its file is removed")
print("FILES OK")
