#!/usr/bin/env python3
"""Checks issue 6's targets against `gemm-tune bench --json` files of the seed set (nn) and the perf
set (all layouts), and prints a Markdown table saying, for each target, what was measured and by how
much it is met or missed.
Floor = max(2MNK / PEAK, 4(MK + KN + MN) bytes / BW) as in tools/bench_table.py.
With --runs, further files of the same two sets (say a second and third benchmark run with the same
database) are merged: each problem is checked on the median over all runs of autogemm's time and,
separately, of cuBLAS's, so one slow run of either library does not decide a target. With
--cublas-best, cuBLAS's time is instead the fastest of its runs: where cuBLAS stalls in two runs of
three (1000^3 once ran 145 and 110 us against its usual 61), the median would credit autogemm with
cuBLAS's stall; the fastest run cannot.
Also imported by tools/perf_report.py: target_rows() and markdown_table() make its target summary.
Usage: tools/perf_targets.py SEED.json PERF.json [--runs MORE.json ... [--cublas-best]]
       [--peak-tflops 66.9] [--bandwidth-tbs 3.0]"""
import argparse
import copy
import statistics

from bench_table import BANDWIDTH_TBS, PEAK_TFLOPS, floor_us, geomean, speedup

from results_io import load_json


def load(path):
    return load_json(path)["results"]


def key(r):
    return (r["label"], r["layout"])


def merge_runs(first, others, cublas_pick=statistics.median):
    """`first`'s results with each library's median_us replaced by its median over `first` and the
    results of the same problems in `others` (problems absent from `first` are ignored); cuBLAS's
    by `cublas_pick` of them."""
    times = {key(r): ([r["autogemm"]["median_us"]], [r["cublas"]["median_us"]]) for r in first}
    for results in others:
        for r in results:
            if key(r) in times:
                times[key(r)][0].append(r["autogemm"]["median_us"])
                times[key(r)][1].append(r["cublas"]["median_us"])
    merged = copy.deepcopy(first)
    for r in merged:
        ours, theirs = times[key(r)]
        r["autogemm"]["median_us"] = statistics.median(ours)
        r["cublas"]["median_us"] = cublas_pick(theirs)
    return merged


def find(results, label, layout="nn"):
    """The result of `label` in `layout`; LookupError naming it where the file has no such problem."""
    for r in results:
        if r["label"] == label and r["layout"] == layout:
            return r
    raise LookupError(f"no {label} {layout} result")


def target_rows(seed, perf, peak_tflops=PEAK_TFLOPS, bandwidth_tbs=BANDWIDTH_TBS):
    """(target, what was measured, met) per target, from the results of the seed set (nn) and of the
    perf set (all layouts). LookupError where a set lacks a problem a target names."""
    rows = []
    worst = min(seed, key=speedup)
    rows.append(("1a. every seed shape ≥ 1.0× cuBLAS", f"lowest {speedup(worst):.2f}× ({worst['label']}); "
                 f"{sum(speedup(r) >= 1.0 for r in seed)}/{len(seed)} at ≥ 1.0×", speedup(worst) >= 1.0))
    g = geomean([speedup(r) for r in seed])
    rows.append(("1b. seed geometric mean ≥ 1.15×", f"{g:.3f}×", g >= 1.15))
    for label, limit_us, src in (("3072x3072x3072", 1250.0, seed), ("4096x4096x4096", 2570.0, perf)):
        r = find(src, label)
        t = r["autogemm"]["median_us"]
        rows.append((f"2. {label} ≤ {limit_us / 1000:.2f} ms", f"{t / 1000:.3f} ms ({t / limit_us:.2f}× the limit)",
                     t <= limit_us))
    for label in ("32x3072x3072", "16x3072x3072", "1x3072x3072", "256x256x8192", "128x128x32768"):
        r = find(seed, label)
        m, n, k = r["shape"]["m"], r["shape"]["n"], r["shape"]["k"]
        ratio = r["autogemm"]["median_us"] / floor_us(m, n, k, peak_tflops, bandwidth_tbs)
        rows.append((f"3. {label} within 1.6× of its floor", f"{ratio:.2f}× the floor", ratio <= 1.6))
    odd = [r for r in perf if r["label"] != "4096x4096x4096"]
    g4 = geomean([speedup(r) for r in odd])
    rows.append(("4. odd sizes, all layouts: geometric mean ≥ 1.0×", f"{g4:.3f}× over {len(odd)} problems", g4 >= 1.0))
    return rows


def markdown_table(rows):
    """Lines of the Markdown table of target_rows()."""
    return ["| target | measured | met |", "| --- | --- | --- |"] + [
        f"| {name} | {measured} | {'yes' if ok else '**no**'} |" for name, measured, ok in rows]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seed")
    ap.add_argument("perf")
    ap.add_argument("--runs", nargs="+", default=[], metavar="FILE",
                    help="more bench JSON files of either set; per-problem medians over all files")
    ap.add_argument("--cublas-best", action="store_true",
                    help="with --runs: cuBLAS's time per problem is its fastest run, not the median")
    ap.add_argument("--peak-tflops", type=float, default=PEAK_TFLOPS)
    ap.add_argument("--bandwidth-tbs", type=float, default=BANDWIDTH_TBS)
    args = ap.parse_args()
    if args.cublas_best and not args.runs:
        ap.error("--cublas-best picks among runs: give --runs")
    seed, perf = load(args.seed), load(args.perf)
    if args.runs:
        more = [load(f) for f in args.runs]
        runs_of = lambda results: 1 + sum(any(key(r) in {key(x) for x in results} for r in m) for m in more)
        cublas = "its fastest run" if args.cublas_best else "medians"
        print(f"Per-problem medians (cuBLAS: {cublas}) over {runs_of(seed)} runs of the seed set and "
              f"{runs_of(perf)} of the perf set.\n")
        pick = min if args.cublas_best else statistics.median
        seed, perf = merge_runs(seed, more, pick), merge_runs(perf, more, pick)
    print("\n".join(markdown_table(target_rows(seed, perf, args.peak_tflops, args.bandwidth_tbs))))


if __name__ == "__main__":
    main()
