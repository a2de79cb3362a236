"""Checks the Python package (python/quantc) against quant-compile's own
objects and PyTorch.

Usage: test_package.py TOOLS_DIR SRC_ROOT WORK [--torch | --torch-only]
Prints one line per check; a failed check raises.
"""
import os
import subprocess
import sys

import numpy as np

tools, src, work = sys.argv[1:4]
with_torch = bool({"--torch", "--torch-only"} & set(sys.argv[4:]))
torch_only = "--torch-only" in sys.argv[4:]
sys.path.insert(0, os.path.join(src, "python"))
import quantc  # noqa: E402

os.makedirs(work, exist_ok=True)
compile_tool = os.path.join(tools, "quant-compile")
example = os.path.join(src, "examples", "fashion-mnist")
images = np.load(os.path.join(example, "calibration.npy"))
logits = np.load(os.path.join(example, "calibration_logits.npy"))


def sqnr(reference, actual):
    noise = np.sum((reference - actual) ** 2)
    return 10 * np.log10(np.sum(reference ** 2) / max(noise, 1e-30))


# quantc.compile: the same int8 library as quant-compile's object run by the
# C driver (bit for bit), through the package's batching.
if not torch_only:
    model = quantc.compile(os.path.join(example, "model.onnx"),
                           output=os.path.join(work, "fmnist.so"),
                           calibration=images, quant_compile=compile_tool)
    print("loaded:", model, "int8" if model.quantized else "float",
          "isa", model.int8_isa, "carries", ",".join(model.int8_isas))
    assert model.inputs[0]["shape"] == [1, 1, 28, 28]
    assert model.inputs[0]["layout"] == "NCHW"
    obj_dir = os.path.join(work, "obj")
    os.makedirs(obj_dir, exist_ok=True)
    subprocess.run([compile_tool, os.path.join(example, "model.onnx"),
                    "--calibration-data", os.path.join(example, "calibration.npy"),
                    "--name", "fmnist", "-o", os.path.join(obj_dir, "model.o")],
                   check=True)
    subprocess.run(["cc", f"-I{obj_dir}", "-DMODEL=fmnist", "-DMODEL_UPPER=FMNIST",
                    os.path.join(src, "examples", "common", "run_model.c"),
                    os.path.join(obj_dir, "model.o"), "-lm", "-o",
                    os.path.join(obj_dir, "run")], check=True)
    subprocess.run([os.path.join(obj_dir, "run"),
                    os.path.join(example, "calibration.npy"),
                    os.path.join(obj_dir, "out.npy")], check=True,
                   capture_output=True)
    driver = np.load(os.path.join(obj_dir, "out.npy"))
    batch = model(images)
    assert batch.shape == (len(images), 10), batch.shape
    assert np.array_equal(batch.view(np.uint32), driver.view(np.uint32))
    print(f"batch of {len(images)}: bit-identical to the C driver")
    print(f"int8 vs PyTorch float: {sqnr(logits, batch):.1f} dB SQNR")
    assert sqnr(logits, batch) > 25
    one = model(images[3])          # the compiled batch of 1 left out
    assert one.shape == (10,) and np.array_equal(one, batch[3])
    assert np.array_equal(model(images[3:4]), batch[3:4])
    assert np.array_equal(model(images[:5].astype(np.float64)), batch[:5])
    print("single sample, float64 input: ok")
    for bad, error in [(images[:, :, :27], ValueError),
                       (images.astype(np.int32), TypeError),
                       ((images, images), TypeError)]:
        try:
            model(*bad) if isinstance(bad, tuple) else model(bad)
        except error as e:
            print(f"refused: {type(e).__name__}: {e}")
        else:
            raise AssertionError("accepted a bad input")
    loaded = quantc.load(os.path.join(work, "fmnist.so"))
    assert np.array_equal(loaded(images[:2]), batch[:2])
    try:
        quantc.compile(os.path.join(work, "missing.onnx"),
                       quant_compile=compile_tool)
    except quantc.QuantcError as e:
        print("refused: QuantcError:", str(e).splitlines()[0])
    else:
        raise AssertionError("compiled a missing file")

if with_torch:
    import torch

    class TwoTower(torch.nn.Module):
        """Two inputs, two outputs."""

        def __init__(self):
            super().__init__()
            self.a = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1),
                                         torch.nn.ReLU(),
                                         torch.nn.AdaptiveAvgPool2d(1),
                                         torch.nn.Flatten())
            self.b = torch.nn.Linear(12, 8)

        def forward(self, image, features):
            x, y = self.a(image), torch.relu(self.b(features))
            return x + y, x * y

    torch.manual_seed(0)
    net = TwoTower().eval()
    image, features = torch.randn(1, 3, 16, 16), torch.randn(1, 12)
    two = quantc.from_torch(net, (image, features),
                            quant_compile=compile_tool)
    with torch.no_grad():
        want = [t.numpy() for t in net(image, features)]
    got = two(image.numpy(), features.numpy())
    assert isinstance(got, tuple) and len(got) == 2
    err = max(np.abs(g - w).max() / np.abs(w).max() for g, w in zip(got, want))
    print(f"from_torch, two inputs and outputs, float: max rel. error "
          f"{err:.1e}")
    assert err < 1e-4

    # int8, calibrated with one array per input (a .npz archive inside).
    calib_image, calib_features = torch.randn(64, 3, 16, 16), torch.randn(64, 12)
    two8 = quantc.from_torch(net, (image, features),
                             calibration=(calib_image, calib_features),
                             quant_compile=compile_tool)
    with torch.no_grad():
        want8 = [t.numpy() for t in net(calib_image[:16], calib_features[:16])]
    got8 = two8(calib_image[:16].numpy(), calib_features[:16].numpy())
    worst = min(sqnr(w, g) for w, g in zip(want8, got8))
    print(f"from_torch int8, two inputs and outputs: worst output "
          f"{worst:.1f} dB SQNR over 16 samples")
    assert worst > 25

    cnn = torch.nn.Sequential(torch.nn.Conv2d(1, 16, 3), torch.nn.BatchNorm2d(16),
                              torch.nn.ReLU(), torch.nn.Conv2d(16, 32, 3, 2),
                              torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
                              torch.nn.Flatten(), torch.nn.Linear(32, 10))
    cnn.eval()
    calibration = torch.from_numpy(images[:64])
    int8 = quantc.from_torch(cnn, calibration[:1], calibration=calibration,
                             quant_compile=compile_tool)
    with torch.no_grad():
        reference = cnn(torch.from_numpy(images[64:128])).numpy()
    out = int8(images[64:128])
    print(f"from_torch int8: {sqnr(reference, out):.1f} dB SQNR over 64 images")
    assert sqnr(reference, out) > 25
print("PACKAGE OK")
