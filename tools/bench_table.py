#!/usr/bin/env python3
"""Markdown table of one or more `gemm-tune bench --json` files: layout, time, kernel (with the
operands repacked for it, when any), split-k, cuBLAS time, speed-up and fraction of the floor per problem, plus the geometric-mean speed-up of each file
and of all of them (with, for files written since change 106, how many repetitions ran under a clock
slowdown reason).
Floor = max(2MNK / PEAK, 4(MK + KN + MN) bytes / BW); defaults: the H100's 66.9 TFLOP/s FP32 peak and
the 3.0 TB/s device-to-device copy rate measured on the project's H100 machine.
Usage: tools/bench_table.py BENCH.json [MORE.json ...] [--peak-tflops 66.9] [--bandwidth-tbs 3.0]"""
import argparse
import math

from results_io import load_json


def floor_us(m, n, k, peak_tflops, bandwidth_tbs):
    flops = 2.0 * m * n * k
    return max(flops / (peak_tflops * 1e12), 4.0 * (m * k + k * n + m * n) / (bandwidth_tbs * 1e12)) * 1e6


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bench", nargs="+")
    ap.add_argument("--peak-tflops", type=float, default=66.9)
    ap.add_argument("--bandwidth-tbs", type=float, default=3.0)
    args = ap.parse_args()
    print("| shape M×N×K | layout | source | autogemm kernel | split-k | autogemm µs | TFLOP/s | cuBLAS µs | TFLOP/s "
          "| speed-up | floor µs | floor / autogemm | rel. error |")
    print("|" + " --- |" * 13)
    every = []
    summaries = []
    for path in args.bench:
        doc = load_json(path)
        speedups = []
        for r in doc["results"]:
            m, n, k = r["shape"]["m"], r["shape"]["n"], r["shape"]["k"]
            flops = 2.0 * m * n * k
            fl = floor_us(m, n, k, args.peak_tflops, args.bandwidth_tbs)
            ag, cb = r["autogemm"]["median_us"], r["cublas"]["median_us"]
            split = str(r["splits"]) + ("" if r["split_mode"] == "none" else " " + r["split_mode"])
            speedups.append(cb / ag)
            repacked = r.get("repacked", "none")  # files before change 24 have no such field
            kernel = f"`{r['kernel']}`" + ("" if repacked == "none" else f" ({repacked} repacked)")
            print(f"| {r['label']} | {r['layout']} | {r['source']} | {kernel} | {split} | {ag:.1f} "
                  f"| {flops / ag / 1e6:.2f} | {cb:.1f} | {flops / cb / 1e6:.2f} | {cb / ag:.2f} | {fl:.1f} "
                  f"| {fl / ag:.2f} | {r['autogemm']['rel_err']:.1e} |")
        every += speedups
        # Since change 106 each library's repetitions carry clock samples: how many ran slowed.
        slowed = None
        if doc["results"] and "slowed_reps" in doc["results"][0]["autogemm"]:
            slowed = tuple(sum(r[lib][f] for r in doc["results"]) for lib in ("autogemm", "cublas")
                           for f in ("slowed_reps", "reps"))
        summaries.append((path, len(speedups), geomean(speedups), min(speedups), slowed))
    print()
    for path, count, g, worst, slowed in summaries:
        print(f"- `{path}`: geometric mean of the speed-ups **{g:.3f}×** over {count} problems (lowest {worst:.2f}×)"
              + ("." if slowed is None else f"; repetitions under a slowdown reason: autogemm {slowed[0]} of "
                 f"{slowed[1]}, cuBLAS {slowed[2]} of {slowed[3]}."))
    if len(summaries) > 1:
        print(f"- all files: geometric mean **{geomean(every):.3f}×** over {len(every)} problems.")


if __name__ == "__main__":
    main()
