"""Checks a quantization report (report.json) against numbers computed
independently with numpy from activations dumped by quant-run.

  check_report.py report.json input <data.npy>
      The model-input layer: its float activation is the data itself; checks
      range, clipped count, histogram and both SQNRs (at the input the int8
      model's activation is quantize-dequantize of the data).
  check_report.py report.json layer <name> <float.npy> <int8.npy>
      Any layer: float.npy holds the float model's activation, int8.npy the
      int8 model's dequantized activation at that point (quant-run on a copy
      of the model that returns it, see truncate.py).
  check_report.py report.json output <float.npy|.npz> <int8.npy|.npz>
      The model summary: every output's SQNR, largest error and top-1
      agreement (an .npz holds the outputs by name, as quant-run -o x.npz
      writes them; an .npy the one output), and the summary's output SQNR,
      the worst output's.
  check_report.py report.json weight <layer> <weight> <goldens.json>
      A weight quantized per channel (symmetric qint8) against PyTorch's
      PerChannelMinMaxObserver and fake_quantize_per_channel_affine, as
      scripts/gen_report_goldens.py recorded them (8-bit and 7-bit).
"""
import json
import sys

import numpy as np


def sqnr(f, err):
    s, e = float((f ** 2).sum()), float((err ** 2).sum())
    if s == 0:
        return None
    return float("inf") if e == 0 else 10 * np.log10(s / e)


def reported(v):
    return float("inf") if v == "inf" else v


def close(name, got, want, tol):
    got = reported(got)
    if want is None or got is None:
        ok = want is got
    elif np.isinf(want) or np.isinf(got):
        ok = want == got
    else:
        ok = abs(got - want) <= tol
    print(f"{name}: report {got} expected {want} {'OK' if ok else 'MISMATCH'}")
    return ok


def fake_quant(f, layer):
    s, z = np.float32(layer["scale"]), layer["zero_point"]
    # PyTorch's quantize_per_tensor: round-half-even of x * (1 / scale).
    code = np.round(f.astype(np.float32) * (np.float32(1) / s)).astype(np.int64) + z
    clipped = int(((code < layer["quant_min"]) | (code > layer["quant_max"])).sum())
    code = np.clip(code, layer["quant_min"], layer["quant_max"])
    return ((code - z).astype(np.float32) * s).astype(np.float64), clipped


