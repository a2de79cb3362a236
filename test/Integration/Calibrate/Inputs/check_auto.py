"""Checks the choices of --activation-observer=auto in DIR (auto-observer.mlir):

  check_auto.py DIR

Recomputes each auto observer's score with NumPy from the float activations
quant-run dumped (input: the data itself; clamp1: a truncated copy; conv2:
the model output), the filters, and each candidate's qparams taken from the
profile of a run with that kind fixed (min_max.json, ...). The score is the
one ChooseObservers.cpp documents: over the tensor's consumers, the mean
squared error the fake quantization e = dequantize(quantize(x)) - x (the
int8 reference's float32 arithmetic) causes in their outputs, sum_c w_c *
mean(e_c^2) with w_c = sum of the filter's squares meeting input channel c
per output channel for a conv, mean(e^2) for the model result.

Also checks: the chosen kind has the least score (the first of equal ones),
the choices differ between tensors, quant-compile and quant-calibrate agree,
the auto profile's qparams are the chosen kind's, the report shows the
choices, and reloading the profile gave the same choices."""
import json
import os
import sys

import numpy as np

d = sys.argv[1]
CANDIDATES = ["min_max", "percentile", "entropy", "mse"]
# Relative tolerance of the recomputed scores. The activations are the same
# float32 numbers (quant-run's float model and the choice's float copy are
# compiled by the same float pipeline), the fake quantization is bit-exact,
# so only the order of the double sums differs: ~1e-13 relative. 1e-9 leaves
# room for a last-bit difference in a conv output (a changed rounding of one
# of 65536 values moves a score by at most scale^2 / 65536 ~ 1e-5 of it
# for conv2, so such a difference would show, and be reported).
RTOL = 1e-9


def observers(path):
    return {o["name"]: o for o in json.load(open(path))["observers"]}


def filter_weights(w):
    """w_c of a 1-group conv with OHWI filter w: squares per input channel,
    divided by the output channels."""
    return (w.astype(np.float64) ** 2).sum(axis=(0, 1, 2)) / w.shape[0]


def fake_quant_error2(x, scale, zp, qmin, qmax):
    x = x.astype(np.float32).reshape(-1, x.shape[-1])
    inv = np.float32(1.0) / np.float32(scale)
    q = np.clip(np.rint(x * inv) + zp, qmin, qmax)
    dq = (q - zp).astype(np.float32) * np.float32(scale)
    return (dq.astype(np.float64) - x.astype(np.float64)) ** 2


auto = observers(os.path.join(d, "auto.json"))
calibrated = observers(os.path.join(d, "calibrated.json"))
reloaded = observers(os.path.join(d, "reload.json"))
fixed = {k: observers(os.path.join(d, k + ".json")) for k in CANDIDATES}
activations = {
    "input": np.load(os.path.join(d, "data.npy")),
    "clamp1": np.load(os.path.join(d, "clamp1.npy")),
    "conv2": np.load(os.path.join(d, "conv2.npy")),
}
consumers = {
    "input": filter_weights(np.load(os.path.join(d, "w1.npy"))),
    "clamp1": filter_weights(np.load(os.path.join(d, "w2.npy"))),
    "conv2": None,
}
report = {l["name"]: l for l in
          json.load(open(os.path.join(d, "r", "report.json")))["layers"]}

chosen = set()
for name, x in activations.items():
    o = auto[name]
    choice = o["choice"]
    assert o["config"]["kind"] == "auto", o["config"]
    assert o["config"]["quant_min"] is None and not o["config"]["reduce_range"]
    qmin, qmax = (0, 255) if o["config"]["dtype"] == "quint8" else (-128, 127)
    scores = {}
    for k in CANDIDATES:
        qp = fixed[k][name]["qparams"]
        e2 = fake_quant_error2(x, qp["scale"][0], qp["zero_point"][0], qmin,
                               qmax)
        w = consumers[name]
        scores[k] = (e2.mean() if w is None else
                     float((e2.mean(axis=0) * w).sum()))
    for k in CANDIDATES:
        got = choice["scores"][k]
        assert abs(got - scores[k]) <= RTOL * abs(scores[k]), (name, k, got,
                                                               scores[k])
    least = min(CANDIDATES, key=lambda k: choice["scores"][k])
    assert choice["kind"] == least, (name, choice)
    # Folding the resolved observer gives the chosen kind's qparams.
    assert o["qparams"] == fixed[least][name]["qparams"], name
    assert calibrated[name]["choice"] == choice, name
    assert calibrated[name]["qparams"] == o["qparams"], name
    assert reloaded[name]["choice"] == choice, name
    assert reloaded[name]["qparams"] == o["qparams"], name
    layer = report[name]
    assert layer["observer"]["kind"] == least, layer["observer"]
    assert layer["observer_choice"] == choice, name
    assert layer["scale"] == np.float32(o["qparams"]["scale"][0]), name
    chosen.add(least)
    print(f"{name}: {least} " + " ".join(
        f"{k}={choice['scores'][k]:.6g}" for k in CANDIDATES) +
        f" (numpy: {scores[least]:.6g})")
assert len(chosen) > 1, chosen
print("AUTO CHECKED")
