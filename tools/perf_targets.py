#!/usr/bin/env python3
"""Checks issue 6's targets against `gemm-tune bench --json` files of the seed set (nn) and the perf
set (all layouts), and prints a Markdown table saying, for each target, what was measured and by how
much it is met or missed.
Floor = max(2MNK / PEAK, 4(MK + KN + MN) bytes / BW) as in tools/bench_table.py.
Usage: tools/perf_targets.py SEED.json PERF.json [--peak-tflops 66.9] [--bandwidth-tbs 3.0]"""
import argparse
import json
import math

from bench_table import floor_us, geomean


def load(path):
    return json.load(open(path))["results"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seed")
    ap.add_argument("perf")
    ap.add_argument("--peak-tflops", type=float, default=66.9)
    ap.add_argument("--bandwidth-tbs", type=float, default=3.0)
    args = ap.parse_args()
    seed, perf = load(args.seed), load(args.perf)

    def speedup(r):
        return r["cublas"]["median_us"] / r["autogemm"]["median_us"]

    def find(results, label, layout="nn"):
        return next(r for r in results if r["label"] == label and r["layout"] == layout)

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
        ratio = r["autogemm"]["median_us"] / floor_us(m, n, k, args.peak_tflops, args.bandwidth_tbs)
        rows.append((f"3. {label} within 1.6× of its floor", f"{ratio:.2f}× the floor", ratio <= 1.6))
    odd = [r for r in perf if r["label"] != "4096x4096x4096"]
    g4 = geomean([speedup(r) for r in odd])
    rows.append(("4. odd sizes, all layouts: geometric mean ≥ 1.0×", f"{g4:.3f}× over {len(odd)} problems", g4 >= 1.0))
    print("| target | measured | met |")
    print("| --- | --- | --- |")
    for name, measured, ok in rows:
        print(f"| {name} | {measured} | {'yes' if ok else '**no**'} |")


if __name__ == "__main__":
    main()
