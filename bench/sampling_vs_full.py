#!/usr/bin/env python3
"""sampling_vs_full.py - what a sampled prediction gives a user: the time `augur predict
--sample RATE` predicts against the time it predicts from all the data, for every kernel of
bench/validate on every shared dataset it applies to, at one thread, per sampler.

usage: bench/sampling_vs_full.py BUILD [--old BUILD] [--rate R] [--methods auto,sa,rt,rb,re]
                                 [--interval K] [--interval-methods LIST] [--machine FILE]
                                 [--jobs N] [--page FILE]
                                 [--errors-out FILE] [--cases-out FILE] [--cv TRAIN.json]

--old runs a second build on the same cases in the same run (as ratios, nothing timed), so a
change to the scaling is seen beside what it replaced. The page (default: standard output)
gives, per build and sampler, the cases, the median, p90 and largest deviation
|sampled - full| / full, and the cases off by more than 25 %; with --interval K (default 4;
0: none; --interval-methods: for these samplers only) the share of the cases whose 95 %
interval holds the full-data time, the interval's
median width (hi / lo), and the deviation of the samples' geometric mean, the estimate the
same K + 1 samples would give if averaged. Searches by rounds (BFS) are left out: augur runs
them on the whole data whatever the rate.

--errors-out writes, per dataset file, the mean deviation of sa, rt and rb over the kernels
all three predicted (lines NAME SA RT RB): the labels `augur train categorizer --errors`
trains the sampler choice on, judged on predicted times. --cases-out writes every case of
this build (kernel, dataset, the full-data time, each sampler's time and interval) as a table
to analyse further.

--cv takes the output of `augur --json train categorizer --errors ...` and adds the row
"auto, held out": each dataset predicted with the sampler its cross-validated tree picks (a
tree trained without that dataset), from the same run's samples, where `auto`'s own row is
in-sample for a tree trained on these datasets' errors.
"""
import argparse
import concurrent.futures
import datetime
import importlib.machinery
import importlib.util
import json
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_validate():
    path = os.path.join(HERE, "bench", "validate")
    loader = importlib.machinery.SourceFileLoader("validate", path)
    spec = importlib.util.spec_from_loader("validate", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


V = load_validate()


def cases(augur, datasets_dir):
    """(kernel, dataset path) pairs bench/validate runs, without the searches by rounds."""
    infos = {}
    for d in V.find_datasets(datasets_dir):
        infos[d] = V.dataset_info(augur, d)
    out = []
    for k in V.KERNELS:
        if k[0].startswith("bfs_") or k[0] == "main_kernel":
            continue
        for d, info in infos.items():
            if info and V.applies(k[5], info, info["mesh"]):
                out.append((k, d))
    return out


def one(augur, machine, rate, methods, interval, iv_methods, case):
    k, data = case
    full, why = V.predict(augur, k, data, machine, 1)
    row = {"kernel": k[0], "dataset": V.stem(data), "file": os.path.basename(data),
           "full": full["seconds"] if full else None, "why": why}
    for m in methods:
        extra = ["--sample", str(rate)] + (["--method", m] if m != "auto" else []) + \
            (["--interval", str(interval if m in iv_methods else 0)]
             if interval is not None else [])
        s, why = V.predict(augur, k, data, machine, 1, extra)
        row[m] = s["seconds"] if s else None
        iv = s.get("interval") if s else None
        if iv:
            row[m + ":iv"] = (iv["lo"], iv["hi"])
            row[m + ":gm"] = math.exp(statistics.mean(math.log(x) for x in iv["seconds"]))
        if s and m == "auto":
            row["auto_method"] = s.get("sample", {}).get("method", "")
    return row


def pct(x):
    return "%.1f %%" % (100 * x)


def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]


def deviations(rows, key):
    return sorted(abs(r[key] - r["full"]) / r["full"] for r in rows
                  if r.get(key) and r.get("full"))


def add_cv(rows, path):
    """Each row's "auto, held out": the time of the sampler the cross-validated tree picks."""
    with open(path) as f:
        picks = {it["name"]: it["cv"] for it in json.load(f)["items"]}
    for r in rows:
        m = picks.get(r["file"])
        if m and r.get(m):
            r["auto, held out"] = r[m]


def table(rows, methods, label):
    lines = []
    for m in methods:
        dev = deviations(rows, m)
        if not dev:
            lines.append("| %s | %s | 0 | - | - | - | - |" % (label, m))
            continue
        lines.append("| %s | %s | %d | %s | %s | %s | %d |" %
                     (label, m, len(dev), pct(statistics.median(dev)), pct(p90(dev)),
                      pct(dev[-1]), sum(1 for x in dev if x > 0.25)))
    return lines


def interval_table(rows, methods, label):
    lines = []
    for m in methods:
        ivs = [(r["full"], r[m + ":iv"]) for r in rows if r.get("full") and r.get(m + ":iv")]
        if not ivs:
            continue
        covered = sum(1 for f, (lo, hi) in ivs if lo <= f <= hi)
        width = statistics.median(hi / lo for f, (lo, hi) in ivs)
        gm = deviations(rows, m + ":gm")
        lines.append("| %s | %s | %d | %d (%s) | %.2f | %s | %s | %s |" %
                     (label, m, len(ivs), covered, pct(covered / len(ivs)), width,
                      pct(statistics.median(gm)), pct(p90(gm)), pct(gm[-1])))
    return lines


def worst(rows, m, n=8):
    bad = [r for r in rows if r.get(m) and r.get("full")]
    bad.sort(key=lambda r: -abs(r[m] - r["full"]) / r["full"])
    return ["| %s | %s | %.3g | %.3g | %+.0f %% |" %
            (r["kernel"], r["dataset"], r["full"], r[m], 100 * (r[m] - r["full"]) / r["full"])
            for r in bad[:n]]


