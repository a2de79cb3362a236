#!/usr/bin/python3
"""Exports torchvision's ResNet-50 (v1.5) with seeded random weights to ONNX,
plus seeded random calibration images and PyTorch's float outputs on them.

Weights: torchvision's own initialisation under torch.manual_seed(0)
(Kaiming-normal convolutions, uniform fc); batch norms get random affine
parameters (gamma in [0.5, 1.5], beta ~ N(0, 0.1)) and running statistics
measured on 16 random images (so that activations keep a trained network's
scale through the 16 residual blocks instead of growing block by block).

Writes to <out_dir>:
  resnet50.onnx      opset 13, input "input" [1, 3, 224, 224] (NCHW float32),
                     output "logits" [1, 1000]; ~100 MB, not committed
  calib.npy          <images> x 3 x 224 x 224 float32: random RGB in [0, 1]
                     with ImageNet's mean/std normalisation (seed 1)
  reference.npy      <images> x 1000 float32: the float model's logits on
                     calib.npy

Usage: /usr/bin/python3 bench/resnet50/export.py <out_dir> [images=8]
(Debian python3-torch 1.13, python3-torchvision 0.14, python3-onnx.)
"""
import os
import sys

import numpy as np
import torch
import torchvision

out = sys.argv[1]
images = int(sys.argv[2]) if len(sys.argv) > 2 else 8
os.makedirs(out, exist_ok=True)

torch.manual_seed(0)
model = torchvision.models.resnet50(weights=None)
for mod in model.modules():
    if isinstance(mod, torch.nn.BatchNorm2d):
        c = mod.num_features
        mod.weight.data = torch.empty(c).uniform_(0.5, 1.5)
        mod.bias.data = torch.randn(c) * 0.1


def random_images(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 3, 224, 224, generator=g)
    mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)
    return ((x - mean) / std).contiguous()


# Batch-norm statistics: a cumulative average (momentum None) over 16 images.
for mod in model.modules():
    if isinstance(mod, torch.nn.BatchNorm2d):
        mod.reset_running_stats()
        mod.momentum = None
model.train()
with torch.no_grad():
    for batch in random_images(16, seed=2).split(8):
        model(batch)
model.eval()

calib = random_images(images, seed=1)
with torch.no_grad():
    logits = torch.cat([model(x.unsqueeze(0)) for x in calib])

onnx_path = os.path.join(out, "resnet50.onnx")
torch.onnx.export(model, calib[:1], onnx_path, opset_version=13,
                  input_names=["input"], output_names=["logits"])
np.save(os.path.join(out, "calib.npy"), calib.numpy().astype(np.float32))
np.save(os.path.join(out, "reference.npy"), logits.numpy().astype(np.float32))
print(f"wrote {onnx_path} ({os.path.getsize(onnx_path) / 1e6:.1f} MB), "
      f"calib.npy ({images} images), reference.npy "
      f"(logits std {logits.std():.2f})")
