#!/usr/bin/env python3
"""The tensor-core issues' targets checked on the H200's results files: BF16/FP16 (issue 47) and FP32
on tensor cores, TF32 and 3xTF32 (issue 48). Imported by tools/perf_report.py: h200_sets() names the
files docs/results/h200_bench_{tc,fp32tc}_*.json ("bf16 seed", "bf16 seed untuned", "bf16 large",
"3xtf32 perf", ...) for both; target_rows() returns (target, measured, met) per target, for
perf_targets.markdown_table(); accuracy_cases() and error_ratio_3xtf32() serve the accuracy table too.
A target whose files are missing is left out.
Usage: tools/tc_targets.py (prints the table of the committed files)"""
import os

import compare_untuned
from bench_table import TENSOR_PEAK_TFLOPS, fp32_speedup, geomean, speedup
from results_io import load_json, named_results

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "results")
SETS = ("seed", "llm", "perf")  # the problems of issue 47's targets 2 and 3
ACCURACY_FILE = "h200_accuracy.json"  # `gemm-tune accuracy --json`, issue 48's target 3


def label_of(r):
    return f"{r['label'].removeprefix('col ')} `{r['layout']}`"


def span(values, fmt="{:.2f}"):
    lo, hi = min(values), max(values)
    return fmt.format(lo) if fmt.format(lo) == fmt.format(hi) else f"{fmt.format(lo)}–{fmt.format(hi)}"


def squares(results, size):
    """The results of size³ problems."""
    return [r for r in results if r["shape"]["m"] == r["shape"]["n"] == r["shape"]["k"] == size]


def bf16_f16_rows(sets, untuned_quality=None):
    """Issue 47's targets 1-3 per type, from the `large`, tuned and untuned sets; `untuned_quality`:
    compare_untuned.quality_rows() of the problems no database holds (BF16), or None."""
    rows = []
    for dtype, name in (("bf16", "BF16"), ("f16", "FP16")):
        large = sets.get(f"{dtype} large")
        if large:
            parts, ok = [], True
            for size in (4096, 8192):
                rs = squares(large["results"], size)
                if not rs:
                    continue
                tflops = [2.0 * size ** 3 / r["autogemm"]["median_us"] / 1e6 for r in rs]
                ok &= min(speedup(r) for r in rs) >= 1.0
                parts.append(f"{size}³ {span([speedup(r) for r in rs])}× ({span(tflops, '{:.0f}')} TFLOP/s, "
                             f"{span([t / TENSOR_PEAK_TFLOPS * 100 for t in tflops], '{:.0f}')}% of "
                             f"{TENSOR_PEAK_TFLOPS:.0f}; {len(rs)} layouts)")
            if parts:
                rows.append((f"47.1 {name} 4096³ and 8192³ ≥ 1.0× cuBLAS", "; ".join(parts), ok))
        for untuned in (False, True):
            docs = [sets.get(f"{dtype} {s}" + (" untuned" if untuned else "")) for s in SETS]
            if not all(docs):
                continue
            results = [r for doc in docs for r in doc["results"]]
            g, worst = geomean([speedup(r) for r in results]), min(results, key=speedup)
            if untuned:
                rows.append((f"47.3 {name} untuned, the same problems: geometric mean ≥ 1.0×",
                             f"{g:.3f}× over {len(results)} problems", g >= 1.0))
            else:
                at_least = sum(speedup(r) >= 0.97 for r in results)
                rows.append((f"47.2 {name} tuned, seed + `llm` + perf: every problem ≥ 0.97×, geometric mean ≥ 1.10×",
                             f"{g:.3f}× over {len(results)} problems; {at_least} at ≥ 0.97×, lowest "
                             f"{speedup(worst):.2f}× ({label_of(worst)})", g >= 1.10 and at_least == len(results)))
    if untuned_quality:
        e2e = [e for *_, e in untuned_quality if e is not None]
        kernel_only = [q for *_, q, _ in untuned_quality]
        if e2e:
            rows.append(("47.3 untuned on ≥ 20 problems no database holds: ≥ 0.90 of the `--exhaustive` best, none "
                         "below 0.75",
                         f"{len(e2e)} BF16 problems, against the exhaustive tuning's choices run end to end: "
                         f"{compare_untuned.geo(e2e):.3f}, worst {min(e2e):.2f} (against the tuner's own times, which "
                         f"leave out the padded problems' copies: {compare_untuned.geo(kernel_only):.3f}, worst "
                         f"{min(kernel_only):.2f})", len(e2e) >= 20 and compare_untuned.geo(e2e) >= 0.90 and min(e2e) >= 0.75))
    return rows


