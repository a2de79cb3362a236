#!/usr/bin/python3
"""Every output counts: the report and the accuracy budget on a model with
two outputs whose second is the badly quantized one (two_heads.py).

Usage: test_budget_outputs.py TOOLS_DIR SRC_ROOT WORK_DIR
(WORK_DIR holds two_heads.onnx, calib.npy, val.npy.)

- The report (on the calibration data) lists both outputs; each one's SQNR
  and largest error equal NumPy's on the libraries' outputs (float library
  against the int8 library, the int8 reference's arithmetic bit for bit:
  1e-3 dB allows for float64 sums in another order and nothing else), and
  the summary's output_sqnr_db is the worst output's, boxes.
- All int8, scores meets a 25 dB budget and boxes does not: a budget on
  the first output alone was met without changing anything.
- --min-output-sqnr 25 keeps layers in float until both outputs reach it,
  as NumPy measures the library on the validation data; the per-output
  figures before and after equal NumPy's.
- min_output_sqnr={"boxes": 25} constrains boxes alone; {"scores": 31}
  is met with every layer int8 (the library is the plain one); keys and
  values are checked before quant-compile runs.
- metric=: the libraries the callback gets return both outputs; a metric
  on boxes reaches its target through the ranking (by the worst output).
Needs only NumPy.
"""
import json
import math
import os
import sys

import numpy as np

tools, root, work = sys.argv[1:4]
sys.path.insert(0, os.path.join(root, "python"))
import quantc  # noqa: E402

os.environ["QUANTC_COMPILE"] = os.path.join(tools, "quant-compile")
model = os.path.join(work, "two_heads.onnx")
calib = np.load(os.path.join(work, "calib.npy"))
val = np.load(os.path.join(work, "val.npy"))
NAMES = ["scores", "boxes"]
BUDGET = 25.0
TOL_DB = 1e-3


def sqnr(f, q):
    f, q = f.astype(np.float64), q.astype(np.float64)
    return 10 * np.log10((f * f).sum() / ((f - q) ** 2).sum())


def report_of(directory):
    with open(os.path.join(directory, "report.json")) as f:
        return json.load(f)


float_lib = quantc.compile(model)
plain_dir = os.path.join(work, "plain")
plain = quantc.compile(model, calibration=calib, report=plain_dir)

# The report, against NumPy on the calibration data it measures.
summary = report_of(plain_dir)["summary"]
outputs = summary["outputs"]
assert [o["name"] for o in outputs] == NAMES, outputs
f_cal, q_cal = float_lib(calib), plain(calib)
measured = {}
for o, f, q in zip(outputs, f_cal, q_cal):
    measured[o["name"]] = sqnr(f, q)
    assert abs(o["sqnr_db"] - measured[o["name"]]) < TOL_DB, (o, measured)
    err = float(np.abs(f.astype(np.float64) - q).max())
    assert abs(o["max_abs_error"] - err) <= 1e-5 * err, (o, err)
    print(f"report {o['name']}: {o['sqnr_db']:.3f} dB (numpy "
          f"{measured[o['name']]:.3f}), max error {o['max_abs_error']:.4g}")
worst = min(measured, key=measured.get)
assert summary["worst_output"] == worst == "boxes", summary
assert summary["output_sqnr_db"] == min(o["sqnr_db"] for o in outputs)
print(f"report summary: worst output {worst}, "
      f"{summary['output_sqnr_db']:.3f} dB")

# All int8 on the validation data: scores meets the budget, boxes not.
f_val, q_val = float_lib(val), plain(val)
before = [sqnr(f, q) for f, q in zip(f_val, q_val)]
assert before[0] >= BUDGET > before[1], before
print(f"all int8: scores {before[0]:.2f} dB >= {BUDGET} dB > boxes "
      f"{before[1]:.2f} dB")


def check_budget(targets, directory, lib):
    """The library meets `targets` ({name: dB}) on the validation data, and
    the budget's per-output figures are NumPy's."""
    b = report_of(directory)["accuracy_budget"]
    after = [sqnr(f, q) for f, q in zip(f_val, lib(val))]
    assert b["met"] and not b["on_calibration_data"], b
    assert [o["name"] for o in b["outputs"]] == NAMES, b["outputs"]
    for o, a, p in zip(b["outputs"], after, before):
        assert o["min_sqnr_db"] == targets.get(o["name"]), (o, targets)
        assert abs(o["sqnr_after_db"] - a) < TOL_DB, (o, a)
        assert abs(o["sqnr_before_db"] - p) < TOL_DB, (o, p)
        if o["name"] in targets:
            assert a >= targets[o["name"]], (o, a)
    assert abs(b["output_sqnr_after_db"] - min(after)) < TOL_DB, b
    names = [l["name"] for l in b["float_layers"]]
    ranking = [l["name"] for l in b["ranking"]]
    assert names == ranking[:len(names)], (names, ranking)
    return after, names


budget_dir = os.path.join(work, "budget")
lib = quantc.compile(model, calibration=calib, validation=val,
                     min_output_sqnr=BUDGET, report=budget_dir)
after, names = check_budget({n: BUDGET for n in NAMES}, budget_dir, lib)
assert names and after[1] >= BUDGET, (names, after)
print(f"budget {BUDGET} dB: met, scores {after[0]:.2f} dB, boxes "
      f"{before[1]:.2f} -> {after[1]:.2f} dB with {len(names)} float "
      "layer(s)")

one_dir = os.path.join(work, "one")
lib = quantc.compile(model, calibration=calib, validation=val,
                     min_output_sqnr={"boxes": BUDGET}, report=one_dir)
after, names = check_budget({"boxes": BUDGET}, one_dir, lib)
print(f"boxes={BUDGET}: met, boxes {after[1]:.2f} dB with {len(names)} "
      "float layer(s)")

first_dir = os.path.join(work, "first")
target = math.floor(before[0]) - 1.0
lib = quantc.compile(model, calibration=calib, validation=val,
                     min_output_sqnr={"scores": target}, report=first_dir)
after, names = check_budget({"scores": target}, first_dir, lib)
assert not names and all(np.array_equal(a, b) for a, b in
                         zip(lib(val), q_val)), names
print(f"scores={target}: met with every layer int8, boxes unconstrained")



def boxes_metric(m):
    """A user's metric on the second output: the model returns both."""
    out = m(val)
    assert isinstance(out, tuple) and len(out) == 2, out
    f, q = f_val[1].astype(np.float64), out[1].astype(np.float64)
    error = ((f - q) ** 2).sum()
    return math.inf if error == 0 else 10 * np.log10((f * f).sum() / error)


chosen = quantc.compile(model, calibration=calib, validation=val,
                        metric=boxes_metric, min_metric=BUDGET)
k = len(chosen.float_layers)
assert chosen.metric_met and boxes_metric(chosen) >= BUDGET, \
    chosen.metric_scores
print(f"metric on boxes: {chosen.metric_scores[0]:.2f} -> "
      f"{chosen.metric_scores[k]:.2f} dB with {k} float layer(s)")

for bad in ({"boxes": math.nan}, {3: 20}, {"": 20}, {"boxes": "x"}):
    try:
        quantc.compile(model, calibration=calib, min_output_sqnr=bad)
        raise AssertionError(f"{bad} accepted")
    except quantc.QuantcError as e:
        print(f"{bad}: {e}")
print("OUTPUTS BUDGET OK")
