#!/usr/bin/env python3
"""ONNX Runtime at the thread counts of bench/threads.sh's run.sh: the
comparison rows of the batch-1 thread-scaling table.

For each row of DIR/models.tsv with an ONNX file (float: the timing copy the
quantc float object was compiled from; int8: bench/peers' QDQ model, as
ORT's quantize_static would write it, with its weights repeated the same
way), and each thread count T: one session (CPU execution provider,
intra_op_num_threads = T, inter_op_num_threads = 1, sequential execution,
all graph optimizations), a pass over the test images (batch 1) as warm-up,
one timed pass to size the run to --budget seconds (at least 3 passes,
--passes N instead), then the best of the passes, in ms per image: the
measurement quantc's driver makes (examples/common/run_model.c).

Prints tab-separated lines on stdout, `model kind threads ms passes`, and per
row `model kind note text` (whether the outputs are the same bytes at every
thread count; for float, the max. relative difference from quantc's outputs
at the first thread count if --quantc-outputs holds them); progress goes to
stderr.

Needs python3 with numpy and onnxruntime; --dry-run needs only numpy and
onnx: it loads and checks every model and prints the plan.

Usage: ort_threads.py --dir DIR [--threads "1 2 4 8 16"] [--budget 2]
           [--passes N] [--models a,b] [--quantc-outputs WORK] [--dry-run]
"""
import argparse
import gzip
import os
import sys
import time

import numpy as np

MIN_PASSES, MAX_PASSES = 3, 300


def log(message):
    print(f"[{time.strftime('%H:%M:%S', time.gmtime())}] ort: {message}",
          file=sys.stderr, flush=True)


def rows(directory, models):
    """(model, kind, path of the ONNX file) per models.tsv row with one."""
    with open(os.path.join(directory, "models.tsv")) as f:
        lines = [line.rstrip("\n").split("\t") for line in f]
    return [(m, kind, os.path.join(directory, onnx_file))
            for m, _label, kind, _exe, _regions, onnx_file in lines[1:]
            if onnx_file != "-" and (not models or m in models)]


def model_bytes(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return f.read()


def passes_for(one_pass, budget, fixed):
    if fixed > 0:
        return fixed
    return max(MIN_PASSES, min(MAX_PASSES, int(budget / one_pass)))


def session(ort, model, threads):
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = (
        ort.GraphOptimizationLevel.ORT_ENABLE_ALL)
    options.log_severity_level = 3
    return ort.InferenceSession(model, sess_options=options,
                                providers=["CPUExecutionProvider"])


def measure(s, images, budget, fixed):
    """(ms per image, passes, outputs) of session `s` on `images`."""
    name = s.get_inputs()[0].name
    feeds = [{name: images[i:i + 1]} for i in range(len(images))]
    outputs = np.concatenate([s.run(None, feed)[0] for feed in feeds])

    def one_pass():
        start = time.perf_counter()
        for feed in feeds:
            s.run(None, feed)
        return time.perf_counter() - start
    passes = passes_for(one_pass(), budget, fixed)
    best = min(one_pass() for _ in range(passes))
    return best * 1e3 / len(images), passes, outputs


def max_rel_diff(ours, reference):
    ours = ours.reshape(len(ours), -1).astype(np.float64)
    reference = reference.reshape(len(reference), -1).astype(np.float64)
    scale = np.maximum(np.abs(reference).max(1), 1e-30)
    return float((np.abs(ours - reference).max(1) / scale).max())


def dry_run(plan, images, threads):
    import onnx
    for m, kind, path in plan:
        model = onnx.load_from_string(model_bytes(path))
        onnx.checker.check_model(model)
        dims = [d.dim_value for d in
                model.graph.input[0].type.tensor_type.shape.dim]
        if dims[1:] != list(images.shape[1:]):
            sys.exit(f"ort_threads.py: {path}: input {dims}, images "
                     f"{list(images.shape)}")
        print(f"{m}\t{kind}\t{os.path.basename(path)}: {len(model.graph.node)}"
              f" nodes, input {dims}; threads {' '.join(map(str, threads))}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--threads", default="1 2 4 8 16")
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--passes", type=int, default=0)
    parser.add_argument("--models", default="")
    parser.add_argument("--quantc-outputs", default="")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    threads = [int(t) for t in args.threads.replace(",", " ").split()]
    plan = rows(args.dir, [m for m in args.models.split(",") if m])
    images = np.load(os.path.join(args.dir, "test.npy")).astype(np.float32)
    if args.dry_run:
        dry_run(plan, images, threads)
        return
    import onnxruntime as ort
    for m, kind, path in plan:
        model = model_bytes(path)
        first, notes = None, []
        for t in threads:
            try:
                ms, passes, outputs = measure(session(ort, model, t), images,
                                              args.budget, args.passes)
            except Exception as e:  # one failing model does not stop the rest
                log(f"{m} {kind}, {t} threads: FAILED: {e}")
                notes.append(f"failed at {t} threads")
                continue
            log(f"{m} {kind}, {t} threads: {ms:.3f} ms per image (best of "
                f"{passes} passes)")
            print(f"{m}\t{kind}\t{t}\t{ms:.3f}\t{passes}", flush=True)
            if first is None:
                first = outputs
            elif outputs.tobytes() != first.tobytes():
                notes.append(f"differ at {t} threads")
        if first is not None and not notes:
            notes.append("identical")
        theirs = os.path.join(args.quantc_outputs, f"quantc-{m}-{kind}.npy")
        if first is not None and kind == "float" and os.path.exists(theirs):
            notes.append(f"vs quantc {max_rel_diff(first, np.load(theirs)):.1e}")
        print(f"{m}\t{kind}\tnote\t{', '.join(notes)}", flush=True)


if __name__ == "__main__":
    main()