def check_layer(layer, f, q):
    ok = True
    f = f.astype(np.float64).ravel()
    fq, clipped = fake_quant(f, layer)
    ok &= close("values", layer["values"], f.size, 0)
    ok &= close("observed_min", layer["observed_min"], f.min(), 0)
    ok &= close("observed_max", layer["observed_max"], f.max(), 0)
    ok &= close("clipped", layer["clipped"], clipped, 0)
    ok &= close("sqnr_alone_db", layer["sqnr_alone_db"], sqnr(f, f - fq), 1e-6)
    if q is not None:
        q = q.astype(np.float64).ravel()
        ok &= close("sqnr_cumulative_db", layer["sqnr_cumulative_db"],
                    sqnr(f, f - q), 1e-6)
    h = layer["histogram"]
    counts = np.array(h["counts"])
    bins = len(counts)
    width = (h["max"] - h["min"]) / bins
    idx = np.clip(np.floor((f - h["min"]) / width), 0, bins - 1).astype(int)
    want = np.bincount(idx, minlength=bins)
    # float32 vs float64 bin edges: a value on an edge may land one bin off.
    moved = int(np.abs(counts - want).sum()) // 2
    ok &= close("histogram total", int(counts.sum()), f.size, 0)
    ok &= close("histogram values in another bin", moved, 0, max(2, f.size // 10000))
    return ok


report = json.load(open(sys.argv[1]))
mode = sys.argv[2]
if mode == "input":
    data = np.load(sys.argv[3])
    # The first layer observes the input (or its NCHW -> NHWC transpose: the
    # same values, permuted).
    layer = report["layers"][0]
    assert layer["op"] in ("input", "tosa.transpose"), layer["op"]
    fq, _ = fake_quant(data.astype(np.float64), layer)
    ok = check_layer(layer, data, fq)
elif mode == "layer":
    layer = next(l for l in report["layers"] if l["name"] == sys.argv[3])
    ok = check_layer(layer, np.load(sys.argv[4]), np.load(sys.argv[5]))
elif mode == "output":
    def arrays(path):
        a = np.load(path)
        return dict(a) if path.endswith(".npz") else {None: a}
    floats, int8s = arrays(sys.argv[3]), arrays(sys.argv[4])
    summary = report["summary"]
    outputs = summary["outputs"]
    ok = close("outputs", len(outputs), len(floats), 0)
    sqnrs = {}
    for o in outputs:
        key = o["name"] if None not in floats else None
        f = floats[key].astype(np.float64)
        q = int8s[key].astype(np.float64)
        ok &= close(f"{o['name']} shape", o["shape"][1:] == list(f.shape[1:]),
                    True, 0)
        sqnrs[o["name"]] = sqnr(f, f - q)
        ok &= close(f"{o['name']} sqnr_db", o["sqnr_db"], sqnrs[o["name"]],
                    1e-6)
        ok &= close(f"{o['name']} max_abs_error", o["max_abs_error"],
                    float(np.abs(f - q).max()), 0)
        if o["classifier"]:
            rows_f = f.reshape(-1, f.shape[-1])
            rows_q = q.reshape(-1, q.shape[-1])
            agree = float((rows_f.argmax(1) == rows_q.argmax(1)).mean())
            ok &= close(f"{o['name']} top1_agreement", o["top1_agreement"],
                        agree, 1e-12)
            if len(outputs) == 1:
                ok &= close("top1_agreement", summary["top1_agreement"],
                            agree, 1e-12)
    worst = min(sqnrs, key=lambda n: sqnrs[n])
    ok &= close("output_sqnr_db (the worst output)", summary["output_sqnr_db"],
                sqnrs[worst], 1e-6)
    ok &= close("worst_output", summary["worst_output"] == worst, True, 0)
    worst = [w["name"] for w in summary["worst_layers"]]
    def key(l):
        v = reported(l["sqnr_cumulative_db"])
        return float("inf") if v is None else v
    order = [l["name"] for l in sorted(report["layers"], key=key)][:len(worst)]
    ok &= close("worst layers sorted", worst == order, True, 0)
elif mode == "weight":
    # A weight against PyTorch's own per-channel observer and fake quant
    # (scripts/gen_report_goldens.py wrote what PyTorch computes).
    layer = next(l for l in report["layers"] if l["name"] == sys.argv[3])
    weight = next(w for w in layer["weights"] if w["name"] == sys.argv[4])
    with open(sys.argv[5]) as fh:
        goldens = json.load(fh)
    # 7-bit weights (reduce_range) where the object's kernels need them.
    reduce = weight["observer"].get("reduce_range", False)
    want = goldens["7bit" if reduce else "8bit"]
    qmin, qmax = want["qmin"], want["qmax"]
    ok = close("channels", weight["channels"], want["channels"], 0)
    ok &= close("scale_min", weight["scale_min"], want["scale_min"], 0)
    ok &= close("scale_max", weight["scale_max"], want["scale_max"], 0)
    ok &= close("min", weight["min"], want["min"], 0)
    ok &= close("max", weight["max"], want["max"], 0)
    ok &= close("sqnr_db", weight["sqnr_db"], want["sqnr_db"], 1e-6)
else:
    sys.exit(f"unknown mode {mode}")
print("REPORT CHECKED" if ok else "REPORT MISMATCH")
if mode == "weight":
    print(f"weight range: [{qmin}, {qmax}]")
sys.exit(0 if ok else 1)
