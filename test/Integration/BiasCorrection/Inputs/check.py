"""Checks bias correction against NumPy (float64) on make_model.py's model.

  check.py means CALIBRATED.mlir DIR
      qnt.input_mean of each layer (quant-calibrate --input-means) equals the
      mean of the input value each filter tap reads (0 in the padding) over
      the samples and output positions of the float64 inputs DIR/inputs.npz.
  check.py bias INT8.mlir DIR [--uncorrected]
      each layer's int32 bias, dequantized, equals its float bias minus
      E[conv(x, dq(q(W)) - W)]: a convolution of the float64 input with the
      weight error (the int8 weights of INT8.mlir times their scale, minus
      DIR/weights.npz), averaged over samples and positions. --uncorrected:
      the biases of a model quantized without correction must miss it.
  check.py error FLOAT.npy PLAIN.npy CORRECTED.npy
      the int8 outputs' mean error against float (per output channel, over
      samples and positions; root mean square over channels) shrinks to at
      most a quarter with correction, and so does not the MSE grow.
"""
import re
import sys

import numpy as np

# Layer geometry as make_model.py writes it: kernel, stride, pad, dilation,
# groups (None: the linear layer), weight and bias names.
LAYERS = [(3, 2, 1, 1, 1, "w0", "b0"), (3, 1, 2, 2, 8, "w1", "b1"),
          (1, 1, 0, 1, 1, "w2", None), (None, None, None, None, None, "w3", "b3")]


def taps(x, k, stride, pad, dil):
    """Per tap (ky, kx): the [N, OH, OW, C] input values it reads."""
    x = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    oh = (x.shape[1] - dil * (k - 1) - 1) // stride + 1
    ow = (x.shape[2] - dil * (k - 1) - 1) // stride + 1
    for ky in range(k):
        for kx in range(k):
            yield ky, kx, x[:, ky * dil:ky * dil + stride * (oh - 1) + 1:stride,
                            kx * dil:kx * dil + stride * (ow - 1) + 1:stride, :]


def conv(x, w, stride, pad, dil, groups):
    """NHWC x, OHWI w, no bias."""
    og, ci = w.shape[0] // groups, w.shape[3]
    y = 0
    for ky, kx, p in taps(x, w.shape[1], stride, pad, dil):
        parts = [p[..., g * ci:(g + 1) * ci] @ w[g * og:(g + 1) * og, ky, kx, :].T
                 for g in range(groups)]
        y = y + np.concatenate(parts, axis=-1)
    return y


def check_means(mlir, d):
    got = [np.array([float(v) for v in m.split(",")]) for m in
           re.findall(r"qnt\.input_mean = array<f32: ([^>]*)>", open(mlir).read())]
    inputs = np.load(d + "/inputs.npz")
    assert len(got) == len(LAYERS), f"{len(got)} layers with means"
    worst = 0.0
    for i, (k, stride, pad, dil, _, _, _) in enumerate(LAYERS):
        x = inputs[f"layer{i}"]
        if k is None:
            want = x.reshape(-1, x.shape[-1]).mean(axis=0)
        else:
            want = np.stack([p.mean(axis=(0, 1, 2)) for _, _, p in
                             taps(x, k, stride, pad, dil)]).reshape(-1)
        # The compiled float32 model against float64: rounding relative to
        # the activations' size (about 1e-7 each), far below 1e-5.
        err = float(np.abs(got[i] - want).max()) / float(np.abs(want).max())
        worst = max(worst, err)
        assert err <= 1e-5, f"layer {i}: means off by {err:.3g} of their size"
    print(f"{len(got)} layers, max |qnt.input_mean - numpy| / max |numpy| = {worst:.3g}")
    print("MEANS CHECKED")


