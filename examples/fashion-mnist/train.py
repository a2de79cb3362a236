#!/usr/bin/python3
"""Trains the example CNN on Fashion-MNIST and exports it.

Writes, next to this script (--net mobile: in ../fashion-mnist-mobile):
  model.onnx        the trained float model (opset 13, batch 1, NCHW
                    1x1x28x28 input "image", 10 logits "logits"; batch norms
                    kept as BatchNormalization nodes: quant-compile fuses them)
  calibration.npy   512 normalized training images (float32, N x 1 x 28 x 28)
                    for post-training calibration
  calibration_logits.npy  PyTorch's float outputs for them (512 x 10), the
                    reference the tests compare compiled models against
and prints the float model's test accuracy.

Usage: /usr/bin/python3 examples/fashion-mnist/train.py [--epochs N] [--threads N]
Needs Debian's python3-torch (1.13), python3-onnx and dataset-fashion-mnist
(scripts/install-deps.sh --with-reference). Seeded and single-threaded by
default, so reruns on one machine give the same model (other CPUs can differ
in the last bits). About 2-3 minutes per epoch on one quiet core.
"""
import argparse
import os
import time

import numpy as np
import torch

import fashion_mnist as fm

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=8)
parser.add_argument("--threads", type=int, default=1)
parser.add_argument("--net", choices=sorted(fm.NETS), default="cnn",
                    help="cnn: the example CNN (writes here); mobile: the "
                    "mobile-block CNN (writes ../fashion-mnist-mobile)")
parser.add_argument("--out", help="output directory")
args = parser.parse_args()

torch.manual_seed(0)
rng = np.random.default_rng(0)
torch.set_num_threads(args.threads)

x_train, y_train = fm.load("train")
x_test, y_test = fm.load("test")
net = fm.NETS[args.net]()
out_dir = args.out or (here if args.net == "cnn" else
                       os.path.join(os.path.dirname(here), "fashion-mnist-mobile"))
os.makedirs(out_dir, exist_ok=True)
# The mobile net ends in Softmax: its loss is the log-likelihood of it.
probabilities = args.net == "mobile"
opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
steps_per_epoch = (len(x_train) + 127) // 128
sched = torch.optim.lr_scheduler.OneCycleLR(
    opt, max_lr=4e-3, total_steps=args.epochs * steps_per_epoch)


def loss_fn(output, target):
    if probabilities:
        return torch.nn.functional.nll_loss(
            torch.log(output.clamp_min(1e-12)), target)
    return torch.nn.functional.cross_entropy(output, target)


def evaluate(x, y):
    net.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(x), 1000):
            logits = net(torch.from_numpy(x[i:i + 1000]))
            correct += int((logits.argmax(1).numpy() == y[i:i + 1000]).sum())
    return correct / len(x)


for epoch in range(args.epochs):
    net.train()
    t0 = time.time()
    order = rng.permutation(len(x_train))
    total = 0.0
    for s in range(steps_per_epoch):
        idx = order[s * 128:(s + 1) * 128]
        xb = x_train[idx].copy()
        # Horizontal flips: the classes are left-right symmetric.
        flip = rng.random(len(idx)) < 0.5
        xb[flip] = xb[flip][..., ::-1]
        xb = torch.from_numpy(xb)
        yb = torch.from_numpy(y_train[idx])
        opt.zero_grad()
        loss = loss_fn(net(xb), yb)
        loss.backward()
        opt.step()
        sched.step()
        total += float(loss)
    print(f"epoch {epoch + 1}/{args.epochs}: loss {total / steps_per_epoch:.4f}"
          f", test top-1 {100 * evaluate(x_test, y_test):.2f} %"
          f" ({time.time() - t0:.0f} s)", flush=True)

net.eval()
example = torch.from_numpy(x_test[:1])
path = os.path.join(out_dir, "model.onnx")
torch.onnx.export(net, example, path, opset_version=13,
                  training=torch.onnx.TrainingMode.PRESERVE,
                  input_names=["image"],
                  output_names=["probabilities" if probabilities else "logits"],
                  do_constant_folding=True)
calib = x_train[rng.choice(len(x_train), 512, replace=False)]
np.save(os.path.join(out_dir, "calibration.npy"), calib)
with torch.no_grad():
    np.save(os.path.join(out_dir, "calibration_logits.npy"),
            net(torch.from_numpy(calib)).numpy())
print(f"float test top-1: {100 * evaluate(x_test, y_test):.2f} %")
print(f"wrote {path} ({os.path.getsize(path)} bytes) and calibration.npy "
      f"({len(calib)} images)")
