"""Reads llvm-nm's listing of objects compiled from models with hostile
names and prints SYMBOLS OK if every symbol an object defines (global or
local) is named after its C identifier: PREFIX_... or PREFIX.... (or is
one of the compiler's own helpers below), and every symbol it needs from
elsewhere has a plain C name; else the symbols that are not.

  llvm-nm a.o b.o | check_symbols.py a b
"""

import re
import sys

prefixes = sys.argv[1:]
# Definitions the code generator adds under fixed names (Emit.cpp's bfloat16
# helper; constant pools).
COMPILER = re.compile(rb"^(__truncsfbf2|\.L.*|\.rodata.*|\.text.*)$")
PLAIN = re.compile(rb"^[A-Za-z_][A-Za-z0-9_.]*$")

bad = []
index = -1 if len(prefixes) > 1 else 0
for line in sys.stdin.buffer.read().split(b"\n"):
    if not line.strip():
        continue
    if len(prefixes) > 1 and line.endswith(b":") and b" " not in line.strip():
        index += 1
        continue
    parts = line.split(b" ", 2) if not line.startswith(b" ") else \
        [b""] + line.split()
    if len(parts) < 3:
        bad.append(line)
        continue
    kind, name = parts[1], parts[2]
    prefix = prefixes[index].encode()
    if kind == b"U":
        if not PLAIN.match(name):
            bad.append(line)
    elif not (name.startswith(prefix + b"_") or name.startswith(prefix + b".")
              or COMPILER.match(name)):
        bad.append(line)
if bad:
    print("SYMBOLS NOT FROM THE NAME:")
    for line in bad[:20]:
        print("  %r" % line)
else:
    print("SYMBOLS OK")
