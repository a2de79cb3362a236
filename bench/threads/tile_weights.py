#!/usr/bin/python3
"""Timing copies of ONNX models for bench/threads.sh --build-only: every
large initializer (weights; at least --min-size elements) is replaced by its
own first --period values repeated, the float ones with their mean removed
(so a convolution's sum over its window does not grow layer after layer).
Shapes, dtypes, graphs, biases, scales and zero points stay as they are.

Why: the run directory travels to a machine under a size limit (about 50 MiB)
and dense float / int8 kernels take the same time whatever the weight values,
but ResNet-50's float object alone holds 100 MB of float weights, which do not
compress. A model with repeated weights compiles to an object (and an ONNX
file for ONNX Runtime) that gzip shrinks to a few MB. Only the timing uses
these copies; bench/threads.sh checks at build time that the copies' outputs
are finite.

Usage: tile_weights.py in.onnx out.onnx [--period 16] [--min-size 1024]
"""
import argparse

import numpy as np
import onnx
from onnx import numpy_helper


def tile(model, period, min_size):
    """Replaces the large initializers of `model` in place; returns how many
    elements were replaced."""
    replaced = 0
    for i, init in enumerate(model.graph.initializer):
        value = numpy_helper.to_array(init)
        if value.size < min_size:
            continue
        pattern = value.reshape(-1)[:period].copy()
        if np.issubdtype(value.dtype, np.floating):
            # A repeated pattern adds up coherently over an output's
            # window of `fan_in` weights: sqrt(fan_in / period) times what
            # independent weights of the same spread give.
            fan_in = value.size // value.shape[0]
            pattern *= min(1.0, np.sqrt(period / fan_in))
        tiled = np.resize(pattern, value.size).reshape(value.shape)
        model.graph.initializer[i].CopyFrom(
            numpy_helper.from_array(tiled.astype(value.dtype), init.name))
        replaced += value.size
    return replaced


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--period", type=int, default=16)
    parser.add_argument("--min-size", type=int, default=1024)
    args = parser.parse_args()
    model = onnx.load(args.input)
    replaced = tile(model, args.period, args.min_size)
    onnx.save(model, args.output)
    print(f"{args.output}: {replaced} weights repeat a {args.period}-value "
          f"pattern")


if __name__ == "__main__":
    main()
