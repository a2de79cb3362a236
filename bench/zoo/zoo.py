#!/usr/bin/python3
"""The torchvision zoo: compiles 23 torchvision architectures from ONNX and
checks the compiled float objects against PyTorch.

For each model (classification models from torchvision.models, among them
ViT-B/16, Swin-T and ConvNeXt-T, two segmentation models from
torchvision.models.segmentation):

1. builds it with seeded random weights (torch.manual_seed(0) before each
   model, so every model is deterministic whatever the selection; ViT's
   head and class token, which torchvision zero-initializes, are drawn
   from normal distributions) and
   re-estimates its BatchNorm statistics on real images: 4 batches of 16
   Fashion-MNIST training images in train mode, every BatchNorm reset and
   given momentum=None (a cumulative average), then eval mode;
2. exports it as a user would: torch.onnx.export(model, x, path,
   opset_version=13) at batch 1 (segmentation models return a dict: a
   wrapper returns its 'out' tensor), and PyTorch's outputs on the test
   images;
3. compiles it to a float object (quant-compile model.onnx -o model.o
   --name <name>; wall time, object size);
4. links the object with examples/common/run_model.c, runs it on 4
   Fashion-MNIST test images and compares with PyTorch: the max relative
   error max|ours - torch| / max|torch| (per image, the worst image; the
   criterion is 1e-4) and, for classifiers, top-1 agreement;
5. with --int8, also compiles it to int8 (--calibration-data: 16 training
   images other than the BatchNorm ones) and records the compile time, the
   SQNR of the int8 outputs against PyTorch's float outputs and their top-1
   agreement; quantizes the same model with PyTorch 1.13 FX (prepare_fx /
   convert_fx, the onednn engine and its default qconfig mapping,
   calibrated on the same 16 images) and records the same two numbers for
   it (or why FX cannot quantize it); and times our float and int8 objects
   (batch 1, one thread, best of --repeats passes over the 4 test images).

Both objects are compiled as a user gets them by default (kernels for every
x86 int8 instruction set, chosen at run time; 7-bit int8 weights, as
the avx2 variant needs), or with --cpu (native: pinned to this machine's
CPU, so int8 weights are 8-bit on a machine with VNNI, as in PyTorch's
onednn engine); --reduce-range passes quant-compile's option to the int8
compiles (activations: 7-bit activations instead, PyTorch's x86 qconfig).

Images: 28x28 gray Fashion-MNIST (Debian's dataset-fashion-mnist) scaled to
[0, 1], upscaled bilinearly to the model's input size (224, inception_v3
299, or --size), the gray channel replicated to 3 channels, normalized with
ImageNet's mean and std.

Prints the machine, the date and a Markdown table (model, input size, float
max rel. error, top-1 agreement, float compile s, object MB, with --int8
int8 compile s, SQNR and top-1 agreement of ours and of PyTorch FX, float
and int8 latency and their ratio, status: ok, or the first error line when export,
import, compile or run fails or a step exceeds --timeout; a failing model
does not stop the others) on stdout and writes it to <out>/zoo.md (the rows
so far, after each model); progress
goes to stderr. Exported models, PyTorch's outputs and the image sets are
cached in the work dir (<out>/<size>/...): reruns only compile and run.
Delete the work dir after changing this script's model set-up.

Usage (Debian's python3-torch 1.13, python3-torchvision 0.14,
python3-onnx, python3-numpy):
  /usr/bin/python3 bench/zoo/zoo.py [--models resnet18,mobilenet_v2]
      [--size 64] [--int8] [--cpu native] [--reduce-range activations]
      [--repeats 5] [--out build/zoo]
      [--bin build/bin] [--timeout 600]
  bench/zoo/zoo.sh ... > docs/zoo.md   (builds the tools first)
"""
import argparse
import datetime
import gzip
import os
import re
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
BUILD = os.environ.get("QUANTC_BUILD_DIR", os.path.join(ROOT, "build"))
DRIVER = os.path.join(ROOT, "examples", "common", "run_model.c")
DATA_DIR = os.environ.get("FASHION_MNIST_DIR",
                          "/usr/share/datasets/fashion-mnist")

CLASSIFIERS = [
    "resnet18", "resnet50", "resnext50_32x4d", "wide_resnet50_2",
    "mobilenet_v2", "mobilenet_v3_small", "mobilenet_v3_large", "mnasnet1_0",
    "shufflenet_v2_x1_0", "squeezenet1_1", "densenet121", "googlenet",
    "inception_v3", "efficientnet_b0", "regnet_x_400mf", "regnet_y_400mf",
    "alexnet", "vgg11_bn",
    # Transformers and LayerNorm models (issue 18).
    "vit_b_16", "swin_t", "convnext_tiny",
]
SEGMENTATION = ["lraspp_mobilenet_v3_large", "deeplabv3_mobilenet_v3_large"]
MODELS = CLASSIFIERS + SEGMENTATION
INPUT_SIZE = {"inception_v3": 299}  # the others: 224

