#!/usr/bin/env python3
"""Generates test/Import/opsets.mlir and its models: the older and newer
spellings of the ops quantc imports, across the default domain's opsets 7
to 21 (onnx.helper graphs, since no exporter writes all of them), each with
a NumPy reference computed here from the ONNX operator specification.

Each model takes one input x and returns one output y; models whose op has
several outputs (Split) concatenate them in reverse order so that every part
is checked. The lit test imports each model, runs it (JIT) and compares with
the reference (|y - ref| <= 1e-4 max |ref|). scripts/check_opsets_ort.js checks
the references against ONNX Runtime (all 67 within 5.5e-7 with 1.30).

Usage: /usr/bin/python3 scripts/gen_opset_tests.py
"""
import os

import numpy as np
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "test", "Import", "Inputs", "opsets")
TEST = os.path.join(ROOT, "test", "Import", "opsets.mlir")

rng = np.random.default_rng(33)


def vi(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def node(op, inputs, outputs=("y",), **attrs):
    return helper.make_node(op, list(inputs), list(outputs), name=op.lower(),
                            **attrs)


def model(nodes, x, opset, inits=(), outputs=("y",)):
    graph = helper.make_graph(nodes, "g", [vi("x", list(x.shape))],
                              [vi(o, None) for o in outputs], list(inits))
    m = helper.make_model(graph,
                          opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8 if opset < 19 else 9
    return m


def x4(shape=(1, 2, 5, 6)):
    return rng.standard_normal(shape).astype(np.float32)


# --- Resize: ONNX's coordinate maps and interpolation (one axis at a time) --


def original_coord(mode, x, scale, n_in, n_out):
    """The input coordinate of output coordinate x (ONNX Resize)."""
    if mode == "asymmetric":
        return x / scale
    if mode == "half_pixel":
        return (x + 0.5) / scale - 0.5
    if mode == "pytorch_half_pixel":
        return (x + 0.5) / scale - 0.5 if n_out > 1 else 0.0
    if mode == "align_corners":
        return 0.0 if n_out == 1 else x * (n_in - 1) / (n_out - 1)
    if mode == "tf_half_pixel_for_nn":
        return (x + 0.5) / scale
    if mode == "half_pixel_symmetric":
        adjustment = n_out / (scale * n_in)
        offset = n_in / 2 * (1 - adjustment)
        return offset + (x + 0.5) / scale - 0.5
    raise ValueError(mode)


def nearest_index(mode, c):
    if mode == "floor":
        return np.floor(c)
    if mode == "ceil":
        return np.ceil(c)
    if mode == "round_prefer_floor":
        return np.ceil(c - 0.5)
    if mode == "round_prefer_ceil":
        return np.floor(c + 0.5)
    raise ValueError(mode)


def cubic_weight(d, a):
    d = abs(d)
    if d <= 1:
        return ((a + 2) * d - (a + 3)) * d * d + 1
    if d < 2:
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return 0.0


def antialias_coeffs(mode, ratio, scale, cubic_a):
    """ONNX's antialiased kernel (opset 18) at offset `ratio` in (0, 1]."""
    scale = min(scale, 1.0)
    start = int(np.floor(-(1 if mode == "linear" else 2) / scale) + 1)
    args = (np.arange(start, 2 - start) - ratio) * scale
    if mode == "linear":
        coeffs = np.clip(1 - np.abs(args), 0, 1)
    else:
        coeffs = np.array([cubic_weight(d, cubic_a) for d in args])
    return coeffs / coeffs.sum()


def antialias_point(a, axis, c, mode, scale, cubic_a, exclude_outside):
    """One output value of an antialiased resize, as ONNX's reference picks
    its taps: the len(coeffs) input indices nearest to c (edge padded)."""
    n_in = a.shape[axis]
    ratio = 1.0 if float(c).is_integer() else c - np.floor(c)
    coeffs = antialias_coeffs(mode, ratio, scale, cubic_a)
    n = len(coeffs)
    idx = sorted(sorted(range(-n, n_in + n), key=lambda i: (abs(c - i), i))[:n])
    if exclude_outside:
        coeffs = np.where([0 <= i < n_in for i in idx], coeffs, 0.0)
        coeffs = coeffs / coeffs.sum()
    return sum(w * np.take(a, min(max(i, 0), n_in - 1), axis=axis)
               for w, i in zip(coeffs, idx))


def resize_axis(a, axis, n_out, scale, mode, coord, nearest, cubic_a=-0.75,
                exclude_outside=False, roi=(0.0, 1.0), extrapolation=0.0,
                antialias=False):
    n_in = a.shape[axis]
    out = []
    for x in range(n_out):
        if antialias and mode != "nearest" and scale < 1:
            c = original_coord(coord, x, scale, n_in, n_out)
            out.append(antialias_point(a, axis, c, mode, scale, cubic_a,
                                       exclude_outside))
            continue
        if coord == "tf_crop_and_resize":
            start, end = roi
            c = (start * (n_in - 1) + x * (end - start) * (n_in - 1) /
                 (n_out - 1)) if n_out > 1 else 0.5 * (start + end) * (n_in - 1)
            if c < 0 or c > n_in - 1:
                out.append(np.full_like(np.take(a, 0, axis=axis),
                                        extrapolation))
                continue
        else:
            c = original_coord(coord, x, scale, n_in, n_out)
        if mode == "cubic":
            i0 = int(np.floor(c))
            t = c - i0
            w = np.array([cubic_weight(t - (k - 1), cubic_a) for k in range(4)])
            idx = [i0 + k - 1 for k in range(4)]
            if exclude_outside:
                w = np.where([0 <= i < n_in for i in idx], w, 0.0)
                w = w / w.sum()
            out.append(sum(w[k] * np.take(a, min(max(idx[k], 0), n_in - 1),
                                          axis=axis) for k in range(4)))
        elif mode == "nearest":
            i = int(np.clip(nearest_index(nearest, c), 0, n_in - 1))
            out.append(np.take(a, i, axis=axis))
        else:
            c = min(max(c, 0.0), n_in - 1)
            i0 = int(np.floor(c))
            i1 = min(i0 + 1, n_in - 1)
            f = c - i0
            out.append(np.take(a, i0, axis=axis) * (1 - f) +
                       np.take(a, i1, axis=axis) * f)
    return np.stack(out, axis=axis)


def resize_ref(x, out_hw, scales_hw, mode="nearest", coord="half_pixel",
               nearest="round_prefer_floor", rois=((0.0, 1.0), (0.0, 1.0)),
               **kw):
    y = x.astype(np.float64)
    for i, axis in enumerate((2, 3)):
        y = resize_axis(y, axis, out_hw[i], scales_hw[i], mode, coord,
                        nearest, roi=rois[i], **kw)
    return y.astype(np.float32)


def max_pool_ref(x, kernel, strides, dilations, pads, ceil=False):
    """ONNX MaxPool on NCHW x (pads [top, left, bottom, right])."""
    n, c, h, w = x.shape
    xp = np.pad(x, [(0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])],
                constant_values=-np.inf)
    out = []
    for i, size in enumerate((h, w)):
        span = size + pads[i] + pads[i + 2] - dilations[i] * (kernel[i] - 1) - 1
        o = (-(-span // strides[i]) if ceil else span // strides[i]) + 1
        if ceil and (o - 1) * strides[i] >= size + pads[i]:
            o -= 1
        out.append(o)
    y = np.full((n, c, out[0], out[1]), -np.inf, np.float32)
    for a in range(kernel[0]):
        for b in range(kernel[1]):
            for i in range(out[0]):
                for j in range(out[1]):
                    r, q = i * strides[0] + a * dilations[0], \
                        j * strides[1] + b * dilations[1]
                    if r < xp.shape[2] and q < xp.shape[3]:
                        y[:, :, i, j] = np.maximum(y[:, :, i, j],
                                                   xp[:, :, r, q])
    return y


def avg_pool_ref(x, kernel, strides, dilations, pads, ceil=False,
                 count_include_pad=False):
    """ONNX AveragePool (dilations: opset 19) on NCHW x (pads [top, left,
    bottom, right]); the ceil mode extension never counts."""
    n, c, h, w = x.shape
    xp = np.pad(x.astype(np.float64),
                [(0, 0), (0, 0), (pads[0], pads[2] + 8), (pads[1], pads[3] + 8)])
    out = []
    for i, size in enumerate((h, w)):
        span = size + pads[i] + pads[i + 2] - dilations[i] * (kernel[i] - 1) - 1
        o = (-(-span // strides[i]) if ceil else span // strides[i]) + 1
        if ceil and (o - 1) * strides[i] >= size + pads[i]:
            o -= 1
        out.append(o)
    y = np.zeros((n, c, out[0], out[1]))
    for i in range(out[0]):
        for j in range(out[1]):
            total, count = 0.0, 0
            for a in range(kernel[0]):
                for b in range(kernel[1]):
                    r = i * strides[0] + a * dilations[0]
                    q = j * strides[1] + b * dilations[1]
                    if count_include_pad:
                        inside = r < h + pads[0] + pads[2] and \
                            q < w + pads[1] + pads[3]
                    else:
                        inside = pads[0] <= r < pads[0] + h and \
                            pads[1] <= q < pads[1] + w
                    if inside:
                        total = total + xp[:, :, r, q]
                        count += 1
            y[:, :, i, j] = total / max(count, 1)
    return y.astype(np.float32)


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


CASES = []


def case(name, m, x, y):
    CASES.append((name, m, x, np.asarray(y, np.float32)))


def build():
    # Clip: attributes before 11, inputs from 11 (max alone at 13; min above
    # max gives max everywhere, as numpy.clip).
    x = x4()
    case("clip7", model([node("Clip", ["x"], min=-0.5, max=0.25)], x, 7), x,
         np.clip(x, -0.5, 0.25))
    case("clip11", model([node("Clip", ["x", "lo", "hi"])], x, 11,
                         [init("lo", np.float32(-0.5)),
                          init("hi", np.float32(0.25))]),
         x, np.clip(x, -0.5, 0.25))
    case("clip13_min_above_max", model([node("Clip", ["x", "lo", "hi"])], x,
                                       13, [init("lo", np.float32(0.5)),
                                            init("hi", np.float32(-0.25))]),
         x, np.clip(x, 0.5, -0.25))
    case("clip13_max_only", model([node("Clip", ["x", "", "hi"])], x, 13,
                                  [init("hi", np.float32(0.25))]),
         x, np.minimum(x, 0.25))

    # Pad: attributes (pads, value) before 11, inputs from 11, axes at 18,
    # wrap at 19.
    x = x4((1, 2, 4, 5))
    p = [0, 0, 1, 2, 0, 0, 2, 1]
    np_p = [(p[i], p[i + 4]) for i in range(4)]
    case("pad7_constant", model([node("Pad", ["x"], pads=p, value=1.5)], x, 7),
         x, np.pad(x, np_p, constant_values=1.5))
    case("pad9_reflect", model([node("Pad", ["x"], pads=p, mode="reflect")],
                               x, 9), x, np.pad(x, np_p, mode="reflect"))
    case("pad11_edge", model([node("Pad", ["x", "p"], mode="edge")], x, 11,
                             [init("p", np.int64(p))]),
         x, np.pad(x, np_p, mode="edge"))
    case("pad13_value", model([node("Pad", ["x", "p", "v"])], x, 13,
                              [init("p", np.int64(p)),
                               init("v", np.float32(-2))]),
         x, np.pad(x, np_p, constant_values=-2))
    case("pad18_axes", model([node("Pad", ["x", "p", "", "ax"])], x, 18,
                             [init("p", np.int64([2, 1, 0, 3])),
                              init("ax", np.int64([-1, 2]))]),
         x, np.pad(x, [(0, 0), (0, 0), (1, 3), (2, 0)]))
    case("pad19_wrap", model([node("Pad", ["x", "p"], mode="wrap")], x, 19,
                             [init("p", np.int64(p))]),
         x, np.pad(x, np_p, mode="wrap"))

    # Slice: attributes before 10, inputs (and steps) from 10.
    x = x4((1, 3, 6, 7))
    case("slice7", model([node("Slice", ["x"], starts=[1, -5], ends=[3, 100],
                               axes=[1, 3])], x, 7), x, x[:, 1:3, :, -5:])
    case("slice9_no_axes", model([node("Slice", ["x"], starts=[0, 1, 2, 1],
                                       ends=[1, 3, 5, 6])], x, 9),
         x, x[0:1, 1:3, 2:5, 1:6])
    case("slice10", model([node("Slice", ["x", "s", "e", "a", "st"])], x, 10,
                          [init("s", np.int64([5, 0])),
                           init("e", np.int64([0, 7])),
                           init("a", np.int64([2, 3])),
                           init("st", np.int64([-2, 3]))]),
         x, x[:, :, 5:0:-2, 0:7:3])
    case("slice13", model([node("Slice", ["x", "s", "e"])], x, 13,
                          [init("s", np.int64([0, 1])),
                           init("e", np.int64([1, 2]))]), x, x[0:1, 1:2])

    # Upsample: scales attribute at 7-8, input at 9 (asymmetric, nearest
    # rounds down).
    x = x4((1, 2, 3, 4))
    case("upsample7_nearest",
         model([node("Upsample", ["x"], scales=[1.0, 1.0, 2.0, 3.0])], x, 7),
         x, resize_ref(x, (6, 12), (2.0, 3.0), "nearest", "asymmetric",
                       "floor"))
    case("upsample8_linear",
         model([node("Upsample", ["x"], mode="linear",
                     scales=[1.0, 1.0, 2.0, 2.0])], x, 8),
         x, resize_ref(x, (6, 8), (2.0, 2.0), "linear", "asymmetric"))
    case("upsample9", model([node("Upsample", ["x", "s"])], x, 9,
                            [init("s", np.float32([1, 1, 2, 2]))]),
         x, resize_ref(x, (6, 8), (2.0, 2.0), "nearest", "asymmetric",
                       "floor"))

    # Resize: 10 (scales only, asymmetric), 11 (roi, sizes, modes, cubic,
    # tf_crop_and_resize), 13 (optional roi / scales), 18 (axes,
    # keep_aspect_ratio_policy, antialias), 19 (half_pixel_symmetric).
    x = x4((1, 2, 4, 5))
    case("resize10_nearest",
         model([node("Resize", ["x", "s"])], x, 10,
               [init("s", np.float32([1, 1, 2, 2]))]),
         x, resize_ref(x, (8, 10), (2, 2), "nearest", "asymmetric", "floor"))
    case("resize10_linear",
         model([node("Resize", ["x", "s"], mode="linear")], x, 10,
               [init("s", np.float32([1, 1, 1.5, 2]))]),
         x, resize_ref(x, (6, 10), (1.5, 2), "linear", "asymmetric"))
    case("resize11_align_corners",
         model([node("Resize", ["x", "roi", "s", "sz"], mode="linear",
                     coordinate_transformation_mode="align_corners")], x, 11,
               [init("roi", np.float32([])), init("s", np.float32([])),
                init("sz", np.int64([1, 2, 7, 3]))]),
         x, resize_ref(x, (7, 3), (7 / 4, 3 / 5), "linear", "align_corners"))
    case("resize11_nearest_ceil",
         model([node("Resize", ["x", "roi", "s"], nearest_mode="ceil",
                     coordinate_transformation_mode="half_pixel")], x, 11,
               [init("roi", np.float32([])),
                init("s", np.float32([1, 1, 2, 1.5]))]),
         x, resize_ref(x, (8, 7), (2, 1.5), "nearest", "half_pixel", "ceil"))
    case("resize11_tf_half_pixel_for_nn",
         model([node("Resize", ["x", "roi", "s"],
                     coordinate_transformation_mode="tf_half_pixel_for_nn")],
               x, 11, [init("roi", np.float32([])),
                       init("s", np.float32([1, 1, 0.75, 1.6]))]),
         x, resize_ref(x, (3, 8), (0.75, 1.6), "nearest",
                       "tf_half_pixel_for_nn"))
    case("resize11_cubic",
         model([node("Resize", ["x", "roi", "s"], mode="cubic")], x, 11,
               [init("roi", np.float32([])),
                init("s", np.float32([1, 1, 1.5, 0.6]))]),
         x, resize_ref(x, (6, 3), (1.5, 0.6), "cubic", "half_pixel"))
    case("resize13_cubic_exclude_outside",
         model([node("Resize", ["x", "", "", "sz"], mode="cubic",
                     cubic_coeff_a=-0.5, exclude_outside=1,
                     coordinate_transformation_mode="asymmetric")], x, 13,
               [init("sz", np.int64([1, 2, 7, 9]))]),
         x, resize_ref(x, (7, 9), (7 / 4, 9 / 5), "cubic", "asymmetric",
                       cubic_a=-0.5, exclude_outside=True))
    case("resize13_tf_crop_and_resize",
         model([node("Resize", ["x", "roi", "", "sz"], mode="linear",
                     coordinate_transformation_mode="tf_crop_and_resize",
                     extrapolation_value=2.5)], x, 13,
               [init("roi", np.float32([0, 0, -0.2, 0.3, 1, 1, 0.7, 1.1])),
                init("sz", np.int64([1, 2, 5, 4]))]),
         x, resize_ref(x, (5, 4), (None, None), "linear",
                       "tf_crop_and_resize",
                       rois=((-0.2, 0.7), (0.3, 1.1)), extrapolation=2.5))
    case("resize13_half_pixel",
         model([node("Resize", ["x", "", "s"], mode="linear")], x, 13,
               [init("s", np.float32([1, 1, 2, 0.5]))]),
         x, resize_ref(x, (8, 2), (2, 0.5), "linear", "half_pixel"))
    case("resize18_axes",
         model([node("Resize", ["x", "", "s"], mode="linear", axes=[3, 2])],
               x, 18, [init("s", np.float32([2, 1.5]))]),
         x, resize_ref(x, (6, 10), (1.5, 2), "linear", "half_pixel"))
    case("resize18_not_larger",
         model([node("Resize", ["x", "", "", "sz"],
                     keep_aspect_ratio_policy="not_larger", axes=[2, 3])],
               x, 18, [init("sz", np.int64([12, 10]))]),
         x, resize_ref(x, (8, 10), (2, 2), "nearest", "half_pixel"))
    case("resize18_not_smaller",
         model([node("Resize", ["x", "", "", "sz"], mode="linear",
                     keep_aspect_ratio_policy="not_smaller", axes=[2, 3])],
               x, 18, [init("sz", np.int64([12, 10]))]),
         x, resize_ref(x, (12, 15), (3, 3), "linear", "half_pixel"))
    x8 = x4((1, 2, 8, 9))
    case("resize18_antialias_linear",
         model([node("Resize", ["x", "", "s"], mode="linear", antialias=1)],
               x8, 18, [init("s", np.float32([1, 1, 0.5, 0.4]))]),
         x8, resize_ref(x8, (4, 3), (0.5, 0.4), "linear", "half_pixel",
                        antialias=True))
    case("resize18_antialias_cubic",
         model([node("Resize", ["x", "", "", "sz"], mode="cubic",
                     antialias=1, exclude_outside=1,
                     coordinate_transformation_mode="asymmetric")],
               x8, 18, [init("sz", np.int64([1, 2, 3, 12]))]),
         x8, resize_ref(x8, (3, 12), (3 / 8, 12 / 9), "cubic", "asymmetric",
                        antialias=True, exclude_outside=True))
    case("resize19_half_pixel_symmetric",
         model([node("Resize", ["x", "", "s"], mode="linear",
                     coordinate_transformation_mode="half_pixel_symmetric")],
               x, 19, [init("s", np.float32([1, 1, 1.75, 1.5]))]),
         x, resize_ref(x, (7, 7), (1.75, 1.5), "linear",
                       "half_pixel_symmetric"))

    # MaxPool: dilations (and ceil_mode) from opset 10.
    x = x4((1, 2, 9, 10))
    case("maxpool10_dilations",
         model([node("MaxPool", ["x"], kernel_shape=[3, 2], dilations=[2, 3],
                     strides=[2, 1], pads=[1, 0, 2, 1])], x, 10),
         x, max_pool_ref(x, [3, 2], [2, 1], [2, 3], [1, 0, 2, 1]))
    case("maxpool12_dilations_ceil",
         model([node("MaxPool", ["x"], kernel_shape=[2, 3], dilations=[3, 2],
                     strides=[2, 3], ceil_mode=1)], x, 12),
         x, max_pool_ref(x, [2, 3], [2, 3], [3, 2], [0, 0, 0, 0], ceil=True))

    # AveragePool: dilations from opset 19.
    case("averagepool19_dilations",
         model([node("AveragePool", ["x"], kernel_shape=[3, 2],
                     dilations=[2, 3], strides=[2, 1], pads=[1, 0, 2, 1])],
               x, 19),
         x, avg_pool_ref(x, [3, 2], [2, 1], [2, 3], [1, 0, 2, 1]))
    case("averagepool19_dilations_ceil_count_pad",
         model([node("AveragePool", ["x"], kernel_shape=[2, 3],
                     dilations=[3, 2], strides=[2, 3], pads=[1, 1, 1, 0],
                     ceil_mode=1, count_include_pad=1)], x, 19),
         x, avg_pool_ref(x, [2, 3], [2, 3], [3, 2], [1, 1, 1, 0], ceil=True,
                         count_include_pad=True))

    # Squeeze / Unsqueeze: axes attribute before 13, input from 13.
    x = x4((1, 3, 1, 4))
    case("squeeze11", model([node("Squeeze", ["x"], axes=[-2])], x, 11),
         x, x.reshape(1, 3, 4))
    case("squeeze13", model([node("Squeeze", ["x", "a"])], x, 13,
                            [init("a", np.int64([0, 2]))]),
         x, x.reshape(3, 4))
    case("squeeze21_all", model([node("Squeeze", ["x"])], x, 21),
         x, x.reshape(3, 4))
    case("unsqueeze9", model([node("Unsqueeze", ["x"], axes=[0, 5])], x, 9),
         x, x.reshape(1, 1, 3, 1, 4, 1))
    case("unsqueeze13", model([node("Unsqueeze", ["x", "a"])], x, 13,
                              [init("a", np.int64([-1]))]),
         x, x.reshape(1, 3, 1, 4, 1))

    # Reductions: axes attribute (ReduceSum before 13, the others before
    # 18), input after; noop_with_empty_axes.
    x = x4((2, 3, 4, 5))
    case("reducemean11", model([node("ReduceMean", ["x"], axes=[1, -1],
                                     keepdims=0)], x, 11),
         x, x.mean(axis=(1, 3)))
    case("reducemean18", model([node("ReduceMean", ["x", "a"])], x, 18,
                               [init("a", np.int64([2]))]),
         x, x.mean(axis=2, keepdims=True))
    case("reducemax13", model([node("ReduceMax", ["x"], axes=[0])], x, 13),
         x, x.max(axis=0, keepdims=True))
    case("reducemax18_noop",
         model([node("ReduceMax", ["x"], noop_with_empty_axes=1)], x, 18),
         x, x)
    case("reducemin18_all", model([node("ReduceMin", ["x"])], x, 18),
         x, x.min(keepdims=True))
    case("reducesum11", model([node("ReduceSum", ["x"], axes=[2, 3])], x, 11),
         x, x.sum(axis=(2, 3), keepdims=True))
    case("reducesum13", model([node("ReduceSum", ["x", "a"], keepdims=0)], x,
                              13, [init("a", np.int64([-3]))]),
         x, x.sum(axis=1))

    # Split: `split` attribute before 13, input from 13, num_outputs at 18.
    x = x4((1, 2, 8, 3))

    def split_model(opset, inputs, outs, inits=(), **attrs):
        parts = [f"p{i}" for i in range(outs)]
        return model([node("Split", inputs, parts, axis=2, **attrs),
                      node("Concat", parts[::-1], axis=2)], x, opset, inits)

    def rev(sizes):
        return np.concatenate(np.split(x, np.cumsum(sizes)[:-1], axis=2)[::-1],
                              axis=2)

    case("split7", split_model(7, ["x"], 2, split=[3, 5]), x, rev([3, 5]))
    case("split11_equal", split_model(11, ["x"], 4), x, rev([2, 2, 2, 2]))
    case("split13", split_model(13, ["x", "s"], 3,
                                [init("s", np.int64([1, 4, 3]))]),
         x, rev([1, 4, 3]))
    case("split18_num_outputs", split_model(18, ["x"], 3, num_outputs=3),
         x, rev([3, 3, 2]))

    # BatchNormalization: spatial at 7-8, the 9 form, training_mode at 14+.
    x = x4((1, 3, 4, 4))
    s, b = rng.uniform(0.5, 2, 3), rng.standard_normal(3)
    mean, var = rng.standard_normal(3), rng.uniform(0.5, 2, 3)
    bn_inits = [init(k, v.astype(np.float32))
                for k, v in zip("sbmv", (s, b, mean, var))]
    bn = ((x - mean[None, :, None, None]) /
          np.sqrt(var[None, :, None, None] + 1e-3) * s[None, :, None, None] +
          b[None, :, None, None])
    for opset, attrs in ((7, {"spatial": 1}), (9, {}),
                         (15, {"training_mode": 0})):
        case(f"batchnorm{opset}",
             model([node("BatchNormalization", ["x", "s", "b", "m", "v"],
                         epsilon=1e-3, **attrs)], x, opset, bn_inits), x, bn)

    # Dropout: ratio attribute before 12 (inference: identity), inputs from
    # 12; the mask output unused.
    x = x4((2, 5))
    case("dropout7", model([node("Dropout", ["x"], ratio=0.3)], x, 7), x, x)
    case("dropout12", model([node("Dropout", ["x", "r", "t"])], x, 12,
                            [init("r", np.float32(0.3)),
                             init("t", np.bool_(False))]), x, x)

    # Softmax: 2-D coercion before 13, one axis from 13.
    x = x4((2, 3, 4))
    case("softmax7", model([node("Softmax", ["x"])], x, 7),
         x, softmax(x.reshape(2, 12), 1).reshape(x.shape))
    case("softmax13", model([node("Softmax", ["x"], axis=1)], x, 13),
         x, softmax(x, 1))

    # Gemm: C broadcast from 7, optional from 11, transA (on a transposed
    # activation); Flatten's negative axis from 11.
    x = x4((3, 4))
    w, c = x4((5, 4)), x4((5,))
    case("gemm7", model([node("Gemm", ["x", "w", "c"], transB=1, alpha=0.5,
                              beta=2.0)], x, 7, [init("w", w), init("c", c)]),
         x, 0.5 * x @ w.T + 2 * c)
    case("gemm9_trans_a", model([node("Transpose", ["x"], ["xt"]),
                                  node("Gemm", ["xt", "w", "c"], transA=1,
                                       transB=1)], x, 9,
                                 [init("w", w), init("c", c)]),
         x, x @ w.T + c)
    case("gemm11_no_c", model([node("Gemm", ["x", "w"], transB=1)], x, 11,
                              [init("w", w)]), x, x @ w.T)
    x = x4((2, 3, 4))
    case("flatten9", model([node("Flatten", ["x"], axis=2)], x, 9),
         x, x.reshape(6, 4))
    case("flatten21", model([node("Flatten", ["x"], axis=-1)], x, 21),
         x, x.reshape(6, 4))
    case("reshape21", model([node("Reshape", ["x", "s"])], x, 21,
                            [init("s", np.int64([4, -1]))]),
         x, x.reshape(4, 6))
    case("gather13_2d_indices",
         model([node("Gather", ["x", "i"], axis=2)], x, 13,
               [init("i", np.int64([[3, 0], [-1, 1], [2, 2]]))]),
         x, np.take(x, [[3, 0], [3, 1], [2, 2]], axis=2))
    case("transpose21", model([node("Transpose", ["x"], perm=[2, 0, 1])], x,
                              21), x, x.transpose(2, 0, 1))


def main():
    build()
    os.makedirs(OUT, exist_ok=True)
    names = []
    for name, m, x, y in CASES:
        with open(os.path.join(OUT, name + ".onnx"), "wb") as f:
            f.write(m.SerializeToString())
        np.save(os.path.join(OUT, name + ".input.npy"), x)
        np.save(os.path.join(OUT, name + ".output.npy"), y)
        names.append(name)
    lines = [
        "// The older and newer spellings of the ops quantc imports, across "
        "the",
        "// default domain's opsets 7 to 21: each model imported, compiled "
        "(JIT), run",
        "// and compared with its NumPy reference (|y - ref| <= 1e-4 max "
        "|ref|).",
        "// Generated with the models by scripts/gen_opset_tests.py.",
        "//",
        "// RUN: rm -rf %t && mkdir -p %t",
    ]
    for name in names:
        lines.append(
            f"// RUN: quant-translate --import-onnx %S/Inputs/opsets/{name}.onnx"
            f" -o %t/{name}.mlir && quant-run %t/{name}.mlir --input "
            f"%S/Inputs/opsets/{name}.input.npy -o %t/{name}.npy && "
            f"%python %S/Inputs/compare.py %t/{name}.npy "
            f"%S/Inputs/opsets/{name}.output.npy | FileCheck %s "
            f"--check-prefix=MATCH")
    lines.append("// MATCH: MATCH")
    with open(TEST, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(names)} models to {OUT} and {TEST}")


if __name__ == "__main__":
    main()
