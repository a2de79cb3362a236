#!/usr/bin/python3
"""Prints the accuracy benchmark's results (<cache>/results.jsonl, written
by run.py) as Markdown: the task metric of every model under every
configuration, the output SQNR on the eval data, the int8 compile times,
the float model's own score on the data, each configuration's mean rank
over the models, and every error.

Usage: /usr/bin/python3 bench/accuracy/table.py [--cache build/accuracy]
"""
import argparse
import json
import os
import platform
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import models  # noqa: E402

# metric -> (the value a configuration is ranked by, higher is better; the
# cell). Agreements tie often (100 %): the output SQNR breaks the tie.
MAIN = {
    "det": (lambda r: (r["sqnr_db"],),
            lambda r: f"{r['sqnr_db']:.1f} dB / IoU {r['map_iou']:.3f}"),
    "ctc": (lambda r: (r["same_text"], r["sqnr_db"]),
            lambda r: f"{100 * r['same_text']:.1f} % ({r['sqnr_db']:.1f} dB)"),
    "top1": (lambda r: (r["top1_agreement"], r["sqnr_db"]),
             lambda r: f"{100 * r['top1_agreement']:.1f} % ({r['sqnr_db']:.1f} dB)"),
    "score": (lambda r: (r["logit_sqnr_db"],), lambda r: f"{r['logit_sqnr_db']:.1f} dB"),
    "sqnr": (lambda r: (r["sqnr_db"],), lambda r: f"{r['sqnr_db']:.1f} dB"),
}
WHAT = {
    "det": "probability map SQNR against float, IoU of the maps binarized at 0.3",
    "ctc": "lines whose CTC greedy decode equals float's",
    "top1": "top-1 agreement with float",
    "score": "SQNR of the score's logit against float",
    "sqnr": "output SQNR against float",
}


def cpu_name():
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def load(cache):
    rows = {}
    with open(os.path.join(cache, "results.jsonl")) as fh:
        for line in fh:
            r = json.loads(line)
            rows[(r["model"], r["config"])] = r
    return rows


def short(error, n=90):
    return (error[: n - 3] + "...") if len(error) > n else error


def ranks(values):
    """Rank 1 = best (highest); ties share the mean rank; None ranks last."""
    order = sorted(values, key=lambda v: (v[1] is not None, v[1] or ()), reverse=True)
    out, i = {}, 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and order[j + 1][1] == order[i][1]:
            j += 1
        for k in range(i, j + 1):
            out[order[k][0]] = (i + j) / 2 + 1
        i = j + 1
    return out


def _margin(a, b):
    """+1 if a is better than b by more than half a dB or half a percent
    (the first value that differs by that much decides), -1 if worse, 0."""
    for x, y in zip(a, b):
        tolerance = 0.005 if abs(x) <= 1 and abs(y) <= 1 else 0.5
        if abs(x - y) > tolerance:
            return 1 if x > y else -1
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cache", default=os.path.join(models.ROOT, "build", "accuracy"))
    args = p.parse_args()
    rows = load(args.cache)
    import run
    configs = [c for c, _ in run.CONFIGS if any(k[1] == c for k in rows)]
    int8 = [c for c in configs if c != "float"]
    names = [m for m in models.MODELS if any(k[0] == m.name for k in rows)]

    when = os.path.getmtime(os.path.join(args.cache, "results.jsonl"))
    print(f"Machine: {cpu_name()}, {os.cpu_count()} CPUs; "
          f"results of {time.strftime('%Y-%m-%d', time.gmtime(when))}.\n")
    print("Task metric, int8 against float, output SQNR on the eval data in parentheses "
          "(what float itself scores on the data: below):\n")
    print("| model | metric | " + " | ".join(int8) + " |")
    print("|---|---|" + "---|" * len(int8))
    errors, rank_sum, rank_n = [], {c: 0.0 for c in int8}, 0
    versus = {c: [0, 0, 0] for c in int8}  # better, same, worse than default
    for m in names:
        key, show = MAIN[m.metric]
        cells, values = [], []
        for c in int8:
            r = rows.get((m.name, c))
            if r is None:
                cells.append("")
                continue
            if "error" in r:
                cells.append("fails")
                values.append((c, None))
                continue
            cells.append(show(r))
            values.append((c, key(r)))
        f = rows.get((m.name, "float"), {})
        if "error" in f:
            errors.append((m.name, "float", f["error"]))
            cells = ["float fails"] + [""] * (len(int8) - 1)
        else:
            errors += [(m.name, c, rows[(m.name, c)]["error"]) for c in int8
                       if "error" in rows.get((m.name, c), {})]
        got = dict(values)
        if got.get("default") is not None:
            for c, v in got.items():
                # better / worse: by more than 0.5 dB or 0.5 % of samples
                d = -1 if v is None else _margin(v, got["default"])
                versus[c][0 if d > 0 else 2 if d < 0 else 1] += 1
        if len(values) == len(int8) and any(v is not None for _, v in values):
            for c, rk in ranks(values).items():
                rank_sum[c] += rk
            rank_n += 1
        print(f"| {m.name} | {WHAT[m.metric].split(',')[0]} | " + " | ".join(cells) + " |")
    print("| **against default** | better / same / worse | " +
          " | ".join("/".join(map(str, versus[c])) for c in int8) + " |")
    if rank_n:
        print(f"| **mean rank** ({rank_n} models) | 1 = best | " +
              " | ".join(f"{rank_sum[c] / rank_n:.2f}" for c in int8) + " |")

    print("\nOutput SQNR (dB) on the eval data, int8 against float "
          "(report.json's summary.output_sqnr_db on the calibration data in parentheses):\n")
    print("| model | " + " | ".join(int8) + " |")
    print("|---|" + "---|" * len(int8))
    for m in names:
        cells = []
        for c in int8:
            r = rows.get((m.name, c), {})
            if "sqnr_db" in r:
                rep = r.get("report_sqnr_db")
                shown = f" ({rep:.1f})" if isinstance(rep, (int, float)) else ""
                cells.append(f"{r['sqnr_db']:.1f}{shown}")
            else:
                cells.append("fails" if "error" in r else "")
        print(f"| {m.name} | " + " | ".join(cells) + " |")

    print("\nCompile time (s, wall, `--emit=shared`; int8 with `--report` unless run with "
          "`--no-report`; CPU seconds in "
          "parentheses where recorded):\n")
    print("| model | input | " + " | ".join(configs) + " |")
    print("|---|---|" + "---|" * len(configs))
    for m in names:
        cells = []
        for c in configs:
            r = rows.get((m.name, c), {})
            cpu = f" ({r['compile_cpu_s']})" if "compile_cpu_s" in r else ""
            cells.append(f"{r.get('compile_s', '')}{cpu}")
        print(f"| {m.name} | {m.shape} | " + " | ".join(cells) + " |")

    print("\nThe models, and what float achieves on the data:\n")
    print("| model | what | float on the data |")
    print("|---|---|---|")
    for m in names:
        f = rows.get((m.name, "float"), {})
        got = ", ".join(f"{k} {v:.3f}" for k, v in f.items()
                        if k not in ("model", "config", "compile_s", "compile_cpu_s", "error"))
        print(f"| {m.name} | {m.kind} | {got or ('fails' if 'error' in f else '')} |")

    if errors:
        print("\nErrors:\n")
        for model, config, error in errors:
            error = error.replace(os.path.join(args.cache, "npm") + "/", "").replace(
                models.ROOT + "/", "")
            print(f"- {model}, {config}: `{short(error, 400)}`")


if __name__ == "__main__":
    main()
