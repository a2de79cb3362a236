#!/usr/bin/python3
"""PyTorch's own post-training quantization of the example, for comparison.

Loads the trained weights from model.onnx into the same nn.Module, quantizes
it with PyTorch 1.13 FX graph mode (prepare_fx / convert_fx, the "onednn"
engine and its default qconfig: HistogramObserver activations without
reduce_range, per-channel symmetric MinMax weights -- the observer kinds
quant-compile uses for a target with VNNI; and the "fbgemm" qconfig, the same
with reduce_range (7-bit activations), as quant-compile does for x86 without
VNNI, also run on the onednn engine since Debian's torch lacks fbgemm),
calibrates on the same calibration.npy in
batches of 32 (quant-compile's default batch), and evaluates the float and
the PyTorch int8 models on the 10,000 test images. Logits of other int8
builds (e.g. ours, written by the C driver) can be scored alongside.

Usage:
  /usr/bin/python3 examples/fashion-mnist/pytorch_ptq.py \
      [--dir DIR] [name=test_logits.npy ...]
Needs python3-torch 1.13, python3-onnx, dataset-fashion-mnist.
"""
import argparse
import copy
import os

import numpy as np
import torch
from torch.ao.quantization import get_default_qconfig_mapping
from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx

import fashion_mnist as fm

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("--dir", default=here,
                    help="where model.onnx and calibration.npy are")
parser.add_argument("--net", choices=sorted(fm.NETS), default="cnn",
                    help="the network in model.onnx (train.py --net)")
parser.add_argument("logits", nargs="*", help="name=test_logits.npy")
args = parser.parse_args()
torch.manual_seed(0)
torch.set_num_threads(os.cpu_count() or 1)


def predict(model, x):
    with torch.no_grad():
        return np.concatenate([model(torch.from_numpy(x[i:i + 500])).numpy()
                               for i in range(0, len(x), 500)])


x_test, y_test = fm.load("test")
calib = np.load(os.path.join(args.dir, "calibration.npy"))
net = fm.load_onnx_weights(fm.NETS[args.net]().eval(),
                           os.path.join(args.dir, "model.onnx"))
float_logits = predict(net, x_test)



def ptq(qconfig):
    """FX post-training quantization with `qconfig`'s default observers, run
    on the onednn engine (Debian's torch has no fbgemm)."""
    torch.backends.quantized.engine = "onednn"
    prepared = prepare_fx(copy.deepcopy(net),
                          get_default_qconfig_mapping(qconfig),
                          example_inputs=(torch.from_numpy(calib[:1]),))
    with torch.no_grad():
        for i in range(0, len(calib), 32):
            prepared(torch.from_numpy(calib[i:i + 32]))
    return predict(convert_fx(prepared), x_test)


results = [("PyTorch float", float_logits),
           ("PyTorch int8 (onednn: 8-bit act.)", ptq("onednn")),
           ("PyTorch int8 (fbgemm qconfig: 7-bit)", ptq("fbgemm"))]
for arg in args.logits:
    name, _, path = arg.partition("=")
    results.append((name, np.load(path).reshape(len(y_test), -1)))
reference = float_logits.argmax(1)
print(f"{'model':<36} {'top-1':>8} {'agrees with float':>18}")
for name, logits in results:
    pred = logits.argmax(1)
    print(f"{name:<36} {100 * (pred == y_test).mean():7.2f}% "
          f"{100 * (pred == reference).mean():17.2f}%")