MEAN = np.array([0.485, 0.456, 0.406], np.float32).reshape(1, 3, 1, 1)
STD = np.array([0.229, 0.224, 0.225], np.float32).reshape(1, 3, 1, 1)
BN_BATCHES, BN_BATCH_SIZE = 4, 16  # training images [0, 64)
CALIB_BATCH = 32  # quant-compile's calibration batch (PostTrainingOptions)
CALIB_IMAGES = 16                  # training images [64, 80)
TEST_IMAGES = 4                    # test images [0, 4)
TOLERANCE = 1e-4                   # max relative error of the float object


def log(message):
    print(message, file=sys.stderr, flush=True)


def fashion_mnist(split, start, count, size):
    """Images [start, start + count) of a Fashion-MNIST split as float32
    [count, 3, size, size]: bilinear upscaling, gray replicated to RGB,
    ImageNet normalization."""
    import torch
    import torch.nn.functional as F
    prefix = "train" if split == "train" else "t10k"
    with gzip.open(os.path.join(DATA_DIR, f"{prefix}-images-idx3-ubyte.gz"),
                   "rb") as f:
        data = f.read()
    rows, cols = (int.from_bytes(data[8 + 4 * i:12 + 4 * i], "big")
                  for i in range(2))
    pixels = np.frombuffer(data, np.uint8, offset=16).reshape(-1, 1, rows, cols)
    x = torch.from_numpy(pixels[start:start + count].astype(np.float32) / 255)
    x = F.interpolate(x, size=(size, size), mode="bilinear",
                      align_corners=False)
    x = x.repeat(1, 3, 1, 1).numpy()
    return np.ascontiguousarray((x - MEAN) / STD, dtype=np.float32)


def cached_images(path, split, start, count, size):
    """fashion_mnist(split, start, count, size), saved to / loaded from the
    .npy file `path`."""
    if not os.path.exists(path):
        np.save(path, fashion_mnist(split, start, count, size))
    return np.load(path)


def build_model(name):
    """The torchvision model `name` with seeded random weights, as a module
    returning one tensor."""
    import torch
    import torchvision.models as tvm
    torch.manual_seed(0)
    if name in SEGMENTATION:
        net = getattr(tvm.segmentation, name)(weights=None,
                                              weights_backbone=None)

        class Out(torch.nn.Module):
            """The segmentation model's 'out' tensor (it returns a dict)."""

            def __init__(self, net):
                super().__init__()
                self.net = net

            def forward(self, x):
                return self.net(x)["out"]

        return Out(net)
    if name in ("googlenet", "inception_v3"):
        return getattr(tvm, name)(weights=None, aux_logits=False,
                                  init_weights=True)
    net = getattr(tvm, name)(weights=None)
    if name.startswith("vit_"):
        # torchvision zero-initializes ViT's head and class token: the
        # logits would be 0, and the class token lost among the patch
        # tokens in any 8-bit grid. Trained models have neither.
        torch.nn.init.normal_(net.heads.head.weight, std=0.02)
        torch.nn.init.normal_(net.class_token, std=1.0)
    return net


