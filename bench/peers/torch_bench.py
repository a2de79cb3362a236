#!/usr/bin/python3
"""The PyTorch contestants of bench/peers (Debian's PyTorch 1.13).

  torch_bench.py prepare <model> <batch> <zoo dir> <out dir>
      builds the torchvision model as bench/zoo/zoo.py does (seeded random
      weights, BatchNorm statistics re-estimated on 64 Fashion-MNIST
      images) and writes, traced at batch <batch> on the calibration images
      (<zoo dir>/224/calib.npy):
        float.pt  torch.jit.trace(model.eval(), x)
        int8.pt   torch.jit.trace of the FX-quantized model (prepare_fx /
                  convert_fx, torch.backends.quantized.engine = 'onednn',
                  get_default_qconfig_mapping('onednn'), calibrated on the
                  same 16 images as quant-compile: zoo.py's
                  pytorch_fx_int8 recipe), or int8.error: why FX failed.
  torch_bench.py time <float|int8> <model.pt> <in.npy> <batch> <runs>
                 <warmup> <threads>
      loads the traced model and readies it as a user deploys it:
      float: torch.jit.optimize_for_inference(torch.jit.freeze(m)) (oneDNN
      convolutions; PyTorch 1.13's computes MobileNetV3 wrong: see
      peers.py's accuracy check), int8: torch.jit.freeze(m);
      torch.set_num_threads(T);
      under torch.inference_mode() `warmup` untimed runs (the profiling
      executor specializes the graph in the first ones), then `runs` timed
      runs on the first B images of in.npy; prints one JSON line
      {"best_ms", "median_ms", "runs", "batch", "threads"}.
  torch_bench.py run <float|int8> <model.pt> <in.npy> <batch> <out.npy>
      the readied model's outputs on every whole batch of in.npy.
(<batch>: the batch the model was traced at.)
"""
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "zoo"))


def first_line(e):
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"[:300]


def batch_of(images, batch):
    """The first `batch` images, repeated if there are fewer."""
    idx = np.arange(batch) % len(images)
    return np.ascontiguousarray(images[idx])


def prepare(name, batch, zoo_dir, out):
    import torch
    import zoo
    os.makedirs(out, exist_ok=True)
    size = 224
    calib = np.load(os.path.join(zoo_dir, str(size), "calib.npy"))
    x = torch.from_numpy(batch_of(calib, batch))
    model = zoo.build_model(name)
    zoo.reestimate_batch_norm(model, zoo.fashion_mnist(
        "train", 0, zoo.BN_BATCHES * zoo.BN_BATCH_SIZE, size))
    with torch.no_grad():
        torch.jit.save(torch.jit.trace(model.eval(), x),
                       os.path.join(out, "float.pt"))
    error = os.path.join(out, "int8.error")
    if os.path.exists(error):
        os.remove(error)
    try:
        from torch.ao.quantization import get_default_qconfig_mapping
        from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
        torch.backends.quantized.engine = "onednn"
        with torch.no_grad():
            prepared = prepare_fx(model, get_default_qconfig_mapping("onednn"),
                                  example_inputs=(x[:1],))
            for part in torch.from_numpy(calib).split(zoo.CALIB_BATCH):
                prepared(part)
            quantized = convert_fx(prepared)
            torch.jit.save(torch.jit.trace(quantized, x),
                           os.path.join(out, "int8.pt"))
    except Exception as e:  # FX cannot trace or quantize the model
        with open(error, "w") as f:
            f.write(first_line(e) + "\n")


def load(kind, path):
    import torch
    if kind == "int8":
        torch.backends.quantized.engine = "onednn"
    module = torch.jit.load(path).eval()
    module = torch.jit.freeze(module)
    if kind == "float":
        module = torch.jit.optimize_for_inference(module)
    return module


def main(argv):
    if len(argv) == 5 and argv[0] == "prepare":
        prepare(argv[1], int(argv[2]), argv[3], argv[4])
    elif len(argv) == 8 and argv[0] == "time":
        import torch
        kind, path, data, batch = argv[1], argv[2], argv[3], int(argv[4])
        runs, warmup, threads = int(argv[5]), int(argv[6]), int(argv[7])
        torch.set_num_threads(threads)
        torch.set_num_interop_threads(1)
        module = load(kind, path)
        x = torch.from_numpy(batch_of(np.load(data), batch))
        times = []
        with torch.inference_mode():
            for _ in range(warmup):
                module(x)
            for _ in range(runs):
                start = time.perf_counter()
                module(x)
                times.append((time.perf_counter() - start) * 1e3)
        times.sort()
        print(json.dumps({"best_ms": times[0], "median_ms": times[runs // 2],
                          "runs": runs, "batch": batch, "threads": threads}))
    elif len(argv) == 6 and argv[0] == "run":
        import torch
        kind, path, data, batch = argv[1], argv[2], argv[3], int(argv[4])
        module = load(kind, path)
        images = np.load(data)
        outs = []
        with torch.inference_mode():
            for i in range(0, len(images) - batch + 1, batch):
                outs.append(module(torch.from_numpy(
                    np.ascontiguousarray(images[i:i + batch]))).numpy())
        np.save(argv[5], np.concatenate(outs))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