def parse_int8(mlir):
    """Per conv / linear op in order: (int weights, weight scales, int32
    bias, bias scales) from the quantized IR."""
    text = open(mlir).read()
    consts, casts = {}, {}
    for name, payload, ty, bits in re.findall(
            r"(%\w+) = arith\.constant dense<(.*?)> : tensor<([0-9x]+)xi(8|32)>", text):
        shape = [int(s) for s in ty.split("x")]
        if payload.startswith('"0x'):  # large constants: raw little-endian bytes
            vals = np.frombuffer(bytes.fromhex(payload[3:-1]),
                                 dtype=np.int8 if bits == "8" else "<i4")
        else:
            vals = np.array([int(v) for v in re.findall(r"-?\d+", payload)])
        consts[name] = np.broadcast_to(vals, [int(np.prod(shape))]).reshape(shape)
    for name, src, params in re.findall(
            r"(%\w+) = quant\.scast (%\w+)[^\n]*? to tensor<[0-9x]+x!quant\.uniform<i(?:8|32):f32(?::0)?, ([^>]*)>>", text):
        scales = np.array([float(s) for s in params.strip("{}").split(",")])
        casts[name] = (consts[src], scales)
    layers = []
    for w, b in re.findall(
            r"qnt\.(?:conv2d|linear) %\w+, (%\w+)(?: bias\((%\w+)\))?", text):
        q, ws = casts[w]
        # No bias (an uncorrected layer without one): zeros at scale 0.
        layers.append((q, ws) + (casts[b] if b else (np.zeros(len(q)), 0.0)))
    return layers


def check_bias(mlir, d, uncorrected):
    inputs, weights = np.load(d + "/inputs.npz"), np.load(d + "/weights.npz")
    layers = parse_int8(mlir)
    assert len(layers) == len(LAYERS), f"{len(layers)} layers"
    worst, missed = 0.0, 0
    for i, ((k, stride, pad, dil, groups, wn, bn), (q, ws, qb, bs)) in enumerate(
            zip(LAYERS, layers)):
        w = weights[wn].astype(np.float64)
        b = np.zeros(q.shape[0]) if bn is None else weights[bn].astype(np.float64)
        x = inputs[f"layer{i}"]
        if k is None:  # qnt.linear: [N, K] int8 weights
            dw = q.T * ws - w
            shift = (x.reshape(-1, x.shape[-1]) @ dw).mean(axis=0)
            size = np.abs(dw).sum(axis=0) * np.abs(x).max()
        else:
            dw = q * ws.reshape(-1, 1, 1, 1) - w
            shift = conv(x, dw, stride, pad, dil, groups).mean(axis=(0, 1, 2))
            size = np.abs(dw).reshape(len(dw), -1).sum(axis=1) * np.abs(x).max()
        want, got = b - shift, qb * bs
        # The int32 bias is the corrected float bias rounded to its scale:
        # within half a step; plus float32 rounding of the float bias and of
        # the compiled activations the means came from (1e-6 of the terms).
        tol = 0.5 * bs + 1e-6 * (np.abs(b) + size) + 1e-9
        ratio = np.abs(got - want) / tol
        worst = max(worst, float(ratio.max()))
        missed += int((ratio > 1).sum())
    total = sum(len(l[2]) for l in layers)
    print(f"{total} biases, max |int32 bias - numpy| / tolerance = {worst:.3g}")
    if uncorrected:
        print(f"{missed} of {total} uncorrected biases miss")
        print("UNCORRECTED BIASES MISS" if missed >= total // 2 else "TOO CLOSE")
    else:
        print("BIASES CHECKED" if missed == 0 else f"{missed} BIASES OFF")


def check_error(float_path, plain_path, corrected_path):
    ref = np.load(float_path).astype(np.float64)
    stats = []
    for path in (plain_path, corrected_path):
        e = (np.load(path).astype(np.float64).reshape(ref.shape) - ref)
        e = e.reshape(-1, ref.shape[-1])
        stats.append((float(np.sqrt((e.mean(axis=0) ** 2).mean())),
                      float((e ** 2).mean())))
    (m0, s0), (m1, s1) = stats
    print(f"mean error (rms over channels): {m0:.4g} -> {m1:.4g} ({m1 / m0:.3f}x); "
          f"mse {s0:.4g} -> {s1:.4g}")
    # Measured on this model: 0.0353 -> 0.0023 (0.065x), mse 0.0030 -> 0.0013.
    print("MEAN ERROR SHRINKS" if m1 <= 0.25 * m0 and s1 <= s0 else "NO GAIN")


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "means":
        check_means(sys.argv[2], sys.argv[3])
    elif mode == "bias":
        check_bias(sys.argv[2], sys.argv[3], "--uncorrected" in sys.argv)
    else:
        check_error(*sys.argv[2:5])
