"""Writes small inputs that ask quantc for a lot of memory, for
test/Hardening/memory-*.mlir. Python's standard library only (CI's test
run has no onnx or numpy package): ONNX and zip bytes are encoded by hand.

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

# ONNX TensorProto data types.
FLOAT, INT64 = 1, 7


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, payload):
    """A length-delimited field (wire type 2)."""
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def int_field(number, value):
    """A varint field (wire type 0)."""
    return varint(number << 3) + varint(value)


def tensor(dims, dtype, int64s=(), floats=()):
    """TensorProto: dims 1, data_type 2, float_data 4, int64_data 7."""
    out = b"".join(int_field(1, d) for d in dims) + int_field(2, dtype)
    if floats:
        out += field(4, b"".join(struct.pack("<f", f) for f in floats))
    if int64s:
        out += field(7, b"".join(varint(v & (2**64 - 1)) for v in int64s))
    return out


def attr_tensor(name, t):
    """AttributeProto: name 1, t 5, type 20 (TENSOR = 4)."""
    return field(1, name) + field(5, t) + int_field(20, 4)


def node(op, inputs, outputs, name, attrs=()):
    """NodeProto: input 1, output 2, name 3, op_type 4, attribute 5."""
    out = b"".join(field(1, i) for i in inputs)
    out += b"".join(field(2, o) for o in outputs)
    out += field(3, name) + field(4, op)
    return out + b"".join(field(5, a) for a in attrs)


def value_info(name, dims):
    """ValueInfoProto of a float tensor."""
    shape = b"".join(field(1, int_field(1, d)) for d in dims)
    tensor_type = int_field(1, FLOAT) + field(2, shape)
    return field(1, name) + field(2, field(1, tensor_type))


def model(nodes, inputs, outputs):
    """ModelProto: ir_version 1, graph 7, opset_import 8 (opset 13)."""
    graph = b"".join(field(1, n) for n in nodes) + field(2, "g")
    graph += b"".join(field(11, value_info(*i)) for i in inputs)
    graph += b"".join(field(12, value_info(*o)) for o in outputs)
    opset = field(1, "") + int_field(2, 13)
    return int_field(1, 8) + field(7, graph) + field(8, opset)


def shape_constant(name, dims):
    """A Constant node whose value is the int64 vector `dims`."""
    return node("Constant", [], [name], name,
                [attr_tensor("value", tensor([len(dims)], INT64, dims))])


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
                  [attr_tensor("value", tensor([1], FLOAT, floats=[1.0]))]),
             shape_constant("shape", [n]),
             node("Expand", ["one", "shape"], ["c"], "expand"),
             node("Add", ["x", "c"], ["y"], "add")]
    write(os.path.join(out, "expand.onnx"),
          model(nodes, [("x", [n])], [("y", [n])]))
    scalar = lambda name, v: node(  # noqa: E731
        "Constant", [], [name], name,
        [attr_tensor("value", tensor([], INT64, [v]))])
    nodes = [scalar("start", 0), scalar("limit", n), scalar("delta", 1),
             node("Range", ["start", "limit", "delta"], ["r"], "range"),
             node("Cast", ["r"], ["c"], "cast",
                  [field(1, "to") + int_field(3, FLOAT) + int_field(20, 2)]),
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
