#!/usr/bin/env python3
"""Fallback quality: for problems nobody tuned, the untuned choice's time (a `gemm-tune bench --json`
run whose results all came from the untuned choice) against the best of an `--exhaustive` tuning of the
same problems (`gemm-tune tune --json`). Quality = exhaustive best time / untuned-choice time (1 = as good
as the best). Prints a markdown table, the geometric mean and the worst. --source online rates the
choices online mode made instead (a bench run with AUTOGEMM_MODE=online and a fresh database).
--tuned-bench adds the end-to-end quality: the same problems benchmarked with the exhaustive tuning
as the database, whose times, like the untuned run's, include the copies of problems that run on
padded operands (the tuner times the padded problem alone).
Usage: tools/compare_untuned.py BENCH.json EXHAUSTIVE_TUNE.json [--source untuned|online|tuned]
       [--tuned-bench TUNED_BENCH.json]"""
import argparse
import math
import sys

from results_io import load_json


def key_of(r):
    """A bench result's column-major problem (gemm-tune bench writes the row-major shape)."""
    return (r["layout"], r["shape"]["n"], r["shape"]["m"], r["shape"]["k"])


def quality_rows(bench, exhaustive, tuned_bench=None, source="untuned"):
    """Per problem of `bench` (a bench file's results) that `exhaustive` (a tune file's problems)
    tuned: (key, the bench result, the exhaustive best, quality, end-to-end quality or None where
    `tuned_bench`'s results lack the problem), and the lines saying which problems were skipped."""
    tuned_runs = {key_of(r): r for r in tuned_bench or []}
    # A problem tuned as its padded form (BF16/FP16 on padded copies) is the caller's problem.
    tuned = {(p["layout"], *(p["padded_from"][x] if "padded_from" in p else p[x] for x in "mnk")): p
             for p in exhaustive if "best" in p}
    rows, skipped = [], []
    for r in bench:
        key = key_of(r)
        if r["source"] != source:
            skipped.append(f"skipping {key}: source {r['source']}")
        elif key not in tuned:
            skipped.append(f"skipping {key}: no exhaustive result")
        else:
            best = tuned[key]["best"]
            e2e = tuned_runs[key]["autogemm"]["median_us"] / r["autogemm"]["median_us"] if key in tuned_runs else None
            rows.append((key, r, best, best["median_us"] / r["autogemm"]["median_us"], e2e))
    return rows, skipped


def geo(qs):
    return math.exp(sum(math.log(q) for q in qs) / len(qs))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bench")
    ap.add_argument("exhaustive")
    ap.add_argument("--source", default="untuned")
    ap.add_argument("--tuned-bench", help="bench of the same problems with the exhaustive tuning as the database")
    args = ap.parse_args()
    tuned_bench = load_json(args.tuned_bench)["results"] if args.tuned_bench else None
    rows, skipped = quality_rows(load_json(args.bench)["results"], load_json(args.exhaustive)["problems"],
                                 tuned_bench, args.source)
    for line in skipped:
        print(line, file=sys.stderr)
    end_to_end = " tuned end to end µs | quality end to end |" if tuned_bench else ""
    print("| layout | m×n×k (column-major) | untuned kernel | split | untuned µs | exhaustive best | split | best µs | "
          "quality |" + end_to_end)
    print("|" + " --- |" * (11 if tuned_bench else 9))
    split = lambda s, m: f'{s}{"" if m == "none" else " " + m}'
    for key, r, best, q, e2e in rows:
        print(f'| {key[0]} | {key[1]}×{key[2]}×{key[3]} | `{r["kernel"]}` | {split(r["splits"], r["split_mode"])} '
              f'| {r["autogemm"]["median_us"]:.1f} | `{best["kernel"]}` | {split(best["splits"], best["split_mode"])} '
              f'| {best["median_us"]:.1f} | {q:.2f} |', end="")
        if e2e is not None:
            print(f' {r["autogemm"]["median_us"] * e2e:.1f} | {e2e:.2f} |', end="")  # the tuned run's time
        print()
    qualities = [q for _, _, _, q, _ in rows]
    qualities_e2e = [e for _, _, _, _, e in rows if e is not None]
    if qualities:
        print(f"\n{len(qualities)} problems: geometric mean quality **{geo(qualities):.3f}**, worst **{min(qualities):.3f}**.")
    if qualities_e2e:
        print(f"End to end, against the exhaustive tuning's own run ({len(qualities_e2e)} problems): geometric mean "
              f"**{geo(qualities_e2e):.3f}**, worst **{min(qualities_e2e):.3f}**.")


if __name__ == "__main__":
    main()
