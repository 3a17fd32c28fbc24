#!/usr/bin/env python3
"""Compares a `gemm-tune tune --json` report with an `--exhaustive` one of the same shapes: per shape,
the tuned choice's time over the exhaustive winner's, and how many candidates pruning removed.
Usage: tools/compare_tune.py TUNED.json EXHAUSTIVE.json [--markdown]"""
import sys

from results_io import load_json


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in sys.argv
    if len(args) != 2:
        sys.exit(__doc__)
    tuned = {(p["shape"], p["layout"]): p for p in load_json(args[0])["problems"]}
    exhaustive = {(p["shape"], p["layout"]): p for p in load_json(args[1])["problems"]}
    rows, worst = [], 0.0
    for key, t in tuned.items():
        e = exhaustive.get(key)
        if not e or "best" not in t or "best" not in e:
            continue
        ratio = t["best"]["median_us"] / e["best"]["median_us"]
        worst = max(worst, ratio)
        split = lambda b: f'{b["splits"]}{"" if b["split_mode"] == "none" else " " + b["split_mode"]}'
        rows.append([f"{key[0]} {key[1]}", t["best"]["kernel"], split(t["best"]), f'{t["best"]["median_us"]:.1f}',
                     e["best"]["kernel"], split(e["best"]), f'{e["best"]["median_us"]:.1f}', f"{ratio:.3f}",
                     str(t["candidates"]), str(t["pruned_occupancy"]), str(t["pruned_cost_model"]),
                     str(t["checked"]), str(t["fully_timed"]), f'{t["seconds"]:.1f}'])
    head = ["shape", "tuned kernel", "split", "tuned µs", "exhaustive winner", "split", "exh. µs", "ratio",
            "candidates", "pruned: occupancy", "pruned: cost model", "quick-timed", "fully timed", "s"]
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + " --- |" * len(head))
        for r in rows:
            r[1], r[4] = f"`{r[1]}`", f"`{r[4]}`"
            print("| " + " | ".join(r) + " |")
    else:
        for r in [head] + rows:
            print("  ".join(r))
    within = sum(1 for r in rows if float(r[7]) <= 1.03)
    print(f"\n{within} of {len(rows)} shapes within 3% of the exhaustive winner; worst ratio {worst:.3f}")


if __name__ == "__main__":
    main()