def write_cases(rows, methods, path):
    """Every case of this build: kernel, dataset file, the full-data time, each sampler's
    time and, where it has one, its interval (tab-separated; - where there is none)."""
    def val(r, k):
        return "%.6g" % r[k] if r.get(k) else "-"

    with open(path, "w") as f:
        f.write("# written by bench/sampling_vs_full.py: seconds per call\n")
        f.write("\t".join(["kernel", "file", "full"] + [c for m in methods for c in
                            (m, m + ":lo", m + ":hi", m + ":method")]) + "\n")
        for r in rows:
            cols = [r["kernel"], r["file"], val(r, "full")]
            for m in methods:
                iv = r.get(m + ":iv")
                cols += [val(r, m), "%.6g" % iv[0] if iv else "-", "%.6g" % iv[1] if iv else "-",
                         r.get("auto_method", "-") if m == "auto" else m]
            f.write("\t".join(cols) + "\n")


def write_errors(rows, path):
    """Per dataset file: the mean deviation of sa, rt and rb over the kernels all three had."""
    by_file = {}
    for r in rows:
        if r.get("full") and all(r.get(m) for m in ("sa", "rt", "rb")):
            by_file.setdefault(r["file"], []).append(
                [abs(r[m] - r["full"]) / r["full"] for m in ("sa", "rt", "rb")])
    with open(path, "w") as f:
        f.write("# written by bench/sampling_vs_full.py: per dataset, the mean |sampled - full| "
                "/ full of the predicted time over the kernels that sa, rt and rb all "
                "predicted\n# name sa rt rb kernels\n")
        for name in sorted(by_file):
            devs = by_file[name]
            f.write("%s %.6f %.6f %.6f  # %d\n" % ((name,) + tuple(
                statistics.mean(d[c] for d in devs) for c in range(3)) + (len(devs),)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--old", default="")
    ap.add_argument("--rate", type=float, default=0.05)
    ap.add_argument("--methods", default="auto,sa,rt,rb,re")
    ap.add_argument("--interval", type=int, default=4)
    ap.add_argument("--interval-methods", default="")
    ap.add_argument("--machine", default=os.path.join(HERE, "samples", "machines",
                                                      "dev-epyc-2vcpu.yml"))
    ap.add_argument("--datasets", default=os.path.join(HERE, "..", "shared", "datasets"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--page", default="")
    ap.add_argument("--errors-out", default="")
    ap.add_argument("--cases-out", default="")
    ap.add_argument("--cv", default="")
    args = ap.parse_args()
    methods = args.methods.split(",")
    iv_methods = args.interval_methods.split(",") if args.interval_methods else methods
    builds = [("this build", args.build)] + ([("--old", args.old)] if args.old else [])
    augur = os.path.join(os.path.abspath(args.build), "augur")
    work = cases(augur, args.datasets)
    results = []
    for label, b in builds:
        exe = os.path.join(os.path.abspath(b), "augur")
        iv = args.interval if label == "this build" else None  # --old may predate --interval
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
            rows = list(ex.map(lambda c: one(exe, args.machine, args.rate, methods, iv,
                                             iv_methods, c), work))
        results.append((label, rows))
        V.log("%s: %d cases" % (label, len(rows)))
    if args.errors_out:
        if not all(m in methods for m in ("sa", "rt", "rb")):
            sys.exit("--errors-out needs sa, rt and rb among --methods")
        write_errors(results[0][1], args.errors_out)
    if args.cases_out:
        write_cases(results[0][1], methods, args.cases_out)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cmd = "bench/sampling_vs_full.py " + " ".join(sys.argv[1:])
    out = ["# Sampled against full-data predictions", "",
           "What `augur predict --sample %g` predicts against what it predicts from all of the "
           "data, one thread, every kernel of `bench/validate` on every shared dataset it "
           "applies to (searches by rounds left out: they run on the whole data); machine "
           "file `%s`. Deviation: |sampled - full| / full. Written %s by:" %
           (args.rate, os.path.relpath(args.machine, HERE), when), "", "```", cmd, "```", "",
           "| build | sampler | cases | median | p90 | max | over 25 % |",
           "|---|---|---|---|---|---|---|"]
    for label, rows in results:
        if args.cv:
            add_cv(rows, args.cv)
        out += table(rows, methods + (["auto, held out"] if args.cv else []), label)
    ivt = []
    for label, rows in results:
        ivt += interval_table(rows, methods, label)
    if ivt:
        out += ["", "The 95 %% intervals from %d more samples (seeds 1..%d, the samplers in turn: "
                "`augur_predict_replicate_method()`): the cases with one, "
                "those whose interval holds the full-data time, the median width (hi / lo), and "
                "the deviation of the samples' geometric mean from the full-data time:" %
                (args.interval, args.interval), "",
                "| build | sampler | with interval | holds full | width | mean of samples: "
                "median | p90 | max |", "|---|---|---|---|---|---|---|---|"] + ivt
    label, rows = results[0]
    for m in methods:
        out += ["", "The largest deviations of `%s` (%s):" % (m, label), "",
                "| kernel | dataset | full s | sampled s | deviation |", "|---|---|---|---|---|"]
        out += worst(rows, m)
    failed = [r for r in rows if not r.get("full")]
    if failed:
        out += ["", "%d case%s failed on all the data (first: %s on %s: %s)." %
                (len(failed), "" if len(failed) == 1 else "s", failed[0]["kernel"],
                 failed[0]["dataset"], failed[0]["why"])]
    text = "\n".join(out) + "\n"
    if args.page:
        with open(args.page, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
