#!/usr/bin/python3
"""Top-1 accuracy of model outputs (logits, one row per image).

Usage: evaluate.py labels.npy name=logits.npy [name=logits.npy ...]
Prints each model's top-1 accuracy and, for two or more, how often the
first model's predictions agree with each other's. Needs only numpy.
"""
import sys

import numpy as np

if len(sys.argv) < 3:
    sys.exit("usage: evaluate.py labels.npy name=logits.npy ...")
labels = np.load(sys.argv[1])
preds = []
for arg in sys.argv[2:]:
    name, _, path = arg.partition("=")
    logits = np.load(path).reshape(len(labels), -1)
    pred = logits.argmax(1)
    preds.append((name, pred))
    top1 = 100.0 * (pred == labels).mean()
    print(f"  {name:<6} top-1 {top1:6.2f} % ({int((pred == labels).sum())}"
          f" / {len(labels)})")
for name, pred in preds[1:]:
    agree = 100.0 * (pred == preds[0][1]).mean()
    print(f"  {name} predictions equal to {preds[0][0]}'s on {agree:.2f} % "
          f"of the images")
