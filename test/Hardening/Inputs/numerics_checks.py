"""Writes the hostile models and data files of test/Hardening/numerics-*.mlir
and checks-*.mlir into OUTDIR (Python's standard library only, through
onnx_bytes.py):

  python3 numerics_checks.py OUTDIR

numerics: products by zero constants of finite, infinite and NaN values
(mul_zero.onnx, with x.npy), a Gemm alpha that overflows folded into the
weight (gemm_alpha.onnx), double constants beyond float32's range
(double_*.onnx), inexact int64 constants (int64_inexact.onnx), integer
shape arithmetic that divides by zero or overflows (shape_*.onnx).
checks: 0 / 1 attributes given other values (attr_*.onnx), calibration data
under a name that names no input (data_*.npz), .npy headers that numpy and a
lax reader would read differently (npy_*.npy).
"""

import io
import os
import sys
import zipfile

import onnx_bytes as ob

F, I64, D = ob.FLOAT, ob.INT64, ob.DOUBLE


def write(out, name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def mul_zero():
    """x [1, 4] = [1, -2, 100, 0]: products by +0 and -0 of x, exp(x)
    (inf at 100), log(x) (NaN at -2, -inf at 0); Relu(exp(x)), Neg(x),
    Sqrt(log(x)) (of -inf) and Sqrt(Neg(x)) (of -0)."""
    x = ob.value_info("x", F, [1, 4])
    inits = [ob.tensor("zero", F, [1], [0.0]),
             ob.tensor("negzero", F, [1], [-0.0]),
             ob.tensor("zeros", F, [4], [0.0] * 4)]
    nodes = [ob.node("Exp", ["x"], ["e"], "exp"),
             ob.node("Log", ["x"], ["l"], "log"),
             ob.node("Mul", ["x", "zero"], ["x_times_0"], "m1"),
             ob.node("Mul", ["zero", "x"], ["0_times_x"], "m2"),
             ob.node("Mul", ["x", "negzero"], ["x_times_neg0"], "m3"),
             ob.node("Mul", ["x", "zeros"], ["x_times_zeros"], "m4"),
             ob.node("Mul", ["e", "zero"], ["exp_times_0"], "m5"),
             ob.node("Mul", ["l", "zero"], ["log_times_0"], "m6"),
             ob.node("Relu", ["e"], ["relu_exp"], "relu"),
             ob.node("Neg", ["x"], ["neg"], "neg"),
             ob.node("Sqrt", ["l"], ["sqrt_log"], "sqrt1"),
             ob.node("Sqrt", ["neg"], ["sqrt_neg"], "sqrt2")]
    outs = ["x_times_0", "0_times_x", "x_times_neg0", "x_times_zeros",
            "exp_times_0", "log_times_0", "relu_exp", "neg", "sqrt_log",
            "sqrt_neg"]
    return ob.model(nodes, [x], [ob.value_info(o, F, [1, 4]) for o in outs],
                    inits)


def gemm_alpha():
    """Gemm(x * 1e-25, w = 1e10, alpha = 1e30): alpha * w overflows float32,
    alpha * (A w) does not (about 9.9e16)."""
    nodes = [ob.node("Mul", ["x", "s"], ["t"], "scale"),
             ob.node("Gemm", ["t", "w"], ["y"], "gemm", alpha=1e30)]
    return ob.model(nodes, [ob.value_info("x", F, [1, 4])],
                    [ob.value_info("y", F, [1, 4])],
                    [ob.tensor("s", F, [1], [1e-25]),
                     ob.tensor("w", F, [4, 4], [1e10] * 16)])


def add_constant(dtype, values, name="c"):
    """y = x + c, x [1, 4] of `dtype`, c a [len(values)] initializer."""
    return ob.model([ob.node("Add", ["x", name], ["y"], "add")],
                    [ob.value_info("x", dtype, [1, 4])],
                    [ob.value_info("y", dtype, [1, 4])],
                    [ob.tensor(name, dtype, [len(values)], values)])


def shape_arithmetic(op, constant):
    """Shape(x) of x [1, 4] `op` an int64 constant, as a Reshape's shape."""
    nodes = [ob.node("Shape", ["x"], ["s"], "shape"),
             ob.node(op, ["s", "k"], ["t"], "arith"),
             ob.node("Reshape", ["x", "t"], ["y"], "reshape")]
    return ob.model(nodes, [ob.value_info("x", F, [1, 4])],
                    [ob.value_info("y", F, None)],
                    [ob.tensor("k", I64, [len(constant)], constant)])


def int64_inexact():
    """A Reshape whose shape constant holds 2^53 + 1."""
    return ob.model([ob.node("Reshape", ["x", "s"], ["y"], "reshape")],
                    [ob.value_info("x", F, [1, 4])],
                    [ob.value_info("y", F, None)],
                    [ob.tensor("s", I64, [2], [2**53 + 1, -1])])


def one_node(op, inputs, x_shape, inits=(), opset=13, **attrs):
    return ob.model([ob.node(op, inputs, ["y"], "n", **attrs)],
                    [ob.value_info("x", F, x_shape)],
                    [ob.value_info("y", F, None)], list(inits), opset)


W44 = ob.tensor("w", F, [4, 4], [0.5] * 16)
ATTRS = {
    "argmax_select_last": one_node("ArgMax", ["x"], [1, 4],
                                   select_last_index=5),
    "argmax_keepdims": one_node("ArgMax", ["x"], [1, 4], keepdims=2),
    "argmin_keepdims": one_node("ArgMin", ["x"], [1, 4], keepdims=-1),
    "reducemean_keepdims": one_node("ReduceMean", ["x"], [1, 4], axes=[1],
                                    keepdims=3),
    "reducesum_noop": one_node("ReduceSum", ["x"], [1, 4], opset=13,
                               noop_with_empty_axes=2),
    "gemm_transb": one_node("Gemm", ["x", "w"], [1, 4], [W44], transB=2),
    "gemm_transa": one_node("Gemm", ["x", "w"], [1, 4], [W44], transA=-1),
    "maxpool_ceil": one_node("MaxPool", ["x"], [1, 1, 4, 4],
                             kernel_shape=[2, 2], ceil_mode=3),
    "avgpool_count_pad": one_node("AveragePool", ["x"], [1, 1, 4, 4],
                                  kernel_shape=[2, 2], count_include_pad=7),
    "reshape_allowzero": one_node(
        "Reshape", ["x", "s"], [1, 4],
        [ob.tensor("s", I64, [2], [4, 1])], opset=14, allowzero=2),
    "batchnorm_training": one_node(
        "BatchNormalization", ["x", "g", "b", "m", "v"], [1, 2, 2, 2],
        [ob.tensor(k, F, [2], [1.0, 1.0]) for k in "gbmv"], opset=14,
        training_mode=2),
}


def npz(members):
    """A stored .npz archive of (name, npy bytes) members."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as z:
        for name, data in members:
            z.writestr(name + ".npy", data)
    return buffer.getvalue()


SAMPLE = [1.0, -2.0, 100.0, 0.0]
NPY_HEADERS = {
    # The second 'shape' is what numpy reads; a reader that took the first
    # would read another array.
    "duplicate": "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), "
                 "'shape': (2, 2), }",
    "unknown": "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), "
               "'extra': 1, }",
    "missing": "{'descr': '<f4', 'shape': (1, 4), }",
    "trailing": "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), }"
                " x = 1",
    "not_tuple": "{'descr': '<f4', 'fortran_order': False, 'shape': (4), }",
    "fortran_int": "{'descr': '<f4', 'fortran_order': 0, 'shape': (1, 4), }",
    "nested_key": "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), "
                  "'x': {'shape': (2, 2)}}",
    # Accepted: another key order, double quotes, no trailing comma.
    "reordered": '{"shape": (1, 4), "fortran_order": False, "descr": "<f4"}',
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write(out, "mul_zero.onnx", mul_zero())
    write(out, "x.npy", ob.npy([1, 4], SAMPLE))
    write(out, "gemm_alpha.onnx", gemm_alpha())
    write(out, "double_big.onnx", add_constant(D, [1e300]))
    write(out, "double_tiny.onnx", add_constant(D, [1e-300]))
    write(out, "double_ok.onnx",
          add_constant(D, [3.4028234663852886e38, 1e-45, float("inf"), 0.1]))
    write(out, "int64_inexact.onnx", int64_inexact())
    write(out, "shape_div_zero.onnx", shape_arithmetic("Div", [1, 0]))
    write(out, "shape_div_overflow.onnx",
          ob.model([ob.node("Div", ["a", "b"], ["t"], "arith"),
                    ob.node("Reshape", ["x", "t"], ["y"], "reshape")],
                   [ob.value_info("x", F, [1, 4])],
                   [ob.value_info("y", F, None)],
                   [ob.tensor("a", I64, [1], [-2**63]),
                    ob.tensor("b", I64, [1], [-1])]))
    write(out, "shape_mul_overflow.onnx",
          shape_arithmetic("Mul", [1, 2**62]))
    write(out, "shape_div_ok.onnx", shape_arithmetic("Div", [1, -3]))
    for name, m in ATTRS.items():
        write(out, f"attr_{name}.onnx", m)
    relu = ob.model([ob.node("Relu", ["x"], ["y"], "relu")],
                    [ob.value_info("x", F, [1, 4])],
                    [ob.value_info("y", F, [1, 4])])
    write(out, "relu.onnx", relu)
    sample = ob.npy([1, 4], SAMPLE)
    write(out, "data_unknown.npz", npz([("wrong", sample)]))
    write(out, "data_named.npz", npz([("x", sample)]))
    write(out, "data_positional.npz", npz([("arr_0", sample)]))
    for name, header in NPY_HEADERS.items():
        write(out, f"npy_{name}.npy", ob.npy(None, SAMPLE, header))
    long_header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4)," \
        + " " * 10000 + "}"
    write(out, "npy_long.npy", ob.npy(None, SAMPLE, long_header))
    minor = bytearray(sample)
    minor[7] = 1  # version 1.1
    write(out, "npy_version.npy", bytes(minor))
    write(out, "npy_good.npy", sample)


if __name__ == "__main__":
    main()
