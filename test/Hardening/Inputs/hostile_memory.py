"""Writes small inputs that ask quantc for a lot of memory, for
test/Hardening/memory-*.mlir. Python's standard library only (CI's test
run has no onnx or numpy package): ONNX bytes come from onnx_bytes.py, zip bytes are
encoded here.

  python3 hostile_memory.py OUTDIR

writes into OUTDIR:
  ONNX models of a few hundred bytes whose constants the importer would
  compute (y = x + c, c from the model's declarations, not its bytes):
    const-<N>.onnx  c = ConstantOfShape([N]), x: float[N]; N = 268435457
                    (2^28 + 1, over the per-constant limit), 268435456 (at
                    it), 1048576 (1 Mi: 8 MiB as the importer holds it)
    many.onnx       four ConstantOfShape([1048576]) before their Adds
    identity.onnx   c = ConstantOfShape([1048576]), then three Identity
                    copies of it, the last added to x
    expand.onnx     Expand of a one-value constant to [268435456]
    range.onnx      Range(0, 268435456, 1)
    expand-act.onnx Expand of the activation x: float[1, 1] to
                    [1, 1073741824] (4 GiB as float32)
    expand-run.onnx the same to [1, 1048576] (4 MiB), with samples16.npy
                    (16 samples: 64 MiB of outputs) and samples4.npy
    external.onnx   an initializer of [4] floats whose data is "external"
                    (data_location EXTERNAL, location /dev/zero);
                    external-unmarked.onnx the same location without
                    data_location: no file is ever opened for it
  .npz archives (input "input", float32[1, 4, 4, 2] = 32 values, as the
  model of memory-npz.mlir takes):
    ok.npz          one stored member, 4 samples (128 values); ok.npy the
                    same array
    bomb.npz        one deflated member: a .npy header and 64 MiB of zeros,
                    about 64 KiB of file
    declared.npz    a member whose header declares 3 GiB (its data is the
                    deflated ok.npz member): refused before inflating
    lie-short.npz   a deflated member that inflates past its declared size
    lie-long.npz    a deflated member that inflates to less than it declares
    two.npz         two members of 48 MiB each (deflated zeros)
"""

import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_bytes as ob  # noqa: E402

FLOAT, INT64 = ob.FLOAT, ob.INT64
field, int_field, tensor = ob.field, ob.int_field, ob.tensor_values


def node(op, inputs, outputs, name, attrs=()):
    """NodeProto with encoded AttributeProtos `attrs`."""
    return ob.node(op, inputs, outputs, name, encoded=attrs)


def value_info(name, dims):
    """ValueInfoProto of a float tensor."""
    return ob.value_info(name, FLOAT, dims)


def model(nodes, inputs, outputs):
    """ModelProto (opset 13); inputs and outputs as (name, dims)."""
    return ob.model(nodes, [value_info(*i) for i in inputs],
                    [value_info(*o) for o in outputs])


def shape_constant(name, dims):
    """A Constant node whose value is the int64 vector `dims`."""
    return node("Constant", [], [name], name,
                [ob.tensor_attr("value", tensor([len(dims)], INT64, dims))])


def constant_of_shape(n, suffix=""):
    return [shape_constant("shape" + suffix, [n]),
            node("ConstantOfShape", ["shape" + suffix], ["c" + suffix],
                 "c" + suffix)]


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def external_model(marked):
    """y = x + w, w: float[4] whose data is elsewhere (ONNX external data:
    TensorProto external_data 13, data_location 14 = EXTERNAL)."""
    entry = field(1, "location") + field(2, "/dev/zero")
    w = (tensor([4], FLOAT) + field(8, "w") + field(13, entry) +
         (int_field(14, 1) if marked else b""))
    graph = (field(1, node("Add", ["x", "w"], ["y"], "add")) + field(2, "g") +
             field(5, w) + field(11, value_info("x", [4])) +
             field(12, value_info("y", [4])))
    return int_field(1, 8) + field(7, graph) + field(8, field(1, "") +
                                                    int_field(2, 13))


