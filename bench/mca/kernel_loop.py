#!/usr/bin/python3
"""Prints the innermost loop of an AArch64 assembly file that does the most
int8 multiply-accumulate work: the instructions from a loop label to the
branch back to it, with no other label in between (so a straight block, as
llvm-mca wants it), ranked by MACs per iteration. On stderr: the MAC count.

MACs per instruction (128-bit forms): sdot 16 (4 lanes x 4 products),
smmla 32 (2x8 by 8x2), smull/smlal(2) 8, mla/mul .4s 4, .8h 8.
Usage: kernel_loop.py FILE.s
"""
import re
import sys

MACS = [
    (re.compile(r"^\s*sdot\s+v\d+\.4s"), 16),
    (re.compile(r"^\s*smmla\s"), 32),
    (re.compile(r"^\s*[su]ml[as]l2?\s+v\d+\.[48][sh]"), 8),
    (re.compile(r"^\s*[su]mull2?\s+v\d+\.[48][sh]"), 8),
    (re.compile(r"^\s*(mla|mul)\s+v\d+\.4s"), 4),
    (re.compile(r"^\s*(mla|mul)\s+v\d+\.8h"), 8),
]


def macs(line):
    for pattern, n in MACS:
        if pattern.match(line):
            return n
    return 0


lines = open(sys.argv[1]).read().splitlines()
best = None
label = None
body = []
for line in lines:
    m = re.match(r"^(\.LBB\w+):", line)
    if m:
        label, body = m.group(1), []
        continue
    if label is None:
        continue
    stripped = line.split("//")[0].rstrip()
    if not stripped.strip() or stripped.strip().startswith("."):
        continue  # blank lines, alignment and other directives
    body.append(stripped)
    if re.search(r"[\s,]" + re.escape(label) + r"$", stripped):
        total = sum(macs(l) for l in body)
        if total and (best is None or total > best[1]):
            best = (list(body), total, label)
        label = None
if best is None:
    sys.exit(f"{sys.argv[1]}: no innermost loop with int8 multiplies")
print("\n".join(best[0]))
print(f"{best[1]} {best[2]}", file=sys.stderr)
