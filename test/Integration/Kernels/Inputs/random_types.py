"""Shared pieces of the random kernel-test generators (random_elementwise.py,
random_movement.py): random per-tensor 8-bit quantized types and tensor
type text."""
import numpy as np


def f32(v):
    return float(np.float32(v))


def rand_type(rng, signed=None, narrow=None):
    """A random per-tensor 8-bit type: (text, signed, scale, zp, lo, hi).
    `narrow` (default: one time in four) narrows the storage range."""
    if signed is None:
        signed = bool(rng.integers(2))
    smin, smax = (-128, 127) if signed else (0, 255)
    lo, hi = smin, smax
    if narrow if narrow is not None else rng.integers(4) == 0:
        lo, hi = smin + int(rng.integers(0, 40)), smax - int(rng.integers(0, 40))
    scale = f32(np.exp(rng.uniform(np.log(0.003), np.log(0.3))))
    zp = int(rng.integers(lo, hi + 1))
    st = ("i8" if signed else "u8") + (f"<{lo}:{hi}>" if (lo, hi) != (smin, smax) else "")
    return f"!quant.uniform<{st}:f32, {scale!r}:{zp}>", signed, scale, zp, lo, hi


def ts(shape, elt):
    return f"tensor<{'x'.join(map(str, shape))}x{elt}>"
