#!/usr/bin/python3
"""quantc against the peers a user would pick instead, in one run.

For each model (torchvision resnet50, mobilenet_v2, mobilenet_v3_large,
efficientnet_b0 with bench/zoo/zoo.py's seeded random weights and
re-estimated BatchNorm statistics, exported to ONNX at batch 1, opset 13,
224x224), each batch (1, 8) and each thread count (1, 2), seven contestants:

  quantc int8         quant-compile model.onnx --calibration-data calib.npy
                      --batch B --parallel=omp (the default object: kernels
                      for every x86 int8 ISA, chosen at run time)
  quantc int8 native  the same with --cpu=native (pinned to this CPU)
  quantc float        quant-compile model.onnx --batch B --parallel=omp
  ORT int8            ONNX Runtime 1.30 (onnxruntime-node, CPU EP, graph
                      optimization 'all') on a QDQ model made by qdq.py as
                      ORT's quantize_static would (MinMax on the same 16
                      calibration images, uint8 activations per tensor,
                      int8 weights per channel)
  ORT float           ONNX Runtime on the float model
  PyTorch int8        PyTorch 1.13 FX (prepare_fx / convert_fx, onednn
                      engine and qconfig mapping, the same 16 images),
                      traced and frozen
  PyTorch float       torch.jit.optimize_for_inference(torch.jit.freeze(
                      torch.jit.trace(model)))

Timing: K interleaved rounds; a round runs every contestant of every
configuration once, each as its own process that loads the model, makes
--warmup untimed runs and then --runs timed runs of one batch (best run =
the pass's time). The report gives, per contestant, the minimum over the
rounds (the JSON keeps every pass). Before timing, every contestant is run
on the 4 test images (batch 1) and compared with PyTorch's float outputs
(SQNR, top-1), and each batch-B build is checked against the batch-1 build
on 8 calibration images.

Prints a Markdown report on stdout and writes it to <work>/peers.md, the raw
numbers to <work>/peers.json; progress goes to stderr. Everything built
(compiled objects, QDQ / rebatched ONNX models, traced PyTorch models) is
cached in the work dir, keyed by model and batch, and rebuilt when its
inputs change (the tools, the ONNX export, these scripts).

Usage: /usr/bin/python3 bench/peers/peers.py [--models a,b] [--batches 1,8]
    [--threads 1,2] [--rounds K] [--runs R] [--warmup W] [--work DIR]
    [--bin DIR] [--zoo DIR] [--ort DIR] [--libomp DIR]
    [--contestants name,...] [--timeout S]
(bench/peers/peers.sh is the same with Debian's python3.)
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("QUANTC_BUILD_DIR", os.path.join(ROOT, "build"))
sys.path.insert(0, os.path.join(ROOT, "bench", "zoo"))
import zoo  # noqa: E402  bench/zoo/zoo.py: models, images, export

MODELS = ["resnet50", "mobilenet_v2", "mobilenet_v3_large", "efficientnet_b0"]
SIZE = 224
CONTESTANTS = ["quantc-int8", "quantc-int8-native", "quantc-float",
               "ort-int8", "ort-float", "torch-int8", "torch-float"]
LABEL = {"quantc-int8": "quantc int8", "quantc-int8-native":
         "quantc int8 native", "quantc-float": "quantc float",
         "ort-int8": "ORT int8", "ort-float": "ORT float",
         "torch-int8": "PyTorch int8", "torch-float": "PyTorch float"}
RATIOS = [("ort-int8", "quantc-int8"), ("torch-int8", "quantc-int8"),
          ("quantc-float", "quantc-int8"), ("ort-float", "quantc-float"),
          ("torch-float", "quantc-float"),
          ("quantc-int8", "quantc-int8-native")]
CHECK_IMAGES = 8  # calibration images for the batch-B vs batch-1 check
# Outputs count as wrong beyond these max. relative errors: a float
# contestant against PyTorch's eager float model; any contestant's batch-B
# build against its batch-1 build.
FLOAT_TOLERANCE = 1e-3
BATCH_TOLERANCE = {"float": 1e-3, "int8": 1e-2}
PYTHON = sys.executable or "/usr/bin/python3"


def log(message):
    print(message, file=sys.stderr, flush=True)


class Failure(Exception):
    """A step failed; the message goes into the report."""


def short(text, limit=200):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    line = next((l for l in lines if "error" in l.lower()),
                lines[-1] if lines else "failed without a message")
    return line[:limit]


def run(command, what, timeout, env=None):
    """Runs a command; returns its stdout; raises Failure."""
    try:
        p = subprocess.run(command, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True,
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise Failure(f"{what}: timed out after {timeout:g} s")
    if p.returncode != 0:
        raise Failure(f"{what}: exit {p.returncode}: "
                      f"{short(p.stderr + p.stdout)}")
    return p.stdout


def file_key(*paths):
    """Identifies files by path, size and modification time."""
    parts = []
    for path in paths:
        st = os.stat(path)
        parts.append(f"{path}:{st.st_size}:{st.st_mtime_ns}")
    return parts


def cached(outputs, key, build):
    """Runs build() unless every output exists and <outputs[0]>.key holds
    `key` (a JSON-able value)."""
    stamp = outputs[0] + ".key"
    text = json.dumps(key, sort_keys=True)
    if all(os.path.exists(o) for o in outputs) and os.path.exists(stamp):
        with open(stamp) as f:
            if f.read() == text:
                return False
    if os.path.exists(stamp):
        os.remove(stamp)
    build()
    missing = [o for o in outputs if not os.path.exists(o)]
    if missing:
        raise Failure(f"not written: {', '.join(missing)}")
    with open(stamp, "w") as f:
        f.write(text)
    return True


def sqnr_db(ours, reference):
    reference = reference.astype(np.float64)
    noise = ((ours.astype(np.float64) - reference) ** 2).sum()
    return float(10 * np.log10((reference ** 2).sum() / max(noise, 1e-30)))


def max_rel_error(ours, reference):
    n = len(reference)
    ours, reference = ours.reshape(n, -1), reference.reshape(n, -1)
    return float((np.abs(ours - reference).max(1) /
                  np.abs(reference).max(1)).max())


class Bench:
    def __init__(self, args):
        self.args = args
        self.zoo_dir = os.path.join(args.zoo, str(SIZE))
        self.calib = os.path.join(self.zoo_dir, "calib.npy")
        self.test = os.path.join(self.zoo_dir, "test.npy")
        self.check = os.path.join(args.work, f"check{CHECK_IMAGES}.npy")
        self.compiler = os.path.join(args.bin, "quant-compile")
        self.scripts = {}  # script -> hash of its text, for the caches
        for n in ("time_model.c", "qdq.py", "ort_bench.js", "torch_bench.py"):
            with open(os.path.join(HERE, n), "rb") as f:
                self.scripts[n] = hashlib.sha256(f.read()).hexdigest()[:16]
        self.errors = {}     # (model, batch, contestant) -> message
        self.commands = {}   # (model, batch, contestant) -> [argv per T]
        self.info = {}       # per model: accuracy, histograms, checks
        self.wrong = {}      # (model, batch, contestant) -> why

    # ----------------------------------------------------------------- data
    def images(self):
        os.makedirs(self.zoo_dir, exist_ok=True)
        zoo.cached_images(self.test, "test", 0, zoo.TEST_IMAGES, SIZE)
        calib = zoo.cached_images(
            self.calib, "train", zoo.BN_BATCHES * zoo.BN_BATCH_SIZE,
            zoo.CALIB_IMAGES, SIZE)
        if not os.path.exists(self.check):
            np.save(self.check, calib[:CHECK_IMAGES])

    def onnx_model(self, name):
        model_dir = os.path.join(self.zoo_dir, name)
        path = os.path.join(model_dir, "model.onnx")
        if not (os.path.exists(path) and os.path.exists(
                os.path.join(model_dir, "reference.npy"))):
            log(f"{name}: export (bench/zoo/zoo.py's export)")
            os.makedirs(model_dir, exist_ok=True)
            zoo.export(name, SIZE, model_dir, np.load(self.test))
        return path

    # -------------------------------------------------------------- quantc
    def quantc(self, name, batch, contestant, onnx_path):
        out = os.path.join(self.args.work, name, f"b{batch}", contestant)
        os.makedirs(out, exist_ok=True)
        obj, exe = os.path.join(out, "model.o"), os.path.join(out,
                                                             "time_model")
        command = [self.compiler, onnx_path, "--batch", str(batch),
                   "--parallel=omp", "-o", obj, "--name", "m"]
        if contestant != "quantc-float":
            command[2:2] = ["--calibration-data", self.calib]
        if contestant == "quantc-int8-native":
            command.append("--cpu=native")
        key = {"command": command,
               "files": file_key(self.compiler, onnx_path, self.calib)}

        def compile_():
            log(f"{name} b{batch}: {' '.join(command)}")
            start = time.perf_counter()
            run(command, "quant-compile", self.args.timeout)
            log(f"{name} b{batch}: {contestant} compiled in "
                f"{time.perf_counter() - start:.1f} s")
        cached([obj, os.path.join(out, "model.h")], key, compile_)
        omp = self.args.libomp
        link = ["cc", "-O2", f"-I{out}", os.path.join(HERE, "time_model.c"),
                obj, f"-L{omp}", f"-Wl,-rpath,{omp}", "-lomp", "-lm", "-o",
                exe]
        cached([exe], {"link": link, "files": file_key(obj),
                       "driver": self.scripts["time_model.c"]},
               lambda: run(link, "link", self.args.timeout))
        return {"time": lambda data, runs, warmup, threads: [
                    exe, "time", data, str(runs), str(warmup), str(threads)],
                "run": lambda data, out_npy: [exe, "run", data, out_npy]}

    # ----------------------------------------------------------------- ORT
    def node(self, *args):
        return ["node", os.path.join(HERE, "ort_bench.js"), self.args.ort,
                *args]

    def ort_models(self, name, batch, onnx_path):
        """float_b<B>.onnx and int8_b<B>.onnx (QDQ) for ORT."""
        out = os.path.join(self.args.work, name, "ort")
        os.makedirs(out, exist_ok=True)
        qdq = [PYTHON, os.path.join(HERE, "qdq.py")]
        t = self.args.timeout
        ranges = os.path.join(out, "ranges.json")
        augmented = os.path.join(out, "augmented.onnx")
        qdq1 = os.path.join(out, "int8_b1.onnx")

        def calibrate():
            log(f"{name}: ORT MinMax calibration, QDQ model")
            run(qdq + ["augment", onnx_path, augmented], "qdq.py augment", t)
            run(self.node("ranges", augmented, self.calib, ranges),
                "ort_bench.js ranges", t)
            os.remove(augmented)
        base = file_key(onnx_path, self.calib)
        cached([ranges], {"files": base, "qdq": self.scripts["qdq.py"],
                          "ort": self.scripts["ort_bench.js"]}, calibrate)
        cached([qdq1], {"files": base + file_key(ranges),
                        "qdq": self.scripts["qdq.py"]},
               lambda: run(qdq + ["quantize", onnx_path, ranges, self.calib,
                                  qdq1], "qdq.py quantize", t))
        models = {}
        for kind, source in (("float", onnx_path), ("int8", qdq1)):
            path = os.path.join(out, f"{kind}_b{batch}.onnx")
            if not (kind == "int8" and batch == 1):
                cached([path], {"files": file_key(source), "batch": batch,
                                "qdq": self.scripts["qdq.py"]},
                       lambda: run(qdq + ["rebatch", source, path,
                                          str(batch)], "qdq.py rebatch", t))
            models[kind] = path
        return models

    def ort_histogram(self, name, batch, model):
        optimized = model[:-len(".onnx")] + ".optimized.onnx"
        cached([optimized], {"files": file_key(model),
                             "ort": self.scripts["ort_bench.js"]},
               lambda: run(self.node("optimize", model, optimized),
                           "ort_bench.js optimize", self.args.timeout))
        text = run([PYTHON, os.path.join(HERE, "qdq.py"), "histogram",
                    optimized], "qdq.py histogram", self.args.timeout)
        return json.loads(text)

    def ort(self, model):
        return {"time": lambda data, runs, warmup, threads: self.node(
                    "time", model, data, str(runs), str(warmup),
                    str(threads)),
                "run": lambda data, out_npy: self.node("run", model, data,
                                                       out_npy)}

    # ------------------------------------------------------------- PyTorch
    def torch_models(self, name, batch, onnx_path):
        out = os.path.join(self.args.work, name, f"b{batch}", "torch")
        script = os.path.join(HERE, "torch_bench.py")

        def prepare():
            log(f"{name} b{batch}: PyTorch trace, FX int8")
            run([PYTHON, script, "prepare", name, str(batch), self.args.zoo,
                 out], "torch_bench.py prepare", self.args.timeout)
        # Keyed by the export: the same seed and BatchNorm images.
        cached([os.path.join(out, "float.pt")],
               {"files": file_key(onnx_path, self.calib),
                "script": self.scripts["torch_bench.py"]}, prepare)
        models = {}
        for kind in ("float", "int8"):
            path = os.path.join(out, f"{kind}.pt")
            if not os.path.exists(path):
                error = os.path.join(out, f"{kind}.error")
                message = "not prepared"
                if os.path.exists(error):
                    with open(error) as f:
                        message = f.read().strip()
                models[kind] = Failure(f"PyTorch FX: {message}")
                continue
            models[kind] = {
                "time": lambda data, runs, warmup, threads, kind=kind,
                path=path: [PYTHON, script, "time", kind, path, data,
                            str(batch), str(runs), str(warmup), str(threads)],
                "run": lambda data, out_npy, kind=kind, path=path: [
                    PYTHON, script, "run", kind, path, data, str(batch),
                    out_npy]}
        return models

    # ---------------------------------------------------------------- setup
    def prepare(self):
        """Builds every contestant of every model and batch; checks them."""
        self.images()
        for name in self.args.models:
            info = self.info.setdefault(name, {"accuracy": {},
                                               "batch_check": {},
                                               "ort_optimized": {}})
            try:
                onnx_path = self.onnx_model(name)
            except Exception as e:
                for b in self.args.batches:
                    for c in self.args.contestants:
                        self.errors[(name, b, c)] = f"export: {e}"
                continue
            batches = sorted(set(self.args.batches) | {1})
            for batch in batches:
                builders = {}
                for c in ("quantc-int8", "quantc-int8-native",
                          "quantc-float"):
                    builders[c] = (lambda c=c: self.quantc(
                        name, batch, c, onnx_path))
                ort_models = {}

                def ort_model(kind):
                    if not ort_models:
                        ort_models.update(self.ort_models(name, batch,
                                                          onnx_path))
                    return self.ort(ort_models[kind])
                builders["ort-int8"] = lambda: ort_model("int8")
                builders["ort-float"] = lambda: ort_model("float")
                torch_models = {}

                def torch_model(kind):
                    if not torch_models:
                        torch_models.update(self.torch_models(
                            name, batch, onnx_path))
                    if isinstance(torch_models[kind], Failure):
                        raise torch_models[kind]
                    return torch_models[kind]
                builders["torch-int8"] = lambda: torch_model("int8")
                builders["torch-float"] = lambda: torch_model("float")
                for c in self.args.contestants:
                    try:
                        self.commands[(name, batch, c)] = builders[c]()
                    except Failure as e:
                        self.errors[(name, batch, c)] = str(e)
                        log(f"{name} b{batch} {c}: {e}")
                if "ort-int8" in self.args.contestants and ort_models:
                    try:
                        info["ort_optimized"][str(batch)] = \
                            self.ort_histogram(name, batch,
                                               ort_models["int8"])
                    except Failure as e:
                        log(f"{name} b{batch}: ORT optimized graph: {e}")
            self.verify(name)

    def outputs(self, name, batch, contestant, data, tag):
        """The contestant's outputs on `data` (cached with its build)."""
        command = self.commands[(name, batch, contestant)]
        out = os.path.join(self.args.work, name, "outputs",
                           f"{contestant}_b{batch}_{tag}.npy")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        argv = command["run"](data, out)
        run(argv, f"{contestant} run", self.args.timeout)
        return np.load(out)

    def verify(self, name):
        """Accuracy at batch 1 on the test images against PyTorch's float
        outputs; each batch-B build against the batch-1 build."""
        info = self.info[name]
        reference = np.load(os.path.join(self.zoo_dir, name,
                                         "reference.npy"))
        outs = {}
        for c in self.args.contestants:
            if (name, 1, c) not in self.commands:
                continue
            try:
                ours = self.outputs(name, 1, c, self.test, "test")
                outs[c] = ours
                info["accuracy"][c] = {
                    "sqnr_db": sqnr_db(ours, reference),
                    "max_rel_error": max_rel_error(ours, reference),
                    "top1": int((ours.argmax(1) ==
                                 reference.argmax(1)).sum()),
                    "images": len(reference)}
                error = info["accuracy"][c]["max_rel_error"]
                if c.endswith("float") and not error <= FLOAT_TOLERANCE:
                    for b in self.args.batches:
                        self.wrong[(name, b, c)] = (
                            f"max. relative error {error:.2g} against "
                            f"PyTorch's eager float model")
            except Failure as e:
                info["accuracy"][c] = {"error": str(e)}
                log(f"{name} {c}: {e}")
        if "ort-int8" in outs and "ort-float" in outs:
            info["ort_int8_vs_ort_float_sqnr_db"] = sqnr_db(
                outs["ort-int8"], outs["ort-float"])
        if "quantc-int8" in outs and "quantc-float" in outs:
            info["quantc_int8_vs_quantc_float_sqnr_db"] = sqnr_db(
                outs["quantc-int8"], outs["quantc-float"])
        for batch in self.args.batches:
            if batch == 1:
                continue
            for c in self.args.contestants:
                if (name, batch, c) not in self.commands or \
                        (name, 1, c) not in self.commands:
                    continue
                try:
                    one = self.outputs(name, 1, c, self.check, "check")
                    many = self.outputs(name, batch, c, self.check, "check")
                    n = (len(one) // batch) * batch
                    error = max_rel_error(many[:n], one[:n])
                    info["batch_check"].setdefault(str(batch), {})[c] = {
                        "max_rel_error_vs_batch1": error,
                        "bit_identical": bool(np.array_equal(many[:n],
                                                             one[:n]))}
                    kind = "float" if c.endswith("float") else "int8"
                    if not error <= BATCH_TOLERANCE[kind]:
                        self.wrong.setdefault((name, batch, c), (
                            f"batch-{batch} outputs differ from batch 1's "
                            f"by {error:.2g} (max. relative error)"))
                except Failure as e:
                    info["batch_check"].setdefault(str(batch), {})[c] = {
                        "error": str(e)}
                    log(f"{name} b{batch} {c} batch check: {e}")

    # --------------------------------------------------------------- timing
    def measure(self):
        configs = [(m, b, t) for m in self.args.models
                   for b in self.args.batches for t in self.args.threads]
        passes = {}
        total = len(configs) * len(self.args.contestants)
        for r in range(self.args.rounds):
            start = time.perf_counter()
            done = 0
            for i, (name, batch, threads) in enumerate(configs):
                order = self.args.contestants
                k = (r + i) % len(order)  # rotate: no fixed running order
                for c in order[k:] + order[:k]:
                    key = (name, batch, c)
                    done += 1
                    if key not in self.commands:
                        continue
                    argv = self.commands[key]["time"](
                        self.calib, self.args.runs, self.args.warmup,
                        threads)
                    entry = passes.setdefault(
                        f"{name}/b{batch}/t{threads}/{c}", [])
                    try:
                        out = run(argv, f"{c} time", self.args.timeout)
                        result = json.loads(out.strip().splitlines()[-1])
                        result["round"] = r
                        entry.append(result)
                    except (Failure, ValueError, IndexError) as e:
                        entry.append({"round": r, "error": str(e)})
                        log(f"{name} b{batch} t{threads} {c}: {e}")
            log(f"round {r + 1}/{self.args.rounds}: {total} passes in "
                f"{time.perf_counter() - start:.0f} s")
        return passes


def lscpu():
    fields = {}
    try:
        for line in subprocess.run(["lscpu"], stdout=subprocess.PIPE,
                                   text=True).stdout.splitlines():
            if ":" in line:
                k, v = line.split(":", 1)
                fields[k.strip()] = v.strip()
    except OSError:
        pass
    return fields


def versions(args):
    found = {"python": platform.python_version()}
    try:
        found["node"] = subprocess.run(["node", "--version"],
                                       stdout=subprocess.PIPE,
                                       text=True).stdout.strip()
        with open(os.path.join(args.ort, "node_modules", "onnxruntime-node",
                               "package.json")) as f:
            found["onnxruntime-node"] = json.load(f)["version"]
    except (OSError, ValueError, KeyError):
        pass
    try:
        import torch
        found["torch"] = torch.__version__
    except ImportError:
        pass
    try:
        found["quantc"] = subprocess.run(
            ["git", "-C", ROOT, "describe", "--always", "--dirty"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True).stdout.strip()
    except OSError:
        pass
    return found


def fmt(x, digits=2):
    return "" if x is None else f"{x:.{digits}f}"


def report(args, bench, passes, meta):
    """The Markdown report."""
    best = {}
    for key, entries in passes.items():
        times = [e["best_ms"] for e in entries if "best_ms" in e]
        if times:
            best[key] = min(times)

    def ms(name, batch, threads, c):
        return best.get(f"{name}/b{batch}/t{threads}/{c}")

    def cell(name, batch, threads, c, per_image=False):
        value = ms(name, batch, threads, c)
        if value is not None:
            mark = " †" if (name, batch, c) in bench.wrong else ""
            return fmt(value / batch if per_image else value) + mark
        message = bench.errors.get((name, batch, c))
        entries = passes.get(f"{name}/b{batch}/t{threads}/{c}", [])
        if not message and entries:
            message = entries[-1].get("error")
        return "fails" if message else ""

    cs = args.contestants
    lines = [f"# quantc against its peers ({meta['date']})", ""]
    lines.append(f"Machine: {meta['cpu']}, {meta['vcpus']} vCPU; load "
                 f"average {meta['load_start']} at the start, "
                 f"{meta['load_end']} at the end.  ")
    v = meta["versions"]
    lines.append(
        f"Software: quantc {v.get('quantc', '?')}, ONNX Runtime "
        f"{v.get('onnxruntime-node', '?')} (onnxruntime-node, node "
        f"{v.get('node', '?')}), PyTorch {v.get('torch', '?')}.  ")
    lines.append(
        f"Timing: {args.rounds} interleaved rounds; in each, every "
        f"contestant of every configuration ran once as its own process: "
        f"{args.warmup} warm-up runs, then {args.runs} timed runs of one "
        f"batch (its best run). Below: the minimum over the rounds, in ms. "
        f"Command: `bench/peers/peers.sh {meta['argv']}`.")
    lines.append("")

    isas = sorted({e.get("isa") for k, es in passes.items() if
                   k.endswith("/quantc-int8") for e in es if e.get("isa")})
    if isas:
        lines.append(f"quantc int8's run-time choice of int8 kernels: "
                     f"{', '.join(isas)}.")
        lines.append("")

    for title, per_image in (("ms per batch", False), ("ms per image",
                                                       True)):
        lines += [f"## {title}", "",
                  "| model | batch | threads | " +
                  " | ".join(LABEL[c] for c in cs) + " |",
                  "|---|--:|--:|" + "--:|" * len(cs)]
        for name in args.models:
            for b in args.batches:
                for t in args.threads:
                    lines.append(f"| {name} | {b} | {t} | " + " | ".join(
                        cell(name, b, t, c, per_image) for c in cs) + " |")
        lines.append("")

    ratios = [(a, b) for a, b in RATIOS if a in cs and b in cs]
    if ratios:
        lines += ["## Ratios (time / time: above 1, the second is faster)",
                  "", "| model | batch | threads | " + " | ".join(
                      f"{LABEL[a]} / {LABEL[b]}" for a, b in ratios) + " |",
                  "|---|--:|--:|" + "--:|" * len(ratios)]
        for name in args.models:
            for b in args.batches:
                for t in args.threads:
                    row = []
                    for x, y in ratios:
                        p, q = ms(name, b, t, x), ms(name, b, t, y)
                        mark = " †" if ((name, b, x) in bench.wrong or
                                        (name, b, y) in bench.wrong) else ""
                        row.append(f"{p / q:.2f}{mark}" if p and q else "")
                    lines.append(f"| {name} | {b} | {t} | " +
                                 " | ".join(row) + " |")
        lines.append("")

    big = [b for b in args.batches if b > 1]
    if 1 in args.batches and big:
        lines += ["## Batching: per-image throughput of batch B over batch "
                  "1", "",
                  "(ms per image at batch 1) / (ms per image at batch B): "
                  "above 1, batching helps.", "",
                  "| model | batch | threads | " +
                  " | ".join(LABEL[c] for c in cs) + " |",
                  "|---|--:|--:|" + "--:|" * len(cs)]
        for name in args.models:
            for b in big:
                for t in args.threads:
                    row = []
                    for c in cs:
                        p, q = ms(name, 1, t, c), ms(name, b, t, c)
                        row.append(f"{p / (q / b):.2f}" if p and q else "")
                    lines.append(f"| {name} | {b} | {t} | " +
                                 " | ".join(row) + " |")
        lines.append("")

    lines += ["## Accuracy (batch 1)", "",
              "SQNR in dB of each contestant's outputs against PyTorch's "
              "float outputs on the 4 test images (top-1 agreement in "
              "parentheses; float contestants: max. relative error). The "
              "models have random weights, so int8 SQNR is low for every "
              "quantizer (see docs/zoo.md); it checks that each contestant "
              "computes the same model.", "",
              "| model | " + " | ".join(LABEL[c] for c in cs) +
              " | ORT int8 vs ORT float | quantc int8 vs quantc float |",
              "|---|" + "--:|" * (len(cs) + 2)]
    for name in args.models:
        info = bench.info.get(name, {})
        acc = info.get("accuracy", {})
        row = []
        for c in cs:
            a = acc.get(c)
            if not a:
                row.append("fails" if (name, 1, c) in bench.errors else "")
            elif "error" in a:
                row.append("fails")
            elif c.endswith("float"):
                row.append(f"{a['max_rel_error']:.1e} "
                           f"({a['top1']}/{a['images']})")
            else:
                row.append(f"{a['sqnr_db']:.1f} ({a['top1']}/{a['images']})")
        x = info.get("ort_int8_vs_ort_float_sqnr_db")
        y = info.get("quantc_int8_vs_quantc_float_sqnr_db")
        row += [fmt(x, 1), fmt(y, 1)]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    lines.append("")

    checks = [(name, b, c, r) for name in args.models
              for b, per in bench.info.get(name, {}).get(
                  "batch_check", {}).items() for c, r in per.items()]
    if checks:
        lines += ["## Batch-B builds against the batch-1 builds", "",
                  f"Each contestant's batch-B build and batch-1 build on "
                  f"the first {CHECK_IMAGES} calibration images: max. "
                  f"relative error (0: bit-identical).", "",
                  "| model | batch | " + " | ".join(LABEL[c] for c in cs)
                  + " |", "|---|--:|" + "--:|" * len(cs)]
        for name in args.models:
            per_batch = bench.info.get(name, {}).get("batch_check", {})
            for b, per in per_batch.items():
                row = []
                for c in cs:
                    r = per.get(c)
                    if not r:
                        row.append("")
                    elif "error" in r:
                        row.append("fails")
                    else:
                        row.append("0" if r["bit_identical"] else
                                   f"{r['max_rel_error_vs_batch1']:.1e}")
                lines.append(f"| {name} | {b} | " + " | ".join(row) + " |")
        lines.append("")

    hist = [(name, b, h) for name in args.models for b, h in
            bench.info.get(name, {}).get("ort_optimized", {}).items()]
    if hist:
        lines += ["## ORT int8: the graph ORT runs", "",
                  "Op types of the QDQ model after ORT's optimizations "
                  "(saved with optimizedModelFilePath); com.microsoft ops "
                  "are ORT's int8 kernels, Conv / QuantizeLinear / "
                  "DequantizeLinear left over run in float.", "",
                  "| model | batch | QLinearConv | float Conv | ops |",
                  "|---|--:|--:|--:|---|"]
        for name, b, h in hist:
            qconv = sum(n for op, n in h.items() if op.endswith(
                "QLinearConv"))
            fconv = sum(n for op, n in h.items() if op in (
                "Conv", "com.microsoft.FusedConv", "com.microsoft.nchwc.Conv"))
            ops = ", ".join(f"{op.replace('com.microsoft.', '')} {n}"
                            for op, n in h.items())
            lines.append(f"| {name} | {b} | {qconv} | {fconv} | {ops} |")
        lines.append("")

    if bench.wrong:
        lines += ["## † Wrong outputs", "",
                  "Timed all the same, but these contestants do not compute "
                  "the model (PyTorch 1.13's torch.jit.optimize_for_inference "
                  "is known to miscompile some models, pytorch/pytorch "
                  "#86527):", ""]
        for (m, b, c), why in sorted(bench.wrong.items()):
            lines.append(f"- {m}, batch {b}, {LABEL[c]}: {why}")
        lines.append("")

    failures = sorted({(m, b, c, e) for (m, b, c), e in bench.errors.items()})
    if failures:
        lines += ["## Failures", ""]
        for m, b, c, e in failures:
            lines.append(f"- {m}, batch {b}, {LABEL[c]}: {e}")
        lines.append("")
    return "\n".join(lines)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--batches", default="1,8")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--runs", type=int, default=10,
                   help="timed runs per pass (default 10)")
    p.add_argument("--warmup", type=int, default=3,
                   help="untimed runs per pass (default 3)")
    p.add_argument("--contestants", default=",".join(CONTESTANTS))
    p.add_argument("--work", default=os.path.join(BUILD, "peers"))
    p.add_argument("--bin", default=os.path.join(BUILD, "bin"))
    p.add_argument("--zoo", default=os.path.join(BUILD, "zoo"),
                   help="bench/zoo/zoo.py's work dir: exports and images")
    p.add_argument("--ort", default=None,
                   help="the directory onnxruntime-node is installed in "
                   "(default <work>/ort)")
    p.add_argument("--libomp", default="/usr/lib/llvm-22/lib")
    p.add_argument("--timeout", type=float, default=900)
    args = p.parse_args(argv)
    args.models = [m for m in args.models.split(",") if m]
    args.batches = [int(b) for b in args.batches.split(",") if b]
    args.threads = [int(t) for t in args.threads.split(",") if t]
    args.contestants = [c for c in args.contestants.split(",") if c]
    for c in args.contestants:
        if c not in CONTESTANTS:
            p.error(f"unknown contestant {c} (known: "
                    f"{', '.join(CONTESTANTS)})")
    for m in args.models:
        if m not in zoo.MODELS:
            p.error(f"unknown model {m}")
    args.work = os.path.abspath(args.work)
    args.zoo = os.path.abspath(args.zoo)
    args.bin = os.path.abspath(args.bin)
    args.ort = os.path.abspath(args.ort or os.path.join(args.work, "ort"))
    return args


def main(argv):
    args = parse_args(argv)
    os.makedirs(args.work, exist_ok=True)
    if any(c.startswith("ort") for c in args.contestants) and \
            not os.path.isdir(os.path.join(args.ort, "node_modules",
                                           "onnxruntime-node")):
        sys.exit(f"peers: no onnxruntime-node in {args.ort}/node_modules: "
                 f"cd {args.ort} && ONNXRUNTIME_NODE_INSTALL=skip npm "
                 f"install onnxruntime-node@1.30 (or --ort DIR)")
    if any(c.startswith("quantc") for c in args.contestants) and \
            not os.access(os.path.join(args.bin, "quant-compile"), os.X_OK):
        sys.exit(f"peers: no {args.bin}/quant-compile (build it, or --bin)")
    cpu = lscpu()
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime(
                "%Y-%m-%d %H:%M UTC"),
            "cpu": cpu.get("Model name", platform.processor() or "?"),
            "vcpus": os.cpu_count(), "lscpu": cpu,
            "versions": versions(args),
            "argv": " ".join(argv)}
    bench = Bench(args)
    start = time.perf_counter()
    bench.prepare()
    log(f"prepared in {time.perf_counter() - start:.0f} s")
    meta["load_start"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    start = time.perf_counter()
    passes = bench.measure()
    meta["measure_seconds"] = round(time.perf_counter() - start, 1)
    meta["load_end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    text = report(args, bench, passes, meta)
    print(text)
    with open(os.path.join(args.work, "peers.md"), "w") as f:
        f.write(text + "\n")
    raw = {"meta": meta,
           "settings": {k: getattr(args, k) for k in (
               "models", "batches", "threads", "rounds", "runs", "warmup",
               "contestants")},
           "passes": passes,
           "best_ms": {k: min(e["best_ms"] for e in v if "best_ms" in e)
                       for k, v in passes.items()
                       if any("best_ms" in e for e in v)},
           "models": bench.info,
           "wrong": {f"{m}/b{b}/{c}": why
                     for (m, b, c), why in bench.wrong.items()},
           "errors": {f"{m}/b{b}/{c}": e
                      for (m, b, c), e in bench.errors.items()}}
    with open(os.path.join(args.work, "peers.json"), "w") as f:
        json.dump(raw, f, indent=1)
    log(f"wrote {args.work}/peers.md and peers.json")


if __name__ == "__main__":
    main(sys.argv[1:])
