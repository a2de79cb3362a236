#!/usr/bin/python3
"""The accuracy budget: quant-compile --min-output-sqnr through
quantc.compile, checked on the object it builds, and the metric callback.

Usage: test_budget.py TOOLS_DIR SRC_ROOT WORK_DIR

The trained examples/fashion-mnist-mobile model (a depthwise / shuffle /
squeeze-excite network), calibrated on the first 256 of its 512 samples,
validated on the other 256:
- the int8 library's output SQNR against the float library, computed here
  with NumPy on the validation data, is at least the budget and equals the
  budget's own measurement (the object is bit-identical to the JIT-compiled
  int8 model the budget measured; 1e-6 dB: float64 sums in another order);
- the layers kept in float are a prefix of the measured sensitivity ranking,
  and are what the library computes in float;
- a budget already met keeps every layer int8;
- metric=: the top-1 agreement with the float model, a user's own metric;
  the model returned meets the target, with the fewest float layers the
  search found.
Needs only NumPy.
"""
import json
import os
import sys

import numpy as np

tools, root, work = sys.argv[1:4]
sys.path.insert(0, os.path.join(root, "python"))
import quantc  # noqa: E402

os.environ["QUANTC_COMPILE"] = os.path.join(tools, "quant-compile")
model = os.path.join(root, "examples", "fashion-mnist-mobile", "model.onnx")
data = np.load(os.path.join(root, "examples", "fashion-mnist-mobile",
                            "calibration.npy"))
calib, val = data[:256], data[256:]


def sqnr(f, q):
    f = f.astype(np.float64)
    return 10 * np.log10((f * f).sum() / ((f - q) ** 2).sum())


float_out = quantc.compile(model)(val)
# The histogram observer, under which the all-int8 model has room to gain
# (with the default percentile observer it agrees on 254 of 256 images).
OBS = "histogram"
plain = quantc.compile(model, calibration=calib, activation_observer=OBS)
before = sqnr(float_out, plain(val))
print(f"all int8: {before:.2f} dB")

budget = before + 1.5
report = os.path.join(work, "report")
int8 = quantc.compile(model, calibration=calib, validation=val,
                      activation_observer=OBS,
                      min_output_sqnr=budget, report=report)
after = sqnr(float_out, int8(val))
with open(os.path.join(report, "report.json")) as f:
    b = json.load(f)["accuracy_budget"]
assert b["met"] and not b["on_calibration_data"], b
assert after >= budget, (after, budget)
assert abs(after - b["output_sqnr_after_db"]) < 1e-6, (after, b)
assert abs(before - b["output_sqnr_before_db"]) < 1e-6, (before, b)
names = [l["name"] for l in b["float_layers"]]
ranking = [l["name"] for l in b["ranking"]]
assert names and names == ranking[:len(names)], (names, ranking)
print(f"budget {budget:.2f} dB: met, {after:.2f} dB with {len(names)} "
      "float layer(s), a prefix of the ranking")

met = quantc.compile(model, calibration=calib, validation=val,
                     activation_observer=OBS,
                     min_output_sqnr=before - 1, report=report)
with open(os.path.join(report, "report.json")) as f:
    b = json.load(f)["accuracy_budget"]
assert b["met"] and not b["float_layers"], b
assert np.array_equal(met(val), plain(val))
print("budget already met: every layer int8, the same library output")

float_top1 = float_out.argmax(1)


def agreement(m):
    return float((m(val).argmax(1) == float_top1).mean())


target = agreement(plain) + 1.5 / len(val)  # two more images agree
chosen = quantc.compile(model, calibration=calib, validation=val,
                        activation_observer=OBS,
                        metric=agreement, min_metric=target)
scores = chosen.metric_scores
k = len(chosen.float_layers)
assert chosen.metric_met and scores[k] >= target, scores
assert all(s < target for n, s in scores.items() if n < k), scores
assert agreement(chosen) == scores[k]
print(f"metric: agreement {scores[0]:.4f} -> {scores[k]:.4f} (target "
      f"{target:.4f}) with {k} float layer(s); fewer did not reach it")
print("BUDGET OK")
