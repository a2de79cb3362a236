#!/usr/bin/python3
"""Writes test/Integration/Report/Inputs/weight_goldens.json: PyTorch 1.13's
per-channel observer (PerChannelMinMaxObserver, symmetric qint8, ch_axis 0)
and fake quantization of the Gemm weight of test/Import/Inputs/
resnet_block.onnx, with 8-bit and 7-bit (reduce_range) weights: the numbers
the per-layer report must give for that weight (check_report.py weight).
Committed, so the report test needs neither PyTorch nor onnx.

Usage: /usr/bin/python3 scripts/gen_report_goldens.py
(Debian python3-torch 1.13 and python3-onnx.)
"""
import json
import os

import numpy as np
import onnx
import onnx.numpy_helper
import torch
from torch.ao.quantization import PerChannelMinMaxObserver

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
model = onnx.load(os.path.join(root, "test/Import/Inputs/resnet_block.onnx"))
init = next(i for i in model.graph.initializer if i.name == "fc.weight")
w = torch.from_numpy(onnx.numpy_helper.to_array(init).copy())
f = w.double().numpy()


def sqnr(x, err):
    s, e = float((x ** 2).sum()), float((err ** 2).sum())
    return float("inf") if e == 0 else 10 * np.log10(s / e)


goldens = {}
for reduce in (False, True):
    qmin, qmax = (-64, 63) if reduce else (-128, 127)
    observer = PerChannelMinMaxObserver(ch_axis=0, dtype=torch.qint8,
                                        qscheme=torch.per_channel_symmetric,
                                        reduce_range=reduce)
    observer(w)
    scale, zero_point = observer.calculate_qparams()
    fq = torch.fake_quantize_per_channel_affine(w, scale, zero_point.int(), 0,
                                                qmin, qmax)
    goldens["7bit" if reduce else "8bit"] = {
        "qmin": qmin, "qmax": qmax, "channels": len(scale),
        "scale_min": float(scale.min()), "scale_max": float(scale.max()),
        "min": float(f.min()), "max": float(f.max()),
        "sqnr_db": sqnr(f, f - fq.double().numpy())}
out = os.path.join(root, "test/Integration/Report/Inputs/weight_goldens.json")
with open(out, "w") as fh:
    json.dump(goldens, fh, indent=1, sort_keys=True)
    fh.write("\n")
