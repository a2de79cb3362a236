#!/usr/bin/python3
"""Prints a calibration profile (quant-calibrate / quant-compile
--save-profile) as a table: where each FP32 range came from and which scale /
zero point it became.

Usage: show_profile.py profile.json   (standard library only)
"""
import json
import sys


def fmt_range(lo, hi):
    return f"[{lo:9.4f}, {hi:9.4f}]"


if len(sys.argv) != 2:
    sys.exit("usage: show_profile.py profile.json")
with open(sys.argv[1]) as f:
    profile = json.load(f)
print(f"  {profile['samples']} calibration samples, batches of "
      f"{profile['batch_size']}")
print(f"  {'tensor':<16} {'observer':<20} {'observed FP32 range':<24} "
      f"{'clipping range':<24} {'scale':>10} {'zp':>4}")
# Activations first (graph order), then the weights.
observers = sorted(profile["observers"],
                   key=lambda o: len(o["qparams"]["scale"]) > 1)
for o in observers:
    cfg, state = o["config"], o["state"]
    lo, hi = o["range"]["min"], o["range"]["max"]
    scales, zps = o["qparams"]["scale"], o["qparams"]["zero_point"]
    kind = cfg["kind"] + (" (7 bit)" if cfg.get("reduce_range") else "")
    if len(scales) > 1:
        print(f"  {o['name']:<16} {kind:<20} {len(scales)} channels: "
              f"min {min(lo):.4f}, max {max(hi):.4f}; scales "
              f"{min(scales):.3g} .. {max(scales):.3g}, zero points "
              f"{min(zps)}..{max(zps)}")
        continue
    seen = fmt_range(min(state["min"]), max(state["max"]))
    print(f"  {o['name']:<16} {kind:<20} {seen:<24} "
          f"{fmt_range(lo[0], hi[0]):<24} {scales[0]:10.6f} {zps[0]:4d}")
