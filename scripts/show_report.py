#!/usr/bin/python3
"""Prints the per-layer report of quant-compile / quant-calibrate --report
(report.json) as a table: where each FP32 range came from, which scale /
zero point it became, what the int8 grid clips and what it costs (SQNR of
int8 vs float on the calibration data: the tensor alone, and through the
int8 model up to that layer).

Usage: show_report.py report.json   (standard library only)
"""
import json
import sys

if len(sys.argv) != 2:
    sys.exit("usage: show_report.py report.json")
with open(sys.argv[1]) as f:
    report = json.load(f)
summary = report["summary"]
print(f"  {report['samples']} calibration samples; layer = the fused ops whose"
      " output is observed")
print(f"  {'layer':<24} {'FP32 range seen':<19} {'clipped to':<16} "
      f"{'scale':>9} {'zp':>4} {'clipped':>8} {'SQNR alone':>10} "
      f"{'cumulative':>10}")
for layer in report["layers"]:
    fused = layer["fused_layers"]
    name = layer["name"] if len(fused) < 2 else f"{fused[-1]}..{fused[0]}"
    if len(name) > 24:
        name = name[:21] + "..."
    seen = f"[{layer['observed_min']:.2f}, {layer['observed_max']:.2f}]"
    clip = f"[{layer['clip_min']:.2f}, {layer['clip_max']:.2f}]"
    print(f"  {name:<24} {seen:<19} {clip:<16} {layer['scale']:9.5f} "
          f"{layer['zero_point']:4d} {100 * layer['clipped_fraction']:7.3f}% "
          f"{layer['sqnr_alone_db']:8.1f} dB {layer['sqnr_cumulative_db']:7.1f} dB")
    for w in layer.get("weights") or []:
        print(f"  {'  weight ' + w['name']:<50} {w['channels']} channels, scales"
              f" {w['scale_min']:.2g}..{w['scale_max']:.2g}, SQNR "
              f"{w['sqnr_db']:.1f} dB")
for out in summary["outputs"]:
    line = f"  model output {out['name']} {tuple(out['shape'])}: "
    if out["dtype"] != "float32":  # integer output (ArgMax indices)
        line += (f"{out['dtype']}, equal to float on "
                 f"{100 * out['agreement']:.1f} % of the elements")
    elif out["sqnr_db"] is None:
        line += "SQNR undefined (zero output)"
    elif out["sqnr_db"] == "inf":
        line += "exact"
    else:
        line += (f"SQNR {out['sqnr_db']:.1f} dB, largest error "
                 f"{out['max_abs_error']:.3g}")
    if out["classifier"]:
        line += (f", top-1 equal to float on "
                 f"{100 * out['top1_agreement']:.1f} % of the samples")
    print(line)
floats = report.get("float_ops") or []
print("  computed in float: " + (", ".join(
    f["op"] + (f" ({f['layer']})" if f["layer"] else "") for f in floats)
    if floats else "nothing (int8 from the input's quantize to the output)"))
