"""Writes ONNX models whose names attack the text quantc generates, for
test/Hardening/text-*.mlir. Python's standard library only (CI's test run
has no onnx package): the protobuf bytes come from onnx_bytes.py.

  python3 hostile_names.py OUTDIR

writes OUTDIR/<case>.onnx for each case below: a Relu of one float input
[1, 4] (two inputs added, for `two`), whose graph, node, input and output
names come from the case. Each name tries one way out of the header's
comment or onto the user's terminal:
  comment   `*/` then a constructor that would print INJECTED at start-up,
            then `/*` to reopen the comment; in the graph, input and output
            names alike
  lines     newlines, a `#define` on a line of its own, backslash-newline
            (a line splice), `??/` (a trigraph splice), quotes
  bytes     ANSI escape sequences (clear screen, set the title, colours),
            NUL-free control bytes, DEL, invalid UTF-8, UTF-8 C1 and bidi
            controls
  long      a 100000-byte name
and two models whose names reach the terminal: `error` (the graph output is
not computed by any node: an import error quotes it) and `warning` (the
output's declared shape differs from the computed one: an import warning
quotes it), with the names of `bytes`, and `error-long` (the error with
the names of `long`); and data.npy, calibration data for them.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_bytes as ob  # noqa: E402

# A constructor that runs before main() if it ever compiles into the
# user's program; its output, INJECTED, is what the tests look for (spelled
# as two literals, so that the name itself never contains the word).
INJECT = (b'*/ extern int puts(const char *); '
          b'__attribute__((constructor)) static void evil(void) '
          b'{ puts("INJ" "ECTED"); } /*')

CASES = {
    "comment": {
        "graph": b"g" + INJECT,
        "input": b"x" + INJECT,
        "output": b"y" + INJECT,
        "node": b"n" + INJECT,
    },
    "lines": {
        "graph": b"g\n#define evil_run exit\n*/ int evil; /*\\",
        "input": b"x\\\n*/ int evil_line; /* ??/",
        "output": b"y\"quoted\" 'q' \\ ??= ??/\n",
        "node": b"n\r\n",
    },
    "bytes": {
        "graph": b"g\x1b[2J\x1b[H\x1b]0;pwned\x07\x00nul",
        "input": b"x\x1b[31mred\x1b[0m\x01\x08\x7f\x00",
        "output": b"y\xff\xfe\xc3\x28\xc2\x9b31m\xe2\x80\xaegnp",
        "node": b"n\x1b[1A\x1b[2K",
    },
    "long": {
        "graph": b"g" + b"*/" * 50000,
        "input": b"x" * 100000,
        "output": b"y" + b"\x1b" * 99999,
        "node": b"n",
    },
}


def model(names, computed=None, declared=(1, 4)):
    """ModelProto (opset 13) of y = Relu(x) on [1, 4]; the node's output is
    `computed` (default: the graph output), the graph output declares the
    shape `declared`."""
    computed = computed or names["output"]
    return ob.model(
        [ob.node("Relu", [names["input"]], [computed], names["node"])],
        [ob.value_info(names["input"], ob.FLOAT, [1, 4])],
        [ob.value_info(names["output"], ob.FLOAT, declared)],
        graph_name=names["graph"])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for case, names in CASES.items():
        with open(os.path.join(out, case + ".onnx"), "wb") as f:
            f.write(model(names))
    with open(os.path.join(out, "error.onnx"), "wb") as f:
        f.write(model(CASES["bytes"], computed=b"elsewhere"))
    with open(os.path.join(out, "warning.onnx"), "wb") as f:
        f.write(model(CASES["bytes"], declared=(1, 5)))
    with open(os.path.join(out, "error-long.onnx"), "wb") as f:
        f.write(model(CASES["long"], computed=b"elsewhere"))
    # Calibration data for the [1, 4] input: 8 samples (.npy, float32).
    with open(os.path.join(out, "data.npy"), "wb") as f:
        f.write(ob.npy([8, 4], [(i % 9) - 4.0 for i in range(32)]))


if __name__ == "__main__":
    main()
