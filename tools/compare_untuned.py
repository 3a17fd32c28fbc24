#!/usr/bin/env python3
"""Fallback quality: for problems nobody tuned, the untuned choice's time (a `gemm-tune bench --json`
run whose results all came from the untuned choice) against the best of an `--exhaustive` tuning of the
same problems (`gemm-tune tune --json`). Quality = exhaustive best time / untuned-choice time (1 = as good
as the best). Prints a markdown table, the geometric mean and the worst. --source online rates the
choices online mode made instead (a bench run with AUTOGEMM_MODE=online and a fresh database).
Usage: tools/compare_untuned.py BENCH.json EXHAUSTIVE_TUNE.json [--source untuned|online|tuned]"""
import argparse
import math
import sys

from results_io import load_json


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bench")
    ap.add_argument("exhaustive")
    ap.add_argument("--source", default="untuned")
    args = ap.parse_args()
    bench = load_json(args.bench)["results"]
    # A problem tuned as its padded form (BF16/FP16 on padded copies) is the caller's problem.
    tuned = {(p["layout"], *(p["padded_from"][x] if "padded_from" in p else p[x] for x in "mnk")): p
             for p in load_json(args.exhaustive)["problems"] if "best" in p}
    print("| layout | m×n×k (column-major) | untuned kernel | split | untuned µs | exhaustive best | split | best µs | quality |")
    print("|" + " --- |" * 9)
    qualities = []
    for r in bench:
        key = (r["layout"], r["shape"]["n"], r["shape"]["m"], r["shape"]["k"])  # bench shape is row-major
        if r["source"] != args.source:
            print(f"skipping {key}: source {r['source']}", file=sys.stderr)
            continue
        if key not in tuned:
            print(f"skipping {key}: no exhaustive result", file=sys.stderr)
            continue
        best = tuned[key]["best"]
        q = best["median_us"] / r["autogemm"]["median_us"]
        qualities.append(q)
        split = lambda s, m: f'{s}{"" if m == "none" else " " + m}'
        print(f'| {key[0]} | {key[1]}×{key[2]}×{key[3]} | `{r["kernel"]}` | {split(r["splits"], r["split_mode"])} '
              f'| {r["autogemm"]["median_us"]:.1f} | `{best["kernel"]}` | {split(best["splits"], best["split_mode"])} '
              f'| {best["median_us"]:.1f} | {q:.2f} |')
    if qualities:
        geo = math.exp(sum(math.log(q) for q in qualities) / len(qualities))
        print(f"\n{len(qualities)} problems: geometric mean quality **{geo:.3f}**, worst **{min(qualities):.3f}**.")


if __name__ == "__main__":
    main()
