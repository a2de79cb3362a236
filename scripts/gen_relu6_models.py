#!/usr/bin/python3
"""Writes test/Integration/Compile/Inputs/relu6/: small trained-style CNNs
where a conv + BatchNorm + ReLU6 output feeds a nearest Resize, a Concat,
or a Resize then a conv (MobileNet-style U-Nets and feature pyramids), and
an add / a linear layer followed by ReLU6. PyTorch 1.13 exports F.relu6 as
Relu then Clip(0, 6). Each model comes with <name>.calib.npy (16 seeded
samples), <name>.input.npy and <name>.output.npy (PyTorch's float output).

Usage: /usr/bin/python3 scripts/gen_relu6_models.py
(Debian python3-torch 1.13 and python3-onnx.)
"""
import os

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test",
                   "Integration", "Compile", "Inputs", "relu6")
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
rng = np.random.default_rng(0)


class Block(nn.Module):
    """conv + BatchNorm + ReLU6, with BatchNorm statistics that are not the
    identity."""

    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.2, 0.2)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.uniform_(0.5, 1.5)
            self.bn.bias.uniform_(-0.2, 0.5)

    def forward(self, x):
        return F.relu6(self.bn(self.conv(x)))


class ResizeConcat(nn.Module):
    """The issue's pattern: relu6 -> nearest x2 -> concat with the skip."""

    def __init__(self):
        super().__init__()
        self.stem = Block(3, 8)
        self.down = Block(8, 16, 2)
        self.head = nn.Conv2d(24, 4, 1)

    def forward(self, x):
        x = self.stem(x)
        y = F.interpolate(self.down(x), scale_factor=2, mode="nearest")
        return self.head(torch.cat([x, y], 1))


class Concat(nn.Module):
    """relu6 straight into a Concat."""

    def __init__(self):
        super().__init__()
        self.a = Block(3, 8)
        self.b = Block(3, 8)
        self.head = nn.Conv2d(16, 4, 1)

    def forward(self, x):
        return self.head(torch.cat([self.a(x), self.b(x)], 1))


class ResizeConv(nn.Module):
    """relu6 -> nearest x2 -> conv; an add -> relu6 and a linear -> relu6."""

    def __init__(self):
        super().__init__()
        self.stem = Block(3, 8, 2)
        self.up = Block(8, 8)
        self.skip = nn.Conv2d(3, 8, 1)
        self.fc = nn.Linear(8, 6)

    def forward(self, x):
        y = self.up(F.interpolate(self.stem(x), scale_factor=2,
                                  mode="nearest"))
        y = F.relu6(y + self.skip(x))
        return F.relu6(self.fc(y.mean((2, 3))))


for name, model in [("resize_concat", ResizeConcat()), ("concat", Concat()),
                    ("resize_conv", ResizeConv())]:
    model.eval()
    calib = rng.standard_normal((16, 3, 16, 16)).astype(np.float32)
    x = rng.standard_normal((1, 3, 16, 16)).astype(np.float32)
    torch.onnx.export(model, torch.from_numpy(x),
                      os.path.join(out, name + ".onnx"), opset_version=13,
                      input_names=["input"], output_names=["output"])
    with torch.no_grad():
        y = model(torch.from_numpy(x)).numpy()
    np.save(os.path.join(out, name + ".calib.npy"), calib)
    np.save(os.path.join(out, name + ".input.npy"), x)
    np.save(os.path.join(out, name + ".output.npy"), y.astype(np.float32))
