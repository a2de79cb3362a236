"""Generates the invalid ONNX models of test/Import/invalid-models.mlir: one
small model per check the importer makes where input enters (node arity,
attribute types and ranges, shapes, constants, QDQ parameters, graph inputs
and outputs), each with the message quant-translate must print, and the lit
test itself (its RUN lines come from the table below, so a new check is one
entry here).

  /usr/bin/python3 scripts/gen_invalid_models.py

writes test/Import/Inputs/invalid/*.onnx and test/Import/invalid-models.mlir,
and test/Integration/Compile/Inputs/duplicate_outputs.onnx (a valid model
that returns one value three times).
Needs the onnx package (Debian python3-onnx); the test does not.
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "test", "Import", "Inputs", "invalid")
TEST = os.path.join(ROOT, "test", "Import", "invalid-models.mlir")
INT64_MAX = 2**63 - 1


def vi(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def model(nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


X4 = [vi("x", [1, 2, 6, 6])]
W = init("w", np.ones([4, 2, 3, 3], np.float32))


def unary(op, out_shape, inputs=("x",), **attrs):
    """One node on x: [1, 2, 6, 6]."""
    return model([helper.make_node(op, list(inputs), ["y"], name="n", **attrs)],
                 X4, [vi("y", out_shape)])


def conv(inits=(W,), **attrs):
    return model([helper.make_node("Conv", ["x", "w"], ["y"], name="n", **attrs)],
                 X4, [vi("y", None)], inits)


def qdq(scale, zp, axis=None, dq_scale=None, dq_zp=None, x_shape=(1, 2, 6, 6)):
    """x -> QuantizeLinear -> DequantizeLinear -> y."""
    inits = [init("s", np.asarray(scale, np.float32))]
    q_in, dq_in = ["x", "s"], ["q", "s"]
    if zp is not None:
        inits.append(zp)
        q_in.append(zp.name)
        dq_in.append(zp.name)
    if dq_scale is not None:
        inits.append(init("s2", np.asarray(dq_scale, np.float32)))
        dq_in[1] = "s2"
    if dq_zp is not None:
        inits.append(dq_zp)
        dq_in[2] = dq_zp.name
    kw = {} if axis is None else {"axis": axis}
    return model([helper.make_node("QuantizeLinear", q_in, ["q"], name="q", **kw),
                  helper.make_node("DequantizeLinear", dq_in, ["y"], name="dq",
                                   **kw)],
                 [vi("x", list(x_shape))], [vi("y", list(x_shape))], inits)


def u8_tensor(name, values, dims):
    """A uint8 tensor written through int32_data, which can hold any value."""
    t = TensorProto()
    t.name, t.data_type = name, TensorProto.UINT8
    t.dims.extend(dims)
    t.int32_data.extend(values)
    return t


def huge_initializer():
    t = TensorProto()
    t.name, t.data_type = "big", TensorProto.FLOAT
    t.dims.extend([0, 2**40, 2**40])
    return model([helper.make_node("Add", ["x", "big"], ["y"], name="n")],
                 X4, [vi("y", None)], [t])


def no_outputs():
    return model([helper.make_node("Relu", ["x"], ["y"], name="n")], X4, [])


def graph_input_dim(d):
    return model([helper.make_node("Relu", ["x"], ["y"], name="n")],
                 [vi("x", [1, d, 4, 4])], [vi("y", None)])


def reshape(shape):
    return model([helper.make_node("Reshape", ["x", "s"], ["y"], name="n")],
                 X4, [vi("y", None)], [init("s", np.asarray(shape, np.int64))])


def gather(index):
    return model([helper.make_node("Gather", ["x", "i"], ["y"], name="n", axis=1)],
                 X4, [vi("y", None)], [init("i", np.asarray([index], np.int64))])


def slice_step(step):
    ins = [init(n, np.asarray([v], np.int64))
           for n, v in (("st", 0), ("en", 4), ("ax", 2), ("sp", step))]
    return model([helper.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"],
                                   name="n")], X4, [vi("y", None)], ins)


def resize_scales(scales):
    ins = [init("roi", np.zeros([0], np.float32)),
           init("sc", np.asarray(scales, np.float32))]
    return model([helper.make_node("Resize", ["x", "roi", "sc"], ["y"], name="n",
                                   mode="nearest")], X4, [vi("y", None)], ins)


def constant_of_shape(shape):
    return model([helper.make_node("ConstantOfShape", ["s"], ["c"], name="n"),
                  helper.make_node("Add", ["x", "c"], ["y"], name="add")],
                 X4, [vi("y", None)], [init("s", np.asarray(shape, np.int64))])


def on_constants(op, inputs, inits, **attrs):
    """`op` (node 'n') on initializers, its result added to x."""
    return model([helper.make_node(op, list(inputs), ["c"], name="n", **attrs),
                  helper.make_node("Add", ["x", "c"], ["y"], name="add")],
                 X4, [vi("y", None)], inits)


def einsum(equation, inputs, reshaped=None):
    """Einsum of `inputs` (x, and b: x reshaped to `reshaped`), opset 12."""
    nodes = []
    inits = []
    if reshaped is not None:
        nodes.append(helper.make_node("Reshape", ["x", "s"], ["b"], name="r"))
        inits.append(init("s", np.asarray(reshaped, np.int64)))
    attrs = {} if equation is None else {"equation": equation}
    nodes.append(helper.make_node("Einsum", inputs, ["y"], name="n", **attrs))
    return model(nodes, X4, [vi("y", None)], inits)


def matmul_of(shape):
    """x MatMul x reshaped to `shape`."""
    return model([helper.make_node("Reshape", ["x", "s"], ["b"], name="r"),
                  helper.make_node("MatMul", ["x", "b"], ["y"], name="n")],
                 X4, [vi("y", None)], [init("s", np.asarray(shape, np.int64))])


# (file name, model, the message after "node 'n' (Op): " or the file name).
def conv_transpose(x_shape=(1, 2, 6, 6), w_shape=(2, 3, 3, 3), inputs=("x", "w"),
                   inits=None, **attrs):
    """ConvTranspose on x (2 channels) with a weight of ones."""
    if inits is None:
        inits = [init("w", np.ones(w_shape, np.float32))]
    return model([helper.make_node("ConvTranspose", list(inputs), ["y"],
                                   name="n", **attrs)],
                 [vi("x", list(x_shape))], [vi("y", None)], inits)


def conv_transpose_per_axis_0():
    """A ConvTranspose weight quantized along its input channels (axis 0)."""
    inits = [init("wq", np.ones([2, 3, 3, 3], np.int8)),
             init("ws", np.asarray([0.1, 0.2], np.float32)),
             init("wz", np.zeros([2], np.int8))]
    nodes = [helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["w"],
                              axis=0, name="dq"),
             helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="n")]
    return model(nodes, X4, [vi("y", None)], inits)



def no_default_opset():
    m = model([helper.make_node("Relu", ["x"], ["y"], name="n")], X4,
              [vi("y", None)])
    del m.opset_import[:]
    m.opset_import.append(helper.make_opsetid("com.example", 1))
    return m


CASES = [
    # Node arity.
    ("add_one_input", unary("Add", [1, 2, 6, 6]),
     "node 'n' (Add): expected 2 inputs, got 1"),
    ("identity_no_input", unary("Identity", [1, 2, 6, 6], inputs=()),
     "node 'n' (Identity): expected 1 input, got 0"),
    ("relu_two_outputs",
     model([helper.make_node("Relu", ["x"], ["y", "z"], name="n")], X4,
           [vi("y", None)]),
     "node 'n' (Relu): expected 1 output, got 2"),
    # Attribute types and ranges.
    ("conv_strides_zero", conv(strides=[0, 1]),
     "node 'n' (Conv): strides must be >= 1"),
    ("conv_same_strides_zero", conv(strides=[0, 0], auto_pad="SAME_UPPER"),
     "node 'n' (Conv): strides must be >= 1"),
    ("conv_strides_float",
     model([helper.make_node("Conv", ["x", "w"], ["y"], name="n")], X4,
           [vi("y", None)], [W]),
     None),  # replaced below: an attribute of the wrong type
    ("conv_pads_huge", conv(pads=[INT64_MAX, 0, 0, 0]),
     "node 'n' (Conv): attribute 'pads' holds 9223372036854775807, out of "
     "range (allowed: -1073741824 to 1073741824)"),
    ("conv_group_zero", conv(group=0),
     "node 'n' (Conv): weight shape does not match input channels and group 0"),
    ("conv_kernel_shape", conv(kernel_shape=[5, 5]),
     "node 'n' (Conv): kernel_shape does not match the weight"),
    ("maxpool_strides_zero",
     unary("MaxPool", None, kernel_shape=[2, 2], strides=[2, 0]),
     "node 'n' (MaxPool): strides must be >= 1"),
    ("avgpool_kernel_zero", unary("AveragePool", None, kernel_shape=[0, 2]),
     "node 'n' (AveragePool): kernel sizes must be >= 1"),
    # ConvTranspose, 1-D windows, DepthToSpace / SpaceToDepth.
    ("convtranspose_weight_channels", conv_transpose(w_shape=(3, 3, 3, 3)),
     "node 'n' (ConvTranspose): weight of 3 input channels does not match the "
     "input's 2 channels and group 1"),
    ("convtranspose_group", conv_transpose(group=4),
     "node 'n' (ConvTranspose): weight of 2 input channels does not match the "
     "input's 2 channels and group 4"),
    ("convtranspose_weight_rank", conv_transpose(w_shape=(2, 3, 3)),
     "node 'n' (ConvTranspose): weight must be 4-D"),
    ("convtranspose_3d", conv_transpose(x_shape=(1, 2, 4, 4, 4),
                                        w_shape=(2, 3, 3, 3, 3)),
     "node 'n' (ConvTranspose): only 1-D and 2-D transposed convolutions (3-D "
     "or 4-D input) are supported"),
    ("convtranspose_kernel_shape", conv_transpose(kernel_shape=[5, 5]),
     "node 'n' (ConvTranspose): kernel_shape does not match the weight"),
    ("convtranspose_bias",
     conv_transpose(inputs=("x", "w", "b"),
                    inits=[init("w", np.ones([2, 3, 3, 3], np.float32)),
                           init("b", np.ones([2], np.float32))]),
     "node 'n' (ConvTranspose): bias must have one value per output channel "
     "(3)"),
    ("convtranspose_strides_zero", conv_transpose(strides=[0, 1]),
     "node 'n' (ConvTranspose): strides must be >= 1"),
    ("convtranspose_strides_length", conv_transpose(strides=[2, 2, 2]),
     "node 'n' (ConvTranspose): attribute 'strides' must have 2 value(s) for a "
     "2-D window, got 3"),
    ("convtranspose_strides_huge", conv_transpose(strides=[2**30, 1]),
     "node 'n' (ConvTranspose): strides, dilations or output_shape make a "
     "tensor of more than 2147483648 elements"),
    ("convtranspose_output_shape_huge",
     conv_transpose(output_shape=[2**30, 2**30]),
     "node 'n' (ConvTranspose): strides, dilations or output_shape make a "
     "tensor of more than 2147483648 elements"),
    ("convtranspose_output_padding",
     conv_transpose(strides=[2, 2], output_padding=[2, 0]),
     "node 'n' (ConvTranspose): output_padding must be smaller than the "
     "stride or the dilation"),
    ("convtranspose_pads_too_large", conv_transpose(pads=[5, 0, 5, 0]),
     "node 'n' (ConvTranspose): the output would be empty (size -2 along "
     "spatial dimension 0): pads or output_shape too large"),
    ("convtranspose_output_shape_zero", conv_transpose(output_shape=[0, 4]),
     "node 'n' (ConvTranspose): output_shape must be positive"),
    ("convtranspose_output_shape_length", conv_transpose(output_shape=[12]),
     "node 'n' (ConvTranspose): output_shape must have 2 (or 4) values, got "
     "1"),
    ("convtranspose_auto_pad", conv_transpose(auto_pad="FOO"),
     "node 'n' (ConvTranspose): unsupported auto_pad 'FOO'"),
    ("convtranspose_per_axis_0", conv_transpose_per_axis_0(),
     "node 'n' (ConvTranspose): per-axis weight quantization of a "
     "ConvTranspose must be along its output channels (axis 1)"),
    ("conv1d_pads_length",
     model([helper.make_node("Conv", ["x", "w"], ["y"], name="n",
                             pads=[1, 1, 1, 1])],
           [vi("x", [1, 2, 8])], [vi("y", None)],
           [init("w", np.ones([4, 2, 3], np.float32))]),
     "node 'n' (Conv): attribute 'pads' must have 2 value(s) for a 1-D window, "
     "got 4"),
    ("conv1d_weight_rank",
     model([helper.make_node("Conv", ["x", "w"], ["y"], name="n")],
           [vi("x", [1, 2, 8])], [vi("y", None)], [W]),
     "node 'n' (Conv): weight must be 3-D"),
    ("maxpool_3d",
     model([helper.make_node("MaxPool", ["x"], ["y"], name="n",
                             kernel_shape=[2, 2, 2])],
           [vi("x", [1, 2, 4, 4, 4])], [vi("y", None)]),
     "node 'n' (MaxPool): only 1-D and 2-D pooling (3-D or 4-D input) is "
     "supported"),
    ("maxpool1d_kernel_length",
     model([helper.make_node("MaxPool", ["x"], ["y"], name="n",
                             kernel_shape=[2], strides=[1, 1])],
           [vi("x", [1, 2, 8])], [vi("y", None)]),
     "node 'n' (MaxPool): attribute 'strides' must have 1 value(s) for a 1-D "
     "window, got 2"),
    ("depthtospace_channels", unary("DepthToSpace", None, blocksize=2),
     "node 'n' (DepthToSpace): channels (2) must be a multiple of "
     "blocksize^2 (4)"),
    ("depthtospace_mode", unary("DepthToSpace", None, blocksize=1, mode="XYZ"),
     "node 'n' (DepthToSpace): mode must be DCR or CRD, got 'XYZ'"),
    ("depthtospace_no_blocksize", unary("DepthToSpace", None),
     "node 'n' (DepthToSpace): attribute 'blocksize' is required"),
    ("spacetodepth_size", unary("SpaceToDepth", None, blocksize=4),
     "node 'n' (SpaceToDepth): height and width (6, 6) must be multiples of "
     "blocksize (4)"),
    ("spacetodepth_blocksize_zero", unary("SpaceToDepth", None, blocksize=0),
     "node 'n' (SpaceToDepth): blocksize must be >= 1, got 0"),
    ("flatten_axis", unary("Flatten", None, axis=7),
     "node 'n' (Flatten): axis 7 is out of range"),
    ("concat_axis",
     model([helper.make_node("Concat", ["x", "x"], ["y"], name="n", axis=-9)],
           X4, [vi("y", None)]),
     "node 'n' (Concat): axis -9 is out of range for rank 4 (allowed: -4 to 3)"),
    ("transpose_perm", unary("Transpose", None, perm=[0, 1, 1, 2]),
     "node 'n' (Transpose): perm is not a permutation of the 4 dimensions"),
    ("leaky_relu_nan", unary("LeakyRelu", None, alpha=float("nan")),
     "node 'n' (LeakyRelu): attribute 'alpha' is nan; it must be a finite "
     "number"),
    ("softmax_axis", unary("Softmax", None, axis=4),
     "node 'n' (Softmax): axis 4 is out of range for rank 4"),
    # Shapes and constants.
    ("reshape_huge", reshape([1, INT64_MAX]),
     "node 'n' (Reshape): input 1 holds 9223372036854775807, out of range"),
    ("reshape_count", reshape([5, -1]),
     "node 'n' (Reshape): cannot infer the -1 dimension"),
    ("gather_index", gather(2),
     "node 'n' (Gather): index 2 is out of range for a dimension of 2"),
    ("gather_empty_indices",
     model([helper.make_node("Gather", ["x", "i"], ["y"], name="n", axis=1)],
           X4, [vi("y", None)], [init("i", np.zeros([0], np.int64))]),
     "node 'n' (Gather): empty indices (an empty result) are not supported"),
    ("expand_zero",
     model([helper.make_node("Expand", ["x", "s"], ["y"], name="n")], X4,
           [vi("y", None)], [init("s", np.asarray([0, 1, 1, 1], np.int64))]),
     "node 'n' (Expand): shape value 0 is not supported (at least 1)"),
    ("conv_weight_empty",
     conv(inits=(init("w", np.zeros([0, 2, 3, 3], np.float32)),)),
     "node 'n' (Conv): the result has a dimension of size 0; empty "
     "activations are not supported"),
    ("slice_step_zero", slice_step(0),
     "node 'n' (Slice): steps must not be 0"),
    ("resize_scale_zero", resize_scales([1, 1, 0, 2]),
     "node 'n' (Resize): scales must be finite and positive"),
    ("resize_scale_nan", resize_scales([1, 1, float("nan"), 2]),
     "node 'n' (Resize): scales must be finite and positive"),
    ("constant_of_shape_huge", constant_of_shape([2**20, 2**20]),
     "node 'n' (ConstantOfShape): the shape: too many elements"),
    ("initializer_huge", huge_initializer(),
     "initializer: tensor 'big': dimension 1099511627776 is too large"),
    ("initializer_u8_range",
     model([helper.make_node("Add", ["x", "c"], ["y"], name="n")], X4,
           [vi("y", None)], [u8_tensor("c", [1000], [1])]),
     "initializer: tensor 'c' holds 1000, out of range for its type (0 to "
     "255)"),
    # QDQ parameters.
    ("qdq_scale_zero", qdq(0.0, init("z", np.uint8(0))),
     "node 'q' (QuantizeLinear): scale 0.000000e+00 is out of range (a finite "
     "float32 >= 1.175494e-38)"),
    ("qdq_scale_negative", qdq(-0.5, init("z", np.uint8(0))),
     "node 'q' (QuantizeLinear): scale -5.000000e-01 is out of range"),
    ("qdq_scale_inf", qdq(float("inf"), init("z", np.uint8(0))),
     "node 'q' (QuantizeLinear): scale INF is out of range"),
    ("qdq_scale_nan", qdq(float("nan"), init("z", np.uint8(0))),
     "node 'q' (QuantizeLinear): scale nan is out of range"),
    ("qdq_scale_2d", qdq(np.full([1, 2], 0.1), None),
     "node 'q' (QuantizeLinear): the scale must be a scalar or 1-D"),
    ("qdq_zero_point_range", qdq(0.1, u8_tensor("z", [1000], [])),
     "initializer: tensor 'z' holds 1000, out of range for its type (0 to "
     "255)"),
    ("qdq_zero_point_int32", qdq(0.1, init("z", np.int32(0))),
     "node 'q' (QuantizeLinear): only int8 / uint8 zero points are supported"),
    ("qdq_zero_point_size", qdq([0.1, 0.2], init("z", np.zeros([3], np.uint8)),
                                axis=1),
     "node 'q' (QuantizeLinear): the zero point's shape differs from the "
     "scale's"),
    ("qdq_axis_range", qdq([0.1, 0.2], init("z", np.zeros([2], np.uint8)),
                           axis=4),
     "node 'q' (QuantizeLinear): axis 4 is out of range for rank 4"),
    ("qdq_axis_size", qdq([0.1, 0.2, 0.3], init("z", np.zeros([3], np.uint8)),
                          axis=1),
     "node 'q' (QuantizeLinear): per-axis scale does not match the input's "
     "axis 1"),
    ("qdq_dq_zero_point", qdq(0.1, init("z", np.uint8(3)),
                              dq_zp=init("z2", np.uint8(4))),
     "node 'dq' (DequantizeLinear): zero point differs from its "
     "QuantizeLinear's"),
    ("qdq_dq_scale", qdq(0.1, init("z", np.uint8(3)), dq_scale=0.2),
     "node 'dq' (DequantizeLinear): scale differs from its QuantizeLinear's"),
    # Index and mask computations (constants only), matmuls of activations.
    ("where_activation",
     model([helper.make_node("Where", ["m", "x", "x"], ["y"], name="n")], X4,
           [vi("y", None)], [init("m", np.asarray([True, False]))]),
     "node 'n' (Where): input 'x' is computed from the model's input; Where "
     "is supported on constants only (index and mask computations)"),
    ("mod_float_fmod0",
     on_constants("Mod", ["a", "b"], [init("a", np.float32([1.5])),
                                      init("b", np.float32([2]))]),
     "node 'n' (Mod): floating-point Mod requires fmod=1"),
    ("mod_zero",
     on_constants("Mod", ["a", "b"], [init("a", np.int64([3])),
                                      init("b", np.int64([0]))]),
     "node 'n' (Mod): integer division by zero"),
    ("range_delta_zero",
     on_constants("Range", ["a", "b", "d"], [init("a", np.int64(0)),
                                             init("b", np.int64(4)),
                                             init("d", np.int64(0))]),
     "node 'n' (Range): delta is 0"),
    ("range_huge",
     on_constants("Range", ["a", "b", "d"], [init("a", np.int64(0)),
                                             init("b", np.int64(2**40)),
                                             init("d", np.int64(1))]),
     "node 'n' (Range): the result has too many elements"),
    ("scatternd_index",
     on_constants("ScatterND", ["d", "i", "u"],
                  [init("d", np.zeros([3, 6], np.float32)),
                   init("i", np.int64([[5]])),
                   init("u", np.ones([1, 6], np.float32))]),
     "node 'n' (ScatterND): index 5 is out of range for a dimension of size 3"),
    ("scatternd_updates",
     on_constants("ScatterND", ["d", "i", "u"],
                  [init("d", np.zeros([3, 6], np.float32)),
                   init("i", np.int64([[1]])),
                   init("u", np.ones([1, 5], np.float32))]),
     "node 'n' (ScatterND): updates have the wrong shape"),
    ("dropout_training",
     model([helper.make_node("Dropout", ["x", "r", "t"], ["y"], name="n")], X4,
           [vi("y", None)], [init("r", np.float32(0.5)),
                             init("t", np.asarray(True))]),
     "node 'n' (Dropout): training mode with a ratio of 0.5 is not supported "
     "(inference only)"),
    ("matmul_inner", matmul_of([1, 2, 3, 12]),
     "node 'n' (MatMul): input shapes do not match: [..., 6, 6] x [..., 3, "
     "12]"),
    ("matmul_batch", matmul_of([1, 4, 6, 3]),
     "node 'n' (MatMul): the leading dimensions do not broadcast"),
    ("einsum_no_equation", einsum(None, ["x"]),
     "node 'n' (Einsum): the equation attribute is required"),
    ("einsum_terms", einsum("ij,jk->ik", ["x"]),
     "node 'n' (Einsum): equation 'ij,jk->ik' has 2 operand term(s) for 1 "
     "input(s)"),
    ("einsum_rank", einsum("ij->ji", ["x"]),
     "node 'n' (Einsum): term 'ij' of equation 'ij->ji' does not match an "
     "input of rank 4"),
    ("einsum_subscript", einsum("ab1d->abd", ["x"]),
     "node 'n' (Einsum): equation 'ab1d->abd' has the invalid subscript '1' "
     "(letters and '...' only)"),
    ("einsum_diagonal", einsum("abcc->abc", ["x"]),
     "node 'n' (Einsum): term 'abcc' of equation 'abcc->abc' repeats 'c' (a "
     "diagonal), which is not supported"),
    ("einsum_ellipses", einsum("......->...", ["x"]),
     "node 'n' (Einsum): term '......' of equation '......->...' has two "
     "ellipses"),
    ("einsum_arrows", einsum("abcd->abcd->abcd", ["x"]),
     "node 'n' (Einsum): equation 'abcd->abcd->abcd' has more than one '->'"),
    ("einsum_output", einsum("abcd->abe", ["x"]),
     "node 'n' (Einsum): output subscript 'e' of equation 'abcd->abe' is in "
     "no operand"),
    ("einsum_sizes", einsum("abcd,abce->abde", ["x", "b"], [1, 2, 3, 12]),
     "node 'n' (Einsum): equation 'abcd,abce->abde' gives subscript 'c' the "
     "sizes 6 and 3 (broadcasting is not supported)"),
    ("einsum_three", einsum("abcd,abcd,abcd->abcd", ["x", "x", "x"]),
     "node 'n' (Einsum): expected 1 to 2 inputs, got 3"),
    ("layer_norm_mean_output",
     model([helper.make_node("LayerNormalization", ["x", "g"], ["y", "m"],
                             name="n")],
           X4, [vi("y", None), vi("m", None)],
           [init("g", np.ones([6], np.float32))], opset=17),
     "node 'n' (LayerNormalization): the Mean and InvStdDev outputs are not "
     "supported"),
    ("layer_norm_scale_shape",
     model([helper.make_node("LayerNormalization", ["x", "g"], ["y"],
                             name="n")],
           X4, [vi("y", None)], [init("g", np.ones([2, 6], np.float32))],
           opset=17),
     "node 'n' (LayerNormalization): Scale must broadcast to the normalized "
     "dimensions"),
    # Every value defined once (a handler relies on its inputs staying put).
    ("split_output_is_its_input",
     model([helper.make_node("Split", ["c"], ["c", "d"], name="n", axis=0),
            helper.make_node("Add", ["x", "d"], ["y"], name="add")],
           X4, [vi("y", None)], [init("c", np.ones([4, 6], np.float32))]),
     "node 'n' (Split): output 'c' is already defined (every value of an "
     "ONNX graph is defined once)"),
    ("output_defined_twice",
     model([helper.make_node("Relu", ["x"], ["y"], name="r1"),
            helper.make_node("Relu", ["x"], ["y"], name="n")],
           X4, [vi("y", None)]),
     "node 'n' (Relu): output 'y' is already defined"),
    # Graph inputs and outputs, opset.
    ("no_outputs", no_outputs(), "the graph has no outputs"),
    ("input_dim_zero", graph_input_dim(0),
     "graph input 'x' has a dimension of size 0"),
    ("input_dim_huge", graph_input_dim(2**40),
     "graph input 'x' has a dimension of size 1099511627776 (at most "
     "1073741824)"),
    ("input_too_many_elements",
     model([helper.make_node("Relu", ["x"], ["y"], name="n")],
           [vi("x", [2**16, 2**16, 2])], [vi("y", None)]),
     "graph input 'x' has more than 2147483648 elements"),
    ("opset_too_new", model([helper.make_node("Relu", ["x"], ["y"], name="n")],
                            X4, [vi("y", None)], opset=99),
     "unsupported opset 99 of the default ONNX domain (supported: 7-21)"),
    ("opset_too_old", model([helper.make_node("Relu", ["x"], ["y"], name="n")],
                            X4, [vi("y", None)], opset=6),
     "unsupported opset 6 of the default ONNX domain (supported: 7-21)"),
    ("no_default_opset", no_default_opset(),
     "the model imports no opset of the default ONNX domain (ai.onnx)"),
    # Older and newer spellings of an op (opsets 7-21).
    ("resize18_antialias",
     model([helper.make_node("Resize", ["x", "", "sc"], ["y"], name="n",
                             mode="linear", antialias=2)],
           X4, [vi("y", None)], [init("sc", np.float32([1, 1, 0.5, 0.5]))],
           opset=18),
     "node 'n' (Resize): attribute 'antialias' is 2; it must be 0 or 1"),
    ("resize18_axes_count",
     model([helper.make_node("Resize", ["x", "", "sc"], ["y"], name="n",
                             axes=[2, 3])],
           X4, [vi("y", None)], [init("sc", np.float32([1, 1, 2, 2]))],
           opset=18),
     "node 'n' (Resize): scales or sizes must have one value per axis (2)"),
    ("resize18_keep_aspect",
     model([helper.make_node("Resize", ["x", "", "", "sz"], ["y"], name="n",
                             keep_aspect_ratio_policy="larger")],
           X4, [vi("y", None)], [init("sz", np.int64([1, 2, 12, 9]))],
           opset=18),
     "node 'n' (Resize): unsupported keep_aspect_ratio_policy 'larger'"),
    ("resize18_keep_aspect_channels",
     model([helper.make_node("Resize", ["x", "", "", "sz"], ["y"], name="n",
                             keep_aspect_ratio_policy="not_smaller")],
           X4, [vi("y", None)], [init("sz", np.int64([1, 2, 12, 9]))],
           opset=18),
     "node 'n' (Resize): keep_aspect_ratio_policy scales N or C to [2, 4] "
     "(only H and W can be resized: give axes)"),
    ("split18_num_outputs",
     model([helper.make_node("Split", ["x"], ["a", "b"], name="n", axis=2,
                             num_outputs=3)],
           X4, [vi("a", None), vi("b", None)], opset=18),
     "node 'n' (Split): num_outputs is 3 but the node has 2 outputs"),
    ("pad18_axes_count",
     model([helper.make_node("Pad", ["x", "p", "", "ax"], ["y"], name="n")],
           X4, [vi("y", None)],
           [init("p", np.int64([1, 1, 1, 1, 1, 1])), init("ax", np.int64([2, 3]))],
           opset=18),
     "node 'n' (Pad): pads must have 4 values (two per axis)"),
    ("pad18_wrap",
     model([helper.make_node("Pad", ["x", "p"], ["y"], name="n", mode="wrap")],
           X4, [vi("y", None)], [init("p", np.int64([0, 0, 1, 1, 0, 0, 1, 1]))],
           opset=18),
     "node 'n' (Pad): unsupported mode 'wrap'"),
    ("batchnorm9_training",
     model([helper.make_node("BatchNormalization",
                             ["x", "s", "b", "m", "v"],
                             ["y", "rm", "rv", "sm", "sv"], name="n")],
           X4, [vi("y", None)],
           [init(k, np.ones(2, np.float32)) for k in "sbmv"], opset=9),
     "node 'n' (BatchNormalization): training mode (the mean / variance "
     "outputs) is not supported: inference only"),
    ("batchnorm7_spatial",
     model([helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"],
                             ["y"], name="n", spatial=0)],
           X4, [vi("y", None)],
           [init(k, np.ones(2, np.float32)) for k in "sbmv"], opset=7),
     "node 'n' (BatchNormalization): spatial=0 (per-element statistics) is "
     "not supported"),
    ("quantize21_block_size",
     model([helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"],
                             name="n", block_size=2),
            helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"],
                             name="dq")],
           X4, [vi("y", None)],
           [init("s", np.float32(0.1)), init("z", np.uint8(0))], opset=21),
     "node 'n' (QuantizeLinear): blocked quantization (block_size 2) is not "
     "supported"),
    ("quantize21_output_dtype",
     model([helper.make_node("QuantizeLinear", ["x", "s"], ["q"], name="n",
                             output_dtype=TensorProto.INT16),
            helper.make_node("DequantizeLinear", ["q", "s"], ["y"],
                             name="dq")],
           X4, [vi("y", None)], [init("s", np.float32(0.1))], opset=21),
     "node 'n' (QuantizeLinear): output_dtype 5 is not supported (int8 or "
     "uint8)"),
    ("upsample7_no_scales",
     model([helper.make_node("Upsample", ["x"], ["y"], name="n")],
           X4, [vi("y", None)], opset=7),
     "node 'n' (Upsample): attribute 'scales' (floats) is required"),
]



def wrong_type_strides():
    m = conv(strides=[1, 1])
    a = m.graph.node[0].attribute[0]
    a.type = onnx.AttributeProto.FLOAT
    a.f = 1.0
    del a.ints[:]
    return m


def duplicate_outputs():
    """Valid: one value returned three times, under its name twice and
    through an Identity (test/Integration/Compile/duplicate-outputs.mlir)."""
    nodes = [helper.make_node("Concat", ["x", "x"], ["c"], name="cat", axis=1),
             helper.make_node("Relu", ["c"], ["r"], name="relu"),
             helper.make_node("Flatten", ["r"], ["f"], name="flat"),
             helper.make_node("Identity", ["f"], ["g"], name="id")]
    return model(nodes, [vi("x", [1, 2, 3, 3])],
                 [vi("f", [1, 36]), vi("g", [1, 36]), vi("f", [1, 36])])


def main():
    path = os.path.join(ROOT, "test", "Integration", "Compile", "Inputs",
                        "duplicate_outputs.onnx")
    with open(path, "wb") as f:
        f.write(duplicate_outputs().SerializeToString())
    os.makedirs(OUT, exist_ok=True)
    cases = []
    for name, m, message in CASES:
        if name == "conv_strides_float":
            m = wrong_type_strides()
            message = ("node 'n' (Conv): attribute 'strides' must be a list of "
                       "integers")
        with open(os.path.join(OUT, name + ".onnx"), "wb") as f:
            f.write(m.SerializeToString())
        cases.append((name, message))
    lines = [
        "// Invalid models: every check the importer makes where input enters",
        "// refuses a model with a message naming the node, the attribute or",
        "// input and the allowed range, a non-zero exit status and no output.",
        "// Generated with the models by scripts/gen_invalid_models.py.",
        "//",
    ]
    for name, message in cases:
        prefix = name.upper()
        lines.append(f"// RUN: not quant-translate --import-onnx "
                     f"%S/Inputs/invalid/{name}.onnx -o %t.{name}.mlir 2>&1 "
                     f"| FileCheck %s --check-prefix={prefix}")
        lines.append(f"// RUN: not test -e %t.{name}.mlir")
        lines.append(f"// {prefix}: error: '{{{{.*}}}}{name}.onnx': {message}")
    with open(TEST, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
