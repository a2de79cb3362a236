"""Reads a tool's output on stdin and prints CLEAN if no byte of it could
drive a terminal (control characters other than newline and tab, DEL,
bytes of invalid UTF-8, C1 controls), else the first such bytes."""

import sys

data = sys.stdin.buffer.read()
text = data.decode("utf-8", errors="replace")
bad = [c for c in text if (ord(c) < 32 and c not in "\n\t") or
       0x7f <= ord(c) < 0xa0 or c == "\ufffd"]
print("CLEAN" if not bad else "UNSAFE %r" % "".join(bad[:10]))