def fp32_tensor_rows(sets, accuracy=None):
    """Issue 48's targets, from the `3xtf32` and `tf32` seed and perf sets and `gemm-tune accuracy`'s
    rows (`accuracy`, or None)."""
    rows = []
    emulated = [sets.get(f"3xtf32 {s}") for s in ("seed", "perf")]
    if emulated[1]:
        big = [r for r in emulated[1]["results"] if r["label"] in ("4096x4096x4096", "4096x11008x4096")]
        if big:
            rows.append(("48.1 `fp32_emulated` 4096³ and 4096×11008×4096 ≥ 2.0× cuBLAS pedantic SGEMM",
                         f"{span([speedup(r) for r in big])}× ({len(big)} problems, all layouts)",
                         min(speedup(r) for r in big) >= 2.0))
    if all(emulated):
        results = [r for doc in emulated for r in doc["results"]]
        vs_fp32 = [(fp32_speedup(r), r) for r in results if fp32_speedup(r) is not None]
        if vs_fp32:
            low, worst = min(vs_fp32, key=lambda x: x[0])
            below = [r for v, r in vs_fp32 if v < 1.0]
            # Where the mode keeps the CUDA-core kernel, its choice can be the pedantic one itself.
            same = sum(r["kernel"] == r["autogemm_fp32"].get("kernel") for r in below)
            rows.append(("48.1 `fp32_emulated` seed and perf ≥ 1.0× autogemm's pedantic FP32 on every problem",
                         f"lowest {low:.2f}× ({label_of(worst)}); {len(vs_fp32) - len(below)} of {len(vs_fp32)} at "
                         f"≥ 1.0×" + (f", {same} of the other {len(below)} on the pedantic choice's own kernel"
                                       if below else ""), low >= 1.0))
        means = [geomean([speedup(r) for r in doc["results"]]) for doc in emulated]
        rows.append(("48.1 `fp32_emulated` geometric mean ≥ 1.3× cuBLAS pedantic SGEMM",
                     f"seed {means[0]:.3f}×, perf {means[1]:.3f}×", min(means) >= 1.3))
    tf32 = [sets.get(f"tf32 {s}") for s in ("seed", "perf")]
    if all(tf32):
        parts, ok = [], True
        for s, doc in zip(("seed", "perf"), tf32):
            g, worst = geomean([speedup(r) for r in doc["results"]]), min(doc["results"], key=speedup)
            ok &= g >= 1.10 and speedup(worst) >= 1.0
            parts.append(f"{s} {g:.3f}×, lowest {speedup(worst):.2f}× ({label_of(worst)})")
        rows.append(("48.2 `tf32` every problem ≥ 1.0× cuBLAS TF32, geometric mean ≥ 1.10×", "; ".join(parts), ok))
    if accuracy:
        ratios = [(error_ratio_3xtf32(by_method), key) for key, by_method in accuracy_cases(accuracy).items()]
        ratios = [(x, key) for x, key in ratios if x is not None]
        if ratios:
            worst, (data, k) = max(ratios)
            rows.append(("48.3 3xTF32's worst error ≤ 2× cuBLAS pedantic SGEMM's, every data kind and K ≤ 65536",
                         f"up to {worst:.2f}× ({data}, K = {k}; {sum(x <= 2.0 for x, _ in ratios)} of {len(ratios)} "
                         f"within 2×; on the {accuracy.get('device', '?')})", worst <= 2.0))
    return rows


def accuracy_cases(doc):
    """`gemm-tune accuracy --json`'s rows by (data, K), then by method; the split sweep's rows
    (autogemm_3xtf32_split) by split_method(splits)."""
    cases = {}
    for r in doc["rows"]:
        method = split_method(r["splits"]) if r["method"] == "autogemm_3xtf32_split" else r["method"]
        cases.setdefault((r["data"], r["k"]), {})[method] = r
    return cases


def split_method(splits):
    """accuracy_cases()'s key of the split sweep's 3xTF32 row in `splits` splits."""
    return f"autogemm_3xtf32_split{splits}"


def sweep_splits(doc):
    """The split counts of the accuracy file's sweep, in increasing order."""
    return sorted({r["splits"] for r in doc["rows"] if r["method"] == "autogemm_3xtf32_split"})


def error_ratio_3xtf32(by_method, method="autogemm_3xtf32"):
    """3xTF32's worst error (`method`'s row) over cuBLAS pedantic SGEMM's on one case of
    accuracy_cases() (the bound of issue 48 is 2), or None where either is missing or cuBLAS's is 0."""
    ours, theirs = by_method.get(method), by_method.get("cublas_pedantic")
    return None if ours is None or theirs is None or theirs["worst"] == 0 else ours["worst"] / theirs["worst"]


def h200_sets(folder=RESULTS):
    """The H200's tensor-core bench files as (set name, path, document), BF16/FP16 first."""
    return named_results(folder, "h200_bench_tc_") + named_results(folder, "h200_bench_fp32tc_")


def target_rows(sets, untuned_quality=None, accuracy=None):
    """Both issues' rows; `sets` maps perf_report's set names to bench files."""
    return bf16_f16_rows(sets, untuned_quality) + fp32_tensor_rows(sets, accuracy)


def untuned_quality_of(results_dir=RESULTS):
    """quality_rows() of the H200's untuned problems' files, or None where one is missing."""
    try:
        bench, tune, tuned = (load_json(os.path.join(results_dir, f)) for f in (
            "h200_bench_untuned_bf16.json", "h200_tune_untuned_exhaustive_bf16.json",
            "h200_bench_untuned_exhaustive_bf16.json"))
    except FileNotFoundError:
        return None
    return compare_untuned.quality_rows(bench["results"], tune["problems"], tuned["results"])[0]


def main():
    import perf_targets
    sets = {name: doc for name, _, doc in h200_sets()}
    accuracy = load_json(os.path.join(RESULTS, ACCURACY_FILE))
    print("\n".join(perf_targets.markdown_table(target_rows(sets, untuned_quality_of(), accuracy))))


if __name__ == "__main__":
    main()
