"""Writes a log-mel front end as an ONNX model (through
test/Hardening/Inputs/onnx_bytes.py: CI has no onnx package), its
calibration and test audio, and NumPy's float64 outputs.

  audio [1, 1, 544] -> Conv (STFT as a 1-D conv: 16 cosine and 16 sine
  kernels of a 64-sample Hann window, hop 32) -> [1, 32, 16]
  -> Mul (square) -> Transpose [1, 16, 32] -> MatMul (a triangular mel
  matrix [32, 8], applied to the real and imaginary halves alike: power)
  -> Add 1e-6 -> Log -> Mul 10 / ln 10 (dB) -> ReduceMax over everything,
  keepdims = 0 (a scalar, rank 0: the second output, peak) -> Sub 80
  -> Clip(dB, max - 80, +inf) (a bound the graph computes, as
  openWakeWord's melspectrogram.onnx has it): the spectrogram clamped to
  80 dB under its peak, [1, 16, 8] (the first output, logmel).

Into argv[1]: logmel.onnx, calib.npy (16 clips), input.npy (8 other clips),
reference.npy and peak.npy (their float64 outputs)."""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "Hardening", "Inputs"))
import onnx_bytes as ob  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(80)
WIN, HOP, BINS, MELS, FRAMES = 64, 32, 16, 8, 16
LEN = WIN + HOP * (FRAMES - 1)

n = np.arange(WIN)
hann = 0.5 - 0.5 * np.cos(2 * np.pi * n / WIN)
k = np.arange(BINS)[:, None]
cos = hann * np.cos(2 * np.pi * k * n / WIN)
sin = -hann * np.sin(2 * np.pi * k * n / WIN)
stft = np.concatenate([cos, sin]).astype(np.float32)[:, None, :]  # [32,1,64]
mel = np.zeros((BINS, MELS))
edges = np.linspace(0, BINS - 1, MELS + 2)
for m in range(MELS):
    lo, mid, hi = edges[m:m + 3]
    up = (k[:, 0] - lo) / (mid - lo)
    down = (hi - k[:, 0]) / (hi - mid)
    mel[:, m] = np.maximum(0, np.minimum(up, down))
mel2 = np.concatenate([mel, mel]).astype(np.float32)  # [32, 8]
DB = np.float32(10 / math.log(10))

F = ob.FLOAT
inits = [
    ob.tensor("stft", F, stft.shape, stft.ravel().tolist()),
    ob.tensor("mel", F, mel2.shape, mel2.ravel().tolist()),
    ob.tensor("eps", F, [], [1e-6]),
    ob.tensor("db", F, [], [float(DB)]),
    ob.tensor("range", F, [], [80.0]),
    ob.tensor("ceiling", F, [], [math.inf]),
]
nodes = [
    ob.node("Conv", ["audio", "stft"], ["spec"], name="stft",
            kernel_shape=[WIN], strides=[HOP]),
    ob.node("Mul", ["spec", "spec"], ["sq"], name="square"),
    ob.node("Transpose", ["sq"], ["sqt"], name="frames", perm=[0, 2, 1]),
    ob.node("MatMul", ["sqt", "mel"], ["power"], name="mel"),
    ob.node("Add", ["power", "eps"], ["power_eps"], name="floor"),
    ob.node("Log", ["power_eps"], ["ln"], name="log"),
    ob.node("Mul", ["ln", "db"], ["dbs"], name="decibels"),
    ob.node("ReduceMax", ["dbs"], ["peak"], name="peak", keepdims=0),
    ob.node("Sub", ["peak", "range"], ["floor_db"], name="peak_minus_80"),
    ob.node("Clip", ["dbs", "floor_db", "ceiling"], ["logmel"],
            name="clamp"),
]
model = ob.model(nodes, [ob.value_info("audio", F, [1, 1, LEN])],
                 [ob.value_info("logmel", F, [1, FRAMES, MELS]),
                  ob.value_info("peak", F, [])], inits)
with open(os.path.join(out, "logmel.onnx"), "wb") as f:
    f.write(model)


def clips(count):
    """Tones, chirps and noise at levels 60 dB apart: silence-like clips
    exercise the clamp at max - 80 dB."""
    t = np.arange(LEN)
    x = []
    for i in range(count):
        f0 = rng.uniform(0.02, 0.4)
        tone = np.sin(2 * np.pi * (f0 + 0.1 * t / LEN) * t)
        noise = rng.normal(0, 1, LEN)
        level = 10 ** rng.uniform(-3, 0)
        x.append(level * (tone * (i % 2) + 0.02 * noise))
    return np.array(x, np.float32)[:, None, :]


def reference(x):
    x = x.astype(np.float64)
    frames = np.stack([x[:, 0, j * HOP:j * HOP + WIN] for j in range(FRAMES)],
                      axis=1)  # [N, T, 64]
    spec = frames @ stft[:, 0, :].astype(np.float64).T  # [N, T, 32]
    power = (spec * spec) @ mel2.astype(np.float64)
    db = np.log(power + np.float64(np.float32(1e-6))) * np.float64(DB)
    peak = db.reshape(len(x), -1).max(axis=1)[:, None, None]
    return np.maximum(db, peak - 80), peak[:, 0, 0]


np.save(os.path.join(out, "calib.npy"), clips(16))
test = clips(8)
np.save(os.path.join(out, "input.npy"), test)
logmel, peak = reference(test)
np.save(os.path.join(out, "reference.npy"), logmel)
np.save(os.path.join(out, "peak.npy"), peak)