def reestimate_batch_norm(model, images):
    """Replaces every BatchNorm's running statistics by their cumulative
    average over `images` in batches of BN_BATCH_SIZE, then eval mode."""
    import torch
    norms = [m for m in model.modules()
             if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not norms:  # ViT, Swin, ConvNeXt: nothing to re-estimate
        model.eval()
        return
    for m in norms:
        m.reset_running_stats()
        m.momentum = None
    model.train()
    with torch.no_grad():
        for batch in torch.from_numpy(images).split(BN_BATCH_SIZE):
            model(batch)
    model.eval()


def export(name, size, model_dir, test):
    """Writes model.onnx and reference.npy (PyTorch's outputs on `test`)."""
    import torch
    model = build_model(name)
    reestimate_batch_norm(
        model, fashion_mnist("train", 0, BN_BATCHES * BN_BATCH_SIZE, size))
    x = torch.from_numpy(test)
    with torch.no_grad():
        reference = model(x).numpy()
    onnx_path = os.path.join(model_dir, "model.onnx")
    torch.onnx.export(model, x[:1], onnx_path, opset_version=13)
    np.save(os.path.join(model_dir, "reference.npy"), reference)


def first_error(text):
    """A short message for the status column: the first 'error:' line of a
    tool's output (else its first line) without the model's path, cut
    after the last whole sentence within ~160 characters."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    line = next((l.split("error:", 1)[1] for l in lines if "error:" in l),
                lines[0] if lines else "failed without a message")
    line = re.sub(r"^\S+\.onnx: ", "", line.split(" [Caused by")[0].strip())
    message = ""
    for sentence in line.split(". "):
        if message and len(message) + len(sentence) > 160:
            break
        message += (". " if message else "") + sentence
    return message


class Failure(Exception):
    """A step failed; the message goes into the status column."""


def run(command, what, timeout):
    """Runs a command; returns (wall seconds, its output), raises Failure."""
    start = time.perf_counter()
    try:
        p = subprocess.run(command, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure(f"{what}: timed out after {timeout:g} s")
    seconds = time.perf_counter() - start
    if p.returncode < 0:
        raise Failure(f"{what}: killed by signal {-p.returncode}: "
                      f"{first_error(p.stdout)}")
    if p.returncode != 0:
        raise Failure(f"{what}: {first_error(p.stdout)}")
    return seconds, p.stdout


def pytorch_fx_int8(name, size, calib, test):
    """PyTorch 1.13's own post-training quantization of the same model (same
    seed, same BatchNorm statistics): FX graph mode, onednn engine and
    qconfig mapping, calibrated on `calib`; its outputs on `test`."""
    import torch
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
    torch.backends.quantized.engine = "onednn"
    model = build_model(name)
    reestimate_batch_norm(
        model, fashion_mnist("train", 0, BN_BATCHES * BN_BATCH_SIZE, size))
    example = torch.from_numpy(test[:1])
    with torch.no_grad():
        prepared = prepare_fx(model, get_default_qconfig_mapping("onednn"),
                              example_inputs=(example,))
        # Batches of 32 images, as quant-compile calibrates (its default
        # batch): a histogram observer's result depends on how the data is
        # batched (AlexNet: 36.8 dB against FX calibrated per image, 39.2
        # when ours is calibrated per image too).
        for batch in torch.from_numpy(calib).split(CALIB_BATCH):
            prepared(batch)
        quantized = convert_fx(prepared)
        return np.concatenate([quantized(torch.from_numpy(x[None])).numpy()
                               for x in test])


def compile_and_run(args, name, model_dir, test, kind, extra):
    """Compiles <model_dir>/model.onnx into <model_dir>/<kind>/model.o with
    <args.bin>/quant-compile, links it with the C driver and runs it on the
    images in `test` (.npy), each step limited to args.timeout seconds.
    Returns (compile seconds, object bytes, outputs, latency in ms, the
    compiler's output)."""
    out = os.path.join(model_dir, kind + (f"-{args.cpu}" if args.cpu else "")
                       + (f"-rr-{args.reduce_range}" if args.reduce_range
                          and kind == "int8" else ""))
    os.makedirs(out, exist_ok=True)
    obj = os.path.join(out, "model.o")
    seconds, log_text = run([os.path.join(args.bin, "quant-compile"),
                   os.path.join(model_dir, "model.onnx"), "-o", obj,
                      "--name", name] +
                     ([f"--cpu={args.cpu}"] if args.cpu else []) +
                     ([f"--reduce-range={args.reduce_range}"]
                      if args.reduce_range and kind == "int8" else []) + extra,
                     f"{kind} compile", args.timeout)
    exe = os.path.join(out, "run")
    run(["cc", "-O2", f"-I{out}", f"-DMODEL={name}",
         f"-DMODEL_UPPER={name.upper()}", DRIVER, obj, "-lm", "-o", exe],
        f"{kind} link", args.timeout)
    outputs = os.path.join(out, "outputs.npy")
    repeats = args.repeats if args.int8 else 0
    _, text = run([exe, test, outputs, str(repeats)], f"{kind} run",
                  args.timeout)
    found = re.search(r"latency ([0-9.]+) us per sample", text)
    latency = float(found.group(1)) / 1e3 if found else None
    return seconds, os.path.getsize(obj), np.load(outputs), latency, log_text


def float_ops(compile_log):
    """The ops quant-compile -v says the int8 model computes in float, as
    "N x op" per op kind ("none" for none)."""
    found = re.search(r"(\d+) op\(s\) computed in float(?:: (.*))?",
                      compile_log)
    if not found:
        return "?"
    if found.group(1) == "0":
        return "none"
    counts = {}
    for item in found.group(2).split(", "):
        op = item.split(" (")[0]
        counts[op] = counts.get(op, 0) + 1
    return ", ".join(f"{n} x {op}" if n > 1 else op
                     for op, n in counts.items())


def max_relative_error(ours, reference):
    """max|ours - reference| / max|reference| per image, the worst image."""
    n = len(reference)
    diff = np.abs(ours.reshape(n, -1) - reference.reshape(n, -1)).max(1)
    return float((diff / np.abs(reference.reshape(n, -1)).max(1)).max())


def sqnr_db(ours, reference):
    """10 log10(sum reference^2 / sum (ours - reference)^2)."""
    noise = ((ours.astype(np.float64) - reference) ** 2).sum()
    return 10 * np.log10((reference.astype(np.float64) ** 2).sum()
                         / max(noise, 1e-30))


def evaluate(args, name):
    """One table row for model `name`."""
    size = args.size or INPUT_SIZE.get(name, 224)
    row = {"model": name, "input": f"{size}x{size}", "status": "ok"}
    data_dir = os.path.join(args.out, str(size))
    model_dir = os.path.join(data_dir, name)
    os.makedirs(model_dir, exist_ok=True)
    test = os.path.join(data_dir, "test.npy")
    try:
        images = cached_images(test, "test", 0, TEST_IMAGES, size)
        if not all(os.path.exists(os.path.join(model_dir, f))
                   for f in ("model.onnx", "reference.npy")):
            log(f"{name}: export ({size}x{size})")
            try:
                export(name, size, model_dir, images)
            except Exception as e:  # PyTorch's own failures, e.g. export
                raise Failure(f"export: {first_error(str(e))}")
        reference = np.load(os.path.join(model_dir, "reference.npy"))

        log(f"{name}: float compile")
        seconds, size_bytes, ours, float_ms, _ = compile_and_run(
            args, name, model_dir, test, "float", [])
        row["float s"] = f"{seconds:.1f}"
        row["MB"] = f"{size_bytes / 1e6:.1f}"
        if ours.shape != reference.shape:
            raise Failure(f"output shape {ours.shape}, PyTorch's "
                          f"{reference.shape}")
        error = max_relative_error(ours, reference)
        row["error"] = f"{error:.1e}"
        if name in CLASSIFIERS:
            agree = (ours.argmax(1) == reference.argmax(1)).sum()
            row["top-1"] = f"{agree}/{len(reference)}"
        if not error <= TOLERANCE:
            row["status"] = f"max rel. error above {TOLERANCE:g}"

        if args.int8:
            log(f"{name}: int8 compile")
            calib = os.path.join(data_dir, "calib.npy")
            cached_images(calib, "train", BN_BATCHES * BN_BATCH_SIZE,
                          CALIB_IMAGES, size)
            seconds, _, int8, int8_ms, text = compile_and_run(
                args, name, model_dir, test, "int8",
                ["--calibration-data", calib, "-v"])
            row["int8 s"] = f"{seconds:.1f}"
            row["float ops"] = float_ops(text)
            row["SQNR"] = f"{sqnr_db(int8, reference):.1f}"
            if name in CLASSIFIERS:
                agree = (int8.argmax(1) == reference.argmax(1)).sum()
                row["int8 top-1"] = f"{agree}/{len(reference)}"
            if float_ms and int8_ms:
                row["float ms"] = f"{float_ms:.2f}"
                row["int8 ms"] = f"{int8_ms:.2f}"
                row["speed-up"] = f"{float_ms / int8_ms:.2f}x"
            log(f"{name}: PyTorch FX int8")
            try:
                fx = pytorch_fx_int8(name, size, np.load(calib),
                                     np.load(test))
                row["FX SQNR"] = f"{sqnr_db(fx, reference):.1f}"
                if name in CLASSIFIERS:
                    agree = (fx.argmax(1) == reference.argmax(1)).sum()
                    row["FX top-1"] = f"{agree}/{len(reference)}"
            except Exception as e:  # FX cannot trace / quantize the model
                row["FX SQNR"] = "fails"
                row["status"] = f"PyTorch FX: {first_error(str(e))}"
    except Failure as e:
        row["status"] = (str(e) if row["status"] == "ok"
                         else f"{row['status']}; {e}")
    log(f"{name}: {row['status']}")
    return row


def machine():
    """The CPU model (lscpu: name, and family / model where the name is
    generic), vCPU count and the current load average."""
    cpu = "unknown CPU"
    fields = {}
    for line in subprocess.run(["lscpu"], stdout=subprocess.PIPE,
                               text=True).stdout.splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    cpu = fields.get("Model name", cpu)
    if "CPU family" in fields and "Model" in fields:
        cpu += f" (family {fields['CPU family']}, model {fields['Model']})"
    load = os.getloadavg()[0]
    return f"{cpu}, {os.cpu_count()} vCPU, load average {load:.1f}"


def table(args, system, rows):
    """The Markdown report: a heading with the date and `system`, the
    set-up, the table."""
    columns = [("model", "model"), ("input", "input"),
               ("error", "float max rel. error"), ("top-1", "top-1 agree"),
               ("float s", "float compile s"), ("MB", "object MB")]
    if args.int8:
        columns += [("int8 s", "int8 compile s"), ("SQNR", "int8 SQNR dB"),
                    ("int8 top-1", "int8 top-1"),
                    ("FX SQNR", "PyTorch FX SQNR dB"),
                    ("FX top-1", "FX top-1"), ("float ms", "float ms"),
                    ("int8 ms", "int8 ms"), ("speed-up", "int8 speed-up"),
                    ("float ops", "ops computed in float")]
    columns.append(("status", "status"))
    lines = [
        f"### torchvision zoo ({datetime.date.today().isoformat()}, "
        f"{system})",
        "",
        "Seeded random weights, BatchNorm statistics re-estimated on "
        f"{BN_BATCHES * BN_BATCH_SIZE} Fashion-MNIST training images; "
        "`torch.onnx.export(..., opset_version=13)`; `quant-compile "
        f"model.onnx` (float) run on {TEST_IMAGES} test images against "
        "PyTorch: max relative error max|ours - torch| / max|torch| "
        f"(criterion {TOLERANCE:g}), top-1 agreement"
        + (f"; `--calibration-data` ({CALIB_IMAGES} training images) for "
           "int8: SQNR and top-1 agreement of the int8 outputs with "
           "PyTorch's float outputs, the same for PyTorch 1.13 FX "
           "post-training quantization (onednn, same calibration images, "
           f"in batches of {CALIB_BATCH} as quant-compile calibrates); "
           f"latency: batch 1, one thread, best of {args.repeats} passes"
           if args.int8 else "")
        + (f"; objects compiled with `--cpu={args.cpu}`" if args.cpu else
           "; default objects (every x86 int8 instruction set, chosen at "
           "run time; 8 bits on both sides of the int8 dot products)")
        + (f"; int8 with `--reduce-range={args.reduce_range}`"
           if args.reduce_range else "") + ".",
        "",
        "| " + " | ".join(title for _, title in columns) + " |",
        "|" + "|".join("---" if key in ("model", "status") else "--:"
                       for key, _ in columns) + "|",
    ]
    for row in rows:
        cells = [row.get(key, "").replace("|", "\\|") for key, _ in columns]
        cells[0] = f"`{cells[0]}`"
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default=",".join(MODELS),
                        help=f"comma-separated models (default: all {len(MODELS)})")
    parser.add_argument("--size", type=int,
                        help="input size for every model (default: 224, "
                        "inception_v3 299)")
    parser.add_argument("--int8", action="store_true",
                        help="also compile to int8 and report SQNR")
    parser.add_argument("--cpu", default="",
                        help="quant-compile --cpu for both objects (default: "
                        "none: the default object, which dispatches at run "
                        "time; native: pinned to this machine)")
    parser.add_argument("--reduce-range", default="",
                        help="quant-compile --reduce-range for the int8 "
                        "objects (default: none given: auto)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="with --int8: timed passes over the test "
                        "images (0: no timing; default: %(default)s)")
    parser.add_argument("--out", default=os.path.join(BUILD, "zoo"),
                        help="work dir, caches exports (default: %(default)s)")
    parser.add_argument("--bin", default=os.path.join(BUILD, "bin"),
                        help="directory of quant-compile "
                        "(default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds allowed per compile or run; a model "
                        "over it gets 'timed out' (default: %(default)g)")
    args = parser.parse_args()
    names = [m for m in args.models.split(",") if m]
    unknown = [m for m in names if m not in MODELS]
    if unknown:
        parser.error(f"unknown models {', '.join(unknown)}; "
                     f"known: {', '.join(MODELS)}")
    args.out = os.path.abspath(args.out)
    args.bin = os.path.abspath(args.bin)
    if not os.access(os.path.join(args.bin, "quant-compile"), os.X_OK):
        parser.error(f"no quant-compile in {args.bin} (--bin)")
    before = machine()  # the load average before our own work
    # The table so far after each model (a run stopped midway keeps its
    # finished rows), written whole so that a reader never sees half a file.
    rows = []
    path = os.path.join(args.out, "zoo.md")
    text = table(args, before, rows)
    for name in names:
        rows.append(evaluate(args, name))
        text = table(args, before, rows)
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
