"""A minimal ONNX writer in Python's standard library (CI's test run has no
onnx package): ModelProto bytes encoded by hand from onnx.proto's field
numbers, enough for small test models (nodes with attributes, initializers
with raw data of any type, graph inputs and outputs).

  import onnx_bytes as ob
  x = ob.value_info("x", ob.FLOAT, [1, 4])
  m = ob.model([ob.node("Relu", ["x"], ["y"])], [x],
               [ob.value_info("y", ob.FLOAT, [1, 4])])
"""

import struct

# TensorProto.DataType
FLOAT, UINT8, INT8, INT32, INT64, BOOL, FLOAT16, DOUBLE = 1, 2, 3, 6, 7, 9, \
    10, 11
_PACK = {FLOAT: "<f", UINT8: "<B", INT8: "<b", INT32: "<i", INT64: "<q",
         BOOL: "<B", DOUBLE: "<d"}


def varint(value):
    value &= (1 << 64) - 1  # negative int64: two's complement, 10 bytes
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _bytes(text):
    return text.encode() if isinstance(text, str) else text


def field(number, payload):
    """A length-delimited field (wire type 2)."""
    payload = _bytes(payload)
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def int_field(number, value):
    """A varint field (wire type 0)."""
    return varint(number << 3) + varint(value)


def tensor(name, dtype, dims, values):
    """TensorProto with raw_data: `values` packed as `dtype`."""
    raw = b"".join(struct.pack(_PACK[dtype], v) for v in values)
    return (b"".join(int_field(1, d) for d in dims) + int_field(2, dtype) +
            field(8, name) + field(9, raw))


def tensor_values(dims, dtype, int64s=(), floats=()):
    """TensorProto without a name, its values in the typed fields
    (float_data, int64_data) rather than raw_data."""
    out = b"".join(int_field(1, d) for d in dims) + int_field(2, dtype)
    if floats:
        out += field(4, b"".join(struct.pack("<f", f) for f in floats))
    if int64s:
        out += field(7, b"".join(varint(v) for v in int64s))
    return out


def tensor_attr(name, t):
    """AttributeProto of a TensorProto `t` (type TENSOR)."""
    return field(1, name) + field(5, t) + int_field(20, 4)


def attr(name, value):
    """AttributeProto: an int, a float, a string (bytes / str), or a list
    of ints."""
    out = field(1, name)
    if isinstance(value, bool) or isinstance(value, int):
        return out + int_field(3, int(value)) + int_field(20, 2)
    if isinstance(value, float):
        return out + varint(2 << 3 | 5) + struct.pack("<f", value) + \
            int_field(20, 1)
    if isinstance(value, (str, bytes)):
        return out + field(4, value) + int_field(20, 3)
    return out + b"".join(int_field(8, v) for v in value) + int_field(20, 7)


def node(op_type, inputs, outputs, name="n", encoded=(), **attrs):
    """NodeProto; keyword arguments are its attributes, `encoded` more
    AttributeProtos already encoded (tensor_attr)."""
    return (b"".join(field(1, i) for i in inputs) +
            b"".join(field(2, o) for o in outputs) + field(3, name) +
            field(4, op_type) +
            b"".join(field(5, attr(k, v)) for k, v in attrs.items()) +
            b"".join(field(5, a) for a in encoded))


def value_info(name, dtype, shape):
    """ValueInfoProto of a tensor with static `shape` (None: no shape)."""
    tensor_type = int_field(1, dtype)
    if shape is not None:
        dims = b"".join(field(1, int_field(1, d)) for d in shape)
        tensor_type += field(2, dims)
    return field(1, name) + field(2, field(1, tensor_type))


def model(nodes, inputs, outputs, inits=(), opset=13, graph_name="g"):
    """ModelProto (IR 8) of one graph in the default domain; `inits` are
    encoded TensorProtos."""
    graph = (b"".join(field(1, n) for n in nodes) + field(2, graph_name) +
             b"".join(field(5, t) for t in inits) +
             b"".join(field(11, i) for i in inputs) +
             b"".join(field(12, o) for o in outputs))
    opset_id = field(1, b"") + int_field(2, opset)
    return int_field(1, 8) + field(8, opset_id) + field(7, graph)


def npy(shape, values, header=None):
    """A version 1.0 .npy file of float32 `values`; `header` replaces the
    dictionary text (hostile headers)."""
    if header is None:
        header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" \
            % "".join(f"{d}, " for d in shape)
    header = header.encode() if isinstance(header, str) else header
    header = header + b" " * (-(len(header) + 11) % 64) + b"\n"
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header +
            struct.pack(f"<{len(values)}f", *values))
