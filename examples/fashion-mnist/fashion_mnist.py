"""Shared pieces of the Fashion-MNIST example: the network and the data.

The data comes from Debian's dataset-fashion-mnist package
(/usr/share/datasets/fashion-mnist, IDX files, gzip). Images are scaled to
[0, 1] and normalized with the training set's mean and standard deviation
(the usual torchvision transform); the model's input is one such image,
NCHW 1x1x28x28 float32.
"""
import gzip
import os

import numpy as np

DATA_DIR = os.environ.get("FASHION_MNIST_DIR",
                          "/usr/share/datasets/fashion-mnist")
MEAN, STD = 0.2860, 0.3530
CLASSES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal",
           "Shirt", "Sneaker", "Bag", "Ankle boot"]


def _read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    magic = int.from_bytes(data[0:4], "big")
    ndim = magic & 0xFF
    if magic >> 8 != 0x08:
        raise ValueError(f"{path}: not an unsigned-byte IDX file")
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big")
            for i in range(ndim)]
    offset = 4 + 4 * ndim
    return np.frombuffer(data, np.uint8, offset=offset).reshape(dims)


def load(split):
    """Returns (images float32 N x 1 x 28 x 28 normalized, labels int64)."""
    prefix = "train" if split == "train" else "t10k"
    images = _read_idx(os.path.join(DATA_DIR, f"{prefix}-images-idx3-ubyte.gz"))
    labels = _read_idx(os.path.join(DATA_DIR, f"{prefix}-labels-idx1-ubyte.gz"))
    x = (images.astype(np.float32) / 255.0 - MEAN) / STD
    return x.reshape(-1, 1, 28, 28).astype(np.float32), labels.astype(np.int64)


def make_net():
    """The example CNN (built lazily so numpy-only scripts need no torch)."""
    import torch
    nn = torch.nn

    class Net(nn.Module):
        """conv-bn-relu blocks, a residual block, pooling, a linear head."""

        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(1, 16, 3, padding=1, bias=False)
            self.stem_bn = nn.BatchNorm2d(16)
            self.down = nn.Conv2d(16, 32, 3, stride=2, padding=1, bias=False)
            self.down_bn = nn.BatchNorm2d(32)
            self.res1 = nn.Conv2d(32, 32, 3, padding=1, bias=False)
            self.res1_bn = nn.BatchNorm2d(32)
            self.res2 = nn.Conv2d(32, 32, 3, padding=1, bias=False)
            self.res2_bn = nn.BatchNorm2d(32)
            self.pool = nn.MaxPool2d(2)
            self.head = nn.Conv2d(32, 64, 3, padding=1, bias=False)
            self.head_bn = nn.BatchNorm2d(64)
            self.gap = nn.AdaptiveAvgPool2d(1)
            self.dropout = nn.Dropout(0.2)
            self.fc = nn.Linear(64, 10)

        def forward(self, x):
            relu = torch.relu
            x = relu(self.stem_bn(self.stem(x)))
            x = relu(self.down_bn(self.down(x)))
            r = relu(self.res1_bn(self.res1(x)))
            x = relu(self.res2_bn(self.res2(r)) + x)
            x = self.pool(x)
            x = relu(self.head_bn(self.head(x)))
            x = torch.flatten(self.gap(x), 1)
            return self.fc(self.dropout(x))

    return Net()


def make_mobile_net():
    """A mobile-style CNN made of the blocks real exports contain: a
    ceil-mode max pool, a ShuffleNetV2 unit (channel split by slicing, a
    depthwise branch, Concat and channel shuffle), squeeze-excitation with
    HardSigmoid, HardSwish and SiLU activations, nearest upsampling with a
    skip Concat, a ceil-mode average pool and a final Softmax. The second
    trained example (examples/fashion-mnist-mobile)."""
    import torch
    nn = torch.nn

    def conv_bn(cin, cout, k=1, stride=1, groups=1, act=None):
        layers = [nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups,
                            bias=False), nn.BatchNorm2d(cout)]
        if act is not None:
            layers.append(act())
        return nn.Sequential(*layers)

    class SqueezeExcite(nn.Module):
        def __init__(self, c, squeezed):
            super().__init__()
            self.pool = nn.AdaptiveAvgPool2d(1)
            self.fc1 = nn.Conv2d(c, squeezed, 1)
            self.relu = nn.ReLU()
            self.fc2 = nn.Conv2d(squeezed, c, 1)
            self.gate = nn.Hardsigmoid()

        def forward(self, x):
            s = self.gate(self.fc2(self.relu(self.fc1(self.pool(x)))))
            return x * s

    class ShuffleUnit(nn.Module):
        """ShuffleNetV2's stride-1 unit on `c` channels."""

        def __init__(self, c):
            super().__init__()
            h = c // 2
            self.half = h
            self.branch = nn.Sequential(
                conv_bn(h, h, act=nn.ReLU), conv_bn(h, h, 3, groups=h),
                conv_bn(h, h, act=nn.ReLU))

        def forward(self, x):
            h = self.half
            out = torch.cat([x[:, :h], self.branch(x[:, h:])], 1)
            # Channel shuffle (sizes read one by one: torch 1.13's FX tracer
            # cannot unpack a shape on Python 3.11).
            n, y, w = out.size(0), out.size(2), out.size(3)
            out = out.view(n, 2, h, y, w).transpose(1, 2)
            return out.reshape(n, 2 * h, y, w)

    class MobileNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = conv_bn(1, 16, 3, act=nn.Hardswish)
            self.pool1 = nn.MaxPool2d(3, 2, ceil_mode=True)  # 28 -> 14
            self.shuffle = ShuffleUnit(16)
            self.expand = conv_bn(16, 32, act=nn.SiLU)
            self.down = conv_bn(32, 32, 3, stride=2, groups=32, act=nn.SiLU)
            self.se = SqueezeExcite(32, 8)
            self.project = conv_bn(32, 48)
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.fuse = conv_bn(80, 64, act=nn.Hardswish)
            self.pool2 = nn.AvgPool2d(3, 2, ceil_mode=True)  # 14 -> 7
            self.head = conv_bn(64, 96, act=nn.Hardswish)
            self.gap = nn.AdaptiveAvgPool2d(1)
            self.dropout = nn.Dropout(0.2)
            self.fc = nn.Linear(96, 10)
            self.softmax = nn.Softmax(dim=1)

        def forward(self, x):
            x = self.shuffle(self.pool1(self.stem(x)))
            skip = self.expand(x)
            x = self.project(self.se(self.down(skip)))
            x = self.fuse(torch.cat([self.up(x), skip], 1))
            x = self.head(self.pool2(x))
            x = torch.flatten(self.gap(x), 1)
            return self.softmax(self.fc(self.dropout(x)))

    return MobileNet()


NETS = {"cnn": make_net, "mobile": make_mobile_net}


def load_onnx_weights(net, path):
    """Loads the parameters and batch-norm statistics of an exported model
    back into `net` (initializer names are the state_dict keys)."""
    import onnx
    import torch
    from onnx import numpy_helper
    graph = onnx.load(path).graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    # The exporter shares equal constants through Identity nodes.
    for node in graph.node:
        if node.op_type == "Identity" and node.input[0] in inits:
            inits[node.output[0]] = inits[node.input[0]]
    state = net.state_dict()
    for key in state:
        if key.endswith("num_batches_tracked"):
            continue
        if key not in inits:
            raise KeyError(f"{path}: no initializer named {key}")
        state[key] = torch.from_numpy(inits[key].copy())
    net.load_state_dict(state)
    return net