def write_models(out):
    nodes = [shape_constant("shape", [1, 2**30]),
             node("Expand", ["x", "shape"], ["y"], "expand")]
    write(os.path.join(out, "expand-act.onnx"),
          model(nodes, [("x", [1, 1])], [("y", [1, 2**30])]))
    nodes = [shape_constant("shape", [1, 2**20]),
             node("Expand", ["x", "shape"], ["y"], "expand")]
    write(os.path.join(out, "expand-run.onnx"),
          model(nodes, [("x", [1, 1])], [("y", [1, 2**20])]))
    for n in (4, 16):
        write(os.path.join(out, "samples%d.npy" % n),
              npy_header([n, 1]) + struct.pack("<%df" % n, *range(n)))
    write(os.path.join(out, "external.onnx"), external_model(True))
    write(os.path.join(out, "external-unmarked.onnx"), external_model(False))
    for n in (2**28 + 1, 2**28, 2**20):
        nodes = constant_of_shape(n) + [node("Add", ["x", "c"], ["y"], "add")]
        write(os.path.join(out, "const-%d.onnx" % n),
              model(nodes, [("x", [n])], [("y", [n])]))
    n = 2**20
    nodes, last = [], "x"
    for k in range(4):
        nodes += constant_of_shape(n, str(k))
    for k in range(4):
        nodes.append(node("Add", [last, "c%d" % k], ["s%d" % k], "add%d" % k))
        last = "s%d" % k
    write(os.path.join(out, "many.onnx"),
          model(nodes, [("x", [n])], [(last, [n])]))
    nodes = constant_of_shape(n)
    for k, (a, b) in enumerate([("c", "i0"), ("i0", "i1"), ("i1", "i2")]):
        nodes.append(node("Identity", [a], [b], "id%d" % k))
    nodes.append(node("Add", ["x", "i2"], ["y"], "add"))
    write(os.path.join(out, "identity.onnx"),
          model(nodes, [("x", [n])], [("y", [n])]))
    n = 2**28
    nodes = [node("Constant", [], ["one"], "one",
                  [ob.tensor_attr("value", tensor([1], FLOAT, floats=[1.0]))]),
             shape_constant("shape", [n]),
             node("Expand", ["one", "shape"], ["c"], "expand"),
             node("Add", ["x", "c"], ["y"], "add")]
    write(os.path.join(out, "expand.onnx"),
          model(nodes, [("x", [n])], [("y", [n])]))
    scalar = lambda name, v: node(  # noqa: E731
        "Constant", [], [name], name,
        [ob.tensor_attr("value", tensor([], INT64, [v]))])
    nodes = [scalar("start", 0), scalar("limit", n), scalar("delta", 1),
             node("Range", ["start", "limit", "delta"], ["r"], "range"),
             ob.node("Cast", ["r"], ["c"], "cast", to=FLOAT),
             node("Add", ["x", "c"], ["y"], "add")]
    write(os.path.join(out, "range.onnx"),
          model(nodes, [("x", [n])], [("y", [n])]))


def npy_header(shape):
    """A version 1.0 .npy header of a float32 C-order array."""
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    text = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % dims
    text += " " * ((64 - (10 + len(text) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text.encode()


def deflate(data):
    z = zlib.compressobj(9, zlib.DEFLATED, -15)
    return z.compress(data) + z.flush()


def zip_archive(members):
    """A zip archive; each member is (name, stored bytes, method, CRC-32,
    declared uncompressed size), written as declared."""
    local, central, offset = b"", b"", 0
    for name, stored, method, crc, size in members:
        name = name.encode()
        common = struct.pack("<HHHHHIIIHH", 20, 0, method, 0, 0x21, crc,
                             len(stored), size, len(name), 0)
        central += (struct.pack("<IH", 0x02014B50, 20) + common +
                    struct.pack("<HHHII", 0, 0, 0, 0, offset) + name)
        entry = struct.pack("<I", 0x04034B50) + common + name + stored
        local += entry
        offset += len(entry)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members),
                      len(members), len(central), offset, 0)
    return local + central + end


def npy_member(name, shape, payload, method=8, size=None):
    """A member holding a float32 array of `shape` whose data is `payload`;
    `size` overrides the declared uncompressed size."""
    npy = npy_header(shape) + payload
    stored = deflate(npy) if method == 8 else npy
    return (name, stored, method, zlib.crc32(npy),
            len(npy) if size is None else size)


def zeros_member(name, count):
    """A deflated member of `count` float32 zeros, compressed in pieces so
    that the whole never sits in memory."""
    npy_start = npy_header([count])
    z = zlib.compressobj(9, zlib.DEFLATED, -15)
    stored = [z.compress(npy_start)]
    crc = zlib.crc32(npy_start)
    chunk = bytes(1 << 20)
    left = count * 4
    while left:
        piece = chunk[:min(left, len(chunk))]
        stored.append(z.compress(piece))
        crc = zlib.crc32(piece, crc)
        left -= len(piece)
    stored.append(z.flush())
    return (name, b"".join(stored), 8, crc, len(npy_start) + count * 4)


def write_archives(out):
    sample = struct.pack("<128f", *[0.25 * (i % 7) for i in range(128)])
    shape = [4, 4, 4, 2]
    write(os.path.join(out, "ok.npy"), npy_header(shape) + sample)
    write(os.path.join(out, "ok.npz"),
          zip_archive([npy_member("input.npy", shape, sample, method=0)]))
    write(os.path.join(out, "bomb.npz"),
          zip_archive([zeros_member("input.npy", 16 << 20)]))
    write(os.path.join(out, "declared.npz"),
          zip_archive([npy_member("input.npy", shape, sample, size=3 << 30)]))
    real = len(npy_header(shape)) + len(sample)
    write(os.path.join(out, "lie-short.npz"),
          zip_archive([npy_member("input.npy", shape, sample,
                                  size=real - 64)]))
    write(os.path.join(out, "lie-long.npz"),
          zip_archive([npy_member("input.npy", shape, sample,
                                  size=real + 64)]))
    write(os.path.join(out, "two.npz"),
          zip_archive([zeros_member("input.npy", 12 << 20),
                       zeros_member("other.npy", 12 << 20)]))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write_models(out)
    write_archives(out)


if __name__ == "__main__":
    main()
